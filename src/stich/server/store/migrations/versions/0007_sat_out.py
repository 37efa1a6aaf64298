"""The dealer who sat a game out: at a Skat table of four a finished game has a line for
each of the four seats, the dealer's with score 0; ``sat_out`` marks it, so that the
Bestenliste counts his games played and sat out apart (issue 42).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-08

The games stored before get it from their records: a game at a table of four names the
dealer who sat out (``sat_out``) and the table seats that played it (``seats``, by
position); the seat among the game's lines that did not play is the one that sat out
(a record without ``seats``: the line of the name ``sat_out`` says).  Every other line
is false, as are all lines of tables of three and of Baptistenskat.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

CHUNK = 500  # games read and lines written at a time

_games = sa.table("games", sa.column("id", sa.Integer()), sa.column("record", sa.JSON()))
_lines = sa.table("game_players", sa.column("id", sa.Integer()),
                  sa.column("game_id", sa.Integer()), sa.column("seat", sa.Integer()),
                  sa.column("name", sa.String()), sa.column("sat_out", sa.Boolean()))


def upgrade() -> None:
    with op.batch_alter_table("game_players") as batch:
        batch.add_column(sa.Column("sat_out", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
    fill(op.get_bind())


def fill(conn: sa.Connection) -> int:
    """Mark the line of the dealer who sat out in every stored game whose record names
    one (read :data:`CHUNK` games at a time); returns how many lines were marked."""
    named = _games.c.record["sat_out"].as_string().is_not(None)
    ids = list(conn.execute(sa.select(_games.c.id).where(named).order_by(_games.c.id))
               .scalars())
    marked: list[dict[str, Any]] = []
    for i in range(0, len(ids), CHUNK):
        part = ids[i:i + CHUNK]
        records = {game_id: record for game_id, record in conn.execute(
            sa.select(_games.c.id, _games.c.record).where(_games.c.id.in_(part)))}
        by_game: dict[int, list[Any]] = {}
        for line in conn.execute(sa.select(_lines.c.id, _lines.c.game_id, _lines.c.seat,
                                           _lines.c.name).where(_lines.c.game_id.in_(part))):
            by_game.setdefault(line.game_id, []).append(line)
        for game_id in part:
            line_id = _sat_out_line(records.get(game_id), by_game.get(game_id, []))
            if line_id is not None:
                marked.append({"line": line_id})
    update = sa.update(_lines).where(_lines.c.id == sa.bindparam("line")) \
        .values(sat_out=sa.true())
    for i in range(0, len(marked), CHUNK):
        conn.execute(update, marked[i:i + CHUNK])
    return len(marked)


def _sat_out_line(record: Any, lines: list[Any]) -> int | None:
    """The id of the line that sat the game out: the one seat of four that is not among
    the record's ``seats``, else the one line of the name ``sat_out`` (None: not sure)."""
    if not isinstance(record, dict) or len(lines) != 4:
        return None
    seats = record.get("seats")
    if isinstance(seats, list) and len(seats) == 3:
        out = [line.id for line in lines if line.seat not in seats]
    else:
        out = [line.id for line in lines if line.name == record.get("sat_out")]
    return out[0] if len(out) == 1 else None


def downgrade() -> None:
    with op.batch_alter_table("game_players") as batch:
        batch.drop_column("sat_out")
