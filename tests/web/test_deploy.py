"""The real way in from the internet: Caddy (Debian's binary) terminates HTTPS and proxies
to `stich serve`, as docs/deploy.md sets it up, and Chromium plays through it.

One Caddy serves two sites on free high ports, each with a certificate of Caddy's own
internal CA (``local_certs``: no ACME, no OCSP, nothing from the network; its root is
not installed anywhere, ``skip_install_trust``; Caddy's storage, configuration and home
are in the test's temporary folder, its admin endpoint on a free port for ``caddy
reload``; the Python clients trust that root, Chromium ignores certificate errors):

- ``https://localhost:P1`` → a server started as docs/deploy.md says
  (``--public-url https://localhost:P1 --forwarded-allow-ips 127.0.0.1``), with three
  guests an hour per address, so that the limit shows whom the server counts;
- ``https://localhost:P2`` → a server with ``--forwarded-allow-ips 127.0.0.1`` but no
  public URL: what it knows of the browser's scheme it has from Caddy's
  ``X-Forwarded-Proto``, which makes that header's effect visible.

Clients at other loopback addresses (127.0.0.2, …) stand for people elsewhere.  Caddy
comes from ``tests/services.py`` (``.ci/run`` installs Debian's ``caddy``; without one
the tests are skipped with one line, and fail under ``STICH_TEST_REQUIRE_ALL=1``)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import socket
import ssl
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from playwright.sync_api import Browser, Response
from websockets.exceptions import InvalidStatus

from stich.server.guard import CSP
from tests import services
from tests.server.harness import ROOMY, Server
from tests.web.browser import person, shot, state, step, table_id

pytestmark = pytest.mark.needs("caddy")  # tests/services.py: $STICH_CADDY or on PATH
PROXY = "127.0.0.1"  # where Caddy's requests to stich come from


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


CADDYFILE = """\
{{
	admin localhost:{admin_port}
	storage file_system {{
		root {data}
	}}
	local_certs
	skip_install_trust
	ocsp_stapling off
	auto_https disable_redirects
	http_port {http_port}
}}

https://localhost:{p1} {{
	reverse_proxy 127.0.0.1:{u1}
}}

