"""Baptistenskat in a real browser at 3 to 15 seats (issue 23): a round's end (its last
trick and who took it, then its line of the Anschreibezettel, "Weiter"), the live sheet
readable at every table size on a phone and a laptop, the controls in view at 15 seats
on a phone, and the prompt above the hand never covered.

All against the real server (its ``round_over`` with the round's last trick, ``ready``,
``next``, the table's ``next_after``/``between``).  Screenshots go to
``tests/web/output/``."""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import Browser, Page

from tests.server.harness import Server
from tests.web.browser import DESKTOP, PHONE, person, shot, state, step
from tests.web.browser import OUT as OUT_DIR
from tests.web.test_skat_table import _of, _wire
from tests.web.test_table import _join

NAMES = ["Anna", "Bernd", "Clara", "Dieter", "Emma", "Friedrich-Wilhelm", "Gül", "Hans",
         "Ines", "Jörg", "Karla", "Ludwig", "Marianne", "Nils", "Olga"]


def _open(page: Page, base: str, seats: list[str], *, started: bool = True, **kw: Any) -> str:
    """A Baptistenskat table made through the HTTP API from the page (its cookies, its
    origin); the page goes to it and waits for the first view (``started``: else for the
    table, whose free seats wait for people).  The table goes on after a round at once
    unless the test asks for the wait (``next_after``)."""
    body = {"game": "baptisten", "seats": seats, "next_after": 0, **kw}
    r = page.evaluate("async (b) => { const r = await fetch('/api/tables', {method: 'POST',"
                      " headers: {'content-type': 'application/json'}, body: JSON.stringify(b)});"
                      " return [r.status, await r.json()]; }", body)
    assert r[0] == 200, r
    page.goto(base + r[1]["invite_path"])
    page.wait_for_function("() => window.stichTable?.state." + ("view" if started else "table"))
    return str(r[1]["table"]["id"])


def _play_until(page: Page, done: Any, seconds: float = 120.0, hold: Any = None) -> None:
    """Play this page's moves until ``done()``; from when ``hold()`` is true on, only
    wait (the bots go on: the moment looked for is not played away in a race)."""
    end = time.monotonic() + seconds  # the bots' pace depends on the machine's load
    while time.monotonic() < end:
        if done():
            return
        if (hold is not None and hold()) or not step(page):
            page.wait_for_timeout(40)
    shot(page, "not-reached")
    raise AssertionError(f"not reached: {state(page)['view']}")


def _box(page: Page, selector: str) -> dict[str, float]:
    el = page.locator(selector).first
    el.wait_for()
    b = el.bounding_box()
    assert b is not None, selector
    return b


def _in_view(page: Page, selector: str) -> None:
    """Inside the window as it is now (no scrolling needed)."""
    vp = page.viewport_size
    assert vp is not None
    b = _box(page, selector)
    assert b["x"] >= -0.5 and b["y"] >= -0.5, (selector, b)
    assert b["x"] + b["width"] <= vp["width"] + 0.5, (selector, b, vp)
    assert b["y"] + b["height"] <= vp["height"] + 0.5, (selector, b, vp)


def _my_turn(page: Page, *, round_at_least: int) -> bool:
    v = state(page)["view"]
    return bool(v["round"] >= round_at_least and v["legal"])


def _scroll_right(page: Page, frame: str) -> None:
    page.evaluate("(f) => { document.querySelector(f + ' .sheet-scroll').scrollLeft = 10000; }",
                  frame)


def _closed(page: Page, selector: str) -> bool:
    return page.locator(selector).count() == 0 or page.locator(selector).is_hidden()


def _no_page_errors(page: Page) -> None:
    assert page.errors == [], page.errors  # type: ignore[attr-defined]


def _seat_names(page: Page) -> list[str]:
    return [s.get("name") or "" for s in state(page)["table"]["seats"]]


