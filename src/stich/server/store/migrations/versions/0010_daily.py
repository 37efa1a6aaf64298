"""The Tagesskat: a day's set (its secret seed, rules, games, bots and the bots' own
result) and each account's table of the day (issue 43).

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-07

New tables only: nothing stored before changes.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "daily_sets",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("rules", sa.String(200), nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("level", sa.String(32), nullable=False),
        sa.Column("reference", sa.JSON, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "daily_entries",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("day", sa.String(10), sa.ForeignKey("daily_sets.day", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("table_id", sa.String(16), sa.ForeignKey("tables.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("day", "user_id", name="uq_daily_entries_day_user"),
    )
    op.create_index("ix_daily_entries_table", "daily_entries", ["table_id"])


def downgrade() -> None:
    op.drop_index("ix_daily_entries_table", "daily_entries")
    op.drop_table("daily_entries")
    op.drop_table("daily_sets")
