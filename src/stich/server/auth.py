"""Accounts: register, log in and out, guests, the session cookie, and what an account
can do to itself (change its password, log out everywhere, delete itself).

Passwords are hashed with argon2id at the parameters OWASP recommends (19 MiB, two
passes, one lane), in a bounded pool (:class:`Hashing`): at most ``hashes_at_once``
hashes run at a time and ``hashes_waiting`` wait; beyond that the answer is "busy", so
that no number of parallel logins can take the server's memory.  A name is checked
before a password is hashed.  Logins are limited per address, and wrong passwords back
off per name and address (and, more leniently, per name alone).  The lock per name alone
is others' doing, so it does not keep the owner out: a browser that logged in to the
account before (its device cookie) or an address it logged in from is let through to
the back-off of its own address (:meth:`Store.known_login`).  The account's own password
asked again (a new password, deleting the account) backs off per account as well, so
that a stolen session cannot guess it from many addresses.

A session is a random token in an HttpOnly, SameSite=Lax cookie; the database keeps only
its SHA-256.  When the site is on HTTPS the cookie is ``__Host-stich_session`` (``Secure``,
``Path=/``, no ``Domain``: a page of a sibling host or of another port cannot set it, so
nobody can plant a session of theirs); a plain ``stich_session`` logs nobody in there.
Over plain http (a laptop) it is ``stich_session``.  Every login, registration and new guest
ends the session the browser had before (no session fixation).  Logging out, logging
out everywhere, a new password and deleting the account close the table sockets of the
sessions they end at once.

A guest is an account without a password, made from a name alone (to sit at a table
from an invite link); registering while a guest turns that account into a registered
one, so the games played as the guest are claimed.  A name is one person's at a time:
nobody can take a registered player's name, nor a guest's while the guest has a live
session (nor a name confusable with either: :mod:`stich.server.names`); after a guest's
last session its name is free (its finished games keep showing it).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import hashlib
import secrets
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import APIRouter, Request, Response
from starlette.requests import HTTPConnection

from stich.core import ArgumentError
from stich.server.guard import Site, address_key
from stich.server.limits import Backoff, Limiter, Limits, RateLimited
from stich.server.names import check_name, check_new_name, mixed_scripts
from stich.server.protocol import (
    DeleteAccountRequest,
    GuestRequest,
    LoginRequest,
    PasswordRequest,
)
from stich.server.store.db import DEVICE_DAYS, token_hash
from stich.server.store.models import User

__all__ = ["COOKIE", "HOST_COOKIE", "Hashing", "address_of", "current_session", "current_user",
           "enforce", "require_user", "router", "session_cookie", "user_json"]

COOKIE = "stich_session"  # the session's cookie over plain http
HOST_COOKIE = "__Host-stich_session"  # over https: only this host sets it
DEVICE_COOKIE = "stich_device"  # a browser that logged in before (its accounts are known)
HOST_DEVICE_COOKIE = "__Host-stich_device"
PASSWORD_MIN, PASSWORD_MAX = 8, 200
DELETED_NAME = "(gelöscht)"  # what a deleted account's games show (no name can be this)

router = APIRouter(prefix="/api", tags=["accounts"])

# argon2id, OWASP's first recommendation: m = 19 MiB, t = 2, p = 1
HASHER = PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1)
NAME_ADDRESS = Backoff(free=3, first=2.0, most=900.0, forget=3600.0)
NAME_ANYWHERE = Backoff(free=20, first=5.0, most=900.0, forget=3600.0)
OWN_PASSWORD = Backoff(free=5, first=5.0, most=900.0, forget=3600.0)  # per account


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


def _secure(conn: HTTPConnection) -> bool:
    site: Site = conn.app.state.site
    return site.secure(conn.scope)


def session_cookie(conn: HTTPConnection) -> str:
    """The session cookie's name for this request: ``__Host-stich_session`` when the
    site is on HTTPS (no other host or port can set it), else ``stich_session``."""
    return HOST_COOKIE if _secure(conn) else COOKIE


def _device_cookie(conn: HTTPConnection) -> str:
    return HOST_DEVICE_COOKIE if _secure(conn) else DEVICE_COOKIE


def _token(conn: HTTPConnection, cookie: str) -> str | None:
    token = conn.cookies.get(cookie)
    return token if token and len(token) <= 100 else None


def _address_hash(address: str) -> str:
    """What the database keeps of an address an account logged in from."""
    return hashlib.sha256(f"stich-login:{address}".encode()).hexdigest()


async def current_session(conn: HTTPConnection) -> tuple[User, str] | None:
    """The user of the request's session cookie and the session's token hash (None
    without a valid session)."""
    token = conn.cookies.get(session_cookie(conn))
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
    """The session of the request's cookie ends (whoever's it was); on HTTPS also one of
    a plain ``stich_session`` (a browser's from before the ``__Host-`` cookie)."""
    old = {_token(request, session_cookie(request)), _token(request, COOKIE)}
    await _end_sessions(request, [token_hash(t) for t in old if t])


def _set_cookie(request: Request, response: Response, token: str) -> None:
    secure = _secure(request)
    response.set_cookie(session_cookie(request), token, httponly=True, samesite="lax",
                        secure=secure, max_age=30 * 24 * 3600, path="/")
    if secure and COOKIE in request.cookies:  # a plain one from before: gone
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")


async def _remember_login(request: Request, response: Response, user: User) -> None:
    """The account logged in in this browser from this address: both are known to it
    now (:meth:`Store.known_login`).  The browser's device cookie is kept when it is
    already this account's, else a new one is set (a cookie somebody else planted, or
    another account's, is never made this account's)."""
    store = request.app.state.store
    offered = _token(request, _device_cookie(request))
    if offered is None or not await store.knows_device(user.id, token_hash(offered)):
        offered = secrets.token_urlsafe(32)
    await store.remember_login(user.id, token_hash(offered),
                               _address_hash(address_of(request)))
    response.set_cookie(_device_cookie(request), offered, httponly=True, samesite="lax",
                        secure=_secure(request), max_age=DEVICE_DAYS * 86400, path="/")


async def _known_here(request: Request, key: str, address: str) -> bool:
    """Whether the account of the name key ``key`` logged in before in this browser
    or from this address (one query, whether the name is anybody's or not)."""
    device = _token(request, _device_cookie(request))
    known: bool = await request.app.state.store.known_login(
        key, token_hash(device) if device else None, _address_hash(address))
    return known


async def _end_sessions(request: Request, hashes: list[str]) -> None:
    """End sessions (by token hash) and close their table sockets everywhere."""
    if not hashes:
        return
    await request.app.state.store.end_sessions(hashes)
    await request.app.state.hub.drop_sessions(hashes)


def _clear_cookie(request: Request, response: Response) -> None:
    secure = _secure(request)
    response.delete_cookie(session_cookie(request), path="/", secure=secure, httponly=True,
                           samesite="lax")
    if secure and COOKIE in request.cookies:
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")


@router.post("/register")
async def register(body: LoginRequest, request: Request, response: Response) -> dict[str, Any]:
    """Register a name with a password and log in.  A guest who registers keeps their
    account: the games played as the guest are theirs (and so is the guest's name)."""
    name, key, look = check_new_name(body.name)
    check_password(body.password)
    await enforce(request, address_of(request), "registrations_per_hour", 3600)
    store = request.app.state.store
    me = await current_user(request)
    mine = me.id if me is not None and me.guest else None  # a guest keeps its name
    if any(u.id != mine for u in await store.name_holders(key, look)):
        raise ArgumentError("auth.name_taken", name=name)  # before any hashing
    if mixed_scripts(name):
        raise ArgumentError("auth.name_scripts", name=name)
    pw_hash = await request.app.state.hashing.hash(body.password)
    if me is not None and me.guest:
        user = await store.register_guest(me.id, name, key, look, pw_hash)
    else:
        user = await store.create_user(name, key, look, pw_hash)
    await _start_session(request, response, user)
    await _remember_login(request, response, user)
    return {"user": user_json(user)}


@router.post("/login")
async def login(body: LoginRequest, request: Request, response: Response) -> dict[str, Any]:
    """Log in with name and password.  Wrong passwords back off: from the fourth in an
    hour for a name from one address, the next try waits 2, 4, 8 … seconds (at most 15
    minutes); after 20 from anywhere, the name waits likewise, but for a browser that
    logged in to the account before and an address it logged in from (its owner's)."""
    address = address_of(request)
    await enforce(request, address, "logins_per_5min", 300, code="auth.too_many_attempts")
    try:
        _, key = check_name(body.name)
    except ArgumentError:
        raise ArgumentError("auth.bad_login") from None
    limiter: Limiter = request.app.state.limiter
    here, anywhere = f"login:{key}:{address}", f"login:{key}"
    wait = await limiter.locked(here, NAME_ADDRESS)
    elsewhere = await limiter.locked(anywhere, NAME_ANYWHERE)
    if elsewhere > wait and await _known_here(request, key, address):
        elsewhere = 0.0  # the owner's browser or address: only its own back-off counts
    wait = max(wait, elsewhere)
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
    await _remember_login(request, response, user)
    return {"user": user_json(user)}


@router.post("/logout")
async def logout(request: Request, response: Response) -> dict[str, Any]:
    """End this session; the table sockets it opened close at once."""
    await _end_old_session(request)
    _clear_cookie(request, response)
    return {"user": None}


@router.post("/guest")
async def guest(body: GuestRequest, request: Request, response: Response) -> dict[str, Any]:
    """Play as a guest under a name (no password); register later to keep the games.
    The guest holds the name while it has a live session."""
    name, key, look = check_new_name(body.name)
    store = request.app.state.store
    holders = await store.name_holders(key, look)
    if holders:  # a player's name (or one that looks like it), but for the browser's own
        me = await current_user(request)  # guest's, which ends now
        if any(u.id != (me.id if me is not None and me.guest else None) for u in holders):
            raise ArgumentError("auth.name_taken", name=name)
    if mixed_scripts(name):
        raise ArgumentError("auth.name_scripts", name=name)
    await enforce(request, address_of(request), "guests_per_hour", 3600)
    await _end_old_session(request)
    user, token = await store.create_guest(name, key, look)
    _set_cookie(request, response, token)
    return {"user": user_json(user)}


@router.get("/me")
async def me(request: Request) -> dict[str, Any]:
    """Who this session belongs to (``user`` null when nobody is logged in)."""
    return {"user": user_json(await current_user(request))}


async def _check_own_password(request: Request, user: User, password: str) -> None:
    """The account's password again (for changing it or deleting the account); wrong
    ones back off like logins per address, and per account from anywhere (a stolen
    session guessing from many addresses: five free, then 5 s doubling)."""
    limiter: Limiter = request.app.state.limiter
    here, anywhere = f"login:{user.name_key}:{address_of(request)}", f"own:{user.id}"
    wait = max(await limiter.locked(here, NAME_ADDRESS),
               await limiter.locked(anywhere, OWN_PASSWORD))
    if wait > 0:
        raise RateLimited("auth.too_many_attempts", wait)
    if not await request.app.state.hashing.verify(user.password_hash, password):
        await limiter.failed(here, NAME_ADDRESS)
        await limiter.failed(anywhere, OWN_PASSWORD)
        raise ArgumentError("auth.wrong_password")
    await limiter.clear(here)
    await limiter.clear(anywhere)


@router.post("/me/password")
async def change_password(body: PasswordRequest, request: Request) -> dict[str, Any]:
    """A new password (the old one to confirm).  Every other session of the account
    ends; this one stays.  The browsers and addresses the account logged in from
    before are forgotten but this one (a thief's are strangers again)."""
    user, current = await require_session(request)
    if user.guest:
        raise ArgumentError("auth.registered_only")
    check_password(body.new)
    await _check_own_password(request, user, body.old)
    store = request.app.state.store
    await store.set_password(user.id, await request.app.state.hashing.hash(body.new))
    await _end_sessions(request, await store.session_hashes(user.id, keep=current))
    device = _token(request, _device_cookie(request))
    await store.forget_logins(user.id, keep=[_address_hash(address_of(request)),
                                             *([token_hash(device)] if device else [])])
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
