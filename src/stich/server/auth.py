"""Accounts: register, log in and out, guests, and the session cookie.

Passwords are hashed with argon2 (argon2-cffi).  A session is a random token in an
HttpOnly, SameSite=Lax cookie; the database keeps only the token's SHA-256.  A guest is
an account without a password, made from a name alone (to sit at a table from an invite
link); registering while a guest turns that account into a registered one, so the games
played as the guest are claimed.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import APIRouter, Request, Response
from starlette.concurrency import run_in_threadpool

from stich.core import ArgumentError
from stich.server.protocol import GuestRequest, LoginRequest
from stich.server.store.models import User

__all__ = ["COOKIE", "current_user", "require_user", "router", "user_json"]

COOKIE = "stich_session"
NAME_RE = re.compile(r"^[\w][\w .\-]{0,23}$")
PASSWORD_MIN, PASSWORD_MAX = 8, 200

router = APIRouter(prefix="/api", tags=["accounts"])
_hasher = PasswordHasher()


_DUMMY: list[str] = []


def _dummy_hash() -> str:
    """A hash of a random password: what an unknown name is checked against."""
    if not _DUMMY:
        _DUMMY.append(_hasher.hash(secrets.token_urlsafe(16)))
    return _DUMMY[0]


def check_name(name: str) -> str:
    """A display name: 1–24 letters, digits, spaces, ``. _ -``, not starting with a
    space or sign (so nothing HTML- or SQL-like gets through)."""
    name = " ".join(name.split())
    if not NAME_RE.match(name):
        raise ArgumentError("auth.name_invalid")
    return name


def check_password(password: str) -> None:
    if len(password) < PASSWORD_MIN:
        raise ArgumentError("auth.password_short", least=PASSWORD_MIN)
    if len(password) > PASSWORD_MAX:
        raise ArgumentError("auth.password_long", most=PASSWORD_MAX)


def user_json(user: User | None) -> dict[str, Any] | None:
    if user is None:
        return None
    return {"id": user.id, "name": user.name, "guest": user.guest}


async def current_user(request: Request) -> User | None:
    """The user of the request's session cookie (None without a valid one)."""
    token = request.cookies.get(COOKIE)
    if not token or len(token) > 100:
        return None
    store = request.app.state.store
    user: User | None = await store.session_user(token)
    return user


async def require_user(request: Request) -> User:
    user = await current_user(request)
    if user is None:
        raise ArgumentError("auth.not_logged_in")
    return user


def _set_cookie(request: Request, response: Response, token: str) -> None:
    response.set_cookie(COOKIE, token, httponly=True, samesite="lax",
                        secure=request.url.scheme == "https", max_age=30 * 24 * 3600,
                        path="/")


@router.post("/register")
async def register(body: LoginRequest, request: Request, response: Response) -> dict[str, Any]:
    """Register a name with a password and log in.  A guest who registers keeps their
    account: the games played as the guest are theirs."""
    name = check_name(body.name)
    check_password(body.password)
    store = request.app.state.store
    pw_hash = await run_in_threadpool(_hasher.hash, body.password)
    me = await current_user(request)
    if me is not None and me.guest:
        user = await store.register_guest(me.id, name, pw_hash)
    else:
        user = await store.create_user(name, pw_hash, guest=False)
    _set_cookie(request, response, await store.new_session(user.id))
    return {"user": user_json(user)}


@router.post("/login")
async def login(body: LoginRequest, request: Request, response: Response) -> dict[str, Any]:
    store = request.app.state.store
    user = await store.user_by_name(body.name.strip())
    ok = False
    # an unknown name costs a hash check too, so that the answer's time tells nothing
    stored = user.password_hash if user is not None and user.password_hash else _dummy_hash()
    try:
        ok = await run_in_threadpool(_hasher.verify, stored, body.password)
    except (VerificationError, InvalidHashError):
        ok = False
    ok = ok and user is not None and bool(user.password_hash)
    if not ok or user is None:
        raise ArgumentError("auth.bad_login")
    _set_cookie(request, response, await store.new_session(user.id))
    return {"user": user_json(user)}


@router.post("/logout")
async def logout(request: Request, response: Response) -> dict[str, Any]:
    token = request.cookies.get(COOKIE)
    if token:
        await request.app.state.store.end_session(token)
    response.delete_cookie(COOKIE, path="/")
    return {"user": None}


@router.post("/guest")
async def guest(body: GuestRequest, request: Request, response: Response) -> dict[str, Any]:
    """Play as a guest under a name (no password); register later to keep the games."""
    name = check_name(body.name)
    store = request.app.state.store
    user = await store.create_user(name, None, guest=True,
                                   key=f"guest:{secrets.token_hex(8)}")
    _set_cookie(request, response, await store.new_session(user.id))
    return {"user": user_json(user)}


@router.get("/me")
async def me(request: Request) -> dict[str, Any]:
    """Who this session belongs to (``user`` null when nobody is logged in)."""
    return {"user": user_json(await current_user(request))}
