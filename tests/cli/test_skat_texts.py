"""What the person reads at the Skat table: one language, one card style, the engine's
refusals in the person's words, the table's bidding rule, the Null question, names."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from stich.bots import SkatHeuristicBot
from stich.cards import CARDS, Card, Suit, card_points
from stich.cli import app
from stich.cli.play_skat import PlayOptions, SkatSession
from stich.skat import HOLD, PASS, Bid, GameType, SkatRules
from stich.skat.lookup import TABLES

runner = CliRunner()


def invoke(*args: str, input: str | None = None) -> tuple[int, str]:
    result = runner.invoke(app, list(args), input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        result.output, result.exception)
    return result.exit_code, result.output


class Bot:
    """A bot for tests: passes, or goes up to ``limit``, and otherwise plays like the
    heuristic bot."""

    def __init__(self, limit: int = 0) -> None:
        self.limit = limit
        self.heuristic = SkatHeuristicBot()

    def choose(self, view: Any, rng: random.Random) -> Any:
        legal = view.legal_actions
        if view.phase == "BIDDING":
            if HOLD in legal:
                return HOLD if view.bid <= self.limit else PASS
            bids = [a for a in legal if isinstance(a, Bid) and a.value <= self.limit]
            return bids[0] if bids else PASS
        return self.heuristic.choose(view, rng)


def session(answer: Callable[[Any, Any, str], str], *, seed: int, lang: str = "de",
            cards: str = "german", rules: str = "lothar", games: int = 1, name: str = "",
            limits: tuple[int, int] | None = None) -> tuple[SkatSession, str]:
    """A sitting with a person who answers ``answer(state, view, prompt)``; with
    ``limits`` the two bots bid up to those values and play like the heuristic bot."""
    console = Console(record=True, width=100, file=io.StringIO())
    opts = PlayOptions(rules=SkatRules.preset(rules), seed=seed, games=games, lang=lang,
                       cards=cards, name=name)
    holder: list[SkatSession] = []
    count = [0]

    def read(prompt: str) -> str:
        count[0] += 1
        assert count[0] < 400, "the person is asked the same thing again and again"
        s = holder[0]
        assert s.asking is not None
        state, seat = s.asking
        return answer(state, state.view(seat), prompt)

    s = SkatSession(opts, console, read)
    holder.append(s)
    if limits is not None:
        s.bots = {p: Bot(limits[i]) for i, p in enumerate(sorted(s.bots))}
    s.run()
    return s, console.export_text()


HEURISTIC = SkatHeuristicBot()


def heuristic(state: Any, view: Any, prompt: str) -> str:
    return str(HEURISTIC.choose(view, random.Random(0)))


# --- the engine's refusals, in the person's words ------------------------------------------


@pytest.mark.parametrize(("cards", "lang"), [("german", "de"), ("french", "de"),
                                             ("french", "en")])
def test_follow_suit_refusal_in_the_persons_language_and_card_style(cards: str,
                                                                    lang: str) -> None:
    """A card that does not follow gets the engine's refusal, addressed to the person,
    with the suit and the cards named in the person's card style (number and code)."""
    expected: list[str] = []
    must_cards: list[Card] = []

    def answer(state: Any, view: Any, prompt: str) -> str:
        if view.phase == "PLAY" and state.trick and not expected:
            must = state.legal_cards()
            bad = view.hand & ~must
            led = state.trick[0]
            if bad and not TABLES[state.game].trump >> led & 1:
                suit = Suit(CARDS[led].suit).name_in(cards)
                expected.append(f"Nicht erlaubt: Du musst {suit} bedienen: du hast "
                                if lang == "de" else
                                f"Not allowed: you must follow {suit}: you hold ")
                must_cards.extend(c for c in CARDS if must >> c.index & 1)
                return str(CARDS[bad.bit_length() - 1])
        return heuristic(state, view, prompt)

    for seed in (15, 4, 17, 22, 35, 39):
        expected.clear()
        must_cards.clear()
        _, text = session(answer, seed=seed, cards=cards, lang=lang)
        if expected:
            break
    assert expected, "no seed gave a follow-suit refusal"
    flat = " ".join(text.split())
    assert expected[0] in flat
    rest = flat[flat.index(expected[0]) + len(expected[0]):][:200]
    for c in must_cards:
        assert f"{c.name_in(cards)} ({c})" in rest


