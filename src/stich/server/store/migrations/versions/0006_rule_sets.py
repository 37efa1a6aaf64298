"""Named rule sets: a registered player keeps the rules of his circle under a name
("Skatclub Eiche") and picks them again when he opens a table (issue 42).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-07

A new table only: nothing stored before changes.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rule_sets",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_key", sa.String(160), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("rules", sa.String(200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("user_id", "name_key", name="uq_rule_sets_user_name"),
    )


def downgrade() -> None:
    op.drop_table("rule_sets")
