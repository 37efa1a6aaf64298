"""The Skat environment under house rules (stich.env.skat, stich.env.skat_space): the
presets' spaces pinned, the house actions against the engine's legal actions, the house
slots against the views and the list, PettingZoo's own tests, hidden cards, the
Gymnasium wrapper and the vector of games (Revolution and Schenken:
test_skat_revolution_env.py)."""

from __future__ import annotations

import hashlib
import random
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from stich.env.gym import SingleSeat
from stich.env.skat import (
    ACTIONS,
    DISCARD0,
    N_ACTIONS,
    OBS_LAYOUT,
    OBS_SIZE,
    PLAY0,
    SkatAdapter,
    skat_v0,
)
from stich.env.skat_space import SPITZE_DECLARATIONS, space_of
from stich.env.vector import VectorGames
from stich.skat import SkatRules
from stich.skat.actions import Declare, Discard, Simple, parse_action
from stich.skat.rules import PRESETS, GameType, bidding_ladder

from .test_skat_env import _swapped

PASS = ACTIONS.index("pass")  # the same id in every space

ALL = ("skat(preset=lothar,kontra_re=yes,spitze=yes,jungfrau=yes,schieberamsch=yes,"
       "klopfen=yes,bock=lost_60+grand_hand+kontra_won+kontra_re+value72,bock_ramsch=yes)")
HOUSE = [
    ALL,
    # jumps and announcements: Spitze adds ladder values; only a bidder may say Kontra
    "skat(preset=isko,kontra_re=bid18,spitze=double,all_pass=ramsch,schieberamsch=yes)",
    # Ramsch rules without Schieberamsch; Bock stacked, rounds of 2
    "skat(preset=lothar,klopfen=yes,durchmarsch=no,ramsch_skat=loser,bock=value72+lost_60,"
    "bock_games=2,bock_overlap=stack)",
]


def _slots(a: SkatAdapter, obs: np.ndarray, name: str) -> list[float]:
    off = a.space.offset[name]
    width = dict(a.space.obs_layout)[name]
    return [float(x) for x in obs[off:off + width]]


# --- the spaces ------------------------------------------------------------------------------


def test_the_presets_spaces_are_pinned() -> None:
    """Trained policies depend on these: sizes, the place of each block, and the texts
    and slots themselves (their digest)."""
    assert (N_ACTIONS, OBS_SIZE, DISCARD0, PLAY0) == (165, 400, 67, 133)
    assert ACTIONS[:2] == ["18", "20"] and ACTIONS[63:67] == ["hold", "pass", "hand", "pickup"]
    assert hashlib.sha256("|".join(ACTIONS).encode()).hexdigest()[:16] == "dde4ef6620db0273"
    layout = "|".join(f"{n}:{w}" for n, w in OBS_LAYOUT)
    assert hashlib.sha256(layout.encode()).hexdigest()[:16] == "f00fb4362f9fe637"
    # rule sets whose house rules add no decision and nothing to see keep the space
    for text in (*PRESETS, "skat(preset=lothar,jungfrau=yes,durchmarsch=no,ramsch_skat=loser)",
                 "skat(preset=isko,all_pass=ramsch)"):
        s = space_of(SkatRules.parse(text))
        assert s.actions == tuple(ACTIONS) and s.obs_layout == OBS_LAYOUT, text
        assert (s.n_actions, s.obs_size, s.house) == (165, 400, False)
        a = SkatAdapter(text)
        assert (a.n_actions, a.obs_size) == (165, 400)
        assert a.observe(a.to_move() or 0).shape == (400,)


