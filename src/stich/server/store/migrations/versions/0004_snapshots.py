"""Snapshots: a table's state at an event, so that loading a table costs the events
after its newest snapshot instead of its whole log (``stich.server.snapshot``); and an
index of the chat lines in the log.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-06

Tables stored before have no snapshot: the first load replays their log (in slices, the
site answering meanwhile) and writes one.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # the chat lines of the log (an account's are renamed when it is deleted): a few
    op.create_index("ix_events_chat", "events", ["table_id"],
                    sqlite_where=sa.text("kind = 'chat'"),
                    postgresql_where=sa.text("kind = 'chat'"))
    op.create_table(
        "snapshots",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("tables.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("format", sa.Integer, nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("snapshots")
    op.drop_index("ix_events_chat", table_name="events")
