"""Every benchmark script a reader runs, as a reader runs it (``python -m
bench.<kind>.<name>`` from the repository root):

- each kind's folder (``bench/speed``, ``bench/tuning``, ``bench/soak``) holds its
  scripts and nothing else; no script puts a folder on ``sys.path``; the README and
  ``docs/`` name only scripts that are there, and only as modules or by their path;
- every script's ``--help`` lists the options it has always had (in this process when
  the script is started with ``-m`` by another test);
- a tiny run of every speed script and every tuning script (but ``skat_giveups``, whose
  smallest run re-solves positions for minutes) prints its figures, down to the last
  line.  (``server_setup``, ``env_steps``, ``baptisten_cost`` and the soak script
  ``server_outage`` have tests of their own, which check their figures more closely.)

The figures themselves are checked by their form only: they depend on the machine and,
for the tuning scripts, on the bots' settings of the day.
"""

from __future__ import annotations

import re
import runpy
import sys
from pathlib import Path

import pytest

from . import KINDS, ROOT, SPEED, TUNING, module_of, run

OPTIONS = {
    "baptisten_bid_model": "--games --max-cards --players",
    "baptisten_cost": "--n --players --quick --seconds --seed --states",
    "baptisten_inference": "--floor --games --max-cards --players --samples --seed --sigma",
    "baptisten_playouts": "--rounds --seconds --seed",
    "baptisten_strong": "--bid-factor --budget --deals --max-cards --players --seed",
    "baptisten_strong_ab": "--a --b --deals --jobs --max-cards --players --rules --seed "
                           "--worlds",
    "dds": "--engine --file --limit --python --python-count",
    "env_steps": "--batch --rounds --seconds --seed",
    "ohhell_ismcts": "--bot --deals --json --resampler --seed --sims --tricks",
    "ratings": "--bots --games --load --save --seed --seeds --series --worlds",
    "server_abuse": "--attack --pace --python --seconds",
    "server_crash": "--bot-tables --db --games --kills --seed",
    "server_leaks": "--db --games --parallel --seed",
    "server_load": "--api-only --db --find-max --nice --phases --procs --rate --seconds "
                   "--seed --series --skat-rules --skat-share --step --step-seconds --tables "
                   "--tournament --tournament-size --warmup --ws-compression",
    "server_outage": "--kinds --outage --runs --watch",
    "server_setup": "--db --repeat --tables",
    "server_start": "--heavy-actions --heavy-tables --live --runs --top",
    "skat_giveups": "--deals --jobs --seed",
    "skat_inference": "--bots --deals --jobs --json --no-passes --passes --rules --samples "
                      "--seed",
    "skat_kontra": "--deals --jobs --rules --seed --worlds",
    "skat_null": "--badness --deals --defenders --jobs --rules --seed --worlds",
    "skat_playouts": "--rounds --seconds --seed",
    "skat_ramsch": "--deals --jobs --seed --worlds",
    "skat_strong": "--budget --deals --jobs --no-infer --optimism --part --preset --seed "
                   "--verbose --worlds",
    "skat_strong_ab": "--a --b --deals --jobs --rules --seed --whole --worlds",
    "tournament_page": "--against --players --repeat --waves",
}
"""Each script's options, as they were when ``bench/`` became a package."""

NUMBER = r"[+-]?[\d,]+(?:\.\d+)?"
RATIO = rf"^stich/openspiel games per second ratio: {NUMBER}$"
INTERVAL = rf"\(95 % interval ({NUMBER}) \.\. ({NUMBER})\)"

