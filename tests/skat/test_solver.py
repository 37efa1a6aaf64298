"""The double-dummy solver: the 11,096 solved positions of ``tests/data/validation/skat-dd``,
both engines, the yes/no questions, card values, mid-trick positions and Null, each
checked against the data or against the independent brute force of ``bruteforce.py``;
and ``stich solve``.

The compiled core must agree with every one of the 11,096 positions.  The pure-Python
search is much slower, so it is checked on fixed, evenly spread subsets of the small
files (their sizes are in ``PYTHON_SUBSETS``), each position against the data and the
compiled core.
"""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from stich.cli import app
from stich.core import ArgumentError, RecordError
from stich.messages import GameName
from stich.skat import solver
from stich.skat.ddformat import DDPosition, format_line, parse_line, read_positions
from stich.skat.rules import GameType
from stich.skat.solver import (
    HAVE_C,
    Position,
    SearchLimit,
    card_values,
    null_won,
    reaches,
    solve,
    takes_all,
)
from tests.validation import REPO, validation_dir

from ..refusals import refused
from . import bruteforce as bf

DD = validation_dir() / "skat-dd"
FILES = {"one_cards.txt": 1500, "two_cards.txt": 1500, "three_cards.txt": 1500,
         "four_cards.txt": 1500, "five_cards.txt": 1500, "six_cards.txt": 1500,
         "seven_cards.txt": 1500, "eight_cards.txt": 150, "nine_cards.txt": 150,
         "ten_cards.txt": 150, "full_game.txt": 150}
NULL_FILE = REPO / "tests" / "data" / "null_positions.txt"
# positions per file for the pure-Python search (every k-th line, spread over the file)
PYTHON_SUBSETS = {"one_cards.txt": 1500, "two_cards.txt": 1500, "three_cards.txt": 1500,
                  "four_cards.txt": 750, "five_cards.txt": 300, "six_cards.txt": 150,
                  "seven_cards.txt": 30}
ENGINES = ["c", "python"] if HAVE_C else ["python"]
SUIT_AND_GRAND = bf.TRUMP_GAMES

needs_c = pytest.mark.skipif(not HAVE_C, reason="the compiled core is not built "
                             "(CI sets STICH_REQUIRE_C=1, which makes that an error)")


def load(name: str) -> list[DDPosition]:
    return list(read_positions(DD / name))


def spread(items: list[DDPosition], n: int) -> list[DDPosition]:
    """``n`` items evenly spread over the list (all of them if it is not longer)."""
    if n >= len(items):
        return items
    step = len(items) / n
    return [items[int(i * step)] for i in range(n)]


# --- the build --------------------------------------------------------------------------


def test_compiled_core_is_built_when_required() -> None:
    """CI exports STICH_REQUIRE_C=1: there the compiled core must really be in use."""
    if os.environ.get("STICH_REQUIRE_C") == "1":
        assert HAVE_C, "STICH_REQUIRE_C=1 but stich.skat._dds is not built"