https://localhost:{p2} {{
	reverse_proxy 127.0.0.1:{u2}
}}
"""


@dataclass
class Proxy:
    """The running Caddy and the two servers behind it."""

    public: Server      # --public-url https://localhost:P1 --forwarded-allow-ips 127.0.0.1
    plain: Server       # --forwarded-allow-ips 127.0.0.1 only
    p1: int
    p2: int
    tls: ssl.SSLContext  # trusts Caddy's internal root (and nothing else)
    log: Path
    reload_cmd: list[str]
    env: dict[str, str]

    def reload(self) -> None:
        """``caddy reload`` (what ``systemctl reload caddy`` does)."""
        subprocess.run(self.reload_cmd, env=self.env, check=True, capture_output=True,
                       timeout=30)

    @property
    def base(self) -> str:
        return f"https://localhost:{self.p1}"

    def client(self, port: int, source: str = "127.0.0.1") -> httpx.Client:
        """A program reaching Caddy from the address ``source`` (any of 127.0.0.0/8)."""
        return httpx.Client(base_url=f"https://localhost:{port}", timeout=30,
                            transport=httpx.HTTPTransport(verify=self.tls,
                                                          local_address=source))


@pytest.fixture(scope="module")
def proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Proxy]:
    caddy_exe = services.caddy()
    tmp = tmp_path_factory.mktemp("deploy")
    p1, p2 = free_port(), free_port()
    # three guests an hour per address: the limit shows whom the server counts
    public = Server(f"sqlite:///{tmp / 'public.db'}", bot_delay=0.05,
                    args=["--public-url", f"https://localhost:{p1}",
                          "--forwarded-allow-ips", PROXY,
                          "--limits", ROOMY + ",guests_per_hour=3"])
    plain = Server(f"sqlite:///{tmp / 'plain.db'}", bot_delay=0.05,
                   args=["--forwarded-allow-ips", PROXY])
    caddy: subprocess.Popen[bytes] | None = None
    log = tmp / "caddy.log"
    try:
        public.start(60)
        plain.start(60)
        conf = tmp / "Caddyfile"
        admin = free_port()
        conf.write_text(CADDYFILE.format(data=tmp / "caddy-data", http_port=free_port(),
                                         admin_port=admin, p1=p1, p2=p2, u1=public.port,
                                         u2=plain.port))
        env = {**os.environ, "HOME": str(tmp), "XDG_DATA_HOME": str(tmp / "xdg-data"),
               "XDG_CONFIG_HOME": str(tmp / "xdg-config")}
        with log.open("wb") as out:
            caddy = subprocess.Popen([caddy_exe, "run", "--config", str(conf), "--adapter",
                                      "caddyfile"], stdout=out, stderr=subprocess.STDOUT,
                                     env=env, cwd=tmp)
        root = tmp / "caddy-data" / "pki" / "authorities" / "local" / "root.crt"
        t0 = time.monotonic()
        while True:
            assert caddy.poll() is None, f"Caddy ended: {log.read_text()[-3000:]}"
            assert time.monotonic() - t0 < 30, f"Caddy did not answer: {log.read_text()[-3000:]}"
            if root.exists():
                tls = ssl.create_default_context(cafile=str(root))
                try:
                    if all(httpx.get(f"https://localhost:{p}/api/health", verify=tls,
                                     timeout=2).status_code == 200 for p in (p1, p2)):
                        break
                except (httpx.HTTPError, ssl.SSLError):
                    pass
            time.sleep(0.1)
        reload = [caddy_exe, "reload", "--config", str(conf), "--adapter", "caddyfile",
                  "--address", f"localhost:{admin}", "--force"]
        yield Proxy(public, plain, p1, p2, tls, log, reload, env)
    finally:
        if caddy is not None:
            caddy.terminate()
            try:
                caddy.wait(10)
            except subprocess.TimeoutExpired:
                caddy.kill()
                caddy.wait()
        plain.stop()
        public.stop()


SESSION = "__Host-stich_session"  # the session cookie's name on HTTPS (stich_session on http)


def set_cookie(r: httpx.Response, name: str = SESSION) -> list[str]:
    """The attributes of the session cookie ``name`` a response sets (lower case); on
    HTTPS it is ``__Host-stich_session`` (Secure, Path=/, no Domain), and nothing sets a
    plain ``stich_session`` there."""
    found = None
    for header in r.headers.get_list("set-cookie"):
        assert name == SESSION or not header.startswith(f"{SESSION}="), header
        assert name != SESSION or not header.startswith("stich_session="), header
        if header.startswith(f"{name}="):
            found = [a.strip().lower() for a in header.split(";")[1:]]
    if found is None:
        raise AssertionError(f"no session cookie {name}: {r.headers}")
    if name == SESSION:
        assert "path=/" in found and not any(a.startswith("domain") for a in found), found
    return [a.split("=")[0] for a in found]


def ws_first(url: str, origin: str, cookie: str, tls: ssl.SSLContext) -> Any:
    """Open a table socket with this Origin: its first message, or the refusal."""
    async def go() -> Any:
        try:
            async with websockets.connect(url, origin=origin,  # type: ignore[arg-type]
                                          additional_headers={"Cookie": cookie},
                                          ssl=tls) as ws:
                return json.loads(await asyncio.wait_for(ws.recv(), 10))
        except InvalidStatus as e:
            return e.response.status_code
    # in a thread of its own: Playwright's loop runs in this one while the browser lives
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, asyncio.wait_for(go(), 30)).result()


def test_a_whole_game_in_chromium_through_caddy(proxy: Proxy, browser: Browser) -> None:
    """A guest logs in by the lobby's form, opens a Skat table with two bots and plays
    a whole game by clicks, over https:// and wss:// through Caddy, which reloads its
    configuration in the middle of the card play."""
    ctx, page = person(browser, proxy.base, "Paula", ignore_https_errors=True)
    sockets: list[str] = []
    responses: list[Response] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    page.on("response", lambda r: responses.append(r))
    page.select_option("select[name=games]", "3")
    for i, seat in enumerate(["me", "bot:easy", "bot:easy"]):
        page.select_option(f".for-skat select[name=seat{i}]", seat)
    page.click("#create button[type=submit]")
    page.wait_for_url(f"{proxy.base}/t/**")
    page.wait_for_function("() => window.stichTable?.state.view?.phase")
    tid = table_id(page)
    moves: list[str] = []
    reloaded = False
    t0 = time.monotonic()
    while not state(page)["result"]:
        assert time.monotonic() - t0 < 180, f"no end after {moves}"
        m = step(page)
        if m:
            moves.append(m)
        else:
            page.wait_for_timeout(60)
        if moves.count("card") == 1 and not reloaded:
            # a reload of Caddy's configuration (systemctl reload caddy) ends every
            # WebSocket it proxies: the page connects again by itself, asking for what
            # came after the last event it saw, and the game goes on
            proxy.reload()
            reloaded = True
            while len(sockets) < 2:
                assert time.monotonic() - t0 < 180, "no new socket after Caddy's reload"
                page.wait_for_timeout(50)
            page.wait_for_function("() => window.stichTable.state.status === 'open'")
    shot(page, "deploy-result-desktop")
    assert state(page)["result"]["kind"] in ("game", "ramsch"), state(page)["result"]
    assert reloaded and "card" in moves, moves
    assert page.evaluate("() => window.stichTable.state.status") == "open"
    # the table's socket went through Caddy, encrypted
    assert len(sockets) == 2 and all(
        u.startswith(f"wss://localhost:{proxy.p1}/ws/tables/{tid}?") for u in sockets), sockets
    assert "since=" in sockets[1], sockets
    # the session cookie: __Host-, Secure, HttpOnly, SameSite=Lax, Path=/, no Domain
    cookies = [c for c in ctx.cookies(proxy.base) if c["name"].endswith("stich_session")]
    assert len(cookies) == 1 and cookies[0]["name"] == SESSION, ctx.cookies()
    assert cookies[0]["secure"] and cookies[0]["httpOnly"] and cookies[0]["sameSite"] == "Lax"
    assert cookies[0]["path"] == "/" and cookies[0]["domain"] == "localhost", cookies
    # every answer of the site (page, scripts, styles, API) came with HSTS and the CSP
    ours = [r for r in responses if r.url.startswith(proxy.base + "/")]
    kinds = {r.request.resource_type for r in ours}
    assert {"document", "script", "stylesheet", "fetch"} <= kinds, kinds
    for r in ours:
        headers = r.all_headers()
        assert headers.get("strict-transport-security") == "max-age=31536000", (r.url, headers)
        assert headers.get("content-security-policy") == CSP, (r.url, headers)
        assert headers.get("server") == "Caddy", (r.url, headers)
    # the one thing the browser may have logged is the socket Caddy's reload cut (the
    # test's own doing: Caddy 2.6 ends proxied sockets so that Chromium sometimes calls
    # it a failure); anything else is an error of the page
    cut = f"WebSocket connection to '{sockets[0]}' failed"
    errors = [e for e in page.errors if not e.startswith(cut)]  # type: ignore[attr-defined]
    assert errors == [], page.errors  # type: ignore[attr-defined]
    assert len(page.errors) <= 1, page.errors  # type: ignore[attr-defined]
    ctx.close()


def test_the_origin_check_holds_through_caddy(proxy: Proxy) -> None:
    """Another site's page cannot open a table socket or change anything, even with the
    person's cookie; the public origin can."""
    with proxy.client(proxy.p1) as c:
        assert c.post("/api/guest", json={"name": "Quentin"}).status_code == 200
        r = c.post("/api/tables", json={"game": "skat", "games": 3,
                                        "seats": ["me", "bot:easy", "bot:easy"]})
        assert r.status_code == 200, r.text
        tid = r.json()["table"]["id"]
        # the invite link is the public address, not the server's own behind Caddy
        assert r.json()["invite_url"].startswith(f"https://localhost:{proxy.p1}/t/{tid}?")
        cookie = f"{SESSION}={c.cookies[SESSION]}"
        refused = c.post("/api/tables", json={"game": "skat", "seats": ["me", "bot:easy",
                                                                         "bot:easy"]},
                         headers={"Origin": "https://evil.example"})
        assert refused.status_code == 403 and \
            refused.json()["error"]["code"] == "server.bad_origin", refused.text
        assert refused.headers["strict-transport-security"]
    url = f"wss://localhost:{proxy.p1}/ws/tables/{tid}?lang=en"
    assert ws_first(url, "https://evil.example", cookie, proxy.tls) == 403
    assert ws_first(url, f"http://localhost:{proxy.p1}", cookie, proxy.tls) == 403
    assert ws_first(url, f"https://localhost:{proxy.p2}", cookie, proxy.tls) == 403
    welcome = ws_first(url, f"https://localhost:{proxy.p1}", cookie, proxy.tls)
    assert welcome["type"] == "welcome" and welcome["you"] == 0, welcome


