"""What an operator watches: Prometheus metrics at ``GET /metrics``.

Off unless ``stich serve --metrics-token TOKEN`` (or ``STICH_METRICS_TOKEN``) is given;
then only a request with ``Authorization: Bearer TOKEN`` gets them (anybody else: 401),
so that they are never public by default.  With several workers each process writes its
figures to a shared folder (prometheus-client's multiprocess mode, set up by
:func:`stich.server.main.run`) and a scrape of any worker sums them.

- ``stich_tables_live``: tables loaded and not over (per worker, summed)
- ``stich_connections``: open table sockets
- ``stich_actions_total{by}``: actions committed, by ``player``, ``bot`` or ``standin``
- ``stich_action_seconds``: from a player's action arriving to its event sent to every
  connection (a histogram)
- ``stich_bot_decision_seconds``: a bot's time for one move (in the worker pool)
- ``stich_database_errors_total``: events that could not be stored, failed rounds
- ``stich_refusals_total{code}``: requests refused for a limit (429, 503, 413, 403)
- ``stich_analyses_total``: analyses computed
- ``stich_events_loaded_total``: events read from the database to load a table (from its
  newest snapshot on: a few hundred a load, however long the table's history)
- ``stich_service_up{service}``: 1 while the ``database`` (and ``redis``) answer, 0
  while one does not (the least over the workers)
- ``stich_service_silent_seconds{service}``: seconds since it last answered (the most
  over the workers; a probe asks every second)
"""

from __future__ import annotations

import os
import secrets

from fastapi import APIRouter, Request, Response
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

from stich.core import ArgumentError

__all__ = ["ACTIONS", "ACTION_SECONDS", "ANALYSES", "BOT_SECONDS", "CONNECTIONS",
           "DB_ERRORS", "EVENTS_LOADED", "REFUSALS", "SERVICE_SILENT", "SERVICE_UP", "TABLES",
           "router"]

router = APIRouter(include_in_schema=False)

TABLES = Gauge("stich_tables_live", "Tables loaded and not over", multiprocess_mode="livesum")
CONNECTIONS = Gauge("stich_connections", "Open table sockets", multiprocess_mode="livesum")
ACTIONS = Counter("stich_actions", "Actions committed", ["by"])
ACTION_SECONDS = Histogram(
    "stich_action_seconds", "From a player's action arriving to its event sent",
    buckets=(0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0))
BOT_SECONDS = Histogram(
    "stich_bot_decision_seconds", "A bot's time for one move",
    buckets=(0.005, 0.01, 0.05, 0.1, 0.3, 0.5, 1.0, 2.0, 5.0, 10.0))
DB_ERRORS = Counter("stich_database_errors", "Events not stored and failed rounds")
REFUSALS = Counter("stich_refusals", "Requests refused for a limit", ["code"])
ANALYSES = Counter("stich_analyses", "Analyses computed")
EVENTS_LOADED = Counter("stich_events_loaded", "Events read from the database to load a table")
TOURNAMENT_READS = Counter("stich_tournament_reads",
                           "Tournaments read whole from the database for a look or a page")
SERVICE_UP = Gauge("stich_service_up", "Whether the service answers (1) or not (0)",
                   ["service"], multiprocess_mode="livemin")
SERVICE_SILENT = Gauge("stich_service_silent_seconds", "Seconds since the service last answered",
                       ["service"], multiprocess_mode="livemax")


@router.get("/metrics")
async def metrics(request: Request) -> Response:
    """The metrics in Prometheus' text format, for the bearer of the metrics token."""
    token: str | None = request.app.state.metrics_token
    if token is None:
        raise ArgumentError("server.no_such_path", method="GET", path="/metrics")
    given = request.headers.get("authorization", "")
    if not secrets.compare_digest(given.encode(), f"Bearer {token}".encode()):
        raise ArgumentError("server.metrics_token")
    registry = REGISTRY
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
    return Response(generate_latest(registry), media_type=CONTENT_TYPE_LATEST)
