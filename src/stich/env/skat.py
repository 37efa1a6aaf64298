"""The Skat environment: a list of Skat games for three agents, as PettingZoo AEC.

Agents are the table seats ``player_0 .. player_2``.  A list of ``games`` games is played
as :class:`stich.skat_list.SkatList` keeps it: the first dealer is drawn from the seed (as
the command line's table does), the dealer moves one seat on after every game (Ramsch
and passed games included), Vorhand sits on the dealer's left.  In game ``k`` (from 0)
the dealer is ``(first + k) % 3`` and the seat at position ``p`` (0 Vorhand,
1 Mittelhand, 2 Hinterhand) is ``(first + k + 1 + p) % 3`` (under ``bock_ramsch`` a Grand
Hand declared in a Ramsch round leaves the dealer where he is, as the list says).

**Rules**: a preset or any rule string with house rules (``skat(preset=lothar,
kontra_re=yes,schieberamsch=yes)``).  The list drives what a single game does not know:
Bock doubles a game's list score, and under ``bock_ramsch`` the games of a compulsory
Ramsch round are dealt as such (:meth:`stich.skat_list.SkatList.next_ramsch_round`).
Claiming the rest and giving up (``claim``, ``giveup``) are not in the space: every game
is played out.

**Actions** are one fixed discrete space per rule set (:class:`stich.env.skat_space.SkatSpace`
has every text in order).  The presets' space is :data:`ACTIONS` (engine texts, in order):
every value of the bidding ladders, ``hold``, ``pass``, ``hand``, ``pickup``,
``discard <card>`` for the 32 cards, every declaration some preset can make legal, and the
32 cards to play; house rules append their actions after these (``kontra``, ``re``,
``declare … spitze``, ``schieben``, ``klopfen``, the Revolution's declarations and its
``give`` steps, ``schenken``, ``accept``, and the ladder values Spitze and the Revolution
add), so a preset's indices mean the same under every rule set.  Putting away two cards
is two steps (the declarer's discard, and a Schieberamsch player's, who may not put an
Unter away): the first ``discard X`` is held pending by the adapter (shown in the mover's
observation, masked for the second step), the second ``discard Y`` completes the engine's
``discard X Y``.  A Revolution's exchange is as many steps as cards given and one more:
each ``give X`` is held by the adapter (shown in the mover's ``giving`` slots), ``give
done`` gives the cards chosen (:func:`~stich.env.skat_space.give_steps` masks them to
exactly the engine's legal gives).

**Observations** are float32 vectors built from the seat's view only (plus the public
list: scores, Bock, the Ramsch round; and the seat's own pending discard): the presets'
:data:`OBS_LAYOUT` of :data:`OBS_SIZE` slots, and under house rules the slots
:class:`~stich.env.skat_space.SkatSpace` appends (who said Kontra, Re, Spitze, the
pushes, the knocks, the game's Bock factor, the Ramsch round, a Revolution and a
defender's partner's cards in it, the cards chosen to give, Schenken).  ``obs_layout`` of the
adapter names every slot.  Seats in the observation are relative to the observer:
``me``, ``left`` (the next seat in play order, ``+1``), ``right`` (``+2``).

**Rewards** are 0 until a game ends; then that game's change of each seat's list score as
the project's :class:`~stich.skat_list.SkatList` records it (``scoring="list"``: Bock
included), or the Seeger–Fabian score (``scoring="seeger"``, see :func:`seeger_scores`).
The step that ends a game of the list also deals the next one: the agents see the next
deal at once (the finished game's view, with its whole deal, only after the last game).

**State** (:meth:`StichAEC.state <stich.env.base.StichAEC.state>`, for a centralized
critic): the three seats' observations in table order (``player_0`` first, each
relative to its own seat as above), then the 32 cards lying in the Skat now: ``3 ×
obs_size + 32`` floats (1,232 for the presets).  It shows every card, so it is never an
agent's observation.

``max_cycles`` of :func:`skat_v0` counts steps (every agent's), as the base environment
does.  :func:`parallel_env` is the parallel API (:func:`stich.env.base.parallel`: all
agents are asked, the one to move plays).  PettingZoo's ``max_cycles_test`` does not fit
a turn-based game (it samples unmasked actions and wants every agent to act once per
cycle; PettingZoo skips it for its classic games too).
"""