# --- the table's rules ---------------------------------------------------------------------


def test_a_jump_bid_at_a_strict_ladder_table_is_explained() -> None:
    # Seed 1: the person (Hinterhand) says first after Mittelhand passed.
    code, out = invoke("play", "skat", "--seed", "1", input="27\npass\n")
    assert code == 0
    assert "An diesem Tisch wird streng die Reizleiter hinauf gereizt: als Nächstes 18." \
        in " ".join(out.split())
    code, out = invoke("play", "skat", "--seed", "1", "--lang", "en", input="27\npass\n")
    assert "At this table the bids go strictly up the ladder: next is 18." \
        in " ".join(out.split())
    code, out = invoke("play", "skat", "--seed", "1", "--rules", "isko", input="27\npass\n")
    assert "Du: 27" in out  # the ISkO allows jump bids


def test_a_null_below_the_bid_asks_first_and_may_be_withdrawn() -> None:
    asked: list[str] = []

    def answer(state: Any, view: Any, prompt: str) -> str:
        if prompt.startswith(">"):
            asked.append(prompt)
            return "nein" if len(asked) == 1 else "ja"
        if view.phase == "BIDDING":
            if HOLD in view.legal_actions:
                return "ja" if view.bid <= 36 else "passe"
            bids = [a for a in view.legal_actions if isinstance(a, Bid) and a.value <= 36]
            return str(bids[0]) if bids else "passe"
        if view.phase == "SKAT":
            return "aufnehmen"
        if view.phase == "DECLARE":
            return "null"
        return heuristic(state, view, prompt)

    for seed in range(1, 30):
        asked.clear()
        s, text = session(answer, seed=seed, limits=(35, 0))
        game = s.table.games[-1].outcome
        if game.declarer is not None and s.table.players[
                s.table.games[-1].positions[game.declarer]] == "Du" and game.bid >= 36:
            break
    else:
        pytest.fail("no seed where the person holds 36")
    flat = " ".join(text.split())
    assert (f"Null ist nur 23 wert, gereizt ist {game.bid}: das Spiel ist sofort verloren "
            f"(−92). Trotzdem? (ja/nein)") in flat
    assert "Gut, dann sag ein anderes Spiel an." in flat
    assert len(asked) == 2  # asked again after "nein", declared after "ja"
    assert game.overbid and game.game is GameType.NULL and game.scores[game.declarer] == -92


def test_a_null_below_the_bid_is_refused_under_isko_by_the_engine() -> None:
    def answer(state: Any, view: Any, prompt: str) -> str:
        assert not prompt.startswith(">"), "no question where the engine refuses"
        if view.phase == "BIDDING":
            if HOLD in view.legal_actions:
                return "ja" if view.bid <= 36 else "passe"
            bids = [a for a in view.legal_actions if isinstance(a, Bid) and a.value <= 36]
            return str(bids[0]) if bids else "passe"
        if view.phase == "SKAT":
            return "aufnehmen"
        if view.phase == "DECLARE":
            return "grand" if answer.tried else (setattr(answer, "tried", True) or "null")
        return heuristic(state, view, prompt)

    answer.tried = False  # type: ignore[attr-defined]
    for seed in range(1, 30):
        answer.tried = False  # type: ignore[attr-defined]
        _, text = session(answer, seed=seed, rules="isko", limits=(35, 0))
        if answer.tried:  # type: ignore[attr-defined]
            break
    flat = " ".join(text.split())
    assert "Nicht erlaubt: " in flat and "Trotzdem?" not in flat


