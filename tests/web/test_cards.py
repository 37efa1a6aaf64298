"""The card faces of the browser table (``static/js/cards.js``) in a real Chromium.

The ``playwright`` package must be there: these tests fail, they never skip, when it is
missing.  Chromium comes from ``tests/services.py`` (see ``tests/web/conftest.py``).  The
static folder is served by a stdlib HTTP server on a free port (ES modules do not load
from ``file://``).  Screenshots of the gallery go to ``tests/web/output/`` for a person
to look at.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from stich.cards import PLAIN_DECKS

try:
    from playwright.sync_api import Browser, ConsoleMessage, Page
except ImportError as exc:  # pragma: no cover - the message is the point
    raise ImportError(
        "tests/web needs the 'playwright' Python package (pip install playwright); "
        "the browser is Debian's chromium or Playwright's own"
    ) from exc

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "src" / "stich" / "web" / "static"
OUTPUT = Path(__file__).resolve().parent / "output"
STYLES = ("german", "french4", "french2")
LANGS = ("de", "en")


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    """The static folder served on 127.0.0.1 and a free port."""
    handler = functools.partial(_QuietHandler, directory=str(STATIC))
    srv = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{srv.server_port}"
    finally:
        srv.shutdown()
        srv.server_close()
        thread.join(5)


class Watched:
    """A page with every console error and uncaught exception collected."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.errors: list[str] = []
        page.on("console", self._console)
        page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))

    def _console(self, msg: ConsoleMessage) -> None:
        if msg.type in ("error", "warning"):
            self.errors.append(f"console {msg.type}: {msg.text}")


@pytest.fixture
def page(browser: Browser, base_url: str) -> Iterator[Watched]:
    """A fresh page on the gallery (German) with cards.js loaded as ``window.cards``."""
    ctx = browser.new_context(viewport={"width": 1100, "height": 900})
    w = Watched(ctx.new_page())
    w.page.goto(f"{base_url}/cards.html")
    w.page.wait_for_selector("body[data-ready]")
    w.page.evaluate("import('./js/cards.js').then((m) => { window.cards = m; })")
    try:
        yield w
    finally:
        ctx.close()


def deck_codes() -> dict[str, list[str]]:
    """The distinct codes of every deck the server deals (from the engine itself)."""
    out: dict[str, list[str]] = {}
    for name, deck in PLAIN_DECKS.items():
        seen: list[str] = []
        for c in deck.cards:
            if c.code not in seen:
                seen.append(c.code)
        out[name] = seen
    return out


