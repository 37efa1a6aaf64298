"""The Skat environment's spaces: the actions an agent chooses from and the slots of its
observation, for a rule set.

**The presets' space** (and that of every rule set whose house rules add no decision and
nothing to see): :data:`ACTIONS`, 165 engine texts in this order: every value of the
bidding ladders of both presets (63), ``hold``, ``pass``, ``hand``, ``pickup``,
``discard <card>`` for the 32 cards (two steps, see :mod:`stich.env.skat`), every
declaration some preset can make legal (34), and the 32 cards to play; and the
observation :data:`OBS_LAYOUT` of 400 slots (:mod:`stich.skat.observation`).  These never
change: trained policies depend on them.

**House rules** append blocks after them, each only when its rule is on, always in this
order (so a rule set's indices never move when a later rule is added to the project):

========================== ================================= ==========================
rule                        actions appended                  observation slots appended
========================== ================================= ==========================
``spitze`` under            the ladder values the presets     (none)
``announcements``           lack (Spitze raises the ladder)
``kontra_re``               ``kontra``, ``re`` (answered      ``kontra`` 3 (who said it:
                            without: ``pass``)                me, left, right), ``re`` 1
``spitze``                  ``declare … spitze`` for every    ``spitze`` 1 (declared)
                            suit and Grand declaration
``schieberamsch``           ``schieben`` (``pickup`` and the  ``pushes`` 1 (÷ 3)
                            two-step ``discard`` are there)
``klopfen``                 ``klopfen``                       ``knocks`` 1 (÷ 3)
``bock``                    (none)                            ``bock`` 1 (log2 of the
                                                              game's Bock factor),
                                                              ``bock_games_left`` 1 (÷ 10)
``bock_ramsch``             (none: ``declare grand hand``     ``ramsch_round`` 1,
                            and ``pass`` are there)           ``ramsch_games_left`` 1 (÷ 3)
========================== ================================= ==========================

``jungfrau``, ``durchmarsch``, ``ramsch_skat``, ``bock_games`` and ``bock_overlap`` change
only the scores and add nothing.  Bock and the Ramsch round come from the list
(:class:`stich.skat_list.SkatList`): the factor this game counts with, the games Bock
still doubles (this one included), whether this game is one of a compulsory Ramsch round
and how many such games are left (this one included).

The next two blocks are designed and not built (the engine does not have the rules yet;
:func:`refused_rule` names them and the environments refuse them): ``revolution``
appends ``give <card>`` for the 32 cards and ``give done``, giving cards one at a time
as the discard is put away in two steps (the adapter holds the cards chosen so far and
shows them in the observation; ``give done`` alone gives none; the partner's
``give done`` is legal exactly when as many cards are chosen as he received), with the
slots ``partner_hand`` 32 (the partner's cards, seen after the declaration),
``giving`` 32 (the cards chosen so far), ``given`` 32 and ``received`` 32; ``schenken``
appends ``schenken`` and ``accept`` (``pass`` answers too) with the slot ``schenken`` 3
(who offered it).
"""

from __future__ import annotations

from functools import cache
from typing import Final

from stich.cards import CARDS
from stich.skat.actions import Action, Declare, parse_action
from stich.skat.observation import OBS_LAYOUT, OBS_SIZE, SCALAR_COLUMNS
from stich.skat.options import declaration_options
from stich.skat.rules import PRESETS, GameType, SkatRules, bidding_ladder
from stich.skat.view import SkatView

__all__ = [
    "ACTIONS",
    "BIDS",
    "CARD_CODES",
    "DECLARATIONS",
    "DISCARD0",
    "N_ACTIONS",
    "NOT_YET",
    "OBS_LAYOUT",
    "OBS_SIZE",
    "PLAY0",
    "SkatSpace",
    "refused_rule",
    "space_of",
]


