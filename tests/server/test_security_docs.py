"""docs/security.md's table of limits names every limit of the server with its default
(so that the page an operator reads is the server's)."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from stich.server.limits import Limits

DOC = Path(__file__).resolve().parents[2] / "docs" / "security.md"


def test_every_limit_is_documented_with_its_default() -> None:
    rows = dict(re.findall(r"^\| `(\w+)` \| ([\d.]+) \|", DOC.read_text(encoding="utf-8"),
                           re.M))
    want = {f.name: f.default for f in dataclasses.fields(Limits)}
    assert set(rows) == set(want)
    for name, default in want.items():
        assert float(rows[name]) == float(default), name  # type: ignore[arg-type]
