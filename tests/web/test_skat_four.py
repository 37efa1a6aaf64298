"""A Skat table of four with house rules in the browser (issue 42): a person plays by
clicks with three bots (``bot:easy``) to the end of a short list (4 games: everybody
deals once and sits that game out), at 390×844 and 1280×800.

- When the person deals, the page marks her seat "gibt, setzt aus" and says so; she gets
  no card (``dealer_sees`` ``nothing``: no hand, no open hand of another seat) and no
  move.  The other seats show the dealer's mark when a bot deals.
- The house rules' buttons appear exactly when the move is legal (``kontra``, ``re``,
  ``schieben``: the browser code in ``skat.js``); the person says Kontra and pushes the
  Skat where she may, by clicks.
- The list on the page has four columns, marks the dealer who sat each game out, and
  its Punktestand equals the sums of the independent oracle
  (``tests/skat/house_oracle.py``) over the stored records.
"""

from __future__ import annotations

from collections import Counter

import pytest
from playwright.sync_api import Browser, Page

from tests.server.harness import Server
from tests.skat.house_oracle import evaluate
from tests.web.browser import DESKTOP, PHONE, person, shot, state, step
from tests.web.test_table import _no_page_errors

HOUSE = "skat(preset=lothar,kontra_re=yes,schieberamsch=yes,jungfrau=yes)"
SIZES = [pytest.param(PHONE, id="phone"), pytest.param(DESKTOP, id="desktop")]


def _create(page: Page, base: str) -> str:
    """The table (house rules come in a rules string, which the form does not offer: the
    page's own session creates it over the API) and the page at it."""
    r = page.request.post(base + "/api/tables", data={
        "game": "skat", "rules": HOUSE, "games": 4, "seats": ["me", "bot:easy", "bot:easy",
                                                           "bot:easy"],
        "next_after": 0, "clock": 0})
    assert r.ok, r.text()
    made = r.json()
    assert made["table"]["dealer_sees"] == "nothing"
    page.goto(base + made["invite_path"])
    page.wait_for_function("() => window.stichTable?.state.view?.phase")
    return str(made["table"]["id"])


def _house_step(page: Page, seen: Counter[str]) -> str | None:
    """The house rules' moves by clicks (the button must be there exactly when legal);
    None when the move is an ordinary one (``step`` makes it)."""
    st = state(page)
    v = st["view"] if st else None
    if not v:
        return None
    legal = v["legal"] or []
    if not legal:
        return None
    # the person's turn (nothing moves until she acts): each button is drawn exactly when
    # its move is legal (waited for: the page draws on the next frame)
    for word in ("kontra", "re", "schieben"):
        sel = f".actions [data-key='a:{word}']"
        page.wait_for_selector(sel, state="attached" if word in legal else "detached",
                               timeout=5000)
        if word in legal:
            seen[word] += 1
    if "re" in legal:
        page.click("[data-key='a:re']")
        return "re"
    if "kontra" in legal:
        page.click("[data-key='a:kontra']")
        return "kontra"
    if "schieben" in legal:
        page.click("[data-key='a:schieben']" if seen["schieben"] % 2 else "[data-key='a:pickup']")
        return "schieben"
    if v["phase"] == "DISCARD" and v["declarer"] < 0:  # Schieberamsch: never an Unter
        for code in [c for c in v["hand"] if not c.endswith("J")][:2]:
            page.click(f".hand button.card[data-code='{code}']")
        page.click("[data-key='a:discard']")
        return "discard"
    return None


_LOOK = """() => {
  const t = window.stichTable; const v = t?.state.view;
  const text = (sel) => document.querySelector(sel)?.textContent ?? null;
  const you = t?.state.you;
  return {out: !!v && v.phase !== "OVER" && you !== null && !v.positions.includes(you),
          tag: text(".player.me .tag.sits-out"), note: text(".sits-out-note"),
          cards: document.querySelectorAll(".skat .hand .card").length,
          // hands shown face up beyond what everybody sees: an Ouvert declarer's cards
          // and the cards still held after an early end are everybody's to see
          open: document.querySelectorAll(".skat .open-hand:not(.held-at-end)").length
                - (v && v.ouvert && v.ouvert.length ? 1 : 0),
          hand: v?.hand ?? null, legal: v?.legal ?? null, hands: !!v?.hands};
}"""


