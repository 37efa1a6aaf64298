"""`stich analyze RECORD`: the card play of a finished Skat game judged with all cards
open (see :mod:`stich.skat.analysis`): each card's value against the best card in its
position, the mistakes, and whether and with which discard the declarer could have won.
What the game is worth on the list counts Kontra and Re, and Bock as the record names it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from stich.cards import CARDS, card_points
from stich.cli.app import app, check_lang, lang_option, print_error
from stich.cli.i18n import Translator
from stich.cli.skat_render import CardStyle, game_title
from stich.games import SKAT
from stich.messages import render
from stich.record import bock_factor, read_records, replay_skat
from stich.skat.analysis import AnalysisError, GameAnalysis, MoveAnalysis, analyze
from stich.skat.rules import GameType
from stich.skat.state import SkatState

__all__ = ["analyze_cmd"]

CARD_STYLES = ("german", "french", "english")
DEFAULT_STYLE = {"de": "german", "en": "english"}
_SHOWN_DISCARDS = 12  # winning discards listed in the table view (the JSON has all)

TEXTS: dict[str, dict[str, str]] = {
    "de": {
        "title": "Analyse mit offenen Karten",
        "declarer": "{name} ({pos}) spielt {game}, gereizt bis {bid}{mit}",
        "goal_points": "Zum Gewinnen nötig: {points} Augen (Spielwert {value})",
        "goal_all_tricks": "Zum Gewinnen nötig: alle Stiche (Spielwert {value})",
        "goal_no_trick": "Zum Gewinnen nötig: kein Stich (Spielwert {value})",
        "goal_impossible": "Überreizt: das Spiel ist verloren, wie auch immer gespielt wird "
                           "(abgerechnet {value})",
        "start_won": "Mit offenen Karten ab dem ersten Ausspiel: {value} → gewonnen",
        "start_lost": "Mit offenen Karten ab dem ersten Ausspiel: {value} → nicht zu gewinnen",
        "start_worth": "Wert bei perfektem Spiel ab dem ersten Ausspiel: {worth} in der Liste",
        "factor": "{what}: in der Liste zählt das Spiel ×{factor}",
        "and": "und",
        "hand": "Hand: der Skat ({cards}, {points} Augen) bleibt liegen.",
        "discarded": "Gedrückt: {cards} ({points} Augen).",
        "discards_won": "Mit offenen Karten gewinnen {n} von 66 Drückungen: {list}",
        "discards_none": "Mit offenen Karten gewinnt keine der 66 Drückungen.",
        "more": "und {n} weitere",
        "col_trick": "Stich", "col_player": "Spieler", "col_card": "Karte",
        "col_value": "Wert", "col_best": "Beste Karte",
        "col_mark": "Bemerkung",
        "points": "{n} Augen", "won": "gewonnen", "lost": "verloren",
        "lost_here": "verloren ab hier",
        "won_here": "gewonnen ab hier",
        "legend": "Wert: Augen des Alleinspielers am Ende (Skat eingerechnet), wenn ab "
                  "dieser Karte alle perfekt spielen; leere Spalte „Beste Karte“: die "
                  "gespielte Karte war eine beste.",
        "legend_null": "Wert: ob der Alleinspieler den Null noch gewinnt, wenn ab dieser "
                       "Karte alle perfekt spielen; leere Spalte „Beste Karte“: die "
                       "gespielte Karte war eine beste.",
        "result": "Ergebnis: {value}, {score} in der Liste",
        "mistakes": "Fehler: Alleinspieler {d}, Gegenspieler {o}",
        "mistake": "Fehler, −{cost} in der Liste",
        "end_claimed": "Rest beansprucht",
        "end_claim_wrong": "Rest zu Unrecht beansprucht",
        "end_gave_up": "aufgegeben",
        "end_gift": "Geschenk angenommen",
        "end_shortcut": "der Rest war entschieden",
        "gift_1": "Schenken ausgeschlagen: das Spiel zählt wie mit Schneider angesagt",
        "gift_2": "Schenken zweimal ausgeschlagen: das Spiel zählt wie mit Schwarz angesagt",
        "after_last_card": "Bewertet sind die gespielten Karten: das Spiel endete vor dem "
                           "letzten Stich ({how}).",
    },
    "en": {
        "title": "Analysis with open cards",
        "declarer": "{name} ({pos}) plays {game}, bid {bid}{mit}",
        "goal_points": "Needed to win: {points} points (game value {value})",
        "goal_all_tricks": "Needed to win: every trick (game value {value})",
        "goal_no_trick": "Needed to win: no trick (game value {value})",
        "goal_impossible": "Overbid: the game is lost however it is played (settled at "
                           "{value})",
        "start_won": "With open cards from the first lead: {value} → won",
        "start_lost": "With open cards from the first lead: {value} → cannot be won",
        "start_worth": "Worth with perfect play from the first lead: {worth} on the list",
        "factor": "{what}: the list counts the game ×{factor}",
        "and": "and",
        "hand": "Hand: the Skat ({cards}, {points} points) stays down.",
        "discarded": "Discarded: {cards} ({points} points).",
        "discards_won": "With open cards {n} of the 66 discards win: {list}",
        "discards_none": "With open cards none of the 66 discards wins.",
        "more": "and {n} more",
        "col_trick": "Trick", "col_player": "Player", "col_card": "Card",
        "col_value": "Value", "col_best": "Best card",
        "col_mark": "Note",
        "points": "{n} points", "won": "won", "lost": "lost",
        "lost_here": "lost from here",
        "won_here": "won from here",
        "legend": "Value: the declarer's points at the end (Skat included) if everybody "
                  "plays perfectly after this card; empty 'Best card': the card played was "
                  "a best one.",
        "legend_null": "Value: whether the declarer still wins the Null if everybody plays "
                       "perfectly after this card; empty 'Best card': the card played was "
                       "a best one.",
        "result": "Result: {value}, {score} on the list",
        "mistakes": "Mistakes: declarer {d}, defenders {o}",
        "mistake": "mistake, −{cost} on the list",
        "end_claimed": "the rest claimed",
        "end_claim_wrong": "the rest claimed wrongly",
        "end_gave_up": "given up",
        "end_gift": "the gift accepted",
        "end_shortcut": "the rest was decided",
        "gift_1": "Schenken played on: the game counts as with Schneider announced",
        "gift_2": "Schenken played on twice: the game counts as with Schwarz announced",
        "after_last_card": "The cards played are judged: the game ended before the last "
                           "trick ({how}).",
    },
}


class _Fail(Exception):
    """A record that cannot be analysed: the error saying why, and where it is (the file,
    and the record when the file holds several)."""

    def __init__(self, error: BaseException, where: str | None = None) -> None:
        super().__init__(str(error))
        self.error = error
        self.where = where


@app.command("analyze")
def analyze_cmd(
    record_file: Annotated[Path, typer.Argument(
        help="A stich record file: one record, a JSON list, or one record per line.",
        metavar="RECORD")],
    index: Annotated[int, typer.Option(
        "--index", "-i", min=0,
        help="Which record of the file to analyse, counted from 0 (default: the first).")
    ] = 0,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print the full analysis as one JSON object.")] = False,
    lang: str = lang_option(),
    cards: Annotated[str | None, typer.Option(
        "--cards", help="Card names: german, french or english (default: german for de, "
                        "english for en).")] = None,
    all_cards: Annotated[bool, typer.Option(
        "--all-cards", help="Also value every legal card at every move (slower; in the "
                            "JSON as 'values').")] = False,
) -> None:
    """Analyse a finished Skat game with all cards open: trick by trick each card, its
    value (the declarer's points at the end with perfect play from there on) against the
    best card in that position, what a mistake cost, and where the game was lost or
    decided; at the top whether the declarer could have won with open cards, and with
    which discards.  Ramsch, passed and unfinished games and Baptistenskat records are
    refused with exit code 1."""
    check_lang(lang)
    style = cards if cards is not None else DEFAULT_STYLE[lang]
    if style not in CARD_STYLES:
        raise typer.BadParameter(f"use {', '.join(CARD_STYLES)}", param_hint="--cards")
    try:
        record, state, where = _load(record_file, index, lang)
        try:
            result = analyze(state, all_cards=all_cards, bock=bock_factor(record))
        except AnalysisError as e:
            raise _Fail(e, where) from None
    except _Fail as f:
        print_error(f.error, lang, where=f.where)
        raise typer.Exit(1) from None
    names = _names(record)
    if as_json:
        out = {"index": index, "players": list(names), **result.to_dict()}
        typer.echo(json.dumps(out, ensure_ascii=False))
        return
    _Report(Console(), Translator(lang), CardStyle(style, Translator(lang)), lang,
            names).show(result)


def _load(path: Path, index: int, lang: str) -> tuple[dict[str, Any], SkatState, str]:
    """The record at ``index``, its finished game, and where it is (the file, and the
    record in ``lang`` when the file holds several); or _Fail saying why not.  Whether
    the game has a declarer to analyse is :func:`analyze`'s question."""
    found = read_records(path)  # a damaged place elsewhere in the file does not matter
    for e in found.entries:
        if e.index is None and e.problem is not None:  # the whole file
            raise _Fail(e.problem)
    numbered = [e for e in found.entries if e.index is not None]
    if index >= len(numbered):
        raise _Fail(AnalysisError("analysis.no_such_record", path=str(path), n=len(numbered),
                                  last=len(numbered) - 1))
    where = str(path)
    if found.several:
        where = render("analysis.record_at", {"path": str(path), "index": index}, lang)
    entry = numbered[index]
    if entry.problem is not None:  # it names the file and the record itself
        raise _Fail(entry.problem)
    record = entry.data
    if isinstance(record, dict) and record.get("game") not in (None, SKAT.name):
        raise _Fail(AnalysisError("analysis.not_skat", game=str(record.get("game"))), where)
    try:
        state = replay_skat(record)
    except ValueError as e:
        raise _Fail(e, where) from None
    if not state.is_over:
        raise _Fail(AnalysisError("analysis.not_finished", n=len(state.history),
                                  phase=state.phase.name), where)
    return record, state, where


def signed(n: int) -> str:
    """A list score with its sign: ``+36``, ``−72`` (the minus sign of the table), ``0``."""
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


def _names(record: dict[str, Any]) -> tuple[str, str, str]:
    players = record.get("players")
    if isinstance(players, list) and len(players) == 3:
        return (str(players[0]), str(players[1]), str(players[2]))
    return ("Vorhand", "Mittelhand", "Hinterhand")


class _Report:
    """The terminal view of one analysis."""

    def __init__(self, console: Console, tr: Translator, style: CardStyle, lang: str,
                 names: tuple[str, str, str]) -> None:
        self.console = console
        self.tr = tr
        self.style = style
        self.texts = TEXTS[lang]
        self.names = names

    def t(self, key: str, **fields: object) -> str:
        return self.texts[key].format(**fields)

    def say(self, text: str) -> None:
        self.console.print(text, highlight=False)

    def show(self, a: GameAnalysis) -> None:
        self.console.rule(f"[bold]{self.t('title')}[/]")
        for line in self.header(a):
            self.say(line)
        self.console.print(self.table(a))
        self.say(f"[dim]{self.t('legend_null' if a.game is GameType.NULL else 'legend')}[/]")
        self.say(self.footer(a))

    def value(self, a: GameAnalysis, v: int) -> str:
        if a.game is GameType.NULL:
            return self.t("won") if v else self.t("lost")
        return str(v)

    def header(self, a: GameAnalysis) -> list[str]:
        d = a.declarer
        c = a.contract
        title = game_title(self.style, a.game, hand=c.hand, ouvert=c.ouvert,
                           schneider=c.schneider, schwarz=c.schwarz)
        m = a.goal.matadors
        mit = f", {self.tr('mit') if m > 0 else self.tr('ohne')} {abs(m)}"
        head = self.t("declarer", name=escape(self.names[d]), pos=self.tr("pos", seat=d),
                      game=title, bid=a.bid, mit="" if a.game is GameType.NULL else mit)
        lines = [f"[bold]{head}[/]"]
        g = a.goal
        lines.append(self.t(f"goal_{g.kind}", points=g.points, value=g.value))
        start = self.value(a, a.start_value)
        if a.game is not GameType.NULL:
            start = self.t("points", n=a.start_value)
        colour = "green" if a.start_winnable else "red"
        key = "start_won" if a.start_winnable else "start_lost"
        lines.append(f"[{colour}]{self.t(key, value=start)}[/]")
        lines.append(self.t("start_worth", worth=signed(a.start_worth)))
        if a.gift:
            lines.append(self.t(f"gift_{a.gift}"))
        if a.factor > 1:
            lines.append(self.t("factor", what=self.doublings(a), factor=a.factor))
        lines += self.skat_lines(a)
        return lines

    def doublings(self, a: GameAnalysis) -> str:
        """``Kontra``, ``Kontra und Re``, ``Kontra, Re und Bock ×4``."""
        parts = [w for w, said in (("Kontra", a.kontra), ("Re", a.re)) if said]
        if a.bock > 1:
            parts.append("Bock" if a.bock == 2 else f"Bock ×{a.bock}")
        if len(parts) == 1:
            return parts[0]
        return f"{', '.join(parts[:-1])} {self.t('and')} {parts[-1]}"

    def skat_lines(self, a: GameAnalysis) -> list[str]:
        cards = self.style.cards(a.skat, a.game)
        pts = card_points(a.skat)
        if a.winning_discards is None:
            return [self.t("hand", cards=cards, points=pts)]
        lines = [self.t("discarded", cards=cards, points=pts)]
        wins = a.winning_discards
        if not wins:
            return [*lines, self.t("discards_none")]
        shown = [self.style.cards(s, a.game) for s in wins[:_SHOWN_DISCARDS]]
        text = "; ".join(shown)
        if len(wins) > _SHOWN_DISCARDS:
            text += "; " + self.t("more", n=len(wins) - _SHOWN_DISCARDS)
        return [*lines, self.t("discards_won", n=len(wins), list=text)]

    def table(self, a: GameAnalysis) -> Table:
        table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1))
        for key in ("col_trick", "col_player", "col_card", "col_value", "col_best",
                    "col_mark"):
            right = key in ("col_trick", "col_value")
            table.add_column(self.t(key), justify="right" if right else "left",
                             no_wrap=right or key == "col_player",
                             min_width=16 if key == "col_mark" else None)
        for m in a.moves:
            table.add_row(*self.row(a, m))
        return table

    def row(self, a: GameAnalysis, m: MoveAnalysis) -> list[str]:
        seat = m.seat
        who = f"{escape(self.names[seat])} ({self.tr('pos', seat=seat)[0]})"
        if m.by_declarer:
            who = f"[bold]{who}[/]"
        best = ""
        if m.loss:
            best = f"{self.style.name(CARDS[m.best_card])} ({self.value(a, m.best_value)})"
        trick = str(m.trick_no) if not m.position.trick else ""
        return [trick, who, self.style.name(CARDS[m.card]), self.value(a, m.value), best,
                self.mark(a, m)]

    def mark(self, a: GameAnalysis, m: MoveAnalysis) -> str:
        parts = []
        if m.loss and a.game is not GameType.NULL:  # in Null the mark says it all
            parts.append(f"[yellow]−{m.loss}[/]")
        if m.is_mistake:
            parts.append(f"[bold red]{self.t('mistake', cost=m.cost)}[/]")
        if m.mark:
            colour = "red" if m.mark == "lost_here" else "green"
            parts.append(f"[bold {colour}]{self.t(m.mark)}[/]")
        return " · ".join(parts)

    def footer(self, a: GameAnalysis) -> str:
        outcome = self.t("won") if a.won else self.t("lost")
        value = outcome
        if a.game is not GameType.NULL:
            value = self.t("points", n=a.final_value) + ", " + outcome
        d = sum(1 for m in a.mistakes if m.by_declarer)
        o = len(a.mistakes) - d
        colour = "green" if a.won else "red"
        score = signed(a.score or 0)
        text = f"[bold {colour}]{self.t('result', value=value, score=score)}[/]\n"
        text += self.t("mistakes", d=d, o=o)
        if "end_" + a.end in self.texts:  # ended before the last trick
            text += "\n" + self.t("after_last_card", how=self.t("end_" + a.end))
        return text

