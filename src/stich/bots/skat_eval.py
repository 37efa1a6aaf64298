"""Hand evaluation for the heuristic Skat bot: how strong a hand is for each game.

Each game gets a *strength* in rough "points of a Skat player's rule of thumb" (jacks,
trump length, aces, tens with their ace, voids; losers cost), turned into a win
probability by a logistic curve.  The bot bids, chooses Hand or the Skat, discards and
declares by comparing the expected list score ``value × (3p − 2)`` of the candidates
(a won game scores the value, a lost one twice the value, negative).

>>> from stich.cards import parse_cards
>>> hand = parse_cards("CJ SJ HJ CA CT CK C9 HA S8 D7")
>>> round(win_probability(hand, GameType.GRAND), 2) > 0.8
True
>>> win_probability(hand, GameType.NULL) < 0.1
True
"""

from __future__ import annotations

import math
from typing import Final

from stich.cards import Rank, Suit, card_points
from stich.core import ArgumentError
from stich.messages import GameName
from stich.skat.lookup import JACKS, SUIT_MASKS
from stich.skat.rules import NULL_VALUES, GameType, SkatRules, bidding_ladder
from stich.skat.scoring import matadors

__all__ = [
    "PICKUP_BONUS",
    "SUIT_GAME",
    "Candidate",
    "best_bid",
    "game_value",
    "null_badness",
    "ramsch_danger",
    "strength",
    "win_probability",
]

SUIT_GAME: Final = {
    Suit.SCHELLEN: GameType.SCHELLEN,
    Suit.HERZ: GameType.HERZ,
    Suit.GRUEN: GameType.GRUEN,
    Suit.EICHEL: GameType.EICHEL,
}
PLAYABLE: Final = (*SUIT_GAME.values(), GameType.GRAND, GameType.NULL)

PICKUP_BONUS: Final = 3.0
"""What picking up the Skat is worth on average (two more cards, two weak ones away)."""

_JACK_WEIGHT: Final = {Suit.EICHEL: 3.0, Suit.GRUEN: 2.5, Suit.HERZ: 2.0, Suit.SCHELLEN: 1.75}
_THRESHOLD: Final = {GameType.GRAND: 13.0}
_SUIT_THRESHOLD: Final = 12.0


def _has(cards: int, suit: Suit, rank: Rank) -> bool:
    return bool(cards >> (suit * 8 + rank) & 1)


def _jack_strength(cards: int) -> float:
    return sum(w for s, w in _JACK_WEIGHT.items() if _has(cards, s, Rank.UNTER))


def _side_suit(cards: int, suit: Suit, trumps: int, grand: bool) -> float:
    """What one side suit adds: aces, tens with their ace, voids; weak cards cost."""
    held = cards & SUIT_MASKS[suit] & ~JACKS
    n = held.bit_count()
    if n == 0:
        return 1.0 if trumps >= 5 else 0.3
    ace = _has(held, suit, Rank.ASS)
    ten = _has(held, suit, Rank.ZEHN)
    king = _has(held, suit, Rank.KOENIG)
    v = 0.0
    if ace:
        v += 2.5 if grand else 2.0
        if ten:
            v += 2.0 if grand else 1.5
            if grand:
                v += (1.0 if king else 0.0) + 0.8 * max(0, n - 2 - king)
    else:
        if ten:
            v += -1.0 if n == 1 else (0.3 if king else -0.2)
        v -= (0.6 if grand else 0.4) * min(n, 3)
    return v


def strength(cards: int, game: GameType) -> float:
    """The strength of ten cards for a suit game or Grand (higher is better)."""
    if game is GameType.GRAND:
        jacks = (cards & JACKS).bit_count()
        s = _jack_strength(cards) - (4.0 if jacks < 2 else 0.0)
        return s + sum(_side_suit(cards, x, 0, True) for x in Suit)
    trump_suit = game.trump_suit
    if trump_suit is None:
        raise ArgumentError("bots.no_strength", game=GameName(game.value))
    plain = cards & SUIT_MASKS[trump_suit] & ~JACKS
    trumps = (cards & JACKS).bit_count() + plain.bit_count()
    s = _jack_strength(cards) + plain.bit_count()
    s += 1.0 if _has(plain, trump_suit, Rank.ASS) else 0.0
    s += 0.5 if _has(plain, trump_suit, Rank.ZEHN) else 0.0
    s += sum(_side_suit(cards, x, trumps, False) for x in Suit if x != trump_suit)
    if trumps < 5:
        s -= 2.5 * (5 - trumps)
    return s


_NULL_RANK: Final = {Rank.SEVEN: 0, Rank.EIGHT: 1, Rank.NINE: 2, Rank.ZEHN: 3,
                     Rank.UNTER: 4, Rank.OBER: 5, Rank.KOENIG: 6, Rank.ASS: 7}


