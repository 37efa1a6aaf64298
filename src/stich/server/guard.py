"""What every request passes first, in one place: the body limit, the Origin check of
the WebSocket and of every request that changes something, the security headers, the
language and shape of refusals, and whom a limit per address counts.

:class:`Guard` is a plain ASGI middleware around the whole site:

- **Bodies are bounded before they are read.**  A ``Content-Length`` over
  :data:`MAX_BODY` is refused at once with 413; a body sent in chunks is counted while it
  arrives and refused the moment it passes the limit: nothing of it is parsed.
  (Starlette's own limit answers in plain text, outside the site's error handlers.)
- **Origin.**  A browser names the page a request comes from (``Origin``).  A WebSocket
  or a POST from another origin (another site, or another port of the same host: a
  cookie with ``SameSite=Lax`` is sent there too) is refused with 403.  A request without
  ``Origin`` whose ``Sec-Fetch-Site`` says it crosses sites is refused as well; a request
  with neither comes from a program, not from a page in a person's browser.
- **Headers.**  A Content-Security-Policy that allows only the site's own scripts,
  styles and connections and no framing; ``X-Content-Type-Options``,
  ``Referrer-Policy: same-origin`` (an invite token is part of some addresses),
  ``Cross-Origin-Opener-Policy``; HSTS when the site is served over HTTPS; the API's
  answers are never cached.

Refusals have the site's error shape ``{"error": {"code", "text"}}`` in the request's
language (:func:`stich.present.languages.choose_lang`).
"""

from __future__ import annotations

import ipaddress
import json
import re
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlsplit

from starlette.exceptions import HTTPException

from stich.messages import StichError
from stich.present.languages import choose_lang

__all__ = ["MAX_BODY", "Guard", "Site", "address_key", "error_body", "status_of"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_BODY = 16 * 1024  # bytes of one HTTP request body: the largest real one is ~1 KiB
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
       "form-action 'self'; frame-ancestors 'none'")
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=(), payment=()"),
]
HSTS = (b"strict-transport-security", b"max-age=31536000")


STATUS = {"auth.not_logged_in": 401, "auth.registered_only": 403, "auth.bad_login": 401,
          "server.not_seated": 403, "server.seat_taken": 409, "auth.name_taken": 409,
          "server.started": 409, "server.stale": 409, "server.already_seated": 409,
          "server.no_free_seat": 409, "server.too_large": 413, "server.bad_origin": 403,
          "server.rate_limited": 429, "auth.too_many_attempts": 429, "server.busy": 503,
          "server.unavailable": 503,
          "server.metrics_token": 401, "server.open_tables": 429, "server.bot_tables": 429,
          "server.not_creator": 403, "auth.wrong_password": 403, "auth.still_seated": 409,
          "server.table_over": 409, "server.no_analysis": 404,
          "server.rule_set_name_taken": 409, "server.rule_sets_full": 409,
          "server.rule_sets_guest": 403, "tournament.not_organiser": 403,
          "tournament.busy": 409, "tournament.started": 409,
          "tournament.round_running": 409, "tournament.open_tournaments": 429}


def status_of(code: str) -> int:
    """The HTTP status of a refusal's code (404 for ``….no_such_…``, else 400)."""
    if code in STATUS:
        return STATUS[code]
    return 404 if ".no_such_" in code else 400


def error_body(e: StichError, lang: str) -> dict[str, Any]:
    return {"error": {"code": e.code, "text": capitalised(e.text(lang))}}


def capitalised(text: str) -> str:
    """A refusal as a sentence for a person: its first letter a capital (the English
    catalogue texts start in lower case, as ``str(e)`` reads in logs).  A lone surrogate
    that a request smuggled into a parameter (``"\\ud800"`` in JSON) becomes U+FFFD:
    the answer is always UTF-8.

    >>> capitalised("seat \\ud800x")
    'Seat \\ufffdx'
    """
    text = _SURROGATES.sub("\ufffd", text)
    return text[:1].upper() + text[1:]


_SURROGATES = re.compile("[\ud800-\udfff]")


def address_key(host: str | None) -> str:
    """Whom a limit per address counts: an IPv4 address, or the /64 network of an IPv6
    address (one household or server gets a whole /64).

    >>> address_key("203.0.113.9"), address_key("2001:db8:1:2:3:4:5:6"), address_key(None)
    ('203.0.113.9', '2001:db8:1:2::/64', '?')
    """
    if not host:
        return "?"
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host[:64]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(ip) >> 64 << 64, 64)))
    return str(ip)


