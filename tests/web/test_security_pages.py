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
              next_path: str = "", fence: bool = False) -> Page:
    """A person registers on the login page (``/login?next=…`` when ``next_path``).
    ``fence``: every request to another host is answered here with a page of its own
    (``elsewhere``), so that a browser led off the site arrives somewhere at once
    instead of waiting for a name that does not resolve."""
    ctx = browser.new_context(viewport=viewport, locale="de-DE")  # type: ignore[arg-type]
    if fence:
        host = urlsplit(base).netloc
        ctx.route(lambda url: urlsplit(url).netloc != host,
                  lambda route: route.fulfill(status=200, content_type="text/html",
                                              body="<p>elsewhere</p>"))
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


# Every way of writing another site (or no site) as the ``next`` of the login page that
# we know of.  The browser resolves an address as the URL standard says: it drops tabs
# and newlines anywhere and spaces and control characters at either end, reads ``\`` as
# ``/``, and takes out the segments ``.``, ``..``, ``%2e``, ``.%2e`` (so ``/.//host`` is
# the path ``//host``, which a browser reads as another host again); ``https:host``
# without slashes is an absolute address.  Issue 38 found ``/.//host``: the lobby
# checked the string, then navigated to the path it resolved to.
OTHER_SITES = [
    "//evil.example/x", "///evil.example", "/\\evil.example", "/\\/evil.example",
    "\\\\evil.example", "/\t/evil.example", "/\n/evil.example",
    # dot segments: the resolved path starts with //
    "/.//evil.example", "/..//evil.example", "/../..//evil.example", "/a/..//evil.example",
    "/././/evil.example", "/./..//evil.example", "/%2e//evil.example",
    "/%2E%2E//evil.example", "/.%2e//evil.example", "/%2e/%2e//evil.example",
    "/./\t/evil.example", "/.\t/\t/evil.example", "/.\\/evil.example",
    "/.//\\evil.example", "/.//evil.example:8080/t/x?invite=y#z",
    "/.//user@evil.example",
    # encoded slashes and backslashes: no path of this site has them
    "/%2f/evil.example", "/%2F%2Fevil.example", "/%5c/evil.example", "/.%2f/evil.example",
    # other schemes, leading spaces and tabs
    "https://evil.example", "https:evil.example", "https:/evil.example",
    "http:evil.example", " //evil.example", "\t//evil.example", " /.//evil.example",
    "javascript:alert(1)", "JaVaScRiPt:alert(1)", " javascript:alert(1)",
    "data:text/html,<p>x</p>",
]


@pytest.mark.parametrize("target", OTHER_SITES)
def test_login_never_leads_to_another_site(site: Server, browser: Browser,
                                           target: str) -> None:
    """After logging in from ``/login?next=…`` with any spelling of another site, the
    browser is at the lobby of this site (requests to any other host are answered by a
    page of the test's own, so a wrong turn shows at once)."""
    page = _register(browser, site.url, _name("Next"), DESKTOP, target, fence=True)
    here = urlsplit(site.url).netloc
    page.wait_for_url(lambda url: urlsplit(url).netloc != here
                      or (urlsplit(url).path == "/" and not urlsplit(url).query))
    assert page.url == site.url + "/", (target, page.url)
    page.wait_for_selector("a.me")  # logged in, in the lobby
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


@pytest.mark.parametrize("target", ["/bestenliste?period=year", "/t/abc?invite=x#y"])
def test_login_goes_back_to_the_page_it_came_from(site: Server, browser: Browser,
                                                  target: str) -> None:
    page = _register(browser, site.url, _name("Back"), DESKTOP, target, fence=True)
    page.wait_for_url(lambda url: urlsplit(url).path != "/login")
    assert page.url == site.url + target  # the query and the fragment too
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
