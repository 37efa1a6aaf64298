"""The site cannot save (issue 39) and the table in the browser says so: SQLite on a small
disk of the test's own (``tests/services.py``: ``small_disk``) that is filled while a
person plays against two bots.  Her move is refused (``server.not_saved``), the server
tells every connection (``service`` with ``ok`` false), and the page shows a banner at
the top: in German, in view, not over her cards, to screen readers as a status; once the
disk has room again (``service`` ``ok`` true) the banner goes within 10 s and her next
move is taken.  At 390×844 and 1280×800."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, FloatRect, Page

from tests import services
from tests.server.harness import Server
from tests.web.browser import DESKTOP, PHONE, person, state, step
from tests.web.test_skat_table import _of, _wire
from tests.web.test_table import _create

SIZES = (("phone", PHONE), ("desktop", DESKTOP))
GERMAN = ("Die Seite hat gerade Probleme: dein Zug wurde nicht genommen. Es geht von "
          "selbst weiter, sobald sie wieder speichern kann.")
BANNER = ".service-banner"
RECOVERY = 10.0


@pytest.fixture
def disk() -> Iterator[Path]:
    """A fresh 24 MB tmpfs (skipped, or failed under STICH_TEST_REQUIRE_ALL=1, when it
    cannot be mounted)."""
    with contextlib.ExitStack() as stack:
        try:
            where = stack.enter_context(services.small_disk(24))
        except services.ServiceMissing as exc:
            services.missing(exc)
        yield where


def _own_card_turn(page: Page, timeout: float = 60.0) -> Any:
    """Bid, pick up, put away and announce by clicks until the person is to play a card."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        st = state(page)
        v = st and st["view"]
        if v and v["phase"] == "PLAY" and v["legal"] and st["you"] is not None:
            return st
        if step(page) is None:
            page.wait_for_timeout(50)
    raise AssertionError("never the person's card to play")


def _box(page: Page, selector: str) -> FloatRect:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box


def _in_view(page: Page, box: FloatRect) -> None:
    vp = page.viewport_size
    assert vp is not None
    assert box["x"] >= -0.5 and box["y"] >= -0.5, box
    assert box["x"] + box["width"] <= vp["width"] + 0.5, (box, vp)
    assert box["y"] + box["height"] <= vp["height"] + 0.5, (box, vp)


def _apart(a: FloatRect, b: FloatRect) -> bool:
    """The two boxes do not overlap."""
    return (a["x"] + a["width"] <= b["x"] + 0.5 or b["x"] + b["width"] <= a["x"] + 0.5
            or a["y"] + a["height"] <= b["y"] + 0.5 or b["y"] + b["height"] <= a["y"] + 0.5)


def _covers_nothing(page: Page) -> None:
    """The banner is over none of the person's cards and buttons, as they lie now (the
    page may have been scrolled: the banner stays at the top)."""
    banner = _box(page, BANNER)
    for el in page.query_selector_all(".hand button.card, .hand, .actions button"):
        if not el.is_visible():
            continue
        box = el.bounding_box()
        assert box is not None
        assert _apart(banner, box), (banner, box)


def _hand(page: Page) -> int:
    return int(page.evaluate("() => window.stichTable.state.view.hand.length"))


@pytest.mark.parametrize(("name", "size"), SIZES)
def test_a_full_disk_is_said_at_the_table_and_it_goes_on(
        disk: Path, browser: Browser, tmp_path: Path, name: str, size: dict[str, int]) -> None:
    with Server(f"sqlite:///{disk / 'stich.db'}", bot_delay=0.05) as srv:
        ctx, page = person(browser, srv.url, f"Platte{name}", viewport=size)
        try:
            wire = _wire(page)
            _create(page, seats=["me", "bot:easy", "bot:easy"], games="3")
            _own_card_turn(page)
            cards = _hand(page)
            assert page.query_selector(BANNER) is None

            filler = services.fill(disk)
            try:
                # a card as a person plays it: the site cannot save it
                acted = page.evaluate("() => window.stichTable.conn.lastOwnAct")
                page.click(".hand button.card:not(.illegal)")
                banner = page.locator(BANNER)
                banner.wait_for(state="visible", timeout=10000)
                assert banner.inner_text().strip() == GERMAN
                assert banner.get_attribute("role") == "status"
                # the move was not taken, and the reason is said once (at the top)
                assert _of(wire["got"], "error")[-1]["code"] == "server.not_saved"
                assert page.evaluate("() => window.stichTable.conn.lastOwnAct") == acted
                assert _hand(page) == cards
                assert page.inner_text(".error-line").strip() == ""
                # every connection is told (and the banner stays with it)
                page.wait_for_function("() => window.stichTable.state.serviceDown",
                                       timeout=5000)
                assert {"type": "service", "ok": False} in wire["got"]
                assert banner.is_visible()
                page.evaluate("() => document.getAnimations().forEach(a => a.finish())")
                _in_view(page, _box(page, BANNER))
                _covers_nothing(page)
                # scrolled down to the cards, as a person on a small window does: the
                # banner stays in view, over none of them
                page.locator(".hand").scroll_into_view_if_needed()
                _in_view(page, _box(page, BANNER))
                _covers_nothing(page)
                png = page.screenshot(path=str(tmp_path / f"outage-{name}.png"))
                assert png[:8] == b"\x89PNG\r\n\x1a\n"
                assert (tmp_path / f"outage-{name}.png").stat().st_size > 1000
            finally:
                filler.unlink()

            # room again: the banner goes within 10 s, and the person's card is taken
            back = time.monotonic()
            banner.wait_for(state="hidden", timeout=RECOVERY * 1000)
            assert time.monotonic() - back <= RECOVERY
            assert {"type": "service", "ok": True} in wire["got"]
            assert page.evaluate("() => window.stichTable.state.view.legal.length") > 0
            page.click(".hand button.card:not(.illegal)")
            page.wait_for_function("(n) => window.stichTable.conn.lastOwnAct > n",
                                   arg=acted, timeout=RECOVERY * 1000)
            page.wait_for_function("(n) => window.stichTable.state.view.hand.length < n",
                                   arg=cards, timeout=5000)
            # and the bots after her play on (unless her card won the trick: then she
            # leads again; or it ended the game: then the table waits for "Weiter", as
            # after any game).  (``view.to_move`` is a position in the game, not a seat:
            # the seat is ``view.positions[to_move]``)
            seq = state(page)["seq"]
            page.wait_for_function("(s) => window.stichTable.state.seq > s"
                                   " || (window.stichTable.state.view.positions["
                                   "       window.stichTable.state.view.to_move]"
                                   "     === window.stichTable.state.you"
                                   "     && window.stichTable.state.view.legal.length > 0)"
                                   " || !!window.stichTable.state.table?.between"
                                   " || window.stichTable.state.table?.status === 'over'",
                                   arg=seq, timeout=RECOVERY * 1000)
            assert page.query_selector(BANNER) is None
            assert page.inner_text(".error-line").strip() == ""
            assert page.errors == []  # type: ignore[attr-defined]
        finally:
            ctx.close()
