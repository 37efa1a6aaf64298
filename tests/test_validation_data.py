"""The copies of the outside validation data in ``tests/data/validation`` are complete and
unchanged: each file matches ``SHA256SUMS``, and, where the project's shared folder stands
beside the clone, equals the original there byte for byte."""

from __future__ import annotations

import hashlib
from pathlib import Path

from tests.validation import COPIES, REPO, validation_dir

SHARED = REPO.parent / "shared" / "validation"


def _sums() -> dict[str, str]:
    out = {}
    for line in (COPIES / "SHA256SUMS").read_text().splitlines():
        digest, name = line.split(maxsplit=1)
        out[name] = digest
    return out


def test_the_tests_read_the_copies_in_the_repository(monkeypatch) -> None:
    monkeypatch.delenv("STICH_VALIDATION", raising=False)
    assert validation_dir() == COPIES


def test_a_missing_folder_is_an_error_not_a_skip(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("STICH_VALIDATION", str(tmp_path / "nowhere"))
    try:
        validation_dir()
    except FileNotFoundError as e:
        assert "nowhere" in str(e)
    else:
        raise AssertionError("a missing validation folder must raise")


def test_every_copy_matches_its_checksum() -> None:
    sums = _sums()
    assert len(sums) == 12  # the ISS records and the eleven solver files
    for name, digest in sums.items():
        assert hashlib.sha256((COPIES / name).read_bytes()).hexdigest() == digest, name


def test_nothing_beside_the_listed_files() -> None:
    files = {p.relative_to(COPIES).as_posix() for p in COPIES.rglob("*") if p.is_file()}
    assert files - set(_sums()) == {"README.md", "SHA256SUMS"}


def test_copies_equal_the_shared_originals_where_they_are_present() -> None:
    if not SHARED.exists():  # a clone on its own: the checksums above are the check
        return
    for name in _sums():
        assert (SHARED / name).read_bytes() == (COPIES / name).read_bytes(), name
