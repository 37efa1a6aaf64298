"""`stich iss verify` and `stich iss export`: game records of the International Skat Server."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Annotated, Any

import typer

from stich.cli.app import check_lang, iss_app, lang_option, print_error
from stich.core import RecordError
from stich.messages import Msg, StichError, render
from stich.record import load_records, replay
from stich.skat.iss import ISKO, IssCheck, IssError, check_line, scan_iss_lines
from stich.skat.iss_format import plain
from stich.skat.iss_write import export_iss, numbered_ids
from stich.skat.state import SkatState
from stich.textfile import read_text

_VERIFY_HELP = (
    "Check ISS game records against the engine."
    "\n\n"
    "Replays each record under the isko rules and compares its result with R[...]. "
    "Prints one line per disagreeing field (record id, field, ours and theirs), then the "
    "skipped records with their reason (passed, left, timeout, penalty, corrupt), then "
    "exactly one summary line 'N records: A agree, D disagree, S skipped' (in German "
    "unless --lang en). With --json: one JSON object instead, with message codes and "
    "the same words in every language."
    "\n\n"
    "Exit code 1 if any record disagrees, else 0 (2 if a file cannot be read or holds "
    "no ISS record)."
)


@iss_app.command("verify", help=_VERIFY_HELP)
def verify_cmd(
    files: Annotated[list[Path], typer.Argument(
        help="ISS record files: one record '(;GM[Skat]...;)' per line, possibly after a "
             "protocol prefix ('table .3 x end (;GM...;)'); other lines are ignored with "
             "a note.",
        metavar="FILE...",
    )],
    lang: str = lang_option(),
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print the checks as one JSON object (language-independent).",
    )] = False,
) -> None:
    """Check ISS records against the engine."""
    lang = check_lang(lang)
    checks: list[IssCheck] = []
    for path in files:
        checks.extend(_check_file(path, lang))
    disagree = sum(c.status == "disagree" for c in checks)
    if as_json:
        typer.echo(json.dumps(_as_json(checks), ensure_ascii=False))
    else:
        _print_checks(checks, lang)
    if disagree:
        raise typer.Exit(1)


def _check_file(path: Path, lang: str) -> list[IssCheck]:
    """Check every record of one file; a file that cannot be read or holds no record is
    an error (exit code 2)."""
    try:
        text = read_text(path)
    except StichError as e:
        print_error(e, lang)
        raise typer.Exit(2) from None
    found = scan_iss_lines(text.splitlines())
    if not found.records:
        print_error(IssError("iss.cli.no_records", path=str(path)), lang)
        raise typer.Exit(2)
    if found.ignored:
        shown = ", ".join(map(str, found.ignored[:5])) + (
            ", …" if len(found.ignored) > 5 else "")
        typer.echo(render("iss.cli.ignored_lines", {
            "path": str(path), "n": len(found.ignored), "lines": shown}, lang), err=True)
    return [check_line(line, where=f"{path}:{n}") for n, line in found.records]


def _print_checks(checks: list[IssCheck], lang: str) -> None:
    for c in checks:
        for name, ours, theirs in c.diffs:
            typer.echo(render("iss.cli.diff", {
                "id": c.record_id, "field": Msg(f"iss.field.{name}", {}),
                "ours": _value(ours), "theirs": _value(theirs)}, lang))
    skipped = [c for c in checks if c.status == "skipped"]
    for c in skipped:
        typer.echo(render("iss.cli.skipped", {
            "id": c.record_id, "reason": Msg(f"iss.reason.{c.reason}", {}),
            "detail": c.note or Msg("text", {"text": ""})}, lang))
    typer.echo(render("iss.cli.summary", {
        "n": len(checks), "agree": sum(c.status == "agree" for c in checks),
        "disagree": sum(c.status == "disagree" for c in checks),
        "skipped": len(skipped)}, lang))


def _value(value: object) -> object:
    if isinstance(value, bool):
        return Msg("iss.yes" if value else "iss.no", {})
    return value


def _as_json(checks: list[IssCheck]) -> dict[str, Any]:
    """The checks as plain data: statuses, reasons and message codes, no language."""
    return {
        "records": len(checks),
        "agree": sum(c.status == "agree" for c in checks),
        "disagree": sum(c.status == "disagree" for c in checks),
        "skipped": sum(c.status == "skipped" for c in checks),
        "checks": [{
            "id": c.record_id,
            "status": c.status,
            "reason": c.reason or None,
            "message": plain(c.note) if c.note is not None else None,
            "diffs": [{"field": n, "ours": o, "theirs": t} for n, o, t in c.diffs],
            "not_compared": list(c.unsure),
        } for c in checks],
    }


_EXPORT_HELP = (
    "Write finished isko games as ISS records."
    "\n\n"
    "Prints each game of a stich record file as one ISS line. "
    "The line reads back with 'stich iss verify' to the same result. Each game gets its "
    "own ID: derived from the game itself, or counted on from --id when the file holds "
    "several games. Games under other rules (e.g. lothar) and unfinished games are "
    "refused with exit code 1."
)


@iss_app.command("export", help=_EXPORT_HELP)
def export_cmd(
    record_file: Annotated[Path, typer.Argument(
        help="A stich game record (JSON) of a finished game under the isko rules.",
        metavar="RECORD.json",
    )],
    game_id: Annotated[str, typer.Option(
        "--id", help="The game id to write as ID[...]; with several games the first, the "
                     "others counted on (42, 43, ... or abc-1, abc-2, ...). Default: a "
                     "number derived from each game.")] = "",
    date: Annotated[str, typer.Option(
        "--date", help="The date to write as DT[...] (default: now, as "
                       "YYYY-MM-DD/HH:MM:SS/UTC).")] = "",
    lang: str = lang_option(),
) -> None:
    """Write a stich record as an ISS line."""
    lang = check_lang(lang)
    try:
        records = load_records(record_file)
    except RecordError as e:
        print_error(e, lang)
        raise typer.Exit(1) from None
    ids = numbered_ids(game_id, len(records))
    lines = []
    for n, rec in enumerate(records):
        where = (render("iss.export.where", {"path": str(record_file), "n": n}, lang)
                 if len(records) > 1 else str(record_file))
        try:
            lines.append(_export_one(rec, ids[n], date))
        except (ValueError, RecordError) as e:
            print_error(e, lang, where=where)
            raise typer.Exit(1) from None
    for line in lines:
        typer.echo(line)


def _export_one(rec: Any, game_id: str | None, date: str) -> str:
    """One stich record as an ISS line; refusals are errors with a message."""
    if not isinstance(rec, dict):
        raise IssError("iss.export.not_object")
    state = replay(rec)
    if not isinstance(state, SkatState) or state.rules != ISKO:
        raise IssError("iss.export.not_isko", rules=str(state.rules), isko=str(ISKO))
    if not state.is_over:
        raise IssError("iss.export.unfinished", actions=len(state.history),
                       phase=state.phase.name)
    players = rec.get("players") or ["Vorhand", "Mittelhand", "Hinterhand"]
    names = [re.sub(r"[\s\[\]]+", "_", str(p)) or "-" for p in players]
    return export_iss(state, names, game_id=game_id, date=date or None)
