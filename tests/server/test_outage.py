"""The database or Redis goes away under a real `stich serve` and comes back (issue 39):
PostgreSQL stopped (fast shutdown) and killed (-9 of the postmaster) with two workers,
Redis stopped with two workers, SQLite on a full disk.  Each service is the test's own
(``tests/services.py``: ``OwnPostgres``, ``OwnRedis``, ``small_disk``), the scenario is
``tests/server/outage.py`` (``bench/soak/server_outage.py`` runs the same, longer).

In every scenario: no socket is closed by the server; a person who acts while nothing can
be saved is told so (``server.not_saved``) and her socket answers on; HTTP answers in the
error shape (503 ``server.unavailable``), never plain text or 500; a new connection is
refused clearly (``server.unavailable``, then closed with 1013), not with 500 or 1006; a
page asked for by a browser says so in HTML (503);
``/api/health`` says what is away; every table moves again within 10 s of the service's
return with nobody doing anything (the person's table: her next try is taken); the
person, never gone, is never marked away (Redis restarted without its data: each worker
writes its presence again); every
event a socket received is the one stored, none lost, none twice; the log has times and
a line when the service goes and comes back, no traceback per retry."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests import services
from tests.server.outage import KINDS, run

RECOVERY = 10.0
STAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ ")


@pytest.mark.parametrize("kind", KINDS)
def test_the_site_lives_through_an_outage(kind: str, tmp_path: Path) -> None:
    try:
        rep = run(kind, tmp_path)
    except services.ServiceMissing as exc:
        services.missing(exc)
    saving_stops = kind != "redis-stop"  # without Redis the lease holder plays on

    assert rep.closed == {name: None for name in rep.closed}, rep.closed
    assert rep.ann_away == 0  # her presence holds through the outage (and Redis' restart)
    assert rep.ping_answered, rep.acted
    codes = [m.get("code") for m in rep.acted if m["type"] == "error"]
    moved = [m for m in rep.acted if m["type"] == "event"]
    if saving_stops:
        assert codes == ["server.not_saved"] and not moved, rep.acted
    else:
        assert not codes and moved, rep.acted

    assert rep.table_answer is not None
    status, body = rep.table_answer
    if kind.startswith("pg-"):
        assert status == 503 and body["error"]["code"] == "server.unavailable", body
        assert body["error"]["text"].startswith("The site cannot reach its database")
    else:  # (a full disk is still read; Redis is not needed to read)
        assert status == 200, body
    assert rep.page_answer is not None  # a page (her session is read from the database)
    status, page = rep.page_answer
    if kind.startswith("pg-"):
        assert status == 503 and "<html" in page and "The site is having trouble" in page
    else:
        assert status == 200 and "<html" in page, page[:300]

    assert rep.health_down is not None
    status, health = rep.health_down
    service = "redis" if kind == "redis-stop" else "database"
    assert health["services"][service]["ok"] is False, health
    assert health["services"][service]["down_for"] is not None, health
    if saving_stops:
        assert status == 503 and health["ok"] is False, health
    else:  # the site plays on: a load balancer keeps the worker, an operator sees it
        assert status == 200 and health["ok"] is True and health["degraded"] is True

    first = rep.connect_answer[0] if rep.connect_answer else None
    if kind.startswith("pg-"):
        assert isinstance(first, dict) and first["type"] == "error", rep.connect_answer
        assert first["code"] == "server.unavailable"
        assert rep.connect_close == 1013
    else:
        assert isinstance(first, dict) and first["type"] == "welcome", rep.connect_answer
        assert rep.connect_close is None

    slow = {t: s for t, s in rep.recovery.items() if s is None or s > RECOVERY}
    assert not slow, rep.recovery
    assert rep.health_back is not None and rep.health_back <= RECOVERY, rep.statuses
    assert 500 not in rep.statuses
    assert not rep.problems, rep.problems

    lines = [line.rstrip("\n") for line in rep.log if line.strip()]
    assert lines and all(STAMP.match(line) or line.startswith((" ", "\t")) for line in lines), \
        lines[:20]
    text = "".join(rep.log)
    assert f"{service} does not answer" in text and f"{service} is back" in text, text[-3000:]
    assert "Traceback" not in text, text[-5000:]
