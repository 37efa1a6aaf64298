"""Tournaments: a tournament (organiser, settings, where it stands), its players, and
its tables per round, each an ordinary table (issue 43; stich.server.tournament).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-07

New tables only: nothing stored before changes.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("organiser", sa.Integer,
                  sa.ForeignKey("users.id", ondelete="SET NULL"), nullable=True),
        sa.Column("settings", sa.JSON, nullable=False),
        sa.Column("invite", sa.String(64), nullable=False),
        sa.Column("public", sa.Boolean, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("paused", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_tournaments_status", "tournaments", ["status"])
    op.create_index("ix_tournaments_organiser", "tournaments", ["organiser"])
    op.create_table(
        "tournament_players",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("tournament_id", sa.String(16),
                  sa.ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("tournament_id", "user_id", name="uq_tournament_players_user"),
    )
    op.create_index("ix_tournament_players_user", "tournament_players", ["user_id"])
    op.create_table(
        "tournament_tables",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("tournament_id", sa.String(16),
                  sa.ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("table_id", sa.String(16), sa.ForeignKey("tables.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("done", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.UniqueConstraint("tournament_id", "round", "number",
                            name="uq_tournament_tables_number"),
    )
    op.create_index("ix_tournament_tables_table", "tournament_tables", ["table_id"])


def downgrade() -> None:
    op.drop_index("ix_tournament_tables_table", "tournament_tables")
    op.drop_table("tournament_tables")
    op.drop_index("ix_tournament_players_user", "tournament_players")
    op.drop_table("tournament_players")
    op.drop_index("ix_tournaments_organiser", "tournaments")
    op.drop_index("ix_tournaments_status", "tournaments")
    op.drop_table("tournaments")