def guest(c: httpx.Client, name: str, **headers: str) -> httpx.Response:
    c.cookies.clear()  # a new guest would end the session the jar holds
    return c.post("/api/guest", json={"name": name}, headers=headers)


def from_address(source: str, base: str) -> httpx.Client:
    """A program reaching a server's own port from ``source`` (any of 127.0.0.0/8)."""
    return httpx.Client(base_url=base, timeout=30,
                        transport=httpx.HTTPTransport(local_address=source))


def test_the_limits_count_people_not_the_proxy(proxy: Proxy) -> None:
    """Behind Caddy a limit per address counts each person's address (Caddy's
    X-Forwarded-For), not Caddy's; the header counts from 127.0.0.1 only.  The site
    allows three guests an hour per address here."""
    with proxy.client(proxy.p1, "127.0.0.2") as c:
        assert guest(c, "Rita").status_code == 200
        # a forged X-Forwarded-For is replaced by Caddy: still 127.0.0.2's 2nd, 3rd, 4th
        assert guest(c, "Rita2", **{"X-Forwarded-For": "203.0.113.7"}).status_code == 200
        assert guest(c, "Rita3").status_code == 200
        over = guest(c, "Rita4", **{"X-Forwarded-For": "203.0.113.8"})
        assert over.status_code == 429, over.text
    # another person behind the same proxy has limits of their own
    with proxy.client(proxy.p1, "127.0.0.3") as c:
        assert guest(c, "Sven").status_code == 200
    # straight to the server's port: from the proxy's address the header counts ...
    with from_address(PROXY, proxy.public.url) as c:
        r = guest(c, "Tara", **{"X-Forwarded-For": "127.0.0.2"})
        assert r.status_code == 429, r.text  # counted as 127.0.0.2, whose guests are used up
    # ... from nowhere else: 127.0.0.5 names three other addresses in vain
    with from_address("127.0.0.5", proxy.public.url) as c:
        for i in range(3):
            r = guest(c, f"Vera{i}", **{"X-Forwarded-For": f"198.51.100.{i}"})
            assert r.status_code == 200, r.text
        assert guest(c, "Vera3", **{"X-Forwarded-For": "198.51.100.3"}).status_code == 429


