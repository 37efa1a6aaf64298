"""`stich replay FILE`: replay game records (Skat or Baptistenskat) and print each
result as JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from stich.cli.app import app
from stich.core import RecordError
from stich.record import load_records, record_result
from stich.record import replay as replay_record


@app.command("replay")
def replay_cmd(
    file: Annotated[
        Path, typer.Argument(help="A record file (JSON object, list, or one per line).")
    ],
) -> None:
    """Replay game records (Skat or Baptistenskat) and print each result as JSON; exit 1
    on an illegal action or a wrong stored result (the message gives the action's index
    and the reason)."""
    try:
        records = load_records(file)
    except (OSError, RecordError) as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(1) from None
    bad = 0
    for n, rec in enumerate(records):
        where = f"{file}" + (f" record {n}" if len(records) > 1 else "")
        try:
            state = replay_record(rec)
        except RecordError as e:
            typer.echo(f"{where}: {e}", err=True)
            bad += 1
            continue
        typer.echo(json.dumps(record_result(state), ensure_ascii=False))
    if bad:
        raise typer.Exit(1)