from __future__ import annotations

import dataclasses
import operator
import random
from typing import Any, Final

import numpy as np

from stich.cards import CARDS, Card, format_cards
from stich.env.base import IllegalAction, StichAEC, parallel
from stich.env.skat_space import (
    ACTIONS,
    BIDS,
    DECLARATIONS,
    DISCARD0,
    N_ACTIONS,
    OBS_LAYOUT,
    OBS_SIZE,
    PLAY0,
    SkatSpace,
    give_steps,
    space_of,
)
from stich.games import SKAT
from stich.skat.actions import Action, Discard, Give
from stich.skat.batch import discard_steps
from stich.skat.observation import card_bytes, card_set, encode
from stich.skat.rules import SkatRules
from stich.skat.state import SkatState
from stich.skat.view import SkatView, display_order
from stich.skat_list import ListGame, SkatList

__all__ = [
    "ACTIONS",
    "BIDS",
    "DECLARATIONS",
    "DISCARD0",
    "N_ACTIONS",
    "OBS_LAYOUT",
    "OBS_SIZE",
    "PLAY0",
    "SkatAdapter",
    "SkatSpace",
    "discard_steps",
    "env",
    "parallel_env",
    "seeger_scores",
    "skat_v0",
    "space_of",
]

F32 = np.ndarray[Any, np.dtype[np.float32]]
I8 = np.ndarray[Any, np.dtype[np.int8]]

# the presets' ids of the engine's actions, and the engine's action of each id
_INDEX: Final = space_of(SkatRules()).index
_ACTION_OBJ: Final = space_of(SkatRules()).action_obj

_NO_SCORES: Final = [0.0, 0.0, 0.0]
_ZERO_PLAY: Final = bytes(PLAY0)  # the mask's bytes before the cards to play


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
    return rules if isinstance(rules, SkatRules) else SkatRules.parse(rules)


