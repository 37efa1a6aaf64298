"""The Baptistenskat environment (``stich.env.baptisten``): PettingZoo's own tests, the
action space against the engine's legal actions, information hiding, illegal actions,
rewards against the scoresheet, seeding."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from gymnasium import spaces
from pettingzoo.test import api_test, max_cycles_test, seed_test  # type: ignore[import-untyped]

from stich.baptisten import BaptistenRules, BaptistenState, Deal
from stich.baptisten.actions import FOREHEAD_PLAY
from stich.cards import PlainCard
from stich.env.baptisten import BaptistenAdapter, baptisten_v0
from stich.env.base import IllegalAction, StichAEC

# (rules, players): 3, 4 and 15 players (15 need a deck of 105 cards or more)
TABLES: list[tuple[str | None, int]] = [
    (None, 3),
    (None, 4),
    ("baptisten(deck=elferraus-double)", 15),
    ("baptisten(deck=romme-double-joker,max_cards=7,variants=2+3+4+5)", 15),
]

# every variant, every deck, several player counts, small N: many whole games in seconds
VARIANTS: list[tuple[str, int]] = [
    ("baptisten(max_cards=4)", 3),
    ("baptisten(max_cards=5,variants=2)", 4),
    ("baptisten(max_cards=4,variants=3)", 5),
    ("baptisten(max_cards=3,variants=4)", 6),
    ("baptisten(deck=skat,max_cards=6,variants=5)", 4),
    ("baptisten(deck=romme,max_cards=4,variants=2+4+5)", 7),
    ("baptisten(deck=romme-double-joker,max_cards=3,variants=2+5)", 15),
    ("baptisten(deck=skat-double,max_cards=4,variants=2+3)", 9),
    ("baptisten(deck=elferraus-double,max_cards=3)", 15),
    ("baptisten(deck=romme-double,max_cards=12)", 4),  # 4 mandatory 40s
    ("baptisten(max_cards=2)", 3),  # no 40s at all
    ("ohhell", 3),
    ("baptisten(rounds=single,max_cards=5)", 2),
]


def random_game(adapter: BaptistenAdapter, seed: int) -> list[int]:
    """Play one episode with random legal actions; the actions taken."""
    rng = random.Random(seed)
    adapter.reset(seed)
    taken = []
    while not adapter.over():
        seat = adapter.to_move()
        assert seat is not None
        legal = np.flatnonzero(adapter.mask(seat))
        a = int(legal[rng.randrange(len(legal))])
        adapter.step(a)
        taken.append(a)
    return taken


# --- PettingZoo's tests --------------------------------------------------------------------

@pytest.mark.parametrize(("rules", "players"), TABLES)
def test_api(rules: str | None, players: int) -> None:
    api_test(baptisten_v0(rules, players), num_cycles=300)


@pytest.mark.parametrize(("rules", "players"), TABLES)
def test_seed(rules: str | None, players: int) -> None:
    seed_test(lambda: baptisten_v0(rules, players), num_cycles=100)


class _MaskedDiscrete(spaces.Discrete):
    """A Discrete space whose ``sample()`` draws from the mask of the agent to move."""

    def __init__(self, aec: StichAEC, agent: str) -> None:
        super().__init__(aec.game.n_actions)
        self.aec, self.agent = aec, agent

    def sample(self, mask: Any = None, probability: Any = None) -> np.int64:
        m = self.aec.game.mask(self.aec.possible_agents.index(self.agent))
        return super().sample(mask=m if m.any() else None)


class _TurnsAsParallel:
    """A turn-based game seen as a parallel one for ``max_cycles_test``: each parallel
    step applies the action of the agent to move and ignores the others; the game is
    truncated after ``max_cycles`` parallel steps."""

    def __init__(self, make: Any, max_cycles: int) -> None:
        self.aec = make(max_cycles=max_cycles)
        self.possible_agents = self.aec.possible_agents
        self.agents: list[str] = []

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return _MaskedDiscrete(self.aec, agent)

    def reset(self, seed: int | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        self.aec.reset(seed)
        self.agents = list(self.aec.agents)
        return {a: self.aec.observe(a) for a in self.agents}, dict(self.aec.infos)

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], ...]:
        agent = self.aec.agent_selection
        self.aec.step(actions[agent])
        out = ({a: self.aec.observe(a) for a in self.agents}, dict(self.aec.rewards),
               dict(self.aec.terminations), dict(self.aec.truncations), dict(self.aec.infos))
        self.agents = [a for a in self.agents
                       if not (self.aec.terminations[a] or self.aec.truncations[a])]
        return out


def _cycles_namespace(rules: str | None, players: int) -> SimpleNamespace:
    """What ``max_cycles_test`` needs of a module.  It samples actions without the mask,
    so the spaces it gets sample legal actions (any other action is refused or ends the
    game); a cycle is every agent acting once, so the AEC env is truncated after
    ``max_cycles`` × players steps (StichAEC's ``max_cycles`` counts steps)."""
    def make_env(max_cycles: int) -> StichAEC:
        e = baptisten_v0(rules, players, on_illegal="terminate",
                         max_cycles=max_cycles * players)
        e.action_space = lambda agent: _MaskedDiscrete(e, agent)  # type: ignore[method-assign]
        return e

    def make_parallel(max_cycles: int) -> _TurnsAsParallel:
        return _TurnsAsParallel(
            lambda max_cycles: baptisten_v0(rules, players, on_illegal="terminate",
                                            max_cycles=max_cycles), max_cycles)

    return SimpleNamespace(env=make_env, parallel_env=make_parallel)


@pytest.mark.parametrize(("rules", "players"), TABLES)
def test_max_cycles(rules: str | None, players: int) -> None:
    max_cycles_test(_cycles_namespace(rules, players))


def test_max_cycles_counts_steps() -> None:
    e = baptisten_v0(players=4, max_cycles=3)
    e.reset(seed=1)
    for _ in range(3):
        assert not any(e.truncations.values())
        obs, *_ = e.last()
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert all(e.truncations.values())


# --- the action space ----------------------------------------------------------------------

def test_sizes() -> None:
    a = BaptistenAdapter(players=4)
    assert a.rules.max_cards == 10
    assert (a.n_actions, a.obs_size) == (11 * 21 + 80, 614)
    assert sum(w for _, w in a.OBS_LAYOUT) == a.obs_size
    assert a.ACTIONS[0] == "bid 0 stake 1" and a.ACTIONS[230] == "bid 10 stake 40"
    assert a.ACTIONS[231] == "R1" and a.ACTIONS[-1] == "B20"
    big = BaptistenAdapter("baptisten(deck=elferraus-double)", players=15)
    assert (big.n_actions, big.obs_size) == (311, 1582)
    assert len(set(big.ACTIONS)) == big.n_actions
    oh = BaptistenAdapter("ohhell")
    assert oh.ACTIONS[:8] == [f"bid {k}" for k in range(8)] and len(oh.ACTIONS) == 8 + 52
    fh = BaptistenAdapter("baptisten(deck=romme-double-joker,variants=2)", players=3)
    assert fh.ACTIONS[fh.n_bids] == "play" and fh.ACTIONS[-1] == "JK"
    assert fh.n_actions == 11 * 21 + 1 + 53
    assert dict(fh.OBS_LAYOUT)["seen"] == 3 * 53 and "seen" not in dict(a.OBS_LAYOUT)


def test_players_outside_the_deck() -> None:
    with pytest.raises(ValueError, match=r"15 players.*elferraus-double"):
        BaptistenAdapter(players=15)
    with pytest.raises(ValueError, match="at least 3"):
        BaptistenAdapter(players=2)
    with pytest.raises(ValueError, match="at most 22"):
        BaptistenAdapter("baptisten(deck=elferraus-double)", players=23)


@pytest.mark.parametrize(("rules", "players"), VARIANTS)
def test_every_legal_action_is_in_the_space(rules: str, players: int) -> None:
    """In random whole games: every legal action of the engine has an index whose text
    the engine reads back as that action (a card: the same kind), the mask is exactly the
    view's legal actions for the seat to move and zeros for every other seat."""
    a = BaptistenAdapter(rules, players)
    seen: set[int] = set()
    for seed in range(3):
        rng = random.Random(seed)
        a.reset(seed)
        while not a.over():
            s = a.state
            seat = s.to_move
            engine_legal = s.legal_actions()
            for act in engine_legal:
                i = a.action_index(act)
                back = s.parse_action(a.action_text(i))
                if isinstance(act, PlainCard):
                    assert isinstance(back, PlainCard) and back.code == act.code
                    assert a.engine_action(i).code == act.code
                    assert s.hands[seat] & a.engine_action(i).bit
                else:
                    assert back == act and a.engine_action(i) == act
            view_legal = s.view(seat).legal_actions
            want = {a.action_index(x) for x in view_legal}
            assert set(np.flatnonzero(a.mask(seat)).tolist()) == want
            if s.is_forehead_round and s.phase.name == "PLAY":
                assert view_legal == (FOREHEAD_PLAY,)
            for other in range(players):
                if other != seat:
                    assert not a.mask(other).any()
            seen |= want
            legal = sorted(want)
            a.step(legal[rng.randrange(len(legal))])
    assert any(i < a.n_bids for i in seen) and any(i >= a.first_card for i in seen)


# --- information hiding --------------------------------------------------------------------

def _replay_compare(rules: BaptistenRules, deals1: tuple[Deal, ...], deals2: tuple[Deal, ...],
                    first: int, actions: list[int], until: int, seat: int) -> int:
    """Play the same actions on both deals, comparing the seat's observation and mask
    before each of the first ``until`` steps (or up to an action the second deal does
    not allow); the steps compared."""
    a1 = BaptistenAdapter(rules)
    a2 = BaptistenAdapter(rules)
    a1.start(BaptistenState.new(rules, deals=deals1, first=first))
    a2.start(BaptistenState.new(rules, deals=deals2, first=first))
    done = 0
    for act in actions[:until]:
        assert np.array_equal(a1.observe(seat), a2.observe(seat)), done
        assert np.array_equal(a1.mask(seat), a2.mask(seat)), done
        done += 1
        mover = a1.to_move()
        assert mover is not None and mover == a2.to_move()
        if not a2.mask(mover)[act]:
            break
        a1.step(act)
        a2.step(act)
    return done


def _played_cards(adapter: BaptistenAdapter, seed: int
                  ) -> tuple[list[int], list[tuple[int, int, int]]]:
    """A random whole game: the actions and the plays (step, seat, card index)."""
    rng = random.Random(seed)
    actions: list[int] = []
    plays: list[tuple[int, int, int]] = []
    while not adapter.over():
        s = adapter.state
        legal = np.flatnonzero(adapter.mask(s.to_move))
        act = int(legal[rng.randrange(len(legal))])
        if s.phase.name == "PLAY":
            card = adapter.engine_action(act)
            idx = (s.hands[s.to_move].bit_length() - 1 if card is FOREHEAD_PLAY
                   else card.index)  # type: ignore[union-attr]
            plays.append((len(actions), s.to_move, idx))
        actions.append(act)
        adapter.step(act)
    return actions, plays


@pytest.mark.parametrize(("rules", "players"), [
    ("baptisten(max_cards=5)", 4),
    ("baptisten(deck=skat-double,max_cards=6,variants=5)", 5),
    ("baptisten(deck=romme-double-joker,max_cards=4,variants=3+4)", 6),
])
def test_cards_of_other_hands_do_not_show(rules: str, players: int) -> None:
    """Swap the cards two other seats play in the last trick of a round: the observer's
    observations and masks are the same at every step up to that trick."""
    compared = 0
    for seed in range(4):
        a = BaptistenAdapter(rules, players)
        a.reset(seed)
        start = a.state
        actions, plays = _played_cards(a, seed)
        r = a.rules
        steps_per_round = [players * (k + 1) for k in r.schedule()]
        seat = seed % players
        for rnd, k in enumerate(r.schedule()):
            begin = sum(steps_per_round[:rnd])
            last = [p for p in plays if begin <= p[0] < begin + steps_per_round[rnd]][-players:]
            others = [p for p in last if p[1] != seat]
            (_, sa, ca), (_, sb, cb) = others[0], others[-1]
            if r.forehead and k == 1:
                continue
            deals = list(start.deals)
            hands = list(deals[rnd].hands)
            hands[sa] ^= (1 << ca) | (1 << cb)
            hands[sb] ^= (1 << ca) | (1 << cb)
            deals[rnd] = Deal(tuple(hands), deals[rnd].trump_card)
            until = last[0][0]
            compared += _replay_compare(r, start.deals, tuple(deals), start.first_player,
                                        actions, until, seat)
    assert compared > 500


def test_own_card_in_a_forehead_round_does_not_show() -> None:
    """In a forehead round the seat's own card is hidden from it: swapping it for a card
    nobody holds changes nothing it observes until it plays the card."""
    rules = BaptistenRules(players=4, max_cards=3, forehead=True)
    compared = 0
    for seed in range(6):
        a = BaptistenAdapter(rules)
        a.reset(seed)
        start = a.state
        actions, plays = _played_cards(a, seed)
        seat = seed % 4
        for rnd, k in enumerate(rules.schedule()):
            if k != 1:
                continue
            begin = sum(4 * (kk + 1) for kk in rules.schedule()[:rnd])
            deal = start.deals[rnd]
            used = 0
            for h in deal.hands:
                used |= h
            spare = next(c for c in range(rules.card_deck.size)
                         if not used >> c & 1 and c != deal.trump_card)
            hands = list(deal.hands)
            hands[seat] = 1 << spare
            deals = list(start.deals)
            deals[rnd] = Deal(tuple(hands), deal.trump_card)
            own = next(p[0] for p in plays if p[0] >= begin and p[1] == seat)
            n = _replay_compare(rules, start.deals, tuple(deals), start.first_player,
                                actions, own + 1, seat)
            assert n == own + 1  # up to and including the seat's own "play"
            compared += n
            # the others see the card: someone's observation differs at once
            a1, a2 = BaptistenAdapter(rules), BaptistenAdapter(rules)
            a1.start(BaptistenState.new(rules, deals=start.deals, first=start.first_player))
            a2.start(BaptistenState.new(rules, deals=tuple(deals), first=start.first_player))
            for act in actions[:begin]:
                a1.step(act)
                a2.step(act)
            assert not np.array_equal(a1.observe((seat + 1) % 4), a2.observe((seat + 1) % 4))
    assert compared > 100


# --- illegal actions -----------------------------------------------------------------------

def test_illegal_action_raises() -> None:
    e = baptisten_v0(players=4, on_illegal="raise")
    e.reset(seed=3)
    obs, *_ = e.last()
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[-1])  # a card while bidding
    with pytest.raises(IllegalAction, match=r"player_\d may not play action \d+ \(B20\); "
                                            r"legal now: bid 0 stake 1, "):
        e.step(bad)
    with pytest.raises(IllegalAction, match="may not play action 9999"):
        e.step(9999)
    a = BaptistenAdapter(players=4)
    with pytest.raises(IllegalAction, match="may not play action 310"):
        a.step(310)


