"""Bock rounds on the Skat list: which games start one (XSkat's events), how long one
lasts, what overlapping rounds do (``queue`` and ``stack``), the list score × the Bock
factor, and a restored table that goes on with the same Bock rounds."""

from __future__ import annotations

import random

import pytest

from stich.games.play import step
from stich.games.skat_play import SkatPlay
from stich.skat import GameType, SkatOutcome, SkatRules
from stich.skat_list import SkatList, bock_events, bock_mark

THREE = ["Anna", "Bernd", "Carla"]
FOUR = ["Anna", "Bernd", "Carla", "Dieter"]


def rules(text: str) -> SkatRules:
    return SkatRules.parse(f"skat(preset=lothar,{text})")


def game(position: int, value: int, *, won: bool = True, game: GameType = GameType.HERZ,
         hand: bool = False, points: int = 70, kontra: bool = False,
         re: bool = False) -> SkatOutcome:
    """A declarer's game as the engine settles it (Kontra and Re double the score)."""
    score = (value if won else -2 * value) * (2 if kontra else 1) * (2 if re else 1)
    scores = [0, 0, 0]
    scores[position] = score
    return SkatOutcome(kind="game", scores=(scores[0], scores[1], scores[2]),
                       declarer=position, game=game, hand=hand, value=value, won=won,
                       declarer_points=points, defender_points=120 - points,
                       kontra=kontra, re=re)


def grand_hand(position: int, value: int = 48) -> SkatOutcome:
    return game(position, value, game=GameType.GRAND, hand=True)


PASSED = SkatOutcome(kind="passed", scores=(0, 0, 0))
RAMSCH = SkatOutcome(kind="ramsch", scores=(0, -30, 0), game=GameType.RAMSCH, loser=1)


def ev(outcome: SkatOutcome, events: str, before: tuple[int, ...] = (0, 0, 0),
       after: tuple[int, ...] | None = None) -> int:
    if after is None:
        after = tuple(b + s for b, s in zip(before, outcome.scores, strict=True))
    return bock_events(outcome, frozenset(events.split("+")), before, after)


# --- the events ---------------------------------------------------------------------------


def test_lost_with_60() -> None:
    assert ev(game(0, 30, won=False, points=60), "lost_60") == 1
    assert ev(game(0, 30, won=False, points=59), "lost_60") == 0
    assert ev(game(0, 30, won=True, points=61), "lost_60") == 0
    # a Null has no card points that count: never "lost with 60"
    assert ev(game(0, 23, won=False, points=60, game=GameType.NULL), "lost_60") == 0
    assert ev(game(0, 30, won=False, points=60), "grand_hand") == 0


def test_grand_hand_won() -> None:
    assert ev(grand_hand(1), "grand_hand") == 1
    assert ev(game(1, 48, game=GameType.GRAND), "grand_hand") == 0  # not Hand
    assert ev(game(1, 48, game=GameType.GRAND, hand=True, won=False), "grand_hand") == 0
    assert ev(game(1, 20, hand=True), "grand_hand") == 0  # Herz Hand


def test_kontra_and_re() -> None:
    lost_kontra = game(0, 30, won=False, kontra=True)
    assert ev(lost_kontra, "kontra_won") == 1
    assert ev(game(0, 30, won=True, kontra=True), "kontra_won") == 0
    assert ev(game(0, 30, won=True, kontra=True), "kontra_re") == 0
    assert ev(game(0, 30, won=True, kontra=True, re=True), "kontra_re") == 1
    assert ev(game(0, 30, won=True, kontra=True, re=True), "kontra_won+kontra_re") == 1
    # lost with Kontra and Re: one event, not two (XSkat's note)
    lost_re = game(0, 30, won=False, kontra=True, re=True)
    assert ev(lost_re, "kontra_won+kontra_re") == 1
    assert ev(lost_re, "kontra_re") == 1
    assert ev(lost_re, "kontra_won") == 1


