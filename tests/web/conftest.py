"""Fixtures of the browser tests: a real `stich serve` (SQLite) and Debian's Chromium.

Chromium must be there (``.ci/run`` installs Debian's ``chromium``): the tests fail, they
do not skip, when it is missing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright

from tests.server.harness import Server
from tests.web.browser import CHROMIUM


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
    assert Path(CHROMIUM).exists(), f"Chromium is missing at {CHROMIUM} (apt-get install chromium)"
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield b
        finally:
            b.close()