def test_a_rounds_end_shows_its_last_trick_and_its_line(site: Server, browser: Browser) -> None:
    """Against this branch's server (no ``trick`` in ``round_over``, no wait): the last
    trick is pieced together from the last card played, and the round's result stays
    reachable in the next round ("Runde 1: das Ergebnis")."""
    for name, size in (("phone", PHONE), ("desktop", DESKTOP)):
        ctx, page = person(browser, site.url, f"Rita{name}", viewport=size)
        tid = _open(page, site.url, ["me", "bot:random", "bot:random"], max_cards=2)
        _play_until(page, lambda p=page: _my_turn(p, round_at_least=2),
                    hold=lambda p=page: state(p)["view"]["round"] >= 2)
        sheet = _sheet_rounds(page, tid)
        row = sheet["rounds"][0]
        names = _seat_names(page)
        page.locator(".bapt .again").click()
        panel = page.locator(".layer-bround .drawer")
        panel.wait_for()
        _in_view(page, ".layer-bround .drawer-head")
        _in_view(page, ".layer-bround .round-foot button")
        winner = next(e["player"] for e in row["entries"] if e["tricks"] == 1)
        assert page.inner_text(".layer-bround .taker") == f"{names[winner]} nimmt den Stich."
        figs = page.locator(".layer-bround .round-trick figure")
        assert figs.count() == 3  # one card each: the whole round was this trick
        won = page.inner_text(".layer-bround .round-trick figure.won figcaption")
        assert won.startswith(names[winner])
        lines = page.locator(".layer-bround .round-line tbody tr")
        assert lines.count() == 3
        by_name = {lines.nth(k).locator("th").inner_text():
                   lines.nth(k).locator("td").all_inner_texts() for k in range(3)}
        for e in row["entries"]:
            cells = by_name[names[e["player"]]]
            assert cells[0] == f"{e['bid']}/{e['stake']}" + ("!" if e["forced"] else "")
            assert cells[1].startswith(str(e["tricks"])) and cells[3] == str(e["total"])
        shot(page, f"baptisten-round-end-{name}")
        page.keyboard.press("Escape")
        assert panel.count() == 0 or not panel.is_visible()
        _no_page_errors(page)
        ctx.close()