def test_the_scheme_comes_from_caddy_alone(proxy: Proxy) -> None:
    """Behind Caddy a server without a public URL knows the browser's scheme from
    X-Forwarded-Proto (Secure cookie, HSTS, the https origin), from 127.0.0.1 only;
    its own port, plain http, gets neither."""
    with proxy.client(proxy.p2, "127.0.0.2") as c:
        r = guest(c, "Rita")
        assert r.status_code == 200, r.text
        assert "secure" in set_cookie(r) and "httponly" in set_cookie(r)
        assert r.headers["strict-transport-security"] == "max-age=31536000"
        t = c.post("/api/tables", json={"game": "skat", "seats": ["me", "bot:easy",
                                                                   "bot:easy"]})
        assert t.status_code == 200, t.text
        tid = t.json()["table"]["id"]
        cookie = f"{SESSION}={c.cookies[SESSION]}"
    # the Origin check knows the page's https origin from Host and X-Forwarded-Proto
    url = f"wss://localhost:{proxy.p2}/ws/tables/{tid}"
    assert ws_first(url, f"https://localhost:{proxy.p2}", cookie, proxy.tls)["you"] == 0
    assert ws_first(url, f"http://localhost:{proxy.p2}", cookie, proxy.tls) == 403
    # straight to the server's own port, plain http: no Secure cookie (a plain
    # stich_session: browsers refuse Secure and __Host- cookies there), no HSTS
    with from_address("127.0.0.3", proxy.plain.url) as c:
        r = guest(c, "Tara")
        assert r.status_code == 200 and "secure" not in set_cookie(r, "stich_session"), \
            r.headers
        assert "strict-transport-security" not in r.headers
    # X-Forwarded-Proto counts from the proxy's address (127.0.0.1) ...
    with from_address(PROXY, proxy.plain.url) as c:
        r = guest(c, "Uwe", **{"X-Forwarded-Proto": "https"})
        assert r.status_code == 200 and "secure" in set_cookie(r), r.headers
    # ... from nowhere else
    with from_address("127.0.0.5", proxy.plain.url) as c:
        r = guest(c, "Vera", **{"X-Forwarded-Proto": "https"})
        assert r.status_code == 200 and "secure" not in set_cookie(r, "stich_session"), \
            r.headers
        assert "strict-transport-security" not in r.headers
