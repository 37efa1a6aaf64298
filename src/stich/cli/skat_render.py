"""Showing Skat in the terminal: card names and colours, a hand sorted for the game,
tricks, and the result of a game.  Rich markup, no engine logic.

>>> from stich.cards import parse_cards
>>> [str(c) for c in sort_hand(parse_cards("HA DJ CJ H7 S8 HT"), GameType.HERZ)]
['CJ', 'DJ', 'HA', 'HT', 'H7', 'S8']
>>> [str(c) for c in sort_hand(parse_cards("HA DJ CJ H7 S8 HT"), GameType.NULL)]
['CJ', 'S8', 'HA', 'HT', 'H7', 'DJ']
"""

from __future__ import annotations

from rich import box
from rich.markup import escape
from rich.table import Table

from stich.cards import Card, Rank, Suit
from stich.cli.i18n import Translator
from stich.skat.lookup import TABLES
from stich.skat.outcome import SkatOutcome
from stich.skat.rules import GameType
from stich.skat.view import display_order
from stich.skat_list import (
    SEEGER_LOST_OTHERS,
    SEEGER_WON,
    Leaderboard,
    SkatList,
    bock_mark,
    game_name,
    seeger_json,
    seeger_places,
    words,
)

__all__ = [
    "CardStyle",
    "game_title",
    "group_hand",
    "leaderboard_table",
    "list_game_name",
    "result_lines",
    "skat_list",
    "sort_hand",
]

_COLOUR = {Suit.EICHEL: "bold", Suit.GRUEN: "green", Suit.HERZ: "red",
           Suit.SCHELLEN: "yellow"}


def sort_hand(hand: int, game: GameType | None) -> list[Card]:
    """The cards sorted for the game (:func:`stich.skat.view.display_order`)."""
    return display_order(hand, game)


def group_hand(hand: int, game: GameType | None) -> list[tuple[Suit | None, list[Card]]]:
    """The sorted hand in groups: (``None`` for the trumps, or the side suit), cards."""
    g = game if game is not None else GameType.GRAND
    trump = TABLES[g].trump
    groups: list[tuple[Suit | None, list[Card]]] = []
    for c in sort_hand(hand, game):
        label = None if trump >> c.index & 1 else c.suit
        if not groups or groups[-1][0] != label:
            groups.append((label, []))
        groups[-1][1].append(c)
    return groups


_JACKS = {"german": "Unter", "french": "Buben", "english": "Jacks"}


class CardStyle:
    """Card, suit, rank and game names in one naming style (german, french or english),
    coloured.  The style names every card, suit and game on the screen whatever the
    language: ``--lang en --cards french`` says Herz and Bube throughout, the language
    decides the other words."""

    def __init__(self, style: str, tr: Translator) -> None:
        self.style = style
        self.tr = tr

    def name(self, card: Card, *, colour: bool = True) -> str:
        text = card.name_in(self.style)
        return f"[{_COLOUR[card.suit]}]{text}[/]" if colour else text

    def rank(self, card: Card) -> str:
        """The rank alone (``Ass``, ``Bube``, ``Jack``), coloured by the suit."""
        return f"[{_COLOUR[card.suit]}]{rank_name(card, self.style)}[/]"

    def suit(self, suit: Suit) -> str:
        return f"[{_COLOUR[suit]}]{suit.name_in(self.style)}[/]"

    def cards(self, mask: int, game: GameType | None = None) -> str:
        return ", ".join(self.name(c) for c in sort_hand(mask, game))

    def jacks(self) -> str:
        """The four jacks as a group (``Unter``, ``Buben``, ``Jacks``)."""
        return _JACKS[self.style]

    def examples(self) -> str:
        """Two card names to type, in quotes of the language."""
        open_, close = ("„", "“") if self.tr.lang == "de" else ('"', '"')
        cards = (Card.parse("CJ"), Card.parse("SA"))
        return ", ".join(f"{open_}{c.name_in(self.style)}{close}" for c in cards)

    def game(self, game: GameType) -> str:
        suit = game.trump_suit
        if suit is not None:
            return suit.name_in(self.style)
        return {GameType.GRAND: "Grand", GameType.NULL: "Null",
                GameType.RAMSCH: "Ramsch"}[game]


