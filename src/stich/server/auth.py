"""Accounts: register, log in and out, guests, the session cookie, and what an account
can do to itself (change its password, log out everywhere, delete itself).

Passwords are hashed with argon2id at the parameters OWASP recommends (19 MiB, two
passes, one lane), in a bounded pool (:class:`Hashing`): at most ``hashes_at_once``
hashes run at a time and ``hashes_waiting`` wait; beyond that the answer is "busy", so
that no number of parallel logins can take the server's memory.  A name is checked
before a password is hashed.  Logins are limited per address, and wrong passwords back
off per name and address (and, more leniently, per name alone).

A session is a random token in an HttpOnly, SameSite=Lax cookie (``Secure`` when the
site is on HTTPS); the database keeps only its SHA-256.  Every login, registration and
new guest ends the session the browser had before (no session fixation).  Logging out,
logging out everywhere, a new password and deleting the account close the table sockets
of the sessions they end at once.

A guest is an account without a password, made from a name alone (to sit at a table
from an invite link); registering while a guest turns that account into a registered
one, so the games played as the guest are claimed.  A guest cannot take a registered
player's name (nor one confusable with it: :mod:`stich.server.names`).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import secrets
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import APIRouter, Request, Response
from starlette.requests import HTTPConnection

from stich.core import ArgumentError
from stich.server.guard import Site, address_key
from stich.server.limits import Backoff, Limiter, Limits, RateLimited
from stich.server.names import check_name
from stich.server.protocol import (
    DeleteAccountRequest,
    GuestRequest,
    LoginRequest,
    PasswordRequest,
)
from stich.server.store.db import token_hash
from stich.server.store.models import User

__all__ = ["COOKIE", "Hashing", "address_of", "current_session", "current_user", "enforce",
           "require_user", "router", "user_json"]

COOKIE = "stich_session"
PASSWORD_MIN, PASSWORD_MAX = 8, 200
DELETED_NAME = "(gelöscht)"  # what a deleted account's games show (no name can be this)

router = APIRouter(prefix="/api", tags=["accounts"])

# argon2id, OWASP's first recommendation: m = 19 MiB, t = 2, p = 1
HASHER = PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1)
NAME_ADDRESS = Backoff(free=3, first=2.0, most=900.0, forget=3600.0)
NAME_ANYWHERE = Backoff(free=20, first=5.0, most=900.0, forget=3600.0)


class Hashing:
    """The password hashes: ``at_once`` at a time in their own threads (argon2 lets go
    of the interpreter while it works), ``waiting`` more in line; beyond that
    ``server.busy``."""

    def __init__(self, at_once: int = 2, waiting: int = 16) -> None:
        self._pool = concurrent.futures.ThreadPoolExecutor(
            max(1, at_once), thread_name_prefix="stich-hash")
        self._most = max(1, at_once) + max(0, waiting)
        self._busy = 0
        self._dummy: str | None = None

    async def _run(self, fn: Any, *args: Any) -> Any:
        if self._busy >= self._most:
            raise RateLimited("server.busy", 2)
        self._busy += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)
        finally:
            self._busy -= 1

    async def hash(self, password: str) -> str:
        out: str = await self._run(HASHER.hash, password)
        return out

    async def verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` is the one of ``stored``; an account without a password
        (or none at all) is checked against a random hash, so that the time of the
        answer tells nothing."""
        if stored is None:
            if self._dummy is None:
                self._dummy = await self.hash(secrets.token_urlsafe(16))
            stored = self._dummy
            password = "\x00" + password  # never the dummy's password
        try:
            ok: bool = await self._run(HASHER.verify, stored, password)
            return ok
        except (VerificationError, InvalidHashError):
            return False

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


def address_of(conn: HTTPConnection) -> str:
    """The key of the address a request came from (see :func:`guard.address_key`); the
    proxy's ``X-Forwarded-For`` counts only from ``--forwarded-allow-ips``."""
    return address_key(conn.client.host if conn.client else None)


async def enforce(conn: HTTPConnection, key: str, limit: str, per: float,
                  code: str = "server.rate_limited") -> None:
    """Count one request of ``key`` against the site's limit ``limit`` (a field of
    :class:`Limits`) per ``per`` seconds; refused with 429 when it is used up."""
    limits: Limits = conn.app.state.limits
    rule = limits.rule(limit, per)
    if rule is None:
        return
    limiter: Limiter = conn.app.state.limiter
    wait = await limiter.hit(f"{limit}:{key}", rule)
    if wait > 0:
        raise RateLimited(code, wait)


