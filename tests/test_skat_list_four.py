"""Four at a Skat table: the dealer sits out, the seats rotate, Punktestand and the
four-seat Bilanz (zero-sum, the three-seat form at three), the Bestenliste, the printable
list, and the game side of a table of four seats (:class:`stich.games.skat_play.SkatPlay`).
"""

from __future__ import annotations

import itertools
import random

from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console

from stich.cli.i18n import Translator
from stich.cli.skat_render import CardStyle, skat_list
from stich.core import ArgumentError
from stich.games.play import step
from stich.games.skat_play import SkatPlay
from stich.skat import GameType, SkatOutcome, SkatRules, SkatState
from stich.skat_list import Leaderboard, SkatList, bilanz, game_bilanz
from tests.refusals import refused

FOUR = ["Anna", "Bernd", "Carla", "Dieter"]


def won_game(position: int, value: int, game: GameType = GameType.GRAND) -> SkatOutcome:
    scores = [0, 0, 0]
    scores[position] = value
    return SkatOutcome(kind="game", scores=(scores[0], scores[1], scores[2]),
                       declarer=position, game=game, value=value, won=True)


def lost_game(position: int, value: int, game: GameType = GameType.HERZ) -> SkatOutcome:
    scores = [0, 0, 0]
    scores[position] = -2 * value
    return SkatOutcome(kind="game", scores=(scores[0], scores[1], scores[2]),
                       declarer=position, game=game, value=value, won=False)


def ramsch(loser: int, points: int) -> SkatOutcome:
    scores = [0, 0, 0]
    scores[loser] = -points
    return SkatOutcome(kind="ramsch", scores=(scores[0], scores[1], scores[2]),
                       game=GameType.RAMSCH, loser=loser)


PASSED = SkatOutcome(kind="passed", scores=(0, 0, 0))


def random_outcome(rules: SkatRules, seed: int) -> SkatOutcome:
    state = SkatState.new(rules, seed=seed)
    rng = random.Random(seed)
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
    return state.outcome()


# --- seats ------------------------------------------------------------------------------


def test_the_dealer_sits_out_and_vorhand_sits_on_his_left() -> None:
    # players sit clockwise in index order: the dealer's left neighbour is the next index
    assert SkatList(FOUR).positions() == (1, 2, 3)
    assert SkatList(FOUR, first_dealer=1).positions() == (2, 3, 0)
    assert SkatList(FOUR, first_dealer=2).positions() == (3, 0, 1)
    assert SkatList(FOUR, first_dealer=3).positions() == (0, 1, 2)
    for d in range(4):
        t = SkatList(FOUR, first_dealer=d)
        assert t.sits_out() == d and d not in t.positions()
        # Hinterhand is the player on the dealer's right
        assert t.positions()[2] == (d - 1) % 4
    assert SkatList(FOUR[:3]).sits_out() is None


def test_the_deal_moves_on_after_every_game_ramsch_and_passed_included() -> None:
    t = SkatList(FOUR, first_dealer=2)
    seen = []
    for o in (won_game(0, 24), PASSED, ramsch(1, 30), lost_game(2, 10), PASSED):
        pos = t.positions()
        entry = t.record_game(o)
        seen.append((entry.dealer, entry.positions))
        assert entry.dealer not in entry.positions
    assert seen == [(2, (3, 0, 1)), (3, (0, 1, 2)), (0, (1, 2, 3)), (1, (2, 3, 0)),
                    (2, (3, 0, 1))]
    assert pos == (3, 0, 1)
    assert t.dealer == 3


