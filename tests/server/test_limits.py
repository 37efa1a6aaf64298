"""Nobody can take the site down cheaply: a real `stich serve` with the site's default
limits (not the roomy ones the other tests use), attacked over real sockets.

- Bodies are refused before they are read (413 in the site's shape), validation errors
  stay one short line, unreadable bodies get the site's shape.
- Passwords: argon2id at OWASP's parameters, hashed in a bounded pool: 40 parallel wrong
  logins neither take the server's memory nor stop it; wrong passwords back off.
- Quotas: guests per address, open tables per account, tables of bots alone.
- Per connection: too many messages or ``sync`` requests are refused, then the socket
  is closed.
- Analyses: only for an account, only started by a POST; reading one (GET) starts
  none and spends no quota.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from tests.server.harness import Client, Server, database
from tests.server.proto_helpers import error_of, plain_clients, uid

DEFAULTS = {"STICH_LIMITS": "", "STICH_HOUSEKEEPING": "0"}


@contextlib.contextmanager
def serving(tmp: Path, limits: str = "", **env: str) -> Iterator[Server]:
    """A server on a fresh SQLite database with the default limits but ``limits``."""
    with database("sqlite", tmp) as url, \
            Server(url, env={**DEFAULTS, "STICH_LIMITS": limits, **env}) as srv:
        yield srv


@pytest.fixture
def strict(tmp_path: Path) -> Iterator[Server]:
    """A fresh server with the site's default limits for each test (SQLite; the counts
    live in the process, and each test counts from nothing)."""
    with serving(tmp_path) as srv:
        yield srv


@pytest.fixture
def clients(strict: Server) -> Iterator[Callable[..., Client]]:
    yield from plain_clients(strict)


def _raw(server: Server, request: bytes, send_body: bytes = b"", wait: float = 5.0) -> bytes:
    """Send raw bytes, read the answer until the server closes or ``wait`` passes."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=wait) as s:
        s.sendall(request)
        if send_body:
            with contextlib.suppress(OSError):  # the server answered and closed
                s.sendall(send_body)
        out = b""
        try:
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                out += chunk
                if b"\r\n\r\n" in out and b'"error"' in out and out.rstrip().endswith(b"}}"):
                    break
        except TimeoutError:
            pass
        return out


def test_a_huge_body_is_refused_before_it_is_read(strict: Server) -> None:
    """A Content-Length of 3.5 MB is answered at once, although no byte of the body
    was sent: nothing of it is read or parsed."""
    head = (b"POST /api/guest?lang=en HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nContent-Length: 3500000\r\n\r\n")
    t0 = time.monotonic()
    answer = _raw(strict, head)
    assert time.monotonic() - t0 < 3.0
    assert b" 413 " in answer.partition(b"\r\n")[0], answer[:300]
    body = json.loads(answer.split(b"\r\n\r\n", 1)[1])
    assert body["error"]["code"] == "server.too_large"
    assert "16384" in body["error"]["text"]


def test_a_chunked_body_is_cut_off_at_the_limit(strict: Server) -> None:
    keys = ",".join(f'"k{i}": 0' for i in range(300_000)).encode()
    body = b"{" + keys + b"}"
    chunks = b"".join(b"%x\r\n%s\r\n" % (len(body[i:i + 8192]), body[i:i + 8192])
                      for i in range(0, len(body), 8192)) + b"0\r\n\r\n"
    head = (b"POST /api/guest HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json"
            b"\r\nTransfer-Encoding: chunked\r\n\r\n")
    t0 = time.monotonic()
    answer = _raw(strict, head, chunks)
    assert time.monotonic() - t0 < 3.0
    assert b" 413 " in answer.split(b"\r\n", 1)[0], answer[:300]
    assert b'"server.too_large"' in answer


def test_many_keys_under_the_limit_get_one_short_error(clients: Callable[..., Client]) -> None:
    c = clients()
    body = {f"k{i}": 0 for i in range(1400)}
    body["name"] = uid("K")
    raw = json.dumps(body)
    assert 10_000 < len(raw) < 16 * 1024
    r = c.http.post("/api/guest?lang=en", content=raw,
                    headers={"content-type": "application/json"})
    assert error_of(r)[:2] == (422, "server.bad_message")
    assert len(r.text) < 400, r.text  # one problem, not one per key


def test_unreadable_bodies_get_the_sites_shape(clients: Callable[..., Client]) -> None:
    c = clients()
    for raw in (b'{"name": "\xff\xfe"}', b"[" * 10_000, b'{"name": "a"'):
        r = c.http.post("/api/guest?lang=en", content=raw,
                        headers={"content-type": "application/json"})
        status, code, _ = error_of(r)
        assert status in (400, 422) and code == "server.bad_json", (raw[:20], r.text)