def test_illegal_action_terminates() -> None:
    e = baptisten_v0(players=4, on_illegal="terminate")
    e.reset(seed=3)
    agent = e.agent_selection
    obs, *_ = e.last()
    e.step(int(np.flatnonzero(obs["action_mask"] == 0)[-1]))
    assert all(e.terminations.values())
    assert e.rewards[agent] == -1.0
    assert all(r == 0.0 for a, r in e.rewards.items() if a != agent)
    assert e.infos[agent] == {"illegal": True}
    for _ in e.agent_iter():
        e.step(None)
    assert e.agents == []


# --- rewards -------------------------------------------------------------------------------

@pytest.mark.parametrize(("rules", "players"), VARIANTS)
def test_rewards_add_up_to_the_scoresheet(rules: str, players: int) -> None:
    e = baptisten_v0(rules, players)
    for seed in range(2):
        e.reset(seed=seed)
        got = dict.fromkeys(e.possible_agents, 0.0)
        rounds = 0
        rng = random.Random(seed)
        for agent in e.agent_iter():
            obs, reward, term, trunc, _ = e.last()
            got[agent] += reward
            if term or trunc:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            before = len(e.game.state.sheet)
            e.step(int(legal[rng.randrange(len(legal))]))
            sheet = e.game.state.sheet
            if len(sheet) > before:
                rounds += 1
                assert [e.rewards[f"player_{p}"] for p in range(players)] == \
                    [float(x) for x in sheet[-1].scores]
            else:
                assert not any(e.rewards.values())
        state = e.game.state
        assert state.is_over and rounds == len(state.sheet)
        assert [got[f"player_{p}"] for p in range(players)] == [float(t) for t in state.totals]