RUNS: dict[str, tuple[list[str], list[str]]] = {
    # speed (server_setup, env_steps, baptisten_cost: in their own tests)
    "skat_playouts": (["--seconds", "0.05", "--rounds", "1"], [
        rf"^stich skat \(lothar\): \d+ games, {NUMBER} games per second$",
        rf"^openspiel skat: \d+ games, {NUMBER} games per second$", RATIO]),
    "baptisten_playouts": (["--seconds", "0.05", "--rounds", "1"], [
        rf"^stich baptisten \(4 players, N=10, elferraus, whole games\): \d+ games, "
        rf"{NUMBER} games per second$",
        rf"^stich ohhell \(4 players, 1\.\.12 tricks, single rounds\): \d+ games, {NUMBER} "
        "games per second$",
        rf"^openspiel oh_hell \(players=4\): \d+ games, {NUMBER} games per second$", RATIO]),
    "dds": (["--limit", "3"], [
        r"full_game\.txt: 3 positions$",
        rf"^exact value:  median {NUMBER} ms, p95 {NUMBER} ms, max {NUMBER} ms, total "
        rf"{NUMBER} s; 3/3 exact$",
        rf"^exact/61 ratio: {NUMBER} \(medians\), {NUMBER} \(totals\)$",
        r"^targets: median <= 10 ms (NOT )?met; p95 <= 100 ms (NOT )?met; max <= 400 ms "
        r"(NOT )?met; 61-question >= 3x faster (NOT )?met; every value exact met$"]),
    "server_load": (["--tables", "2", "--seconds", "1", "--warmup", "0.5"], [
        r"^server \(pid \d+\) ready in [\d.]+ s on sqlite; RSS \d+ MB$",
        rf"^latency   action -> event at every client of its table: p50 {NUMBER} ms, p99 "
        rf"{NUMBER} ms \(target p99 <= 50 ms: (NOT )?met\)$",
        rf"CPU per action = {NUMBER} reference workloads",
        rf"^machine   the disk's fsync of 4 KB meanwhile: p50 {NUMBER} ms, p99 {NUMBER} ms "
        rf".* event-loop lag p99 {NUMBER} ms$"]),
    "server_start": (["--runs", "1", "--live", "1", "--heavy-tables", "1",
                      "--heavy-actions", "2", "--top", "2"], [
        r"^a new process importing \(median wall / CPU\): nothing \d+/\d+ ms, stich ",
        r"^ready, new SQLite database: +median +[\d.]+ s \(.*; 1 runs; under 2 s: (NOT )?met\)$",
        r"^ready, existing database, 1 live tables: +median ",
        r"^ready, 1 live tables, \d+ events: +median +[\d.]+ s \(min [\d.]+, max [\d.]+; CPU "
        r"[\d.]+ s; 1 runs; under 2 s: (NOT )?met\)$"]),
    "tournament_page": (["--players", "6", "--waves", "2", "--repeat", "1"], [
        r"^== the tournament page: 6 players, round 1 played; a wave = 3 pages \+ 3 looks",
        rf"^quiet +this tree +{NUMBER} ms$",
        rf"^changed +this tree +{NUMBER} ms$",
        rf"^ended +this tree +{NUMBER} ms$"]),
    # tuning
    "baptisten_bid_model": (["--games", "2", "--players", "3", "--max-cards", "3"], [
        r"^2 games of easy, 3 players, N = 3$",
        rf"^    3 +\d+ +{NUMBER} +{NUMBER} +{NUMBER}$",
        rf"^fitted sd = {NUMBER} \+ {NUMBER} \* cards; the bot uses {NUMBER} \+ {NUMBER} "
        r"\* cards$"]),
    "baptisten_inference": (["--games", "1", "--players", "3", "--max-cards", "3",
                             "--samples", "5"], [
        r"^1 games of easy, 3 players, N = 3; BID_SIGMA .*, 5 samples$",
        rf"^all +\d+ +{NUMBER} \({NUMBER} \.\. {NUMBER}\)$"]),
    "baptisten_strong": (["--deals", "1", "--players", "3", "--max-cards", "2",
                          "--budget", "0.01"], [
        rf"^bid exact: strong {NUMBER}%, easy {NUMBER}%$",
        rf"^strong - easy per game: {NUMBER} \(95 %: {NUMBER} \.\. {NUMBER}\)$",
        rf"^decision ms: median {NUMBER}, p99 {NUMBER}$"]),
    "baptisten_strong_ab": (["--deals", "1", "--players", "3", "--max-cards", "2",
                             "--worlds", "2", "--jobs", "1", "--b", '{"BID_FLOOR": 0.1}'], [
        r'^A = \{\}; B = \{"BID_FLOOR": 0\.1\}$',
        rf"^B - A, points per game: {NUMBER} {INTERVAL}$",
        rf"^B - A, exact bids, percentage points: {NUMBER} {INTERVAL}$",
        rf"^B: {NUMBER} points per game, bids exact {NUMBER}% \(\d+ of \d+\)",
        rf"^ +0\.\d-[01]\.\d: +\d+ bids, mean chance {NUMBER}, exact {NUMBER}$"]),
    "ohhell_ismcts": (["--deals", "1", "--sims", "2", "--tricks", "2", "--resampler", "fair"],
                      [r"^easy vs OpenSpiel IS-MCTS \(2 simulations\), ohhell with 2 tricks, "
                       r"1 deals, seed 1",
                       rf"^  resampler fair +easy {NUMBER}  IS-MCTS {NUMBER}  difference "
                       rf"{NUMBER} \[{NUMBER}, {NUMBER}\]  exact \d+% vs \d+%  IS-MCTS "
                       rf"{NUMBER} ms/move  {NUMBER} s$"]),
    "ratings": (["--games", "6", "--bots", "random,easy,easy"], [
        r"^6 games \(\d+ declared\) of random, easy, easy in \d+ s, seed 1",
        rf"^ +team: ordered and stayed .*; random {NUMBER} \(mu {NUMBER}, sigma {NUMBER}\), "
        rf"easy {NUMBER}",
        rf"^series: ordered and stayed .*; random {NUMBER} \(mu {NUMBER}, sigma "
        rf"{NUMBER}\), easy {NUMBER}"]),
    "skat_inference": (["--deals", "1", "--samples", "5", "--jobs", "1"], [
        rf"^ +\d +\d+ +{NUMBER} +{NUMBER}  {NUMBER} \({NUMBER} \.\. {NUMBER}\)$",
        rf"^all +\d+  mean gain {NUMBER}$"]),
    "skat_kontra": (["--deals", "1", "--worlds", "1", "--jobs", "1"], [
        r"^1 deals x 3 rotations, skat\(preset=lothar,kontra_re=yes,.*\), seed 1, strong 1 "
        r"worlds a decision, \d+ s$",
        rf"^strong - easy, list points per game: {NUMBER} {INTERVAL}$",
        r"^Kontra by strong: defenders won \d+/\d+",
        r"^Re by easy: declarer won \d+/\d+"]),
    "skat_null": (["--deals", "5", "--worlds", "1", "--jobs", "1"], [
        r"^5 deals, lothar, seed 1, hands with null_badness <= 3\.0: \d+, 1 worlds, "
        r"defenders easy",
        rf"^null ouvert hand: \d+ played, \d+ won \(\d+%\), {NUMBER} list points a game$",
        rf"^ +{NUMBER} \| +\d+ \| +\d+ \( *\d+%\) \| {NUMBER} \| {NUMBER}$"]),
    "skat_ramsch": (["--deals", "30", "--worlds", "2", "--jobs", "1"], [
        r"^30 deals, \d+ Ramsch, \d+ seat-games, 2 worlds, \d+ s$",
        rf"^played-out - rule-based: {NUMBER} {INTERVAL}$"]),
    "skat_strong": (["--deals", "1", "--budget", "0.01", "--worlds", "1", "--jobs", "1"], [
        rf"^strong - heuristic, list points per game: {NUMBER} {INTERVAL}$",
        r"^heuristic: declared \d of 3 games, won \d",
        rf"^strong decision time: median {NUMBER} ms, p99 {NUMBER} ms, max {NUMBER} ms "
        r"\(\d+ decisions\)$"]),
    "skat_strong_ab": (["--deals", "1", "--worlds", "1", "--jobs", "1", "--b",
                        '{"auction_optimism": 8}'], [
        r'A = \{\}; B = \{"auction_optimism": 8\}$',
        rf"^B - A, list points per game: {NUMBER} {INTERVAL}; the auction differed in \d "
        "of 3 games$",
        r"^B: [+-]\d+ list points, declared \d, won \d, lost with open cards too \(lost at "
        r"the bid\) \d$"]),
}
"""Per script: the tiny run's arguments, and what its output must show (each pattern
on a line of its own; the last one is the last line)."""