def test_house_rules_append_after_the_presets_space() -> None:
    s = space_of(SkatRules.parse(ALL))
    assert s.actions[:N_ACTIONS] == tuple(ACTIONS)
    assert s.obs_layout[:len(OBS_LAYOUT)] == OBS_LAYOUT
    assert s.actions[N_ACTIONS:N_ACTIONS + 2] == ("kontra", "re")
    assert s.actions[-2:] == ("schieben", "klopfen")
    assert len(SPITZE_DECLARATIONS) == 30  # every suit and Grand declaration of the presets
    assert (s.n_actions, s.obs_size) == (165 + 2 + 30 + 2, 400 + 11)
    assert [n for n, _ in s.house_layout] == [
        "kontra", "re", "spitze", "pushes", "knocks", "bock", "bock_games_left",
        "ramsch_round", "ramsch_games_left"]
    assert len(set(s.actions)) == s.n_actions
    for i, text in enumerate(s.actions):  # every text is the engine's own text
        if not DISCARD0 <= i < DISCARD0 + 32:
            assert str(parse_action(text)) == text
            assert s.index[parse_action(text)] == i
    # Spitze under announcements raises the ladder: the new values come first
    isko = space_of(SkatRules.parse(HOUSE[1]))
    extra = [int(t) for t in isko.actions[N_ACTIONS:] if t.isdigit()]
    ladder = bidding_ladder(SkatRules.parse(HOUSE[1]))
    assert extra and extra == sorted(set(ladder) - {int(t) for t in ACTIONS if t.isdigit()})
    assert max(extra) == max(ladder) == 24 * 13  # Grand, 4 matadors, 6 levels, Spitze 2
    # the order of the blocks does not depend on which other blocks are there
    klopfen = space_of(SkatRules.parse("skat(preset=lothar,klopfen=yes)"))
    assert klopfen.actions[N_ACTIONS:] == ("klopfen",)
    assert klopfen.house_layout == (("knocks", 1),)


def _expected_mask(a: SkatAdapter, legal: tuple[object, ...]) -> np.ndarray:
    expected = np.zeros(a.n_actions, dtype=np.int8)
    if isinstance(legal[0], Discard):
        pairs = [d.cards for d in legal if isinstance(d, Discard)]
        if a.pending < 0:
            ok = {c for p in pairs for c in range(32) if p >> c & 1}
        else:
            ok = {c for p in pairs if p >> a.pending & 1 for c in range(32)
                  if (p & ~(1 << a.pending)) >> c & 1}
        for c in ok:
            expected[DISCARD0 + c] = 1
        return expected
    for act in legal:
        i = a.space.actions.index(str(act))  # the action is in the space …
        assert a.space.action_obj[i] == act  # … and back
        expected[i] = 1
    return expected


def _kind(act: object, st: object) -> str:
    if isinstance(act, Discard):
        return "ramsch discard" if st.game is GameType.RAMSCH else "discard"  # type: ignore[attr-defined]
    if isinstance(act, Declare):
        if act.spitze:
            return "spitze"
        return "ramsch round grand" if st.ramsch_round else "declare"  # type: ignore[attr-defined]
    if isinstance(act, Simple):
        return str(act)
    if str(act).isdigit():
        return "new bid" if int(str(act)) not in {int(t) for t in ACTIONS if t.isdigit()} \
            else "bid"
    return "card"


@pytest.mark.parametrize("rules", HOUSE)
def test_every_legal_house_action_has_an_index_and_the_mask_is_the_legal_set(
        rules: str) -> None:
    a = SkatAdapter(rules, games=8)
    rng = random.Random(rules)
    kinds: set[str] = set()
    steps = 0
    while steps < 12000:
        a.reset(rng.getrandbits(32))
        while not a.over():
            seat = a.to_move()
            assert seat is not None
            legal = a.view(seat).legal_actions
            assert legal == tuple(a.state.legal_actions())
            assert a.mask_bytes(seat) == a.mask(seat).tobytes()
            mask = a.mask(seat)
            assert np.array_equal(mask, _expected_mask(a, legal))
            if a.pending < 0:
                kinds.update(_kind(act, a.state) for act in legal)
            for other in range(3):
                if other != seat:
                    assert not a.mask(other).any()
            # pass often where it is legal, so that Ramsch comes up under bidding jumps too
            if mask[PASS] and rng.random() < 0.4:
                a.step(PASS)
            else:
                a.step(int(rng.choice(np.flatnonzero(mask))))
            steps += 1
    wanted = {"bid", "card", "discard", "declare", "pass"}
    r = SkatRules.parse(rules)
    if r.kontra_re != "no":
        wanted |= {"kontra", "re"}
    if r.spitze != "no":
        wanted.add("spitze")
    if r.schieberamsch:
        wanted |= {"schieben", "ramsch discard"}
    if r.klopfen:
        wanted.add("klopfen")
    if r.bock_ramsch:
        wanted.add("ramsch round grand")
    if r.spitze != "no" and r.announcements:
        wanted.add("new bid")
    assert wanted <= kinds, wanted - kinds


