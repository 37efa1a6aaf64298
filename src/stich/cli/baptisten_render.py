"""Showing Baptistenskat in the terminal: card names and colours, a hand sorted with
trump first, and the scoresheet (Anschreibezettel) as a Rich table.  No engine logic.

>>> from stich.cards import plain_deck
>>> d = plain_deck("elferraus")
>>> [str(c) for c in sort_hand(d.parse_set("R3 Y20 R17 B1 Y2"), d, trump=1)]
['Y20', 'Y2', 'R17', 'R3', 'B1']
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.measure import Measurement
from rich.table import Table

from stich.baptisten.state import RoundResult
from stich.cards import PlainCard, PlainDeck, bits
from stich.cli.i18n import Translator

__all__ = [
    "PlainStyle",
    "group_hand",
    "initials",
    "ranking_table",
    "scoresheet_table",
    "sheet_table",
    "sort_hand",
]

# Elfer raus: red, yellow, green, blue; French suits as the German Skat deck's colours.
_COLOURS = {"R": "red", "Y": "yellow", "G": "green", "B": "blue",
            "C": "bold", "S": "green", "H": "red", "D": "yellow"}


def sort_hand(hand: int, deck: PlainDeck, trump: int) -> list[PlainCard]:
    """The joker first, then trumps, then the other suits in deck order; high to low."""
    def key(c: PlainCard) -> tuple[int, int, int]:
        if c.is_joker:
            return (0, 0, 0)
        return (1 if c.suit == trump else 2, c.suit, -c.rank)

    return sorted((deck.cards[i] for i in bits(hand)), key=key)


def group_hand(hand: int, deck: PlainDeck, trump: int) -> list[tuple[int, list[PlainCard]]]:
    """The sorted hand in groups by suit (-1 for the joker)."""
    groups: list[tuple[int, list[PlainCard]]] = []
    for c in sort_hand(hand, deck, trump):
        if not groups or groups[-1][0] != c.suit:
            groups.append((c.suit, []))
        groups[-1][1].append(c)
    return groups


def initials(names: Sequence[str]) -> list[str]:
    """The shortest prefixes (from one letter) that tell the names apart.

    >>> initials(["Kurt", "Helga", "Hans", "Otto"])
    ['K', 'He', 'Ha', 'O']
    """
    out = []
    for name in names:
        for size in range(1, len(name) + 1):
            prefix = name[:size]
            if sum(1 for other in names if other[:size] == prefix) == 1:
                out.append(prefix)
                break
        else:
            out.append(name)
    return out


class PlainStyle:
    """Card and suit names of one deck in the UI language, coloured with Rich markup."""

    def __init__(self, deck: PlainDeck, tr: Translator) -> None:
        self.deck = deck
        self.tr = tr
        self.english = tr.lang == "en"

    def colour(self, suit: int) -> str:
        if suit < 0:
            return "magenta"
        return _COLOURS.get(self.deck.suit_codes[suit], "bold")

    def name(self, card: PlainCard, *, colour: bool = True) -> str:
        text = card.english if self.english else card.german
        return f"[{self.colour(card.suit)}]{text}[/]" if colour else text

    def rank(self, card: PlainCard) -> str:
        """The rank alone, coloured by the suit (the joker by name)."""
        if card.is_joker:
            return f"[magenta]{self.tr('b_joker')}[/]"
        names = self.deck.rank_names_en if self.english else self.deck.rank_names
        return f"[{self.colour(card.suit)}]{names[card.rank]}[/]"

    def suit(self, suit: int, *, colour: bool = True) -> str:
        if suit < 0:
            return self.tr("b_joker")
        names = self.deck.suit_names_en if self.english else self.deck.suit_names
        return f"[{self.colour(suit)}]{names[suit]}[/]" if colour else names[suit]

    def cards(self, mask: int, trump: int) -> str:
        return ", ".join(self.name(c) for c in sort_hand(mask, self.deck, trump))


def scoresheet_table(sheet: Sequence[RoundResult], names: Sequence[str], style: PlainStyle,
                     *, stakes: bool = True, width: int = 80) -> Table:
    """The scoresheet with a column per value, or one per player when that is too wide
    for ``width`` (see :func:`sheet_table`)."""
    table = sheet_table(sheet, names, style, stakes=stakes, compact=False)
    console = Console(width=10_000, file=io.StringIO())
    if Measurement.get(console, console.options, table).maximum <= width:
        return table
    return sheet_table(sheet, names, style, stakes=stakes, compact=True)


def sheet_table(sheet: Sequence[RoundResult], names: Sequence[str], style: PlainStyle,
                *, stakes: bool = True, compact: bool = False) -> Table:
    """The Anschreibezettel: round, cards, who began, trump; per player bid, stake (not
    under trick scoring), tricks and running total.  A forced 40 shows as ``40!``; an
    exact bid's tricks are green, a missed one's red.  ``compact``: one column per player,
    ``bid/stake tricks total``."""
    tr = style.tr
    table = Table(title=tr("b_sheet"), box=box.SIMPLE_HEAD, padding=0,
                  caption=tr("b_legend" if stakes else "b_legend_ts"), caption_justify="left",
                  show_edge=False, pad_edge=False)
    table.add_column(tr("b_col_round"), justify="right", no_wrap=True)
    table.add_column(tr("b_col_cards"), justify="right", no_wrap=True)
    table.add_column(tr("b_col_first"), no_wrap=True)
    table.add_column(tr("b_col_trump"), no_wrap=True)
    sub = ["b_col_bid", *(["b_col_stake"] if stakes else []), "b_col_tricks", "b_col_total"]
    for p, name in enumerate(names):
        head_style = "bold cyan" if p % 2 else "bold"
        if compact:
            words = "/".join(tr(k) for k in sub[:-2]) + " " + tr(sub[-2]) + " " + tr(sub[-1])
            table.add_column(f"{escape(name)}\n{words}", justify="right", no_wrap=True,
                             header_style=head_style)
            continue
        for i, key in enumerate(sub):
            last = i == len(sub) - 1
            head = f"{escape(name[:5])}\n{tr(key)}" if last else f"\n{tr(key)}"
            table.add_column(head, justify="right", no_wrap=True, header_style=head_style,
                             style="bold" if last else None, min_width=5 if last else None)
    short = initials(names)
    for rr in sheet:
        row = [str(rr.round), str(rr.cards), escape(short[rr.first]), _trump_cell(style, rr)]
        for p in range(len(names)):
            exact = rr.bids[p] == rr.tricks[p]
            cells = [str(rr.bids[p])]
            if stakes:
                cells.append("[bold red]40![/]" if rr.forced[p] else str(rr.stakes[p]))
            cells.append(f"[{'green' if exact else 'red'}]{rr.tricks[p]}[/]")
            cells.append(f"[bold]{rr.totals[p]}[/]")
            if compact:
                row.append("/".join(cells[:-2]) + " " + cells[-2] + " " + cells[-1])
            else:
                row.extend(cells)
        table.add_row(*row)
    return table


def _trump_cell(style: PlainStyle, rr: RoundResult) -> str:
    """The trump suit's code letter, coloured (``–`` for no trump)."""
    if rr.trump < 0:
        return "–"
    return f"[{style.colour(rr.trump)}]{style.deck.suit_codes[rr.trump]}[/]"


def ranking_table(ranking: Sequence[tuple[int, int, int]], names: Sequence[str],
                  tr: Translator) -> Table:
    """Place, player, total; equal totals share a place."""
    table = Table(title=tr("b_ranking"), box=box.SIMPLE_HEAD, show_edge=False)
    table.add_column(tr("b_col_place"), justify="right")
    table.add_column(tr("b_col_player"))
    table.add_column(tr("b_col_points"), justify="right")
    for p, total, place in ranking:
        table.add_row(f"{place}.", names[p], str(total), style="bold" if place == 1 else None)
    return table