def test_pure_python_switch_keeps_the_compiled_core_out(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    class Trap:
        def search(self, *args: object) -> tuple[int, int]:
            raise AssertionError("the compiled core was called")

    monkeypatch.setattr(solver, "_c", Trap())
    monkeypatch.setenv("STICH_PURE_PYTHON", "1")
    d = load("three_cards.txt")[0]
    assert solve(d.position) + d.skat_points == d.expected
    monkeypatch.delenv("STICH_PURE_PYTHON")
    with pytest.raises(AssertionError, match="compiled core was called"):
        solve(d.position)


def test_unknown_engine_is_refused() -> None:
    d = load("one_cards.txt")[0]
    with refused("skat.solver.unknown_engine", ArgumentError, engine="java") as e:
        solve(d.position, engine="java")
    assert str(e.value) == "engine must be auto, c or python, not 'java'"


# --- the validation data ----------------------------------------------------------------


def test_the_data_has_11100_positions() -> None:
    """The data's README and the issue say 11,096: that is what ``cat *.txt | wc -l``
    counts, because the four 150-line files end without a newline, so that ``cat`` joins
    their last line to the next file's first.  The files hold 11,100 positions (11,099
    different lines: ``one_cards.txt`` has one line twice)."""
    counts = {name: len(load(name)) for name in FILES}
    assert counts == FILES
    assert sum(counts.values()) == 11_100


@needs_c
@pytest.mark.parametrize("name", list(FILES))
def test_compiled_core_agrees_with_every_position(name: str) -> None:
    wrong = []
    for d in load(name):
        v = solve(d.position, "c") + d.skat_points
        if v != d.expected:
            wrong.append((d.line_no, v, d.expected))
    assert wrong == [], f"{name}: (line, ours, data) {wrong[:10]}"


@pytest.mark.parametrize("name", list(PYTHON_SUBSETS))
def test_python_search_agrees_with_data_and_compiled_core(name: str) -> None:
    positions = spread(load(name), PYTHON_SUBSETS[name])
    assert len(positions) == PYTHON_SUBSETS[name]
    for d in positions:
        v = solve(d.position, "python")
        assert v + d.skat_points == d.expected, (name, d.line_no)
        if HAVE_C:
            assert solve(d.position, "c") == v, (name, d.line_no)


@pytest.mark.parametrize("name", ["one_cards.txt", "two_cards.txt", "three_cards.txt"])
def test_data_agrees_with_brute_force(name: str) -> None:
    """An independent check of the data itself on the smallest files: every position."""
    for d in load(name):
        p = d.position
        assert bf.points(p.game, p.hands, 0, p.to_move) + d.skat_points == d.expected, (
            name, d.line_no)


# --- the yes/no questions and card values -----------------------------------------------


@pytest.mark.parametrize("engine", ENGINES)
def test_reaches_is_consistent_with_solve(engine: str) -> None:
    positions = (spread(load("four_cards.txt"), 60) + spread(load("five_cards.txt"), 30)
                 + spread(load("six_cards.txt"), 10))
    rng = random.Random(1)
    for d in positions:
        p = d.position
        v = solve(p, engine)
        targets = {v - 1, v, v + 1, 0, 1, 61 - d.skat_points, p.points_in_play,
                   p.points_in_play + 1, rng.randrange(p.points_in_play + 2)}
        for t in sorted(targets):
            assert reaches(p, t, engine) == (t <= v), (d.line_no, t, v)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_node_limit_gives_up_or_gives_the_exact_answer(engine: str) -> None:
    """With ``nodes=`` a question either gives the same answer as without a limit or
    raises SearchLimit; a tiny limit gives up on full deals, a generous one never on
    small positions; and a search that gave up leaves nothing behind that changes the
    next answer."""
    full = spread(load("full_game.txt"), 12 if engine == "c" else 3)
    small = spread(load("three_cards.txt"), 40)
    gave_up = 0
    for d in full:
        p = d.position
        target = 61 - d.skat_points
        with pytest.raises(SearchLimit):
            reaches(p, target, engine, nodes=5)
        try:
            got = reaches(p, target, engine, nodes=2000)
        except SearchLimit:
            gave_up += 1
        else:
            assert got == (d.expected >= target), d.line_no
        # after giving up, the same question without a limit is still exact
        assert reaches(p, target, engine) == (d.expected >= target), d.line_no
        with pytest.raises(SearchLimit):
            takes_all(p, engine, nodes=1)
        null = Position(GameType.NULL, p.hands, p.declarer, p.to_move, p.trick)
        with pytest.raises(SearchLimit):
            null_won(null, engine, nodes=1)
    assert gave_up >= 1
    for d in small:
        p = d.position
        for t in (d.expected, d.expected + 1):
            assert reaches(p, t, engine, nodes=100_000) == (t <= d.expected), d.line_no


@pytest.mark.parametrize("engine", ENGINES)
def test_takes_all_agrees_with_brute_force(engine: str) -> None:
    rng = random.Random(2)
    seen = {True: 0, False: 0}
    for i in range(400):
        game = SUIT_AND_GRAND[i % 5]
        hands, declarer, to_move, trick = bf.random_position(rng, game, 1 + i % 4, i % 3)
        p = Position(game, hands, declarer, to_move, trick)
        expected = bf.takes_all(game, hands, declarer, to_move, trick)
        assert takes_all(p, engine) == expected, p
        seen[expected] += 1
        if expected:
            assert solve(p, engine) == p.points_in_play
    assert min(seen.values()) >= 40, seen


@pytest.mark.parametrize("engine", ENGINES)
def test_takes_all_on_the_data(engine: str) -> None:
    for d in spread(load("three_cards.txt"), 300):
        p = d.position
        assert takes_all(p, engine) == bf.takes_all(p.game, p.hands, 0, p.to_move), d.line_no


def _best(pos: Position, values: dict[int, int]) -> int:
    return max(values.values()) if pos.to_move == pos.declarer else min(values.values())


@pytest.mark.parametrize("engine", ENGINES)
def test_card_values_best_is_the_solution(engine: str) -> None:
    positions = [d.position for d in spread(load("five_cards.txt"), 40)]
    rng = random.Random(3)
    for i in range(150):  # mid-trick positions too, every seat as declarer
        game = SUIT_AND_GRAND[i % 5]
        hands, declarer, to_move, trick = bf.random_position(rng, game, 2 + i % 3, i % 3)
        positions.append(Position(game, hands, declarer, to_move, trick))
    for p in positions:
        values = card_values(p, engine)
        legal = bf.legal(p.game, p.hands[p.to_move], list(p.trick))
        assert sorted(values) == legal
        assert _best(p, values) == solve(p, engine), p


# --- mid-trick positions against plain minimax ------------------------------------------


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("trick_len", [0, 1, 2])
def test_solve_agrees_with_plain_minimax(engine: str, trick_len: int) -> None:
    rng = random.Random(10 + trick_len)
    for i in range(150):
        game = SUIT_AND_GRAND[i % 5]
        cards = 1 + i % 3 + (trick_len > 0)  # 1..3 cards, plus the one played
        hands, declarer, to_move, trick = bf.random_position(rng, game, cards, trick_len)
        p = Position(game, hands, declarer, to_move, trick)
        assert solve(p, engine) == bf.points(game, hands, declarer, to_move, trick), p


@pytest.mark.parametrize("engine", ENGINES)
def test_solve_agrees_with_minimax_on_four_cards(engine: str) -> None:
    rng = random.Random(20)
    for i in range(40):
        game = SUIT_AND_GRAND[i % 5]
        hands, declarer, to_move, trick = bf.random_position(rng, game, 4, i % 3)
        p = Position(game, hands, declarer, to_move, trick)
        assert solve(p, engine) == bf.points(game, hands, declarer, to_move, trick,
                                             memo=True), p


def _leader_draws_trumps(game: GameType, hands: tuple[int, int, int], leader: int) -> bool:
    """Whether the seat on lead holds at least as many trumps above all other trumps as
    any other seat holds trumps (then it can draw every trump and cash side cards)."""
    t = solver.TABLES[game]
    others = (hands[(leader + 1) % 3] | hands[(leader + 2) % 3]) & t.trump
    best_other = max((t.strength[c] for c in range(32) if others >> c & 1), default=-1)
    top = sum(1 for c in range(32) if hands[leader] >> c & 1 and t.trump >> c & 1
              and t.strength[c] > best_other)
    return top > 0 and all(bin(hands[s] & t.trump).count("1") <= top
                           for s in range(3) if s != leader)


@pytest.mark.parametrize("engine", ENGINES)
def test_solve_where_the_leader_can_draw_every_trump(engine: str) -> None:
    """The compiled core's bounds count the sure tricks of the seat on lead (its top
    trumps, then its top side cards once the trumps are drawn): positions built for that,
    declarer and defender on lead, against plain minimax."""
    rng = random.Random(40)
    by_role = {True: 0, False: 0}
    while min(by_role.values()) < 25:
        game = SUIT_AND_GRAND[rng.randrange(5)]
        hands, declarer, to_move, trick = bf.random_position(rng, game, 4, 0)
        if not _leader_draws_trumps(game, hands, to_move):
            continue
        role = to_move == declarer
        if by_role[role] >= 25:
            continue
        by_role[role] += 1
        p = Position(game, hands, declarer, to_move, trick)
        assert solve(p, engine) == bf.points(game, hands, declarer, to_move, trick,
                                             memo=True), p


def test_minimax_reference_knows_the_rules() -> None:
    """The brute force's own rules on tricks whose winner is known."""
    from stich.cards import Card

    def w(game: GameType, cards: str) -> int:
        return bf.trick_winner(game, [Card.parse(c).index for c in cards.split()])

    assert w(GameType.GRAND, "HA H9 DJ") == 2  # a Jack is trump in Grand
    assert w(GameType.GRAND, "DJ CJ SA") == 1
    assert w(GameType.HERZ, "SA S7 H7") == 2  # the lowest trump beats the Ass
    assert w(GameType.HERZ, "HJ HA CJ") == 2
    assert w(GameType.SCHELLEN, "ST SK SA") == 2
    assert w(GameType.EICHEL, "SA CT SK") == 1
    assert w(GameType.NULL, "HT HJ H9") == 1  # Null: Bube above 10
    assert w(GameType.NULL, "H7 CA DJ") == 0  # Null: no trumps
    assert w(GameType.NULL, "DK DQ DA") == 2


# --- Null ---------------------------------------------------------------------------------


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("trick_len", [0, 1, 2])
def test_null_won_agrees_with_brute_force(engine: str, trick_len: int) -> None:
    rng = random.Random(30 + trick_len)
    seen = {True: 0, False: 0}
    for i in range(300):
        cards = 1 + i % 4 + (trick_len > 0)  # 1..4 cards, plus the one played
        hands, declarer, to_move, trick = bf.random_position(rng, GameType.NULL, cards,
                                                             trick_len)
        p = Position(GameType.NULL, hands, declarer, to_move, trick)
        expected = bf.null_won(GameType.NULL, hands, declarer, to_move, trick, memo=True)
        assert null_won(p, engine) == expected, p
        seen[expected] += 1
    assert min(seen.values()) >= 30, seen


@pytest.mark.parametrize("engine", ENGINES)
def test_null_card_values(engine: str) -> None:
    rng = random.Random(40)
    for i in range(150):
        hands, declarer, to_move, trick = bf.random_position(rng, GameType.NULL, 2 + i % 3,
                                                             i % 3)
        p = Position(GameType.NULL, hands, declarer, to_move, trick)
        values = card_values(p, engine)
        assert set(values.values()) <= {0, 1}
        assert _best(p, values) == int(null_won(p, engine)), p


def test_null_positions_file_agrees_with_brute_force() -> None:
    """Our own Null positions (the skat-dd format with game 5): the stored results are
    the brute force's."""
    positions = list(read_positions(NULL_FILE))
    assert len(positions) == 240
    assert sum(d.expected for d in positions) == 120
    for d in positions:
        p = d.position
        assert d.is_null and p.declarer == 0
        assert d.expected == int(bf.null_won(GameType.NULL, p.hands, 0, p.to_move, memo=True)
                                 ), d.line_no


@pytest.mark.parametrize("engine", ENGINES)
def test_null_positions_file(engine: str) -> None:
    for d in read_positions(NULL_FILE):
        assert null_won(d.position, engine) == bool(d.expected), d.line_no


def test_card_point_questions_refuse_null() -> None:
    p = Position(GameType.NULL, (1, 2, 4), declarer=0, to_move=0)
    with refused("skat.solver.null_points", ArgumentError):
        solve(p)
    with refused("skat.solver.null_tricks", ArgumentError):
        takes_all(p)
    with refused("skat.solver.null_points", ArgumentError):
        reaches(p, 1)
    with refused("skat.solver.not_null", ArgumentError, game=GameName("grand")) as e:
        null_won(Position(GameType.GRAND, (1, 2, 4), declarer=0, to_move=0))
    assert str(e.value) == "null_won is for Null games, not Grand"


def test_positions_that_do_not_fit_are_refused() -> None:
    with refused("skat.solver.trick_size", ArgumentError, n=3):
        Position(GameType.GRAND, (1, 2, 4), declarer=0, to_move=0, trick=(3, 4, 5))
    with refused("skat.solver.hand_sizes", ArgumentError, sizes="1, 2, 1", n=0) as e:
        Position(GameType.GRAND, (1, 6, 8), declarer=0, to_move=0)
    assert str(e.value) == "hand sizes 1, 2, 1 do not fit a trick of 0 cards"
    assert e.value.text("de") == "Die Handgrößen 1, 2, 1 passen nicht zu einem Stich mit 0 Karten"
    with refused("skat.solver.ramsch", ArgumentError):
        Position(GameType.RAMSCH, (1, 2, 4), declarer=0, to_move=0)


# --- the line format ----------------------------------------------------------------------


def test_null_lines_round_trip() -> None:
    for line in NULL_FILE.read_text().splitlines()[:20]:
        d = parse_line(line)
        assert format_line(d.position, d.skat, d.expected) == line


@pytest.mark.parametrize("line, code, message", [
    ("1,2,3", "skat.dd.fields", "7 comma-separated"),
    ("1,2,x,0,0,0,0", "skat.dd.numbers", "numbers"),
    ("16,134217728,16384,0,3,0,15", "skat.dd.leader_game", "leader"),
    ("16,134217728,16384,0,0,6,15", "skat.dd.leader_game", "game"),
    ("-1,134217728,16384,0,0,0,15", "skat.dd.mask", "32-bit"),
    ("16,16,16384,0,0,0,15", "skat.dd.card_twice", "two hands"),
    ("16,134217728,16384,16,0,0,15", "skat.dd.card_twice", "two hands"),
    ("16,134217728,16385,0,0,0,15", "skat.dd.position", "hand sizes"),
    ("16,134217728,16384,0,0,5,2", "skat.dd.null_result", "0 or 1"),
])
def test_bad_lines_are_refused(line: str, code: str, message: str) -> None:
    with refused(code, RecordError, line=7) as e:
        parse_line(line, 7)
    assert message in str(e.value)
    assert str(e.value).startswith("line 7:")
    assert e.value.text("de").startswith("Zeile 7:")


# --- stich solve ----------------------------------------------------------------------------

runner = CliRunner()
SUMMARY = re.compile(r"(\d+) positions: (\d+) agree, median (\d+\.\d+) ms, "
                     r"p95 (\d+\.\d+) ms, max (\d+\.\d+) ms")


def invoke(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["solve", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        result.output, result.exception)
    return result.exit_code, result.stdout, result.stderr


def test_cli_all_agree() -> None:
    code, out, err = invoke(str(DD / "two_cards.txt"), str(DD / "five_cards.txt"),
                            "--limit", "100")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert len(lines) == 1
    m = SUMMARY.fullmatch(lines[0])
    assert m, lines
    assert m.group(1) == m.group(2) == "200"
    median, p95, worst = (float(m.group(i)) for i in (3, 4, 5))
    assert 0 <= median <= p95 <= worst


@pytest.mark.parametrize("engine", ENGINES)
def test_cli_engines_and_null_file(engine: str) -> None:
    code, out, _ = invoke(str(NULL_FILE), str(DD / "three_cards.txt"), "--limit", "50",
                          "--engine", engine)
    assert code == 0
    assert SUMMARY.fullmatch(out.strip())
    assert out.startswith("100 positions: 100 agree, ")


def test_cli_reports_a_wrong_line(tmp_path: Path) -> None:
    lines = (DD / "four_cards.txt").read_text().splitlines()[:4]
    fields = lines[2].split(",")
    right = int(fields[6])
    fields[6] = str(right + 5)
    lines[2] = ",".join(fields)
    null = NULL_FILE.read_text().splitlines()[0].split(",")
    null[6] = str(1 - int(null[6]))
    lines.append(",".join(null))
    f = tmp_path / "wrong.txt"
    f.write_text("\n".join(lines) + "\n")
    code, out, err = invoke(str(f))
    assert code == 1 and err == ""
    got = out.splitlines()
    game = parse_line(lines[2]).position.game
    assert got[0] == f"{f}:3: ours {right}, file {right + 5} ({game}, leader {fields[4]})"
    assert got[1].startswith(f"{f}:5: ours ") and got[1].endswith("(Null)")
    assert len(got) == 3
    assert SUMMARY.fullmatch(got[2]) and got[2].startswith("5 positions: 3 agree,")


def test_cli_unreadable_line_and_file(tmp_path: Path) -> None:
    good = (DD / "one_cards.txt").read_text().splitlines()[0]
    f = tmp_path / "bad.txt"
    f.write_text(f"{good}\nthis is no position\n\n{good}\n")
    code, out, err = invoke(str(f), str(tmp_path / "missing.txt"))
    assert code == 1
    assert out.splitlines() == [out.splitlines()[-1]]
    assert out.startswith("2 positions: 2 agree, ")
    assert f"Fehler: {f}: Zeile 2: 7 durch Kommas getrennte Zahlen erwartet, nicht 1" in err
    assert f"Fehler: die Datei {tmp_path / 'missing.txt'} gibt es nicht" in err
    assert "Traceback" not in out + err
    code, out, err = invoke(str(f), str(tmp_path / "missing.txt"), "--lang", "en")
    assert code == 1 and out.startswith("2 positions: 2 agree, ")
    assert err.splitlines() == [
        f"error: {f}: line 2: expected 7 comma-separated numbers, got 1",
        f"error: there is no file {tmp_path / 'missing.txt'}",
    ]


def test_cli_limit_and_bad_options() -> None:
    code, out, _ = invoke(str(DD / "one_cards.txt"), "--limit", "7")
    assert code == 0 and out.startswith("7 positions: 7 agree, ")
    code, _, err = invoke(str(DD / "one_cards.txt"), "--engine", "java")
    assert code == 2 and "java" in err
    code, _, err = invoke(str(DD / "one_cards.txt"), "--limit", "0")
    assert code == 2


def test_cli_engine_c_without_the_core(monkeypatch: pytest.MonkeyPatch) -> None:
    import stich.cli.solve as cli_solve

    monkeypatch.setattr(cli_solve, "HAVE_C", False)
    code, out, err = invoke(str(DD / "one_cards.txt"), "--engine", "c", "--lang", "en")
    assert code == 1 and out == ""
    assert err.startswith("error: the compiled solver core stich.skat._dds is not built")
    code, out, err = invoke(str(DD / "one_cards.txt"), "--engine", "c")
    assert code == 1 and err.startswith("Fehler: Der kompilierte Kern des Lösers")


def test_cli_help() -> None:
    result = runner.invoke(app, ["solve", "--help"])
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    assert "N positions: M agree, median X ms, p95 Y ms, max Z ms" in text
    assert "--engine" in text and "--limit" in text


def test_summary_line_percentiles() -> None:
    from stich.cli.solve import summary_line

    times = [float(i) for i in range(1, 101)]  # 1..100 ms
    assert summary_line(times, 99) == (
        "100 positions: 99 agree, median 50.5 ms, p95 95.0 ms, max 100.0 ms")
    assert summary_line([0.25], 1) == "1 positions: 1 agree, median 0.25 ms, p95 0.25 ms, " \
                                      "max 0.25 ms"


def test_compiled_core_is_safe_to_call_from_threads() -> None:
    """Concurrent searches must not share one transposition table mid-search."""
    import threading

    assert HAVE_C or os.environ.get("STICH_REQUIRE_C") != "1"
    if not HAVE_C:
        return
    positions = [p.position for p in
                 list(read_positions(validation_dir() / "skat-dd" / "eight_cards.txt"))[:8]]
    games = [GameType.GRAND, GameType.EICHEL, GameType.GRUEN, GameType.HERZ]
    expected = {(i, g): solve(Position(g, p.hands, p.declarer, p.to_move), "c")
                for i, p in enumerate(positions) for g in games}
    got: dict[tuple[int, GameType], int] = {}

    def work(g: GameType) -> None:
        for i, p in enumerate(positions):
            got[(i, g)] = solve(Position(g, p.hands, p.declarer, p.to_move), "c")

    threads = [threading.Thread(target=work, args=(g,)) for g in games]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == expected
