"""Ready for the internet: names compared by their confusables skeleton (a longer key),
games addressed by a random key, and a table's creator address and last change.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02

Registered players' keys are recomputed (``stich.server.names.name_key``).  Should two
existing names now have the same key, the later account keeps a key with its id
appended (``…#17``): it stays, but a new account can take neither name.
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    from stich.server.names import name_key

    with op.batch_alter_table("users") as b:
        b.alter_column("name_key", type_=sa.String(100), existing_type=sa.String(24),
                       existing_nullable=False)
    with op.batch_alter_table("tables") as b:
        b.add_column(sa.Column("creator_addr", sa.String(64), nullable=True))
        b.add_column(sa.Column("updated_at", TS, nullable=True))
        b.create_index("ix_tables_created_by", ["created_by"])
    with op.batch_alter_table("games") as b:
        b.add_column(sa.Column("key", sa.String(16), nullable=True))

    conn = op.get_bind()
    conn.execute(sa.text("UPDATE tables SET updated_at = created_at"))
    for (game_id,) in conn.execute(sa.text("SELECT id FROM games")).all():
        conn.execute(sa.text("UPDATE games SET key = :k WHERE id = :i"),
                     {"k": secrets.token_urlsafe(9), "i": game_id})
    seen: set[str] = set()
    users = conn.execute(sa.text("SELECT id, name FROM users WHERE guest = :f ORDER BY id"),
                         {"f": False}).all()
    # two passes: first out of the way (temporary keys), then the new keys
    for uid, _ in users:
        conn.execute(sa.text("UPDATE users SET name_key = :k WHERE id = :i"),
                     {"k": f"migrating:{uid}", "i": uid})
    for uid, name in users:
        key = name_key(name)
        if key in seen:
            key = f"{key[:90]}#{uid}"
        seen.add(key)
        conn.execute(sa.text("UPDATE users SET name_key = :k WHERE id = :i"),
                     {"k": key, "i": uid})
    with op.batch_alter_table("games") as b:
        b.alter_column("key", existing_type=sa.String(16), nullable=False)
        b.create_unique_constraint("uq_games_key", ["key"])


def downgrade() -> None:
    with op.batch_alter_table("games") as b:
        b.drop_constraint("uq_games_key", type_="unique")
        b.drop_column("key")
    with op.batch_alter_table("tables") as b:
        b.drop_index("ix_tables_created_by")
        b.drop_column("updated_at")
        b.drop_column("creator_addr")
