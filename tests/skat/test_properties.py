"""Property tests over random games under both presets.

Each example deals from a random seed and plays random legal actions to the end; the
properties are checked at every step (cards, knowledge, legality, immutability) and at the
end (points, the settlement recomputed from the rules, replay).
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stich.cards import CARDS, card_points
from stich.skat import (
    HAND,
    HOLD,
    PASS,
    PICKUP,
    Bid,
    Declare,
    Discard,
    GameType,
    IllegalActionError,
    Phase,
    SkatState,
)
from stich.skat.state import STATE_FIELDS

from .helpers import ALL_CARDS, ISKO, LOTHAR

PRESETS = {"isko": ISKO, "lothar": LOTHAR}
SETTINGS = settings(max_examples=200, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

# (preset, deal seed, random choices): the choices come from a Random seeded by an
# integer, which spreads them evenly (hypothesis' own randoms favour the first option)
games = st.tuples(
    st.sampled_from(sorted(PRESETS)),
    st.integers(min_value=0, max_value=2**63 - 1),
    st.integers(min_value=0, max_value=2**32 - 1).map(random.Random),
)

ISKO_LADDER_AND_MORE = (
    17, 18, 19, 20, 21, 22, 23, 24, 25, 27, 30, 36, 48, 59, 60, 100, 120, 153, 216, 240,
    264, 300,
)
DECLARE_UNIVERSE = tuple(
    Declare(game, hand, schneider, schwarz, ouvert)
    for game in GameType
    for hand in (False, True)
    for schneider in (False, True)
    for schwarz in (False, True)
    for ouvert in (False, True)
)
TRUMP_ORDER_TOP = ("CJ", "SJ", "HJ", "DJ")
SIDE_RANKS = ("A", "T", "K", "Q", "9", "8", "7")


def walk(rules, seed: int, rnd: random.Random,
         on_step: Callable[[SkatState], None] | None = None) -> tuple[SkatState, list]:
    """Play a random game; call ``on_step`` on every state before the end."""
    s = SkatState.new(rules, seed=seed)
    applied = []
    pass_p = rnd.random()  # how readily the players pass, drawn per game
    while not s.is_over:
        if on_step is not None:
            on_step(s)
        action = choose(s, rnd, pass_p)
        s = s.apply(action)
        applied.append(action)
    return s, applied


def choose(s: SkatState, rnd: random.Random, pass_p: float):
    """A random legal action; in the auction mostly low values, sometimes any value, and
    passes as often as ``pass_p`` says (so that redeals, Ramsch and Null overbids occur)."""
    legal = s.legal_actions()
    if s.phase is not Phase.BIDDING:
        return rnd.choice(legal)
    if PASS in legal and rnd.random() < pass_p:
        return PASS
    others = [a for a in legal if a is not PASS]
    if not others:
        return PASS
    if rnd.random() < 0.2:
        return rnd.choice(others)
    return others[rnd.randrange(min(3, len(others)))]


def played_cards(s: SkatState) -> int:
    m = 0
    for _, cards, _ in s.tricks:
        for c in cards:
            m |= 1 << c
    for c in s.trick:
        m |= 1 << c
    return m


# --- 32 cards -------------------------------------------------------------------------


def check_cards(s: SkatState) -> None:
    h0, h1, h2 = s.hands
    played = played_cards(s)
    parts = [h0, h1, h2, played]
    for i, a in enumerate(parts):
        for b in parts[i + 1:]:
            assert a & b == 0
    if s.phase is Phase.DISCARD:
        # the Skat is picked up: it lies in the declarer's twelve cards
        assert s.skat & ~s.hands[s.declarer] == 0
        assert s.hands[s.declarer].bit_count() == 12
        assert h0 | h1 | h2 | played == ALL_CARDS
        assert sum(p.bit_count() for p in parts) == 32
    else:
        assert s.skat.bit_count() == 2
        assert s.skat & (h0 | h1 | h2 | played) == 0
        assert h0 | h1 | h2 | played | s.skat == ALL_CARDS
        assert sum(p.bit_count() for p in parts) + 2 == 32
    # while cards are played, hand sizes differ by the cards already in the trick
    if s.phase is Phase.PLAY:
        n = 10 - len(s.tricks)
        for seat in range(3):
            in_trick = any((s.leader + i) % 3 == seat for i in range(len(s.trick)))
            assert s.hands[seat].bit_count() == n - in_trick


@SETTINGS
@given(games)
def test_32_cards_are_conserved_at_every_step(game) -> None:
    preset, seed, rnd = game
    s, _ = walk(PRESETS[preset], seed, rnd, check_cards)
    check_cards(s)


# --- points ---------------------------------------------------------------------------


def trick_points_by_seat(s: SkatState) -> list[int]:
    pts = [0, 0, 0]
    for _, cards, winner in s.tricks:
        pts[winner] += card_points(sum(1 << c for c in cards))
    return pts


@SETTINGS
@given(games)
def test_card_points_total_120_in_fully_played_games(game) -> None:
    preset, seed, rnd = game
    s, _ = walk(PRESETS[preset], seed, rnd)
    o = s.outcome()
    if o.kind == "passed":
        assert PRESETS[preset].all_pass == "redeal"
        return
    pts = trick_points_by_seat(s)
    if s.end_reason == "played":
        assert len(s.tricks) == 10
        assert sum(pts) + card_points(s.skat) == 120
    if o.kind == "ramsch":
        assert sum(o.points) == 120
    elif o.game is not GameType.NULL:
        assert s.end_reason == "played"
        assert o.declarer_points + o.defender_points == 120
        assert o.declarer_points == pts[o.declarer] + card_points(s.skat)


# --- legality -------------------------------------------------------------------------


def candidates(s: SkatState, rnd: random.Random) -> list:
    """A few actions of every kind, legal or not, and two legal ones."""
    out = [CARDS[rnd.randrange(32)] for _ in range(3)]
    out += [Bid(rnd.choice(ISKO_LADDER_AND_MORE)) for _ in range(2)]
    out += [rnd.choice((PASS, HOLD, HAND, PICKUP))]
    a, b = rnd.sample(range(32), 2)
    out.append(Discard(1 << a | 1 << b))
    out += [rnd.choice(DECLARE_UNIVERSE) for _ in range(2)]
    legal = s.legal_actions()
    out += [rnd.choice(legal) for _ in range(2)]
    if s.phase is Phase.PLAY:
        # a card held but not allowed (not following), when there is one
        refused = s.hands[s.to_move] & ~s.legal_cards()
        if refused:
            out.append(CARDS[(refused & -refused).bit_length() - 1])
    if s.phase is Phase.DISCARD:
        held = [c.index for c in CARDS if s.hands[s.to_move] >> c.index & 1]
        a, b = rnd.sample(held, 2)
        out.append(Discard(1 << a | 1 << b))
    return out


@SETTINGS
@given(games, st.integers(min_value=0, max_value=2**32 - 1))
def test_only_legal_actions_are_accepted(game, probe_seed) -> None:
    preset, seed, rnd = game
    probe = random.Random(probe_seed)

    def check(s: SkatState) -> None:
        legal = s.legal_actions()
        assert len(legal) == len(set(map(str, legal))) > 0
        if s.phase is Phase.PLAY:
            assert sum(c.bit for c in legal) == s.legal_cards()
            assert s.legal_cards() & ~s.hands[s.to_move] == 0
        for action in candidates(s, probe):
            if action in legal:
                nxt = s.apply(action)
                assert nxt.history[-1] == action
            else:
                try:
                    s.apply(action)
                except IllegalActionError as e:
                    assert str(e)  # a reason is given
                else:
                    raise AssertionError(f"{action} accepted in {s} but not legal: {legal}")

    s, _ = walk(PRESETS[preset], seed, rnd, check)
    assert list(s.legal_actions()) == []
    for action in (PASS, CARDS[0], Bid(18), DECLARE_UNIVERSE[0]):
        try:
            s.apply(action)
        except IllegalActionError:
            pass
        else:
            raise AssertionError("an action was accepted after the end")


def test_the_probe_universe_has_illegal_actions_of_every_kind() -> None:
    # guards the property above: bids off the ladder and impossible declarations exist
    assert 19 in ISKO_LADDER_AND_MORE and 300 in ISKO_LADDER_AND_MORE
    assert Declare(GameType.RAMSCH) in DECLARE_UNIVERSE
    assert Declare(GameType.GRAND, ouvert=True) in DECLARE_UNIVERSE


# --- knowledge ------------------------------------------------------------------------


def allowed_knowledge(s: SkatState, seat: int) -> int:
    if s.is_over:
        return ALL_CARDS
    allowed = s.hands[seat] | played_cards(s)
    if seat == s.declarer and PICKUP in s.history:
        allowed |= s.deal[1] | s.skat  # the Skat picked up, and the two put away
    c = s.contract
    if c is not None and c.ouvert and s.phase is Phase.PLAY:
        allowed |= s.hands[s.declarer]
    return allowed


def check_views(s: SkatState) -> None:
    for seat in range(3):
        v = s.view(seat)
        known = v.known_cards()
        must = s.hands[seat] | played_cards(s)
        allowed = allowed_knowledge(s, seat)
        assert known & ~allowed == 0, f"seat {seat} knows too much in {s}"
        assert known & must == must
        assert v.hand == s.hands[seat]
        assert v.deal is None or s.is_over
        if seat == s.to_move:
            assert tuple(v.legal_actions) == tuple(s.legal_actions())
        else:
            assert v.legal_actions == ()
        c = s.contract
        if c is not None and c.ouvert and s.phase is Phase.PLAY:
            assert v.ouvert_hand == s.hands[s.declarer]
        if seat != s.declarer and not s.is_over:
            assert known & s.skat == 0  # the Skat (or what was put away) stays hidden
        # a seat that failed to follow is shown void there: it really holds none of those
        for other, void in enumerate(v.voids()):
            assert void & s.hands[other] == 0


@SETTINGS
@given(games)
def test_views_reveal_only_what_a_seat_may_know(game) -> None:
    preset, seed, rnd = game
    s, _ = walk(PRESETS[preset], seed, rnd, check_views)
    for seat in range(3):
        assert s.view(seat).known_cards() == ALL_CARDS  # everything once over


# --- the settlement, recomputed from the rules ----------------------------------------


def expected_matadors(owned: int, game: GameType) -> int:
    codes = list(TRUMP_ORDER_TOP)
    if game.trump_suit is not None:
        codes += [game.trump_suit.code + r for r in SIDE_RANKS]
    held = [owned >> next(c.index for c in CARDS if c.code == code) & 1 for code in codes]
    run = 0
    while run < len(held) and held[run] == held[0]:
        run += 1
    return run if held[0] else -run


def check_settlement(s: SkatState) -> None:
    o = s.outcome()
    rules = s.rules
    assert sum(1 for x in o.scores if x != 0) <= 1  # classic list: one seat scores
    if o.kind == "passed":
        assert rules.all_pass == "redeal" and o.scores == (0, 0, 0)
        assert s.tricks == [] and s.end_reason == "passed"
        return
    pts = trick_points_by_seat(s)
    tricks = [sum(1 for t in s.tricks if t[2] == seat) for seat in range(3)]
    if o.kind == "ramsch":
        assert rules.all_pass == "ramsch" and s.declarer == -1
        pts[s.tricks[-1][2]] += card_points(s.skat)
        assert o.points == tuple(pts) and o.tricks == tuple(tricks)
        if 10 in tricks:
            assert o.durchmarsch and o.loser is None
            assert o.scores == tuple(120 if t == 10 else 0 for t in tricks)
        else:
            loser = max(range(3), key=lambda seat: (pts[seat], -seat))
            assert o.loser == loser and not o.durchmarsch
            assert o.scores == tuple(-pts[seat] if seat == loser else 0 for seat in range(3))
        return
    d = o.declarer
    c = s.contract
    bid = s.bid_value
    assert o.bid == bid and o.game is c.game and o.hand == c.hand and o.ouvert == c.ouvert
    assert c.hand == (PICKUP not in s.history)
    dt = tricks[d]
    ft = sum(tricks) - dt
    assert (o.declarer_tricks, o.defender_tricks) == (dt, ft)
    if c.game is GameType.NULL:
        level = {(False, False): 23, (True, False): 35, (False, True): 46, (True, True): 59}
        value = level[(c.hand, c.ouvert)]
        if s.end_reason == "null_overbid":
            assert rules.null_overbid == "next_level" and value < bid <= 59
            assert s.tricks == []
            settle_at = min(v for v in (23, 35, 46, 59) if v >= bid)
            assert (o.value, o.won, o.overbid) == (settle_at, False, True)
            assert o.scores[d] == -2 * settle_at
            return
        assert value >= bid
        if s.end_reason == "null_lost":
            assert dt == 1 and s.tricks[-1][2] == d
        else:
            assert s.end_reason == "played" and dt == 0 and len(s.tricks) == 10
        assert (o.value, o.won) == (value, dt == 0)
        assert o.scores[d] == (value if dt == 0 else -2 * value)
        return
    owned = s.deal[0][d] | s.deal[1]
    mats = expected_matadors(owned, c.game)
    assert o.matadors == mats
    dp = pts[d] + card_points(s.skat)
    assert (o.declarer_points, o.defender_points) == (dp, 120 - dp)
    made = dp >= 61
    loser_points, loser_tricks = (120 - dp, ft) if made else (dp, dt)
    schneider, schwarz = loser_points <= 30, loser_tricks == 0
    ann_schwarz = c.schwarz or (c.ouvert and rules.announcements)
    ann_schneider = c.schneider or ann_schwarz
    if not rules.announcements:
        assert not c.schneider and not c.schwarz
    mult = abs(mats) + 1 + c.hand + c.ouvert
    mult += (schneider or ann_schneider) + ann_schneider
    mult += (schwarz or ann_schwarz) + ann_schwarz
    won = made and not (ann_schneider and 120 - dp > 30) and not (ann_schwarz and ft > 0)
    base = c.game.base_value
    value = base * mult
    overbid = value < bid
    if overbid:
        won = False
        value = next(base * k for k in range(1, 100) if base * k >= bid)
    assert (o.schneider, o.schwarz) == (schneider, schwarz)
    assert (o.multiplier, o.value, o.won, o.overbid) == (mult, value, won, overbid)
    assert o.scores[d] == (value if won else -2 * value)


@SETTINGS
@given(games)
def test_settlement_follows_the_rules(game) -> None:
    preset, seed, rnd = game
    s, _ = walk(PRESETS[preset], seed, rnd)
    check_settlement(s)


# --- replay and immutability ----------------------------------------------------------


@SETTINGS
@given(games)
def test_replaying_the_history_gives_the_same_game(game) -> None:
    preset, seed, rnd = game
    rules = PRESETS[preset]
    s, applied = walk(rules, seed, rnd)
    assert s.history == applied
    # from the seed, with the same action objects
    r = SkatState.new(rules, seed=seed)
    for a in applied:
        r = r.apply(a)
    # from the stored deal, through the text form of every action
    t = SkatState.new(rules, hands=s.deal[0], skat=s.deal[1])
    for a in applied:
        t = t.apply(t.parse_action(str(a)))
    for other in (r, t):
        assert other.is_over and other.history == applied
        assert other.outcome() == s.outcome()
        assert other.outcome().to_dict() == s.outcome().to_dict()
        assert other.tricks == s.tricks and other.points == s.points
    assert list(s.replay_states())[-1].outcome() == s.outcome()


@SETTINGS
@given(games)
def test_views_pickle_to_equal_views(game) -> None:
    """Views travel to bot worker processes: pickled and unpickled they are equal (the
    compiled view pickles by its fields, which must all be there)."""
    preset, seed, rnd = game

    def check(s: SkatState) -> None:
        for seat in range(3):
            v = s.view(seat)
            assert pickle.loads(pickle.dumps(v)) == v

    s, _ = walk(PRESETS[preset], seed, rnd, check)
    check(s)


@SETTINGS
@given(games)
def test_the_auction_kept_is_what_was_said(game) -> None:
    """``bidding_history`` (kept as the auction goes) is every auction action with the
    seat that took it, as the states before each action show, at every step."""
    preset, seed, rnd = game
    said: list[tuple[int, object]] = []

    def check(s: SkatState) -> None:
        assert s.bidding_history() == said
        if s.phase is Phase.BIDDING:
            said.append((s.to_move, None))  # the action is filled in after the step

    s = SkatState.new(PRESETS[preset], seed=seed)
    pass_p = rnd.random()
    while not s.is_over:
        check(s)
        action = choose(s, rnd, pass_p)
        if said and said[-1][1] is None:
            said[-1] = (said[-1][0], action)
        s = s.apply(action)
    assert s.bidding_history() == said
    assert said and all(a is not None for _, a in said)


def snapshot(s: SkatState) -> dict:
    return {name: getattr(s, name) for name in STATE_FIELDS}


@settings(max_examples=60, deadline=None)
@given(games)
def test_apply_never_mutates(game) -> None:
    preset, seed, rnd = game
    s = SkatState.new(PRESETS[preset], seed=seed)
    pass_p = rnd.random()
    while not s.is_over:
        before = snapshot(s)
        views = [s.view(seat) for seat in range(3)]
        nxt = s.apply(choose(s, rnd, pass_p))
        assert snapshot(s) == before
        assert [s.view(seat) for seat in range(3)] == views
        s = nxt
