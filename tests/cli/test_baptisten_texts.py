"""What the person reads at the Baptistenskat table: the 40s owed now, plurals, the
deck and variants by name, help without stakes under trick scoring, a scoresheet that
stays legible at 80 columns, the table size from --bots."""

from __future__ import annotations

import io
import json
import random
import re

import pytest
from rich.console import Console
from typer.testing import CliRunner

from stich.baptisten import BaptistenRules, BaptistenState
from stich.bots import BaptistenHeuristicBot
from stich.cli import app
from stich.cli.play_baptisten import BaptistenOptions, BaptistenSession

runner = CliRunner()
BOT = BaptistenHeuristicBot()


def invoke(*args: str, input: str | None = None) -> tuple[int, str]:
    result = runner.invoke(app, list(args), input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        result.output, result.exception)
    return result.exit_code, result.output


def play(rules: BaptistenRules, seed: int, lang: str = "de", *, first_help: bool = False,
         width: int = 120) -> tuple[BaptistenSession, list[tuple[BaptistenState, str]]]:
    """A whole game with a person typing what the heuristic bot would; the screens at
    each prompt with the state the person was asked in."""
    console = Console(record=True, width=width, file=io.StringIO())
    screens: list[tuple[BaptistenState, str]] = []
    holder: list[BaptistenSession] = []
    rng = random.Random(seed)

    def read(prompt: str) -> str:
        s = holder[0]
        state = s.asking
        assert state is not None
        screens.append((state, console.export_text(clear=True)))
        if first_help and len(screens) == 1:
            return "?"
        action = BOT.choose(state.view(state.to_move), rng)
        return str(action)

    s = BaptistenSession(BaptistenOptions(rules=rules, seed=seed, lang=lang), console, read)
    holder.append(s)
    s.run()
    screens.append((s.state, console.export_text(clear=True)))
    return s, screens


def test_the_40s_owed_count_the_ones_staked_in_this_round() -> None:
    rules = BaptistenRules(players=4, max_cards=6)
    checked = 0
    for seed in range(1, 6):
        _, screens = play(rules, seed)
        for state, text in screens[:-1]:
            staked = [state.bids[p] >= 0 and state.stakes[p] == 40 for p in range(4)]
            if not any(staked) or "Noch zu setzende 40er" not in text:
                continue
            line = " ".join(next(ln for ln in text.splitlines() if "Noch zu setzende" in ln)
                            .split())
            session_names = ["Du", "Kurt", "Helga", "Otto"]
            owed = [state.owed[p] - staked[p] for p in range(4)]
            want = " · ".join(f"{n} {o}" for n, o in zip(session_names, owed, strict=True))
            assert line == f"Noch zu setzende 40er: {want}"
            checked += 1
    assert checked >= 5


def test_plurals_and_spelled_out_deck_and_variants() -> None:
    rules = BaptistenRules(players=3, max_cards=3, deck="romme-double-joker", forehead=True,
                           must_overtrump=True)
    _s, screens = play(rules, 3)
    text = "".join(t for _, t in screens)
    assert "(e)" not in text and "(n)" not in text
    assert re.search(r"\b1 Stich,", text) and re.search(r"\b0 Stiche,", text)
    assert "Blatt: Rommé, doppelt, mit Joker (105 Karten) · Varianten: Stirnrunden, " \
           "Übertrumpfen ist Pflicht" in text
    assert "romme-double-joker" not in text
    _, screens = play(BaptistenRules(players=3, max_cards=3, trick_scoring=True), 3,
                      lang="en")
    text = "".join(t for _, t in screens)
    assert "Deck: Elfer raus (80 cards) · variants: trick scoring without stakes" in text
    assert re.search(r": 1 trick\b", text) and "(s)" not in text


def test_help_under_trick_scoring_has_no_stakes() -> None:
    for lang, stake in (("de", "Einsatz"), ("en", "stake")):
        _, screens = play(BaptistenRules(players=3, max_cards=2, trick_scoring=True), 1,
                          lang=lang, first_help=True)
        help_screen = screens[1][1]  # the screen after "?"
        assert ("Erlaubt:" if lang == "de" else "Allowed:") in help_screen
        assert stake not in help_screen and "2 5" not in help_screen
        assert "2/5" not in help_screen


