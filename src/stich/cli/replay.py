"""`stich replay FILE`: replay game records (Skat or Baptistenskat) and print each
result as JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from stich.cli.app import app, check_lang, lang_option, print_error
from stich.core import RecordError
from stich.messages import render
from stich.record import read_records, record_result
from stich.record import replay as replay_record


@app.command("replay")
def replay_cmd(
    file: Annotated[
        Path, typer.Argument(help="A record file (JSON object, list, or one per line).")
    ],
    lang: str = lang_option(),
) -> None:
    """Replay game records and print each result as JSON.

    Reads Skat and Baptistenskat records (a JSON object, a list, or one per line) and
    prints one JSON result per record.  Exit 1 on an illegal action, a wrong stored
    result or a damaged file: the message says where (record, line, action) and why.  A
    file cut off in the middle of a record still replays the complete records before it.
    """
    check_lang(lang)
    rf = read_records(file)
    bad = 0
    for entry in rf.entries:
        if entry.problem is not None:
            print_error(entry.problem, lang)
            bad += 1
            continue
        try:
            state = replay_record(entry.data)
        except RecordError as e:
            where = str(file)
            if rf.several:
                where = render("records.where", {"file": str(file), "n": entry.index,
                                                 "line": entry.line}, lang)
            print_error(e, lang, where=where)
            bad += 1
            continue
        typer.echo(json.dumps(record_result(state), ensure_ascii=False))
    if bad:
        raise typer.Exit(1)