def test_the_schieberamsch_discard_never_offers_an_unter() -> None:
    a = SkatAdapter("skat(preset=lothar,schieberamsch=yes)")
    rng = random.Random(2)
    for seed in range(300):
        a.reset(seed)
        while a.state.phase.name == "BIDDING":
            a.step(a.space.actions.index("pass"))
        while not a.over() and a.state.phase.name != "DISCARD":
            seat = a.to_move()
            assert seat is not None
            a.step(int(rng.choice(np.flatnonzero(a.mask(seat)))))
        if a.state.phase.name == "DISCARD":
            break
    seat = a.to_move()
    assert seat is not None and a.state.game is GameType.RAMSCH
    unter = {c for c in range(32) if str(ACTIONS[PLAY0 + c]).endswith("J")}
    hand = a.view(seat).hand
    offered = {i - DISCARD0 for i in np.flatnonzero(a.mask(seat))}
    assert offered == {c for c in range(32) if hand >> c & 1} - unter
    first = min(offered)
    a.step(DISCARD0 + first)
    assert first not in {i - DISCARD0 for i in np.flatnonzero(a.mask(seat))}


# --- the house slots -------------------------------------------------------------------------


@pytest.mark.parametrize("rules", [ALL, HOUSE[2]])
def test_the_house_slots_show_the_view_and_the_list(rules: str) -> None:
    """At every step, each seat's house slots say what its view and the list say, with
    seats relative to it; the rewards are the game's scores times the Bock factor the
    observation showed, and add up to the list."""
    a = SkatAdapter(rules, games=12)
    rng = random.Random(7)
    seen: set[str] = set()
    r = SkatRules.parse(rules)
    for _ in range(12):
        a.reset(rng.getrandbits(32))
        total = [0.0, 0.0, 0.0]
        while not a.over():
            for seat in range(3):
                v = a.view(seat)
                o = a.observe(seat)
                names = dict(a.space.house_layout)
                if "kontra" in names:
                    who = _slots(a, o, "kontra")
                    assert who == [1.0 if v.kontra >= 0 and (v.kontra - v.seat) % 3 == i
                                   else 0.0 for i in range(3)]
                    assert _slots(a, o, "re") == [float(v.re)]
                    if v.kontra >= 0:
                        seen.add("kontra")
                if "spitze" in names:
                    spitze = v.contract is not None and v.contract.spitze
                    assert _slots(a, o, "spitze") == [float(spitze)]
                    if spitze:
                        seen.add("spitze")
                if "pushes" in names:
                    assert _slots(a, o, "pushes") == pytest.approx([v.pushes / 3])
                    if v.pushes:
                        seen.add("pushes")
                if "knocks" in names:
                    assert _slots(a, o, "knocks") == pytest.approx([v.knocks / 3])
                    if v.knocks:
                        seen.add("knocks")
                if "bock" in names:
                    assert 2 ** _slots(a, o, "bock")[0] == a.table.next_bock()
                    assert _slots(a, o, "bock_games_left") == pytest.approx(
                        [a.table.bock_games_left() / 10])
                if "ramsch_round" in names:
                    assert _slots(a, o, "ramsch_round") == [float(a.state.ramsch_round)]
                    assert _slots(a, o, "ramsch_games_left") == pytest.approx(
                        [a.table.ramsch_left / 3])
                    if a.state.ramsch_round:
                        seen.add("ramsch round")
            mover = a.to_move()
            assert mover is not None
            bock_shown = 2 ** int(_slots(a, a.observe(mover), "bock")[0])
            before = a.state
            seat_of = a.seat_of
            action = int(rng.choice(np.flatnonzero(a.mask(mover))))
            rewards = a.step(action)
            total = [t + x for t, x in zip(total, rewards, strict=True)]
            if DISCARD0 <= action < DISCARD0 + 32 or before.is_over:
                continue
            after = before.apply(parse_action(a.space.actions[action]))
            if after.is_over:
                expected = [0.0, 0.0, 0.0]
                for p in range(3):
                    expected[seat_of[p]] = after.outcome().scores[p] * bock_shown
                assert rewards == expected
                if bock_shown > 1:
                    seen.add("bock")
            else:
                assert rewards == [0.0, 0.0, 0.0]
        assert total == a.scores == [float(x) for x in a.table.punktestand()]
    wanted = {"bock"} | ({"kontra", "spitze", "pushes", "knocks", "ramsch round"}
                         if r.kontra_re != "no" else {"knocks"})
    assert wanted <= seen, wanted - seen


