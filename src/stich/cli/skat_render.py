"""Showing Skat in the terminal: card names and colours, a hand sorted for the game,
tricks, and the result of a game.  Rich markup, no engine logic.

>>> from stich.cards import parse_cards
>>> [str(c) for c in sort_hand(parse_cards("HA DJ CJ H7 S8 HT"), GameType.HERZ)]
['CJ', 'DJ', 'HA', 'HT', 'H7', 'S8']
>>> [str(c) for c in sort_hand(parse_cards("HA DJ CJ H7 S8 HT"), GameType.NULL)]
['CJ', 'S8', 'HA', 'HT', 'H7', 'DJ']
"""

from __future__ import annotations

from stich.cards import Card, Rank, Suit, cards_of
from stich.cli.i18n import Translator
from stich.skat.outcome import SkatOutcome
from stich.skat.rules import GameType
from stich.skat.tables import TABLES

__all__ = [
    "CardStyle",
    "game_title",
    "group_hand",
    "result_lines",
    "sort_hand",
]

_SUIT_ORDER = (Suit.EICHEL, Suit.GRUEN, Suit.HERZ, Suit.SCHELLEN)
_COLOUR = {Suit.EICHEL: "bold", Suit.GRUEN: "green", Suit.HERZ: "red",
           Suit.SCHELLEN: "yellow"}


def sort_hand(hand: int, game: GameType | None) -> list[Card]:
    """The cards sorted for the game: trumps first in trump order, then the side suits
    (Eichel, Grün, Herz, Schellen) high to low; Null in the Null order; before the
    declaration (``None``) as for Grand."""
    g = game if game is not None else GameType.GRAND
    t = TABLES[g]

    def key(c: Card) -> tuple[int, int, int]:
        if t.trump >> c.index & 1:
            return (0, 0, -t.strength[c.index])
        return (1, _SUIT_ORDER.index(c.suit), -t.strength[c.index])

    return sorted(cards_of(hand), key=key)


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


class CardStyle:
    """Card and game names in one naming style (german, french or english), coloured."""

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
