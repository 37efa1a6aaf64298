"""Snapshots: a table's state at an event, so that loading a table costs the events
after its newest snapshot instead of its whole log (``stich.server.snapshot``).

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
