"""Fixtures of the browser tests: a real `stich serve` (SQLite) and Chromium.

Chromium comes from ``tests/services.py`` (``$STICH_CHROMIUM``, Debian's
``/usr/bin/chromium``, or Playwright's own); without one the browser tests are skipped,
and under ``STICH_TEST_REQUIRE_ALL=1`` (``.ci/run``, which installs Debian's ``chromium``)
they fail."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, sync_playwright

from tests import services
from tests.server.harness import Server


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("web")
    srv = Server(f"sqlite:///{tmp / 'site.db'}", bot_delay=0.05)
    srv.start(60)
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture(scope="module")  # not longer: Playwright's loop would hold the thread
def browser() -> Iterator[Browser]:
    chromium = services.chromium()  # tests/conftest.py skips the tests when there is none
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            yield b
        finally:
            b.close()
