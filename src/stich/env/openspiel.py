"""Both games as OpenSpiel Python games: ``python_stich_skat`` and ``python_stich_baptisten``.

Importing this module registers both with ``pyspiel.register_game``::

    import pyspiel
    import stich.env.openspiel  # noqa: F401  (registers the games)
    game = pyspiel.load_game("python_stich_skat", {"rules": "isko"})
    game = pyspiel.load_game("python_stich_baptisten", {"players": 3})
    game = pyspiel.load_game("python_stich_baptisten", {"rewards": "terminal"})  # for MCTS

**Game types.**  Both are sequential, imperfect-information games with explicit chance
and general-sum utilities: Skat list points are not zero-sum (the declarer wins or loses
the game value, the defenders score 0; in Ramsch only the loser scores), and neither are
Baptistenskat's round scores (every player wins or loses their own stake; under trick
scoring every score is ≥ 0).

**Chance.**  The cards are dealt one by one, as OpenSpiel's ``oh_hell`` does; a chance
outcome is a card index of the game's deck (``max_chance_outcomes`` = deck size, or the
number of players if that is larger), uniform over the cards not yet dealt.

- Skat: 30 chance nodes, card ``i`` of the deal to position ``i % 3`` (0 Vorhand,
  1 Mittelhand, 2 Hinterhand = the dealer); the two cards left are the Skat.  Player id =
  position.  One game per episode (rewards at the end: the list score of each position,
  as :class:`stich.skat_list.SkatList` records it).  Parameter ``rules``: a preset or a
  rule string with house rules; one game has no Bock (factor 1) and is no game of a
  compulsory Ramsch round, which only a list plays (:func:`stich.env.skat.skat_v0`).
- Baptistenskat: one whole game.  First a chance node for the seat that starts (uniform:
  the draw for the highest card is symmetric), then before every round its deal: the
  round's cards one by one to the seats in turn from the round's first player, then the
  trump card (uniform over the cards left, or over the whole deck when the round uses it
  all and the rules draw the trump card before the deal).  Rewards come at the end of
  every round (``RewardModel.REWARDS``): each seat's score of that round from the
  engine's scoresheet, shown from the round's last card until the next player action
  (through the next deal: OpenSpiel's simulation test sums rewards at decision and
  terminal nodes only); the returns are the scoresheet's totals.  Parameter
  ``rewards=terminal`` gives the same game with ``RewardModel.TERMINAL`` (rewards and
  returns 0 until the end, then the totals), which OpenSpiel's ``MCTSBot`` requires.

**Actions** are the adapters' fixed action ids (:data:`stich.env.skat.ACTIONS`, under
house rules the rule set's :class:`stich.env.skat_space.SkatSpace`, and
:attr:`stich.env.baptisten.BaptistenAdapter.ACTIONS`, including Skat's two-step
discard), so a policy trained in PettingZoo plays here unchanged; so are the sizes.

**Observations.**  ``observation_tensor`` (and an observer with ``perfect_recall``
False) is the adapter's observation vector of that player, built from the seat's view
only.  ``information_state_tensor`` (``perfect_recall`` True) is that vector followed by
a count of every action id the player has taken in the episode and, for Skat, the
number of the trick (1..10, / 10) in which each card was played: not an injective code
of the information state (the order of the player's own bids is not in it); the
``information_state_string`` is exact: the player's private cards as dealt (with the
Skat once picked up, an Ouvert hand once laid down, the other seats' cards in a forehead
round) and every public action in order.  At chance nodes (during a deal) the tensors
are zeros; the strings show the cards dealt so far.  An observer of the public
information only (``private_info`` NONE) has the same layout with the slots of private
cards at 0 (:data:`SKAT_PRIVATE_SLOTS`, :data:`BAPTISTEN_PRIVATE_SLOTS`), does not count
Skat's discards and cards given, and its strings write them as ``?`` and show no hand;
observers of every player's private information, or without the public information,
are refused.  ``str(state)`` is the whole state (every seat's cards as dealt and held
now, the Skat, the trump card).

**Serialization.**  Games and states pickle, and OpenSpiel's ``serialize_game_and_state``
reads back (``random_sim_test(serialize=True)``): a game is loaded again from its name and
parameters; a state keeps its history and is rebuilt by replaying it.  A rule string
ending in ``)`` is kept in the game's parameters with a blank after it, so that the game
string reads back with the rules as a string.

**Resampling.**  ``resample_from_infostate(player, sampler)`` deals the cards the player
cannot see anew, at random among the deals consistent with what the player knows
(their own cards, the Skat if seen, every card played, and every *void*: a seat
that did not follow holds no card of the group led (trumps counted as in the game), and
in Baptistenskat with must-overtrump a seat that played a lower trump holds no higher
one).  Cards out of play (played, held by the player, turned for trump) never go to
another seat.  The state is rebuilt by replaying the chance outcomes of the new deal and
the same player actions (a Skat declarer's hidden discards are redrawn too), so public
history and the player's information state are unchanged.  (Every consistent deal is
equally likely, :class:`stich.worlds.Deal`; the bids are not used to weight it.)
Under house rules a Spitze's declarer keeps its card (and in Grand does not hold all four
Unter); in a Schieberamsch in which somebody picked the Skat up, the cards held now are
drawn so (the player's cards put back only to a seat that picked up after him, no Unter
in a Skat put back), then the Skat each seat found, from the last pick-up back
(:func:`stich.env.skat_worlds.pushed_deal`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from stich import worlds
from stich.baptisten.actions import FOREHEAD_PLAY, BAction
from stich.baptisten.deal import Deal, draw_deals
from stich.baptisten.state import BaptistenState, BPhase
from stich.cards import CARDS, Rank, format_cards
from stich.env import skat as sk
from stich.env.baptisten import BaptistenAdapter, make_rules
from stich.env.skat_space import give_steps
from stich.env.skat_worlds import is_revolution, pushed_deal, revolution_deal
from stich.skat.actions import Discard, Give
from stich.skat.rules import GameType, SkatRules, bidding_ladder, spitze_card
from stich.skat.state import Phase, SkatState

__all__ = [
    "BAPTISTEN_GAME_TYPE",
    "BAPTISTEN_TERMINAL_TYPE",
    "SKAT_GAME_TYPE",
    "BaptistenGame",
    "BaptistenOSState",
    "SkatGame",
    "SkatOSState",
    "sample_slots",
]

F32 = np.ndarray[Any, np.dtype[np.float32]]
CHANCE: Final = int(pyspiel.PlayerId.CHANCE)
TERMINAL: Final = int(pyspiel.PlayerId.TERMINAL)
_UNTER: Final = sum(1 << c.index for c in CARDS if c.rank == Rank.UNTER)
_TRIES: Final = 1000  # draws of a resample before it gives up (a Spitze's Unter)


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _rng_of(sampler: Any) -> random.Random:
    """A random generator seeded from OpenSpiel's probability sampler (a callable that
    returns a float in [0, 1)), or from the system when it gives none."""
    try:
        return random.Random(int(float(sampler()) * (1 << 53)))
    except Exception:
        return random.Random()


# --- sampling cards into slots under voids -----------------------------------------------


def sample_slots(pool: int, slots: Sequence[tuple[int, int]], rng: random.Random
                 ) -> list[int]:
    """Deal the cards of ``pool`` (a set) into ``slots``, each (capacity, forbidden set),
    so that every slot gets exactly its capacity and no card it forbids; every such deal
    equally likely (:class:`stich.worlds.Deal`).  Raises ValueError when no such deal
    exists."""
    cards = pool.bit_count()
    if sum(c for c, _ in slots) != cards:
        raise ValueError(f"{cards} cards for {sum(c for c, _ in slots)} places")
    try:
        return worlds.Deal(pool, [c for c, _ in slots], [pool & ~f for _, f in slots]).draw(rng)
    except worlds.NoDeal:
        raise ValueError("no deal fits the voids") from None


# --- the shared OpenSpiel plumbing ----------------------------------------------------------

class _Core:
    """The Python part of a state.  OpenSpiel clones a Python state by deep-copying its
    ``__dict__``; this copies the lists and shares the immutable engine states and the
    game instead.  OpenSpiel serializes a Python state (``pickle``,
    ``serialize_game_and_state``, ``random_sim_test(serialize=True)``) by pickling its
    ``__dict__``: a core pickles as its game and its history and is rebuilt by replaying
    the history on a new state (the engine states are not pickled)."""

    g: Any
    hist: list[int]

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        new = type(self)()
        d = new.__dict__
        for k, v in self.__dict__.items():
            d[k] = v.copy() if isinstance(v, (list, dict)) else v
        return new

    def __reduce__(self) -> tuple[Any, tuple[Any, list[int]]]:
        return _replayed_core, (self.g, list(self.hist))


def _replayed_core(game: Any, history: list[int]) -> _Core:
    """The core of the state that ``history`` (every action, chance ones too) reaches."""
    state = game.new_initial_state()
    for a in history:
        state.apply_action(a)
    return state._c  # type: ignore[no-any-return]


def _game_reduce(game: Any) -> tuple[Any, tuple[str, dict[str, Any]]]:
    """How a game pickles: loaded again from its name and parameters."""
    return pyspiel.load_game, (game.get_type().short_name, dict(game.get_parameters()))


def _param_text(rules: str) -> str:
    """The rules as the game's parameter keeps them: a rule string such as
    ``skat(preset=isko,kontra_re=yes)`` gets a blank after its closing parenthesis, so
    that OpenSpiel reads the game string back with the rules as a string (a value
    ending in ``)`` would be read as a game); the rule parsers ignore the blank."""
    t = rules.strip()
    return t + " " if t.endswith(")") else t



class _SkatCore(_Core):
    g: SkatGame
    dealt: list[int]
    n: int
    st: SkatState | None
    pending: int
    giving: int
    log: list[tuple[int, int]]
    returns: list[float]
    obs: list[F32 | None]


class _BaptistenCore(_Core):
    g: BaptistenGame
    first: int
    st: BaptistenState | None
    dealing: bool
    round: int
    hands: list[int]
    n: int
    log: list[tuple[int, int, int, int]]
    moves: int
    round_log0: int
    rewards: list[float]
    obs: dict[int, F32]


class _Observer:
    """The PyObserver of both games: ``tensor`` and ``dict`` filled by ``set_from``.
    ``public`` (``private_info`` NONE): only what every player sees, the slots of
    private cards at 0 (see the module's text)."""

    def __init__(self, game: Any, perfect_recall: bool, public: bool = False) -> None:
        self.perfect_recall = perfect_recall
        self.public = public
        size = game.info_size if perfect_recall else game.obs_size
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: Any, player: int) -> None:
        self.tensor[:] = (state.info_tensor(player, self.public) if self.perfect_recall
                          else state.obs_tensor(player, self.public))

    def string_from(self, state: Any, player: int) -> str:
        return str(state.info_string(player, self.public) if self.perfect_recall
                   else state.obs_string(player, self.public))


