"""The bots: only legal actions, the heuristic bot clearly beats the random one, and a few
rules of thumb it must follow."""

from __future__ import annotations

import random

import pytest

from stich.bots import BOTS, Bot, RandomBot, SkatHeuristicBot, make_bot
from stich.bots.skat_eval import best_bid, null_badness, strength
from stich.cards import Card, parse_cards
from stich.core import ArgumentError
from stich.skat import Declare, GameType, SkatRules, SkatState, SkatView


def play(bots: list[Bot], seed: int, rules: SkatRules) -> SkatState:
    """One game; every action is checked against the legal actions of view and state."""
    state = SkatState.new(rules, seed=seed)
    rng = random.Random(seed * 7 + 1)
    while not state.is_over:
        seat = state.to_move
        view = state.view(seat)
        assert isinstance(view, SkatView)
        action = bots[seat].choose(view, rng)
        # a legal action, or a claim of the rest the view offers (checked by the engine)
        assert action in view.legal_actions or action in view.claims, (seed, str(action))
        assert action in state.legal_actions() or action in state.claims()
        state = state.apply(action)
    return state


@pytest.mark.parametrize("preset", ["lothar", "isko"])
# whole games at full strength; the search bot (0.3 s a decision) is checked on 10,000
# positions in its fast configuration in test_every_bot.py
@pytest.mark.parametrize("name", sorted(n for n in BOTS if n != "strong"))
def test_bots_play_only_legal_actions(preset: str, name: str) -> None:
    rules = SkatRules.preset(preset)
    bot = make_bot(name)
    for seed in range(60):
        state = play([bot, bot, bot], seed, rules)
        assert state.outcome().kind in ("game", "ramsch", "passed")


def test_mixed_tables_play_only_legal_actions() -> None:
    h, r = SkatHeuristicBot(), RandomBot()
    for seed in range(60):
        play([h, r, h] if seed % 2 else [r, h, r], seed, SkatRules())


def test_registry() -> None:
    assert isinstance(make_bot("random"), RandomBot)
    assert isinstance(make_bot("heuristic"), SkatHeuristicBot)
    assert isinstance(make_bot("heuristic"), Bot)
    with pytest.raises(ArgumentError, match="unknown bot") as e:
        make_bot("clever")
    assert e.value.code == "bots.unknown" and e.value.params["name"] == "clever"
    assert str(e.value) == ("unknown bot 'clever': use one of easy, heuristic, learned, random, "
                            "strong")
    assert e.value.text("de") == ("Unbekannter Bot „clever“: möglich sind "
                                  "easy, heuristic, learned, random, strong")


def test_heuristic_beats_random_clearly() -> None:
    """200 seeded games, the heuristic bot in each seat in turn against two random bots:
    its Punktestand is far above theirs, and it wins most games it declares."""
    rules = SkatRules()
    heuristic, rand = SkatHeuristicBot(), RandomBot()
    h_total = r_total = 0
    declared = won = 0
    for seed in range(200):
        seat = seed % 3
        bots: list[Bot] = [rand, rand, rand]
        bots[seat] = heuristic
        o = play(bots, seed, rules).outcome()
        h_total += o.scores[seat]
        r_total += sum(o.scores) - o.scores[seat]
        if o.kind == "game" and o.declarer == seat:
            declared += 1
            won += o.won
    assert h_total > 0
    assert h_total - r_total / 2 > 2000  # per random player: far below the heuristic one
    assert declared >= 30
    assert won / declared > 0.8


def test_heuristic_is_deterministic_for_a_seed() -> None:
    bot = SkatHeuristicBot()
    a = play([bot, bot, bot], 5, SkatRules())
    b = play([bot, bot, bot], 5, SkatRules())
    assert [str(x) for x in a.history] == [str(x) for x in b.history]


# --- rules of thumb ------------------------------------------------------------------------


def deal(v: str, m: str, h: str, skat: str, rules: SkatRules | None = None) -> SkatState:
    return SkatState.new(rules or SkatRules(), hands=[parse_cards(v), parse_cards(m),
                                                      parse_cards(h)],
                         skat=parse_cards(skat))


def run(state: SkatState, *texts: str) -> SkatState:
    for t in texts:
        state = state.apply(state.parse_action(t))
    return state


def choose(state: SkatState) -> str:
    return str(SkatHeuristicBot().choose(state.view(state.to_move), random.Random(0)))


# Vorhand: a strong Grand hand.  Mittelhand and Hinterhand: weak hands.
V = "CJ SJ HJ CA CT CK C9 HA S8 D7"
M = "DJ C8 C7 HT HK HQ SA SK SQ D8"
H = "H9 H8 H7 ST S9 S7 DA DT DK DQ"
SK = "CQ D9"


