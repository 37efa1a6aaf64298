"""The settings of the paired A/B runs of the search bots (``bench.tuning``), and their
clock.

An A/B run names a *setting* in JSON: ``skat_strong_ab`` of the fields of ``strong``'s
settings object (:func:`settings_from`: each setting its own bot, so both play in one
process), ``baptisten_strong_ab`` of a bot module's constants (:func:`setting`, switched
between two with :func:`apply_setting`).  The bots sample a fixed number of worlds and
read the clock :func:`frozen`, so that their decisions do not depend on the machine.
"""

from __future__ import annotations

import dataclasses
import json
from types import ModuleType
from typing import Any, TypeVar

Settings = TypeVar("Settings")


def frozen() -> float:
    """A clock that does not move (with a fixed number of worlds: the same decisions on
    any machine)."""
    return 0.0


def settings_from(text: str, defaults: Settings) -> tuple[Settings, int | None]:
    """A settings object (a frozen dataclass) from JSON: ``defaults`` with the fields
    named there replaced (lists become tuples), and the optional ``"worlds"``; an unknown
    name ends the run with a message."""
    over = {k: _tuples(v) for k, v in json.loads(text).items()}
    worlds = over.pop("worlds", None)
    fields = {f.name for f in dataclasses.fields(defaults)}  # type: ignore[arg-type]
    unknown = sorted(set(over) - fields)
    if unknown:
        raise SystemExit(f"not a setting of {type(defaults).__name__}: {', '.join(unknown)}"
                         f" (the settings: {', '.join(sorted(fields))})")
    return dataclasses.replace(defaults, **over), worlds  # type: ignore[type-var]


def constants(module: ModuleType) -> dict[str, Any]:
    """The public module constants (upper-case names) of a bot module, as they are now."""
    return {k: getattr(module, k) for k in dir(module) if k.isupper() and not k.startswith("_")}


def _tuples(v: Any) -> Any:
    return tuple(_tuples(x) for x in v) if isinstance(v, list) else v


def setting(text: str, module: ModuleType, defaults: dict[str, Any]) -> dict[str, Any]:
    """A setting of ``module``'s constants from JSON (lists become tuples), plus an
    optional ``"worlds"``; an unknown name ends the run with a message."""
    out = {k: _tuples(v) for k, v in json.loads(text).items()}
    unknown = sorted(set(out) - set(defaults) - {"worlds"})
    if unknown:
        raise SystemExit(f"not a constant of {module.__name__}: {', '.join(unknown)}")
    return out


def apply_setting(module: ModuleType, defaults: dict[str, Any], over: dict[str, Any]) -> None:
    """Set ``module``'s constants to ``defaults`` updated by ``over`` (not ``worlds``)."""
    for k, v in {**defaults, **over}.items():
        if k != "worlds":
            setattr(module, k, v)