def _bid_values() -> list[int]:
    """Every value the presets let a player say (the ladders depend only on whether
    announcements are played, and on Spitze, a house rule)."""
    values: set[int] = set()
    for rules in (*PRESETS.values(), SkatRules(announcements=True), SkatRules()):
        values.update(bidding_ladder(rules))
    return sorted(values)


def _declarations() -> list[str]:
    """Every declaration some preset can make legal, as the engine writes it: each
    candidate (game × hand, schneider, schwarz, ouvert) that the parser reads and that
    the engine's table of declaration options offers for some (hand, announcements,
    allowed Nulls)."""
    offered: set[str] = set()
    for hand in (False, True):
        for announce in (False, True):
            for nulls in ((False, False), (False, True), (True, False), (True, True)):
                offered.update(str(d) for d in declaration_options(hand, announce, nulls))
    out: list[str] = []
    for game in ("schellen", "herz", "gruen", "eichel", "grand", "null"):
        for flags in range(16):
            words = ["declare", game] + [w for i, w in enumerate(
                ("hand", "schneider", "schwarz", "ouvert")) if flags >> i & 1]
            text = " ".join(words)
            parsed = str(parse_action(text))
            if parsed == text and text in offered:
                out.append(text)
    missing = offered - set(out)
    assert not missing, missing
    return out


BIDS: Final[list[int]] = _bid_values()
DECLARATIONS: Final[list[str]] = _declarations()
CARD_CODES: Final[list[str]] = [str(c) for c in CARDS]

ACTIONS: Final[list[str]] = (
    [str(v) for v in BIDS] + ["hold", "pass", "hand", "pickup"]
    + [f"discard {c}" for c in CARD_CODES] + DECLARATIONS + CARD_CODES
)
"""The presets' action space: index ``i`` is the engine text ``ACTIONS[i]``."""

N_ACTIONS: Final = len(ACTIONS)
DISCARD0: Final = len(BIDS) + 4  # first ``discard <card>`` (card index order)
PLAY0: Final = N_ACTIONS - 32  # first card to play (card index order)

SPITZE_DECLARATIONS: Final[list[str]] = [
    f"{d} spitze" for d in DECLARATIONS if parse_action(d).game is not GameType.NULL]  # type: ignore[union-attr]
"""``declare … spitze``: every suit and Grand declaration of :data:`DECLARATIONS`."""

NOT_YET: Final = ("revolution", "schenken")
"""House rules the environments do not play yet (their blocks are designed above)."""

# the observation slots each house rule appends, and which of them hold numbers
_HOUSE_SLOTS: Final[tuple[tuple[str, tuple[tuple[str, int], ...]], ...]] = (
    ("kontra_re", (("kontra", 3), ("re", 1))),
    ("spitze", (("spitze", 1),)),
    ("schieberamsch", (("pushes", 1),)),
    ("klopfen", (("knocks", 1),)),
    ("bock", (("bock", 1), ("bock_games_left", 1))),
    ("bock_ramsch", (("ramsch_round", 1), ("ramsch_games_left", 1))),
)
HOUSE_SCALARS: Final = ("pushes", "knocks", "bock", "bock_games_left", "ramsch_games_left")
"""The house slots that hold numbers rather than 0/1."""


def refused_rule(rules: SkatRules) -> str | None:
    """The first house rule of ``rules`` the environments do not play yet, or None."""
    for name in NOT_YET:
        if getattr(rules, name, "no") not in (False, "no", ""):
            return name
    return None