def game_title(style: CardStyle, game: GameType, *, hand: bool, ouvert: bool,
               schneider: bool = False, schwarz: bool = False) -> str:
    """``Grand Hand``, ``Pik``, ``Null Ouvert``, ``Herz Hand Schneider``."""
    parts = [style.game(game)]
    if hand:
        parts.append("Hand")
    if schneider:
        parts.append("Schneider")
    if schwarz:
        parts.append("Schwarz")
    if ouvert:
        parts.append("Ouvert")
    return " ".join(parts)


def result_lines(o: SkatOutcome, names: tuple[str, str, str], style: CardStyle,
                 you: int = -1) -> list[str]:
    """What happened, in one or two lines (names by seat; ``you`` is the person's seat
    when the texts should address them)."""
    tr = style.tr
    if o.kind == "passed":
        return [tr("passed_result")]
    if o.kind == "ramsch":
        if o.durchmarsch:
            winner = max(range(3), key=lambda s: o.tricks[s])
            return [tr.subject("durchmarsch", winner == you, name=names[winner])]
        pts = ", ".join(f"{names[s]} {o.points[s]}" for s in range(3))
        loser = o.loser if o.loser is not None else 0
        return [tr("ramsch_result", points=pts, name=names[loser], score=o.scores[loser])]
    assert o.declarer is not None and o.game is not None
    game = game_title(style, o.game, hand=o.hand, ouvert=o.ouvert,
                      schneider=o.schneider_announced, schwarz=o.schwarz_announced)
    if o.overbid:
        detail = tr("detail_overbid", bid=o.bid, value=o.value)
    elif o.game is GameType.NULL:
        n = o.declarer_tricks + o.defender_tricks
        detail = tr("detail_null" if o.won else "detail_null_lost", value=o.value, n=n)
    else:
        detail = tr("detail_game", points=o.declarer_points,
                    mit=tr("mit") if o.matadors > 0 else tr("ohne"), m=abs(o.matadors),
                    mult=o.multiplier, base=o.game.base_value, value=o.value)
        extra = [w for w, on in (("Schneider", o.schneider), ("Schwarz", o.schwarz)) if on]
        if extra:
            detail += " (" + ", ".join(extra) + ")"
    key = "result_won" if o.won else "result_lost"
    line = tr.subject(key, o.declarer == you, name=names[o.declarer], game=game,
                      detail=detail)
    colour = "green" if o.won else "red"
    score = tr("score_change", name=names[o.declarer], score=o.scores[o.declarer])
    return [f"[{colour}]{line}[/]", f"[bold {colour}]{score}[/]"]


def rank_name(card: Card, style: str) -> str:
    """The rank alone in a style (``Ass``, ``Bube``, ``Jack``)."""
    r: Rank = card.rank
    return str(getattr(r, style))


def list_game_name(o: SkatOutcome, style: CardStyle) -> str:
    """A game as written on the Skat list, with the games named in the card style:
    ``Herz Hand``, ``Grand Schneider angesagt``, ``Ramsch``, ``Durchmarsch``."""
    return game_name(o, style.tr.lang, style.game)