class SkatAdapter:
    """A list of Skat games in numbers (the :class:`~stich.env.base.Adapter` of Skat).

    ``space`` is the rule set's :class:`~stich.env.skat_space.SkatSpace`; ``n_actions``,
    ``obs_size``, ``obs_layout`` and ``scalar_columns`` come from it."""

    game = SKAT.name
    n_agents = 3

    def __init__(self, rules: str | SkatRules = "lothar", games: int = 1,
                 scoring: str = "list") -> None:
        if games < 1:
            raise ValueError(f"games must be at least 1, not {games}")
        if scoring not in ("list", "seeger"):
            raise ValueError(f"scoring must be 'list' or 'seeger', not {scoring!r}")
        self.rules = _rules_of(rules)
        self.space: SkatSpace = space_of(self.rules)
        self.n_actions: int = self.space.n_actions
        self.obs_size: int = self.space.obs_size
        self.state_size: int = 3 * self.obs_size + 32  # :meth:`global_state`
        self.obs_layout = self.space.obs_layout
        self.scalar_columns = list(self.space.scalar_columns)  # :meth:`encoded`'s values
        self._index = self.space.index
        self._extra_mask = bytes(self.n_actions - N_ACTIONS)  # the house actions' bytes
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
        t = self.table
        self.ramsch_round = t.next_ramsch_round()  # a game of a compulsory Ramsch round
        self.bock = t.next_bock()  # the factor the list counts this game with
        self.bock_left = t.bock_games_left()  # (this game included)
        self.state = SkatState.new(self.rules, seed=self._rng.getrandbits(63),
                                   ramsch_round=self.ramsch_round)
        pos = t.positions()
        self.seat_of = pos  # table seat at each position
        self.pos_of = [0, 0, 0]  # position of each table seat
        for p, s in enumerate(pos):
            self.pos_of[s] = p
        self.pending = -1  # first discard card chosen (-1: none)
        self.giving = 0  # the cards chosen so far of a Revolution's give
        self._changed()

    def set_deal(self, hands: tuple[int, int, int], skat: int) -> None:
        """Replace the current game, not yet begun, by one dealt from given cards: the
        hands by position (Vorhand, Mittelhand, Hinterhand) and the Skat, as sets (for
        tests and fixed deals)."""
        self.state = SkatState.new(self.rules, hands=hands, skat=skat,
                                   ramsch_round=self.ramsch_round)
        self.pending = -1
        self.giving = 0
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
        return self.space.actions[action]

    def mask(self, seat: int) -> I8:
        m = self._masks[seat]
        if m is None:
            m = self._masks[seat] = self._mask(seat)
        return m.copy()

    def _mask(self, seat: int) -> I8:
        if self.played >= self.games:
            return np.zeros(self.n_actions, dtype=np.int8)
        return self.view_mask(self.view(seat), self.pending, self.giving)

    # --- a view's actions by id (for a bot that is handed views: stich.env.policy) -------

    def view_mask(self, view: SkatView, pending: int = -1, giving: int = 0) -> I8:
        """The mask of ``view``'s legal actions, as :meth:`mask` gives it for the seat
        to move: ``pending`` is the first discard card chosen (-1: none), ``giving`` the
        cards chosen so far of a Revolution's give (0: none)."""
        m = np.zeros(self.n_actions, dtype=np.int8)
        legal = view.legal_actions
        if not legal:
            return m
        if isinstance(legal[0], Discard):
            cards = discard_steps(legal, operator.index(pending))
            for i in range(32):
                if cards >> i & 1:
                    m[DISCARD0 + i] = 1
            return m
        if isinstance(legal[0], Give):
            cards, done = give_steps(legal, giving)
            g0 = self.space.give0
            for i in range(32):
                if cards >> i & 1:
                    m[g0 + i] = 1
            m[self.space.give_done] = done
            return m
        index = self._index
        for a in legal:
            m[index[a]] = 1
        return m

    def action_ids(self, action: Action) -> tuple[int, ...]:
        """The ids an agent plays, in order, for an engine action: one id; a discard
        two (its lower card first, either order is legal); a Revolution's give one per
        card given (low first), then ``give done``.  KeyError for an action outside
        this rule set's space (a claim, say)."""
        if isinstance(action, Discard):
            return tuple(DISCARD0 + i for i in range(32) if action.cards >> i & 1)
        if isinstance(action, Give):
            g0 = self.space.give0
            return (*(g0 + i for i in range(32) if action.cards >> i & 1),
                    self.space.give_done)
        return (self._index[action],)

    def action_index(self, action: Action) -> int:
        """The one id of an engine action that is a single step (ValueError for a
        discard or a give: :meth:`action_ids`)."""
        ids = self.action_ids(action)
        if len(ids) != 1:
            raise ValueError(f"{action} takes {len(ids)} steps: use action_ids")
        return ids[0]

    def action_of_view(self, view: SkatView, action: int, pending: int = -1,
                       giving: int = 0) -> Action | None:
        """The engine action that id ``action`` completes for the seat of ``view``,
        given the first discard card chosen (``pending``) and the cards chosen to give
        (``giving``); None for a step that only chooses a card (the first discard step,
        a ``give <card>``: add it to ``pending`` / ``giving`` and ask again).  The id is
        not checked against the view: :meth:`view_mask` says which are legal."""
        if DISCARD0 <= action < DISCARD0 + 32:
            if pending < 0:
                return None
            return Discard(1 << pending | 1 << (action - DISCARD0))
        if self.space.give0 <= action < self.space.give_done:
            return None
        if action == self.space.give_done:
            return Give(giving)
        a = self.space.action_obj[action]
        if a is None:
            raise ValueError(f"no engine action for id {action}")
        return a

    def encode(self, view: SkatView, pending: int = -1, giving: int = 0) -> F32:
        """The observation of ``view`` as a one-game list gives it (no games played
        before, list scores 0, no Bock, no Ramsch round): what a policy trained on
        ``games=1`` saw, for a bot that is handed views only."""
        obs, scalars = encode(view, operator.index(pending), 0, 1, (0, 0, 0))
        if self.space.house_size:
            house, values = self.space.encode_house(view, 1, 0, False, 0, giving)
            obs, scalars = obs + house, scalars + values
        out = np.frombuffer(obs, np.uint8).astype(np.float32)
        out[self.scalar_columns] = scalars
        return out

    def step(self, action: int) -> list[float]:
        action = operator.index(action)  # a numpy integer too; the compiled parts take int
        if DISCARD0 <= action < DISCARD0 + 32:
            card = action - DISCARD0
            if self._held_step_refused(action):
                raise IllegalAction(f"discard {CARDS[card]} is not legal now")
            if self.pending < 0:
                self.pending = card
                self._changed()
                return list(_NO_SCORES)
            engine: Action = Discard(1 << self.pending | 1 << card)
            self.pending = -1
        elif self.space.give0 <= action <= self.space.give_done:
            if self._held_step_refused(action):
                raise IllegalAction(f"{self.action_text(action)} is not legal now")
            if action < self.space.give_done:
                self.giving |= 1 << (action - self.space.give0)
                self._changed()
                return list(_NO_SCORES)
            engine = Give(self.giving)
            self.giving = 0
        else:
            a = self.space.action_obj[action]
            assert a is not None
            engine = a
        self.state = self.state.apply(engine)
        if not self.state.is_over:
            self._changed()
            return list(_NO_SCORES)
        entry = self.table.record_game(self.state.outcome(), ramsch_round=self.ramsch_round)
        scores = entry.scores if self.scoring == "list" else seeger_scores(entry)
        for s in range(3):
            self.scores[s] += scores[s]
        self.played += 1
        if self.played < self.games:
            self._new_game()
        else:
            self._changed()
        return [float(x) for x in scores]

    def _held_step_refused(self, action: int) -> bool:
        """Whether a step the adapter holds (a discard's or a give's card, ``give
        done``) is one the mask forbids: the engine sees such a step only later, so it
        is checked here (two to a few steps a game)."""
        seat = self.to_move()
        return seat is None or not self.mask(seat)[action]

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
        if isinstance(a, Give):
            for i in range(32):
                if a.cards >> i & 1:
                    self.step(self.space.give0 + i)
            return self.step(self.space.give_done)
        return self.step(self._index[a])

    # --- observations --------------------------------------------------------------------

    def observe(self, seat: int) -> F32:
        o = self._obs[seat]
        if o is None:
            o = self._obs[seat] = self._observe(seat)
        return o.copy()

    def _observe(self, seat: int) -> F32:
        obs, scalars = self.encoded(seat)
        out = np.frombuffer(obs, np.uint8).astype(np.float32)
        out[self.scalar_columns] = scalars
        return out

    def global_state(self) -> F32:
        """The whole state (``state_size`` floats): the observations of ``player_0``,
        ``player_1`` and ``player_2``, then the cards in the Skat now; for a centralized
        critic, never an agent's observation."""
        out = np.zeros(self.state_size, np.float32)
        size = self.obs_size
        for seat in range(3):
            out[seat * size:(seat + 1) * size] = self.observe(seat)
        skat = self.state.skat
        for i in range(32):
            if skat >> i & 1:
                out[3 * size + i] = 1.0
        return out

    def encoded(self, seat: int) -> tuple[bytes, tuple[float, ...]]:
        """The observation of ``seat`` as :func:`stich.skat.observation.encode` gives it
        (and under house rules :meth:`~stich.env.skat_space.SkatSpace.encode_house`
        after it): its 0/1 bytes and its scalar values (for
        :class:`~stich.env.vector.VectorGames`, which turns a whole batch into one
        array)."""
        v = self.view(seat)
        at = self.seat_of
        sc = self.scores
        obs, scalars = encode(v, self.pending, self.played, self.games,
                              (sc[at[0]], sc[at[1]], sc[at[2]]))
        if not self.space.house_size:
            return obs, scalars
        house, values = self.space.encode_house(v, self.bock, self.bock_left,
                                                self.ramsch_round, self.table.ramsch_left,
                                                self.giving)
        return obs + house, scalars + values

    def mask_bytes(self, seat: int) -> bytes:
        """The mask of ``seat`` as ``n_actions`` bytes of 0/1."""
        if self.played < self.games:
            v = self.view(seat)
            legal = v.legal_actions
            if v.phase == "PLAY" and legal and isinstance(legal[-1], Card):
                return _ZERO_PLAY + card_bytes(card_set(legal)) + self._extra_mask
        return self.mask(seat).tobytes()

    # --- text ----------------------------------------------------------------------------

    def render(self) -> str:
        st = self.state
        names = ("Vorhand", "Mittelhand", "Hinterhand")
        lines = [f"{self.rules}  game {min(self.played + 1, self.games)}/{self.games}  "
                 f"list {self.scores}  phase {st.phase.name}"
                 + (f"  Bock x{self.bock}" if self.bock > 1 else "")
                 + ("  Ramsch round" if self.ramsch_round else "")]
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
        info = st.game_info
        if info is not None and (info.kontra >= 0 or info.pushes or info.knocks or info.gift
                                 or info.gift_pending):
            lines.append("  " + "  ".join(
                ([f"kontra player_{self.seat_of[info.kontra]}"] if info.kontra >= 0 else [])
                + (["re"] if info.re else [])
                + ([f"pushes {info.pushes}"] if info.pushes else [])
                + ([f"knocks {info.knocks}"] if info.knocks else [])
                + ([f"played on {info.gift}"] if info.gift else [])
                + (["schenken offered"] if info.gift_pending else [])))
        if st.trick:
            lines.append("  trick " + " ".join(str(CARDS[c]) for c in st.trick))
        if self.pending >= 0:
            lines.append(f"  pending discard {CARDS[self.pending]}")
        if self.giving:
            lines.append(f"  giving {format_cards(self.giving)}")
        if st.is_over and self.table.games:
            g = self.table.games[-1]
            lines.append(f"  over: {g.game}, list scores by seat {list(g.scores)}")
        return "\n".join(lines)


def skat_v0(rules: str | SkatRules = "lothar", games: int = 1, scoring: str = "list",
            render_mode: str | None = None, on_illegal: str = "terminate",
            max_cycles: int | None = None) -> StichAEC:
    """The Skat AEC environment (see the module's text).  ``rules``: a preset name or a
    rule string (``skat(preset=isko)``, house rules included); ``games``: games in the
    list; ``scoring``: ``list`` or ``seeger``; ``on_illegal``: ``terminate`` or
    ``raise`` (:class:`~stich.env.base.StichAEC`)."""
    rules_obj = _rules_of(rules)
    return StichAEC(lambda: SkatAdapter(rules_obj, games, scoring), "skat_v0",
                    render_mode=render_mode, on_illegal=on_illegal,
                    max_cycles=max_cycles)


env = skat_v0


def parallel_env(**kwargs: Any) -> Any:
    """The parallel API of :func:`skat_v0` (same arguments; see
    :func:`stich.env.base.parallel`)."""
    return parallel(skat_v0(**kwargs))
