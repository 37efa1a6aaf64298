"""The arena's games and figures, pinned: small matches of both games (with and without
``inference``, a bot from Python code, strong's calibration) give the very games, the
very ``summarize`` report and the very text of ``stich arena`` stored in
``tests/data/arena_pinned.json``.

The stored values were computed by the code of commit c301848, before the games' halves
of the arena moved into the game objects (issue 41): a restructuring must keep every
one of them.  Two were written again at commit 14f72f9, which made Baptistenskat
``strong`` draw its worlds uniformly (:mod:`stich.worlds`: another random stream, so
other bids and cards): ``baptisten_strong_inference`` and the command
``baptisten_strong_en``; the arena's move itself (804c9be) kept them as they were.
Two were written again in issue 42, when the bots began to claim the rest: in ``skat``
two games end by ``easy``'s claim with two tricks left (decisions: easy 165 → 163, the
random bots 286 → 278), in ``skat_strong_inference`` one by ``strong``'s (its lost Hand
game: two tricks fewer, so the inference figures of tricks 9 and 10 and every decision
count fall); the scores and every other figure are as before.
The clock stands still while the matches play (every decision time is 0,
so the reports and the tables are the same on any machine), ``strong`` is a quick one
(two worlds, no clock) and the solver runs its Python search (``STICH_PURE_PYTHON=1``,
whose node counts are the same everywhere).

To write the file anew (only from the code before a restructuring)::

    PYTHONPATH=/tmp/before/src python tests/test_arena_pinned.py --write
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import os
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from stich.arena import Match, play_match, summarize
from stich.baptisten import BaptistenRules
from stich.bots import BAPTISTEN_BOTS, BOTS
from stich.cli import app
from stich.cli.arena import render_report
from stich.skat import SkatRules

DATA = Path(__file__).resolve().parent / "data" / "arena_pinned.json"


def _match(game: str, bots: tuple[str, ...], deals: int, seed: int, rules: Any = None,
           inference: bool = False) -> Match:
    """A match; its rules given as the code at hand takes them (one ``rules`` field, or
    before issue 41 a field per game)."""
    kw: dict[str, Any] = {}
    if rules is not None:
        names = {f.name for f in dataclasses.fields(Match)}
        kw["rules" if "rules" in names else f"{game}_rules"] = rules
    return Match(game, bots, deals, seed, inference=inference, **kw)


MATCHES: dict[str, Callable[[], Match]] = {
    "skat": lambda: _match("skat", ("easy", "random", "random"), 4, 1),
    "skat_isko": lambda: _match("skat", ("random", "easy", "easy"), 2, 7,
                                rules=SkatRules.parse("isko")),
    "skat_strong_inference": lambda: _match("skat", ("strong", "easy", "random"), 1, 3,
                                            inference=True),
    "skat_python_bot": lambda: _match("skat", ("py:stich.bots:RandomBot", "easy", "easy"),
                                      1, 2),
    "baptisten": lambda: _match("baptisten", ("easy", "random", "random"), 3, 2),
    "baptisten_four": lambda: _match(
        "baptisten", ("random", "easy", "easy", "random"), 2, 5,
        rules=BaptistenRules(players=4, max_cards=4, forehead=True, must_overtrump=True)),
    "baptisten_strong_inference": lambda: _match(
        "baptisten", ("strong", "easy", "easy"), 1, 4,
        rules=BaptistenRules(players=3, max_cards=4), inference=True),
    "baptisten_strong_four": lambda: _match(
        "baptisten", ("easy", "strong", "random", "strong"), 1, 6,
        rules=BaptistenRules(players=4, max_cards=3, trick_scoring=True)),
}

CLI: dict[str, list[str]] = {
    "skat_en": ["arena", "skat", "--bots", "easy,random,random", "--deals", "2", "--seed",
                "1", "--jobs", "1", "--lang", "en"],
    "skat_strong_de": ["arena", "skat", "--bots", "strong,easy,easy", "--deals", "1",
                       "--seed", "5", "--jobs", "1", "--inference", "--lang", "de"],
    "skat_json": ["arena", "skat", "--bots", "easy,easy,random", "--deals", "2", "--seed",
                  "3", "--rules", "isko", "--jobs", "1", "--json"],
    "baptisten_de": ["arena", "baptisten", "--bots", "easy,random,random,random", "--deals",
                     "2", "--seed", "1", "--max-cards", "3", "--variants", "2,5", "--jobs",
                     "1", "--lang", "de"],
    "baptisten_strong_en": ["arena", "baptisten", "--bots", "strong,easy,easy", "--deals",
                            "1", "--seed", "3", "--max-cards", "3", "--inference", "--jobs",
                            "1", "--lang", "en"],
    "baptisten_json": ["arena", "baptisten", "--bots", "easy,random,random", "--deals",
                       "1", "--seed", "2", "--players", "3", "--deck", "skat",
                       "--max-cards", "4", "--jobs", "1", "--json"],
    "refused_seats": ["arena", "skat", "--bots", "easy,random", "--lang", "en"],
    "refused_players": ["arena", "baptisten", "--bots", "easy,random,random", "--players",
                        "4", "--lang", "de"],
    "refused_bot": ["arena", "baptisten", "--bots", "easy,nobody,random", "--lang", "en"],
}


@contextlib.contextmanager
def _still() -> Iterator[None]:
    """The clock stands still, strong is quick, the solver runs its Python search."""
    from stich.bots.baptisten_strong import BaptistenStrongBot
    from stich.bots.strong import SkatStrongBot

    saved = (time.perf_counter, BOTS["strong"], BAPTISTEN_BOTS["strong"],
             os.environ.get("STICH_PURE_PYTHON"))
    time.perf_counter = lambda: 0.0
    BOTS["strong"] = lambda: SkatStrongBot(0.01, min_worlds=2, max_worlds=2,
                                           timer=lambda: 0.0)
    BAPTISTEN_BOTS["strong"] = lambda: BaptistenStrongBot(0.01, min_worlds=2, max_worlds=2,
                                                          timer=lambda: 0.0)
    os.environ["STICH_PURE_PYTHON"] = "1"
    try:
        yield
    finally:
        time.perf_counter, BOTS["strong"], BAPTISTEN_BOTS["strong"] = saved[:3]
        if saved[3] is None:
            del os.environ["STICH_PURE_PYTHON"]
        else:
            os.environ["STICH_PURE_PYTHON"] = saved[3]


def _text(report: dict[str, Any], lang: str) -> str:
    console = Console(file=io.StringIO(), width=120, record=True, color_system=None)
    for part in render_report(report, lang):
        console.print(part)
    return console.export_text()


def _observed(name: str) -> dict[str, Any]:
    """What one pinned match gives: every seat of every game, the report, its tables."""
    with _still():
        match = MATCHES[name]()
        games = play_match(match)
        report = summarize(match, games)
        no_clock = json.loads(json.dumps(report))
        for f in [*no_clock["by_name"].values(), *no_clock["by_entry"]]:
            del f["time_ms"]  # (0 here: the clock stood still)
        return {
            "games": [[g.deal, g.rotation, g.cards,
                       [[r.entry, r.seat, r.score, r.declared, r.won, r.game, r.rounds,
                         r.exact, len(r.times), r.beliefs, r.gains, r.estimates, r.chances]
                        for r in g.seats]] for g in games],
            "report": json.dumps(report, ensure_ascii=False),
            "report_no_times": no_clock,
            "en": _text(report, "en"),
            "de": _text(report, "de"),
        }


def _cli(name: str) -> dict[str, Any]:
    with _still():
        result = CliRunner().invoke(app, CLI[name], env={"COLUMNS": "120"})
    return {"exit": result.exit_code, "stdout": result.stdout, "stderr": result.stderr}


def _normal(x: Any) -> Any:
    return json.loads(json.dumps(x, ensure_ascii=False))


def _expected() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(DATA.read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("name", sorted(MATCHES))
def test_the_match_plays_and_reports_as_before(name: str) -> None:
    expected = _expected()["matches"][name]
    got = _normal(_observed(name))
    for key in ("games", "report_no_times", "report", "en", "de"):
        assert got[key] == expected[key], (name, key)


@pytest.mark.parametrize("name", sorted(CLI))
def test_the_command_prints_as_before(name: str) -> None:
    assert _normal(_cli(name)) == _expected()["cli"][name]


def test_the_pinned_matches_show_what_they_pin() -> None:
    """The stored matches hold what a move could lose: declared games of several kinds,
    strong's beliefs and bid gains, its chances, exact bids, a refusal per check."""
    m = _expected()["matches"]
    skat = json.loads(m["skat_strong_inference"]["report"])
    assert skat["inference"]["decisions"] > 0 and skat["calibration"]["strong"]["games"] > 0
    assert len(json.loads(m["skat"]["report"])["by_name"]["easy"]["by_game"]) >= 2
    bap = json.loads(m["baptisten_strong_inference"]["report"])
    assert bap["inference"]["decisions"] > 0 and bap["calibration"]["strong"]["games"] > 0
    assert json.loads(m["baptisten_four"]["report"])["by_name"]["easy"]["exact"] > 0
    c = _expected()["cli"]
    assert [c[k]["exit"] for k in ("refused_seats", "refused_players", "refused_bot")] \
        == [2, 2, 2]
    assert "Mittlere Chance" in c["skat_strong_de"]["stdout"]
    assert "strong's belief" in c["baptisten_strong_en"]["stdout"]


def _write() -> None:
    data = {"matches": {name: _observed(name) for name in sorted(MATCHES)},
            "cli": {name: _cli(name) for name in sorted(CLI)}}
    DATA.write_text(json.dumps(_normal(data), ensure_ascii=False, indent=1) + "\n",
                    encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit(__doc__)
    _write()