TOURNAMENT_RUN = (["--tournament", "--tables", "2", "--rate", "10", "--seconds", "1",
                   "--warmup", "0.5", "--phases", "2"], [
    r"^2 ordinary Skat tables and 2 tournament tables \(1 tournament\(s\) of 2 tables\), 12 "
    r"WebSocket clients, set up in ",
    rf"^phase 0 idle +nobody acts: server CPU {NUMBER}% of a core",
    rf"^phase 1 ordinary +done +{NUMBER} actions/s +tables playing +{NUMBER} +p50 +{NUMBER} ms +"
    r"p99 .* refused 0  stuck 0  series ended \(and set up anew\) \d+(, other pages \d+)?$",
    rf"^phase 2 tournament +done +{NUMBER} actions/s +tables playing +{NUMBER} +p50 +{NUMBER} ms +"
    r"p99 .* refused 0  stuck 0  series ended \d+, rounds started \d+, tournament page \d+ "
    r"loads \+ \d+ looks(, other pages \d+)?$",
    r"^pages     the players load the pages a browser loads: the lobby",
    rf"^ordinary tables: +{NUMBER} actions/s \({NUMBER} tables playing\), p50 {NUMBER} ms, "
    rf"p99 {NUMBER} ms, server CPU {NUMBER} ms/action, net {NUMBER} ms/action = {NUMBER} "
    r"reference workloads",
    rf"^tournament tables: +{NUMBER} actions/s \({NUMBER} tables playing\), p50 {NUMBER} "
    rf"ms, p99 {NUMBER} ms, server CPU {NUMBER} ms/action, net {NUMBER} ms/action = "
    rf"{NUMBER} reference workloads",
    rf"^ratio tournament/ordinary, server CPU per action: {NUMBER} net, {NUMBER} in all "
    r"\(one phase of each kind: no measure of the noise, .*\)$"])
