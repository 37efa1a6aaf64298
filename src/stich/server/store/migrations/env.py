"""Alembic's environment: the connection comes from :func:`stich.server.store.db.migrate`."""

from __future__ import annotations

from alembic import context

from stich.server.store.models import Base

target_metadata = Base.metadata

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - always called through migrate()
    raise RuntimeError("run the migrations through stich.server.store.db.migrate")
context.configure(connection=connection, target_metadata=target_metadata,
                  render_as_batch=connection.dialect.name == "sqlite")
with context.begin_transaction():
    context.run_migrations()
