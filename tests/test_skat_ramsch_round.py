"""Bockramsch: after each Bock round a round of compulsory Ramsch, as many games as players;
a Grand Hand declared instead does not count to it and the same dealer deals again."""

from __future__ import annotations

from stich.games.skat_play import SkatPlay
from stich.skat import SkatOutcome, SkatRules
from stich.skat.rules import GameType
from stich.skat_list import SkatList

RULES = SkatRules.parse("skat(preset=lothar,bock=grand_hand,bock_ramsch=yes)")
GRAND_HAND = SkatOutcome(kind="game", scores=(0, 0, 72), declarer=2, game=GameType.GRAND,
                         hand=True, value=72, won=True)
SUIT = SkatOutcome(kind="game", scores=(20, 0, 0), declarer=0, game=GameType.HERZ,
                   value=20, won=True)
RAMSCH = SkatOutcome(kind="ramsch", scores=(0, -40, 0), game=GameType.RAMSCH,
                     points=(30, 40, 50), tricks=(3, 4, 3), loser=1)


def test_a_bock_round_is_followed_by_a_ramsch_round() -> None:
    t = SkatList(["A", "B", "C"], RULES)
    t.record_game(GRAND_HAND)  # starts a Bock round of three games
    assert not t.next_ramsch_round()
    for _ in range(3):
        assert t.next_bock() == 2 and not t.next_ramsch_round()
        t.record_game(SUIT)
    assert t.next_bock() == 1 and t.ramsch_left == 3 and t.next_ramsch_round()
    dealer = t.dealer
    t.record_game(GRAND_HAND, ramsch_round=True)  # declared instead: not counted
    assert t.dealer == dealer and t.ramsch_left == 3
    assert t.games[-1].ramsch_round and t.games[-1].to_dict()["ramsch_round"] is True
    # that Grand Hand started a Bock round of its own: the Ramsch round's games are in it
    for left in (2, 1):
        t.record_game(RAMSCH, ramsch_round=True)
        assert t.ramsch_left == left
        assert t.dealer == (dealer + 3 - left) % 3
    t.record_game(RAMSCH, ramsch_round=True)  # the round's last game
    assert [g.bock for g in t.games] == [1, 2, 2, 2, 1, 2, 2, 2]
    # the Bock round of game 5 ended with game 8 too: a Ramsch round follows again
    assert t.ramsch_left == 3 and t.to_dict()["ramsch_left"] == 3


def test_a_restored_list_knows_its_ramsch_round() -> None:
    t = SkatList(["A", "B", "C", "D"], RULES)
    for outcome in (GRAND_HAND, SUIT, SUIT, SUIT, SUIT):
        t.record_game(outcome)
    assert t.ramsch_left == 4  # four players: four games
    t.record_game(RAMSCH, ramsch_round=True)
    copy = SkatList(["A", "B", "C", "D"], RULES)
    copy.restore(t.games, t.dealer)
    assert (copy.ramsch_left, copy.bock_rounds, copy.dealer) == (3, t.bock_rounds, t.dealer)


def test_the_table_deals_ramsch_round_games() -> None:
    import random

    play = SkatPlay(SkatRules.parse("skat(preset=lothar,bock=value72,bock_ramsch=yes)"))
    play.start(0, ["A", "B", "C"], lambda n: n * 7919)
    rng = random.Random(1)
    seen = 0
    for number in range(1, 40):
        play.deal(number, lambda n: n * 7919)
        assert play.skat is not None and play.skat_list is not None
        assert play.skat.ramsch_round == (play.skat_list.ramsch_left > 0)
        seen += play.skat.ramsch_round
        state = play.skat
        while not state.is_over:
            state = state.apply(rng.choice(state.legal_actions()))
        play.moved(state, 0)
        record = play.finish_game(["A", "B", "C"], {})
        assert ("start" in record) == state.ramsch_round
    assert seen > 0