def test_security_headers_and_nothing_from_other_sites(strict: Server) -> None:
    with httpx.Client(base_url=strict.url) as c:
        page = c.get("/")
        csp = page.headers["content-security-policy"]
        for part in ("default-src 'self'", "script-src 'self'", "frame-ancestors 'none'",
                     "object-src 'none'"):
            assert part in csp, csp
        assert page.headers["x-content-type-options"] == "nosniff"
        assert page.headers["referrer-policy"] == "same-origin"
        assert "strict-transport-security" not in page.headers  # plain http here
        assert c.get("/api/me").headers["cache-control"] == "no-store"
        assert error_of(c.get("/docs"))[:2] == (404, "server.no_such_path")
        for path in ("/", "/login", "/bestenliste", "/account", "/static/cards.html"):
            html = c.get(path).text
            assert "http://" not in html and "https://" not in html.replace(
                "https://www.w3.org", ""), path
            assert "<script>" not in html and " style=" not in html, path
        assert "server" not in c.get("/api/health").headers  # no server banner


def _rss(server: Server) -> int:
    assert server.proc is not None
    for line in Path(f"/proc/{server.proc.pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def test_parallel_wrong_logins_cost_bounded_memory(tmp_path: Path) -> None:
    """40 wrong logins at once: at most two hashes run (19 MiB each), a few wait, the
    rest are told the server is busy; the memory grows by far less than 40 hashes."""
    with serving(tmp_path, "logins_per_5min=10000") as srv:
        c = httpx.Client(base_url=srv.url, timeout=60)
        name = uid("Mem")
        assert c.post("/api/register", json={"name": name, "password": "richtig123"}
                      ).status_code == 200
        base = _rss(srv)
        peak = [base]
        statuses: list[int] = []
        stop = threading.Event()

        def watch() -> None:
            while not stop.is_set():
                peak[0] = max(peak[0], _rss(srv))
                time.sleep(0.02)

        def wrong(i: int) -> None:
            with httpx.Client(base_url=srv.url, timeout=60) as h:
                r = h.post("/api/login", json={"name": f"{name}{i}", "password": "x" * 20})
                statuses.append(r.status_code)

        w = threading.Thread(target=watch)
        w.start()
        threads = [threading.Thread(target=wrong, args=(i,)) for i in range(40)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        stop.set()
        w.join()
        # wrong, or (when more than 2 + 16 wait) the server is busy
        assert len(statuses) == 40 and set(statuses) <= {401, 503}, statuses
        assert peak[0] - base < 150 * 2**20, (base, peak[0])  # 40 × 64 MiB took 1.7 GB
        t0 = time.monotonic()
        assert c.get("/api/health").status_code == 200
        assert time.monotonic() - t0 < 2.0
        r = c.post("/api/login", json={"name": name, "password": "richtig123"})
        assert r.status_code == 200, r.text
        c.close()


def test_wrong_passwords_back_off(clients: Callable[..., Client]) -> None:
    c = clients()
    name = uid("Back")
    c.register(name, "richtig123")
    other = clients()
    for _ in range(4):  # three free, the fourth starts the lock
        assert error_of(other.post("/api/login", {"name": name, "password": "falsch123"}))[:2] \
            == (401, "auth.bad_login")
    r = other.post("/api/login?lang=en", {"name": name, "password": "richtig123"})
    status, code, text = error_of(r)
    assert (status, code) == (429, "auth.too_many_attempts")
    assert int(r.headers["retry-after"]) >= 1 and "try again in" in text
    time.sleep(int(r.headers["retry-after"]) + 0.2)
    assert other.post("/api/login", {"name": name, "password": "richtig123"}).status_code == 200


def test_logins_per_address_are_limited(tmp_path: Path) -> None:
    with serving(tmp_path, "logins_per_5min=5") as srv, \
            httpx.Client(base_url=srv.url) as c:
        codes = [c.post("/api/login", json={"name": uid(f"A{i}"), "password": "x" * 8}
                        ).status_code for i in range(7)]
        assert codes == [401] * 5 + [429] * 2


def test_guests_per_address_are_limited(clients: Callable[..., Client]) -> None:
    made = []
    for i in range(12):
        r = clients().post("/api/guest", {"name": uid(f"G{i}")})
        made.append(r.status_code)
    assert made[:10] == [200] * 10 and made[10:] == [429, 429], made


def test_open_tables_and_tables_of_bots_alone_are_bounded(clients: Callable[..., Client]
                                                          ) -> None:
    c = clients()
    c.register(uid("Quota"))
    for _ in range(5):
        c.create(game="skat", seats=["me", "person", "person"])
    r = c.post("/api/tables?lang=en", {"game": "skat", "seats": ["me", "person", "person"]})
    status, code, text = error_of(r)
    assert (status, code) == (429, "server.open_tables") and "5" in text
    d = clients()
    d.register(uid("Bots"))
    bots = ["bot:random"] * 3
    r = d.post("/api/tables", {"game": "skat", "games": 0, "seats": bots})
    assert error_of(r)[:2] == (400, "server.bot_games")  # bots never play open-ended
    r = d.post("/api/tables", {"game": "skat", "games": 99, "seats": bots})
    assert error_of(r)[:2] == (400, "server.bot_games")
    first = d.create(game="skat", games=36, seats=bots)
    assert first["table"]["status"] == "running"
    r = d.post("/api/tables", {"game": "baptisten", "seats": bots})
    assert error_of(r)[:2] == (429, "server.bot_tables")
    # the creator closes it: then another one may open
    assert d.post(f"/api/tables/{first['table']['id']}/close").status_code == 200
    assert d.create(game="baptisten", seats=bots)["table"]["status"] in ("running", "over")


def test_the_lobby_lists_few_tables_of_one_creator(tmp_path: Path) -> None:
    with serving(tmp_path, "account_open_tables=20,address_open_tables=50") as srv:
        c = Client(srv)
        c.register(uid("Many"))
        made = {c.create(game="skat", seats=["me", "person", "person"])["table"]["id"]
                for _ in range(8)}
        listed = {t["id"] for t in c.get("/api/tables").json()["tables"]}
        assert len(listed & made) == 3
        c.close()


def test_a_connection_that_floods_is_slowed_then_closed(clients: Callable[..., Client],
                                                        strict: Server) -> None:
    c = clients()
    c.guest(uid("Flood"))
    tid = c.create(game="skat", seats=["me", "bot:random", "bot:random"])["table"]["id"]

    async def flood() -> tuple[int, int, int | None]:
        ws = await c.connect(tid)
        snapshots = errors = 0
        code = None
        for _ in range(1000):  # each asks for a snapshot (a number beyond the table's)
            try:
                await ws.send({"type": "sync", "since": 10**6})
            except websockets.ConnectionClosed:
                break
        try:
            while True:
                msg = await ws.recv(5)
                snapshots += msg["type"] == "snapshot"
                errors += msg["type"] == "error" and msg["code"] == "server.rate_limited"
        except websockets.ConnectionClosed as e:
            code = e.rcvd.code if e.rcvd else None
        except TimeoutError:
            pass
        return snapshots, errors, code

    snapshots, errors, code = asyncio.run(asyncio.wait_for(flood(), 60))
    assert 1 <= snapshots <= 1 + 6, snapshots  # the first, then 6 per 10 s of 1000 asked
    assert errors >= 1
    assert code == 1008  # let go after too many refusals


def test_an_analysis_needs_an_account(strict: Server, clients: Callable[..., Client]) -> None:
    owner = clients()
    owner.register(uid("Ana"))
    made = owner.create(game="skat", games=3, seats=["bot:random"] * 3)
    tid = made["table"]["id"]
    end = time.monotonic() + 60
    games: list[Any] = []
    while time.monotonic() < end and not games:
        games = owner.get(f"/api/tables/{tid}/games").json()["games"]
        time.sleep(0.2)
    played = [g for g in games if g["players"]]
    assert played
    key = played[0]["id"]
    anon = clients()
    status, code, _ = error_of(anon.post(f"/api/games/{key}/analysis"))
    assert (status, code) == (401, "auth.not_logged_in")
    # reading one needs no account: there is none yet
    status, code, _ = error_of(anon.get(f"/api/games/{key}/analysis"))
    assert (status, code) == (404, "server.no_analysis")
    assert anon.get(f"/api/games/{key}").status_code == 200  # the game itself is public


def _declared_games(owner: Client, tid: str) -> list[str]:
    """The keys of a table's finished games with a declarer (not Ramsch, not passed):
    those there are once there is one (within 60 s)."""
    end = time.monotonic() + 60
    keys: list[str] = []
    while time.monotonic() < end and not keys:
        games = owner.get(f"/api/tables/{tid}/games").json()["games"]
        keys = [g["id"] for g in games if any(p["declarer"] for p in g["players"])]
        time.sleep(0.2)
    assert keys, "no game with a declarer"
    return keys


def test_reading_an_analysis_starts_none_and_spends_no_quota(tmp_path: Path) -> None:
    """Issue 38: a GET that starts an analysis lets an ``<img>`` on a page of the same
    site spend a visitor's quota.  With the site's default limits (10 analyses an hour
    per account, 30 per address), an account and an anonymous visitor on one address
    ``GET`` analyses more often than both quotas allow: each answer is
    ``server.no_analysis`` (404) and no analysis is computed (the metrics count none).
    A POST from another origin's page is refused and starts nothing.  Then the account's
    ``POST`` starts one (its quota untouched), and a GET reads it for anybody."""
    token = "t" * 32
    with serving(tmp_path, STICH_METRICS_TOKEN=token) as srv:
        owner = Client(srv)
        owner.register(uid("Wirt"))
        tid = owner.create(game="skat", games=9, seats=["bot:random"] * 3)["table"]["id"]
        keys = _declared_games(owner, tid)
        reader, anon = Client(srv), Client(srv)
        reader.register(uid("Leser"))

        def computed() -> list[str]:
            text = httpx.get(srv.url + "/metrics",
                             headers={"Authorization": f"Bearer {token}"}).text
            return [ln for ln in text.splitlines() if ln.startswith("stich_analyses_total ")]

        for i in range(16):  # 16 by the account (quota 10), 32 from the address (30)
            for c in (reader, anon):
                r = c.get(f"/api/games/{keys[i % len(keys)]}/analysis")
                assert error_of(r)[:2] == (404, "server.no_analysis"), r.text
        for headers in ({"Origin": "https://evil.example"}, {"Sec-Fetch-Site": "same-site"},
                        {"Origin": f"http://127.0.0.1:{srv.port + 1}"}):
            r = reader.http.post(f"/api/games/{keys[0]}/analysis", headers=headers)
            assert error_of(r)[:2] == (403, "server.bad_origin"), (headers, r.text)
        assert error_of(anon.get(f"/api/games/{keys[0]}/analysis"))[:2] \
            == (404, "server.no_analysis")  # still none: nothing started meanwhile
        assert computed() == ["stich_analyses_total 0.0"]
        made = reader.post(f"/api/games/{keys[0]}/analysis",
                           headers={"Origin": srv.url, "Sec-Fetch-Site": "same-origin"})
        assert made.status_code == 200, made.text
        assert made.json()["cached"] is False
        assert computed() == ["stich_analyses_total 1.0"]
        read = anon.get(f"/api/games/{keys[0]}/analysis")
        assert read.status_code == 200, read.text
        assert read.json() == {"game": keys[0], "cached": True,
                               "analysis": made.json()["analysis"]}
        for c in (owner, reader, anon):
            c.close()


def test_sockets_per_address_are_bounded(tmp_path: Path) -> None:
    with serving(tmp_path, "sockets_per_address=3") as srv:
        c = Client(srv)
        c.guest(uid("Sock"))
        tid = c.create(game="skat", seats=["me", "person", "person"])["table"]["id"]

        async def many() -> tuple[dict[str, Any], int | None]:
            held = [await c.connect(tid) for _ in range(3)]
            for ws in held:
                await ws.until(lambda m: m["type"] == "welcome")
            extra = await c.connect(tid)
            try:
                first = await extra.recv(10)
                await extra.recv(10)
                code = None
            except websockets.ConnectionClosed as e:
                code = e.rcvd.code if e.rcvd else None
            await held[0].close()  # one goes: another may come
            again = await c.connect(tid)
            assert (await again.recv(10))["type"] == "welcome"
            for ws in (*held[1:], again):
                await ws.close()
            return first, code

        first, code = asyncio.run(asyncio.wait_for(many(), 60))
        assert first["type"] == "error" and first["code"] == "server.rate_limited"
        assert code == 1013
        c.close()


def test_one_analysis_for_many_askers(tmp_path: Path) -> None:
    """Five accounts ask for the same game's analysis at once: the solver runs once
    (counted in the metrics), and every one of them gets it."""
    token = "t" * 32
    with serving(tmp_path, "registrations_per_hour=20", STICH_METRICS_TOKEN=token) as srv:
        owner = Client(srv)
        owner.register(uid("Solo"))
        tid = owner.create(game="skat", games=9, seats=["bot:random"] * 3)["table"]["id"]
        end = time.monotonic() + 60
        keys: list[str] = []
        while time.monotonic() < end and not keys:
            games = owner.get(f"/api/tables/{tid}/games").json()["games"]
            keys = [g["id"] for g in games  # a game with a declarer (not Ramsch)
                    if any(p["declarer"] for p in g["players"])]
            time.sleep(0.2)
        askers = [Client(srv) for _ in range(5)]
        for a in askers:
            a.register(uid("Ask"))
        results: list[dict[str, Any]] = []

        def ask(a: Client) -> None:
            results.append(a.post(f"/api/games/{keys[0]}/analysis").json())
        threads = [threading.Thread(target=ask, args=(a,)) for a in askers]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(results) == 5 and all("analysis" in r for r in results), results
        assert len({json.dumps(r["analysis"], sort_keys=True) for r in results}) == 1
        text = httpx.get(srv.url + "/metrics",
                         headers={"Authorization": f"Bearer {token}"}).text
        count = [ln for ln in text.splitlines() if ln.startswith("stich_analyses_total ")]
        assert count == ["stich_analyses_total 1.0"], count
        for a in (owner, *askers):
            a.close()