def _make_observer(game: Any, iig_obs_type: Any, params: Any) -> _Observer:
    """An observer of one player's information (``private_info`` SINGLE_PLAYER, the
    default) or of the public information only (NONE); with or without perfect recall.
    Observers without the public information, or with every player's private
    information, are refused."""
    if params:
        raise ValueError(f"observation parameters not supported; passed {params}")
    if iig_obs_type is None:
        return _Observer(game, False)
    private = iig_obs_type.private_info
    if not iig_obs_type.public_info:
        raise ValueError("observers without the public information (public_info=False) "
                         "are not supported")
    if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
        raise ValueError("observers of every player's private information "
                         "(private_info=ALL_PLAYERS) are not supported")
    return _Observer(game, bool(iig_obs_type.perfect_recall),
                     private == pyspiel.PrivateInfoType.NONE)


def _private_columns(layout: Sequence[tuple[str, int]], private: frozenset[str]) -> Any:
    """The observation's columns of the slots named in ``private``."""
    cols: list[int] = []
    pos = 0
    for name, width in layout:
        if name in private:
            cols.extend(range(pos, pos + width))
        pos += width
    return np.array(cols, np.intp)


# === Skat ===================================================================================

SKAT_GAME_TYPE: Final = pyspiel.GameType(
    short_name="python_stich_skat",
    long_name="stich Skat (one game, list points)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=3,
    min_num_players=3,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"rules": "lothar"},
)

