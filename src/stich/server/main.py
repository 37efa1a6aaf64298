"""Run the site on uvicorn: one process, or several workers sharing one socket.

The settings travel to worker processes in environment variables (``STICH_DB``,
``STICH_REDIS``, ``STICH_BOT_DELAY``, ``STICH_PUBLIC_URL``, ``STICH_LIMITS``,
``STICH_METRICS_TOKEN``, …); :func:`app_from_env` is the factory uvicorn imports in each
worker.  Behind a proxy (``--forwarded-allow-ips``) uvicorn takes the client's address
and scheme from ``X-Forwarded-For`` / ``X-Forwarded-Proto`` of those addresses only.
"""

from __future__ import annotations

import copy
import logging
import os
import shutil
import socket
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

import uvicorn
import uvicorn.config
import uvicorn.logging
from fastapi import FastAPI
from uvicorn.supervisors import Multiprocess

from stich.server.app import ServeConfig, create_app
from stich.server.guard import Site
from stich.server.limits import parse_limits
from stich.server.store.db import migrate
from stich.server_settings import DEFAULTS

__all__ = ["UtcAccessFormatter", "UtcDefaultFormatter", "UtcFormatter", "app_from_env", "bind",
           "log_config", "run", "shown_db"]

WS_MAX = 64 * 1024  # frames larger than this close the socket (1009); smaller ones
# that exceed the protocol's limit get an error message and the socket stays open


def log_config(level: str) -> dict[str, Any]:
    """uvicorn's logging, every line with its time (UTC, to the second), and the site's
    own lines (``stich.*``: a service gone and back, failures counted) at ``level``."""
    config = copy.deepcopy(uvicorn.config.LOGGING_CONFIG)
    for name, fmt in (("default", "%(asctime)s %(levelprefix)s %(message)s"),
                      ("access", '%(asctime)s %(levelprefix)s %(client_addr)s - '
                                 '"%(request_line)s" %(status_code)s')):
        config["formatters"][name].update(fmt=fmt, datefmt="%Y-%m-%dT%H:%M:%SZ")
        config["formatters"][name]["()"] = \
            f"stich.server.main.Utc{name.capitalize()}Formatter"
    config["formatters"]["site"] = {
        "()": "stich.server.main.UtcFormatter",
        "fmt": "%(asctime)s %(levelname)-8s %(name)s[%(process)d]: %(message)s",
        "datefmt": "%Y-%m-%dT%H:%M:%SZ"}
    config["handlers"]["site"] = {"formatter": "site", "class": "logging.StreamHandler",
                                  "stream": "ext://sys.stderr"}
    config["loggers"]["stich"] = {"handlers": ["site"], "level": level.upper(),
                                  "propagate": False}
    return config


class UtcFormatter(logging.Formatter):
    """Times in UTC (the ``Z`` of the format says so)."""

    def formatTime(self, record: logging.LogRecord,
                   datefmt: str | None = None) -> str:
        return time.strftime(datefmt or "%Y-%m-%dT%H:%M:%SZ", time.gmtime(record.created))


class UtcDefaultFormatter(uvicorn.logging.DefaultFormatter):
    """uvicorn's lines, their times in UTC."""

    def formatTime(self, record: logging.LogRecord,
                   datefmt: str | None = None) -> str:
        return time.strftime(datefmt or "%Y-%m-%dT%H:%M:%SZ", time.gmtime(record.created))


class UtcAccessFormatter(uvicorn.logging.AccessFormatter):
    """uvicorn's access lines, their times in UTC."""

    def formatTime(self, record: logging.LogRecord,
                   datefmt: str | None = None) -> str:
        return time.strftime(datefmt or "%Y-%m-%dT%H:%M:%SZ", time.gmtime(record.created))


def _env(name: str, default: float) -> float:
    """A number from the environment, else the default."""
    text = os.environ.get(name)
    return default if text is None else float(text)


