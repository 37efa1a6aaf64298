"""The environments' defaults against the libraries' own checkers and what researchers
expect of them (issue 44, second pass): Gymnasium's ``check_env`` and the registered ids,
PettingZoo's parallel API and global state, illegal actions by default, strong bots that
repeat under a seed, one-round episodes that start at their round, every table size of
the default rules, and the batch's error naming its game."""

from __future__ import annotations

import logging
import random
import re
import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import (  # type: ignore[import-untyped]
    parallel_api_test,
    parallel_seed_test,
    state_test,
)

from stich.baptisten import BaptistenRules, BaptistenState
from stich.env import baptisten, skat
from stich.env.base import IllegalAction, StichAEC
from stich.env.gym import IDS, STRONG_WORLDS, SingleSeat
from stich.env.vector import VectorGames

# --- 4: Gymnasium ---------------------------------------------------------------------------


@pytest.mark.parametrize("env_id", sorted(IDS))
def test_the_registered_ids_pass_check_env_with_their_defaults(env_id: str) -> None:
    env = gymnasium.make(env_id)
    assert isinstance(env.unwrapped, SingleSeat)
    assert env.unwrapped.game_name == IDS[env_id]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the checker's warnings are failures here
        check_env(env.unwrapped)  # render check included: the spec makes an "ansi" env
    obs, _ = env.reset(seed=3)  # and an episode through make's own wrappers
    done = False
    while not done:
        obs, _, done, trunc, _ = env.step(env.action_space.sample(mask=obs["action_mask"]))
        assert not trunc


def test_make_by_module_path_and_with_arguments() -> None:
    env = gymnasium.make("stich.env.gym:stich/Baptisten-v0", players=5, bots="random",
                         whole_game=False)
    assert env.unwrapped.game.n_agents == 5  # type: ignore[attr-defined]
    obs, _ = env.reset(seed=1)
    assert obs["observation"].shape == env.observation_space["observation"].shape  # type: ignore[index]


@pytest.mark.parametrize("game", ["skat", "baptisten"])
def test_an_illegal_action_ends_the_episode_by_default_and_is_logged_once(
        game: str, caplog: pytest.LogCaptureFixture) -> None:
    env = SingleSeat(game)
    assert env.on_illegal == "terminate"
    caplog.set_level(logging.WARNING, logger="stich.env")
    for seed in (1, 2):
        obs, _ = env.reset(seed=seed)
        bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
        _, reward, done, trunc, info = env.step(bad)
        assert (reward, done, trunc, info["illegal"]) == (-1.0, True, False, True)
    logged = [r for r in caplog.records if r.name == "stich.env"]
    assert len(logged) == 1 and "on_illegal='raise'" in logged[0].getMessage()
    with pytest.raises(IllegalAction):  # raise: at the step that sent it
        strict = SingleSeat(game, on_illegal="raise")
        obs, _ = strict.reset(seed=1)
        strict.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))


# --- 4: PettingZoo --------------------------------------------------------------------------

MODULES: list[tuple[Any, dict[str, Any]]] = [
    (skat, {}), (skat, {"rules": "skat(preset=lothar,kontra_re=yes)", "games": 2}),
    (baptisten, {}), (baptisten, {"players": 5, "whole_game": False}),
]
IDS_PZ = ["skat", "skat-house", "baptisten", "baptisten-round"]


@pytest.mark.parametrize(("mod", "kwargs"), MODULES, ids=IDS_PZ)
def test_parallel_env_passes_pettingzoos_parallel_tests(mod: Any, kwargs: dict[str, Any]
                                                        ) -> None:
    parallel_api_test(mod.parallel_env(**kwargs), num_cycles=2000)
    parallel_seed_test(lambda: mod.parallel_env(**kwargs), num_cycles=200)


