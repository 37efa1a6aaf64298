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
"""

from __future__ import annotations

from stich.bots.skat_eval import win_probability
from stich.cards import Rank, card_points, cards_of
from stich.skat.actions import KLOPFEN, KONTRA, PASS, PICKUP, RE, SCHIEBEN, Action, Discard
from stich.skat.rules import GameType
from stich.skat.view import SkatView

__all__ = ["KONTRA_MIN", "RE_MIN", "decide", "kontra_wanted", "re_wanted", "without_kontra"]

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
    if SCHIEBEN in legal:
        return SCHIEBEN if _safe_to_push(view.hand) else PICKUP
    if view.game is GameType.RAMSCH and view.phase == "DISCARD":
        discards = [a for a in legal if isinstance(a, Discard)]
        return max(discards, key=lambda d: (card_points(d.cards), d.cards))
    if KONTRA in legal and kontra_wanted(view):
        return KONTRA
    if KLOPFEN in legal and _safe_to_knock(view.hand):
        return KLOPFEN
    return None


def _safe_to_knock(hand: int) -> bool:
    """A Ramsch hand that will hardly lose: no Unter and at most one ace or ten."""
    cards = cards_of(hand)
    return (not any(c.rank == Rank.UNTER for c in cards)
            and sum(1 for c in cards if c.rank in (Rank.ASS, Rank.ZEHN)) <= 1)


def without_kontra(view: SkatView) -> SkatView:
    """The view with Kontra left out of the legal actions (to choose a card)."""
    if KONTRA not in view.legal_actions and KLOPFEN not in view.legal_actions:
        return view
    return SkatView(
        view.seat, view.rules, view.phase, view.to_move, view.hand, view.bidding, view.bid,
        view.declarer, view.game, view.contract, view.skat_seen, view.discarded,
        view.ouvert_hand, view.trick, view.tricks, view.tricks_won,
        tuple(a for a in view.legal_actions if a is not KONTRA and a is not KLOPFEN),
        view.deal, view.kontra,
        view.re, view.pushes, view.knocks, view.claims, view.resigned)
