"""The bots' decisions under house rules: Kontra, Re and the Schieberamsch pass.

``easy`` decides all of them here; ``strong`` its Schieberamsch, while its Kontra and Re
come from its search (:mod:`stich.bots.strong.doubling`), with these as the fallback when
no world was solved in time.

Each decision comes from the bot's own estimate of its cards, never from hidden cards:

- **Kontra** (a defender, before his first card): the chance that his own ten cards would
  win the declarer's game (:func:`stich.bots.skat_eval.win_probability`).  A defender who
  could nearly play the declarer's game himself holds the trumps and high cards the
  declarer lacks.  No Kontra on a Null: a defender's cards say little about the
  declarer's gaps (against Null Ouvert he sees them, but the bots leave it).
- **Re** (the declarer, answering): his own chance of winning the game he declared with
  the cards he owns (his hand and what he put away), well above even.
- **Klopfen**: a Ramsch hand with no Unter and at most one ace or ten knocks.
- **Schieberamsch**: a hand with few points to lose (at most one Unter and at most two
  aces and tens) pushes the Skat on, doubling the Ramsch; any other picks it up and puts
  back the two cards with the most points it may pass (never an Unter).
- **Schenken** (a defender in the first trick): offered, and agreed to by the partner,
  when his own cards hold no chance against the declarer: no Unter, at most one more
  trump and at most one ace (:func:`hopeless`).  The declarer accepts the gift unless the
  simple game would not reach his bid (then he plays on: he bid for more).
- **Revolution** (the defenders' exchange): ``easy`` gives nothing.  ``strong`` sees every
  card (the declarer's lie open, the partner's are shown) and searches exchanges with the
  open-hand solver (:func:`revolution_give`): the first defender tries giving nothing,
  then one card, then two, each against every answer of the partner in a fixed order,
  and gives the first set for which some answer makes the declarer take a trick; the
  partner, searching his answers in the same order, finds the same answer.  Neither
  bot declares a Revolution.
"""

from __future__ import annotations

from itertools import combinations

from stich.bots.skat_eval import win_probability
from stich.cards import CARDS, Rank, card_points, cards_of
from stich.skat.actions import (
    ACCEPT,
    KLOPFEN,
    KONTRA,
    PASS,
    PICKUP,
    RE,
    SCHENKEN,
    SCHIEBEN,
    Action,
    Declare,
    Discard,
    Give,
)
from stich.skat.lookup import TABLES
from stich.skat.rules import GameType, SkatRules
from stich.skat.scoring import matadors, settle_game
from stich.skat.view import SkatView

__all__ = ["KONTRA_MIN", "RE_MIN", "decide", "gift_reaches_bid", "hopeless", "kontra_wanted",
           "re_wanted", "revolution_give", "without_kontra"]

KONTRA_MIN = 0.5
"""A defender says Kontra when his own cards would win the declarer's game this often."""
RE_MIN = 0.85
"""The declarer says Re when he expects to win this often."""


def kontra_wanted(view: SkatView) -> bool:
    game = view.game
    if game is None or game is GameType.NULL or game is GameType.RAMSCH:
        return False
    return win_probability(view.hand, game) >= KONTRA_MIN


def re_wanted(view: SkatView) -> bool:
    game = view.game
    if game is None or game is GameType.RAMSCH:
        return False
    owned = view.hand | view.discarded
    if game is GameType.NULL:
        return win_probability(owned, game, ouvert=bool(view.ouvert_hand)) >= RE_MIN
    return win_probability(owned, game) >= RE_MIN


def _safe_to_push(hand: int) -> bool:
    unter = sum(1 for c in cards_of(hand) if c.rank == Rank.UNTER)
    high = sum(1 for c in cards_of(hand) if c.rank in (Rank.ASS, Rank.ZEHN))
    return unter <= 1 and high <= 2


def decide(view: SkatView) -> Action | None:
    """The decision when ``view``'s legal actions hold a house-rule choice (Kontra, Re,
    the Schieberamsch pass and its discard), else None (play as usual)."""
    legal = view.legal_actions
    if RE in legal:
        return RE if re_wanted(view) else PASS
    if ACCEPT in legal:
        return ACCEPT if gift_reaches_bid(view) else PASS
    if view.gift_pending == 1 and SCHENKEN in legal:
        return SCHENKEN if hopeless(view) else PASS
    if legal and isinstance(legal[0], Give):
        return revolution_give(view, search=False)
    if SCHIEBEN in legal:
        return SCHIEBEN if _safe_to_push(view.hand) else PICKUP
    if view.game is GameType.RAMSCH and view.phase == "DISCARD":
        discards = [a for a in legal if isinstance(a, Discard)]
        return max(discards, key=lambda d: (card_points(d.cards), d.cards))
    if KONTRA in legal and kontra_wanted(view):
        return KONTRA
    if KLOPFEN in legal and _safe_to_knock(view.hand):
        return KLOPFEN
    if SCHENKEN in legal and hopeless(view):
        return SCHENKEN
    return None