@dataclass(frozen=True)
class Site:
    """Where the site is reached.  ``public_url`` (``https://skat.example.org``) is the
    only origin accepted for WebSockets and changes; without it, the origin of the
    address the request was sent to (its ``Host``) is."""

    public_url: str | None = None

    def __post_init__(self) -> None:
        if self.public_url is not None:
            u = urlsplit(self.public_url)
            if u.scheme not in ("http", "https") or not u.hostname or \
                    u.path not in ("", "/") or u.query or u.fragment:
                raise ValueError(f"a public URL is http(s)://host[:port], not "
                                 f"{self.public_url!r}")

    @property
    def origin(self) -> str | None:
        """``scheme://host[:port]`` of the public URL (None without one)."""
        if self.public_url is None:
            return None
        u = urlsplit(self.public_url)
        default = {"http": 80, "https": 443}[u.scheme]
        host = u.hostname or ""
        if ":" in host:
            host = f"[{host}]"
        port = "" if u.port in (None, default) else f":{u.port}"
        return f"{u.scheme}://{host.lower()}{port}"

    @property
    def https(self) -> bool:
        return self.public_url is not None and self.public_url.startswith("https:")

    def allowed_origins(self, scope: Scope) -> tuple[str, ...]:
        """The origins this request may come from: the public URL's; without one, the
        address it was sent to (its ``Host``), by http or, as through a proxy that ends
        HTTPS without saying so, by https."""
        if self.origin is not None:
            return (self.origin,)
        given = str(scope.get("scheme") or "http")
        scheme = {"ws": "http", "wss": "https"}.get(given, given)
        host = (_header(scope, b"host") or "").lower()
        for default in (":80", ":443"):
            if host.endswith(default):
                host = host[: -len(default)]
        if scheme == "http":
            return (f"http://{host}", f"https://{host}")
        return (f"{scheme}://{host}",)

    def secure(self, scope: Scope) -> bool:
        """Cookies get ``Secure`` and responses HSTS: the site is on HTTPS."""
        return self.https or scope.get("scheme") in ("https", "wss")


def _header(scope: Scope, name: bytes) -> str | None:
    for k, v in scope.get("headers") or ():
        if k == name:
            return str(v.decode("latin-1"))
    return None


def origin_ok(scope: Scope, site: Site) -> bool:
    """May this request change something / open a table socket?  A browser's request
    names its origin (or at least says it crosses sites); a program's names nothing."""
    origin = _header(scope, b"origin")
    if origin is not None:
        return origin.lower() in site.allowed_origins(scope)
    fetch_site = _header(scope, b"sec-fetch-site")
    return fetch_site not in ("cross-site", "same-site")


def _scope_lang(scope: Scope) -> str:
    query = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("lang", [None])[0]
    return choose_lang(query, accept=_header(scope, b"accept-language"))


class Guard:
    """The ASGI middleware (see the module's text)."""

    def __init__(self, app: ASGIApp, site: Site | None = None,
                 max_body: int = MAX_BODY) -> None:
        self.app = app
        self.site = site or Site()
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "websocket":
            if not origin_ok(scope, self.site):
                await send({"type": "websocket.close", "code": 4403,
                            "reason": "origin not allowed"})
                return
            await self.app(scope, receive, send)
            return
        if kind != "http":
            await self.app(scope, receive, send)
            return
        if scope["method"] in UNSAFE and not origin_ok(scope, self.site):
            await self._refuse(scope, send, StichError("server.bad_origin"))
            return
        length = _header(scope, b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            err = StichError("server.too_large", size=length[:20], limit=self.max_body) \
                if length.isdigit() else StichError("server.bad_message",
                                                    reason="Content-Length")
            await self._refuse(scope, send, err)
            return
        secure = self.site.secure(scope)
        api = scope.get("path", "").startswith("/api/")
        received = 0

        async def counted() -> Message:
            nonlocal received
            msg = await receive()
            if msg["type"] == "http.request":
                received += len(msg.get("body", b""))
                if received > self.max_body:  # the site's handler answers (413)
                    raise HTTPException(413)
            return msg

        async def with_headers(msg: Message) -> None:
            if msg["type"] == "http.response.start":
                headers = list(msg.get("headers") or [])
                present = {k.lower() for k, _ in headers}
                headers += [h for h in HEADERS if h[0] not in present]
                if secure and HSTS[0] not in present:
                    headers.append(HSTS)
                if api and b"cache-control" not in present:
                    headers.append((b"cache-control", b"no-store"))
                msg["headers"] = headers
            await send(msg)

        await self.app(scope, counted, with_headers)

    async def _refuse(self, scope: Scope, send: Send, err: StichError) -> None:
        from stich.server.metrics import REFUSALS

        REFUSALS.labels(err.code).inc()
        body = json.dumps(error_body(err, _scope_lang(scope))).encode()
        headers = [(b"content-type", b"application/json"),
                   (b"content-length", str(len(body)).encode()), *HEADERS]
        if err.code == "server.too_large":  # the unread body is dropped with the connection
            headers.append((b"connection", b"close"))
        if self.site.secure(scope):
            headers.append(HSTS)
        await send({"type": "http.response.start", "status": status_of(err.code),
                    "headers": headers})
        await send({"type": "http.response.body", "body": body})