def test_the_table_waits_for_weiter(site: Server, browser: Browser) -> None:
    """Two people at a table that waits after a round (``next_after`` 10 s): the round's
    end in view at both sizes (its last trick as the server's ``round_over`` gives it, who
    took it, the round's line), a table update (a chat line) neither closes nor rebuilds
    it, "Weiter" sends ``ready`` and then waits for the other person, whose "Weiter" starts
    the next round at once."""
    for name, size in (("phone", PHONE), ("desktop", DESKTOP)):
        ctx, page = person(browser, site.url, f"Uwe{name}", viewport=size)
        cb, b = person(browser, site.url, f"Bernd{name}")
        wire = _wire(page)
        _open(page, site.url, ["me", "person", "bot:random", "bot:random"], max_cards=2,
              next_after=10, clock=0, started=False)
        _join(b, page.url)
        page.wait_for_function("() => window.stichTable?.state.view")
        assert state(page)["table"]["next_after"] == 10
        ready = ".layer-bround [data-ready]"
        for _ in range(200):  # both people play by clicks until the first round is over
            if page.locator(ready).count() and page.locator(ready).is_visible():
                break
            if not (step(page, weiter=False) or step(b, weiter=False)):
                page.wait_for_timeout(40)
        else:
            raise AssertionError("the round did not end")
        over = [m for m in _of(wire["got"], "event") if m["kind"] == "round_over"]
        assert len(over) == 1, over
        leader, cards, winner = over[0]["data"]["trick"]
        row = over[0]["data"]["sheet_row"]
        names = _seat_names(page)
        assert state(page)["table"]["between"] is True
        assert state(page)["view"]["legal"] == []
        drawer = page.locator(".layer-bround .drawer")
        assert drawer.get_attribute("aria-modal") == "true"
        _in_view(page, ".layer-bround .drawer-head")
        _in_view(page, ".layer-bround .round-trick")
        _in_view(page, "[data-ready]")
        assert page.inner_text(".layer-bround .taker") == f"{names[winner]} nimmt den Stich."
        # one card each (the whole round was this trick), in play order from its leader
        figs = page.locator(".layer-bround .round-trick figure")
        assert figs.count() == 4 and len(cards) == 4
        captions = page.locator(".layer-bround .round-trick figcaption").all_inner_texts()
        captions = [c.replace("nimmt den Stich", "").strip() for c in captions]
        assert captions == [names[(leader + k) % 4] for k in range(4)], captions
        codes = page.evaluate("() => [...document.querySelectorAll("
                              "'.layer-bround .round-trick figure [data-code]')]"
                              ".map(c => c.dataset.code)")
        assert codes == cards, (codes, cards)
        won = cards[(winner - leader) % 4]
        assert page.locator(f".layer-bround .round-trick figure.won [data-code='{won}']"
                            ).count() == 1
        # the round's line, from the round's first player on, as the sheet has it
        heads = page.locator(".layer-bround .round-line tbody th").all_inner_texts()
        assert heads == [names[(row["first"] + k) % 4] for k in range(4)], heads
        lines = page.locator(".layer-bround .round-line tbody tr")
        for k, e in enumerate(sorted(row["entries"],
                                     key=lambda e: (e["player"] - row["first"]) % 4)):
            cells = lines.nth(k).locator("td").all_inner_texts()
            assert cells[0] == f"{e['bid']}/{e['stake']}" + ("!" if e["forced"] else "")
            assert cells[1].startswith(str(e["tricks"])) and cells[3] == str(e["total"])
        assert "Die nächste Runde beginnt in" in page.inner_text(".round-countdown")
        shot(page, f"baptisten-round-wait-{name}")
        # a table update (the other person writes in the chat) neither closes nor
        # rebuilds the panel
        page.evaluate("() => { document.querySelector('.layer-bround .drawer')"
                      ".dataset.mark = '1'; }")
        b.evaluate("() => window.stichTable.conn.send({type: 'chat', text: 'Moment'})")
        _until(page, lambda w=wire: any(m["kind"] == "chat" for m in _of(w["got"], "event")))
        page.wait_for_timeout(200)
        assert page.locator(".layer-bround .drawer[data-mark='1']").count() == 1
        # "Weiter": ready is said, and the table waits for the other person
        page.click("[data-ready]")
        assert _of(wire["sent"], "ready") == [{"type": "ready"}]
        page.wait_for_function("(n) => document.querySelector('.layer-bround .round-foot')"
                               "?.textContent.includes('Warte auf ' + n)", arg=names[1])
        assert page.locator("[data-ready]").count() == 0
        _until(page, lambda w=wire: [(m["kind"], m["seat"]) for m in _of(w["got"], "event")
                                     if m["kind"] in ("ready", "next")] == [("ready", 0)])
        page.wait_for_timeout(300)
        assert page.locator(".layer-bround").is_visible()
        assert state(page)["view"]["round"] == 2 and state(page)["view"]["legal"] == []
        # the other one's "Weiter": the next round starts at once (not after the 10 s)
        t0 = time.monotonic()
        b.click(".layer-bround [data-ready]")
        page.wait_for_function("() => !document.querySelector('.layer-bround .drawer')")
        assert time.monotonic() - t0 < 4
        kinds = [(m["kind"], m["seat"]) for m in _of(wire["got"], "event")
                 if m["kind"] in ("ready", "next")]
        assert kinds == [("ready", 0), ("ready", 1), ("next", None)], kinds
        assert state(page)["table"]["between"] is False
        page.wait_for_function("() => window.stichTable.state.view.round === 2"
                               " && window.stichTable.state.view.legal.length"
                               " || document.querySelector('.bapt .again')")
        assert page.locator(".bapt .again").is_visible()  # the result stays reachable
        _no_page_errors(page)
        cb.close()
        ctx.close()