def check_password(password: str) -> None:
    if len(password) < PASSWORD_MIN:
        raise ArgumentError("auth.password_short", least=PASSWORD_MIN)
    if len(password) > PASSWORD_MAX:
        raise ArgumentError("auth.password_long", most=PASSWORD_MAX)


def user_json(user: User | None) -> dict[str, Any] | None:
    if user is None:
        return None
    return {"id": user.id, "name": user.name, "guest": user.guest}


async def current_session(conn: HTTPConnection) -> tuple[User, str] | None:
    """The user of the request's session cookie and the session's token hash (None
    without a valid session)."""
    token = conn.cookies.get(COOKIE)
    if not token or len(token) > 100:
        return None
    found: tuple[User, str] | None = await conn.app.state.store.session_of(token)
    return found


async def current_user(conn: HTTPConnection) -> User | None:
    """The user of the request's session cookie (None without a valid one)."""
    found = await current_session(conn)
    return found[0] if found else None


async def require_user(conn: HTTPConnection) -> User:
    user = await current_user(conn)
    if user is None:
        raise ArgumentError("auth.not_logged_in")
    return user


async def require_session(conn: HTTPConnection) -> tuple[User, str]:
    found = await current_session(conn)
    if found is None:
        raise ArgumentError("auth.not_logged_in")
    return found


async def _start_session(request: Request, response: Response, user: User) -> None:
    """A new session for ``user``; the browser's old one (whoever's it was) ends."""
    await _end_old_session(request)
    _set_cookie(request, response, await request.app.state.store.new_session(user.id))


async def _end_old_session(request: Request) -> None:
    """The session of the request's cookie ends (whoever's it was)."""
    old = request.cookies.get(COOKIE)
    if old and len(old) <= 100:
        await _end_sessions(request, [token_hash(old)])


def _set_cookie(request: Request, response: Response, token: str) -> None:
    site: Site = request.app.state.site
    response.set_cookie(COOKIE, token, httponly=True, samesite="lax",
                        secure=site.secure(request.scope), max_age=30 * 24 * 3600, path="/")


async def _end_sessions(request: Request, hashes: list[str]) -> None:
    """End sessions (by token hash) and close their table sockets everywhere."""
    if not hashes:
        return
    await request.app.state.store.end_sessions(hashes)
    await request.app.state.hub.drop_sessions(hashes)


def _clear_cookie(request: Request, response: Response) -> None:
    site: Site = request.app.state.site
    response.delete_cookie(COOKIE, path="/", secure=site.secure(request.scope),
                           httponly=True, samesite="lax")


@router.post("/register")
async def register(body: LoginRequest, request: Request, response: Response) -> dict[str, Any]:
    """Register a name with a password and log in.  A guest who registers keeps their
    account: the games played as the guest are theirs."""
    name, key = check_name(body.name)
    check_password(body.password)
    await enforce(request, address_of(request), "registrations_per_hour", 3600)
    store = request.app.state.store
    me = await current_user(request)
    if await store.user_by_key(key) is not None:
        raise ArgumentError("auth.name_taken", name=name)  # before any hashing
    pw_hash = await request.app.state.hashing.hash(body.password)
    if me is not None and me.guest:
        user = await store.register_guest(me.id, name, key, pw_hash)
    else:
        user = await store.create_user(name, key, pw_hash)
    await _start_session(request, response, user)
    return {"user": user_json(user)}


