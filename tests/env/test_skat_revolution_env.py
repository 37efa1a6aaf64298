"""Revolution and Schenken in the Skat environment (stich.env.skat, stich.env.skat_space):
their blocks after the other house rules, the mask against the engine's legal actions
(the give steps reach exactly the engine's legal gives), the slots against the views,
PettingZoo's and Gymnasium's own tests, bots, the vector of games, and hidden cards."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from stich.env.gym import SingleSeat
from stich.env.skat import ACTIONS, DISCARD0, N_ACTIONS, OBS_LAYOUT, SkatAdapter, skat_v0
from stich.env.skat_space import give_steps, space_of
from stich.env.vector import VectorGames
from stich.skat import SkatRules
from stich.skat.actions import Declare, Discard, Give, parse_action

from .test_skat_env import _swapped
from .test_skat_house_env import ALL

REV = "skat(preset=lothar,kontra_re=yes,revolution=yes,schenken=yes)"
BOTH_ALL = ALL[:-1] + ",revolution=yes,schenken=yes)"  # every house rule
ISKO = "skat(preset=isko,revolution=yes,schenken=yes)"


def _slots(a: SkatAdapter, obs: np.ndarray, name: str) -> list[float]:
    off = a.space.offset[name]
    return [float(x) for x in obs[off:off + dict(a.space.obs_layout)[name]]]


def _choose(a: SkatAdapter, mask: np.ndarray, rng: random.Random) -> int:
    """A random legal action, a Revolution and Schenken more often than by chance."""
    ids = np.flatnonzero(mask)
    wanted = [int(i) for i in ids if "revolution" in a.space.actions[i]
              or a.space.actions[i] in ("schenken", "accept")]
    if wanted and rng.random() < 0.6:
        return rng.choice(wanted)
    return int(rng.choice(ids))


# --- the spaces ------------------------------------------------------------------------------


def test_the_blocks_append_after_every_other_house_rule() -> None:
    s = space_of(SkatRules.parse(BOTH_ALL))
    before = space_of(SkatRules.parse(ALL))
    # the 92 of a Revolution is a new ladder value: it comes first, as Spitze's values
    assert s.actions[:N_ACTIONS] == tuple(ACTIONS) and s.actions[N_ACTIONS] == "92"
    assert s.actions[N_ACTIONS + 1:before.n_actions + 1] == before.actions[N_ACTIONS:]
    rev = s.actions[before.n_actions + 1:]
    assert rev[:2] == ("declare null ouvert revolution", "declare null hand ouvert revolution")
    assert rev[2:34] == tuple(f"give {parse_action(t)}" for t in ACTIONS[-32:])
    assert rev[34:] == ("give done", "schenken", "accept")
    assert (s.give0, s.give_done) == (before.n_actions + 3, before.n_actions + 35)
    assert s.obs_layout[:len(before.obs_layout)] == before.obs_layout
    assert s.house_layout[len(before.house_layout):] == (
        ("revolution", 1), ("partner_hand", 32), ("giving", 32), ("gift", 2),
        ("gift_pending", 2))
    assert (s.n_actions, s.obs_size) == (199 + 1 + 2 + 33 + 2, 411 + 69)
    for i, text in enumerate(s.actions):
        if DISCARD0 <= i < DISCARD0 + 32 or s.give0 <= i <= s.give_done:
            assert s.action_obj[i] is None
        else:
            assert str(parse_action(text)) == text and s.index[parse_action(text)] == i
    # each rule alone, and the presets' space untouched
    alone = space_of(SkatRules.parse("skat(preset=lothar,schenken=yes)"))
    assert alone.actions[N_ACTIONS:] == ("schenken", "accept") and alone.give0 == -1
    assert alone.house_layout == (("gift", 2), ("gift_pending", 2))
    r = space_of(SkatRules.parse("skat(preset=lothar,revolution=yes)"))
    assert r.actions[N_ACTIONS:N_ACTIONS + 3] == ("92", *rev[:2])
    assert space_of(SkatRules()).obs_layout == OBS_LAYOUT


def test_give_steps_reach_exactly_the_legal_gives() -> None:
    rng = random.Random(5)
    for _ in range(50):
        hand = sum(1 << c for c in rng.sample(range(32), 10))
        n = rng.randrange(0, 6)
        sets = [m for m in range(1 << 10) if m.bit_count() == n] if rng.random() < 0.5 \
            else list(range(1 << 10))
        bits = [c for c in range(32) if hand >> c & 1]
        legal = [Give(sum(1 << bits[i] for i in range(10) if m >> i & 1)) for m in sets]
        assert _reached(legal) == {g.cards for g in legal}


def _reached(legal: list[Give] | tuple[object, ...]) -> set[int]:
    """Every set that ``give done`` can give, walking the give steps from none."""
    done: set[int] = set()
    seen = {0}
    todo = [0]
    while todo:
        chosen = todo.pop()
        cards, ok = give_steps(legal, chosen)  # type: ignore[arg-type]
        if ok:
            done.add(chosen)
        for c in range(32):
            if cards >> c & 1 and chosen | 1 << c not in seen:
                seen.add(chosen | 1 << c)
                todo.append(chosen | 1 << c)
    return done


# --- the mask and the engine -----------------------------------------------------------------


@pytest.mark.parametrize("rules", [REV, ISKO])
def test_the_mask_is_the_engines_legal_set(rules: str) -> None:
    a = SkatAdapter(rules, games=4)
    rng = random.Random(rules)
    kinds: dict[str, int] = {}
    exchanges = 0
    for _ in range(60):
        a.reset(rng.getrandbits(32))
        while not a.over():
            seat = a.to_move()
            assert seat is not None
            legal = a.view(seat).legal_actions
            assert legal == tuple(a.state.legal_actions())
            mask = a.mask(seat)
            assert a.mask_bytes(seat) == mask.tobytes()
            for other in range(3):
                if other != seat:
                    assert not a.mask(other).any()
            if isinstance(legal[0], Give):
                # only give steps; from the cards chosen so far, exactly the legal gives
                on = set(np.flatnonzero(mask))
                assert on <= set(range(a.space.give0, a.space.give_done + 1))
                legal_sets = {g.cards for g in legal if isinstance(g, Give)}
                if a.giving == 0:
                    assert _reached(legal) == legal_sets
                    exchanges += 1
                cards, done = give_steps(legal, a.giving)  # type: ignore[arg-type]
                assert bool(mask[a.space.give_done]) == (a.giving in legal_sets) == done
                assert {int(i) - a.space.give0 for i in on if i < a.space.give_done} == {
                    c for c in range(32) if cards >> c & 1}
                kinds["give two" if legal_sets and len({c.bit_count() for c in legal_sets})
                      == 1 else "give one"] = 1
            elif not isinstance(legal[0], Discard):
                expected = np.zeros(a.n_actions, np.int8)
                for act in legal:
                    expected[a.space.index[act]] = 1
                assert np.array_equal(mask, expected)
                for act in legal:
                    if isinstance(act, Declare) and act.revolution:
                        kinds["revolution"] = kinds.get("revolution", 0) + 1
                    elif str(act) in ("schenken", "accept"):
                        kinds[str(act)] = kinds.get(str(act), 0) + 1
            a.step(_choose(a, mask, rng))
    assert exchanges >= 5 and {"revolution", "schenken", "accept", "give one",
                                "give two"} <= set(kinds), kinds


def test_a_revolution_exchanges_the_cards_chosen_step_by_step() -> None:
    """A worked game: the first defender gives two cards one step at a time, his partner
    must give back two of his own (not the ones he got) before ``give done``."""
    a = SkatAdapter(REV)
    for seed in range(200):  # a deal on which Mittelhand passes and Vorhand holds 18
        a.reset(seed)
        if a.mask(a.to_move() or 0)[ACTIONS.index("18")]:
            break
    idx = a.space.actions.index
    for text in ("18", "pass", "pass", "hand", "declare null hand ouvert revolution"):
        seat = a.to_move()
        assert seat is not None
        a.step(idx(text))
    first = a.to_move()
    assert first is not None and a.state.to_move == (a.state.declarer + 1) % 3
    hand = a.view(first).hand
    two = [c for c in range(32) if hand >> c & 1][:2]
    assert a.mask(first)[a.space.give_done]  # giving none is a legal give
    a.step(a.space.give0 + two[0])
    assert a.giving == 1 << two[0] and not a.mask(first)[a.space.give0 + two[0]]
    o = a.observe(first)
    assert _slots(a, o, "giving") == [float(c == two[0]) for c in range(32)]
    assert not any(_slots(a, a.observe((first + 1) % 3), "giving"))  # shown to the mover
    a.step(a.space.give0 + two[1])
    a.step(a.space.give_done)
    partner = a.to_move()
    assert partner is not None and partner != first and a.giving == 0
    got = 1 << two[0] | 1 << two[1]
    assert a.view(partner).hand & got == got
    m = a.mask(partner)
    assert not m[a.space.give_done]
    offered = {c for c in range(32) if m[a.space.give0 + c]}
    assert offered == {c for c in range(32) if (a.view(partner).hand & ~got) >> c & 1}
    back = sorted(offered)[:2]
    a.step(a.space.give0 + back[0])
    assert not a.mask(partner)[a.space.give_done]
    a.step(a.space.give0 + back[1])
    m = a.mask(partner)
    assert m[a.space.give_done] and m.sum() == 1  # exactly as many: nothing more
    a.step(a.space.give_done)
    st = a.state
    assert st.hands[a.pos_of[first]] >> back[0] & 1 and st.hands[a.pos_of[partner]] & got == got
    assert st.legal_actions() and not isinstance(st.legal_actions()[0], Give)


# --- the slots -------------------------------------------------------------------------------


def test_the_slots_show_the_view() -> None:
    a = SkatAdapter(REV, games=4)
    rng = random.Random(9)
    seen: set[str] = set()
    for _ in range(50):
        a.reset(rng.getrandbits(32))
        while not a.over():
            st = a.state
            for seat in range(3):
                v = a.view(seat)
                o = a.observe(seat)
                rev = v.contract is not None and v.contract.revolution
                assert _slots(a, o, "revolution") == [float(rev)]
                partner = _slots(a, o, "partner_hand")
                assert partner == [float(v.partner_hand >> c & 1) for c in range(32)]
                pos = a.pos_of[seat]
                if rev and st.phase.name == "PLAY" and pos != st.declarer:
                    # the partner's cards as they are (the engine's, seen from the view)
                    assert v.partner_hand == st.hands[3 - pos - st.declarer]
                    seen.add("partner")
                else:
                    assert not any(partner)
                giving = _slots(a, o, "giving")
                mine = a.giving if a.to_move() == seat else 0
                assert giving == [float(mine >> c & 1) for c in range(32)]
                seen.update(["giving"] if mine else [])
                assert _slots(a, o, "gift") == [float(v.gift == 1), float(v.gift == 2)]
                assert _slots(a, o, "gift_pending") == [float(v.gift_pending == 1),
                                                        float(v.gift_pending == 2)]
                seen.update([f"gift {v.gift}"] if v.gift else [])
                seen.update([f"pending {v.gift_pending}"] if v.gift_pending else [])
            mover = a.to_move()
            assert mover is not None
            a.step(_choose(a, a.mask(mover), rng))
    assert {"partner", "giving", "gift 1", "pending 1", "pending 2"} <= seen, seen


# --- PettingZoo, Gymnasium, bots, the vector of games -----------------------------------------


@pytest.mark.parametrize(("rules", "games"), [(REV, 3), (BOTH_ALL, 2)])
def test_pettingzoo_api(rules: str, games: int) -> None:
    env = skat_v0(rules, games=games)
    assert env.action_space("player_0").n == space_of(SkatRules.parse(rules)).n_actions
    api_test(env, num_cycles=600)


def test_pettingzoo_seed() -> None:
    seed_test(lambda **kw: skat_v0(REV, games=2, **kw), num_cycles=400)


def test_gymnasium_check_env() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(SingleSeat("skat", seat=2, bots="random", on_illegal="terminate",
                             rules=REV, games=3), skip_render_check=True)


@pytest.mark.parametrize("level", ["random", "easy"])
def test_bots_give_and_schenk_through_the_steps(level: str) -> None:
    """The bots' gives go through the give steps (``play_bot``): a list against them
    pays the learner its list score."""
    env = SingleSeat("skat", seat=0, bots=level, rules=REV, games=8)
    rng = random.Random(2)
    obs, _ = env.reset(seed=2)
    total, done = 0.0, env.game.over()
    while not done:
        obs, r, done, _, _ = env.step(_choose(env.game, obs["action_mask"], rng))  # type: ignore[arg-type]
        total += r
    assert total == env.game.scores[0]  # type: ignore[attr-defined]


def test_vector_games() -> None:
    v = VectorGames("skat", 4, seed=5, rules=REV, games=3)
    rng = random.Random(1)
    for _ in range(600):
        obs, masks, seats = v.observe()
        for i, (g, seat) in enumerate(zip(v.games, seats, strict=True)):
            assert np.array_equal(obs[i], g.observe(seat))
            assert np.array_equal(masks[i], g.mask(seat))
        v.step(np.array([_choose(g, masks[i], rng)  # type: ignore[arg-type]
                         for i, g in enumerate(v.games)]))


# --- hidden cards ----------------------------------------------------------------------------


def test_no_leak_of_hidden_cards() -> None:
    """Two deals that differ only in cards hidden from a seat give it the same
    observation and mask while the same actions are legal in both: the declarer of a
    Revolution never sees the defenders' cards nor what they give each other; a defender
    sees his partner's, so the comparison stops there (the cards are known)."""
    rng = random.Random(4)
    compared = {"declarer exchange": 0, "declarer play": 0, "other": 0}
    for trial in range(240):
        seat = trial % 3
        one, two = SkatAdapter(REV), SkatAdapter(REV)
        one.reset(trial)
        two.reset(trial)
        pos = one.pos_of[seat]
        hands, skat = one.state.deal
        others = [p for p in range(3) if p != pos]
        a, b = (others[0], others[1]) if trial % 2 else (rng.choice(others), 3)
        hands2, skat2 = _swapped(hands, skat, a, b, rng)
        moved = (hands[a] ^ hands2[a]) | (skat ^ skat2)
        two.set_deal(hands2, skat2)
        while not one.over():
            known = one.view(seat).known_cards() | two.view(seat).known_cards()
            if known & moved or one.state.is_over:
                break
            assert np.array_equal(one.observe(seat), two.observe(seat)), (trial, seat)
            assert np.array_equal(one.mask(seat), two.mask(seat))
            st = one.state
            con = st.contract
            if con is not None and con.revolution and st.declarer == pos:
                compared["declarer exchange" if st.game_info.exchange  # type: ignore[union-attr]
                         else "declarer play"] += 1
            else:
                compared["other"] += 1
            mover = one.to_move()
            assert mover is not None
            both = one.mask(mover) & two.mask(mover)
            if not both.any():
                break
            action = _choose(one, both, rng)
            one.step(action)
            two.step(action)
    assert all(n >= 20 for n in compared.values()), compared
