"""The Skat list as the terminal draws it (``stich.cli.skat_render.skat_list``): the
players' running totals, the game names in the card style, Punktestand, Bilanz and won/lost
as declarer below, and only the latest games when asked."""

from __future__ import annotations

from rich.console import Console

from stich.cli.i18n import Translator
from stich.cli.skat_render import CardStyle, skat_list
from stich.skat import GameType, SkatOutcome
from stich.skat_list import SkatList

NAMES = ["Anna", "Bernd", "Carla"]


def text_of(table: SkatList, lang: str = "de", cards: str = "german",
            last: int | None = None) -> str:
    console = Console(record=True, width=120, color_system=None)
    console.print(skat_list(table, CardStyle(cards, Translator(lang)), last=last))
    return console.export_text()


def sitting() -> SkatList:
    t = SkatList(NAMES)  # dealer Anna: Bernd Vorhand, Carla Mittelhand, Anna Hinterhand
    t.record_game(SkatOutcome(kind="game", scores=(72, 0, 0), declarer=0,
                              game=GameType.GRAND, value=72, won=True))
    t.record_game(SkatOutcome(kind="ramsch", scores=(0, 0, -58), game=GameType.RAMSCH,
                              loser=2))
    t.record_game(SkatOutcome(kind="passed", scores=(0, 0, 0)))
    t.record_game(SkatOutcome(kind="game", scores=(0, -60, 0), declarer=1,
                              game=GameType.HERZ, value=30, won=False, hand=True))
    return t


def test_the_list_in_german() -> None:
    text = text_of(sitting())
    for word in (*NAMES, "Skatliste", "Punktestand", "Bilanz", "gewonnen/verloren",
                 "Grand", "Ramsch", "eingepasst", "Herz Hand", "+72", "-58", "-60"):
        assert word in text, word
    # Bernd won the Grand as Vorhand of game 1; Carla lost the Herz Hand in game 4
    assert "1/0" in text and "0/1" in text


def test_the_list_in_english_names_the_games_in_the_card_style() -> None:
    assert "Hearts Hand" in text_of(sitting(), "en", "english")
    french = text_of(sitting(), "en", "french")
    assert "Herz Hand" in french and "Hearts" not in french
    assert "Score" in french and "won/lost" in french


def test_only_the_latest_games_when_asked() -> None:
    text = text_of(sitting(), last=2)
    assert "2 frühere Spiele" in text
    assert "Grand" not in text and "Herz Hand" in text