@pytest.mark.parametrize(("mod", "kwargs"), MODULES, ids=IDS_PZ)
def test_state_passes_pettingzoos_state_test(mod: Any, kwargs: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        state_test(mod.env(**kwargs), mod.parallel_env(**kwargs), num_cycles=30)


def _walk(env: StichAEC, seed: int) -> list[np.ndarray[Any, Any]]:
    """Every state of one game with random legal actions."""
    env.reset(seed=seed)
    rng = random.Random(seed)
    out = [env.state()]
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        assert env.observe(agent)["action_mask"].any()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        out.append(env.state())
    return out


def test_the_skat_state_is_every_observation_and_the_skat() -> None:
    env = skat.skat_v0()
    game = env.game
    size = game.obs_size
    assert env.state_space.shape == (3 * size + 32,) == (game.state_size,)
    env.reset(seed=4)
    state = env.state()
    assert env.state_space.contains(state)
    for seat in range(3):
        assert np.array_equal(state[seat * size:(seat + 1) * size], game.observe(seat))
    skat_cards = game.state.skat  # type: ignore[attr-defined]
    assert [i for i in range(32) if state[3 * size + i]] == \
        [i for i in range(32) if skat_cards >> i & 1]
    # before anybody picked it up no observation shows the Skat (``skat_seen``, slots
    # 32..63, is empty; no hand holds its cards), the state does
    assert skat_cards and not any(game.observe(s)[32:64].any() for s in range(3))
    assert len(_walk(env, 4)) > 20


def test_the_baptisten_state_shows_every_hand() -> None:
    env = baptisten.baptisten_v0(players=4)
    game = env.game
    size = game.obs_size
    assert env.state_space.shape == (4 * size,)
    env.reset(seed=2)
    state = env.state()
    hand = game.offset["hand"]  # type: ignore[attr-defined]
    k = game.n_kinds  # type: ignore[attr-defined]
    for seat in range(4):
        block = state[seat * size:(seat + 1) * size]
        assert np.array_equal(block, game.observe(seat))
        assert block[hand:hand + k].sum() == game.state.cards  # type: ignore[attr-defined]
    assert all(env.state_space.contains(s) for s in _walk(env, 2))


# --- 5: strong bots repeat under a seed -----------------------------------------------------


def _trajectory(env: SingleSeat, seed: int) -> list[tuple[int, float, bytes]]:
    rng = random.Random(seed)
    obs, _ = env.reset(seed=seed)
    out = []
    done = False
    while not done:
        a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, done, _, _ = env.step(a)
        out.append((a, reward, obs["observation"].tobytes()))
    return out


def test_strong_opponents_repeat_under_the_same_seed_baptisten() -> None:
    kwargs: dict[str, Any] = {"bots": "strong", "players": 4, "whole_game": False,
                              "round_no": 7}
    env = SingleSeat("baptisten", **kwargs)
    assert env.strong_worlds == STRONG_WORLDS["baptisten"]
    first = _trajectory(env, 5)
    assert first == _trajectory(env, 5)  # the same environment again
    assert first == _trajectory(SingleSeat("baptisten", **kwargs), 5)  # a fresh one
    assert first != _trajectory(env, 6)
    bot = env.bots[1]
    assert (bot.max_worlds, bot.timer()) == (48, 0.0)
    # what strong keeps of its bids for the arena is cleared at every reset: after five
    # one-round episodes it holds this round's bid only (no list growing while training)
    assert len(bot.estimates) == 1


def test_strong_opponents_repeat_under_the_same_seed_skat() -> None:
    kwargs: dict[str, Any] = {"bots": ["random", "strong", "easy"]}  # seat 0 learns
    env = SingleSeat("skat", **kwargs)
    first = _trajectory(env, 5)
    assert env.game.table.games[-1].declarer == 1  # type: ignore[attr-defined]
    assert first == _trajectory(SingleSeat("skat", **kwargs), 5)  # strong declared, played


def test_the_clocked_strong_bot_on_request() -> None:
    env = SingleSeat("baptisten", bots="strong", players=3, strong_worlds=None)
    assert env.strong_worlds is None and env.bots[1].max_worlds is None
    assert SingleSeat("skat", bots="strong", strong_worlds=3).bots[1].max_worlds == 3
    with pytest.raises(ValueError, match="strong_worlds"):
        SingleSeat("skat", bots="strong", strong_worlds=0)


# --- 6: one-round episodes start at their round ---------------------------------------------

ROUND_RULES: list[tuple[str | None, int]] = [
    (None, 4), (None, 3), ("baptisten(max_cards=5,variants=2+4)", 5),
    ("baptisten(max_cards=4,variants=3)", 4), ("baptisten(deck=romme-double,max_cards=12)", 4),
    ("baptisten(deck=skat,max_cards=6,variants=5)", 3),
]


@pytest.mark.parametrize(("rules", "players"), ROUND_RULES)
def test_one_round_episodes_start_at_their_round_with_a_sheet_the_rules_allow(
        rules: str | None, players: int) -> None:
    a = baptisten.BaptistenAdapter(rules, players, whole_game=False)
    r_obj = a.rules
    sched = r_obj.schedule()
    seen_rounds = set()
    forced_seen = False
    for seed in range(60):
        a.reset(seed)
        s = a.state
        k = s.round_no
        seen_rounds.add(k)
        # at round k's first bid, nothing of an earlier round played by the engine
        assert s.phase.name == "BIDDING" and s.history == [] and len(s.sheet) == k - 1
        assert s.cards == sched[k - 1] and s.to_move == s.first
        first0 = (s.first - (k - 1)) % players
        owed = [r_obj.forties_required] * players
        totals = [0] * players
        for j, row in enumerate(s.sheet):
            c = sched[j]
            assert (row.round, row.cards, row.first) == (j + 1, c, (first0 + j) % players)
            assert sum(row.tricks) == c and all(0 <= t <= c for t in row.bids)
            # the bids, in order, are what the engine allows at that point of a game with
            # this sheet: built by the adapter itself from the sheet so far, then bid
            pos = _position_at(a, s, j, owed, totals)
            for i in range(players):
                p = (row.first + i) % players
                assert pos.to_move == p
                pos = pos.apply(pos.parse_action(
                    f"bid {row.bids[p]}" + ("" if row.stakes[p] is None
                                            else f" stake {row.stakes[p]}")))
            assert pos.forced == row.forced
            forced_seen |= any(row.forced)
            for p in range(players):
                exact = row.bids[p] == row.tricks[p]
                if r_obj.trick_scoring:
                    bonus = (r_obj.exact_zero_bonus if row.bids[p] == 0
                             else r_obj.exact_bonus) if exact else 0
                    want = r_obj.points_per_trick * row.tricks[p] + bonus
                else:
                    stake = row.stakes[p]
                    assert stake is not None
                    want = stake if exact else -stake
                    owed[p] -= stake == 40
                assert row.scores[p] == want
                totals[p] += want
            assert row.totals == tuple(totals)
        assert s.totals == tuple(totals) and s.owed == tuple(owed)
        # the round is played by the engine to its score, and the episode ends there
        rng = random.Random(seed)
        got = np.zeros(players)
        while not a.over():
            seat = a.to_move()
            assert seat is not None
            got += a.step(int(rng.choice(np.flatnonzero(a.mask(seat)))))
        assert len(a.state.sheet) == k and got.tolist() == list(a.state.sheet[-1].scores)
    assert len(seen_rounds) > len(sched) // 2
    if r_obj.forties_required and len(sched) > 7:
        assert forced_seen  # random stakes leave 40s owed that late rounds force


def _position_at(a: baptisten.BaptistenAdapter, s: BaptistenState, j: int,
                 owed: list[int], totals: list[int]) -> BaptistenState:
    """The engine's state at the first bid of round ``j + 1`` with the sheet of ``s`` up
    to it (built as the adapter builds round k, from a view: ``round_position``)."""
    from stich.baptisten.position import round_position
    from stich.baptisten.view import BaptistenView

    n = a.n_agents
    c = a.rules.schedule()[j]
    row = s.sheet[j]
    # any deal of c cards a seat will do: the bids do not depend on the cards
    deck = a.deck.cards
    hands = tuple(sum(deck[p * c + i].bit for i in range(c)) for p in range(n))
    trump = deck[n * c].index if n * c < len(deck) else 0
    forehead = a.rules.forehead and c == 1
    view = BaptistenView(
        seat=row.first, rules=str(a.rules), round_no=j + 1, cards=c, first=row.first,
        phase="BIDDING", to_move=row.first, hand=0 if forehead else hands[row.first],
        others=tuple(h if forehead and p != row.first else 0 for p, h in enumerate(hands)),
        trump_card=trump, trump=deck[trump].suit, bids=(-1,) * n, stakes=(None,) * n,
        forced=(False,) * n, hooked=None, owed=tuple(owed), trick=(), round_tricks=(),
        tricks_won=(0,) * n, totals=tuple(totals), sheet=s.sheet[:j], legal_actions=())
    return round_position(view, hands)


def test_one_round_episodes_repeat_under_a_seed_and_the_old_way_stays() -> None:
    a = baptisten.BaptistenAdapter(players=4, whole_game=False)
    b = baptisten.BaptistenAdapter(players=4, whole_game=False)
    a.reset(17)
    b.reset(17)
    assert a.state.sheet == b.state.sheet and a.state.hands == b.state.hands
    assert np.array_equal(a.global_state(), b.global_state())
    played = baptisten.BaptistenAdapter(players=4, whole_game=False, earlier_rounds="played",
                                        round_no=6)
    played.reset(3)
    assert played.state.round_no == 6 and len(played.state.history) > 0  # replayed
    with pytest.raises(ValueError, match="earlier_rounds"):
        baptisten.BaptistenAdapter(whole_game=False, earlier_rounds="guessed")


# --- 7: every table size of the default rules ------------------------------------------------


@pytest.mark.parametrize("players", range(3, 16))
def test_every_table_size_with_the_default_rules_works_or_says_what_does(players: int
                                                                          ) -> None:
    deck = BaptistenRules().card_deck.size
    if players <= deck // 7:  # 3..11: the default rules, as many cards as fit (≤ 10)
        env = SingleSeat("baptisten", bots="random", players=players)
        rules = env.game.rules  # type: ignore[attr-defined]
        assert rules == BaptistenRules(players=players,
                                       max_cards=min(10, deck // players))
        _trajectory(env, players)
        return
    with pytest.raises(ValueError) as e:
        SingleSeat("baptisten", bots="random", players=players)
    text = str(e.value)
    assert f"at most {deck // 7} players" in text and "elferraus-double" in text
    example = re.search(r"e\.g\. rules='([^']+)'", text)
    assert example is not None
    suggested = SingleSeat("baptisten", bots="random", players=players,
                           rules=example.group(1), whole_game=False)
    _trajectory(suggested, players)  # the suggestion is a table that plays


def test_rules_given_that_do_not_fit_are_refused_with_rules_that_do() -> None:
    with pytest.raises(ValueError, match=r"rules for 9 players: max_cards=8; ") as e:
        baptisten.baptisten_v0("baptisten(preset=default)", players=9)
    example = re.search(r"e\.g\. rules='([^']+)'", str(e.value))
    assert example is not None
    assert baptisten.make_rules(example.group(1), 9).max_cards == 8
    with pytest.raises(ValueError, match="rounds=single"):
        baptisten.baptisten_v0(players=2)


# --- 9: the batch's error names its game ----------------------------------------------------


@pytest.mark.parametrize(("game", "kwargs"), [
    ("baptisten", {"players": 4}), ("skat", {"rules": "skat(preset=lothar,kontra_re=yes)"}),
])
def test_an_illegal_action_in_a_batch_names_the_game(game: str, kwargs: dict[str, Any]
                                                     ) -> None:
    v = VectorGames(game, 3, seed=1, **kwargs)
    _, masks, seats = v.observe()
    actions = v.random_actions()
    bad = int(np.flatnonzero(masks[1] == 0)[-1])
    actions[1] = bad
    with pytest.raises(IllegalAction) as e:
        v.step(actions)
    text = str(e.value)
    assert text.startswith(f"game 1 of 3 ({game}): player_{seats[1]} may not play action "
                           f"{bad} ({v.games[1].action_text(bad)}); legal now: "), text


def test_a_skat_discard_the_mask_forbids_is_refused_at_its_own_step() -> None:
    a = skat.SkatAdapter()
    rng = random.Random(2)
    for seed in range(40):  # a game that reaches a discard
        a.reset(seed)
        while not a.over() and a.state.phase.name != "DISCARD":
            seat = a.to_move()
            assert seat is not None
            legal = np.flatnonzero(a.mask(seat))
            pickup = [x for x in legal if a.action_text(int(x)) == "pickup"]
            a.step(int(pickup[0] if pickup else rng.choice(legal)))
        if a.state.phase.name == "DISCARD":
            break
    seat = a.to_move()
    assert seat is not None and a.state.phase.name == "DISCARD"
    mask = a.mask(seat)
    bad = next(i for i in range(skat.DISCARD0, skat.DISCARD0 + 32) if not mask[i])
    with pytest.raises(IllegalAction, match="is not legal now"):
        a.step(bad)
    assert a.pending == -1  # nothing held