def _until(page: Page, cond: Any, timeout: float = 10.0) -> None:
    """Wait (letting the page's events in) until ``cond()``."""
    for _ in range(int(timeout * 20)):
        if cond():
            return
        page.wait_for_timeout(50)
    raise AssertionError("not reached")


def _scroll_state(page: Page, frame: str) -> Any:
    return page.evaluate("""(frame) => {
        const f = document.querySelector(frame), sc = f.querySelector('.sheet-scroll');
        const box = sc.getBoundingClientRect();
        const heads = [...sc.querySelectorAll('thead th.pl')].map(th => {
            const r = th.getBoundingClientRect();
            return {name: th.textContent, left: r.left, right: r.right,
                    clipped: th.scrollWidth > th.clientWidth + 1};
        });
        const rd = sc.querySelector('tbody td.rd').getBoundingClientRect();
        const cue = (c) => getComputedStyle(f.querySelector(c)).display !== 'none';
        return {left: box.left, right: box.right, scroll: sc.scrollLeft,
                wide: sc.scrollWidth > sc.clientWidth + 1, heads, rd: rd.left,
                cueRight: cue('.cue-right'), cueLeft: cue('.cue-left')};
    }""", frame)


def _all_columns_in(st: Any) -> None:
    for hd in st["heads"]:
        assert st["left"] - 0.5 <= hd["left"] and hd["right"] <= st["right"] + 0.5, (hd, st)
        assert not hd["clipped"], hd


def test_the_live_sheet_is_readable_at_6_and_15_players(site: Server, browser: Browser) -> None:
    """6 players on a laptop: every column beside the table, no name cut.  15 players:
    the round columns stay while the players' columns scroll within the sheet, with a
    cue at the edge; on a phone the sheet opens as a view of its own, in view; a table
    update does not move it."""
    cases = (("desktop", DESKTOP, 6), ("desktop", DESKTOP, 15), ("phone", PHONE, 15))
    for name, size, n in cases:
        ctx, page = person(browser, site.url, f"Wilhelmine-{name[0]}{n}", viewport=size)
        deck = "romme-double-joker" if n > 11 else "elferraus"
        _open(page, site.url, ["me"] + ["bot:random"] * (n - 1), max_cards=2, deck=deck)
        _play_until(page, lambda p=page: _my_turn(p, round_at_least=3),
                    hold=lambda p=page: state(p)["view"]["round"] >= 3)
        page.keyboard.press("Escape")  # a round's result, if still open
        page.evaluate("() => window.scrollTo(0, 0)")
        if name == "desktop":
            frame = ".bapt-wrap > .sheet .sheet-frame"
            page.locator(frame).wait_for()
            _in_view(page, ".bapt-wrap > .sheet h2")
            st = _scroll_state(page, frame)
            assert st["right"] <= DESKTOP["width"]
            if n == 6:
                shot(page, "baptisten6-sheet-desktop")
                assert not st["wide"] and not st["cueRight"], st
                _all_columns_in(st)
                shot(page, "baptisten6-sheet-desktop")
            else:
                assert st["wide"] and st["cueRight"] and not st["cueLeft"], st
                _scroll_right(page, frame)
                page.wait_for_timeout(100)
                after = _scroll_state(page, frame)
                assert after["rd"] == st["rd"]  # the round column stays at the left
                assert after["cueLeft"] and not after["cueRight"], after
                last = after["heads"][-1]
                assert last["right"] <= after["right"] + 0.5 and not last["clipped"]
                # a table update (the bots go on) leaves the sheet where it was
                seq = state(page)["seq"]
                step(page)
                page.wait_for_function(f"() => window.stichTable.state.seq > {seq}")
                # (the sheet is put back where it was in the frame after a redraw)
                page.evaluate("() => new Promise(r => requestAnimationFrame("
                              "() => requestAnimationFrame(r)))")
                assert _scroll_state(page, frame)["scroll"] == after["scroll"]
                shot(page, "baptisten15-desktop")
                # the whole sheet as a view of its own (after closing the result of a
                # round that ended meanwhile, if one did)
                page.keyboard.press("Escape")
                page.click(".bapt-wrap > .sheet .enlarge")
                big = ".layer-sheet .sheet-frame"
                page.locator(big).wait_for()
                _in_view(page, ".layer-sheet .drawer-head")
                _all_columns_in(_scroll_state(page, big))
                shot(page, "baptisten15-sheet-desktop")
                page.keyboard.press("Escape")
                assert _closed(page, ".layer-sheet")
        else:
            page.click(".tablebar button:has-text('Anschreibezettel')")
            frame = ".layer-sheet .sheet-frame"
            page.locator(frame).wait_for()
            _in_view(page, ".layer-sheet .drawer-head")
            _in_view(page, frame)
            st = _scroll_state(page, frame)
            assert st["wide"] and st["cueRight"], st
            first = st["heads"][0]
            assert first["left"] >= st["left"] and first["right"] <= st["right"]
            assert not first["clipped"]
            shot(page, "baptisten15-sheet-phone")
            _scroll_right(page, frame)
            page.wait_for_timeout(100)
            after = _scroll_state(page, frame)
            assert after["rd"] == st["rd"] and after["cueLeft"] and not after["cueRight"]
            assert after["heads"][-1]["right"] <= after["right"] + 0.5
            page.keyboard.press("Escape")
            assert _closed(page, ".layer-sheet")
        _no_page_errors(page)
        ctx.close()


