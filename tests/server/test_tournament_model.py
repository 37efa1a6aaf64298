"""The tournament as a pure model (stich.server.tournament): the seat draw for every
number of players from 3 to 40, the standings with their tie-breaks, and the refusals."""

from __future__ import annotations

from collections import Counter

import pytest

from stich.core import ArgumentError
from stich.server.tournament import (
    BOT,
    MAX_PLAYERS,
    Player,
    SeriesResult,
    TournamentSettings,
    check_register,
    check_settings,
    check_start_round,
    check_withdraw,
    draw,
    next_step,
    series_results,
    standings,
    table_sizes,
)
from stich.skat_list import SeegerLine, seeger

RULES = "skat(preset=isko)"


def players(n: int) -> list[Player]:
    return [Player(f"u{i}", f"Player {i}", order=i) for i in range(n)]


@pytest.mark.parametrize("n", range(3, 41))
def test_draw_every_n(n: int) -> None:
    s = TournamentSettings(rules=RULES, name="T", seed=12345)
    ps = players(n)
    if n == 5:
        with pytest.raises(ArgumentError) as e:
            draw(s, ps, 1)
        assert e.value.code == "tournament.five"
        s = TournamentSettings(rules=RULES, name="T", seed=12345, bots=True)
    tables = draw(s, ps, 1)
    sizes = [len(t) for t in tables]
    assert all(size in (3, 4) for size in sizes)
    fours = sizes.count(4)
    if n == 5:
        assert sizes == [3, 3]
        assert sum(seat is BOT for t in tables for seat in t) == 1
    else:
        assert fours == n % 3, sizes  # fours only where n does not divide by three
        assert sum(sizes) == n
        assert all(seat is not BOT for t in tables for seat in t)
    seated = Counter(seat for t in tables for seat in t if seat is not BOT)
    assert seated == Counter(p.key for p in ps)  # everybody exactly once
    assert draw(s, ps, 1) == tables  # reproducible from the seed
    assert draw(s, list(reversed(ps)), 1) == tables  # whatever order they come in


def test_draw_differs_by_seed_and_round() -> None:
    ps = players(12)
    a = TournamentSettings(rules=RULES, name="T", seed=1, seating="draw")
    b = TournamentSettings(rules=RULES, name="T", seed=2, seating="draw")
    assert draw(a, ps, 1) != draw(b, ps, 1)
    assert draw(a, ps, 1) != draw(a, ps, 2)  # round 2 draws anew


def test_draw_by_results_seats_leaders_together() -> None:
    s = TournamentSettings(rules=RULES, name="T", seed=9, seating="results")
    ps = players(10)
    order = [f"u{i}" for i in (9, 8, 7, 6, 5, 4, 3, 2, 1, 0)]
    tables = draw(s, ps, 2, order=order)
    assert [set(t) for t in tables] == [{"u9", "u8", "u7", "u6"}, {"u5", "u4", "u3"},
                                        {"u2", "u1", "u0"}]
    # round 1 is always drawn, whatever the order
    assert [set(t) for t in draw(s, ps, 1, order=order)] != [set(t) for t in tables]


def test_withdrawn_players_are_not_drawn() -> None:
    s = TournamentSettings(rules=RULES, name="T", seed=3)
    ps = players(7)
    ps[2] = Player("u2", "Player 2", active=False, order=2)
    tables = draw(s, ps, 1)
    assert [len(t) for t in tables] == [3, 3]
    assert "u2" not in {k for t in tables for k in t}


@pytest.mark.parametrize(("n", "code"), [(0, "tournament.too_few"), (1, "tournament.too_few"),
                                         (2, "tournament.too_few"), (5, "tournament.five")])
def test_table_sizes_refused(n: int, code: str) -> None:
    with pytest.raises(ArgumentError) as e:
        table_sizes(n)
    assert e.value.code == code
    assert e.value.text("de")  # in words, in both languages
    assert e.value.text("en") != e.value.text("de")


def test_table_sizes_with_bots_still_refuse_two() -> None:
    with pytest.raises(ArgumentError):
        table_sizes(2, bots=True)
    assert table_sizes(5, bots=True) == [3, 3]
    assert table_sizes(7, bots=True) == [4, 3]  # no bot where none is needed


def line(points: int, won: int, lost: int, others_lost: int, score: int) -> SeegerLine:
    return SeegerLine(points, won, lost, others_lost, score)


def test_standings_sum_over_series() -> None:
    s = TournamentSettings(rules=RULES, name="T")
    ps = players(4)
    # round 1: a table of three (u0, u1, u2) and u3 has no result yet
    r1 = series_results(1, ["u0", "u1", "u2"], seeger([120, -46, 0], [2, 0, 0], [0, 1, 0]))
    assert [r.line.score for r in r1] == [260, -96, 40]
    # round 2: a table of four, a bot at seat 3
    r2 = series_results(2, ["u1", "u0", "u3", None],
                        seeger([0, 72, -96, 0], [0, 1, 0, 0], [0, 0, 1, 0]))
    assert len(r2) == 3  # the bot stands nowhere
    got = standings(s, ps, r1 + r2)
    assert [(x.key, x.place, x.score, x.points, x.won, x.lost, x.series) for x in got] == [
        ("u0", 1, 260 + 152, 120 + 72, 3, 0, 2),
        ("u2", 2, 40, 0, 0, 0, 1),
        ("u1", 3, -96 + 30, -46 + 0, 0, 1, 2),
        ("u3", 4, -146, -96, 0, 1, 1),
    ]
    assert got[0].by_round == {1: 260, 2: 152}


