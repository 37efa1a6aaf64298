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
``announcements``,          lack (Spitze raises the ladder; a
``revolution``              Revolution is worth 92)
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
``revolution``              ``declare null ouvert             ``revolution`` 1 (the game
                            revolution``, ``declare null      is one), ``partner_hand``
                            hand ouvert revolution``,         32 (a defender's partner's
                            ``give <card>`` for the 32        cards, from the view),
                            cards, ``give done``              ``giving`` 32 (the cards
                                                              chosen so far)
``schenken``                ``schenken``, ``accept``          ``gift`` 2 (the declarer
                            (``pass`` answers too)            played on once, twice),
                                                              ``gift_pending`` 2 (the
                                                              partner answers an offer,
                                                              the declarer does)
========================== ================================= ==========================

``jungfrau``, ``durchmarsch``, ``ramsch_skat``, ``bock_games`` and ``bock_overlap`` change
only the scores and add nothing.  Bock and the Ramsch round come from the list
(:class:`stich.skat_list.SkatList`): the factor this game counts with, the games Bock
still doubles (this one included), whether this game is one of a compulsory Ramsch round
and how many such games are left (this one included).

A Revolution's exchange is chosen one card at a time, as the discard is put away in
two steps: each ``give <card>`` adds a card to the cards chosen (held by the adapter,
shown in the mover's ``giving`` slots), ``give done`` gives them (alone: none).  The mask
offers a card when some legal give holds the cards chosen and it, and ``give done`` when
the cards chosen are a legal give (:func:`give_steps`): so the first defender may give
any of his cards, his partner exactly as many of his own (not those he got).  Which cards
were given is not in the view once the exchange is over (the defenders see both their
hands, the declarer neither), so it is not in the observation either; nor is who
offered a Schenken (the view says only whose answer an offer waits for).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Final

from stich.cards import CARDS
from stich.skat.actions import Action, Declare, parse_action
from stich.skat.observation import OBS_LAYOUT, OBS_SIZE, SCALAR_COLUMNS, card_bytes
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
    "OBS_LAYOUT",
    "OBS_SIZE",
    "PLAY0",
    "REVOLUTION_DECLARATIONS",
    "SkatSpace",
    "give_steps",
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

REVOLUTION_DECLARATIONS: Final[list[str]] = [
    "declare null ouvert revolution", "declare null hand ouvert revolution"]
"""The Revolution's declarations (``revolution``): a Null Ouvert, Hand or not."""

# the observation slots each house rule appends, and which of them hold numbers
_HOUSE_SLOTS: Final[tuple[tuple[str, tuple[tuple[str, int], ...]], ...]] = (
    ("kontra_re", (("kontra", 3), ("re", 1))),
    ("spitze", (("spitze", 1),)),
    ("schieberamsch", (("pushes", 1),)),
    ("klopfen", (("knocks", 1),)),
    ("bock", (("bock", 1), ("bock_games_left", 1))),
    ("bock_ramsch", (("ramsch_round", 1), ("ramsch_games_left", 1))),
    ("revolution", (("revolution", 1), ("partner_hand", 32), ("giving", 32))),
    ("schenken", (("gift", 2), ("gift_pending", 2))),
)
HOUSE_SCALARS: Final = ("pushes", "knocks", "bock", "bock_games_left", "ramsch_games_left")
"""The house slots that hold numbers rather than 0/1."""


def give_steps(legal: Sequence[Action], chosen: int) -> tuple[int, bool]:
    """A Revolution's exchange one card at a time: with the cards ``chosen`` so far (a
    set) and the legal gives, the cards that may be added (those of a legal give that
    holds every card chosen) and whether ``give done`` may give the cards chosen (they are
    a legal give).  Every legal give is reached so, and nothing else: the cards chosen
    always lie in some legal give.

    >>> from stich.skat.actions import Give
    >>> give_steps([Give(0b011), Give(0b101), Give(0b110)], 0b001)
    (6, False)
    >>> give_steps([Give(0b011), Give(0b101), Give(0b110)], 0b011)
    (0, True)
    """
    cards = 0
    done = False
    for a in legal:
        c = a.cards  # type: ignore[union-attr]
        if c & chosen == chosen:
            cards |= c
            done = done or c == chosen
    return cards & ~chosen, done


class SkatSpace:
    """The actions and observation slots of one rule set (build it with
    :func:`space_of`).

    ``actions[i]`` is the engine text of action ``i``; ``action_obj[i]`` the engine's
    action (None for the discard and give steps); ``index`` maps each engine action to
    its id; ``give0`` is the id of ``give`` of the first card and ``give_done`` that of
    ``give done`` (-1 without ``revolution``).
    ``obs_layout`` names every slot (``(name, width)`` in order), ``house_layout`` the
    slots appended for the house rules; ``scalar_columns`` the columns that hold numbers.

    >>> space_of(SkatRules()).n_actions, space_of(SkatRules()).obs_size
    (165, 400)
    >>> s = space_of(SkatRules.parse("skat(preset=lothar,kontra_re=yes,klopfen=yes)"))
    >>> s.actions[165:], s.house_layout
    (('kontra', 're', 'klopfen'), (('kontra', 3), ('re', 1), ('knocks', 1)))
    >>> r = space_of(SkatRules.parse("skat(preset=lothar,revolution=yes,schenken=yes)"))
    >>> r.actions[165:168]
    ('92', 'declare null ouvert revolution', 'declare null hand ouvert revolution')
    >>> r.actions[r.give0], r.actions[r.give_done:]
    ('give D7', ('give done', 'schenken', 'accept'))
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
        self.give0 = self.give_done = -1
        if rules.revolution:
            extra += REVOLUTION_DECLARATIONS
            self.give0 = N_ACTIONS + len(extra)
            extra += [f"give {c}" for c in CARD_CODES] + ["give done"]
            self.give_done = self.give0 + 32
        if rules.schenken:
            extra += ["schenken", "accept"]
        self.actions: tuple[str, ...] = (*ACTIONS, *extra)
        self.n_actions = len(self.actions)
        self.action_obj: tuple[Action | None, ...] = tuple(
            None if DISCARD0 <= i < DISCARD0 + 32 or self.give0 <= i <= self.give_done
            else parse_action(t) for i, t in enumerate(self.actions))
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
                     ramsch_left: int, giving: int = 0) -> tuple[bytes, tuple[float, ...]]:
        """The house slots of ``v``'s observation: their 0/1 bytes (0 in the scalar
        slots) and the values of the scalar slots in order (:attr:`house_scalars`).
        ``bock`` is the factor the list counts this game with, ``bock_left`` the games
        Bock still doubles, ``ramsch_round`` whether this is a game of a compulsory Ramsch
        round, ``ramsch_left`` the games of such rounds left (both counting this one);
        ``giving`` the cards chosen so far of a Revolution's exchange (shown to the seat
        to move only)."""
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
        if "revolution" in at:
            con = v.contract
            out[at["revolution"]] = con is not None and con.revolution
            o = at["partner_hand"]
            out[o:o + 32] = card_bytes(v.partner_hand)
            if giving and v.to_move == v.seat:
                o = at["giving"]
                out[o:o + 32] = card_bytes(giving)
        if "gift" in at:
            if v.gift:
                out[at["gift"] + min(v.gift, 2) - 1] = 1
            if v.gift_pending:
                out[at["gift_pending"] + v.gift_pending - 1] = 1
        values = {"pushes": v.pushes / 3.0, "knocks": v.knocks / 3.0,
                  "bock": float(max(bock, 1).bit_length() - 1),
                  "bock_games_left": bock_left / 10.0, "ramsch_games_left": ramsch_left / 3.0}
        return bytes(out), tuple(values[n] for n in self.house_scalars)


@cache
def space_of(rules: SkatRules) -> SkatSpace:
    """The space of ``rules`` (one object per rule set)."""
    return SkatSpace(rules)
