"""Whose game was it: per player of a finished game, whether a stand-in moved for the
seat (``standin``) and whether the game counts for the person (``counts``: false when a
stand-in played it for her; docs/server.md, "Whose game was it").

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-06

Games stored before keep counting as they did (``counts`` true, ``standin`` false):
``stich admin recount`` works both out again from the tables' event logs.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_players") as batch:
        batch.add_column(sa.Column("standin", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
        batch.add_column(sa.Column("counts", sa.Boolean(), nullable=False,
                                   server_default=sa.true()))


def downgrade() -> None:
    with op.batch_alter_table("game_players") as batch:
        batch.drop_column("counts")
        batch.drop_column("standin")
