"""Every CLI test saves its games into a temporary data folder, never the user's."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``STICH_DATA_DIR`` for this test (subprocesses inherit it)."""
    folder = tmp_path / "stich-data"
    monkeypatch.setenv("STICH_DATA_DIR", str(folder))
    return folder
