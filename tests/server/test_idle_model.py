"""The idle policy alone (:func:`stich.server.idle.idle_step`): every branch, and a
limit of 0 switching its step off."""

from __future__ import annotations

from typing import Any

import pytest

from stich.server.idle import idle_step

LIMITS = {"idle_pause": 600.0, "idle_close": 7 * 86400.0, "waiting_expire": 3600.0}


def step(**kw: Any) -> str | None:
    base: dict[str, Any] = {"watched": False, "idle": False, "started": True,
                            "paused": False, "quiet": 0.0, "unchanged": 0.0,
                            "seats_unchanged": None, **LIMITS}
    return idle_step(**{**base, **kw})


@pytest.mark.parametrize(("kw", "want"), [
    ({"watched": True, "idle": True}, "wake"),
    ({"watched": True, "idle": False, "quiet": 10**6}, None),  # somebody is there
    ({"quiet": 599.0}, None),
    ({"quiet": 600.0}, "pause"),
    ({"quiet": 10**6, "idle_pause": 0.0}, None),
    ({"paused": True, "unchanged": 7 * 86400.0 - 1}, None),
    ({"paused": True, "unchanged": 7 * 86400.0}, "close"),
    ({"paused": True, "unchanged": 10**9, "idle_close": 0.0}, None),
    ({"started": False, "unchanged": 3600.0}, "expire"),  # seats never read: the table's
    ({"started": False, "unchanged": 10**6, "seats_unchanged": 10.0}, None),
    ({"started": False, "unchanged": 0.0, "seats_unchanged": 3600.0}, "expire"),
    ({"started": False, "unchanged": 10**6, "waiting_expire": 0.0}, None),
])
def test_idle_steps(kw: dict[str, Any], want: str | None) -> None:
    assert step(**kw) == want