# --- hidden and open cards -----------------------------------------------------------------


def hand_game(declaration: str) -> Callable[[Any, Any, str], str]:
    """A person who holds and bids the lowest value, plays Hand, declares
    ``declaration`` and then plays like the heuristic bot."""

    def answer(state: Any, view: Any, prompt: str) -> str:
        if view.phase == "BIDDING":
            if HOLD in view.legal_actions:
                return "ja"
            bids = [a for a in view.legal_actions if isinstance(a, Bid)]
            return str(bids[0]) if bids else "passe"
        if view.phase == "SKAT":
            return "hand"
        if view.phase == "DECLARE":
            return declaration
        return heuristic(state, view, prompt)

    return answer


def test_the_declarer_of_a_hand_game_does_not_see_the_skat_points() -> None:
    screens: list[tuple[Any, str]] = []

    def answer(state: Any, view: Any, prompt: str) -> str:
        if view.phase == "PLAY" and not state.tricks:
            screens.append((state, ""))
        return hand_game("schellen")(state, view, prompt)

    seen = 0
    for seed in range(1, 12):
        screens.clear()
        _s, text = session(answer, seed=seed, limits=(0, 0))
        state = screens[0][0] if screens else None
        if state is None or card_points(state.skat) == 0 or state.trick:
            continue
        assert "Du spielst Schellen Hand (gereizt bis 18) · Augen: du 0, Gegner 0" in text
        seen += 1
    assert seen >= 2


def test_ouvert_cards_are_not_announced_as_offene_karten_von_du() -> None:
    _s, text = session(hand_game("grand ouvert"), seed=3, limits=(0, 0))
    assert "Du sagst an: Grand Hand Ouvert" in text
    assert "von Du" not in text


# --- one language, one card style ----------------------------------------------------------


def test_english_texts_with_french_cards_name_every_card_the_french_way() -> None:
    """Under --lang en --cards french every card, suit and game is named by the French
    deck in German (Kreuz, Pik, Herz, Karo; Bube, Dame), on every screen and list."""
    helped = [False]

    def answer(state: Any, view: Any, prompt: str) -> str:
        if not helped[0]:
            helped[0] = True
            return "?"
        return heuristic(state, view, prompt)

    _, text = session(answer, seed=11, games=6, lang="en", cards="french")
    english_cards = re.compile(r"\b(Clubs|Spades|Hearts|Diamonds|Jacks?|Queens?|Kings?|Aces?"
                               r"|Eichel|Grün|Schellen|Unter|Ober)\b")
    assert not english_cards.findall(text), set(english_cards.findall(text))
    assert "Buben" in text or "Bube" in text
    assert "Skat list" in text


def test_german_list_and_screens_use_the_card_style() -> None:
    _, text = session(heuristic, seed=11, games=4, cards="french")
    assert not re.search(r"\b(Eichel|Grün|Schellen|Unter|Ober)\b", text)


# --- names ---------------------------------------------------------------------------------


def test_two_players_never_share_a_name() -> None:
    code, out = invoke("play", "skat", "--seed", "1", "--name", "Kurt", input="quit\n")
    assert code == 0
    seats = next(line for line in out.splitlines() if line.startswith("Vorhand:"))
    names = re.findall(r"(?:Vorhand|Mittelhand|Hinterhand): (\w+)", seats)
    assert sorted(names) == sorted(set(names)) and "Kurt" in names
    code, out = invoke("play", "baptisten", "--seed", "1", "--name", "helga",
                       "--players", "5", input="quit\n")
    seating = next(line for line in out.splitlines() if "Sitzordnung" in line)
    names = [n.casefold() for n in re.findall(r"\d+\. (\w+)", seating)]
    assert len(names) == 5 and len(set(names)) == 5 and "helga" in names
