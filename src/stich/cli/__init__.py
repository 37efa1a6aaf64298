"""The `stich` command."""

from __future__ import annotations

from stich.cli import analyze as _analyze  # noqa: F401  (registers `stich analyze`)
from stich.cli import iss, play_baptisten, play_skat, replay, solve  # noqa: F401  (they register commands)
from stich.cli.app import app

__all__ = ["app", "main"]


def main() -> None:
    app()