def hopeless(view: SkatView) -> bool:
    """Whether a defender's own cards give no hope against the declared game: no Unter,
    at most one more trump, at most one ace."""
    game = view.game
    if game is None or game in (GameType.NULL, GameType.RAMSCH):
        return False
    cards = cards_of(view.hand)
    trumps = TABLES[game].trump
    if any(c.rank == Rank.UNTER for c in cards):
        return False
    return (sum(1 for c in cards if trumps >> c.index & 1) <= 1
            and sum(1 for c in cards if c.rank == Rank.ASS) <= 1)


def gift_reaches_bid(view: SkatView) -> bool:
    """Whether the declarer's game, won as given (simply; after playing on once with the
    Schneider), reaches his bid: counted with the cards he knows he owns (his hand, what
    he put away and what he played; an unseen Skat of a Hand game as not his)."""
    contract = view.contract
    game = view.game
    if contract is None or game is None:
        return True
    owned = view.hand | view.discarded | view.played_by()[view.seat]
    c = Declare(game, contract.hand, view.gift >= 1)
    s = settle_game(SkatRules.parse(view.rules), c, bid=view.bid,
                    matadors=matadors(owned, game), declarer_points=90 if view.gift else 61,
                    declarer_tricks=1, defender_tricks=1)
    return not s.overbid


REVOLUTION_SEARCH = 400
"""At most this many exchanges a ``strong`` defender tries (about 1 ms each)."""


def revolution_give(view: SkatView, *, search: bool) -> Give:
    """The defenders' exchange of a Revolution (see the module text)."""
    legal = [a for a in view.legal_actions if isinstance(a, Give)]
    nothing = next((a for a in legal if a.cards == 0), legal[0])
    if not search or view.declarer < 0 or len(legal) == 1:
        return nothing
    from stich.skat.solver import Position, null_won

    me, d = view.seat, view.declarer
    partner = 3 - me - d
    first = (d + 1) % 3 == me
    tries = [0]

    def lost(mine: int, theirs: int) -> bool:
        """Whether the declarer takes a trick (with best play) once I hold ``mine`` and
        the partner ``theirs``: Vorhand leads."""
        if tries[0] >= REVOLUTION_SEARCH:
            return False
        tries[0] += 1
        hands = [0, 0, 0]
        hands[d], hands[me], hands[partner] = view.ouvert_hand, mine, theirs
        return not null_won(Position(GameType.NULL, (hands[0], hands[1], hands[2]), d, 0,
                                     ()))

    def answer(a_hand: int, b_hand: int, given: int) -> int | None:
        """The partner's first answer (in a fixed order) that beats the declarer, after
        the first defender (holding ``a_hand``) gave ``given`` to him (``b_hand``: his
        own cards before)."""
        n = given.bit_count()
        for ys in combinations(_indices(b_hand), n):
            y = sum(1 << i for i in ys)
            if lost(a_hand & ~given | y, b_hand & ~y | given):
                return y
        return None

    if first:
        mine, theirs = view.hand, view.partner_hand
        for n in range(3):
            for xs in combinations(_indices(mine), n):
                x = sum(1 << i for i in xs)
                if answer(mine, theirs, x) is not None:
                    return Give(x)
        return nothing
    # the partner: what he was given is in his hand now; he finds the same answer
    given = view.hand & ~_own_cards(view)
    y = answer(view.partner_hand | given, view.hand & ~given, given)
    if y is None:
        return next((a for a in legal if a.cards.bit_count() == given.bit_count()),
                    legal[0])
    return Give(y)


def _own_cards(view: SkatView) -> int:
    """The second giver's own cards: his hand at the deal (all of it but what the first
    defender just gave him).  The deal is not in the view; the given cards are the ones
    the first defender's hand lost, which the view does not say either, so they are read
    from the legal actions: each legal give uses only his own cards."""
    own = 0
    for a in view.legal_actions:
        if isinstance(a, Give):
            own |= a.cards
    return own


def _indices(mask: int) -> list[int]:
    return [c.index for c in CARDS if mask >> c.index & 1]


def _safe_to_knock(hand: int) -> bool:
    """A Ramsch hand that will hardly lose: no Unter and at most one ace or ten."""
    cards = cards_of(hand)
    return (not any(c.rank == Rank.UNTER for c in cards)
            and sum(1 for c in cards if c.rank in (Rank.ASS, Rank.ZEHN)) <= 1)


def without_kontra(view: SkatView) -> SkatView:
    """The view with Kontra left out of the legal actions (to choose a card)."""
    legal = view.legal_actions
    if KONTRA not in legal and KLOPFEN not in legal and SCHENKEN not in legal:
        return view
    return SkatView(
        view.seat, view.rules, view.phase, view.to_move, view.hand, view.bidding, view.bid,
        view.declarer, view.game, view.contract, view.skat_seen, view.discarded,
        view.ouvert_hand, view.trick, view.tricks, view.tricks_won,
        tuple(a for a in legal if a is not KONTRA and a is not KLOPFEN and a is not SCHENKEN),
        view.deal, view.kontra,
        view.re, view.pushes, view.knocks, view.claims, view.resigned, view.partner_hand,
        view.gift, view.gift_pending)