def _luminance(colour: str) -> float:
    h = colour.lstrip("#")
    if len(h) == 3:
        h = "".join(ch * 2 for ch in h)
    channels = [int(h[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    """The WCAG contrast ratio of two ``#rrggbb`` colours."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_contrast_formula() -> None:
    assert contrast("#000", "#fff") == pytest.approx(21)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)


RENDER_ALL = """
([codes, style, lang]) => {
  const host = document.createElement('div');
  document.body.append(host);
  const out = codes.map((code) => {
    const box = document.createElement('div');
    box.style.width = '40px';
    box.style.aspectRatio = '2 / 3';
    box.innerHTML = window.cards.cardSvg(code, {style, lang});
    host.append(box);
    const svgs = box.querySelectorAll('svg');
    const svg = svgs[0];
    const r = svg.getBoundingClientRect();
    const idx = svg.querySelector('.index');
    const prev = idx && idx.previousElementSibling;
    return {code, idxTag: idx && idx.tagName, idxFill: idx && idx.getAttribute('fill'),
            idxBg: prev && prev.tagName === 'rect' && prev.getAttribute('x') !== '1.5'
              ? prev.getAttribute('fill') : '#fff',
            n: box.children.length, svgs: svgs.length, tag: svg.tagName,
            role: svg.getAttribute('role'), aria: svg.getAttribute('aria-label'),
            label: window.cards.cardLabel(code, {style, lang}),
            viewBox: svg.getAttribute('viewBox'), w: r.width, h: r.height};
  });
  host.remove();
  return out;
}
"""


def test_every_code_of_every_deck_renders_with_its_label(page: Watched) -> None:
    decks = deck_codes()
    assert sorted(decks) == sorted(PLAIN_DECKS)
    assert "JK" in decks["romme-double-joker"]
    checked = 0
    for name, codes in decks.items():
        for style in STYLES:
            for lang in LANGS:
                rows: list[dict[str, Any]] = page.page.evaluate(RENDER_ALL,
                                                                [codes, style, lang])
                assert [r["code"] for r in rows] == codes
                for r in rows:
                    where = f"{name} {style} {lang} {r['code']}"
                    assert r["n"] == 1 and r["svgs"] == 1 and r["tag"] == "svg", where
                    assert r["role"] == "img", where
                    assert r["aria"] and r["aria"].strip(), where
                    assert r["aria"] == r["label"], where
                    assert r["viewBox"] == "0 0 100 150", where
                    assert r["w"] == pytest.approx(40, abs=0.5), where
                    assert r["h"] == pytest.approx(60, abs=0.5), where
                    # the index has strong contrast: 4.5:1 for text, 3:1 for a mark
                    need = 4.5 if r["idxTag"] == "text" else 3.0
                    assert contrast(r["idxFill"], r["idxBg"]) >= need, (where, r)
                    checked += 1
                labels = [r["label"] for r in rows]
                assert len(set(labels)) == len(codes), f"{name} {style} {lang}: {labels}"
    assert checked == sum(len(c) for c in decks.values()) * len(STYLES) * len(LANGS)
    assert page.errors == []


@pytest.mark.parametrize(("code", "style", "lang", "label"), [
    ("CJ", "german", "de", "Eichel Unter"),
    ("SQ", "german", "de", "Grün Ober"),
    ("ST", "german", "de", "Grün 10"),
    ("HA", "german", "de", "Herz Daus"),
    ("D7", "german", "de", "Schellen 7"),
    ("DK", "german", "de", "Schellen König"),
    ("CJ", "french4", "de", "Kreuz Bube"),
    ("ST", "french2", "de", "Pik Zehn"),
    ("DA", "french4", "de", "Karo As"),
    ("HQ", "french2", "de", "Herz Dame"),
    ("CJ", "german", "en", "jack of clubs"),
    ("ST", "french4", "en", "ten of spades"),
    ("D2", "french2", "en", "two of diamonds"),
    ("HA", "german", "en", "ace of hearts"),
    ("R11", "german", "de", "Rot 11"),
    ("R11", "french2", "en", "red 11"),
    ("Y1", "german", "de", "Gelb 1"),
    ("B20", "german", "en", "blue 20"),
    ("G7", "german", "de", "Grün 7"),
    ("JK", "german", "de", "Joker"),
    ("JK", "french4", "en", "Joker"),
])
def test_labels_as_written(page: Watched, code: str, style: str, lang: str,
                           label: str) -> None:
    got = page.page.evaluate(
        "([c, s, l]) => [window.cards.cardLabel(c, {style: s, lang: l}),"
        " new DOMParser().parseFromString(window.cards.cardSvg(c, {style: s, lang: l}),"
        " 'image/svg+xml').documentElement.getAttribute('aria-label')]",
        [code, style, lang])
    assert got == [label, label]


def test_defaults_back_suits_and_bad_codes(page: Watched) -> None:
    got: dict[str, Any] = page.page.evaluate("""() => {
      const c = window.cards;
      const parse = (s) => new DOMParser().parseFromString(s, 'image/svg+xml').documentElement;
      const throws = (f) => { try { f(); return null; } catch (e) { return String(e); } };
      return {
        dflt: c.cardLabel('CJ'),
        backDe: parse(c.backSvg()).getAttribute('aria-label'),
        backEn: parse(c.backSvg({lang: 'en'})).getAttribute('aria-label'),
        backOwn: parse(c.backSvg({label: 'Skat'})).getAttribute('aria-label'),
        backRole: parse(c.backSvg()).getAttribute('role'),
        french: ['C', 'S', 'H', 'D'].map((s) => c.suitSymbol(s, 'french4')),
        german: ['C', 'S', 'H', 'D'].map((s) => parse(c.suitSymbol(s, 'german'))
          .getAttribute('aria-label')),
        colours: ['R', 'Y', 'G', 'B'].map((s) => parse(c.suitSymbol(s))
          .getAttribute('aria-label')),
        bad: ['X1', 'C1', 'R21', 'R0', 'HT ', 'jk', ''].map((s) => throws(() => c.cardSvg(s))),
        badLabel: throws(() => c.cardLabel('S10')),
      };
    }""")
    assert got["dflt"] == "Eichel Unter"
    assert (got["backDe"], got["backEn"], got["backOwn"]) == ("Karte", "card", "Skat")
    assert got["backRole"] == "img"
    assert got["french"] == ["♣", "♠", "♥", "♦"]
    assert got["german"] == ["Eichel", "Grün", "Herz", "Schellen"]
    assert got["colours"] == ["Rot", "Gelb", "Grün", "Blau"]
    assert all(b and "unknown card code" in b for b in got["bad"]), got["bad"]
    assert got["badLabel"] and "unknown card code" in got["badLabel"]


GALLERY_FACTS = """
() => {
  const out = {};
  for (const size of [40, 80]) {
    const cards = [...document.querySelectorAll(`#s${size} .row .c`)];
    out[size] = cards.map((c) => {
      const svg = c.querySelector('svg');
      const r = svg.getBoundingClientRect();
      const idx = svg.querySelector('.index');
      const i = idx ? idx.getBoundingClientRect() : null;
      return {code: c.dataset.code || 'back', label: c.dataset.label || null,
              aria: svg.getAttribute('aria-label'), w: r.width, h: r.height,
              idx: i && {left: i.left - r.left, right: i.right - r.left, h: i.height}};
    });
  }
  return out;
}
"""


@pytest.mark.parametrize("lang", LANGS)
def test_gallery_at_40_and_80_px(browser: Browser, base_url: str, lang: str) -> None:
    OUTPUT.mkdir(exist_ok=True)
    ctx = browser.new_context(viewport={"width": 1100, "height": 900})
    try:
        w = Watched(ctx.new_page())
        w.page.goto(f"{base_url}/cards.html?lang={lang}")
        w.page.wait_for_selector("body[data-ready]")
        facts: dict[str, list[dict[str, Any]]] = w.page.evaluate(GALLERY_FACTS)
        per_size = 3 * 32 + 3 * 53 + 80 + 1  # Skat, Rommé + joker, Elfer raus, back
        for size in ("40", "80"):
            cards = facts[size]
            assert len(cards) == per_size
            for c in cards:
                where = f"{size}px {c['code']}"
                assert c["w"] == pytest.approx(int(size), abs=0.5), where
                assert c["h"] == pytest.approx(int(size) * 1.5, abs=0.5), where
                assert c["aria"], where
                if c["label"] is not None:
                    assert c["aria"] == c["label"], where
                if c["code"] == "back":
                    continue
                # the index sits in the left 42 % (a fanned hand shows the left ~40 %)
                # and is at least 30 % of the card's width high
                idx = c["idx"]
                assert idx is not None, where
                assert idx["left"] >= 0 and idx["right"] <= 0.42 * c["w"], (where, idx)
                assert idx["h"] >= 0.3 * c["w"], (where, idx)
        w.page.locator("#s40").screenshot(path=str(OUTPUT / f"gallery-40-{lang}.png"))
        w.page.locator("#s80").screenshot(path=str(OUTPUT / f"gallery-80-{lang}.png"))
        rows = w.page.locator("#s80 .row[data-group]")
        assert rows.count() == 7
        for i in range(rows.count()):
            group = rows.nth(i).get_attribute("data-group")
            rows.nth(i).screenshot(path=str(OUTPUT / f"row-80-{group}-{lang}.png"))
        assert w.errors == []
    finally:
        ctx.close()


def test_fanned_hands_on_a_phone(browser: Browser, base_url: str) -> None:
    """Fans at 40 px on a phone-like screen (device pixel ratio 3), for looking at."""
    OUTPUT.mkdir(exist_ok=True)
    ctx = browser.new_context(viewport={"width": 420, "height": 800}, device_scale_factor=3)
    try:
        w = Watched(ctx.new_page())
        w.page.goto(f"{base_url}/cards.html")
        w.page.wait_for_selector("body[data-ready]")
        fans = w.page.locator("#s40 .fan")
        assert fans.count() == 4
        for i in range(4):
            fan = fans.nth(i)
            box = fan.bounding_box()
            assert box is not None
            # 10 (or 9) cards of 40 px overlapping by 24 px: each shows 16 px (40 %)
            n = fan.locator(".c").count()
            assert box["width"] == pytest.approx(40 + (n - 1) * 16, abs=1)
            fan.screenshot(path=str(OUTPUT / f"fan-40-dpr3-{i}.png"))
        assert w.errors == []
    finally:
        ctx.close()
