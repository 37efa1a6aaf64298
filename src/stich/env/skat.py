"""The Skat environment: a list of Skat games for three agents, as PettingZoo AEC.

Agents are the table seats ``player_0 .. player_2``.  A list of ``games`` games is played
as :class:`stich.skat_list.SkatList` keeps it: the first dealer is drawn from the seed (as
the command line's table does), the dealer moves one seat on after every game (Ramsch
and passed games included), Vorhand sits on the dealer's left.  In game ``k`` (from 0)
the dealer is ``(first + k) % 3`` and the seat at position ``p`` (0 Vorhand,
1 Mittelhand, 2 Hinterhand) is ``(first + k + 1 + p) % 3``.

**Actions** are one fixed discrete space, :data:`ACTIONS` (engine texts, in order): every
value of the bidding ladders, ``hold``, ``pass``, ``hand``, ``pickup``, ``discard <card>``
for the 32 cards, every declaration some rule set can make legal, and the 32 cards to
play.  Putting away two cards is two steps: the first ``discard X`` is held pending by the
adapter (shown in the declarer's observation, masked for the second step), the second
``discard Y`` completes the engine's ``discard X Y``.

**Observations** are float32 vectors of :data:`OBS_SIZE` built from the seat's view only
(plus the public list scores and the seat's own pending discard); :data:`OBS_LAYOUT`
names every slot.  Seats in the observation are relative to the observer: ``me``,
``left`` (the next seat in play order, ``+1``), ``right`` (``+2``).

**Rewards** are 0 until a game ends; then that game's change of each seat's list score as
the project's :class:`~stich.skat_list.SkatList` records it (``scoring="list"``), or the
Seeger–Fabian score (``scoring="seeger"``, see :func:`seeger_scores`).  The step that
ends a game of the list also deals the next one: the agents see the next deal at once
(the finished game's view, with its whole deal, only after the last game).

``max_cycles`` of :func:`skat_v0` counts steps (every agent's), as the base environment
does.  PettingZoo's ``max_cycles_test`` does not fit a turn-based game (it samples
unmasked actions and wants every agent to act once per cycle; PettingZoo skips it for its
classic games too), so there is no ``parallel_env`` here: PettingZoo's
``turn_based_aec_to_parallel`` wraps :func:`skat_v0` when one is wanted.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any, Final

import numpy as np

from stich.cards import CARDS, format_cards
from stich.core import RulesError
from stich.env.base import IllegalAction, StichAEC
from stich.skat.actions import Action, Discard, parse_action
from stich.skat.observation import (
    OBS_LAYOUT,
    OBS_SIZE,
    SCALAR_COLUMNS,
    card_bytes,
    card_set,
    encode,
)
from stich.skat.options import declaration_options
from stich.skat.rules import PRESETS, SkatRules, bidding_ladder
from stich.skat.state import SkatState
from stich.skat.view import SkatView, display_order
from stich.skat_list import ListGame, SkatList

__all__ = [
    "ACTIONS",
    "N_ACTIONS",
    "OBS_LAYOUT",
    "OBS_SIZE",
    "SkatAdapter",
    "env",
    "seeger_scores",
    "skat_v0",
]

F32 = np.ndarray[Any, np.dtype[np.float32]]
I8 = np.ndarray[Any, np.dtype[np.int8]]

# --- the action space ----------------------------------------------------------------------


def _bid_values() -> list[int]:
    """Every value any rule set lets a player say (the ladders depend only on whether
    announcements are played; the presets cover both)."""
    values: set[int] = set()
    for rules in (*PRESETS.values(), SkatRules(announcements=True), SkatRules()):
        values.update(bidding_ladder(rules))
    return sorted(values)


def _declarations() -> list[str]:
    """Every declaration some rule set can make legal, as the engine writes it: each
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
"""The action space: index ``i`` is the engine text ``ACTIONS[i]``."""

N_ACTIONS: Final = len(ACTIONS)
DISCARD0: Final = len(BIDS) + 4  # first ``discard <card>`` (card index order)
PLAY0: Final = N_ACTIONS - 32  # first card to play (card index order)

_ACTION_OBJ: Final[list[Action | None]] = [
    None if DISCARD0 <= i < DISCARD0 + 32 else parse_action(t) for i, t in enumerate(ACTIONS)]
_INDEX: Final[dict[Any, int]] = {a: i for i, a in enumerate(_ACTION_OBJ) if a is not None}

# --- the observation -----------------------------------------------------------------------

_NO_SCORES: Final = [0.0, 0.0, 0.0]
_ZERO_PLAY: Final = bytes(PLAY0)  # the mask's bytes before the cards to play
_SCALAR_COLUMNS: Final = list(SCALAR_COLUMNS)