def app_from_env() -> FastAPI:
    """The app of a worker process, configured from the environment (what is not there
    takes its default: :data:`stich.server_settings.DEFAULTS`)."""
    return create_app(ServeConfig(
        db=os.environ["STICH_DB"], redis=os.environ.get("STICH_REDIS") or None,
        bot_delay=_env("STICH_BOT_DELAY", DEFAULTS.bot_delay),
        bot_time=_env("STICH_BOT_TIME", DEFAULTS.bot_time),
        bot_processes=int(os.environ.get("STICH_BOT_PROCESSES", DEFAULTS.bot_processes)),
        presence_check=_env("STICH_PRESENCE_CHECK", DEFAULTS.presence_check),
        public_url=os.environ.get("STICH_PUBLIC_URL") or None,
        limits=parse_limits(os.environ.get("STICH_LIMITS")),
        metrics_token=os.environ.get("STICH_METRICS_TOKEN") or None,
        housekeeping=_env("STICH_HOUSEKEEPING", DEFAULTS.housekeeping),
        migrate=False))


def shown_db(url: str) -> str:
    """Where the database is, for people: a SQLite file's path, or the URL without its
    password.

    >>> shown_db("sqlite:////var/lib/stich/stich.db")
    '/var/lib/stich/stich.db'
    >>> shown_db("postgresql://stich:geheim@db.example.org:5432/stich")
    'postgresql://stich:***@db.example.org:5432/stich'
    """
    if url.startswith("sqlite:///"):
        return url[len("sqlite:///"):]
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # not a URL sqlalchemy reads: at least no password
        return url.split("@")[-1]


def bind(host: str, port: int) -> socket.socket:
    """The listening socket (port 0: any free port)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.set_inheritable(True)
    return sock


def run(*, db: str, redis: str | None, host: str, port: int, workers: int,
        bot_delay: float, announce: Callable[[str], None],
        bot_time: float = DEFAULTS.bot_time, log_level: str = DEFAULTS.log_level,
        public_url: str | None = None, forwarded_allow_ips: str | None = None,
        limits: str | None = None, metrics_token: str | None = None,
        ws_compression: bool = DEFAULTS.ws_compression,
        announce_db: Callable[[str], None] | None = None) -> None:
    """Migrate, bind, announce the address (the first line: scripts read it), then where
    the database is (:func:`shown_db`), serve until stopped.  ``ws_compression``: the
    WebSocket messages compressed (permessage-deflate; off by default: docs/speed.md)."""
    parse_limits(limits)  # a mistake is told now, not by every worker
    Site(public_url)
    migrate(db)
    sock = bind(host, port)
    real_port = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    os.environ["STICH_DB"] = db
    os.environ["STICH_REDIS"] = redis or ""
    os.environ["STICH_BOT_DELAY"] = str(bot_delay)
    os.environ["STICH_BOT_TIME"] = str(bot_time)
    for name, value in (("STICH_PUBLIC_URL", public_url), ("STICH_LIMITS", limits),
                        ("STICH_METRICS_TOKEN", metrics_token)):
        if value:
            os.environ[name] = value
    config = uvicorn.Config("stich.server.main:app_from_env", factory=True,
                            log_level=log_level, ws_max_size=WS_MAX, workers=workers,
                            log_config=log_config(log_level),
                            lifespan="on", proxy_headers=forwarded_allow_ips is not None,
                            forwarded_allow_ips=forwarded_allow_ips or "",
                            server_header=False, ws_per_message_deflate=ws_compression)
    announce(f"http://{shown}:{real_port}" + (f"  ({public_url})" if public_url else ""))
    if announce_db is not None:
        announce_db(shown_db(db))
    sys.stdout.flush()
    if workers > 1:
        # the workers' metrics meet in one folder (prometheus-client's multiprocess mode)
        shared = tempfile.mkdtemp(prefix="stich-metrics-") if metrics_token else None
        if shared:
            os.environ["PROMETHEUS_MULTIPROC_DIR"] = shared
        try:
            Multiprocess(config, sockets=[sock]).run()
        finally:
            if shared:
                shutil.rmtree(shared, ignore_errors=True)
    else:
        uvicorn.Server(config).run(sockets=[sock])