def test_totals_with_three_equal_digits_or_a_multiple_of_100() -> None:
    assert ev(game(0, 11), "triple", before=(100, 0, 0)) == 1  # 111
    assert ev(game(0, 23, won=False), "triple", before=(-176, 0, 0)) == 1  # −222
    assert ev(game(2, 33), "triple", before=(0, 0, 1300)) == 1  # 1333
    assert ev(game(0, 10), "triple", before=(1, 0, 0)) == 0  # 11: not three digits
    assert ev(game(0, 30), "hundred", before=(70, 0, 0)) == 1
    assert ev(game(0, 30), "hundred", before=(-30, 0, 0)) == 0  # back to 0: no event
    assert ev(game(0, 30), "triple", before=(-30, 0, 0)) == 0
    # 1000 is both: one event; with triple alone it is three equal digits (000)
    assert ev(game(0, 50), "triple+hundred", before=(950, 0, 0)) == 1
    assert ev(game(0, 50), "triple", before=(950, 0, 0)) == 1
    # a total already at 100 that does not change (a defender) starts nothing
    assert ev(game(0, 24), "hundred", before=(0, 100, 0)) == 0
    # two players at once: two events
    assert ev(game(0, 40), "hundred", before=(60, 0, 0), after=(100, -200, 0)) == 2


def test_game_values_72_and_96() -> None:
    assert ev(game(0, 72, game=GameType.GRAND), "value72") == 1
    assert ev(game(0, 72, game=GameType.GRAND, won=False), "value72") == 1
    assert ev(game(0, 70, game=GameType.EICHEL), "value72") == 0
    assert ev(game(0, 72, game=GameType.GRAND), "value96") == 0
    assert ev(game(0, 96, game=GameType.GRAND), "value96") == 1
    assert ev(game(0, 96, game=GameType.GRAND), "value72+value96") == 1  # counted once
    # the value before Kontra doubles the score: a Kontra on a 48 is not a 96
    assert ev(game(0, 48, game=GameType.GRAND, kontra=True), "value72") == 0
    assert ev(RAMSCH, "value72") == 0


def test_several_events_in_one_game() -> None:
    big = grand_hand(0, 96)
    assert ev(big, "grand_hand+value72+hundred", before=(4, 0, 0)) == 3
    assert ev(PASSED, "+".join(("lost_60", "grand_hand", "kontra_won", "kontra_re",
                                "value72", "value96"))) == 0


# --- rounds -------------------------------------------------------------------------------


def factors(table: SkatList, outcomes: list[SkatOutcome]) -> list[int]:
    return [table.record_game(o).bock for o in outcomes]


def test_a_bock_round_doubles_the_next_games_of_the_table() -> None:
    """Three at the table, Bock after a Grand Hand, a round as long as the table (3)."""
    t = SkatList(THREE, rules("bock=grand_hand"))
    assert t.next_bock() == 1
    first = t.record_game(grand_hand(0, 48))  # Bernd (Vorhand) wins a Grand Hand
    assert first.bock == 1 and first.scores == (0, 48, 0)
    assert t.bock_rounds == [3] and t.next_bock() == 2 and t.bock_games_left() == 3
    second = t.record_game(game(1, 30))  # Anna (Mittelhand) wins 30: 60 on the list
    assert second.bock == 2 and second.scores == (60, 0, 0) and second.value == 30
    assert second.outcome.scores == (0, 30, 0)  # the game itself is not doubled
    third = t.record_game(game(2, 20, won=False))  # Carla (Hinterhand) loses 20: −80
    assert third.bock == 2 and third.scores == (0, 0, -80)
    assert factors(t, [PASSED, game(0, 24)]) == [2, 1]  # a passed game counts as a game
    assert t.punktestand() == [60, 48, -56]  # the last one: Carla in Vorhand, 24
    assert sum(t.bilanz()) == 0
    assert t.games[1].to_dict()["bock"] == 2 and "bock" not in t.games[0].to_dict()
    assert t.to_dict()["bock"] == {"rounds": [], "next": 1, "games_left": 0}


def test_bock_games_sets_the_length_and_four_players_make_a_round_of_four() -> None:
    t = SkatList(THREE, rules("bock=grand_hand,bock_games=2"))
    assert factors(t, [grand_hand(0), PASSED, RAMSCH, PASSED]) == [1, 2, 2, 1]
    assert t.games[2].scores == (0, -60, 0)  # a Ramsch under Bock: −30 × 2 (Bernd)
    four = SkatList(FOUR, rules("bock=grand_hand"))
    assert four.bock_length == 4
    assert factors(four, [grand_hand(0)] + [PASSED] * 5) == [1, 2, 2, 2, 2, 1]


def test_overlapping_rounds_queue() -> None:
    """Bock after a Grand Hand in games 1 and 3: the second round is played after the
    first (XSkat: the number of Bock games still to play is increased)."""
    t = SkatList(THREE, rules("bock=grand_hand,bock_overlap=queue"))
    outcomes = [grand_hand(0), PASSED, grand_hand(1), PASSED, PASSED, PASSED, PASSED,
                PASSED]
    assert factors(t, outcomes) == [1, 2, 2, 2, 2, 2, 2, 1]
    t2 = SkatList(THREE, rules("bock=grand_hand,bock_overlap=queue"))
    t2.record_game(grand_hand(0))
    t2.record_game(PASSED)
    t2.record_game(grand_hand(1))
    assert t2.bock_rounds == [1, 3] and t2.bock_games_left() == 4