def test_your_controls_are_in_view_at_15_on_a_phone(site: Server, browser: Browser) -> None:
    """15 seats on a phone: when it is your turn, the bid buttons, the stakes and the
    hand are in the window; so are the prompt and the hand when you play.  A laptop at 6
    seats: the hand in view, and no card covers "Du bist dran: spiel eine Karte"."""
    for name, size, n in (("phone", PHONE, 15), ("desktop", DESKTOP, 6)):
        ctx, page = person(browser, site.url, f"Vera{name}", viewport=size)
        deck = "romme-double-joker" if n > 11 else "elferraus"
        # N = 5: round 3 has three cards and a free stake (1-20 or 40): the most buttons
        _open(page, site.url, ["me"] + ["bot:random"] * (n - 1), max_cards=5, deck=deck)

        def bidding(p: Page = page) -> bool:
            v = state(p)["view"]
            return bool(v["phase"] == "BIDDING" and v["cards"] >= 3 and v["legal"])

        # play on until our first bid with three cards (never bidding there by the helper:
        # it stakes the least and would spend the free rounds)
        for _ in range(400):
            if bidding():
                break
            v = state(page)["view"]
            if not (v["phase"] == "BIDDING" and v["cards"] >= 3):
                # our move, or "Weiter" after a round: the table waits until it is made
                if step(page) is None:
                    page.wait_for_timeout(40)
            else:
                page.wait_for_timeout(40)
        assert bidding()
        page.keyboard.press("Escape")
        page.evaluate("() => window.scrollTo(0, 0)")
        _in_view(page, ".bids")
        _in_view(page, ".hand")
        page.click(".bids button:not([disabled])")
        page.locator(".stakes").wait_for()
        page.evaluate("() => window.scrollTo(0, 0)")
        _in_view(page, ".stakes")
        _in_view(page, ".hand")
        assert page.locator(".stakes button").count() >= 20
        shot(page, f"baptisten{n}-bid-{name}")
        seq = state(page)["seq"]
        page.click(".stakes button")
        page.wait_for_function(f"() => window.stichTable.state.seq > {seq}")

        def playing(p: Page = page) -> bool:
            v = state(p)["view"]
            return bool(v["phase"] == "PLAY" and len(v["hand"]) >= 2 and v["legal"])

        _play_until(page, playing)
        page.keyboard.press("Escape")
        page.evaluate("() => { window.scrollTo(0, 0);"
                      " document.getAnimations().forEach(a => a.finish()); }")
        _in_view(page, ".your-turn")
        _in_view(page, ".hand")
        covered = page.evaluate("""() => {
            const p = document.querySelector('.your-turn');
            const range = document.createRange(); range.selectNodeContents(p);
            const out = [];
            for (const r of range.getClientRects()) {
                for (const x of [r.left + 2, (r.left + r.right) / 2, r.right - 2]) {
                    const hit = document.elementFromPoint(x, (r.top + r.bottom) / 2);
                    if (!hit || !p.contains(hit)) out.push([x, hit && hit.className]);
                }
            }
            return out;
        }""")
        assert covered == [], covered
        # the card under the mouse is lifted: still below the prompt
        page.hover(".hand button.card:not(.illegal)")
        page.wait_for_timeout(200)
        prompt = _box(page, ".your-turn")
        lifted = page.evaluate("() => Math.min(...[...document.querySelectorAll('.hand .card')]"
                               ".map(c => c.getBoundingClientRect().top))")
        assert lifted >= prompt["y"] + prompt["height"] - 0.5, (lifted, prompt)
        shot(page, f"baptisten{n}-play-{name}")
        _no_page_errors(page)
        ctx.close()


