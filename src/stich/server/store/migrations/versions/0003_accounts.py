"""Accounts (issue 38): where an account logged in before (so that its owner gets past a
lock that others' wrong passwords put on the name), and a second key of every name (its
look: ``stich.server.names.look_key``; a guest made from now on holds its name's keys
while it has a live session).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-09

Registered players' keys are computed anew (``name_key`` and ``look_key``), by id.
Should a key now be another's, the later account keeps it with its id appended
(``…#17``): it stays, but a new account can take neither name.  Guests keep their random
keys (``guest:…``, the look key the same): a guest made before holds no name.  (On a
site on HTTPS their sessions end with this update anyway: the session cookie is
``__Host-stich_session`` now, and a plain ``stich_session`` logs nobody in; holding
their names would only keep the names from others until the sessions expire.)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

TS = sa.DateTime(timezone=True)

USERS = sa.table("users", sa.column("id", sa.Integer()), sa.column("name", sa.String()),
                 sa.column("guest", sa.Boolean()), sa.column("name_key", sa.String()),
                 sa.column("look_key", sa.String()))


def upgrade() -> None:
    op.create_table(
        "known_logins",
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("kind", sa.String(8), primary_key=True),
        sa.Column("hash", sa.String(64), primary_key=True),
        sa.Column("created_at", TS, nullable=False),
        sa.Column("last_used", TS, nullable=False),
    )
    with op.batch_alter_table("users") as b:
        b.add_column(sa.Column("look_key", sa.String(100), nullable=True))
    _new_keys(op.get_bind())
    with op.batch_alter_table("users") as b:
        b.alter_column("look_key", existing_type=sa.String(100), nullable=False)
        b.create_unique_constraint("uq_users_look_key", ["look_key"])


def _new_keys(conn: sa.Connection) -> None:
    from stich.server.names import look_key, name_key

    conn.execute(sa.update(USERS).where(USERS.c.guest.is_(True))
                 .values(look_key=USERS.c.name_key))
    rows = conn.execute(sa.select(USERS.c.id, USERS.c.name).where(USERS.c.guest.is_(False))
                        .order_by(USERS.c.id)).all()

    def keys(uid: int, key: str, look: str) -> None:
        conn.execute(sa.update(USERS).where(USERS.c.id == uid)
                     .values(name_key=key, look_key=look))

    # two passes: first out of the way (temporary keys), then the new keys
    for uid, _ in rows:
        keys(uid, f"migrating:{uid}", f"migrating:{uid}")
    names: set[str] = set()
    looks: set[str] = set()
    for uid, name in rows:
        key, look = name_key(name), look_key(name)
        key = f"{key[:90]}#{uid}" if key in names else key
        look = f"{look[:90]}#{uid}" if look in looks else look
        names.add(key)
        looks.add(look)
        keys(uid, key, look)


def downgrade() -> None:
    with op.batch_alter_table("users") as b:
        b.drop_constraint("uq_users_look_key", type_="unique")
        b.drop_column("look_key")
    op.drop_table("known_logins")