def test_one_round_episodes() -> None:
    a = BaptistenAdapter(players=4, whole_game=False)
    rounds = set()
    for seed in range(30):
        a.reset(seed)
        r = a.state.round_no
        rounds.add(r)
        assert len(a.state.sheet) == r - 1 and a.state.phase.name == "BIDDING"
        total = np.zeros(4)
        while not a.over():
            seat = a.to_move()
            assert seat is not None
            total += a.step(int(np.flatnonzero(a.mask(seat))[0]))
        assert len(a.state.sheet) == r
        assert total.tolist() == [float(x) for x in a.state.sheet[-1].scores]
    assert len(rounds) > 10
    b = BaptistenAdapter(players=4, whole_game=False, round_no=10)
    b.reset(5)
    assert b.state.round_no == 10 and b.state.cards == 10
    with pytest.raises(ValueError, match="round_no"):
        BaptistenAdapter(players=4, whole_game=False, round_no=20)


# --- seeding and observations --------------------------------------------------------------

def test_seeded_resets_are_reproducible() -> None:
    a = BaptistenAdapter(players=5)
    b = BaptistenAdapter(players=5)
    assert random_game(a, 11) == random_game(b, 11)
    assert a.state.totals == b.state.totals and a.state.history == b.state.history
    a.reset(12)
    b.reset(12)
    assert np.array_equal(a.observe(2), b.observe(2))
    e1, e2 = baptisten_v0(players=4), baptisten_v0(players=4)
    e1.reset(seed=7)
    e2.reset(seed=7)
    assert e1.game.state.deals == e2.game.state.deals
    e1.reset(seed=8)
    assert e1.game.state.deals != e2.game.state.deals


def test_observation_slots() -> None:
    a = BaptistenAdapter(players=4)
    a.reset(1)
    s = a.state
    seat = s.to_move
    o = a.observe(seat)
    off = a.offset
    assert o.dtype == np.float32 and o.shape == (a.obs_size,)
    assert o[off["hand"]:off["hand"] + 80].sum() == 1 == o[off["trump_card"]:][:80].sum()
    assert o[off["to_move"]] == 1 and o[off["first"]] == 1
    assert (o[off["bid"]:off["bid"] + 4] == -1).all()
    assert o[off["phase"]] == 1 and o[off["round"]] == 1 / 19 and o[off["cards"]] == 0.1
    a.step(a.action_index(s.legal_actions()[-1]))  # bid 1 stake 20
    o2 = a.observe((seat + 1) % 4)  # the next seat sees it three seats on
    assert o2[off["bid"] + 3] == 0.1 and o2[off["stake"] + 3] == 0.5
    assert o2[off["to_move"]] == 1


def test_render() -> None:
    e = baptisten_v0(players=3, render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert isinstance(text, str) and text.startswith("round 1/19, 1 card(s), trump card ")
