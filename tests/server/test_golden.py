"""The golden test of issue 41: a fixed set of seeded tables of both games (people over
the protocol, bots, a stand-in, a kill -9 and restart in the middle) must give every
connection the same messages and store the same records as the code before the game
interface was restructured.  How the run is made and what is masked (random ids, clock
times): ``tests/server/golden.py``.  The file was written by that module against commit
c301848 (before issue 41); nothing in this repository rewrites it."""

from __future__ import annotations

import difflib
import gzip
from pathlib import Path

from tests.server.golden import GOLDEN, dump, run_golden


def test_every_message_and_record_is_as_before(tmp_path: Path) -> None:
    want = gzip.decompress(GOLDEN.read_bytes()).decode()
    got = dump(run_golden("sqlite", tmp_path))
    if got != want:
        (tmp_path / "got.json").write_text(got, encoding="utf-8")
        diff = difflib.unified_diff(want.splitlines(), got.splitlines(), "before", "now",
                                    n=6, lineterm="")
        raise AssertionError(f"the run differs from {GOLDEN.name} (whole run in "
                             f"{tmp_path / 'got.json'}):\n" + "\n".join(list(diff)[:200]))
