"""The arena (`stich arena`, :mod:`stich.arena`): duplicate deals, the same games for any
number of processes, the figures and their intervals, the command's JSON and refusals,
and the bot levels by name."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import defaultdict

import pytest
from typer.testing import CliRunner

from stich.arena import Game, Match, game_kind, interval, play_match, run_match, summarize
from stich.baptisten import BaptistenRules
from stich.bots import BAPTISTEN_BOTS, BOTS, make_baptisten_bot, make_bot
from stich.cli import app
from stich.core import ArgumentError
from stich.skat import GameType
from stich.skat.outcome import SkatOutcome

runner = CliRunner()

SKAT = Match("skat", ("easy", "random", "random"), deals=6, seed=11)
BAPTISTEN = Match("baptisten", ("easy", "random", "random", "random"), deals=3, seed=5,
                  rules=BaptistenRules(players=4, max_cards=4))


def _fingerprint(games: list[Game]) -> list[tuple[object, ...]]:
    return [(g.deal, g.rotation, g.cards, tuple(r.to_tuple() for r in g.seats))
            for g in games]


@pytest.mark.parametrize("match", [SKAT, BAPTISTEN], ids=["skat", "baptisten"])
def test_the_games_are_the_same_for_one_or_two_processes(match: Match) -> None:
    one = play_match(match, jobs=1)
    two = play_match(match, jobs=2)
    assert _fingerprint(one) == _fingerprint(two)
    a, b = summarize(match, one), summarize(match, two)
    for report in (a, b):  # the times differ from run to run; everything else may not
        for f in [*report["by_name"].values(), *report["by_entry"]]:
            del f["time_ms"]
    assert a == b


@pytest.mark.parametrize("match", [SKAT, BAPTISTEN], ids=["skat", "baptisten"])
def test_every_entry_plays_every_seat_of_every_deal(match: Match) -> None:
    games = play_match(match)
    n = match.seats
    assert len(games) == match.deals * n
    cards: dict[int, set[str]] = defaultdict(set)
    seats: dict[tuple[int, int], set[int]] = defaultdict(set)
    for g in games:
        cards[g.deal].add(g.cards)
        assert sorted(r.seat for r in g.seats) == list(range(n))  # one entry per seat
        for r in g.seats:
            seats[g.deal, r.entry].add(r.seat)
    # one deal's rotations share their cards; different deals differ
    assert all(len(c) == 1 for c in cards.values())
    assert len({next(iter(c)) for c in cards.values()}) == match.deals
    assert all(s == set(range(n)) for s in seats.values())
    assert len(seats) == match.deals * n


def test_skat_scores_are_the_outcomes_list_scores() -> None:
    games = play_match(SKAT)
    for g in games:
        declared = [r for r in g.seats if r.declared]
        assert len(declared) <= 1
        for r in g.seats:
            if not r.declared and r.score:  # a defender only pays in Ramsch
                assert r.score < 0 and not declared
        if declared and declared[0].won:
            assert declared[0].score > 0


def test_skat_figures_count_the_declared_games_by_kind() -> None:
    games = play_match(SKAT)
    report = summarize(SKAT, games)
    for name, f in report["by_name"].items():
        kinds = f["by_game"]
        assert sum(k["declared"] for k in kinds.values()) == f["declared"], name
        assert sum(k["won"] for k in kinds.values()) == f["declarer_won"], name
        for k in kinds.values():
            assert k["share"] == round(k["declared"] / f["games"], 4)
            assert k["win_rate"] == round(k["won"] / k["declared"], 4)
    assert report["by_name"]["easy"]["by_game"], "easy declares some games in 6 deals"
    for g in games:
        for r in g.seats:
            assert (r.game != "") == r.declared
    assert game_kind(SkatOutcome("game", (0, 0, 0), 0, GameType.NULL, hand=True,
                                 ouvert=True)) == "null ouvert hand"
    assert game_kind(SkatOutcome("game", (0, 0, 0), 1, GameType.HERZ)) == "suit"
    assert game_kind(SkatOutcome("game", (0, 0, 0), 2, GameType.GRAND, hand=True)) \
        == "grand hand"


def test_random_arena_interval_contains_the_pooled_mean() -> None:
    match = Match("skat", ("random", "random", "random"), deals=6, seed=3)
    games = play_match(match)
    report = summarize(match, games)
    f = report["by_name"]["random"]
    mean = sum(r.score for g in games for r in g.seats) / (3 * len(games))
    pg = f["per_game"]
    assert pg["low"] <= mean <= pg["high"]
    assert pg["mean"] == pytest.approx(mean, abs=1e-3)
    assert pg["n"] == 6 and f["games"] == 54  # three entries in 18 games
    assert report["difference"] is None  # one name: nothing to compare


def test_the_difference_is_paired_per_deal() -> None:
    games = play_match(SKAT)
    report = summarize(SKAT, games)
    per_deal: dict[int, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    for g in games:
        for r in g.seats:
            per_deal[g.deal][SKAT.bots[r.entry]].append(r.score)
    diffs = [sum(d["easy"]) / len(d["easy"]) - sum(d["random"]) / len(d["random"])
             for _, d in sorted(per_deal.items())]
    expect = interval(diffs)
    d = report["difference"]
    assert (d["a"], d["b"], d["n"]) == ("easy", "random", 6)
    assert d["mean"] == pytest.approx(expect.mean, abs=1e-3)
    assert d["low"] == pytest.approx(expect.low, abs=1e-3)


def test_baptisten_figures_count_rounds_and_exact_bids() -> None:
    report = run_match(BAPTISTEN)
    rounds = len(BaptistenRules(players=4, max_cards=4).schedule())
    easy = report["by_name"]["easy"]
    assert easy["rounds"] == BAPTISTEN.deals * 4 * rounds
    assert 0 <= easy["exact"] <= easy["rounds"]
    assert easy["bid_accuracy"] == pytest.approx(easy["exact"] / easy["rounds"], abs=1e-4)
    t = easy["time_ms"]
    assert easy["decisions"] > 0 and t["max"] >= t["p99"] >= t["median"]


def test_cli_json_has_the_figures() -> None:
    result = runner.invoke(app, ["arena", "skat", "--bots", "easy,random,random",
                                 "--deals", "3", "--seed", "2", "--jobs", "1", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["game"] == "skat" and report["games"] == 9
    easy = report["by_name"]["easy"]
    for key in ("per_game", "declared", "declarer_won", "declarer_win_rate", "by_game",
                "time_ms", "games", "decisions"):
        assert key in easy
    assert set(easy["per_game"]) == {"mean", "low", "high", "sd", "n"}
    assert [e["name"] for e in report["by_entry"]] == ["easy", "random", "random"]
    assert report["difference"]["a"] == "easy"


def test_cli_baptisten_json_and_table() -> None:
    args = ["arena", "baptisten", "--bots", "easy,random,random", "--deals", "2",
            "--max-cards", "3", "--jobs", "1"]
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["rules"] == "baptisten(preset=default,players=3,max_cards=3)"
    assert "bid_accuracy" in report["by_name"]["easy"]
    table = runner.invoke(app, [*args, "--lang", "en"], env={"COLUMNS": "120"})
    assert table.exit_code == 0, table.output
    assert "Bid exact" in table.stdout and "easy − random" in table.stdout


@pytest.mark.parametrize(("args", "en", "de"), [
    (["skat", "--bots", "easy,nobody,random"], "unknown bot 'nobody'",
     "Unbekannter Bot „nobody“"),
    (["skat", "--bots", "easy,random"], "Skat is played by three bots, not 2",
     "Skat spielen drei Bots, nicht 2"),
    (["skat", "--bots", "easy,random,random", "--deals", "0"], "at least 1, not 0",
     "mindestens 1 sein, nicht 0"),
    (["skat", "--bots", "easy,random,random", "--jobs", "0"], "jobs must be at least 1",
     "Prozesse muss mindestens 1"),
    (["baptisten", "--bots", "easy,random,random", "--players", "4"],
     "4 players need 4 bots, not 3", "4 Spieler brauchen 4 Bots, nicht 3"),
    (["skat", "--bots", ",", "--deals", "2"], "name the bots", "Nenne die Bots"),
    (["skat", "--bots", "py:no_such_module:bot,easy,easy"],
     "bot 'py:no_such_module:bot': No module named 'no_such_module'",
     "Bot „py:no_such_module:bot“: No module named"),
    (["skat", "--bots", "py:stich.bots:nothing,easy,easy"], "has no attribute 'nothing'",
     "has no attribute 'nothing'"),
    (["skat", "--bots", "py:random:Random,easy,easy"], "Random() returned no bot",
     "Random() returned no bot"),
    (["skat", "--bots", "py:stich.cards:Card,easy,easy"], "Card() failed: ",
     "Card() failed: "),
    (["skat", "--bots", "py:stich.bots,easy,easy"], "no module:factory",
     "no module:factory"),
])
def test_bad_input_is_a_clear_error_with_exit_status_2(args: list[str], en: str,
                                                       de: str) -> None:
    for lang, text in (("en", en), ("de", de)):
        result = runner.invoke(app, ["arena", *args, "--lang", lang])
        assert result.exit_code == 2, result.output
        first = result.stderr.strip().splitlines()[0]
        assert first.startswith("error: " if lang == "en" else "Fehler: "), first
        assert text in first, first
        assert result.stdout == ""


def test_match_refuses_what_it_cannot_play() -> None:
    with pytest.raises(ArgumentError) as e:
        Match("schafkopf", ("easy",) * 3, deals=1)
    assert e.value.code == "arena.game"
    with pytest.raises(ArgumentError):
        play_match(SKAT, jobs=0)


def test_easy_and_heuristic_are_the_same_bot() -> None:
    assert "easy" in BOTS and "easy" in BAPTISTEN_BOTS
    assert BOTS["easy"] is BOTS["heuristic"]
    assert BAPTISTEN_BOTS["easy"] is BAPTISTEN_BOTS["heuristic"]
    assert type(make_bot("easy")) is type(make_bot("heuristic"))
    assert type(make_baptisten_bot("easy")) is type(make_baptisten_bot("heuristic"))
    # … and they play the same games
    a = play_match(Match("skat", ("easy", "random", "random"), deals=2, seed=9))
    b = play_match(Match("skat", ("heuristic", "random", "random"), deals=2, seed=9))
    assert _fingerprint(a) == _fingerprint(b)


def test_the_arena_engine_needs_no_terminal_libraries() -> None:
    code = ("import sys, stich.arena; "
            "print(','.join(sorted(m for m in sys.modules "
            "if m.split('.')[0] in ('typer', 'rich', 'click') or m.startswith('stich.cli'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == ""


def test_a_bot_from_python_code_plays_like_the_same_bot_by_name() -> None:
    """``py:package.module:factory`` (a trained policy, say) is a bot like the named
    ones: the random bot given that way plays the very same games, in one process and
    in two."""
    named = Match("baptisten", ("random", "easy", "easy"), deals=3, seed=4)
    coded = Match("baptisten", ("py:stich.bots:BaptistenRandomBot", "easy", "easy"),
                  deals=3, seed=4)
    assert _fingerprint(play_match(named)) == _fingerprint(play_match(coded))
    assert _fingerprint(play_match(coded, jobs=2)) == _fingerprint(play_match(named))
    skat = Match("skat", ("py:stich.bots:RandomBot", "easy", "random"), deals=2, seed=1)
    assert _fingerprint(play_match(skat)) == _fingerprint(
        play_match(Match("skat", ("random", "easy", "random"), deals=2, seed=1)))


def test_skat_inference_measures_strongs_belief_by_trick(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    from stich.bots.strong import SkatStrongBot

    # a quick strong (few worlds, no clock): the measure does not depend on its time
    monkeypatch.setitem(BOTS, "strong", lambda: SkatStrongBot(
        0.01, min_worlds=2, max_worlds=2, timer=lambda: 0.0))
    args = ["arena", "skat", "--bots", "strong,easy,easy", "--deals", "2", "--seed", "3",
            "--jobs", "1", "--json"]
    plain = json.loads(runner.invoke(app, args).stdout)
    assert "inference" not in plain
    result = runner.invoke(app, [*args, "--inference"])
    assert result.exit_code == 0, result.output
    inf = json.loads(result.stdout)["inference"]
    rows = inf["by_trick"]
    assert inf["bot"] == "strong" and inf["decisions"] == sum(r["decisions"] for r in rows)
    assert inf["decisions"] > 0 and [r["trick"] for r in rows] == sorted(
        {r["trick"] for r in rows})
    for r in rows:
        # log P of the truth: never above 0; uniform is −log of the worlds that agree
        assert r["uniform"] < 0 or r["trick"] == 9
        assert r["weighted"] <= 0 and r["gain_low"] <= r["gain"] <= r["gain_high"]
    # the same games with and without the measure (it draws from its own random source)
    def no_times(by_name: dict[str, dict[str, object]]) -> dict[str, object]:
        return {k: {f: x for f, x in v.items() if f != "time_ms"} for k, v in by_name.items()}

    assert no_times(json.loads(result.stdout)["by_name"]) == no_times(plain["by_name"])
    text = runner.invoke(app, [*args[:-1], "--inference", "--lang", "en"])
    assert "strong's belief in the true cards" in text.stdout


def test_skat_calibration_compares_strongs_chances_with_its_results(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from stich.bots.strong import SkatStrongBot

    monkeypatch.setitem(BOTS, "strong", lambda: SkatStrongBot(
        0.01, min_worlds=2, max_worlds=2, timer=lambda: 0.0))
    match = Match("skat", ("strong", "easy", "easy"), deals=4, seed=5)
    games = play_match(match)
    report = summarize(match, games)
    cal = report["calibration"]
    assert set(cal) == {"strong"}  # easy keeps no estimates
    declared = [r for g in games for r in g.seats if r.entry == 0 and r.declared]
    assert declared and cal["strong"]["games"] == len(declared)
    for phase in ("bid", "declare"):
        rows = cal["strong"][phase]
        assert sum(r["games"] for r in rows) == sum(
            1 for r in declared for ph, _ in r.estimates if ph == phase)
        assert sum(r["won"] for r in rows) == sum(
            r.won for r in declared for ph, _ in r.estimates if ph == phase)
        for r in rows:
            assert r["low"] <= r["mean_chance"] <= r["high"]
    assert all(ph in ("bid", "declare") and 0 <= p <= 1
               for r in declared for ph, p in r.estimates)
    text = runner.invoke(app, ["arena", "skat", "--bots", "strong,easy,easy", "--deals", "2",
                               "--seed", "5", "--jobs", "1", "--lang", "en"])
    assert "Mean chance" in text.stdout and "declaration" in text.stdout


def test_baptisten_calibration_compares_strongs_bid_chances_with_exact_bids(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from stich.bots.baptisten_strong import BaptistenStrongBot

    monkeypatch.setitem(BAPTISTEN_BOTS, "strong", lambda: BaptistenStrongBot(
        0.01, min_worlds=3, max_worlds=3, timer=lambda: 0.0))
    match = Match("baptisten", ("strong", "easy", "easy"), deals=2, seed=3,
                  rules=BaptistenRules(players=3, max_cards=4))
    games = play_match(match)
    cal = summarize(match, games)["calibration"]
    assert set(cal) == {"strong"}  # easy keeps no estimates
    seats = [r for g in games for r in g.seats if r.entry == 0]
    rows = cal["strong"]["bid"]
    # every round has a chance, but those where one bid was all that was allowed
    assert sum(r["games"] for r in rows) == sum(len(r.chances) for r in seats)
    assert 0 < sum(len(r.chances) for r in seats) <= sum(r.rounds for r in seats)
    assert sum(r["won"] for r in rows) == sum(hit for r in seats for _, hit in r.chances)
    assert sum(hit for r in seats for _, hit in r.chances) <= sum(r.exact for r in seats)
    for r in rows:
        assert r["low"] <= r["mean_chance"] <= r["high"] and 0 <= r["won"] <= r["games"]
    text = runner.invoke(app, ["arena", "baptisten", "--bots", "strong,easy,easy",
                               "--players", "3", "--max-cards", "3", "--deals", "1",
                               "--seed", "3", "--jobs", "1", "--lang", "de"])
    assert text.exit_code == 0, text.output
    assert "Ansage" in text.stdout and "Mittlere Chance" in text.stdout


def test_baptisten_inference_measures_what_the_bids_tell_strong(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from stich.bots.baptisten_strong import BaptistenStrongBot

    monkeypatch.setitem(BAPTISTEN_BOTS, "strong", lambda: BaptistenStrongBot(
        0.01, min_worlds=2, max_worlds=2, timer=lambda: 0.0))
    match = Match("baptisten", ("strong", "easy", "easy", "easy"), deals=1, seed=4,
                  rules=BaptistenRules(players=4, max_cards=5), inference=True)
    games = play_match(match)
    inf = summarize(match, games)["inference"]
    # a card decision of strong in every round of two or more cards, in every rotation
    seats = [r for g in games for r in g.seats if r.entry == 0]
    assert inf["decisions"] == sum(len(r.gains) for r in seats) > 0
    assert all(r.gains == [] for g in games for r in g.seats if r.entry != 0)
    assert {row["cards"] for row in inf["by_cards"]} == {2, 3, 4, 5}
    assert sum(row["decisions"] for row in inf["by_cards"]) == inf["decisions"]
    assert inf["mean_gain"] > 0  # easy bids by its cards: the weights know something
    plain = summarize(Match("baptisten", match.bots, 1, 4,
                            rules=match.rules), games)
    assert "inference" not in plain