# --- printing -------------------------------------------------------------------------------

A4_LANDSCAPE_CSS_PX = 1061  # 297 mm less two margins of 8 mm, at 96 CSS px per inch


def _pdf_pages(pdf: bytes) -> list[tuple[float, float]]:
    """The pages of a PDF that Chromium wrote: their sizes (points), in order."""
    import re

    num = rb"\s*([\d.]+)"
    boxes = re.findall(rb"/Type\s*/Page\b(?!s).*?/MediaBox\s*\[" + num * 4, pdf, re.S)
    count = len(re.findall(rb"/Type\s*/Page\b(?!s)", pdf))
    sizes = [(float(b[2]) - float(b[0]), float(b[3]) - float(b[1])) for b in boxes]
    assert count == len(sizes) or not sizes, (count, sizes)
    return sizes or [(0.0, 0.0)] * count


def _sheet_rounds(page: Page, tid: str) -> Any:
    return page.evaluate(f"async () => (await (await fetch('/api/tables/{tid}/sheet'))"
                         ".json()).sheet")


def test_the_printed_anschreibezettel_is_landscape_in_pages_of_players(site: Server,
                                                                       browser: Browser) -> None:
    """6 players print on one landscape page, 15 on three (5 players each, the round
    columns on each), every name on paper, no blank page."""
    ctx, page = person(browser, site.url, "Paula", viewport=DESKTOP)
    for n, pages in ((6, 1), (15, 3)):
        deck = "romme-double-joker" if n > 11 else "elferraus"
        tid = _open(page, site.url, ["me"] + ["bot:random"] * (n - 1), max_cards=1, deck=deck)
        _play_until(page, lambda t=tid: bool(_sheet_rounds(page, t)["rounds"]))
        names = _sheet_rounds(page, tid)["players"]
        page.goto(f"{site.url}/t/{tid}/zettel")
        page.emulate_media(media="print")
        # laid out as wide as the paper's printable width
        page.set_viewport_size({"width": A4_LANDSCAPE_CSS_PX, "height": 740})
        tables = page.locator(".pg-zettel-table")
        assert tables.count() == pages
        for k in range(pages):
            box = tables.nth(k).bounding_box()
            assert box is not None and box["x"] >= 0, (n, k, box)
            assert box["x"] + box["width"] <= A4_LANDSCAPE_CSS_PX + 0.5, (n, k, box)
        heads = page.locator(".pg-zettel-table th.pg-name").all_inner_texts()
        assert sorted(x.strip() for x in heads) == sorted(names)  # every player, once
        assert page.locator("header.top").is_hidden() and page.locator("p.noprint").is_hidden()
        text = page.inner_text("#sheet")
        assert "Ansage" in text or "A:" in text
        assert "preset=" not in text and "deck=" not in text  # the rules in words
        assert "Karten in der mittleren Runde: 1" in text
        pdf = page.pdf(prefer_css_page_size=True, print_background=True)
        (OUT_DIR / f"zettel-{n}.pdf").write_bytes(pdf)
        sizes = _pdf_pages(pdf)
        assert len(sizes) == pages, sizes  # no blank page after the sheet
        assert all(w > h for w, h in sizes), sizes  # landscape
        page.screenshot(path=str(OUT_DIR / f"zettel-print-{n}.png"), full_page=True)
        page.emulate_media(media="screen")
        page.set_viewport_size(DESKTOP)  # type: ignore[arg-type]
        page.goto(site.url + "/")
    _no_page_errors(page)
    ctx.close()