def test_a_worked_sitting_of_four() -> None:
    """Anna deals first.  1: Carla (Mittelhand) wins a Grand for 48; 2: Carla (Vorhand)
    loses Herz 30 (−60); 3: Bernd (Hinterhand) loses a Ramsch with 40; 4: passed."""
    t = SkatList(FOUR)
    e1 = t.record_game(won_game(1, 48))
    e2 = t.record_game(lost_game(0, 30))
    e3 = t.record_game(ramsch(2, 40))
    e4 = t.record_game(PASSED)
    assert [e.dealer for e in (e1, e2, e3, e4)] == [0, 1, 2, 3]
    assert e1.positions == (1, 2, 3) and e1.declarer == 2
    assert e2.positions == (2, 3, 0) and e2.declarer == 2
    assert e3.positions == (3, 0, 1)
    assert e1.scores == (0, 0, 48, 0)
    assert e2.scores == (0, 0, -60, 0)
    assert e3.scores == (0, -40, 0, 0)
    assert e4.scores == (0, 0, 0, 0)
    assert t.punktestand() == [0, -40, -12, 0]
    # Bilanz: 4 × own − the sum of all four (−52)
    assert t.bilanz() == [52, -108, 4, 52]
    # … which is every player's sum of differences to the three others
    totals = t.punktestand()
    assert t.bilanz() == [sum(a - b for b in totals) for a in totals]
    # and the sum of the Bilanz of every game
    per_game = [game_bilanz(e.scores) for e in t.games]
    assert [sum(col) for col in zip(*per_game, strict=True)] == t.bilanz()
    assert per_game[0] == (-48, -48, 144, -48)  # the dealer who sat out pays too
    assert t.dealer == 0  # back to Anna after four games
    assert [(s.won, s.lost) for s in t.declarer_stats()] == [(0, 0), (0, 0), (1, 1), (0, 0)]
    d = t.to_dict()
    assert d["players"] == FOUR and d["punktestand"] == [0, -40, -12, 0]
    assert d["games"][0]["scores"] == [0, 0, 48, 0] and d["games"][0]["dealer"] == 0
    assert "bock" not in d and "bock" not in d["games"][0]


def test_four_seat_bilanz_is_zero_sum_and_the_three_seat_form_at_three() -> None:
    assert bilanz([36, 0, -54]) == [2 * 36 - 0 + 54, 0 - 36 + 54, -108 - 36]
    for a, b, c in itertools.product((-60, 0, 23, 120), repeat=3):
        assert game_bilanz((a, b, c)) == (2 * a - b - c, 2 * b - a - c, 2 * c - a - b)
    assert bilanz([10, 20, 30, 40]) == [-60, -20, 20, 60]
    assert sum(bilanz([7, -3, 11, 0])) == 0


@given(st.lists(st.tuples(st.integers(0, 2), st.integers(-500, 500)), max_size=30),
       st.integers(0, 3))
def test_four_seat_bilanz_sums_to_zero_property(games: list[tuple[int, int]],
                                                 first: int) -> None:
    t = SkatList(FOUR, first_dealer=first)
    for seat, score in games:
        scores = [0, 0, 0]
        scores[seat] = score
        t.record_game(SkatOutcome(kind="game", scores=(scores[0], scores[1], scores[2]),
                                  declarer=seat, game=GameType.HERZ, value=abs(score),
                                  won=score > 0))
    assert sum(t.bilanz()) == 0
    assert sum(t.punktestand()) == sum(s for _, s in games)
    for g in t.games:
        assert g.scores[g.dealer] == 0


def test_many_random_games_at_four() -> None:
    rules = SkatRules()
    t = SkatList(FOUR, rules, first_dealer=1)
    for seed in range(200):
        t.record_game(random_outcome(rules, seed))
        assert sum(t.bilanz()) == 0
    assert [sum(1 for g in t.games if g.dealer == p) for p in range(4)] == [50] * 4
    for g in t.games:
        assert g.scores[g.dealer] == 0 and g.declarer != g.dealer
    board = Leaderboard()
    board.add_table(t)
    assert sum(r.bilanz for r in board.ranking()) == 0
    for name in FOUR:
        assert board[name].games == 150 and board[name].sat_out == 50
    assert [board[n].bilanz for n in FOUR] == t.bilanz()


def test_invalid_tables_of_four() -> None:
    with refused("table.three_players", ArgumentError, n=5):
        SkatList([*FOUR, "Erna"])
    with refused("table.first_dealer", ArgumentError, given=4):
        SkatList(FOUR, first_dealer=4)
    t = SkatList(FOUR)
    with refused("table.positions", ArgumentError, positions="1, 2, 4"):
        t.record_game(PASSED, positions=(1, 2, 4))
    with refused("table.positions", ArgumentError, positions="1, 1, 2"):
        t.record_game(PASSED, positions=(1, 1, 2))
    with refused("table.bilanz_three", ArgumentError, n=5):
        bilanz([1, 2, 3, 4, 5])
    with refused("table.game_players", ArgumentError):
        Leaderboard().add_game(FOUR[:3], (0, 0, 0), sat_out=1)


def test_explicit_positions_at_four_name_the_dealer_by_who_is_missing() -> None:
    t = SkatList(FOUR)
    entry = t.record_game(won_game(0, 23, GameType.NULL), positions=(3, 0, 1))
    assert entry.dealer == 2 and entry.declarer == 3
    assert t.dealer == 3


