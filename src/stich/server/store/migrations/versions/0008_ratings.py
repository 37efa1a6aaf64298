"""Ratings (issue 43): the current rating of every rated entity (an account, a bot level)
per game and rule group, and its history per game (:mod:`stich.ratings`,
docs/ratings.md).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-07

The games stored before are rated at once, oldest first, as ``stich admin ratings
--rebuild`` rates them (:func:`stich.server.store.ratings.rebuild`); from then on every
finished game updates the ratings in the transaction that stores it.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("game", sa.String(16), primary_key=True),
        sa.Column("rule_group", sa.String(200), primary_key=True),
        sa.Column("entity", sa.String(40), primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"),
                  nullable=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_ratings_user", "ratings", ["user_id"])
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("rule_group", sa.String(200), nullable=False),
        sa.Column("entity", sa.String(40), nullable=False),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"),
                  nullable=True),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id", "entity", name="uq_rating_history_game"),
    )
    op.create_index("ix_rating_history_user", "rating_history",
                    ["user_id", "game", "rule_group", "id"])
    from stich.server.store.ratings import rebuild

    rebuild(op.get_bind())


def downgrade() -> None:
    op.drop_index("ix_rating_history_user", "rating_history")
    op.drop_table("rating_history")
    op.drop_index("ix_ratings_user", "ratings")
    op.drop_table("ratings")
