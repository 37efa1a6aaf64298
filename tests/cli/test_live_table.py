"""The fixed table of a real terminal: one table per question, fitted to 80×24 and using
200×50; the hand always in sight; a game's (or round's) result stays until Enter; the
scoresheet paged."""

from __future__ import annotations

import random
from typing import Any

import pytest

from stich.baptisten import BaptistenRules
from stich.cli.i18n import Translator

from .harness import Capture
from .test_hidden_info import run_baptisten, run_skat

DE = Translator("de")


def fits(screen: str, width: int, height: int) -> None:
    lines = screen.rstrip("\n").split("\n")
    assert len(lines) <= height - 1, f"{len(lines)} lines:\n{screen}"  # and the prompt
    assert max(len(line.rstrip()) for line in lines) <= width, screen


@pytest.mark.parametrize(("width", "height"), [(80, 24), (200, 50)])
def test_skat_table_fits_and_keeps_the_hand_in_sight(width: int, height: int) -> None:
    _session, capture = run_skat("lothar", 11, "bid36:nein", "bid35", live=True, width=width,
                                height=height)
    shown = [(s, a) for s, a in zip(capture.screens, capture.asked, strict=True)
             if a is not None]
    assert shown
    for screen, (state, seat) in shown:
        fits(screen, width, height)
        for name in ("Kurt", "Helga", "Du"):
            assert name in screen
        if state.hands[seat]:
            assert "Deine Karten" in screen
            assert all(f"{n} " in screen for n in range(1, state.hands[seat].bit_count() + 1))
    long_auction = [sc for sc, (state, _) in shown
                    if state.phase.name == "BIDDING" and len(state.bidding_history()) >= 6]
    assert long_auction, "the auction went on for six bids and more"
    assert all("Deine Karten" in sc for sc in long_auction)


def test_the_wide_table_shows_more_of_the_log() -> None:
    _, small = run_skat("lothar", 1, "heuristic", "heuristic", live=True, width=80,
                        height=24)
    _, wide = run_skat("lothar", 1, "heuristic", "heuristic", live=True, width=200,
                       height=50)
    last_small, last_wide = small.screens[-2], wide.screens[-2]  # the last card question
    assert max(len(line) for line in last_wide.splitlines()) > 120  # the log stands beside
    events = ("Stich ", ": passe", ": ja", " sagt an")
    count_small = sum(any(e in line for e in events) for line in last_small.splitlines())
    count_wide = sum(any(e in line for e in events) for line in last_wide.splitlines())
    assert count_wide > count_small


@pytest.mark.parametrize(("width", "height"), [(80, 24), (200, 50)])
def test_the_result_of_a_game_stays_until_enter(width: int, height: int) -> None:
    prompts: list[str] = []
    _session, capture = run_skat("lothar", 2, "heuristic", "heuristic", live=True,
                                width=width, height=height)
    prompts = capture.typed
    end = [i for i, a in enumerate(capture.asked) if a is None]
    assert end == [len(capture.screens) - 1], "one question after the game: press Enter"
    result = capture.screens[end[0]]
    fits(result, width, height)
    assert "Skatliste" in result
    assert any(w in result for w in ("gewinn", "verlier", "Ramsch", "Eingepasst"))
    assert "Skat: " in result or "Eingepasst" in result
    assert prompts


@pytest.mark.parametrize(("width", "height"), [(80, 24), (200, 50)])
def test_fifteen_players_fit_the_baptisten_table(width: int, height: int) -> None:
    rules = BaptistenRules(players=15, max_cards=2, deck="romme-double-joker")
    session, capture = run_baptisten(rules, 5, live=True, width=width, height=height)
    assert session.state.is_over
    names = session.names
    for screen, asked in zip(capture.screens, capture.asked, strict=True):
        fits(screen, width, height)
        assert "…" not in screen, screen  # no column squeezed
        if asked is not None and "Anschreibezettel" not in screen:
            for name in names:
                assert name in screen, (name, screen)


def test_baptisten_round_results_stay_and_the_sheet_pages() -> None:
    rules = BaptistenRules(players=7, max_cards=4, deck="romme")
    rng = random.Random(2)
    from .test_hidden_info import b_person

    person = b_person(rng)
    sheet_asked = [0]

    def answer(session: Any, prompt: str) -> str:
        if prompt == DE("press_enter") and "Runde" in session.console.export_text(
                clear=False) and sheet_asked[0] < 2:
            sheet_asked[0] += 1
            return "zettel"
        if prompt in (DE("press_enter"), DE("press_enter_end")):
            return ""
        return person(session, prompt)

    capture = Capture(answer=answer)
    session, capture = run_baptisten(rules, 2, live=True, width=80, height=24,
                                     capture=capture)
    assert session.state.is_over
    round_ends = [sc for sc in capture.screens if " ist aus." in sc]
    assert len(round_ends) >= len(rules.schedule()) - 1
    pages = [sc for sc in capture.screens if "Anschreibezettel (Seite" in sc]
    assert pages
    for page in pages:
        fits(page, 80, 24)
        assert "Rd = Runde" in page
    assert "Endstand" in capture.screens[-1]
