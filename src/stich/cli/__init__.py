"""The `stich` command."""

from __future__ import annotations

import itertools
import sys

from stich.cli import admin as _admin  # noqa: F401  (registers `stich admin`)
from stich.cli import analyze as _analyze  # noqa: F401  (registers `stich analyze`)
from stich.cli import arena as _arena  # noqa: F401  (registers `stich arena`)
from stich.cli import iss, play_baptisten, play_skat, replay, serve, solve  # noqa: F401  (they register commands)
from stich.cli.app import app, print_error
from stich.cli.helpfmt import install
from stich.messages import StichError
from stich.present.languages import DEFAULT_LANG

install(app)  # plain help pages, commands in a fixed order (after every command is registered)

__all__ = ["SERVER_PACKAGES", "app", "main"]

SERVER_PACKAGES = frozenset({
    "fastapi", "starlette", "uvicorn", "sqlalchemy", "alembic", "argon2",
    "confusable_homoglyphs", "prometheus_client", "redis", "psycopg", "aiosqlite", "orjson",
    "openskill", "jinja2", "babel"})
"""The top-level modules of the ``server`` extra (pyproject.toml): a plain ``pip install
stich`` has the command line without them; ``stich serve`` and ``stich admin`` need
them."""


def main() -> None:
    try:
        app()
    except ModuleNotFoundError as e:
        if (e.name or "").split(".")[0] not in SERVER_PACKAGES:
            raise
        args = sys.argv[1:]
        lang = "en" if "--lang=en" in args or any(
            a == "--lang" and b == "en" for a, b in itertools.pairwise(args)) \
            else DEFAULT_LANG
        print_error(StichError("cli.needs_server", package=e.name or "?"), lang)
        raise SystemExit(1) from None