"""``server_load --tournament`` (issue 43), tiny: both kinds of table set up on one
server, a phase with nobody acting, one phase of each kind, and their ratio."""

BY_OWN_TESTS = {"baptisten_cost", "env_steps", "server_setup"}
TOO_SLOW = {"skat_giveups"}


def test_each_kind_holds_its_scripts_and_nothing_else() -> None:
    for kind, names in KINDS.items():
        found = {p.stem for p in (ROOT / "bench" / kind).glob("*.py")} - {"__init__"}
        assert found == set(names), kind
    assert set(OPTIONS) == {name for names in KINDS.values() for name in names}


def test_no_script_changes_the_import_path() -> None:
    for path in (ROOT / "bench").rglob("*.py"):
        assert "sys.path" not in path.read_text(), path


IMPORT_TESTS = {
    "soak/server_crash.py": {"tests.server.harness", "tests.server.test_crash"},
    "soak/server_leaks.py": {"tests.server.harness", "tests.server.monitor"},
    "soak/server_outage.py": {"tests", "tests.server.outage"},
    "speed/server_load.py": {"tests.server.harness"},
    "speed/server_setup.py": {"tests.server.harness"},
    "tuning/ohhell_ismcts.py": {"tests.baptisten.openspiel_map"},
}
"""The benchmarks that still import the test suite's helpers (the server harness, the
services, the scenarios of ``tests/server/``, the OpenSpiel card map), and which: no
more may come (the helpers should move where both can import them)."""


def test_only_these_benchmarks_import_the_tests() -> None:
    found = {}
    for path in sorted((ROOT / "bench").rglob("*.py")):
        names = set(re.findall(r"^\s*from (tests(?:\.\w+)*) import", path.read_text(), re.M))
        names |= set(re.findall(r"^\s*import (tests(?:\.\w+)*)", path.read_text(), re.M))
        if names:
            found[path.relative_to(ROOT / "bench").as_posix()] = names
    assert found == IMPORT_TESTS


def test_the_docs_name_scripts_that_are_there() -> None:
    """Every command and path of a benchmark in the README and ``docs/`` names a script
    of its kind; none says ``python bench/<name>.py`` (the scripts before the package)."""
    scripts = {f"{kind}.{name}" for kind, names in KINDS.items() for name in names}
    named = 0
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = doc.read_text()
        assert not re.search(r"python3? bench/", text), doc
        for kind, name in re.findall(r"\bbench[./](speed|tuning|soak)[./](\w+)", text):
            assert f"{kind}.{name}" in scripts, (doc.name, kind, name)
            named += 1
    assert named > 50


def test_every_runnable_script_has_a_tiny_run() -> None:
    assert set(RUNS) == (set(SPEED) | set(TUNING)) - BY_OWN_TESTS - TOO_SLOW


@pytest.mark.parametrize("name", sorted(OPTIONS))
def test_help_lists_the_options(name: str, monkeypatch: pytest.MonkeyPatch,
                                capsys: pytest.CaptureFixture[str]) -> None:
    if name in set(RUNS) | BY_OWN_TESTS:  # started with -m there: here in this process
        monkeypatch.setattr(sys, "argv", [name, "--help"])
        with pytest.raises(SystemExit) as end:
            runpy.run_path(str(ROOT / Path(*module_of(name).split("."))) + ".py",
                           run_name="__main__")
        assert end.value.code == 0
        out = capsys.readouterr().out
    else:
        out = run(name, "--help", timeout=60)
    assert out.startswith("usage: "), out
    assert set(re.findall(r"--[a-z][a-z-]*", out)) == {"--help", *OPTIONS[name].split()}, out


@pytest.mark.parametrize("name", sorted(RUNS))
def test_a_tiny_run_prints_its_figures(name: str) -> None:
    args, patterns = RUNS[name]
    out = run(name, *args, timeout=120)
    for pattern in patterns:
        assert re.search(pattern, out, re.M), f"{module_of(name)}: {pattern!r} not in\n{out}"
    assert re.search(patterns[-1], out.rstrip("\n").rsplit("\n", 1)[-1]), (
        f"{module_of(name)}: the last line is not {patterns[-1]!r}:\n{out}")


def test_server_load_compares_tournament_tables() -> None:
    args, patterns = TOURNAMENT_RUN
    out = run("server_load", *args, timeout=120)
    for pattern in patterns:
        assert re.search(pattern, out, re.M), f"server_load --tournament: {pattern!r} not in\n{out}"
    assert re.search(patterns[-1], out.rstrip("\n").rsplit("\n", 1)[-1]), out