def test_leaderboard_mixes_tables_of_three_and_four() -> None:
    board = Leaderboard()
    board.add_game(["Ann", "Ben", "Cid"], (36, 0, 0), declarer=0, won=True)
    board.add_game(["Ann", "Ben", "Cid", "Dora"], (0, 0, 0, -54), declarer=3, won=False,
                   sat_out=0)
    rows = {r.name: r for r in board.ranking()}
    # game 1: 72, −36, −36; game 2 (sum −54): 54, 54, 54, −162
    assert {n: r.bilanz for n, r in rows.items()} == {"Ann": 126, "Ben": 18, "Cid": 18,
                                                      "Dora": -162}
    assert (rows["Ann"].games, rows["Ann"].sat_out) == (1, 1)
    assert rows["Ann"].bilanz_per_game == 63.0
    assert rows["Ann"].to_dict()["sat_out"] == 1
    assert "sat_out" not in rows["Ben"].to_dict()
    assert (rows["Dora"].won, rows["Dora"].lost) == (0, 1)


def test_the_printable_list_of_four() -> None:
    t = SkatList(FOUR)
    t.record_game(won_game(1, 48))
    t.record_game(lost_game(0, 30))
    console = Console(record=True, width=120, color_system=None)
    console.print(skat_list(t, CardStyle("german", Translator("de"))))
    text = console.export_text()
    for name in FOUR:
        assert name in text
    assert "Punktestand" in text and "Bilanz" in text
    footer = next(line for line in text.splitlines() if "Bilanz" in line)
    assert footer.split()[-4:] == ["+12", "+12", "-36", "+12"]
    assert "Bock" not in text


# --- the game side of a table of four ---------------------------------------------------


def seed_of(number: int) -> int:
    return 1000 + number


def play_to_end(play: SkatPlay, rng: random.Random) -> None:
    assert play.skat is not None
    while not play.skat.is_over:
        action = rng.choice(play.skat.legal_actions())
        new, _ = step(play.skat, str(action))
        play.moved(new, play.seat_at(play.skat.to_move))


def test_skat_play_with_four_seats() -> None:
    rules = SkatRules()
    play = SkatPlay(rules)
    play.start(2, FOUR, seed_of)
    rng = random.Random(5)
    for number in range(1, 9):
        play.deal(number, seed_of)
        assert play.skat_list is not None
        dealer = play.skat_list.dealer
        assert dealer not in play.positions
        assert play.position_of(dealer) == -1
        assert [play.position_of(play.seat_at(p)) for p in range(3)] == [0, 1, 2]
        play_to_end(play, rng)
        record = play.finish_game(FOUR, {})
        assert record["sat_out"] == FOUR[dealer] and record["seats"] == list(play.positions)
        assert "dealer" not in record
        assert record["players"] == [FOUR[p] for p in play.positions]
        n, lines = play.result_lines(record)
        assert n == number and len(lines) == 4
        assert lines[dealer]["sat_out"] is True and lines[dealer]["score"] == 0
        assert sum(line["bilanz"] for line in lines) == 0
        assert all("sat_out" not in line for i, line in enumerate(lines) if i != dealer)
    assert play.skat_list is not None
    assert [g.dealer for g in play.skat_list.games] == [2, 3, 0, 1, 2, 3, 0, 1]


def test_skat_play_with_three_seats_sends_what_it_sent() -> None:
    play = SkatPlay(SkatRules())
    play.start(0, FOUR[:3], seed_of)
    play.deal(1, seed_of)
    play_to_end(play, random.Random(1))
    record = play.finish_game(FOUR[:3], {"x": 1})
    assert list(record)[-3:] == ["table_game", "seats", "x"]
    assert "sat_out" not in record and "bock" not in record
    _, lines = play.result_lines(record)
    assert len(lines) == 3
    assert all(set(line) == {"score", "bilanz", "declarer", "won", "place"}
               for line in lines)


def test_skat_play_of_four_restores_from_its_snapshot() -> None:
    rules = SkatRules()
    play = SkatPlay(rules)
    play.start(1, FOUR, seed_of)
    rng = random.Random(2)
    for number in range(1, 4):
        play.deal(number, seed_of)
        play_to_end(play, rng)
        play.finish_game(FOUR, {})
    play.deal(4, seed_of)
    snap = play.snapshot()
    again = SkatPlay(rules)
    again.restore(snap, [], first=1, game_number=4, started=True, seed_of=seed_of)
    assert again.positions == play.positions
    assert again.skat_list is not None and play.skat_list is not None
    assert again.skat_list.games == play.skat_list.games
    assert again.skat_list.dealer == play.skat_list.dealer
    assert again.skat_list.players == FOUR
