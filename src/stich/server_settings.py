"""The site's settings and their defaults, each written once.

``stich serve``'s options (:mod:`stich.cli.serve`), :func:`stich.server.main.run` and the
worker processes' environment (:func:`stich.server.main.app_from_env`), the app
(:class:`stich.server.app.ServeConfig`) and the tables' hub
(:class:`stich.server.hub.HubConfig`) take their defaults from :data:`DEFAULTS`.

Standard library only: the command line reads it without loading the web libraries.

>>> DEFAULTS.bot_delay, DEFAULTS.port
(0.5, 8000)
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DEFAULTS", "ServerSettings"]


@dataclass(frozen=True)
class ServerSettings:
    """The settings of a site that have a default (the database, Redis, the public URL,
    the limits and the metrics token have none: they are given, or not there)."""

    host: str = "127.0.0.1"  # the address to listen on
    port: int = 8000  # 0: any free port
    workers: int = 1  # worker processes (several need Redis)
    bot_delay: float = 0.5  # seconds a bot waits before each move
    bot_time: float = 5.0  # a bot's seconds per move; then a random legal move plays
    bot_processes: int = 2  # processes per worker that run the bots and analyses
    presence_check: float = 10.0  # seconds after a (re)load until absent persons are away
    housekeeping: float = 30.0  # seconds between the rounds of idle checks and purges
    guest_days: float = 30.0  # guests without a session are deleted after this
    ws_compression: bool = False  # WebSocket permessage-deflate (docs/speed.md)
    log_level: str = "warning"  # uvicorn's and the site's own log lines


DEFAULTS = ServerSettings()
"""The defaults of every setting."""