_SKAT_MAX_VALUE: Final = 264  # Grand Hand Ouvert, Schneider and Schwarz announced, 4 matadors
SKAT_INFO_SIZE: Final = sk.OBS_SIZE + sk.N_ACTIONS + 32
"""The presets' information-state tensor size (house rules add to it)."""
SKAT_PRIVATE_SLOTS: Final = frozenset({"hand", "skat_seen", "discarded", "pending_discard",
                                       "partner_hand", "giving"})
"""The observation slots a public observer (``private_info`` NONE) leaves at 0: the
cards one player sees that not every player does."""


def skat_utilities(rules: SkatRules) -> tuple[float, float]:
    """The lowest and highest score one game can give a player under ``rules``: a
    declarer's game (the highest value, lost: twice it; Kontra and Re: × 4) or a Ramsch
    (120 points; each push and knock doubles, at most three of them; Jungfrau doubles a
    loss)."""
    value = max(_SKAT_MAX_VALUE, *bidding_ladder(rules)) * (4 if rules.kontra_re != "no"
                                                            else 1)
    ramsch = 120 * (8 if rules.schieberamsch or rules.klopfen else 1)
    return (-max(2.0 * value, ramsch * (2.0 if rules.jungfrau else 1.0)),
            float(max(value, ramsch)))