# --- PettingZoo's tests ----------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "games"), [(HOUSE[0], 4), (HOUSE[1], 1), (HOUSE[2], 3)])
def test_pettingzoo_api_under_house_rules(rules: str, games: int) -> None:
    env = skat_v0(rules, games=games)
    assert env.action_space("player_0").n == space_of(SkatRules.parse(rules)).n_actions
    api_test(env, num_cycles=400)


def test_pettingzoo_seed_under_house_rules() -> None:
    seed_test(lambda **kw: skat_v0(ALL, games=3, **kw), num_cycles=400)


# --- hidden cards ----------------------------------------------------------------------------


@pytest.mark.parametrize("rules", HOUSE[:2])
def test_no_leak_of_hidden_cards_under_house_rules(rules: str) -> None:
    """As the presets' test: two deals that differ only in cards hidden from a seat give
    it the same observation and mask while the same actions stay legal in both (Ramsch
    comes up often here: passing is drawn more often than bidding)."""
    rng = random.Random(rules)
    compared = 0
    ramsch = 0
    for trial in range(200):
        seat = trial % 3
        one, two = SkatAdapter(rules), SkatAdapter(rules)
        one.reset(trial)
        two.reset(trial)
        pos = one.pos_of[seat]
        hands, skat = one.state.deal
        others = [p for p in range(3) if p != pos]
        a, b = (others[0], others[1]) if trial % 2 else (rng.choice(others), 3)
        hands2, skat2 = _swapped(hands, skat, a, b, rng)
        moved = (hands[a] ^ hands2[a]) if a < 3 else 0
        two.set_deal(hands2, skat2)
        while not one.over():
            known = one.view(seat).known_cards() | two.view(seat).known_cards()
            if known & moved or one.state.is_over:
                break
            assert np.array_equal(one.observe(seat), two.observe(seat)), (trial, seat)
            assert np.array_equal(one.mask(seat), two.mask(seat))
            compared += 1
            ramsch += one.state.game is GameType.RAMSCH
            mover = one.to_move()
            assert mover is not None
            mask = one.mask(mover)
            action = PASS if mask[PASS] and rng.random() < 0.7 else \
                int(rng.choice(np.flatnonzero(mask)))
            if not two.mask(mover)[action]:
                break
            one.step(action)
            two.step(action)
    assert compared > 2000 and ramsch > 300


# --- Gymnasium and the vector of games -------------------------------------------------------


def test_gymnasium_check_env_under_house_rules() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(SingleSeat("skat", seat=1, bots="random", on_illegal="terminate",
                             rules=ALL, games=3), skip_render_check=True)


@pytest.mark.parametrize("level", ["random", "easy"])
def test_a_house_rules_list_against_bots_pays_the_learner_its_list_score(level: str) -> None:
    env = SingleSeat("skat", seat=0, bots=level, rules=ALL, games=6)
    assert env.action_space.n == space_of(SkatRules.parse(ALL)).n_actions
    assert env.observation_space["observation"].shape == (411,)
    rng = random.Random(4)
    obs, _ = env.reset(seed=4)
    total, done = 0.0, env.game.over()
    while not done:
        obs, r, done, _, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        total += r
    assert total == env.game.scores[0]  # type: ignore[attr-defined]


def test_vector_games_under_house_rules() -> None:
    v = VectorGames("skat", 6, seed=3, rules=ALL, games=4)
    first = v.games[0]
    assert (v.n_actions, v.obs_size) == (first.n_actions, first.obs_size) == (199, 411)
    for _ in range(400):
        obs, masks, seats = v.observe()
        for i, (g, seat) in enumerate(zip(v.games, seats, strict=True)):
            assert np.array_equal(obs[i], g.observe(seat))
            assert np.array_equal(masks[i], g.mask(seat))
        v.step(v.random_actions())
