"""A circle keeps its rules: the Skat house rules in words, and named rule sets.

- ``GET /api/rules/skat``: what the lobby's form offers (the presets and every house rule
  with its choices and a short help, in the request's language:
  :func:`stich.present.skat_rules.rules_catalogue`).
- ``GET /api/rules/skat/words?rules=…``: a rule string checked by the engine
  (``SkatRules.parse``: an invalid combination is refused with its message), its
  canonical form, and the rules in words, long and short.
- ``/api/me/rule-sets``: a registered player's named rule sets ("Skatclub Eiche"): list
  (``GET``), save (``POST``: a set of the same name gets the new rules), change (``POST
  …/change`` with its ``id``: name and/or rules), delete (``POST …/delete`` with its
  ``id``).
  Only the owner sees or touches a set: another account's set is answered as if it did
  not exist (``server.no_such_rule_set``, 404), and a guest cannot save one
  (``server.rule_sets_guest``, 403).  Bounded: a name of at most :data:`NAME_MOST`
  characters, ``account_rule_sets`` sets per account, ``rule_set_changes_per_hour``
  saves, changes and deletions per account (:class:`stich.server.limits.Limits`).
"""

from __future__ import annotations

import unicodedata
from typing import Any

from fastapi import APIRouter, Request

from stich.core import ArgumentError
from stich.games import SKAT
from stich.present.languages import choose_lang
from stich.present.skat_rules import house_fields, rules_catalogue, rules_words
from stich.server.auth import enforce, require_user
from stich.server.limits import Limits
from stich.server.protocol import RuleSetChange, RuleSetDelete, RuleSetRequest
from stich.server.store.db import Store
from stich.server.store.models import RuleSet, User
from stich.skat import SkatRules

__all__ = ["NAME_MOST", "request_lang", "router", "rule_set_key", "rule_set_name",
           "skat_rules_json"]

router = APIRouter(prefix="/api", tags=["rules"])

NAME_MOST = 40
"""Characters of a rule set's name at most."""

_NEVER = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})


def request_lang(request: Request) -> str:
    """The language of an API request (``?lang=``, else ``Accept-Language``)."""
    return choose_lang(request.query_params.get("lang"),
                       accept=request.headers.get("accept-language"))


def rule_set_name(text: str) -> str:
    """A rule set's name as it is kept: trimmed, each run of spaces one space; 1 to
    :data:`NAME_MOST` characters, no control, format or private characters.

    >>> rule_set_name("  Skatclub   Eiche ")
    'Skatclub Eiche'
    >>> rule_set_name("\\u202eEiche")
    Traceback (most recent call last):
    ...
    stich.core.ArgumentError: a rule set's name holds letters, digits, spaces and punctuation only
    """
    name = " ".join(text.split())
    if not 1 <= len(name) <= NAME_MOST:
        raise ArgumentError("server.rule_set_name", most=NAME_MOST, given=len(name))
    if any(unicodedata.category(ch) in _NEVER for ch in name):
        raise ArgumentError("server.rule_set_name_chars")
    return name


def rule_set_key(name: str) -> str:
    """What makes two names one (per account): NFKC, case-folded.

    >>> rule_set_key("Skatclub EICHE") == rule_set_key("skatclub eiche")
    True
    """
    return unicodedata.normalize("NFKC", name).casefold()


def skat_rules_json(text: str, lang: str) -> dict[str, Any]:
    """A Skat rule string, checked (``RulesError`` when the engine refuses it): its
    canonical form, its preset, the house rules' values, and the rules in words."""
    rules = SkatRules.parse(text)
    canonical = str(rules)
    return {"rules": canonical, "preset": SKAT.preset_of(canonical),
            "base": rules.preset_name, "fields": house_fields(rules),
            "words": rules_words(canonical, lang),
            "short": rules_words(canonical, lang, short=True)}


def _store(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


def _set_json(row: RuleSet, lang: str) -> dict[str, Any]:
    return {"id": row.id, "name": row.name, "game": row.game,
            **skat_rules_json(row.rules, lang), "updated_at": row.updated_at.isoformat()}


def _rules(text: str) -> str:
    """The canonical Skat rule string a set keeps (refused as the engine refuses it)."""
    return str(SkatRules.parse(text))


async def _registered(request: Request) -> User:
    """The request's account, which must be a registered player's (a guest cannot keep
    rule sets)."""
    user = await require_user(request)
    if user.guest:
        raise ArgumentError("server.rule_sets_guest")
    return user


async def _spend(request: Request, user: User) -> None:
    await enforce(request, f"user:{user.id}", "rule_set_changes_per_hour", 3600)


def _missing(set_id: int) -> ArgumentError:
    return ArgumentError("server.no_such_rule_set", rule_set=str(set_id)[:20])


@router.get("/rules/skat")
async def skat_rules(request: Request) -> dict[str, Any]:
    """The Skat presets and house rules with their choices, in words (the lobby's form)."""
    return rules_catalogue(request_lang(request))


@router.get("/rules/skat/words")
async def skat_words(request: Request, rules: str) -> dict[str, Any]:
    """A Skat rule string checked by the engine, canonical, and in words."""
    if len(rules) > 200:
        raise ArgumentError("server.bad_message", reason="rules: at most 200 characters")
    return skat_rules_json(rules, request_lang(request))


@router.get("/me/rule-sets")
async def list_rule_sets(request: Request) -> dict[str, Any]:
    """The account's rule sets, by name (a guest has none)."""
    user = await require_user(request)
    lang = request_lang(request)
    rows = [] if user.guest else await _store(request).rule_sets(user.id)
    limits: Limits = request.app.state.limits
    return {"rule_sets": [_set_json(r, lang) for r in rows],
            "most": limits.account_rule_sets, "name_most": NAME_MOST}


@router.post("/me/rule-sets")
async def save_rule_set(body: RuleSetRequest, request: Request) -> dict[str, Any]:
    """Keep the rules under a name; a set of the same name gets the new rules
    (``replaced``)."""
    user = await _registered(request)
    name = rule_set_name(body.name)
    rules = _rules(body.rules)
    await _spend(request, user)
    limits: Limits = request.app.state.limits
    row, new = await _store(request).save_rule_set(
        user.id, name, rule_set_key(name), SKAT.name, rules, limits.account_rule_sets)
    return {"rule_set": _set_json(row, request_lang(request)), "replaced": not new}


@router.post("/me/rule-sets/change")
async def change_rule_set(body: RuleSetChange, request: Request) -> dict[str, Any]:
    """Rename one's rule set or give it other rules."""
    user = await require_user(request)
    name = rule_set_name(body.name) if body.name is not None else None
    rules = _rules(body.rules) if body.rules is not None else None
    store = _store(request)
    if await store.rule_set(body.id, user.id) is None:
        raise _missing(body.id)  # (before the limit: a stranger's try spends nothing)
    await _spend(request, user)
    row = await store.change_rule_set(body.id, user.id, name,
                                      rule_set_key(name) if name is not None else None, rules)
    if row is None:
        raise _missing(body.id)
    return {"rule_set": _set_json(row, request_lang(request))}


@router.post("/me/rule-sets/delete")
async def delete_rule_set(body: RuleSetDelete, request: Request) -> dict[str, Any]:
    """Delete one's rule set."""
    user = await require_user(request)
    store = _store(request)
    if await store.rule_set(body.id, user.id) is None:
        raise _missing(body.id)
    await _spend(request, user)
    if not await store.delete_rule_set(body.id, user.id):
        raise _missing(body.id)
    return {"deleted": body.id}
