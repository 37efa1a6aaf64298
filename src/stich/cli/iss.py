"""`stich iss verify` and `stich iss export`: game records of the International Skat Server."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated

import typer

from stich.cli.app import iss_app
from stich.core import RecordError
from stich.record import load_records, replay
from stich.skat.iss import ISKO, IssCheck, check_line, read_iss_lines
from stich.skat.iss_write import export_iss

_VERIFY_HELP = (
    "Replay ISS game records with the ISkO engine and compare each result with R[...]."
    "\n\n"
    "Prints one line per disagreeing field (record id, field, ours and theirs), then the "
    "skipped records with their reason (passed, left, timeout, penalty, corrupt), then "
    "exactly one summary line 'N records: A agree, D disagree, S skipped'."
    "\n\n"
    "Exit code 1 if any record disagrees, else 0 (2 if a file cannot be read)."
)


@iss_app.command("verify", help=_VERIFY_HELP)
def verify_cmd(
    files: Annotated[list[Path], typer.Argument(
        help="ISS record files: one record '(;GM[Skat]...;)' per line; other lines are "
             "ignored.",
        metavar="FILE...",
    )],
) -> None:
    """Check ISS records against the engine."""
    checks: list[IssCheck] = []
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as e:
            typer.echo(f"error: cannot read {path}: {e.strerror or e}", err=True)
            raise typer.Exit(2) from None
        for n, line in read_iss_lines(text.splitlines()):
            checks.append(check_line(line, where=f"{path}:{n}"))
    for c in checks:
        for name, ours, theirs in c.diffs:
            typer.echo(f"{c.record_id}: {name}: ours {_fmt(ours)}, theirs {_fmt(theirs)}")
    skipped = [c for c in checks if c.status == "skipped"]
    for c in skipped:
        typer.echo(f"skipped {c.record_id}: {c.reason} ({c.detail})")
    agree = sum(c.status == "agree" for c in checks)
    disagree = sum(c.status == "disagree" for c in checks)
    typer.echo(f"{len(checks)} records: {agree} agree, {disagree} disagree, "
               f"{len(skipped)} skipped")
    if disagree:
        raise typer.Exit(1)


def _fmt(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


_EXPORT_HELP = (
    "Print a finished isko game from a stich record as one ISS line (one line per record "
    "in the file)."
    "\n\n"
    "The line reads back with 'stich iss verify' to the same result. Games under other "
    "rules (e.g. lothar) and unfinished games are refused with exit code 1."
)


@iss_app.command("export", help=_EXPORT_HELP)
def export_cmd(
    record_file: Annotated[Path, typer.Argument(
        help="A stich game record (JSON) of a finished game under the isko rules.",
        metavar="RECORD.json",
    )],
    game_id: Annotated[str, typer.Option(
        "--id", help="The game id to write as ID[...].")] = "",
    date: Annotated[str, typer.Option(
        "--date", help="The date to write as DT[...] (default: now, as "
                       "YYYY-MM-DD/HH:MM:SS/UTC).")] = "",
) -> None:
    """Write a stich record as an ISS line."""
    try:
        records = load_records(record_file)
    except (OSError, RecordError) as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(1) from None
    lines = []
    for n, rec in enumerate(records):
        where = f"{record_file}" + (f" record {n}" if len(records) > 1 else "")
        if not isinstance(rec, dict):
            typer.echo(f"error: {where}: a record is a JSON object", err=True)
            raise typer.Exit(1)
        try:
            state = replay(rec)
        except RecordError as e:
            typer.echo(f"error: {where}: {e}", err=True)
            raise typer.Exit(1) from None
        if state.rules != ISKO:
            typer.echo(f"error: {where}: the game uses {state.rules}; ISS records are "
                       f"ISkO games ({ISKO})", err=True)
            raise typer.Exit(1)
        if not state.is_over:
            typer.echo(f"error: {where}: the game is not finished "
                       f"({len(state.history)} actions, phase {state.phase.name})", err=True)
            raise typer.Exit(1)
        players = rec.get("players") or ["Vorhand", "Mittelhand", "Hinterhand"]
        try:
            names = [re.sub(r"[\s\[\]]+", "_", str(p)) or "-" for p in players]
            lines.append(export_iss(state, names,
                                    game_id=game_id, date=date or None))
        except ValueError as e:
            typer.echo(f"error: {where}: {e}", err=True)
            raise typer.Exit(1) from None
    for line in lines:
        typer.echo(line)