def _sitting_out(page: Page, seen: Counter[str], size_name: str) -> None:
    """While the person deals: the mark, the words, no card, no move, no hidden hand (the
    page looked at in one go: the bots play the game on meanwhile)."""
    look = page.evaluate(_LOOK)
    if not look["out"] or look["tag"] is None:
        return
    assert look["tag"] == "gibt, setzt aus", look
    assert "setzt dieses Spiel aus" in (look["note"] or ""), look
    assert look["cards"] == 0 and look["open"] == 0, look
    assert look["hand"] == [] and look["legal"] == [] and not look["hands"], look
    if not seen["sat out"]:
        shot(page, f"skat-four-sits-out-{size_name}")
    seen["sat out"] += 1


@pytest.mark.parametrize("size", SIZES)
def test_a_person_plays_a_table_of_four_with_house_rules_by_clicks(
        site: Server, browser: Browser, size: dict[str, int]) -> None:
    name = "phone" if size is PHONE else "desktop"
    ctx, page = person(browser, site.url, "Anna" + name[:1].upper(), viewport=size)
    try:
        tid = _create(page, site.url)
        seen: Counter[str] = Counter()
        shots = 0
        for _ in range(3000):
            st = state(page)
            if st and st["table"] and st["table"]["status"] == "over":
                break
            _sitting_out(page, seen, name)
            v = st["view"] if st else None
            if v and st["you"] in v["positions"] and v["phase"] == "PLAY" and shots == 0:
                dealer = next(i for i in range(4) if i not in v["positions"])
                page.wait_for_selector(".player.sits-out .tag.sits-out")
                assert page.locator(".skat.four .player").count() == 4
                assert dealer != st["you"]
                shot(page, f"skat-four-playing-{name}")
                shots += 1
            done = _house_step(page, seen)
            if done is not None:
                page.wait_for_function("(s) => window.stichTable?.state.seq > s", arg=st["seq"],
                                       timeout=10000)
                continue
            # passing in every other game: Ramsch, so Schieberamsch, comes more often
            if not step(page, bid="pass" if v and v.get("number", 0) % 2 else "18"):
                page.wait_for_timeout(40)
        else:
            raise AssertionError("the table did not end")
        assert seen["sat out"] > 0  # she dealt once and sat that game out
        # the list on the page: four columns, the dealer of each game marked
        page.wait_for_function("() => (window.stichTable.state.list?.games || []).length === 4")
        page.evaluate("() => document.querySelector('.layer-result button.next')?.click()")
        page.get_by_role("button", name="Liste").first.click()
        page.wait_for_selector(".skat-list")
        assert page.locator(".skat-list thead th.num").count() == 1 + 1 + 4  # #, value, 4
        assert page.locator(".skat-list tbody td.sat-out").count() == 4
        assert page.locator(".skat-list tfoot tr").first.locator("td").count() == 4
        shot(page, f"skat-four-list-{name}")
        lst = page.evaluate("() => window.stichTable.state.list")
        games = page.request.get(f"{site.url}/api/tables/{tid}/games").json()["games"]
        records = [page.request.get(f"{site.url}/api/games/{g['id']}").json()["record"]
                   for g in games]
        totals = [0] * 4
        for rec, line in zip(records, lst["games"], strict=True):
            res = evaluate(rec["rules"], rec["deal"]["hands"], rec["deal"]["skat"],
                           rec["actions"])
            want = [0] * 4
            for pos, seat in enumerate(rec["seats"]):
                want[seat] = res.scores[pos]
                totals[seat] += res.scores[pos]
            assert line["scores"] == want
        assert lst["punktestand"] == totals
        shown = [page.locator(".skat-list tfoot tr").first.locator("td").nth(i).inner_text()
                 for i in range(4)]
        assert shown == [str(t).replace("-", "−") for t in totals]
        _no_page_errors(page)
        print(f"{name}: {dict(seen)}")
    finally:
        ctx.close()

