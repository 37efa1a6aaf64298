"""What one seat may know: the only thing bots, clients and the server hand out.

A view holds the seat's own hand, the public auction and declaration, every card played
(tricks are public), the Skat only where the seat has seen it (the declarer after picking
it up, and the cards the declarer put away), an Ouvert declarer's hand, and, once the game
is over, the whole deal; in a Revolution (house rule) a defender sees his partner's
cards too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from stich.cards import CARDS, Card, Suit, card_points, cards_of
from stich.core import ArgumentError
from stich.skat.actions import Action, Declare
from stich.skat.lookup import TABLES
from stich.skat.rules import GameType, SkatRules

if TYPE_CHECKING:
    from stich.skat.state import SkatState

__all__ = ["SkatView", "display_order", "make_view"]


@dataclass(frozen=True)
class SkatView:
    seat: int
    rules: str
    phase: str
    to_move: int
    hand: int
    bidding: tuple[tuple[int, str], ...]
    bid: int
    declarer: int
    game: GameType | None
    contract: Declare | None
    skat_seen: int  # the Skat as picked up, if this seat has seen it (else 0)
    discarded: int  # the cards the declarer put away, known to the declarer only (else 0)
    ouvert_hand: int  # the Ouvert declarer's remaining cards (else 0)
    trick: tuple[tuple[int, int], ...]  # (seat, card index) in play order
    tricks: tuple[tuple[int, tuple[int, ...], int], ...]  # (leader, cards, winner)
    tricks_won: tuple[int, int, int]
    legal_actions: tuple[Action, ...]
    deal: tuple[tuple[int, int, int], int] | None  # the whole deal, once the game is over
    kontra: int = -1  # the seat that said Kontra (house rule; -1: none)
    re: bool = False  # the declarer answered Re
    pushes: int = 0  # Schieberamsch: how often the Skat was pushed on unseen
    knocks: int = 0  # Ramsch: how often somebody knocked (Klopfen)
    claims: tuple[Action, ...] = ()  # claim / giveup, offered beside the legal actions
    resigned: int = 0  # the defenders who gave up, as bits
    partner_hand: int = 0  # Revolution: the other defender's cards, for a defender
    gift: int = 0  # Schenken: how often the declarer played on
    gift_pending: int = 0  # Schenken: 1 the partner answers an offer, 2 the declarer

    def __reduce__(self) -> tuple[type[SkatView], tuple[object, ...]]:
        """Pickled by its fields (views go to bot worker processes): compiled with mypyc,
        a frozen dataclass cannot be rebuilt attribute by attribute."""
        return (SkatView, (
            self.seat, self.rules, self.phase, self.to_move, self.hand, self.bidding,
            self.bid, self.declarer, self.game, self.contract, self.skat_seen,
            self.discarded, self.ouvert_hand, self.trick, self.tricks, self.tricks_won,
            self.legal_actions, self.deal, self.kontra, self.re, self.pushes,
            self.knocks, self.claims, self.resigned, self.partner_hand, self.gift,
            self.gift_pending))

    @property
    def played(self) -> int:
        """Every card already played, as a set."""
        m = 0
        for _, cards, _ in self.tricks:
            for c in cards:
                m |= 1 << c
        for _, c in self.trick:
            m |= 1 << c
        return m

    def played_by(self) -> list[int]:
        """The cards each seat has played so far (finished tricks and the current one)."""
        out = [0, 0, 0]
        for leader, cards, _ in self.tricks:
            for i, c in enumerate(cards):
                out[(leader + i) % 3] |= 1 << c
        for seat, c in self.trick:
            out[seat] |= 1 << c
        return out

    def known_cards(self) -> int:
        """Every card whose place this view reveals."""
        m = (self.hand | self.skat_seen | self.discarded | self.ouvert_hand | self.played
             | self.partner_hand)
        if self.deal is not None:
            m |= self.deal[0][0] | self.deal[0][1] | self.deal[0][2] | self.deal[1]
        return m

    def voids(self) -> tuple[int, int, int]:
        """For each seat, the set of cards it cannot hold because it failed to follow:
        when a seat did not follow the led group, it holds none of that group."""
        if self.game is None:
            return (0, 0, 0)
        t = TABLES[self.game]
        out = [0, 0, 0]
        for leader, cards, _ in self.tricks:
            group = t.follow[cards[0]]
            for i, c in enumerate(cards[1:], start=1):
                if not group >> c & 1:
                    out[(leader + i) % 3] |= group
        if self.trick:
            group = t.follow[self.trick[0][1]]
            for seat, c in self.trick[1:]:
                if not group >> c & 1:
                    out[seat] |= group
        return (out[0], out[1], out[2])

    def points_taken(self) -> tuple[int, int, int]:
        """Per seat, the card points of the tricks it has taken (public: tricks are)."""
        out = [0, 0, 0]
        for _, cards, winner in self.tricks:
            out[winner] += sum(CARDS[c].points for c in cards)
        return (out[0], out[1], out[2])

    def declarer_points(self) -> int:
        """The declarer's card points as this seat may know them: the tricks taken, and
        the Skat's cards only where this view holds them (the declarer who picked up
        the Skat knows what was put away; a Hand game's Skat nobody knows before the
        end).  0 when there is no declarer."""
        if self.declarer < 0:
            return 0
        skat = self.discarded
        if not skat and self.deal is not None:  # over: the Skat of a Hand game is known
            skat = self.deal[1]
        return self.points_taken()[self.declarer] + card_points(skat)

    def hand_cards(self) -> list[str]:
        return [str(c) for c in cards_of(self.hand)]


def make_view(state: SkatState, seat: int) -> SkatView:
    if seat not in (0, 1, 2):
        raise ArgumentError("game.bad_seat", last=2, given=seat)
    over = state.is_over
    declarer = state.declarer
    picked = declarer >= 0 and state.picked_up
    skat_seen = 0
    discarded = 0
    if seat == declarer and picked:
        skat_seen = state.deal[1]
        if state.phase_name != "DISCARD":
            discarded = state.skat
    if over:
        skat_seen = state.deal[1]
        discarded = state.skat if picked else 0
    contract = state.contract
    ouvert = 0
    phase = state.phase_name
    if contract is not None and contract.ouvert and phase in ("PLAY", "OVER"):
        ouvert = state.hands[declarer]
    partner = 0
    if (contract is not None and contract.revolution and phase == "PLAY" and seat != declarer):
        partner = state.hands[3 - seat - declarer]
    trick = tuple(((state.leader + i) % 3, c) for i, c in enumerate(state.trick))
    game = state.game
    info = state.game_info
    if game is GameType.RAMSCH and not over:
        skat_seen = 0
        if info is not None:  # Schieberamsch: the Skat this seat picked up, and put back
            for s, seen, put in info.schieben:
                if s == seat:
                    skat_seen, discarded = seen, put
    moves = state.to_move == seat
    return _new_view(
        seat, _rules_text(state.rules), phase, state.to_move, _hand(state, seat),
        _bidding_texts(state), state.bid_value, declarer, game, contract, skat_seen,
        discarded, ouvert, trick, _tricks(state), state.tricks_won,
        tuple(state.legal_actions()) if moves else (), state.deal if over else None,
        -1 if info is None else info.kontra, info is not None and info.re,
        0 if info is None else info.pushes, 0 if info is None else info.knocks,
        state.claims() if moves else (), 0 if info is None else info.resigned, partner,
        0 if info is None else info.gift, 0 if info is None else info.gift_pending)


_NATIVE: Final = not __file__.endswith(".py")
"""Whether this module runs compiled (mypyc): then :func:`_new_view` fills a view's slots
itself."""


def _new_view(seat: int, rules: str, phase: str, to_move: int, hand: int,
              bidding: tuple[tuple[int, str], ...], bid: int, declarer: int,
              game: GameType | None, contract: Declare | None, skat_seen: int,
              discarded: int, ouvert_hand: int, trick: tuple[tuple[int, int], ...],
              tricks: tuple[tuple[int, tuple[int, ...], int], ...],
              tricks_won: tuple[int, int, int], legal_actions: tuple[Action, ...],
              deal: tuple[tuple[int, int, int], int] | None, kontra: int, re: bool,
              pushes: int, knocks: int, claims: tuple[Action, ...], resigned: int,
              partner_hand: int, gift: int, gift_pending: int) -> SkatView:
    """``SkatView(...)`` of these fields.  Compiled, the view is a native object whose
    dataclass ``__init__`` is still interpreted Python (27 ``object.__setattr__`` calls,
    most of the cost of a view): here the slots are filled directly, every one of them
    (the equality and the pickling of the result are the dataclass's, as always)."""
    if not _NATIVE:
        return SkatView(seat, rules, phase, to_move, hand, bidding, bid, declarer, game,
                        contract, skat_seen, discarded, ouvert_hand, trick, tricks,
                        tricks_won, legal_actions, deal, kontra, re, pushes, knocks,
                        claims, resigned, partner_hand, gift, gift_pending)
    v = SkatView.__new__(SkatView)
    v.seat = seat  # type: ignore[misc]
    v.rules = rules  # type: ignore[misc]
    v.phase = phase  # type: ignore[misc]
    v.to_move = to_move  # type: ignore[misc]
    v.hand = hand  # type: ignore[misc]
    v.bidding = bidding  # type: ignore[misc]
    v.bid = bid  # type: ignore[misc]
    v.declarer = declarer  # type: ignore[misc]
    v.game = game  # type: ignore[misc]
    v.contract = contract  # type: ignore[misc]
    v.skat_seen = skat_seen  # type: ignore[misc]
    v.discarded = discarded  # type: ignore[misc]
    v.ouvert_hand = ouvert_hand  # type: ignore[misc]
    v.trick = trick  # type: ignore[misc]
    v.tricks = tricks  # type: ignore[misc]
    v.tricks_won = tricks_won  # type: ignore[misc]
    v.legal_actions = legal_actions  # type: ignore[misc]
    v.deal = deal  # type: ignore[misc]
    v.kontra = kontra  # type: ignore[misc]
    v.re = re  # type: ignore[misc]
    v.pushes = pushes  # type: ignore[misc]
    v.knocks = knocks  # type: ignore[misc]
    v.claims = claims  # type: ignore[misc]
    v.resigned = resigned  # type: ignore[misc]
    v.partner_hand = partner_hand  # type: ignore[misc]
    v.gift = gift  # type: ignore[misc]
    v.gift_pending = gift_pending  # type: ignore[misc]
    return v


# The texts of the rules and of each auction, and the tricks so far, kept by the object
# they were made from (held here, so that its id is not reused): a view is built at every
# step of a game whose auction is over, and ``str`` of the rules and of each bid is
# Python code.  The views of one game share these tuples until they change (the
# environments' encoder keeps what it derives from them by them too).
_RULES_TEXTS: dict[int, tuple[SkatRules, str]] = {}
_AUCTION_TEXTS: dict[int, tuple[object, tuple[tuple[int, str], ...]]] = {}
_TRICKS: dict[int, tuple[object, tuple[tuple[int, tuple[int, ...], int], ...]]] = {}
_CACHE_SIZE: Final = 4096


def _hand(state: SkatState, seat: int) -> int:
    """``state.hands[seat]`` (compiled, without building the tuple)."""
    h0, h1, h2 = state.hands
    return h0 if seat == 0 else h1 if seat == 1 else h2


def _rules_text(rules: SkatRules) -> str:
    known = _RULES_TEXTS.get(id(rules))
    if known is not None and known[0] is rules:
        return known[1]
    if len(_RULES_TEXTS) >= _CACHE_SIZE:
        _RULES_TEXTS.clear()
    text = str(rules)
    _RULES_TEXTS[id(rules)] = (rules, text)
    return text


def _bidding_texts(state: SkatState) -> tuple[tuple[int, str], ...]:
    node = state._auction  # the auction, newest first: one object per auction so far
    if node is None:
        return ()
    known = _AUCTION_TEXTS.get(id(node))
    if known is not None and known[0] is node:
        return known[1]
    if len(_AUCTION_TEXTS) >= _CACHE_SIZE:
        _AUCTION_TEXTS.clear()
    texts = tuple((s, str(a)) for s, a in state.bidding_history())
    _AUCTION_TEXTS[id(node)] = (node, texts)
    return texts


def _tricks(state: SkatState) -> tuple[tuple[int, tuple[int, ...], int], ...]:
    node = state._tricks  # the finished tricks, newest first
    if node is None:
        return ()
    known = _TRICKS.get(id(node))
    if known is not None and known[0] is node:
        return known[1]
    if len(_TRICKS) >= _CACHE_SIZE:
        _TRICKS.clear()
    tricks = tuple(state.tricks)
    _TRICKS[id(node)] = (node, tricks)
    return tricks


_SUIT_ORDER = (Suit.EICHEL, Suit.GRUEN, Suit.HERZ, Suit.SCHELLEN)


def display_order(cards: int, game: GameType | None) -> list[Card]:
    """Cards as a player holds them for ``game``: trumps first in trump order, then the
    side suits (Eichel, Grün, Herz, Schellen) high to low; Null in the Null order; before
    the declaration and in Ramsch (``None``) as for Grand.

    >>> from stich.cards import parse_cards
    >>> [str(c) for c in display_order(parse_cards("D7 HJ DA CJ"), GameType.SCHELLEN)]
    ['CJ', 'HJ', 'DA', 'D7']
    """
    g = game if game is not None else GameType.GRAND
    t = TABLES[g]

    def key(c: Card) -> tuple[int, int, int]:
        if t.trump >> c.index & 1:
            return (0, 0, -t.strength[c.index])
        return (1, _SUIT_ORDER.index(c.suit), -t.strength[c.index])

    return sorted(cards_of(cards), key=key)
