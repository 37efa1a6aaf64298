"""Helpers of the browser tests: Chromium driven by Playwright, a person's moves made by
clicks, screenshots into ``tests/web/output/`` (not committed)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import re
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

from playwright.sync_api import Browser, BrowserContext, FloatRect, Page
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

T = TypeVar("T")

OUT = Path(__file__).resolve().parent / "output"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def visitor(browser: Browser, *, viewport: dict[str, int] | None = None,
            locale: str = "de-DE", ignore_https_errors: bool = False
            ) -> tuple[BrowserContext, Page]:
    """A browser of its own (cookies apart), not logged in; ``page.errors`` collects its
    page errors and console errors (a test asserts it stays empty)."""
    ctx = browser.new_context(viewport=viewport or DESKTOP, locale=locale,  # type: ignore[arg-type]
                              ignore_https_errors=ignore_https_errors)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.errors = errors  # type: ignore[attr-defined]
    return ctx, page


def person(browser: Browser, base: str, name: str, *, viewport: dict[str, int] | None = None,
           locale: str = "de-DE", ignore_https_errors: bool = False
           ) -> tuple[BrowserContext, Page]:
    """A browser of its own (cookies apart) with a guest of that name logged in by the
    lobby's form (``ignore_https_errors``: a site with a certificate of a test CA)."""
    ctx, page = visitor(browser, viewport=viewport, locale=locale,
                        ignore_https_errors=ignore_https_errors)
    page.goto(base + "/")
    page.fill("#guest input[name=name]", name)
    page.click("#guest button[type=submit]")
    page.wait_for_selector("#create")
    return ctx, page


def in_view(page: Page, selector: str) -> FloatRect:
    """The first element of ``selector``, shown and inside the window as it is now
    (not scrolled off, nothing cut off): its box."""
    el = page.locator(selector).first
    box = None
    for _ in range(20):  # a re-render between "visible" and its box: look again
        el.wait_for(state="visible")
        box = el.bounding_box()
        if box is not None:
            break
        page.wait_for_timeout(50)
    vp = page.viewport_size
    assert box is not None and vp is not None, selector
    assert box["x"] >= -0.5 and box["y"] >= -0.5, (selector, box)
    assert box["x"] + box["width"] <= vp["width"] + 0.5, (selector, box, vp)
    assert box["y"] + box["height"] <= vp["height"] + 0.5, (selector, box, vp)
    return box


def run_apart(coro: Coroutine[Any, Any, T], timeout: float = 120.0) -> T:
    """Run a coroutine to its end on a thread of its own (Playwright's sync API may hold
    an event loop in this one): the server-side players of a browser test."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, asyncio.wait_for(coro, timeout)).result()


def shot(page: Page, name: str) -> None:
    OUT.mkdir(exist_ok=True)
    page.evaluate("() => document.getAnimations().forEach(a => a.finish())")
    page.screenshot(path=str(OUT / f"{name}.png"), full_page=True)


def table_id(page: Page) -> str:
    m = re.search(r"/t/([^?]+)", page.url)
    assert m, page.url
    return m.group(1)


def state(page: Page) -> Any:
    """The table page's state (what it drew from)."""
    return page.evaluate("() => { const t = window.stichTable; return t && {view: t.state.view,"
                         " you: t.state.you, seq: t.state.seq, applied: t.conn.applied,"
                         " result: t.state.result, table: t.state.table} }")


def enabled(page: Page, selector: str) -> Any:
    return page.query_selector(f"{selector}:not([disabled])")


def step(page: Page, *, bid: str = "18", declare: str | None = None,
         weiter: bool = True) -> str | None:
    """Make this page's move by clicks, if it has one; returns what was done.

    Bidding: bid up to ``bid`` (``"pass"``: pass at once), then pass; pick up the Skat;
    put away the first two cards; declare ``declare`` (or the first game offered); play
    the first playable card.  Baptistenskat: the first allowed bid, the lowest stake,
    the first playable card.  ``weiter``: first tap "Weiter" under a Skat result shown."""
    if weiter:
        next_after_result(page)  # also when the page has no move: the table may wait for it
        # a Baptistenskat round's result that waits for "Weiter" (no move meanwhile)
        ready = page.query_selector(".layer-bround [data-ready]")
        if ready is not None and ready.is_visible():
            try:
                ready.click(timeout=2000)
            except PlaywrightError:  # closed meanwhile (the next round came): nothing to say
                return None
            return "ready"
    elif page.evaluate("() => window.stichTable?.state.endStage === 'trick'"
                       " || !!document.querySelector('.layer-result:not([hidden])')"):
        return None  # a game just ended: its result stays for the caller to look at
    st = state(page)
    if not st or not st["view"] or not st["view"]["legal"]:
        return None
    done = _step(page, st["view"], bid, declare)
    if done in ("bid", "pass", "pickup", "discard", "declare", "card", "play"):
        # wait for the answer: the event of this move, or the reason it was refused
        page.wait_for_function(
            "(seq) => window.stichTable?.state.seq > seq || window.stichTable?.state.error",
            arg=st["seq"], timeout=10000)
        if page.evaluate("() => window.stichTable?.state.error"):
            return None
    return done