def test_overlapping_rounds_stack() -> None:
    """The same games with ``stack``: the second round counts its own next three games;
    game 4, covered by both, counts four times."""
    t = SkatList(THREE, rules("bock=grand_hand,bock_overlap=stack"))
    outcomes = [grand_hand(0), PASSED, grand_hand(1, 48), game(0, 30), PASSED, PASSED,
                PASSED]
    assert factors(t, outcomes) == [1, 2, 2, 4, 2, 2, 1]
    assert t.games[2].scores == (0, 96, 0)  # Grand Hand 48 by Mittelhand (Bernd) × 2
    assert t.games[3].scores == (0, 120, 0)  # 30 by Vorhand (Bernd again) × 4
    assert t.games[3].to_dict()["bock"] == 4


@pytest.mark.parametrize(("overlap", "want"), [("queue", [1, 2, 2, 2, 2, 2, 2, 1]),
                                               ("stack", [1, 4, 4, 4, 1, 1, 1, 1])])
def test_two_events_in_one_game_start_two_rounds(overlap: str, want: list[int]) -> None:
    t = SkatList(THREE, rules(f"bock=grand_hand+value72,bock_overlap={overlap}"))
    assert factors(t, [grand_hand(0, 72)] + [PASSED] * 7) == want


def test_a_bock_score_can_start_the_next_round() -> None:
    """The totals after the Bock doubling decide ``hundred``: 50 × 2 makes 100."""
    t = SkatList(THREE, rules("bock=grand_hand+hundred,bock_games=1"))
    t.record_game(grand_hand(2, 48))  # Anna (Hinterhand at dealer 0) → 48
    assert t.punktestand() == [48, 0, 0]
    e = t.record_game(game(1, 26))  # Anna is Mittelhand now: 26 × 2 = 52 → 100
    assert e.bock == 2 and t.punktestand() == [100, 0, 0]
    assert t.next_bock() == 2  # a new round from "hundred"
    assert t.record_game(PASSED).bock == 2
    assert t.record_game(PASSED).bock == 1


def test_without_bock_rules_nothing_changes() -> None:
    t = SkatList(THREE)
    for o in (grand_hand(0, 96), game(1, 30, won=False, points=60)):
        assert t.record_game(o).bock == 1
    assert t.bock_rounds == [] and "bock" not in t.to_dict()


def test_bock_marks() -> None:
    assert [bock_mark(f, "en") for f in (1, 2, 4, 8)] == ["", "Bock", "Bock ×4", "Bock ×8"]


# --- a restarted table goes on with the same Bock rounds -------------------------------------


def seed_of(number: int) -> int:
    return 7000 + number


def play_to_end(play: SkatPlay, rng: random.Random) -> None:
    assert play.skat is not None
    while not play.skat.is_over:
        new, _ = step(play.skat, str(rng.choice(play.skat.legal_actions())))
        play.moved(new, play.seat_at(play.skat.to_move))


@pytest.mark.parametrize("overlap", ["queue", "stack"])
def test_a_restored_table_keeps_its_bock_rounds(overlap: str) -> None:
    r = rules(f"bock=lost_60+grand_hand+hundred+triple+value72,bock_games=2,"
              f"bock_overlap={overlap}")
    for names in (THREE, FOUR):
        play = SkatPlay(r)
        play.start(0, names, seed_of)
        rng = random.Random(3)
        for number in range(1, 13):
            play.deal(number, seed_of)
            snap = play.snapshot()
            again = SkatPlay(r)
            again.restore(snap, [], first=0, game_number=number, started=True,
                          seed_of=seed_of)
            assert again.skat_list is not None and play.skat_list is not None
            assert again.skat_list.bock_rounds == play.skat_list.bock_rounds
            assert again.skat_list.games == play.skat_list.games
            play_to_end(play, rng)
            record = play.finish_game(names, {})
            entry = play.skat_list.games[-1]
            assert record.get("bock", 1) == entry.bock
            assert entry.scores[entry.positions[0]] == entry.outcome.scores[0] * entry.bock
        assert play.skat_list is not None
        assert any(g.bock > 1 for g in play.skat_list.games)