@router.post("/login")
async def login(body: LoginRequest, request: Request, response: Response) -> dict[str, Any]:
    """Log in with name and password.  Wrong passwords back off: from the fourth in an
    hour for a name from one address, the next try waits 2, 4, 8 … seconds (at most 15
    minutes); after 20 from anywhere, the name waits likewise."""
    address = address_of(request)
    await enforce(request, address, "logins_per_5min", 300, code="auth.too_many_attempts")
    try:
        _, key = check_name(body.name)
    except ArgumentError:
        raise ArgumentError("auth.bad_login") from None
    limiter: Limiter = request.app.state.limiter
    here, anywhere = f"login:{key}:{address}", f"login:{key}"
    wait = max(await limiter.locked(here, NAME_ADDRESS),
               await limiter.locked(anywhere, NAME_ANYWHERE))
    if wait > 0:
        raise RateLimited("auth.too_many_attempts", wait)
    store = request.app.state.store
    user = await store.user_by_key(key)
    hashing: Hashing = request.app.state.hashing
    stored = user.password_hash if user is not None else None
    ok = await hashing.verify(stored, body.password) and user is not None and bool(stored)
    if not ok or user is None:
        await limiter.failed(here, NAME_ADDRESS)
        await limiter.failed(anywhere, NAME_ANYWHERE)
        raise ArgumentError("auth.bad_login")
    await limiter.clear(here)
    if stored and HASHER.check_needs_rehash(stored):  # hashed with older parameters
        await store.set_password(user.id, await hashing.hash(body.password))
    await _start_session(request, response, user)
    return {"user": user_json(user)}


@router.post("/logout")
async def logout(request: Request, response: Response) -> dict[str, Any]:
    """End this session; the table sockets it opened close at once."""
    token = request.cookies.get(COOKIE)
    if token and len(token) <= 100:
        await _end_sessions(request, [token_hash(token)])
    _clear_cookie(request, response)
    return {"user": None}


@router.post("/guest")
async def guest(body: GuestRequest, request: Request, response: Response) -> dict[str, Any]:
    """Play as a guest under a name (no password); register later to keep the games."""
    name, key = check_name(body.name)
    store = request.app.state.store
    taken = await store.user_by_key(key)
    if taken is not None:  # a registered player's name (or one that looks like it)
        raise ArgumentError("auth.name_taken", name=name)
    await enforce(request, address_of(request), "guests_per_hour", 3600)
    await _end_old_session(request)
    user, token = await store.create_guest(name, f"guest:{secrets.token_hex(8)}")
    _set_cookie(request, response, token)
    return {"user": user_json(user)}


@router.get("/me")
async def me(request: Request) -> dict[str, Any]:
    """Who this session belongs to (``user`` null when nobody is logged in)."""
    return {"user": user_json(await current_user(request))}


async def _check_own_password(request: Request, user: User, password: str) -> None:
    """The account's password again (for changing it or deleting the account); wrong
    ones back off like logins."""
    limiter: Limiter = request.app.state.limiter
    key = f"login:{user.name_key}:{address_of(request)}"
    wait = await limiter.locked(key, NAME_ADDRESS)
    if wait > 0:
        raise RateLimited("auth.too_many_attempts", wait)
    if not await request.app.state.hashing.verify(user.password_hash, password):
        await limiter.failed(key, NAME_ADDRESS)
        raise ArgumentError("auth.wrong_password")
    await limiter.clear(key)


@router.post("/me/password")
async def change_password(body: PasswordRequest, request: Request) -> dict[str, Any]:
    """A new password (the old one to confirm).  Every other session of the account
    ends; this one stays."""
    user, current = await require_session(request)
    if user.guest:
        raise ArgumentError("auth.registered_only")
    check_password(body.new)
    await _check_own_password(request, user, body.old)
    store = request.app.state.store
    await store.set_password(user.id, await request.app.state.hashing.hash(body.new))
    await _end_sessions(request, await store.session_hashes(user.id, keep=current))
    return {"user": user_json(user)}


@router.post("/me/logout-all")
async def logout_everywhere(request: Request, response: Response) -> dict[str, Any]:
    """End every session of the account, this one included."""
    user, _ = await require_session(request)
    await _end_sessions(request, await request.app.state.store.session_hashes(user.id))
    _clear_cookie(request, response)
    return {"user": None}


@router.post("/me/delete")
async def delete_account(body: DeleteAccountRequest, request: Request,
                         response: Response) -> dict[str, Any]:
    """Delete the account (a registered player confirms with the password).  Its
    finished games stay, under a neutral name; refused while it sits at a table that
    is not over."""
    user, _ = await require_session(request)
    if not user.guest:
        await _check_own_password(request, user, body.password or "")
    store = request.app.state.store
    hashes = await store.session_hashes(user.id)
    await store.delete_user(user.id, DELETED_NAME)
    await request.app.state.hub.drop_sessions(hashes)
    await request.app.state.hub.forget_user(user.id)
    _clear_cookie(request, response)
    return {"user": None}