class SkatSpace:
    """The actions and observation slots of one rule set (build it with
    :func:`space_of`).

    ``actions[i]`` is the engine text of action ``i``; ``action_obj[i]`` the engine's
    action (None for the discard steps); ``index`` maps each engine action to its id.
    ``obs_layout`` names every slot (``(name, width)`` in order), ``house_layout`` the
    slots appended for the house rules; ``scalar_columns`` the columns that hold numbers.

    >>> space_of(SkatRules()).n_actions, space_of(SkatRules()).obs_size
    (165, 400)
    >>> s = space_of(SkatRules.parse("skat(preset=lothar,kontra_re=yes,klopfen=yes)"))
    >>> s.actions[165:], s.house_layout
    (('kontra', 're', 'klopfen'), (('kontra', 3), ('re', 1), ('knocks', 1)))
    """

    def __init__(self, rules: SkatRules) -> None:
        ladder = bidding_ladder(rules)
        extra_bids = [str(v) for v in ladder if v not in BIDS]
        extra: list[str] = list(extra_bids)
        if rules.kontra_re != "no":
            extra += ["kontra", "re"]
        if rules.spitze != "no":
            extra += SPITZE_DECLARATIONS
        if rules.schieberamsch:
            extra.append("schieben")
        if rules.klopfen:
            extra.append("klopfen")
        self.actions: tuple[str, ...] = (*ACTIONS, *extra)
        self.n_actions = len(self.actions)
        self.action_obj: tuple[Action | None, ...] = tuple(
            None if DISCARD0 <= i < DISCARD0 + 32 else parse_action(t)
            for i, t in enumerate(self.actions))
        self.index: dict[Action, int] = {
            a: i for i, a in enumerate(self.action_obj) if a is not None}
        house: list[tuple[str, int]] = []
        for rule, slots in _HOUSE_SLOTS:
            if getattr(rules, rule) not in (False, "no", ""):
                house.extend(slots)
        self.house_layout: tuple[tuple[str, int], ...] = tuple(house)
        self.obs_layout: tuple[tuple[str, int], ...] = (*OBS_LAYOUT, *house)
        self.obs_size = OBS_SIZE + sum(w for _, w in house)
        self.house_size = self.obs_size - OBS_SIZE
        self.offset: dict[str, int] = {}
        o = 0
        for name, width in self.obs_layout:
            self.offset[name] = o
            o += width
        self.house_scalars = tuple(name for name, _ in house if name in HOUSE_SCALARS)
        self.scalar_columns: tuple[int, ...] = (
            *SCALAR_COLUMNS, *(self.offset[n] for n in self.house_scalars))
        self._house_bytes = {name: self.offset[name] - OBS_SIZE for name, _ in house}

    @property
    def house(self) -> bool:
        """Whether this space is larger than the presets' space."""
        return self.n_actions > N_ACTIONS or self.obs_size > OBS_SIZE

    def encode_house(self, v: SkatView, bock: int, bock_left: int, ramsch_round: bool,
                     ramsch_left: int) -> tuple[bytes, tuple[float, ...]]:
        """The house slots of ``v``'s observation: their 0/1 bytes (0 in the scalar
        slots) and the values of the scalar slots in order (:attr:`house_scalars`).
        ``bock`` is the factor the list counts this game with, ``bock_left`` the games
        Bock still doubles, ``ramsch_round`` whether this is a game of a compulsory Ramsch
        round, ``ramsch_left`` the games of such rounds left (both counting this one)."""
        out = bytearray(self.house_size)
        at = self._house_bytes
        if "kontra" in at:
            if v.kontra >= 0:
                out[at["kontra"] + (v.kontra - v.seat) % 3] = 1
            out[at["re"]] = v.re
        if "spitze" in at:
            con = v.contract
            out[at["spitze"]] = isinstance(con, Declare) and con.spitze
        if "ramsch_round" in at:
            out[at["ramsch_round"]] = ramsch_round
        values = {"pushes": v.pushes / 3.0, "knocks": v.knocks / 3.0,
                  "bock": float(max(bock, 1).bit_length() - 1),
                  "bock_games_left": bock_left / 10.0, "ramsch_games_left": ramsch_left / 3.0}
        return bytes(out), tuple(values[n] for n in self.house_scalars)


@cache
def space_of(rules: SkatRules) -> SkatSpace:
    """The space of ``rules`` (one object per rule set)."""
    return SkatSpace(rules)
