"""`stich solve FILE...`: solve open-hand positions and compare with the stored values.

The files are in the line format of ``tests/data/validation/skat-dd`` (see
:mod:`stich.skat.ddformat`; game 5 is stich's extension for Null).  Every disagreement is
printed as ``FILE:LINE: ...``; the last line is always the one summary line
``N positions: M agree, median X ms, p95 Y ms, max Z ms`` (the time to compute each
position's exact value, or for Null whether the declarer avoids every trick).  Errors
(a file or line that cannot be read) go to stderr in the language of ``--lang``.
"""

from __future__ import annotations

import math
import time
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from stich.cli.app import app, check_lang, lang_option, print_error
from stich.messages import StichError
from stich.skat.ddformat import parse_line
from stich.skat.solver import HAVE_C, null_won, solve
from stich.textfile import read_text

__all__ = ["format_ms", "solve_cmd", "summary_line"]


class Engine(StrEnum):
    AUTO = "auto"
    C = "c"
    PYTHON = "python"


def format_ms(ms: float) -> str:
    """Milliseconds with one decimal, two below 1 ms (so that small positions are not
    all ``0.0``)."""
    return f"{ms:.1f}" if ms >= 0.995 else f"{ms:.2f}"


def summary_line(times_ms: list[float], agree: int) -> str:
    """``N positions: M agree, median X ms, p95 Y ms, max Z ms``; the p95 is the
    nearest-rank percentile (the smallest time at least 95 % of the times do not exceed),
    the median the middle time (the mean of the two middle ones for an even count)."""
    n = len(times_ms)
    if n:
        ts = sorted(times_ms)
        median = (ts[(n - 1) // 2] + ts[n // 2]) / 2
        p95 = ts[max(0, math.ceil(0.95 * n) - 1)]
        worst = ts[-1]
    else:
        median = p95 = worst = 0.0
    return (f"{n} positions: {agree} agree, median {format_ms(median)} ms, "
            f"p95 {format_ms(p95)} ms, max {format_ms(worst)} ms")


_HELP = "\n\n".join([
    "Solve open-hand Skat positions and check the stored values.",
    "Solves open-hand (double-dummy) Skat positions and checks them against the values "
    "stored in the files.",
    "Each line of a file is a position in the line format of tests/data/validation/skat-dd: "
    "hand1,hand2,hand3,skat,leader,game,points. Hands and Skat are 32-bit card masks, "
    "hand1 is the declarer's, leader (0..2) leads the first trick, game is 0 Grand, "
    "1 Kreuz, 2 Pik, 3 Herz, 4 Karo (5 Null, stich's extension), points the declarer's "
    "card points under perfect play plus the Skat (for Null: 1 if the declarer can avoid "
    "every trick, else 0).",
    "Prints one line FILE:LINE per disagreement (ours against the file's), then one "
    "summary line 'N positions: M agree, median X ms, p95 Y ms, max Z ms': the time per "
    "position for its exact value.",
    "Exit status 1 if any position disagrees or a line or file cannot be read (reported "
    "on stderr, in the language of --lang), else 0.",
])


@app.command("solve", help=_HELP)
def solve_cmd(
    files: Annotated[
        list[Path],
        typer.Argument(help="Position files, one position per line: "
                            "hand1,hand2,hand3,skat,leader,game,points (the skat-dd format).",
                       metavar="FILE", show_default=False),
    ],
    engine: Annotated[
        Engine,
        typer.Option(help="Which search: auto (the compiled core when it is built), "
                          "c (the compiled core, an error if it is not built) or python."),
    ] = Engine.AUTO,
    limit: Annotated[
        int | None,
        typer.Option(min=1, help="Solve at most N positions of each file (the first N).",
                     metavar="N", show_default=False),
    ] = None,
    lang: str = lang_option(),
) -> None:
    """Solve the positions of FILE... and compare with the stored values (see _HELP)."""
    check_lang(lang)
    if engine is Engine.C and not HAVE_C:
        print_error(StichError("skat.solver.no_c_core"), lang)
        raise typer.Exit(1)
    times: list[float] = []
    agree = 0
    errors = 0
    for path in files:
        try:
            lines = read_text(path).splitlines(keepends=True)
        except StichError as e:
            print_error(e, lang)
            errors += 1
            continue
        done = 0
        for line_no, line in enumerate(lines, start=1):
            if limit is not None and done >= limit:
                break
            if not line.strip():
                continue
            try:
                d = parse_line(line, line_no)
            except ValueError as e:
                print_error(e, lang, where=str(path))
                errors += 1
                continue
            done += 1
            pos = d.position
            start = time.perf_counter()
            if d.is_null:
                ours = int(null_won(pos, engine.value))
            else:
                ours = solve(pos, engine.value) + d.skat_points
            times.append((time.perf_counter() - start) * 1000)
            if ours == d.expected:
                agree += 1
            elif d.is_null:
                typer.echo(f"{path}:{line_no}: ours {_null_word(ours)}, "
                           f"file {_null_word(d.expected)} (Null)")
            else:
                typer.echo(f"{path}:{line_no}: ours {ours}, file {d.expected} "
                           f"({pos.game}, leader {pos.to_move})")
    typer.echo(summary_line(times, agree))
    if errors or agree < len(times):
        raise typer.Exit(1)


def _null_word(won: int) -> str:
    return "won (1)" if won else "lost (0)"