def null_badness(cards: int) -> float:
    """How many dangerous cards a Null hand holds: in each suit the k-th lowest card
    (from 0) is safe when it ranks at most 2k in the Null order (7 = 0 … A = 7)."""
    bad = 0.0
    for suit in Suit:
        ranks = sorted(_NULL_RANK[r] for r in Rank if _has(cards, suit, r))
        for k, r in enumerate(ranks):
            if r > 2 * k:
                bad += min(1.0, (r - 2 * k) / 2)
    return bad


def _logistic(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def win_probability(cards: int, game: GameType, *, bonus: float = 0.0,
                    ouvert: bool = False) -> float:
    """Estimated chance of winning ``game`` with these ten cards; ``bonus`` is added to
    the strength (e.g. :data:`PICKUP_BONUS` before the Skat is seen)."""
    if game is GameType.NULL:
        bad = null_badness(cards) - bonus * 0.75 + (0.5 if ouvert else 0.0)
        return _logistic((1.2 - bad) * 1.6)
    threshold = _THRESHOLD.get(game, _SUIT_THRESHOLD)
    return _logistic(strength(cards, game) + bonus - threshold)


def game_value(game: GameType, owned: int, *, hand: bool, ouvert: bool = False) -> int:
    """The value the game is sure to be worth (no Schneider counted): base × (matadors +
    1 + Hand + Ouvert), or the fixed Null value.  ``owned`` are the cards the matadors
    are counted over."""
    if game is GameType.NULL:
        return NULL_VALUES[(hand, ouvert)]
    return game.base_value * (abs(matadors(owned, game)) + 1 + hand + ouvert)


class Candidate:
    """One game the bot might play, with its value, win chance and expected score."""

    __slots__ = ("game", "hand", "ouvert", "value", "p", "ev")

    def __init__(self, game: GameType, hand: bool, ouvert: bool, value: int, p: float,
                 bid: int) -> None:
        self.game = game
        self.hand = hand
        self.ouvert = ouvert
        self.value = value
        self.p = p
        if game is not GameType.NULL and value < bid:
            # Overbid: lost for sure, settled at the next multiple of the base value.
            self.ev = -2.0 * (-(-bid // game.base_value) * game.base_value)
        elif game is GameType.NULL and value < bid:
            self.ev = -2.0 * min((v for v in NULL_VALUES.values() if v >= bid), default=118)
        else:
            self.ev = value * (3 * p - 2)

    def __repr__(self) -> str:
        return (f"Candidate({self.game}, hand={self.hand}, ouvert={self.ouvert}, "
                f"value={self.value}, p={self.p:.2f}, ev={self.ev:.1f})")


def candidates(cards: int, owned: int, *, hand: bool, bid: int, bonus: float = 0.0,
               skat_points: int = 0) -> list[Candidate]:
    """Every game (and Null Ouvert) the ten ``cards`` could be declared as.  ``owned``
    is what matadors are counted over; ``skat_points`` the points already put away."""
    out: list[Candidate] = []
    extra = 0.06 * skat_points
    for game in PLAYABLE:
        if game is GameType.NULL:
            for ouvert in (False, True):
                p = win_probability(cards, game, bonus=bonus, ouvert=ouvert)
                out.append(Candidate(game, hand, ouvert, game_value(game, owned, hand=hand,
                                                                    ouvert=ouvert), p, bid))
            continue
        p = win_probability(cards, game, bonus=bonus + extra)
        out.append(Candidate(game, hand, False, game_value(game, owned, hand=hand), p, bid))
    return out


def ramsch_danger(cards: int) -> float:
    """How badly these cards would do in Ramsch (points and jacks, about 0 … 2)."""
    return card_points(cards) / 60 + 0.15 * (cards & JACKS).bit_count()


def best_bid(cards: int, rules: SkatRules, *, min_p: float = 0.55) -> int:
    """The highest value this hand is ready to bid (0: none), from the games it would
    likely win with the Skat (or Hand) at the value it is sure to reach.

    Where passing all round means Ramsch, a hand full of points and jacks (which would
    lose the Ramsch) accepts a riskier game: down to a win chance of 0.2."""
    if rules.all_pass == "ramsch":
        relief = max(0.0, min(1.0, ramsch_danger(cards) - 0.6))
        min_p = max(min(min_p, 0.2), min_p - relief)
    best = 0
    for bonus, hand in ((PICKUP_BONUS, False), (0.0, True)):
        for c in candidates(cards, cards, hand=hand, bid=0, bonus=bonus):
            if c.p >= min_p and c.value > best:
                best = c.value
    ladder = bidding_ladder(rules)
    reachable = [v for v in ladder if v <= best]
    return reachable[-1] if reachable else 0


def discard_score(rest: int, put_away: int, owned: int, bid: int) -> tuple[float, Candidate]:
    """The best expected score after putting ``put_away`` into the Skat, and its game."""
    cands = candidates(rest, owned, hand=False, bid=bid, skat_points=card_points(put_away))
    best = max(cands, key=lambda c: c.ev)
    return best.ev, best