@pytest.mark.parametrize("players", [7, 10, 15])
def test_the_scoresheet_is_legible_at_80_columns(players: int) -> None:
    """Bots alone in a terminal of 80 columns: every column of every player is shown in
    full (blocks of players, each repeating the round columns), and the legend explains
    exactly the columns shown."""
    code, out = invoke("play", "baptisten", "--bots", str(players), "--players", str(players),
                       "--deck", "romme-double-joker", "--max-cards", "3", "--seed", "1",
                       "--lang", "en", "--no-save")
    assert code == 0
    sheet = out[out.index("Scoresheet"):out.index("Final ranking")]
    assert "…" not in sheet
    assert max(len(line) for line in sheet.splitlines()) <= 80
    names = ["Kurt", "Helga", "Otto", "Erna", "Paul", "Grete", "Fritz", "Lotte", "Mia",
             "Bernd", "Ida", "Susi", "Rudi", "Anna", "Willi"][:players]
    for name in names:
        assert re.search(rf"\b{name}\b", sheet), name
    rows = [line.split() for line in sheet.splitlines()
            if line.strip()[:2].strip().isdigit() and line.split()[0] == "5"]
    totals = [int(x) for row in rows for x in row[4:][3::4]]  # the last round's totals
    ranking = out[out.index("Final ranking"):]
    final = [int(line.split()[-1]) for line in ranking.splitlines()
             if re.match(r"\s*\d+\.\s", line)]
    assert len(final) == players
    assert sorted(totals) == sorted(final)  # every player's total is legible
    legend = " ".join(sheet[sheet.index("Rd = "):].split())
    keys = re.findall(r"(?:^|, )(\S+) = ", legend)
    headers = {w for line in sheet.splitlines()[:6] for w in line.split()}
    assert set(keys) <= headers | {"Σ"}


def test_the_scoresheet_has_no_letter_with_two_meanings() -> None:
    """The first-player column shows name prefixes of three letters, the trump column
    the suit's name, and no abbreviation of the legend appears as a value."""
    _s, screens = play(BaptistenRules(players=4, max_cards=4), 2, lang="de")
    text = screens[-1][1]
    sheet = text[text.index("Anschreibezettel"):text.index("Endstand")]
    legend = " ".join(sheet[sheet.index("Rd = "):].split())
    keys = set(re.findall(r"(?:^|, )(\S+) = ", legend))
    body = [line for line in sheet.splitlines() if line.strip()[:2].strip().isdigit()]
    assert body
    for line in body:
        words = [w for w in line.split() if not re.fullmatch(r"-?\d+!?", w)]
        assert not keys & set(words), line
        assert all(len(w) >= 2 for w in words), line
    assert any(w in ("rot", "gelb", "grün", "blau") for line in body for w in line.split())


# --- the size of the table -----------------------------------------------------------------


def test_bots_alone_make_the_table_without_players() -> None:
    code, out = invoke("play", "baptisten", "--bots", "3", "--json", "--seed", "2",
                       "--max-cards", "3")
    assert code == 0
    sheet = json.loads(out)
    assert len(sheet["players"]) == 3 and sheet["players"][0] == "Kurt"
    code, out = invoke("play", "baptisten", "--bots", "5", "--json", "--seed", "2",
                       "--max-cards", "3")
    assert code == 0 and len(json.loads(out)["players"]) == 5


@pytest.mark.parametrize(("args", "words"), [
    (("--bots", "2"), ["too few", "--players 3"]),
    (("--players", "5", "--bots", "3"), ["0 or 4", "5 (bots only)"]),
    (("--players", "4", "--json"), ["--json needs --bots 4"]),
    (("--save", "x.jsonl", "--no-save", "--bots", "3"), ["not both"]),
])
def test_inconsistent_table_options_say_why(args: tuple[str, ...], words: list[str]) -> None:
    code, out = invoke("play", "baptisten", *args)
    assert code == 2
    flat = " ".join(out.replace("│", " ").split())
    for w in words:
        assert w in flat, (w, flat)


def test_french_decks_read_h10_and_elfer_raus_keeps_its_10() -> None:
    from stich.cards import plain_deck
    from stich.cli.baptisten_input import parse_plain_card

    romme = plain_deck("romme")
    assert parse_plain_card(romme, "H10", romme.full_mask).code == "HT"
    assert parse_plain_card(romme, "s10", romme.full_mask).code == "ST"
    elfer = plain_deck("elferraus")
    assert parse_plain_card(elfer, "R10", elfer.full_mask).code == "R10"
