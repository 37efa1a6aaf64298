"""Where the outside validation data lives: ``<repo>/../shared/validation`` (as in CI),
or the folder named by ``STICH_VALIDATION``.  Missing data is an error, never a skip."""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def validation_dir() -> Path:
    where = os.environ.get("STICH_VALIDATION")
    path = Path(where) if where else REPO.parent / "shared" / "validation"
    if not (path / "README.md").exists():
        raise FileNotFoundError(
            f"validation data not found at {path}: put shared/ beside the repository "
            "or set STICH_VALIDATION"
        )
    return path