# --- the lobby's form -----------------------------------------------------------------------

def test_the_lobby_offers_only_what_the_deck_allows(site: Server, browser: Browser) -> None:
    """The deck follows the number of players (no raw deck id is ever shown); the
    thinking time follows public/private until chosen; both new settings go into the
    create body when they differ from what the server does unasked."""
    bodies: list[Any] = []
    for name, size in (("phone", PHONE), ("desktop", DESKTOP)):
        ctx, page = person(browser, site.url, f"Lobby{name}", viewport=size)
        page.select_option("#game", "baptisten")
        assert page.input_value("#deck") == ""  # as the rules say: Elfer raus, up to 11
        page.fill("#players", "15")
        assert page.input_value("#deck") == "romme-double-joker"
        note = page.inner_text(".deck-note")
        assert note.startswith("15 Spieler brauchen mehr Karten") and "romme" not in note
        disabled = page.eval_on_selector_all("#deck option", "os => os.filter(o => o.disabled)"
                                             ".map(o => o.value)")
        assert disabled == ["", "elferraus", "romme", "skat"]
        assert page.get_attribute("#max_cards", "max") == "7"  # 105 cards for 15
        page.fill("#players", "4")
        page.select_option("#deck", "skat")
        assert page.get_attribute("#max_cards", "max") == "8"
        page.fill("#players", "5")  # too many for 32 cards: back to the rules' deck
        assert page.input_value("#deck") == ""
        text = page.inner_text("#create")
        for raw in ("elferraus", "romme-double", "deck="):
            assert raw not in text, raw
        # the table's settings: thinking time on for public tables, off for private ones
        assert page.input_value("#clock") == "30" and page.input_value("#next_after") == "10"
        page.uncheck("input[name=public]")
        assert page.input_value("#clock") == "0"
        page.check("input[name=public]")
        page.select_option("#clock", "60")
        page.select_option("#next_after", "120")
        page.uncheck("input[name=public]")
        assert page.input_value("#clock") == "60"  # chosen: stays
        shot(page, f"lobby-baptisten-{name}")
        bodies.clear()

        def catch(route: Any) -> None:
            bodies.append(route.request.post_data_json)
            route.fulfill(status=400, json={"error": {"code": "test", "text": "nicht gesendet"}})

        page.route("**/api/tables?*", catch)
        page.click("#create button[type=submit]")
        page.wait_for_selector("#create .error")
        assert bodies, page.inner_text("#create .error")
        assert bodies[0]["clock"] == 60 and bodies[0]["next_after"] == 120
        assert bodies[0]["public"] is False and len(bodies[0]["seats"]) == 5
        assert "deck" not in bodies[0]
        page.errors.clear()  # type: ignore[attr-defined]  # the 400 made up above
        # the defaults are not sent: a server that does not know them still opens the table
        page.unroute("**/api/tables?*")
        page.reload()
        page.select_option("#game", "baptisten")
        page.fill("#players", "12")
        page.click("#create button[type=submit]")
        page.wait_for_url("**/t/**")
        page.wait_for_function("() => window.stichTable?.state.table")
        rules = page.evaluate("() => window.stichTable.state.table.rules")
        assert "romme-double-joker" in rules and "players=12" in rules
        _no_page_errors(page)
        ctx.close()


