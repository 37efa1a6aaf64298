"""The bots under Schenken and Revolution (issue 42): their decisions come from their
own cards, and strong's Revolution exchange is a coordinated search that only gives
cards when it found an answer beating the declarer."""

from __future__ import annotations

import random

from stich.bots.doubling import gift_reaches_bid, hopeless
from stich.bots.heuristic import SkatHeuristicBot
from stich.bots.strong import SkatStrongBot
from stich.cards import parse_cards
from stich.skat.actions import ACCEPT, PASS, SCHENKEN, Give
from stich.skat.rules import GameType, SkatRules
from stich.skat.solver import Position, null_won
from stich.skat.state import SkatState

MONSTER = ("CJ SJ HJ DJ CA CT CK CQ C9 C8", "C7 SA ST SK SQ S9 S8 S7 HA HT",
           "HK HQ H9 H8 H7 D9 D8 D7 DQ DK", "DA DT")
# the same game, the defenders' cards weaker: one trump and one ace, and one ace
WEAK = ("CJ SJ HJ DJ CA CT CK CQ C9 C8", "C7 SA SK SQ S9 S8 S7 H9 H8 H7",
        "ST HA HT HK HQ D9 D8 D7 DQ DK", "DA DT")


def _state(rules: str, deal: tuple[str, str, str, str], actions: list[str]) -> SkatState:
    s = SkatState.new(SkatRules.parse(rules), hands=[parse_cards(h) for h in deal[:3]],
                      skat=parse_cards(deal[3]))
    for a in actions:
        s = s.apply_text(a)
    return s


def test_a_hopeless_defender_offers_the_partner_agrees_the_declarer_accepts() -> None:
    rules = "skat(preset=lothar,schenken=yes)"
    s = _state(rules, WEAK, ["pass", "pass", "18", "hand", "declare eichel hand", "CJ"])
    bot = SkatHeuristicBot()
    rng = random.Random(0)
    # Mittelhand holds the Eichel-Sieben only: no Unter, one trump, one ace: hopeless
    assert hopeless(s.view(1)) and SCHENKEN in s.legal_actions()
    assert bot.choose(s.view(1), rng) is SCHENKEN
    s = s.apply(SCHENKEN)
    # Hinterhand: no trump, one ace: agrees
    assert bot.choose(s.view(2), rng) is SCHENKEN
    s = s.apply(SCHENKEN)
    # the declarer: Eichel Hand mit 10 = 144 reaches his 18: accepts
    assert gift_reaches_bid(s.view(0)) and bot.choose(s.view(0), rng) is ACCEPT
    s = s.apply(ACCEPT)
    assert s.outcome().gift_accepted and s.outcome().scores == (144, 0, 0)


def test_a_declarer_who_bid_for_more_plays_on() -> None:
    rules = "skat(preset=isko,schenken=yes)"
    s = _state(rules, WEAK, ["pass", "168", "hold", "pass", "hand", "declare eichel hand",
                                "CJ", "schenken", "schenken"])
    assert not gift_reaches_bid(s.view(0))
    assert SkatHeuristicBot().choose(s.view(0), random.Random(0)) is PASS


def test_a_defender_with_two_aces_refuses() -> None:
    rules = "skat(preset=lothar,schenken=yes)"
    # Hinterhand (no trump, no ace) offers; Mittelhand (the Eichel-Sieben, two aces) not
    s = _state(rules, MONSTER, ["pass", "pass", "18", "hand", "declare eichel hand", "CJ",
                                "C7"])
    bot = SkatHeuristicBot()
    assert not hopeless(s.view(1)) and bot.choose(s.view(2), random.Random(0)) is SCHENKEN
    s = s.apply(SCHENKEN)
    assert bot.choose(s.view(1), random.Random(0)) is PASS


def test_a_defender_with_trumps_does_not_offer() -> None:
    rules = "skat(preset=lothar,schenken=yes)"
    # Vorhand declares Schellen with the same cards: Mittelhand's C7 is no trump now,
    # Hinterhand holds six Schellen (trump) and is not hopeless
    s = _state(rules, MONSTER, ["pass", "pass", "18", "hand", "declare schellen hand", "CJ",
                                "C7"])
    assert s.to_move == 2 and SCHENKEN in s.legal_actions() and not hopeless(s.view(2))
    assert SkatHeuristicBot().choose(s.view(2), random.Random(0)) is not SCHENKEN


def _revolution(seed: int) -> SkatState:
    """A deal where Vorhand declares a Revolution Hand at 18."""
    s = SkatState.new(SkatRules.parse("skat(preset=lothar,revolution=yes)"), seed=seed)
    for a in ("pass", "pass", "18", "hand", "declare null hand ouvert revolution"):
        s = s.apply_text(a)
    return s


def test_strong_defenders_exchange_to_beat_a_revolution() -> None:
    """Over seeded deals: the strong defenders' exchange beats the declarer whenever their
    search found a way (they then give what it found and the partner finds the same
    answer), and at least as often as giving nothing; easy gives nothing."""
    bot = SkatStrongBot(budget=0.2)
    easy = SkatHeuristicBot()
    beaten_nothing = beaten_strong = gave = 0
    for seed in range(40):
        s = _revolution(seed)
        d = s.declarer
        lost_without = not null_won(Position(GameType.NULL, s.hands, d, 0, ()))
        assert easy.choose(s.view(s.to_move), random.Random(0)) == Give(0)
        first = bot.choose(s.view(s.to_move), random.Random(0))
        assert isinstance(first, Give)
        s = s.apply(first)
        second = bot.choose(s.view(s.to_move), random.Random(0))
        assert isinstance(second, Give)
        s = s.apply(second)
        lost_with = not null_won(Position(GameType.NULL, s.hands, d, 0, ()))
        if first.cards:
            gave += 1
            assert lost_with, f"seed {seed}: gave {first} and {second} in vain"
        beaten_nothing += lost_without
        beaten_strong += lost_with
    assert beaten_strong >= beaten_nothing
    assert gave > 0, "no deal needed an exchange: the test shows nothing"
    print(f"declarer beaten: giving nothing {beaten_nothing}/40, strong {beaten_strong}/40")
