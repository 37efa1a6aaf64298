"""Backups of the site's database while the server runs, and restoring them.

- SQLite: the backup API of the standard library (:meth:`sqlite3.Connection.backup`),
  in one step, so the copy is one consistent snapshot even while the server writes
  (in WAL mode the server's writers never wait for it).  The copy is a single file
  (journal mode DELETE); a restore copies it back into the database file the same way.
- PostgreSQL: ``pg_dump --format=custom`` (a consistent snapshot of its own), and
  ``pg_restore --clean --if-exists --no-owner --single-transaction``: the restore
  replaces the objects of the dump in one transaction, so a failed one leaves the
  database as it was.  The programs are looked for on ``PATH``, then in
  ``/usr/lib/postgresql/*/bin`` (newest version first); a password in the URL reaches
  them in ``PGPASSWORD``, not on the command line.

A backup is written beside its target under a temporary name and moved into place at
the end: a failed backup leaves no half-written file, and without ``force`` an existing
file is never replaced (not even one made meanwhile).
"""

from __future__ import annotations

import contextlib
import glob
import os
import re
import shutil
import sqlite3
import subprocess
from pathlib import Path
from urllib.parse import quote

from sqlalchemy.engine import make_url

from stich.messages import StichError

__all__ = ["PG_BIN_DIRS", "PG_MAGIC", "SQLITE_MAGIC", "pg_check", "pg_dump", "pg_restore",
           "pg_tool", "place", "sqlite_backup", "sqlite_restore", "sqlite_revision"]

PG_BIN_DIRS = "/usr/lib/postgresql/*/bin"  # Debian's and Ubuntu's place for them
SQLITE_MAGIC = b"SQLite format 3\x00"
PG_MAGIC = b"PGDMP"  # the start of an archive of pg_dump --format=custom


def _temporary(dest: Path) -> Path:
    return dest.with_name(f".{dest.name}.{os.getpid()}.part")


def place(tmp: Path, dest: Path, force: bool) -> None:
    """Move the finished ``tmp`` to ``dest``; without ``force`` only if ``dest`` does
    not exist (a hard link fails on an existing name, so nothing made meanwhile is
    replaced)."""
    try:
        if force:
            os.replace(tmp, dest)
            return
        try:
            os.link(tmp, dest)
        except FileExistsError:
            raise StichError("admin.file_exists", file=str(dest)) from None
        except OSError:  # a file system without hard links
            if dest.exists():
                raise StichError("admin.file_exists", file=str(dest)) from None
            os.replace(tmp, dest)
    finally:
        tmp.unlink(missing_ok=True)


def _uri(path: Path, mode: str) -> str:
    return f"file:{quote(str(path.resolve()))}?mode={mode}"


def sqlite_backup(db: Path, dest: Path, force: bool) -> None:
    """Copy the SQLite database ``db`` to ``dest`` with the backup API."""
    tmp = _temporary(dest)
    tmp.unlink(missing_ok=True)
    try:
        src = sqlite3.connect(_uri(db, "rw"), uri=True, timeout=30)
        try:
            dst = sqlite3.connect(tmp)
            try:
                src.backup(dst)  # every page in one step: one snapshot of the source
                dst.execute("PRAGMA journal_mode=DELETE")  # one file, no -wal beside it
            finally:
                dst.close()
        finally:
            src.close()
        place(tmp, dest, force)
    finally:
        tmp.unlink(missing_ok=True)


def sqlite_revision(file: Path) -> str:
    """The schema revision of a SQLite backup (refused: not SQLite, not stich's)."""
    with open(file, "rb") as f:
        if f.read(len(SQLITE_MAGIC)) != SQLITE_MAGIC:
            raise StichError("admin.not_sqlite_backup", file=str(file))
    con = sqlite3.connect(_uri(file, "ro"), uri=True)
    try:
        row = con.execute("SELECT version_num FROM alembic_version").fetchone()
    except sqlite3.DatabaseError:
        row = None
    finally:
        con.close()
    if row is None:
        raise StichError("admin.not_stich_backup", file=str(file))
    return str(row[0])


def sqlite_restore(file: Path, db: Path) -> None:
    """Copy the backup ``file`` into the SQLite database ``db`` (made when missing) with
    the backup API: the database's pages are replaced in one transaction."""
    sqlite_revision(file)
    src = sqlite3.connect(_uri(file, "ro"), uri=True)
    try:
        dst = sqlite3.connect(db, timeout=30)
        try:
            src.backup(dst)
            dst.execute("PRAGMA journal_mode=WAL")  # as the server keeps it
        finally:
            dst.close()
    finally:
        src.close()


def pg_tool(name: str) -> str:
    """The path of a PostgreSQL client program (refused when it is nowhere)."""
    found = shutil.which(name)
    if found:
        return found

    def version(folder: str) -> tuple[int, ...]:
        return tuple(int(n) for n in re.findall(r"\d+", folder))

    for folder in sorted(glob.glob(PG_BIN_DIRS), key=version, reverse=True):
        path = Path(folder) / name
        if path.is_file() and os.access(path, os.X_OK):
            return str(path)
    raise StichError("admin.no_tool", tool=name)


def _libpq(url: str) -> tuple[str, dict[str, str]]:
    """The URL as libpq reads it (no driver name, no password) and the environment
    that carries the password."""
    u = make_url(url)
    env = dict(os.environ)
    if u.password:
        env["PGPASSWORD"] = str(u.password)
    plain = u.set(drivername="postgresql", password=None)
    return plain.render_as_string(hide_password=False), env


def _run(tool: str, args: list[str], env: dict[str, str]) -> None:
    path = pg_tool(tool)
    done = subprocess.run([path, *args], env=env, capture_output=True, text=True,
                          check=False)
    if done.returncode != 0:
        lines = [ln for ln in done.stderr.strip().splitlines() if ln.strip()]
        detail = " / ".join(lines[-3:]) or "-"
        raise StichError("admin.tool_failed", tool=tool, code=done.returncode, detail=detail)


def pg_dump(url: str, dest: Path, force: bool) -> None:
    """``pg_dump --format=custom`` of the database ``url`` to ``dest``."""
    conninfo, env = _libpq(url)
    tmp = _temporary(dest)
    tmp.unlink(missing_ok=True)
    try:
        _run("pg_dump", ["--format=custom", "--file", str(tmp), conninfo], env)
        place(tmp, dest, force)
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)


def pg_check(file: Path) -> None:
    """Refused unless ``file`` is an archive of ``pg_dump --format=custom``."""
    with open(file, "rb") as f:
        if f.read(len(PG_MAGIC)) != PG_MAGIC:
            raise StichError("admin.not_pg_backup", file=str(file))


def pg_restore(file: Path, url: str) -> None:
    """``pg_restore`` the archive ``file`` into the database ``url``, replacing what the
    archive holds, in one transaction."""
    pg_check(file)
    conninfo, env = _libpq(url)
    _run("pg_restore", ["--clean", "--if-exists", "--no-owner", "--single-transaction",
                        "--dbname", conninfo, str(file)], env)