def test_bids_by_hand_strength() -> None:
    rules = SkatRules()
    assert best_bid(parse_cards(V), rules) >= 48  # Grand mit 3 is worth 96
    assert best_bid(parse_cards(H), rules) == 0
    assert best_bid(parse_cards("C7 C8 C9 S7 S8 S9 H7 H8 DT D7"), rules) >= 23  # Null


def test_null_badness() -> None:
    assert null_badness(parse_cards("C7 C9 S7 S8 H7 H9 HJ D7 D8 D9")) == 0
    assert null_badness(parse_cards("CA")) == 1


def test_declarer_with_grand_hand_and_pulls_trumps() -> None:
    s = deal(V, M, H, SK)
    # Mittelhand and Hinterhand pass: Vorhand's right.
    s = run(s, "pass", "pass")
    assert choose(s) == "18"
    s = run(s, "18")
    assert choose(s) == "hand"
    s = run(s, "hand")
    decl = SkatHeuristicBot().choose(s.view(0), random.Random(0))
    assert isinstance(decl, Declare) and decl.game is GameType.GRAND and decl.hand
    s = s.apply(decl)
    assert choose(s) == "CJ"  # the top trump first


def test_defender_smears_onto_partners_trick() -> None:
    s = run(deal(V, M, H, SK), "pass", "pass", "18", "hand", "declare grand hand")
    # Vorhand (declarer) leads S8; Mittelhand takes it with the ace.
    s = run(s, "S8", "SA")
    # Hinterhand: the partner holds the trick and the declarer has played: schmieren.
    assert choose(s) == "ST"


def test_defender_follows_low_when_losing() -> None:
    s = run(deal(V, M, H, SK), "pass", "pass", "18", "hand", "declare grand hand")
    s = run(s, "CJ")  # Mittelhand must follow with the DJ; Hinterhand has no trump
    assert choose(s) == "DJ"
    s = run(s, "DJ")
    assert choose(s) in ("S7", "S9", "H7", "H8", "H9")  # no points onto the declarer's trick


def test_null_declarer_stays_low() -> None:
    # Mittelhand plays Null Hand with low cards; Vorhand leads the C8.
    v = "CA CK CQ CJ SA SK HA HK DA DK"
    m = "C7 C9 S7 S8 H7 H9 HJ D7 D8 D9"
    h = "C8 CT S9 ST SQ SJ HT HQ H8 DT"
    s = deal(v, m, h, "DQ DJ")
    s = run(s, "18", "pass", "pass", "hand", "declare null hand", "CQ")
    assert choose(s) == "C9"  # the highest card still under the Ober


def test_discard_keeps_trumps_and_voids_a_short_suit() -> None:
    # Hinterhand bids and picks up; the Skat brings two low Herz.
    s = deal("C7 C8 C9 S7 S8 S9 DA DT DK DQ", "CA CT CK SA ST SK HA HT HK SQ",
             "CJ SJ HJ DJ D9 D8 D7 HQ CQ H9", "H8 H7")
    s = run(s, "pass", "18", "pass", "pickup")
    d = SkatHeuristicBot().choose(s.view(2), random.Random(0))
    assert str(d).startswith("discard")
    kept = s.apply(d).hands[2]
    assert kept & parse_cards("CJ SJ HJ DJ") == parse_cards("CJ SJ HJ DJ")


def test_ramsch_avoids_points() -> None:
    s = deal(V, M, H, SK)
    s = run(s, "pass", "pass", "pass")  # Ramsch at Lothar's table
    assert s.game is GameType.RAMSCH
    s = run(s, "HA")  # Vorhand leads the Herz Ass
    assert choose(s) in ("HQ", "HK", "HT")  # must follow; cannot win anyway
    s = run(s, "HK")
    assert Card.parse(choose(s)).points == 0  # Hinterhand takes it as cheaply as possible


@pytest.mark.parametrize("bot", [RandomBot(), SkatHeuristicBot()], ids=["random", "heuristic"])
def test_a_bot_asked_for_a_seat_not_to_move_is_refused_by_code(bot: Bot) -> None:
    s = SkatState.new(SkatRules(), seed=1)  # Mittelhand bids first
    with pytest.raises(ArgumentError) as e:
        bot.choose(s.view(0), random.Random(1))
    assert e.value.code == "bots.nothing_to_do"
    assert str(e.value) == "Vorhand has nothing to do (phase BIDDING)"
    assert e.value.text("de") == "Vorhand ist nicht am Zug (Phase BIDDING)"


def test_strength_is_for_suit_games_and_grand() -> None:
    with pytest.raises(ArgumentError) as e:
        strength(parse_cards("CJ SJ"), GameType.NULL)
    assert e.value.code == "bots.no_strength"
    assert str(e.value) == "the bidding bot rates suit games and Grand, not Null"
