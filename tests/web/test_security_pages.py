"""What a person sees of the site's protections, in a real Chromium at 390x844 and
1280x800: logging in never leads to another site, the account page (a new password,
logging out everywhere, deleting the account) works by clicks and is readable, the
creator closes a table from its menu, and no page breaks the Content-Security-Policy
(a violation is a console error: every test fails on one)."""

from __future__ import annotations

import uuid
from urllib.parse import quote, urlsplit

import pytest
from playwright.sync_api import Browser, Page

from tests.server.harness import Server
from tests.web.browser import DESKTOP, PHONE, person, shot

VIEWPORTS = {"phone": PHONE, "desktop": DESKTOP}


def _name(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:8]}"


def _register(browser: Browser, base: str, name: str, viewport: dict[str, int],
              next_path: str = "") -> Page:
    ctx = browser.new_context(viewport=viewport, locale="de-DE")  # type: ignore[arg-type]
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.errors = errors  # type: ignore[attr-defined]
    page.goto(base + "/login" + (f"?next={quote(next_path, safe='')}" if next_path else ""))
    page.fill("#register input[name=name]", name)
    page.fill("#register input[name=password]", "geheim-123")
    page.click("#register button[type=submit]")
    return page


def _readable(page: Page, selector: str) -> None:
    """In the viewport (after scrolling to it), not cut off at the sides, with text of a
    readable size."""
    el = page.locator(selector).first
    el.scroll_into_view_if_needed()
    box = el.bounding_box()
    vp = page.viewport_size
    assert box is not None and vp is not None, selector
    assert box["x"] >= 0 and box["x"] + box["width"] <= vp["width"] + 1, (selector, box)
    assert box["y"] >= 0 and box["y"] + min(box["height"], vp["height"]) <= vp["height"] + 1
    size = page.evaluate("(s) => parseFloat(getComputedStyle(document.querySelector(s))"
                         ".fontSize)", selector)
    assert size >= 14, (selector, size)


@pytest.mark.parametrize("target", ["//evil.example/x", "/\\evil.example", "https://evil.example",
                                    "/\t/evil.example", "javascript:alert(1)"])
def test_login_never_leads_to_another_site(site: Server, browser: Browser,
                                           target: str) -> None:
    page = _register(browser, site.url, _name("Next"), DESKTOP, target)
    page.wait_for_function("() => location.pathname === '/' && !location.search")
    assert urlsplit(page.url).netloc == urlsplit(site.url).netloc
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def test_login_goes_back_to_the_page_it_came_from(site: Server, browser: Browser) -> None:
    page = _register(browser, site.url, _name("Back"), DESKTOP, "/bestenliste?period=year")
    page.wait_for_url(f"{site.url}/bestenliste?period=year")
    page.context.close()


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_the_account_page(site: Server, browser: Browser, size: str) -> None:
    name = _name("Konto")
    page = _register(browser, site.url, name, VIEWPORTS[size])
    page.wait_for_selector("#create")
    page.click("a.me")  # the name in the header leads to the account
    page.wait_for_selector("#account")
    for sel in ("#password h2", "#password input[name=old]", "#password button",
                "#everywhere button", "#delete button"):
        _readable(page, sel)
    shot(page, f"account-{size}")
    # a second device of the same account
    other = browser.new_context(viewport=DESKTOP)
    o = other.new_page()
    o.goto(site.url + "/login")
    o.fill("#login input[name=name]", name)
    o.fill("#login input[name=password]", "geheim-123")
    o.click("#login button[type=submit]")
    o.wait_for_selector("a.me")
    # a new password: this device stays, the other is logged out
    page.fill("#password input[name=old]", "falsch-123")
    page.fill("#password input[name=new]", "neu-geheim-1")
    page.click("#password button[type=submit]")
    page.wait_for_selector("#password .error")
    assert "nicht dein Passwort" in page.inner_text("#password .error")
    # the refusal (403) the browser logs for it is the one this test asked for
    assert page.errors == [  # type: ignore[attr-defined]
        "Failed to load resource: the server responded with a status of 403 (Forbidden)"]
    page.errors.clear()  # type: ignore[attr-defined]
    page.fill("#password input[name=old]", "geheim-123")
    page.fill("#password input[name=new]", "neu-geheim-1")
    page.click("#password button[type=submit]")
    page.wait_for_selector("#password .ok")
    _readable(page, "#password .ok")
    o.reload()
    assert o.query_selector("a.me") is None  # logged out there
    page.reload()
    assert page.inner_text("a.me") == name
    # log out everywhere: this device too
    page.click("#everywhere button")
    page.wait_for_url(site.url + "/")
    page.wait_for_selector("#create, #login")
    assert page.query_selector("a.me") is None
    # log in with the new password, then delete the account
    page.goto(site.url + "/login")
    page.fill("#login input[name=name]", name)
    page.fill("#login input[name=password]", "neu-geheim-1")
    page.click("#login button[type=submit]")
    page.wait_for_selector("a.me")
    page.goto(site.url + "/account")
    page.fill("#delete input[name=password]", "neu-geheim-1")
    page.check("#delete input[name=sure]")
    page.click("#delete button[type=submit]")
    page.wait_for_url(site.url + "/")
    assert page.query_selector("a.me") is None
    assert page.errors == []  # type: ignore[attr-defined]
    other.close()
    page.context.close()


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_the_creator_closes_the_table(site: Server, browser: Browser, size: str) -> None:
    ctx, page = person(browser, site.url, _name("Wirt"), viewport=VIEWPORTS[size])
    page.select_option(".for-skat select[name=seat1]", "bot:random")
    page.select_option(".for-skat select[name=seat2]", "bot:random")
    page.click("#create button[type=submit]")
    page.wait_for_selector(".tableview")
    page.wait_for_function("() => window.stichTable?.state.view")
    page.click("button[aria-label='Mehr']")
    _readable(page, ".menu button.close-table")
    page.once("dialog", lambda d: d.accept())
    page.click(".menu button.close-table")
    page.wait_for_selector(".banner.over")
    assert "Wer den Tisch eröffnet hat, hat ihn geschlossen." in page.inner_text(".banner.over")
    box = page.locator(".banner.over").bounding_box()  # seen without scrolling
    assert box is not None and box["y"] + box["height"] <= VIEWPORTS[size]["height"], box
    _readable(page, ".banner.over")
    # the game that ran is over too: nothing offered to do
    page.wait_for_function("() => window.stichTable.state.view.legal.length === 0")
    assert page.query_selector(".actions button") is None
    shot(page, f"closed-{size}")
    assert page.errors == []  # type: ignore[attr-defined]
    ctx.close()
