"""The `stich` command."""

from __future__ import annotations

from stich.cli import admin as _admin  # noqa: F401  (registers `stich admin`)
from stich.cli import analyze as _analyze  # noqa: F401  (registers `stich analyze`)
from stich.cli import arena as _arena  # noqa: F401  (registers `stich arena`)
from stich.cli import iss, play_baptisten, play_skat, replay, serve, solve  # noqa: F401  (they register commands)
from stich.cli.app import app
from stich.cli.helpfmt import install

install(app)  # plain help pages, commands in a fixed order (after every command is registered)

__all__ = ["app", "main"]


def main() -> None:
    app()