def skat_list(table: SkatList, style: CardStyle, *, last: int | None = None) -> Table:
    """The Skat list: game number, dealer, declarer, game (``Bock`` when Bock doubled it),
    value (the declarer's or the Ramsch loser's score change, Bock included), each
    player's running total (the changed ones bold; three or four players);
    below Punktestand, Bilanz and won/lost as declarer.  ``last``: only the latest games
    (a line says how many came before)."""
    tr = style.tr
    out = Table(title=tr("list"), box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for key, right in (("list_no", True), ("list_dealer", False), ("list_declarer", False),
                       ("list_game", False), ("list_value", True)):
        out.add_column(tr(key), justify="right" if right else "left")
    for name in table.players:
        out.add_column(escape(name), justify="right")
    games = table.games
    if last is not None and len(games) > last:
        hidden = len(games) - last
        out.add_row("", "", "", f"[dim]{tr('list_earlier', n=hidden)}[/]", "", "", "", "")
        games = games[hidden:]
    for g in games:
        change = next((s for s in g.scores if s != 0), 0)
        mark = bock_mark(g.bock, tr.lang)
        cells = [str(g.number), escape(table.players[g.dealer]),
                 "—" if g.declarer is None else escape(table.players[g.declarer]),
                 list_game_name(g.outcome, style) + (f" [bold]{mark}[/]" if mark else ""),
                 f"{change:+d}" if g.kind != "passed" and change else ""]
        cells += [f"[bold]{t}[/]" if g.scores[p] else str(t) for p, t in enumerate(g.totals)]
        out.add_row(*cells)
    out.add_section()
    stats = table.declarer_stats()
    for label, values in ((tr("list_punktestand"), [str(v) for v in table.punktestand()]),
                          (tr("list_bilanz"), [f"{v:+d}" if v else "0"
                                               for v in table.bilanz()]),
                          (tr("list_wonlost"), [f"{s.won}/{s.lost}" for s in stats])):
        out.add_row("", "", "", f"[bold]{label}[/]", "", *values)
    return out


def preisskat_table(table: SkatList, tr: Translator) -> Table:
    """The Preisskat list's lines (Seeger-Fabian, :meth:`SkatList.seeger`), in the order
    of the places: points (Punktestand), games won × 50, games lost × 50, the others'
    lost games × 40 (four: 30), the score (Leistung) and the place."""
    lines = table.seeger()
    places = seeger_places(lines)
    k = SEEGER_LOST_OTHERS[len(lines)]
    out = Table(title=tr("preisskat", n=len(table.games)), caption=tr("pk_ties"),
                box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    out.add_column(tr("pk_place"), justify="right")
    out.add_column(tr("col_player"), justify="left")
    for key in ("pk_points", "pk_won", "pk_lost", "pk_others", "pk_score"):
        out.add_column(tr(key, k=k if key == "pk_others" else SEEGER_WON), justify="right")
    for p in sorted(range(len(lines)), key=lambda i: (places[i], i)):
        ln = lines[p]
        out.add_row(f"{places[p]}.", escape(table.players[p]), str(ln.points),
                    f"{ln.won} → {_signed(SEEGER_WON * ln.won)}",
                    f"{ln.lost} → {_signed(-SEEGER_WON * ln.lost)}",
                    f"{ln.others_lost} → {_signed(k * ln.others_lost)}",
                    f"[bold]{ln.score}[/]")
    return out


def preisskat_json(table: SkatList) -> dict[str, object]:
    """The Preisskat lines as one JSON object (``stich play skat --scoring seeger
    --json``'s last line): the players, the games, and per player the line and place."""
    return {"preisskat": {"players": list(table.players), "games": len(table.games),
                          **seeger_json(table.seeger())}}


def leaderboard_table(board: Leaderboard, lang: str = "de") -> Table:
    """The Bestenliste (:class:`stich.skat_list.Leaderboard`) as a Rich table."""
    w = words(lang)
    table = Table(title=w["leaderboard"])
    for key, justify in (("rank", "right"), ("name", "left"), ("bilanz", "right"),
                         ("punktestand", "right"), ("games", "right"),
                         ("wonlost", "right"), ("per_game", "right")):
        table.add_column(w[key], justify=justify)  # type: ignore[arg-type]
    for r in board.ranking():
        table.add_row(str(r.rank), r.name, _signed(r.bilanz), str(r.punktestand),
                      str(r.games), f"{r.won}/{r.lost}", f"{r.bilanz_per_game:.2f}")
    return table


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)