def next_after_result(page: Page) -> None:
    """As a person does after a Skat game: watch its last trick, then tap "Weiter" under
    its result (when the next game was dealt already, the result is still shown once)."""
    if page.evaluate("() => window.stichTable?.state.endStage === 'trick'"):
        page.wait_for_function("() => window.stichTable.state.endStage !== 'trick'", timeout=5000)
    button = page.query_selector(".layer-result:not([hidden]) .result-foot button.next")
    if button is not None:
        try:
            button.click(timeout=2000)
        except PlaywrightError:  # closed meanwhile (the next game was dealt)
            return
        page.wait_for_selector(".layer-result", state="hidden", timeout=5000)


def _step(page: Page, v: Any, bid: str, declare: str | None) -> str | None:
    phase = v["phase"]
    if v["game"] == "baptisten":
        # a round's result that waits for "Weiter" (the table waits between rounds)
        ready = page.query_selector(".layer-bround [data-ready]")
        if ready is not None and ready.is_visible():
            try:
                ready.click(timeout=2000)
            except PlaywrightError:  # closed meanwhile (the next round came)
                return None
            return "ready"
        if phase == "BIDDING":
            if page.query_selector(".stakes button") is None:
                page.click(".bids button:not([disabled])", timeout=5000)
                page.wait_for_selector(".stakes button")
            page.click(".stakes button", timeout=5000)
            return "bid"
        if "play" in v["legal"]:
            page.click(".hand .back-play")
            return "play"
        page.click(".hand button.card:not(.illegal)")
        return "card"
    try:
        return _skat_step(page, v, bid, declare)
    except PlaywrightTimeoutError:
        # the last game's result opened over the table after the state was read (its last
        # trick was still shown): a person taps "Weiter" first, as the next step does
        if page.query_selector(".layer-result:not([hidden])") is not None:
            return None
        raise


def _skat_step(page: Page, v: Any, bid: str, declare: str | None) -> str | None:
    phase = v["phase"]
    if phase == "BIDDING":
        numbers = [a for a in v["legal"] if a.isdigit()]
        if bid != "pass" and ("hold" in v["legal"] or (numbers and int(numbers[0]) <= int(bid))):
            page.click(".actions button:not(.secondary)", timeout=10000)
            return "bid"
        page.click(".actions button.secondary", timeout=10000)
        return "pass"
    if phase == "SKAT":
        page.click("[data-key='a:pickup']", timeout=10000)
        return "pickup"
    if phase == "DISCARD":
        for _ in range(2):
            cards = page.query_selector_all(".hand button.card:not(.selected)")
            cards[0].click()
        page.click("[data-key='a:discard']")
        return "discard"
    if phase == "DECLARE":
        # the first game offered that is not lost for certain (that one asks first)
        free = ".declare button:not([disabled]):not(.certain-loss)"
        target = f"[data-key='a:{declare}']" if declare else (
            free if page.query_selector(free) else ".declare button:not([disabled])")
        lost = "certain-loss" in (page.get_attribute(target, "class") or "")
        page.click(target)
        if lost:  # the page asks first: say it anyway
            page.click(".layer-confirm [data-key^='confirm:']", timeout=5000)
        return "declare"
    if phase == "PLAY":
        page.click(".hand button.card:not(.illegal)", timeout=10000)
        return "card"
    return None


def wait_for(page: Page, js: str, timeout: float = 20.0) -> Any:
    page.wait_for_function(js, timeout=timeout * 1000)
    return page.evaluate(js)


def until(cond: Any, timeout: float = 60.0, every: float = 0.05) -> None:
    t0 = time.monotonic()
    while not cond():
        if time.monotonic() - t0 > timeout:
            raise AssertionError("timed out")
        time.sleep(every)