def test_the_printable_skat_list_on_a_phone_shows_its_score_columns(site: Server,
                                                                   browser: Browser) -> None:
    """On a phone's screen and on paper printed from it, the players' columns (the
    change and the running Punktestand) are inside the page, not cut off."""
    ctx, page = person(browser, site.url, "Siggi", viewport=PHONE)
    r = page.evaluate("async () => { const r = await fetch('/api/tables', {method: 'POST',"
                      " headers: {'content-type': 'application/json'}, body: JSON.stringify("
                      "{game: 'skat', games: 3, seats: ['me', 'bot:easy', 'bot:easy']})});"
                      " return await r.json(); }")
    tid = r["table"]["id"]
    page.goto(site.url + r["invite_path"])
    page.wait_for_function("() => window.stichTable?.state.view")
    _play_until(page, lambda: bool(state(page)["result"]), seconds=60)
    page.goto(f"{site.url}/t/{tid}/list")
    assert "Lothars Regeln" in page.inner_text(".pg-rules")
    assert "preset=" not in page.inner_text("body")  # no rules string
    for media in ("screen", "print"):
        page.emulate_media(media=media)  # type: ignore[arg-type]
        cells = page.evaluate("""() => [...document.querySelectorAll(
                '.pg-sheet-table th.pg-player, .pg-sheet-table td.pg-player')].map(c => {
            const r = c.getBoundingClientRect();
            return [c.textContent.trim(), r.left, r.right]; })""")
        page.screenshot(path=str(OUT_DIR / f"skat-list-{media}-phone.png"), full_page=True)
        assert len(cells) >= 6
        for text, left, right in cells:
            assert left >= 0 and right <= PHONE["width"] + 0.5, (media, text, left, right)
    pdf = page.pdf(width="390px", height="844px")
    assert len(_pdf_pages(pdf)) == 1
    _no_page_errors(page)
    ctx.close()


def test_a_card_under_a_resting_pointer_holds_still(site: Server, browser: Browser) -> None:
    """A card lifts under the pointer.  A pointer resting on its lower edge (where the
    previous card was tapped, the hand having moved since) must not make it jump up and
    down for ever: the lifted card still owns the strip it left.  (Playwright waits for a
    card to hold still before it clicks; a card that never did failed the tests.)"""
    for size in (PHONE, DESKTOP):
        ctx, page = person(browser, site.url, f"Resi{size['width']}", viewport=size)
        _open(page, site.url, ["me", "bot:random", "bot:random", "bot:random"], max_cards=5)

        def playing(p: Page = page) -> bool:
            v = state(p)["view"]
            return bool(v["phase"] == "PLAY" and len(v["hand"]) >= 2 and v["legal"])

        _play_until(page, playing)
        page.keyboard.press("Escape")
        page.evaluate("() => document.getAnimations().forEach(a => a.finish())")
        cards = page.locator(".hand button.card:not(.illegal)")
        for i in range(cards.count()):
            card = cards.nth(i)
            box = card.bounding_box()
            assert box is not None
            # the lowest pixel rows of the card, in its middle
            for up in (1, 3, 5):
                page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] - up)
                page.wait_for_timeout(250)  # a lift takes 120 ms
                tops = page.evaluate("""async (code) => {
                    const out = [];
                    for (let i = 0; i < 30; i++) {
                        await new Promise(r => requestAnimationFrame(r));
                        const el = document.querySelector(`.hand button.card[data-code="${code}"]`);
                        out.push(el.getBoundingClientRect().top);
                    }
                    return out;
                }""", card.get_attribute("data-code"))
                assert max(tops) - min(tops) < 0.5, (size, i, up, tops)
                assert card.evaluate("el => el.matches(':hover')"), (size, i, up)
            page.mouse.move(0, 0)
        ctx.close()
