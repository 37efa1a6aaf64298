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
from rich.console import Console, Group
from rich.markup import escape
from rich.measure import Measurement
from rich.table import Table

from stich.baptisten.state import RoundResult
from stich.baptisten.view import display_order
from stich.cards import PlainCard, PlainDeck
from stich.cli.i18n import Translator
from stich.present.initials import initials

__all__ = [
    "PlainStyle",
    "deck_title",
    "group_hand",
    "legend",
    "ranking_table",
    "scoresheet",
    "sheet_blocks",
    "sheet_pages",
    "sheet_table",
    "sort_hand",
    "variants_title",
]

# Elfer raus: red, yellow, green, blue; French suits as the German Skat deck's colours.
_COLOURS = {"R": "red", "Y": "yellow", "G": "green", "B": "blue",
            "C": "bold", "S": "green", "H": "red", "D": "yellow"}


def sort_hand(hand: int, deck: PlainDeck, trump: int) -> list[PlainCard]:
    """The joker first, then trumps, then the other suits in deck order; high to low
    (:func:`stich.baptisten.view.display_order`)."""
    return display_order(hand, deck, trump)


def group_hand(hand: int, deck: PlainDeck, trump: int) -> list[tuple[int, list[PlainCard]]]:
    """The sorted hand in groups by suit (-1 for the joker)."""
    groups: list[tuple[int, list[PlainCard]]] = []
    for c in sort_hand(hand, deck, trump):
        if not groups or groups[-1][0] != c.suit:
            groups.append((c.suit, []))
        groups[-1][1].append(c)
    return groups


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


def deck_title(deck: PlainDeck, tr: Translator) -> str:
    """The deck spelled out: ``Elfer raus (80 Karten)``."""
    return tr("b_deck_size", name=tr(f"b_deck_{deck.name}"), size=deck.size)


def variants_title(variants: Sequence[int], tr: Translator) -> str:
    """The variants played, by name: ``Stirnrunden, Übertrumpfen ist Pflicht``."""
    return ", ".join(tr(f"b_variant_{v}") for v in variants) or tr("b_no_variants")


def sheet_blocks(sheet: Sequence[RoundResult], names: Sequence[str], style: PlainStyle,
                 *, stakes: bool = True, width: int = 80) -> list[list[int]]:
    """The players in blocks of seats whose columns fit ``width`` beside the round
    columns, as even as can be (one block when all fit)."""
    n = len(names)
    console = Console(width=10_000, file=io.StringIO())
    for count in range(1, n + 1):
        per = -(-n // count)
        blocks = [list(range(i, min(i + per, n))) for i in range(0, n, per)]
        if all(Measurement.get(console, console.options,
                               sheet_table(sheet, names, style, stakes=stakes, players=b)
                               ).maximum <= width for b in blocks):
            return blocks
    return [[p] for p in range(n)]


def legend(style: PlainStyle, *, stakes: bool = True) -> str:
    """What the scoresheet's column names mean (the stake only where it is played)."""
    return f"[dim]{style.tr('b_legend' if stakes else 'b_legend_ts')}[/]"


def scoresheet(sheet: Sequence[RoundResult], names: Sequence[str], style: PlainStyle,
               *, stakes: bool = True, width: int = 80) -> Group:
    """The whole scoresheet for a log: one table per block of players (see
    :func:`sheet_blocks`), each repeating the round columns; the title above the first,
    the legend under the last."""
    blocks = sheet_blocks(sheet, names, style, stakes=stakes, width=width)
    tables = [sheet_table(sheet, names, style, stakes=stakes, players=b, title=i == 0)
              for i, b in enumerate(blocks)]
    return Group(*tables, legend(style, stakes=stakes))


def sheet_pages(sheet: Sequence[RoundResult], names: Sequence[str], style: PlainStyle,
                *, stakes: bool = True, width: int = 80, rows: int = 24,
                console: Console | None = None) -> list[Group]:
    """The scoresheet in pages of ``width`` × ``rows``: for each block of players the
    rounds that fit, each page titled with its number and carrying the legend."""
    console = console or Console(width=width, file=io.StringIO())
    tr = style.tr
    blocks = sheet_blocks(sheet, names, style, stakes=stakes, width=width)
    options = console.options.update(width=width, height=None)
    empty = Group(sheet_table((), names, style, stakes=stakes, players=blocks[0]),
                  legend(style, stakes=stakes))
    fixed = len(console.render_lines(empty, options, pad=False))
    per_page = max(1, rows - fixed - 1)
    chunks = [list(sheet[i:i + per_page]) for i in range(0, len(sheet), per_page)] or [[]]
    pages = [(b, c) for b in blocks for c in chunks]
    out = []
    for k, (b, c) in enumerate(pages, start=1):
        table = sheet_table(c, names, style, stakes=stakes, players=b)
        table.title = tr("b_sheet_page", p=k, n=len(pages)) if len(pages) > 1 \
            else tr("b_sheet")
        out.append(Group(table, legend(style, stakes=stakes)))
    return out


def sheet_table(sheet: Sequence[RoundResult], names: Sequence[str], style: PlainStyle,
                *, stakes: bool = True, players: Sequence[int] | None = None,
                title: bool = True) -> Table:
    """The Anschreibezettel for some ``players`` (default: all): round, cards, who began
    (the shortest name prefix of at least three letters that tells the names apart),
    trump (the suit's name); per player bid, stake (not under trick scoring), tricks and
    running total.  A forced 40 shows as ``40!``; an exact bid's tricks are green, a
    missed one's red.  The legend (:func:`legend`) goes under the last table."""
    tr = style.tr
    seats = list(range(len(names))) if players is None else list(players)
    table = Table(title=tr("b_sheet") if title else None, box=box.SIMPLE_HEAD, padding=0,
                  show_edge=False, pad_edge=False)
    table.add_column(tr("b_col_round"), justify="right", no_wrap=True)
    table.add_column(tr("b_col_cards"), justify="right", no_wrap=True)
    table.add_column(tr("b_col_first"), no_wrap=True)
    table.add_column(tr("b_col_trump"), no_wrap=True)
    sub = ["b_col_bid", *(["b_col_stake"] if stakes else []), "b_col_tricks", "b_col_total"]
    for p in seats:
        head_style = "bold cyan" if p % 2 else "bold"
        for i, key in enumerate(sub):
            last = i == len(sub) - 1
            head = f"{escape(names[p])}\n{tr(key)}" if last else f"\n{tr(key)}"
            table.add_column(head, justify="right", no_wrap=True, header_style=head_style,
                             style="bold" if last else None, min_width=4 if last else None)
    short = initials(names, least=3)
    for rr in sheet:
        row = [str(rr.round), str(rr.cards), escape(short[rr.first]), _trump_cell(style, rr)]
        for p in seats:
            exact = rr.bids[p] == rr.tricks[p]
            row.append(str(rr.bids[p]))
            if stakes:
                row.append("[bold red]40![/]" if rr.forced[p] else str(rr.stakes[p]))
            row.append(f"[{'green' if exact else 'red'}]{rr.tricks[p]}[/]")
            row.append(f"[bold]{rr.totals[p]}[/]")
        table.add_row(*row)
    return table


def _trump_cell(style: PlainStyle, rr: RoundResult) -> str:
    """The trump suit's name, coloured (``–`` for no trump)."""
    if rr.trump < 0:
        return "–"
    return style.suit(rr.trump)


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
