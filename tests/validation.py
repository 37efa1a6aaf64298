"""Where the outside validation data lives: ``tests/data/validation`` in the repository
(copies of the project's shared data, see its README), or the folder named by
``STICH_VALIDATION``.  Missing data is an error, never a skip."""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
COPIES = REPO / "tests" / "data" / "validation"


def validation_dir() -> Path:
    where = os.environ.get("STICH_VALIDATION")
    path = Path(where) if where else COPIES
    if not (path / "README.md").exists():
        raise FileNotFoundError(
            f"validation data not found at {path}: it belongs in tests/data/validation "
            "(or set STICH_VALIDATION to a folder with the same layout)"
        )
    return path
