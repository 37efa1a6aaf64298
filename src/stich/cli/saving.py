"""Saving every game played in the terminal as a stich record (JSON Lines).

A sitting writes to ``--save FILE`` (appended), or by default to one new file in the
``games`` folder of the user's data directory (``platformdirs``; the environment
variable ``STICH_DATA_DIR`` replaces the data directory, e.g. for tests), named after
the game and the time the sitting began: ``skat-2025-03-01-142530.jsonl``.  Each finished
game is appended as soon as it ends, so nothing finished is lost when the sitting is
interrupted; the file is created with the first game.  ``stich replay FILE`` and
``stich analyze FILE`` read it.
"""

from __future__ import annotations

import json
import os
from datetime import datetime
from pathlib import Path
from typing import Any

import platformdirs

__all__ = ["ENV_DATA_DIR", "RecordSaver", "data_dir", "default_data_dir", "default_path",
           "saver_for"]

ENV_DATA_DIR = "STICH_DATA_DIR"


def data_dir() -> Path:
    """Where stich keeps its files: ``$STICH_DATA_DIR`` or the platform's user data
    directory for ``stich``."""
    env = os.environ.get(ENV_DATA_DIR)
    if env:
        return Path(env)
    return default_data_dir()


def default_data_dir() -> Path:
    """The platform's user data directory for ``stich`` (``~/.local/share/stich`` on
    Linux): the data folder when ``$STICH_DATA_DIR`` is not set."""
    return Path(platformdirs.user_data_dir("stich", appauthor=False))


def default_path(game: str, when: datetime | None = None) -> Path:
    """A new file for a sitting of ``game`` in ``<data dir>/games`` (a number is added
    when two sittings begin in the same second)."""
    stamp = (when or datetime.now()).strftime("%Y-%m-%d-%H%M%S")
    folder = data_dir() / "games"
    path = folder / f"{game}-{stamp}.jsonl"
    n = 2
    while path.exists():
        path = folder / f"{game}-{stamp}-{n}.jsonl"
        n += 1
    return path


class RecordSaver:
    """Appends records to one file; ``path`` None saves nothing."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.count = 0

    def save(self, record: dict[str, Any]) -> None:
        """Append one record as a line (the folder and file are created when needed)."""
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as f:
            f.write(json.dumps(record, ensure_ascii=False) + "\n")
        self.count += 1


def saver_for(game: str, save: Path | None, no_save: bool, *, default: bool) -> RecordSaver:
    """The saver a command's options ask for: ``--save FILE``, ``--no-save``, else the
    default file when ``default`` (nothing otherwise)."""
    if no_save:
        return RecordSaver(None)
    if save is not None:
        return RecordSaver(save)
    return RecordSaver(default_path(game) if default else None)