class SkatGame(pyspiel.Game):  # type: ignore[misc]
    """One Skat game (see the module's text); parameter ``rules``: a preset name or a
    rule string, house rules included (one game: Bock and Ramsch rounds, which the list
    plays, do not come up)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = params or {}
        rules = str(params.get("rules", "lothar"))
        self.encoder = sk.SkatAdapter(rules)  # the space and the observations
        self.rules: SkatRules = self.encoder.rules
        self.space = space = self.encoder.space
        self.obs_size: int = space.obs_size
        self.info_size: int = space.obs_size + space.n_actions + 32
        r = self.rules  # play in which an action other than a card may come
        self.talk = r.kontra_re != "no" or r.klopfen or r.revolution or r.schenken
        self.slots = [(name, w, space.offset[name]) for name, w in space.obs_layout]
        # longest auction: every ladder value said and held, then Vorhandrecht; the
        # Skat, two discard steps, the declaration, Kontra and Re, a Revolution's exchange
        # (10 cards and done, twice), Schenken (at most five answers and offers before
        # the declarer plays on, twice), 30 cards; 30 chance nodes (a Ramsch, with pushes
        # and knocks, is shorter)
        n_bids = len(sk.BIDS) + sum(1 for t in space.actions[sk.N_ACTIONS:] if t.isdigit())
        length = (2 * n_bids + 4 + 4 + 30 + 30 + (2 if r.kontra_re != "no" else 0)
                  + (22 if r.revolution else 0) + (10 if r.schenken else 0))
        low, high = skat_utilities(self.rules)
        info = pyspiel.GameInfo(
            num_distinct_actions=space.n_actions,
            max_chance_outcomes=32,
            num_players=3,
            min_utility=low,
            max_utility=high,
            utility_sum=None,
            max_game_length=length,
        )
        super().__init__(SKAT_GAME_TYPE, info, {"rules": _param_text(rules)})
        self.encoder.seat_of = (0, 1, 2)
        self.encoder.pos_of = [0, 1, 2]
        self.private_cols = _private_columns(space.obs_layout, SKAT_PRIVATE_SLOTS)
        # the actions whose card only its player knows: discards, the cards given
        self.private_actions = frozenset(
            [*range(sk.DISCARD0, sk.DISCARD0 + 32),
             *(range(space.give0, space.give_done) if space.give0 >= 0 else ())])

    def __reduce__(self) -> tuple[Any, tuple[str, dict[str, Any]]]:
        return _game_reduce(self)

    def new_initial_state(self) -> SkatOSState:
        return SkatOSState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        return _make_observer(self, iig_obs_type, params)


class SkatOSState(pyspiel.State):  # type: ignore[misc]
    """A Skat game as an OpenSpiel state (player id = position)."""

    def __init__(self, game: SkatGame) -> None:
        super().__init__(game)
        self._c = _SkatCore()
        self._c.g = game
        self._c.dealt = [0, 0, 0]
        self._c.n = 0  # cards dealt
        self._c.st = None
        self._c.pending = -1
        self._c.giving = 0  # the cards chosen so far of a Revolution's give
        self._c.log = []  # (player, action id) of every player action
        self._c.hist = []  # every action, chance ones too
        self._c.returns = [0.0, 0.0, 0.0]
        self._c.obs = [None, None, None]

    # --- the game ---

    def current_player(self) -> int:
        st = self._c.st
        if st is None:
            return CHANCE
        if st.phase is Phase.OVER:
            return TERMINAL
        return st.to_move

    def is_terminal(self) -> bool:
        return self._c.st is not None and self._c.st.phase is Phase.OVER

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = _bits(0xFFFFFFFF & ~(self._c.dealt[0] | self._c.dealt[1] | self._c.dealt[2]))
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def _legal_actions(self, player: int) -> list[int]:
        st = self._c.st
        if st is None or st.phase is Phase.OVER or player != st.to_move:
            return []
        phase = st.phase
        g = self._c.g
        if phase is Phase.PLAY and not g.talk:
            return [sk.PLAY0 + c for c in _bits(st.legal_cards())]
        if phase is Phase.DISCARD:
            if st.game_info is not None:  # Schieberamsch: no Unter is put away
                return [sk.DISCARD0 + c for c in _bits(
                    sk.discard_steps(st.legal_actions(), self._c.pending))]
            hand = st.hands[st.to_move]
            if self._c.pending >= 0:
                hand &= ~(1 << self._c.pending)
            return [sk.DISCARD0 + c for c in _bits(hand)]
        legal = st.legal_actions()
        if legal and isinstance(legal[0], Give):  # a Revolution's exchange, card by card
            cards, done = give_steps(legal, self._c.giving)
            return [g.space.give0 + c for c in _bits(cards)] + (
                [g.space.give_done] if done else [])
        index = g.space.index
        return sorted(index[a] for a in legal)

    def _apply_action(self, action: int) -> None:
        st = self._c.st
        self._c.obs = [None, None, None]
        self._c.hist.append(action)
        if st is None:
            self._c.dealt[self._c.n % 3] |= 1 << action
            self._c.n += 1
            if self._c.n == 30:
                h = self._c.dealt
                self._c.st = SkatState.new(self._c.g.rules, hands=h,
                                         skat=0xFFFFFFFF & ~(h[0] | h[1] | h[2]))
            return
        self._c.log.append((st.to_move, action))
        if sk.DISCARD0 <= action < sk.DISCARD0 + 32:
            card = action - sk.DISCARD0
            if self._c.pending < 0:
                self._c.pending = card
                return
            engine: Any = Discard(1 << self._c.pending | 1 << card)
            self._c.pending = -1
        elif self._c.g.space.give0 <= action <= self._c.g.space.give_done:
            if action < self._c.g.space.give_done:
                self._c.giving |= 1 << (action - self._c.g.space.give0)
                return
            engine = Give(self._c.giving)
            self._c.giving = 0
        else:
            engine = self._c.g.space.action_obj[action]
        st = self._c.st = st.apply(engine)
        if st.phase is Phase.OVER:
            self._c.returns = [float(x) for x in st.outcome().scores]

    def _action_to_string(self, player: int, action: int) -> str:
        if player == CHANCE:
            return f"deal {CARDS[action]}"
        return str(self._c.g.space.actions[action])

    def returns(self) -> list[float]:
        return list(self._c.returns)

    def rewards(self) -> list[float]:
        return list(self._c.returns)

    def __str__(self) -> str:
        """The whole state: every hand and the Skat now (with the pending discard and
        the cards chosen to give), the deal, the auction's value, the contract."""
        st = self._c.st
        if st is None:
            return "dealing: " + " | ".join(format_cards(h) for h in self._c.dealt)
        enc = self._c.g.encoder
        self._set_encoder()
        hands, skat = st.deal
        return (enc.render() + "\n  dealt " + " | ".join(format_cards(h) for h in hands)
                + f"  Skat {format_cards(skat)}")

    # --- observations ---

    def _set_encoder(self) -> None:
        enc = self._c.g.encoder
        st = self._c.st
        assert st is not None
        enc.state = st
        enc.pending = self._c.pending
        enc.giving = self._c.giving
        over = st.phase is Phase.OVER
        enc.played = 1 if over else 0
        enc.scores = [int(x) for x in self._c.returns] if over else [0, 0, 0]
        enc._changed()

    def obs_tensor(self, player: int, public: bool = False) -> F32:
        """The observation tensor of ``player`` (``public``: its private slots at 0)."""
        o = self._c.obs[player]
        if o is None:
            if self._c.st is None:
                o = np.zeros(self._c.g.obs_size, np.float32)
            else:
                self._set_encoder()
                o = self._c.g.encoder._observe(player)
            self._c.obs[player] = o
        if public:
            o = o.copy()
            o[self._c.g.private_cols] = 0.0
        return o

    def info_tensor(self, player: int, public: bool = False) -> F32:
        """The information-state tensor of ``player`` (``public``: its private slots
        at 0 and its discards and cards given not counted)."""
        g = self._c.g
        out = np.zeros(g.info_size, np.float32)
        st = self._c.st
        if st is None:
            return out
        out[:g.obs_size] = self.obs_tensor(player, public)
        base = g.obs_size
        hidden = g.private_actions if public else ()
        for p, a in self._c.log:
            if p == player and a not in hidden:
                out[base + a] += 1.0
        base += g.space.n_actions
        for t, (_, cards, _) in enumerate(st.tricks):
            for c in cards:
                out[base + c] = (t + 1) / 10.0
        t = len(st.tricks) + 1
        for c in st.trick:
            out[base + c] = t / 10.0
        return out

    def obs_string(self, player: int, public: bool = False) -> str:
        if self._c.st is None:
            return (f"p{player} dealt {self._c.n}" if public
                    else f"p{player} dealt {format_cards(self._c.dealt[player])}")
        o = self.obs_tensor(player, public)
        return f"p{player} " + " ".join(
            f"{name}:{_slot_text(o[off:off + w], name)}"
            for name, w, off in self._c.g.slots if o[off:off + w].any())

    def info_string(self, player: int, public: bool = False) -> str:
        if public:
            return self._public_string(player)
        st = self._c.st
        parts = [f"p{player}", "hand " + format_cards(self._c.dealt[player])]
        if st is None:
            return " ".join(parts)
        declarer = st.declarer
        pend = self._c.pending
        space = self._c.g.space
        actions = space.actions
        chosen = [0, 0, 0]  # a Revolution's give steps so far, by seat
        for p, a in self._c.log:
            text = actions[a]
            if sk.DISCARD0 <= a < sk.DISCARD0 + 32 and p != player:
                text = "discard ?"
            elif text == "pickup" and p == player:
                text = "pickup " + format_cards(_skat_seen(st, player))
            elif space.give0 <= a < space.give_done:
                chosen[p] |= 1 << (a - space.give0)
                if p != player:
                    text = "give ?"  # how many, not which: his partner sees them given
            elif a == space.give_done:
                if p != player and player != declarer:
                    text += " " + format_cards(chosen[p])
                chosen[p] = 0
            parts.append(f"{p}:{text}")
        con = st.contract
        if con is not None and con.ouvert and declarer != player:
            parts.append("ouvert " + format_cards(_initial_ouvert(st)))
        if con is not None and con.revolution and declarer != player:
            parts.append("partner " + format_cards(st.deal[0][3 - player - declarer]))
        if pend >= 0 and st.to_move == player:
            parts.append("pending")
        if st.phase is Phase.OVER:
            parts.append(f"deal {[format_cards(h) for h in st.deal[0]]} "
                         f"{format_cards(st.deal[1])}")
        return " ".join(parts)

    def _public_string(self, player: int) -> str:
        """The public information state: every action in order, a discard and a card
        given as ``?`` (whose), an Ouvert hand as laid down; no card one player sees
        that not every player does."""
        st = self._c.st
        parts = [f"p{player}"]
        if st is None:
            parts.append(f"dealt {self._c.n}")
            return " ".join(parts)
        space = self._c.g.space
        for p, a in self._c.log:
            if sk.DISCARD0 <= a < sk.DISCARD0 + 32:
                text = "discard ?"
            elif space.give0 <= a < space.give_done:
                text = "give ?"
            else:
                text = space.actions[a]
            parts.append(f"{p}:{text}")
        con = st.contract
        if con is not None and con.ouvert:
            parts.append("ouvert " + format_cards(_initial_ouvert(st)))
        return " ".join(parts)

    # --- resampling ---

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SkatOSState:
        rng = _rng_of(probability_sampler)
        return self.resample(player_id, rng)

    def resample(self, player: int, rng: random.Random) -> SkatOSState:
        """A state that ``player`` cannot tell from this one, the unseen cards dealt
        anew (see the module's text)."""
        st = self._c.st
        if st is None:  # during the deal: the other seats' cards so far
            own = self._c.dealt[player]
            pool = ~own & 0xFFFFFFFF
            caps = [bin(self._c.dealt[q]).count("1") for q in range(3)]
            others = [q for q in range(3) if q != player]
            dealt = sample_slots(pool, [(caps[q], 0) for q in others]
                               + [(32 - sum(caps), 0)], rng)
            hands = list(self._c.dealt)
            for q, h in zip(others, dealt, strict=False):
                hands[q] = h
            return self._rebuild(hands, self._c.n, {}, rng)
        if st.phase is Phase.OVER:
            return self._rebuild(list(st.deal[0]), 30, {}, rng)
        info = st.game_info
        if info is not None and any(seen for _, seen, _ in info.schieben):
            return self._resample_pushed(player, rng)
        if is_revolution(st):
            deal, steps, gives = revolution_deal(st, player, self._c.giving, rng)
            return self._rebuild(deal, 30, steps, rng, gives)
        v = st.view(player)
        played = v.played_by()
        voids = v.voids()
        d = st.declarer
        picked = d >= 0 and st.picked_up
        deal_hands = st.deal[0]
        own = deal_hands[player]
        known_skat = picked and d == player
        ouvert = v.ouvert_hand
        pool = 0xFFFFFFFF & ~own
        for q in range(3):
            if q != player:
                pool &= ~played[q]
        pool &= ~ouvert
        if known_skat:
            pool &= ~st.deal[1]
        # Spitze: the declarer holds the card he declared it with (until he plays it)
        con = st.contract
        spitze = 0
        if con is not None and con.spitze and d != player and not ouvert:
            spitze = 1 << spitze_card(con.game) & ~played[d]
        pool &= ~spitze
        slots: list[tuple[int, int]] = []
        names: list[str] = []
        for q in range(3):
            if q == player:
                continue
            if q == d and picked:
                # the declarer's twelve cards: played, held now, put away (or pending)
                held = st.hands[q]
                if st.phase is Phase.DISCARD:
                    n_away = 1 if self._c.pending >= 0 else 0
                    n_held = held.bit_count() - n_away
                else:
                    n_away = 2
                    n_held = held.bit_count()
                if ouvert:
                    n_held = 0
                slots.append((n_held - spitze.bit_count(), voids[q]))
                names.append(f"held{q}")
                slots.append((n_away, 0))
                names.append("away")
            else:
                n_held = 0 if (q == d and ouvert) else st.hands[q].bit_count()
                if q == d:
                    n_held -= spitze.bit_count()
                slots.append((n_held, voids[q]))
                names.append(f"held{q}")
        if not known_skat and not picked:
            slots.append((2, 0))
            names.append("skat")
        # a Spitze in Grand is not declared with all four Unter: such draws are drawn again
        four = con is not None and con.spitze and con.game is GameType.GRAND and d != player
        for _ in range(_TRIES):
            got: dict[str, int] = dict(zip(names, sample_slots(pool, slots, rng),
                                           strict=True))
            if not four or (got[f"held{d}"] | played[d] | ouvert | spitze) & _UNTER != _UNTER:
                break
        else:
            raise ValueError("no deal fits the Spitze declared")
        hands = list(deal_hands)
        discards: dict[int, int] = {}
        for q in range(3):
            if q == player:
                continue
            cur = got[f"held{q}"] | played[q] | (ouvert | spitze if q == d else 0)
            if q == d and picked:
                away = got["away"]
                twelve = cur | away
                if st.phase is Phase.DISCARD and self._c.pending < 0:
                    away_cards: list[int] = []
                else:
                    away_cards = _bits(away)
                    rng.shuffle(away_cards)
                skat_cards = rng.sample(_bits(twelve), 2)
                hands[q] = twelve & ~((1 << skat_cards[0]) | (1 << skat_cards[1]))
                discards = dict(enumerate(away_cards))
            else:
                hands[q] = cur
        return self._rebuild(hands, 30, discards, rng)

    def _resample_pushed(self, player: int, rng: random.Random) -> SkatOSState:
        """:meth:`resample` in a Schieberamsch in which somebody picked the Skat up
        (:func:`stich.env.skat_worlds.pushed_deal`)."""
        st = self._c.st
        assert st is not None
        deal, discards = pushed_deal(st, player, self._c.pending, rng)
        return self._rebuild(deal, 30, discards, rng)

    def _rebuild(self, hands: list[int], n_dealt: int, discards: dict[int, int],
                 rng: random.Random, gives: dict[int, int] | None = None) -> SkatOSState:
        """A new state: ``hands`` dealt (the first ``n_dealt`` chance outcomes, in a
        random order within each hand), then this state's player actions, the
        declarer's discard steps replaced by ``discards`` (step number → card) and a
        Revolution's give steps by ``gives`` (the same)."""
        new = self._c.g.new_initial_state()
        orders = []
        for q in range(3):
            cards = _bits(hands[q])
            rng.shuffle(cards)
            orders.append(cards)
        for i in range(n_dealt):
            new.apply_action(orders[i % 3][i // 3])
        step = 0
        give = 0
        g0, done = self._c.g.space.give0, self._c.g.space.give_done
        for _, a in self._c.log:
            if sk.DISCARD0 <= a < sk.DISCARD0 + 32:
                if step in discards:
                    a = sk.DISCARD0 + discards[step]
                step += 1
            elif g0 <= a < done:
                if gives and give in gives:
                    a = g0 + gives[give]
                give += 1
            new.apply_action(a)
        return new


def _initial_ouvert(st: SkatState) -> int:
    """An Ouvert declarer's cards as laid down (the deal's, less the Skat put away)."""
    d = st.declarer
    return (st.deal[0][d] | (st.deal[1] if st.picked_up else 0)) & ~(
        st.skat if st.picked_up else 0)


def _skat_seen(st: SkatState, seat: int) -> int:
    """The Skat ``seat`` picked up: the declarer's, or in Schieberamsch the one it saw."""
    info = st.game_info
    if info is not None:
        for s, seen, _ in info.schieben:
            if s == seat and seen:
                return seen
    return st.deal[1]


def _slot_text(values: F32, name: str) -> str:
    if len(values) == 32:
        return format_cards(sum(1 << i for i in range(32) if values[i]))
    return ",".join(f"{x:.4g}" for x in values)


# === Baptistenskat ==========================================================================

def _baptisten_type(reward_model: Any) -> Any:
    return pyspiel.GameType(
        short_name="python_stich_baptisten",
        long_name="stich Baptistenskat (one whole game)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=reward_model,
        max_num_players=15,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": 4, "rules": "default", "rewards": "rounds"},
    )


BAPTISTEN_GAME_TYPE: Final = _baptisten_type(pyspiel.GameType.RewardModel.REWARDS)
"""The registered type: rewards at the end of every round (``rewards=rounds``)."""
BAPTISTEN_TERMINAL_TYPE: Final = _baptisten_type(pyspiel.GameType.RewardModel.TERMINAL)
"""The type of a game loaded with ``rewards=terminal``: the totals at the end only."""
BAPTISTEN_PRIVATE_SLOTS: Final = frozenset({"hand", "seen"})
"""The observation slots a public observer (``private_info`` NONE) leaves at 0."""


class BaptistenGame(pyspiel.Game):  # type: ignore[misc]
    """One whole game of Baptistenskat (see the module's text); parameters ``players``
    (default 4), ``rules`` (a preset name or rule string, default ``default``) and
    ``rewards``: ``rounds`` (default: each round's scores when it ends) or ``terminal``
    (the totals at the end only, ``RewardModel.TERMINAL``: for OpenSpiel's MCTS)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = params or {}
        rules_text = str(params.get("rules", "default"))
        players = int(params.get("players", 4))
        rewards = str(params.get("rewards", "rounds"))
        if rewards not in ("rounds", "terminal"):
            raise ValueError(f"rewards must be 'rounds' or 'terminal', not {rewards!r}")
        self.terminal_rewards = rewards == "terminal"
        r = self.rules = make_rules(rules_text, players)
        self.encoder = BaptistenAdapter(r)
        enc = self.encoder
        self.obs_size = enc.obs_size
        self.info_size = enc.obs_size + enc.n_actions
        self.private_cols = _private_columns(enc.OBS_LAYOUT, BAPTISTEN_PRIVATE_SLOTS)
        self.deck = r.card_deck
        self.schedule = r.schedule()
        n = r.players
        self.n_players = n
        self.placeholders = draw_deals(r, random.Random(0), 0)
        self.whole = tuple(k * n >= self.deck.size and r.trump_card == "baptisten"
                           for k in self.schedule)
        if r.trick_scoring:
            hi = float(sum(r.points_per_trick * k + max(r.exact_bonus, r.exact_zero_bonus)
                           for k in self.schedule))
            lo = 0.0
        else:
            hi = float(sum(40 if k >= 3 and r.forties_required else 20
                           for k in self.schedule))
            lo = -hi
        length = 1 + sum(n + 2 * n * k + 1 for k in self.schedule)
        info = pyspiel.GameInfo(
            num_distinct_actions=enc.n_actions,
            max_chance_outcomes=max(self.deck.size, n),
            num_players=n,
            min_utility=lo,
            max_utility=hi,
            utility_sum=None,
            max_game_length=length,
        )
        super().__init__(BAPTISTEN_TERMINAL_TYPE if self.terminal_rewards
                         else BAPTISTEN_GAME_TYPE, info,
                         {"players": n, "rules": _param_text(rules_text),
                          "rewards": rewards})

    def __reduce__(self) -> tuple[Any, tuple[str, dict[str, Any]]]:
        return _game_reduce(self)

    def new_initial_state(self) -> BaptistenOSState:
        return BaptistenOSState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        return _make_observer(self, iig_obs_type, params)


class BaptistenOSState(pyspiel.State):  # type: ignore[misc]
    """A whole Baptistenskat game as an OpenSpiel state (player id = seat)."""

    def __init__(self, game: BaptistenGame) -> None:
        super().__init__(game)
        self._c = _BaptistenCore()
        self._c.g = game
        n = game.n_players
        self._c.first = -1
        self._c.st = None  # at a round's deal: that round's start
        self._c.dealing = True
        self._c.round = 0
        self._c.hands = [0] * n  # the current round's cards dealt so far
        self._c.n = 0
        # (round, player, action id, card index played or -1) of every player action
        self._c.log = []
        self._c.hist = []  # every action, chance ones too
        self._c.moves = 0  # actions applied (chance ones too)
        self._c.round_log0 = 0  # actions applied before the current round's deal
        self._c.rewards = [0.0] * n
        self._c.obs = {}

    # --- the game ---

    def _deal_size(self) -> int:
        return self._c.g.schedule[self._c.round] * self._c.g.n_players

    def current_player(self) -> int:
        if self._c.first < 0 or self._c.dealing:
            return CHANCE
        st = self._c.st
        assert st is not None
        if st.phase is BPhase.OVER:
            return TERMINAL
        return st.to_move

    def is_terminal(self) -> bool:
        st = self._c.st
        return st is not None and st.phase is BPhase.OVER

    def chance_outcomes(self) -> list[tuple[int, float]]:
        g = self._c.g
        if self._c.first < 0:
            return [(s, 1.0 / g.n_players) for s in range(g.n_players)]
        dealt = 0
        for h in self._c.hands:
            dealt |= h
        if self._c.n == self._deal_size() and g.whole[self._c.round]:
            left = list(range(g.deck.size))
        else:
            left = _bits(g.deck.full_mask & ~dealt)
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def _legal_actions(self, player: int) -> list[int]:
        if self._c.first < 0 or self._c.dealing:
            return []
        st = self._c.st
        assert st is not None
        if st.phase is BPhase.OVER or player != st.to_move:
            return []
        enc = self._c.g.encoder
        if st.phase is BPhase.PLAY:
            if st.is_forehead_round:
                assert enc.play_action is not None
                return [enc.play_action]
            kind_of = enc.kind_of
            first = enc.first_card
            return sorted({first + kind_of[c] for c in _bits(st.legal_cards())})
        index = enc._index
        return sorted(index[a] for a in st.legal_actions())

    def _apply_action(self, action: int) -> None:
        g = self._c.g
        self._c.obs = {}
        self._c.moves += 1
        self._c.hist.append(action)
        n = g.n_players
        if self._c.first < 0:
            self._c.first = action
            self._c.round_log0 = self._c.moves
            return
        if self._c.dealing:
            size = self._deal_size()
            if self._c.n < size:
                first_r = (self._c.first + self._c.round) % n
                self._c.hands[(first_r + self._c.n) % n] |= 1 << action
                self._c.n += 1
                return
            deal = Deal(tuple(self._c.hands), action)
            if self._c.st is None:
                start = BaptistenState.new(g.rules, deals=g.placeholders, first=self._c.first)
            else:
                start = self._c.st
            self._c.st = start.redealt(deal)
            self._c.dealing = False
            return
        st = self._c.st
        assert st is not None
        # a round's scores stay the rewards through the next deal: OpenSpiel sums the
        # rewards at decision and terminal nodes only
        self._c.rewards = [0.0] * n
        player = st.to_move
        engine = self._engine_action(st, action)
        card = -1 if action < g.encoder.n_bids else self._played_card(st, engine)
        self._c.log.append((self._c.round, player, action, card))
        rows = len(st.sheet)
        st = self._c.st = st.apply(engine)
        if len(st.sheet) > rows:
            self._c.rewards = [float(x) for x in st.sheet[-1].scores]
            if st.phase is not BPhase.OVER:
                self._c.round += 1
                self._c.dealing = True
                self._c.hands = [0] * n
                self._c.n = 0
                self._c.round_log0 = self._c.moves

    def _played_card(self, st: BaptistenState, engine: BAction) -> int:
        if engine is FOREHEAD_PLAY:
            return st.hands[st.to_move].bit_length() - 1
        return int(engine.index)  # type: ignore[union-attr]

    def _engine_action(self, st: BaptistenState, action: int) -> BAction:
        enc = self._c.g.encoder
        if action < enc.n_bids:
            return enc._bid_of[action]
        if action == enc.play_action:
            return FOREHEAD_PLAY
        hand = st.hands[st.to_move]
        copies = enc._copies[action - enc.first_card]
        for c in copies:
            if hand & c.bit:
                return c
        return copies[0]

    def _action_to_string(self, player: int, action: int) -> str:
        if player == CHANCE:
            if self._c.first < 0:
                return f"first {action}"
            return f"deal {self._c.g.deck.cards[action].code}"
        return self._c.g.encoder.ACTIONS[action]

    def rewards(self) -> list[float]:
        if self._c.g.terminal_rewards:
            return self.returns() if self.is_terminal() else [0.0] * self._c.g.n_players
        return list(self._c.rewards)

    def returns(self) -> list[float]:
        """The scoresheet's totals so far (with ``rewards=terminal``: 0 until the end,
        as OpenSpiel wants the returns to be the rewards received so far)."""
        st = self._c.st
        if st is None or (self._c.g.terminal_rewards and st.phase is not BPhase.OVER):
            return [0.0] * self._c.g.n_players
        return [float(t) for t in st.totals]

    def __str__(self) -> str:
        """The whole state: every seat's cards (dealt this round and held now), the
        trump card, the bids, tricks and totals."""
        c = self._c
        deck = c.g.deck
        st = c.st
        head = f"first player {c.first}" if c.first >= 0 else "first player to draw"
        if st is None or c.dealing:
            lines = [head, f"round {c.round + 1} dealing: "
                     + " | ".join(deck.format(h) for h in c.hands)]
            if st is not None:
                lines.append(f"totals {list(st.totals)}")
            return "\n".join(lines)
        enc = c.g.encoder
        enc.start(st)
        deal = st.deals[st.round_index]
        return "\n".join([head, enc.render()] + [
            f"player_{q} holds {deck.format(h)} (dealt {deck.format(deal.hands[q])})"
            for q, h in enumerate(st.hands)])

    # --- observations ---

    def obs_tensor(self, player: int, public: bool = False) -> F32:
        """The observation tensor of ``player`` (``public``: its private slots at 0)."""
        o = self._c.obs.get(player)
        if o is None:
            if self._c.st is None or self._c.dealing:
                o = np.zeros(self._c.g.obs_size, np.float32)
            else:
                enc = self._c.g.encoder
                enc.start(self._c.st)
                o = enc.observe(player)
            self._c.obs[player] = o
        if public:
            o = o.copy()
            o[self._c.g.private_cols] = 0.0
        return o

    def info_tensor(self, player: int, public: bool = False) -> F32:
        """The information-state tensor of ``player`` (every action is public: only
        the observation's private slots differ with ``public``)."""
        g = self._c.g
        out = np.zeros(g.info_size, np.float32)
        if self._c.st is None or self._c.dealing:
            return out
        out[:g.obs_size] = self.obs_tensor(player, public)
        base = g.obs_size
        for _, p, a, _ in self._c.log:
            if p == player:
                out[base + a] += 1.0
        return out

    def obs_string(self, player: int, public: bool = False) -> str:
        o = self.obs_tensor(player, public)
        enc = self._c.g.encoder
        parts = [f"p{player}"]
        for name, w in enc.OBS_LAYOUT:
            off = enc.offset[name]
            seg = o[off:off + w]
            if seg.any():
                parts.append(f"{name}:" + ",".join(f"{x:.4g}" for x in seg))
        if self._c.st is None or self._c.dealing:
            parts.append(f"dealt {self._c.n}" if public
                         else "dealt " + self._c.g.deck.format(self._c.hands[player]))
        return " ".join(parts)

    def info_string(self, player: int, public: bool = False) -> str:
        g = self._c.g
        deck = g.deck
        parts = [f"p{player}"]
        if self._c.first < 0:
            return parts[0]
        parts.append(f"first {self._c.first}")
        st = self._c.st
        log = self._c.log
        i = 0
        for r in range(self._c.round + 1):
            parts.append(f"R{r + 1}")
            if r == self._c.round and self._c.dealing:
                hands: Sequence[int] = self._c.hands
                trump = -1
            else:
                assert st is not None
                deal = st.deals[r]
                hands, trump = deal.hands, deal.trump_card
            forehead = g.rules.forehead and g.schedule[r] == 1
            if public:
                if r == self._c.round and self._c.dealing:
                    parts.append(f"dealt {self._c.n}")
            elif forehead:
                parts.append("see " + " ".join(
                    f"{q}:{deck.format(h)}" for q, h in enumerate(hands) if q != player))
            else:
                parts.append("hand " + deck.format(hands[player]))
            if trump >= 0:
                parts.append("trump " + deck.cards[trump].code)
            while i < len(log) and log[i][0] == r:
                _, p, a, c = log[i]
                text = g.encoder.ACTIONS[a] if c < 0 else deck.cards[c].code
                parts.append(f"{p}:{text}")
                i += 1
        return " ".join(parts)

    # --- resampling ---

    def resample_from_infostate(self, player_id: int, probability_sampler: Any
                                ) -> BaptistenOSState:
        return self.resample(player_id, _rng_of(probability_sampler))

    def resample(self, player: int, rng: random.Random) -> BaptistenOSState:
        """A state that ``player`` cannot tell from this one: the current round's unseen
        cards dealt anew (earlier rounds are played out, so every card of theirs is
        known)."""
        g = self._c.g
        n = g.n_players
        if self._c.first < 0:
            return self.clone()  # type: ignore[no-any-return]
        deck = g.deck
        if self._c.dealing:
            hands = list(self._c.hands)
            trump = -1
            played = [0] * n
            voids = [0] * n
            held = [h.bit_count() for h in hands]
            forehead = False
        else:
            st = self._c.st
            assert st is not None
            if st.phase is BPhase.OVER:
                return self.clone()  # type: ignore[no-any-return]
            deal = st.deals[st.round_index]
            hands = list(deal.hands)
            trump = deal.trump_card
            played, voids = _played_and_voids(st)
            held = [h.bit_count() for h in st.hands]
            forehead = st.is_forehead_round
        hidden = [player] if forehead else [q for q in range(n) if q != player]
        known = 0
        for q in range(n):
            if q not in hidden:
                known |= hands[q]
            known |= played[q]
        whole = g.whole[self._c.round]
        if trump >= 0 and not whole:
            known |= 1 << trump
        pool = deck.full_mask & ~known
        size = self._deal_size()
        dealt_total = self._c.n if self._c.dealing else size
        rest = deck.size - dealt_total - (1 if trump >= 0 and not whole else 0)
        if whole and not self._c.dealing:
            rest = 0
        slots = [(held[q] if not self._c.dealing else hands[q].bit_count(), voids[q])
                 for q in hidden] + [(rest, 0)]
        got = sample_slots(pool, slots, rng)
        for q, h in zip(hidden, got, strict=False):
            hands[q] = h | played[q]
        return self._rebuild(hands, trump, rng)

    def _rebuild(self, hands: list[int], trump: int, rng: random.Random
                 ) -> BaptistenOSState:
        g = self._c.g
        n = g.n_players
        hist = self.history()
        new = g.new_initial_state()
        for a in hist[:self._c.round_log0]:
            new.apply_action(a)
        first_r = (self._c.first + self._c.round) % n
        orders = []
        for q in range(n):
            cards = _bits(hands[q])
            rng.shuffle(cards)
            orders.append(cards)
        count = self._c.n if self._c.dealing else self._deal_size()
        for i in range(count):
            q = (first_r + i) % n
            new.apply_action(orders[q][i // n])
        if self._c.dealing:
            return new
        new.apply_action(trump)
        for r, _, a, _ in self._c.log:
            if r == self._c.round:
                new.apply_action(a)
        return new


def _played_and_voids(st: BaptistenState) -> tuple[list[int], list[int]]:
    """Per seat: the cards played in the current round, and the cards it cannot hold
    (it failed to follow the suit led: none of that suit; it played a trump below the
    best trump in a trump trick under must-overtrump: no trump that high)."""
    ctx = st._ctx
    n = ctx.n
    trump = st.trump
    played = [0] * n
    voids = [0] * n
    tricks = [(leader, cards) for leader, cards, _ in st.round_tricks]
    if st.trick:
        tricks.append((st.leader, st.trick))
    suit_of = ctx.suit_of
    rank_of = ctx.rank_of
    for leader, cards in tricks:
        follow = -1
        for i, c in enumerate(cards):
            seat = (leader + i) % n
            played[seat] |= 1 << c
            s = suit_of[c]
            if follow < 0:
                follow = s
                continue
            if s != follow:  # the joker too: it may not be played by who can follow
                voids[seat] |= ctx.suit_masks[follow]
            elif ctx.must_overtrump and follow == trump:
                best = max(rank_of[x] for x in cards[:i] if suit_of[x] == follow)
                if rank_of[c] < best:
                    voids[seat] |= ctx.at_least[follow][best]
    return played, voids


def _register() -> None:
    for gt, cls in ((SKAT_GAME_TYPE, SkatGame), (BAPTISTEN_GAME_TYPE, BaptistenGame)):
        if gt.short_name not in pyspiel.registered_names():
            pyspiel.register_game(gt, cls)


_register()