def test_standings_tie_breaks() -> None:
    s = TournamentSettings(rules=RULES, name="T")
    ps = [Player("a", "Anna"), Player("b", "Bert"), Player("c", "Carl"),
          Player("d", "Dora"), Player("e", "Emil")]
    results = [
        SeriesResult("a", 1, 3, line(300, 5, 2, 0, 500)),
        SeriesResult("b", 1, 3, line(350, 6, 3, 0, 500)),  # same score, more won: ahead
        SeriesResult("c", 1, 3, line(400, 5, 1, 0, 500)),  # same score and won, fewer lost
        SeriesResult("d", 1, 4, line(380, 5, 1, 0, 500)),  # equal to c on all three
        SeriesResult("e", 1, 4, line(0, 0, 0, 0, 90)),
    ]
    got = standings(s, ps, results)
    assert [(x.name, x.place) for x in got] == [("Bert", 1), ("Carl", 2), ("Dora", 2),
                                                ("Anna", 4), ("Emil", 5)]


def test_standings_list_scoring_uses_the_punktestand() -> None:
    s = TournamentSettings(rules=RULES, name="T", scoring="list")
    ps = [Player("a", "A"), Player("b", "B")]
    results = [SeriesResult("a", 1, 3, line(100, 1, 3, 0, -50)),
               SeriesResult("b", 1, 3, line(90, 4, 0, 0, 400))]
    assert [(x.key, x.score) for x in standings(s, ps, results)] == [("a", 100), ("b", 90)]


def test_standings_nobody_played_share_first_place() -> None:
    s = TournamentSettings(rules=RULES, name="T")
    got = standings(s, players(3), [])
    assert [x.place for x in got] == [1, 1, 1]
    assert [x.name for x in got] == ["Player 0", "Player 1", "Player 2"]


def test_series_results_must_match() -> None:
    with pytest.raises(ArgumentError):
        series_results(1, ["a", "b"], seeger([0, 0, 0], [0, 0, 0], [0, 0, 0]))


def test_settings_bounds() -> None:
    ok = check_settings(TournamentSettings(rules=RULES, name="  Vereinsabend  "))
    assert ok.name == "Vereinsabend"
    assert (ok.games_three, ok.games_four, ok.scoring) == (36, 48, "seeger")
    bad = [dict(name=""), dict(name="x" * 61), dict(rounds=0), dict(rounds=9),
           dict(games_three=35), dict(games_four=30), dict(games_three=0),
           dict(games_three=75), dict(games_four=100), dict(scoring="bilanz"),
           dict(seating="swiss")]
    for kw in bad:
        args = {"rules": RULES, "name": "T", **kw}
        with pytest.raises(ArgumentError):
            check_settings(TournamentSettings(**args))  # type: ignore[arg-type]
    assert check_settings(TournamentSettings(rules=RULES, name="T", games_three=3,
                                             games_four=4)).games(4) == 4


def test_settings_round_trip() -> None:
    s = TournamentSettings(rules=RULES, name="T", rounds=3, games_three=6, games_four=8,
                           bots=True, seating="draw", public=False, seed=99)
    assert TournamentSettings.from_dict(s.to_dict()) == s


def test_register_and_withdraw() -> None:
    ps = players(3)
    check_register("registering", ps, "new")
    with pytest.raises(ArgumentError) as e:
        check_register("registering", ps, "u1")
    assert e.value.code == "tournament.registered"
    with pytest.raises(ArgumentError) as e:
        check_register("running", ps, "new")
    assert e.value.code == "tournament.started"
    with pytest.raises(ArgumentError) as e:
        check_register("registering", players(MAX_PLAYERS), "new")
    assert e.value.code == "tournament.full"
    check_withdraw("registering", ps, "u1")
    with pytest.raises(ArgumentError):
        check_withdraw("registering", ps, "stranger")
    with pytest.raises(ArgumentError):
        check_withdraw("between", ps, "u1")
    # a player who withdrew may register again
    check_register("registering", [Player("u1", "P", active=False)], "u1")


def test_start_round_refusals() -> None:
    s = TournamentSettings(rules=RULES, name="T", rounds=2)
    ps = players(7)
    assert check_start_round("registering", False, 0, s, ps) == 1
    assert check_start_round("between", False, 1, s, ps) == 2
    for args, code in [(("running", False, 1), "tournament.round_running"),
                       (("between", True, 1), "tournament.paused"),
                       (("over", False, 2), "tournament.over"),
                       (("between", False, 2), "tournament.no_rounds_left")]:
        with pytest.raises(ArgumentError) as e:
            check_start_round(*args, s, ps)
        assert e.value.code == code
    with pytest.raises(ArgumentError) as e:
        check_start_round("registering", False, 0, s, players(2))
    assert e.value.code == "tournament.too_few"


def test_next_step() -> None:
    s = TournamentSettings(rules=RULES, name="T", rounds=2)
    assert next_step("running", [True, False], 1, s) == "running"
    assert next_step("running", [True, True], 1, s) == "between"
    assert next_step("running", [True, True], 2, s) == "over"
    assert next_step("between", [True], 1, s) == "between"