def seeger_scores(entry: ListGame) -> tuple[int, int, int]:
    """The Seeger–Fabian score of a line of the list, per table seat.

    The project keeps no Seeger–Fabian scoring of its own; this adds the fixed parts of
    the ISkO list (Seeger–Fabian) to the list score the project settled: a game won
    scores its value + 50 for the declarer, a game lost −2 × value − 50 for the
    declarer and +40 for each defender (three players at the table).  Ramsch and passed
    games (not part of Seeger–Fabian) score as the list does."""
    scores = list(entry.scores)
    if entry.kind == "game" and entry.declarer is not None:
        d = entry.declarer
        if entry.won:
            scores[d] += 50
        else:
            scores[d] -= 50
            for s in range(3):
                if s != d:
                    scores[s] += 40
    return (scores[0], scores[1], scores[2])


def _rules_of(rules: str | SkatRules) -> SkatRules:
    parsed = rules if isinstance(rules, SkatRules) else SkatRules.parse(rules)
    if parsed.house_rules:  # their actions (kontra, re, schieben) are not in the space yet
        raise RulesError("rules.env_house_rules", rules=str(parsed))
    return parsed


class SkatAdapter:
    """A list of Skat games in numbers (the :class:`~stich.env.base.Adapter` of Skat)."""

    n_agents = 3
    n_actions = N_ACTIONS
    obs_size = OBS_SIZE
    scalar_columns = _SCALAR_COLUMNS  # where :meth:`encoded`'s scalar values go

    def __init__(self, rules: str | SkatRules = "lothar", games: int = 1,
                 scoring: str = "list") -> None:
        if games < 1:
            raise ValueError(f"games must be at least 1, not {games}")
        if scoring not in ("list", "seeger"):
            raise ValueError(f"scoring must be 'list' or 'seeger', not {scoring!r}")
        self.rules = _rules_of(rules)
        self.games = games
        self.scoring = scoring
        self._rng = random.Random(0)
        self.reset(0)

    # --- the list ------------------------------------------------------------------------

    def reset(self, seed: int) -> None:
        self._rng = random.Random(seed)
        self.table = SkatList(["player_0", "player_1", "player_2"], self.rules,
                               first_dealer=self._rng.randrange(3))
        self.scores = [0, 0, 0]  # list scores per table seat (as rewarded)
        self.played = 0  # games finished
        self._new_game()

    def _new_game(self) -> None:
        self.state = SkatState.new(self.rules, seed=self._rng.getrandbits(63))
        pos = self.table.positions()
        self.seat_of = pos  # table seat at each position
        self.pos_of = [0, 0, 0]  # position of each table seat
        for p, s in enumerate(pos):
            self.pos_of[s] = p
        self.pending = -1  # first discard card chosen (-1: none)
        self._changed()

    def set_deal(self, hands: tuple[int, int, int], skat: int) -> None:
        """Replace the current game, not yet begun, by one dealt from given cards: the
        hands by position (Vorhand, Mittelhand, Hinterhand) and the Skat, as sets (for
        tests and fixed deals)."""
        self.state = SkatState.new(self.rules, hands=hands, skat=skat)
        self.pending = -1
        self._changed()

    def _changed(self) -> None:
        self._views: list[SkatView | None] = [None, None, None]
        self._masks: list[I8 | None] = [None, None, None]
        self._obs: list[F32 | None] = [None, None, None]

    def over(self) -> bool:
        return self.played >= self.games

    def to_move(self) -> int | None:
        if self.played >= self.games:
            return None
        return self.seat_of[self.state.to_move]

    def view(self, seat: int) -> SkatView:
        v = self._views[seat]
        if v is None:
            v = self._views[seat] = self.state.view(self.pos_of[seat])
        return v

    # --- actions -------------------------------------------------------------------------

    def action_text(self, action: int) -> str:
        return ACTIONS[action]

    def mask(self, seat: int) -> I8:
        m = self._masks[seat]
        if m is None:
            m = self._masks[seat] = self._mask(seat)
        return m.copy()

    def _mask(self, seat: int) -> I8:
        m = np.zeros(N_ACTIONS, dtype=np.int8)
        if self.played >= self.games:
            return m
        legal = self.view(seat).legal_actions
        if not legal:
            return m
        first = legal[0]
        if isinstance(first, Discard):
            cards = 0
            pend = self.pending
            for a in legal:
                c = a.cards  # type: ignore[union-attr]
                if pend < 0:
                    cards |= c
                elif c >> pend & 1:
                    cards |= c & ~(1 << pend)
            for i in range(32):
                if cards >> i & 1:
                    m[DISCARD0 + i] = 1
            return m
        index = _INDEX
        for a in legal:
            m[index[a]] = 1
        return m

    def step(self, action: int) -> list[float]:
        if DISCARD0 <= action < DISCARD0 + 32:
            card = action - DISCARD0
            if self.pending < 0:
                self.pending = card
                self._changed()
                return list(_NO_SCORES)
            engine: Action = Discard(1 << self.pending | 1 << card)
            self.pending = -1
        else:
            a = _ACTION_OBJ[action]
            assert a is not None
            engine = a
        self.state = self.state.apply(engine)
        if not self.state.is_over:
            self._changed()
            return list(_NO_SCORES)
        entry = self.table.record_game(self.state.outcome())
        scores = entry.scores if self.scoring == "list" else seeger_scores(entry)
        for s in range(3):
            self.scores[s] += scores[s]
        self.played += 1
        if self.played < self.games:
            self._new_game()
        else:
            self._changed()
        return [float(x) for x in scores]

    def play_bot(self, bot: Any, rng: random.Random) -> list[float]:
        """The seat to move plays what a `stich` Skat bot chooses from its view (a
        discard as the two steps of the action space; see
        :class:`~stich.env.base.Adapter`)."""
        seat = self.to_move()
        if seat is None:
            raise IllegalAction("the list is over")
        view = self.view(seat)
        if view.claims:  # the action space has no claim: a bot plays it out here
            view = dataclasses.replace(view, claims=())
        a = bot.choose(view, rng)
        if isinstance(a, Discard):
            first, second = (i for i in range(32) if a.cards >> i & 1)
            self.step(DISCARD0 + first)
            return self.step(DISCARD0 + second)
        return self.step(_INDEX[a])

    # --- observations --------------------------------------------------------------------

    def observe(self, seat: int) -> F32:
        o = self._obs[seat]
        if o is None:
            o = self._obs[seat] = self._observe(seat)
        return o.copy()

    def _observe(self, seat: int) -> F32:
        obs, scalars = self.encoded(seat)
        out = np.frombuffer(obs, np.uint8).astype(np.float32)
        out[_SCALAR_COLUMNS] = scalars
        return out

    def encoded(self, seat: int) -> tuple[bytes, tuple[float, ...]]:
        """The observation of ``seat`` as :func:`stich.skat.observation.encode` gives it:
        its 0/1 bytes and its scalar values (for :class:`~stich.env.vector.VectorGames`,
        which turns a whole batch into one array)."""
        v = self.view(seat)
        at = self.seat_of
        sc = self.scores
        return encode(v, self.pending, self.played, self.games,
                      (sc[at[0]], sc[at[1]], sc[at[2]]))

    def mask_bytes(self, seat: int) -> bytes:
        """The mask of ``seat`` as :data:`N_ACTIONS` bytes of 0/1."""
        if self.played < self.games:
            v = self.view(seat)
            if v.phase == "PLAY" and v.legal_actions:
                return _ZERO_PLAY + card_bytes(card_set(v.legal_actions))
        return self.mask(seat).tobytes()

    # --- text ----------------------------------------------------------------------------

    def render(self) -> str:
        st = self.state
        names = ("Vorhand", "Mittelhand", "Hinterhand")
        lines = [f"{self.rules}  game {min(self.played + 1, self.games)}/{self.games}  "
                 f"list {self.scores}  phase {st.phase.name}"]
        game = st.game
        for p in range(3):
            seat = self.seat_of[p]
            hand = " ".join(str(c) for c in display_order(st.hands[p], game))
            mark = "*" if st.to_move == p and not st.is_over else " "
            lines.append(f"{mark} player_{seat} {names[p]:<10} {hand}")
        lines.append(f"  Skat {format_cards(st.skat)}  bid {st.bid_value}"
                     + (f"  {st.contract}" if st.contract is not None else "")
                     + (f"  declarer player_{self.seat_of[st.declarer]}"
                        if st.declarer >= 0 else ""))
        if st.trick:
            lines.append("  trick " + " ".join(str(CARDS[c]) for c in st.trick))
        if self.pending >= 0:
            lines.append(f"  pending discard {CARDS[self.pending]}")
        if st.is_over and self.table.games:
            g = self.table.games[-1]
            lines.append(f"  over: {g.game}, list scores by seat {list(g.scores)}")
        return "\n".join(lines)


def skat_v0(rules: str | SkatRules = "lothar", games: int = 1, scoring: str = "list",
            render_mode: str | None = None, on_illegal: str = "raise",
            max_cycles: int | None = None) -> StichAEC:
    """The Skat AEC environment (see the module's text).  ``rules``: a preset name or a
    rule string (``skat(preset=isko)``); ``games``: games in the list; ``scoring``:
    ``list`` or ``seeger``."""
    rules_obj = _rules_of(rules)
    return StichAEC(lambda: SkatAdapter(rules_obj, games, scoring), "skat_v0",
                    render_mode=render_mode, on_illegal=on_illegal,
                    max_cycles=max_cycles)


env = skat_v0
