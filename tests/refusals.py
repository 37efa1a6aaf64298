"""Asserting a refusal by its message code and parameters, not by its English text."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from stich.messages import CATALOGUE, StichError, _load

_load()  # the catalogue modules are imported on first use; the checks need them now


@contextmanager
def refused(code: str, kind: type[StichError] = StichError,
            **params: Any) -> Iterator[pytest.ExceptionInfo[StichError]]:
    """Expect a ``kind`` error with ``code`` and at least these parameters (compared with
    ``==``); yields pytest's ExceptionInfo for further checks on ``.value``."""
    assert code in CATALOGUE, f"{code} is not in the catalogue"
    with pytest.raises(kind) as info:
        yield info
    e = info.value
    assert e.code == code, f"expected {code}, got {e.code}: {e}"
    for key, want in params.items():
        assert key in e.params, f"{code}: no parameter {key!r} in {e.params}"
        assert e.params[key] == want, f"{code}: {key} = {e.params[key]!r}, not {want!r}"
