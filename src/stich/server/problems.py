"""What is wrong with a request body or a table message, in the reader's language.

A refusal of ``server.bad_json`` or ``server.bad_message`` names the problem as a
message of its own (:class:`stich.messages.Msg`): where the JSON breaks off, which field
is missing, has the wrong type or is too long.  Never the parser's own English (nor
Python's "maximum recursion depth exceeded while decoding …"), so that a German sentence
stays German.

>>> from stich.messages import render
>>> render("server.bad_json", {"reason": json_problem(ValueError(), 6)}, "de")
'Die Nachricht ist kein JSON: ungültig bei Zeichen 7'
>>> render("server.bad_message", {"reason": validation_problem(
...     [{"type": "missing", "loc": ("body", "seats")}])}, "en")
'the message does not fit the protocol: seats: missing'
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from stich.messages import Msg

__all__ = ["json_problem", "validation_problem"]

_KINDS = {"string": "server.kind_text", "int": "server.kind_int", "float": "server.kind_number",
          "bool": "server.kind_bool", "list": "server.kind_list", "dict": "server.kind_object",
          "model": "server.kind_object", "bytes": "server.kind_text"}
"""Pydantic's names of types (``string_type``) and the message that names each in
words."""


def json_problem(e: BaseException, at: int | None = None) -> Msg:
    """Why a text is not JSON: too deep, not UTF-8, or invalid at a character
    (``at``: its offset from 0; a person counts from 1)."""
    if isinstance(e, RecursionError):
        return Msg("server.why_too_deep", {})
    if isinstance(e, UnicodeError):
        return Msg("server.why_not_utf8", {})
    if isinstance(e, json.JSONDecodeError):
        at = e.pos
    if at is None:
        return Msg("server.why_not_json", {})
    return Msg("server.why_json_at", {"at": at + 1})


def _where(loc: Iterable[Any]) -> str:
    return ".".join(str(x) for x in loc if x != "body")


def validation_problem(errors: Any) -> Msg:
    """The first problem pydantic found: the field and what is wrong with it."""
    try:
        first = next(iter(errors))
        kind = str(first.get("type", ""))
        where = _where(first.get("loc", ()))
        ctx = first.get("ctx") or {}
    except (StopIteration, TypeError, AttributeError):
        return Msg("server.why_invalid", {"field": "?"})
    if not where and kind.startswith("union_tag"):  # the message's type itself
        where = str(ctx.get("discriminator", "type")).strip("'")
    field = where or "?"
    if kind == "missing":
        return Msg("server.why_missing", {"field": field})
    if kind == "extra_forbidden":
        return Msg("server.why_extra", {"field": field})
    if kind.endswith("_type") and kind[:-5] in _KINDS:
        return Msg("server.why_type", {"field": field,
                                       "kind": Msg(_KINDS[kind[:-5]], {})})
    if kind in ("string_too_long", "too_long"):
        return Msg("server.why_too_long", {"field": field,
                                           "most": ctx.get("max_length", "?")})
    if kind in ("string_too_short", "too_short"):
        return Msg("server.why_too_short", {"field": field,
                                            "least": ctx.get("min_length", "?")})
    if kind in ("literal_error", "union_tag_invalid", "union_tag_not_found", "enum"):
        return Msg("server.why_unknown", {"field": field})
    if kind == "json_invalid":
        return Msg("server.why_not_json", {})
    return Msg("server.why_invalid", {"field": field})
