"""Brute-force open-hand search for tiny Skat positions, written apart from the solver.

Nothing here comes from ``stich.skat.solver`` or ``stich.skat.lookup``: the rules of
card play (trumps, following suit, which card wins a trick) are written out again from
the card codes (``D7`` … ``CJ``), and the search visits every legal line of play with no
pruning, no equivalent cards and no bounds.  ``memo=True`` only remembers the value of a
state already searched (same hands, same open trick, same player to move), which changes
no answer and makes five or six cards per hand affordable.

Seats are numbered in playing order; ``hands`` are three card sets (stich's bitmasks).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from stich.cards import CARDS
from stich.skat.rules import GameType

SUIT_GAMES = {GameType.SCHELLEN: "D", GameType.HERZ: "H", GameType.GRUEN: "S",
              GameType.EICHEL: "C"}
POINTS = {"7": 0, "8": 0, "9": 0, "Q": 3, "K": 4, "T": 10, "A": 11, "J": 2}
PLAIN_ORDER = "789QKTA"  # low to high, suit games and Grand (Jacks apart)
NULL_ORDER = "789TJQKA"  # low to high, Null
JACK_ORDER = "DHSC"  # Karo < Herz < Pik < Kreuz
TRUMP_GAMES = (GameType.GRAND, GameType.EICHEL, GameType.GRUEN, GameType.HERZ,
               GameType.SCHELLEN)


def code(card: int) -> str:
    return str(CARDS[card])


def is_trump(game: GameType, card: int) -> bool:
    if game is GameType.NULL:
        return False
    c = code(card)
    return c[1] == "J" or c[0] == SUIT_GAMES.get(game)


def group(game: GameType, card: int) -> str:
    """What a card asks the others to follow: ``T`` for a trump, else its suit letter."""
    return "T" if is_trump(game, card) else code(card)[0]


def rank_key(game: GameType, card: int) -> int:
    """Order of cards within one group (higher wins)."""
    suit, rank = code(card)
    if game is GameType.NULL:
        return NULL_ORDER.index(rank)
    if rank == "J":
        return 100 + JACK_ORDER.index(suit)
    return PLAIN_ORDER.index(rank)


def trick_winner(game: GameType, cards: list[int]) -> int:
    """Index (0, 1, 2) in the trick of the card that takes it."""
    trumps = [i for i, c in enumerate(cards) if is_trump(game, c)]
    led = group(game, cards[0])
    candidates = trumps or [i for i, c in enumerate(cards) if group(game, c) == led]
    return max(candidates, key=lambda i: rank_key(game, cards[i]))


def legal(game: GameType, hand: int, trick: list[int]) -> list[int]:
    cards = [c for c in range(32) if hand >> c & 1]
    if trick:
        same = [c for c in cards if group(game, c) == group(game, trick[0])]
        if same:
            return same
    return cards


def _play(game: GameType, hands: tuple[int, int, int], to_move: int, trick: tuple[int, ...],
          card: int) -> tuple[tuple[int, int, int], int, tuple[int, ...], int | None, int]:
    """Play ``card``: new hands, next seat, new trick, and for a finished trick the
    winner's seat and the trick's points (else ``None`` and 0)."""
    h = list(hands)
    h[to_move] &= ~(1 << card)
    t = [*trick, card]
    if len(t) < 3:
        return (h[0], h[1], h[2]), (to_move + 1) % 3, tuple(t), None, 0
    leader = (to_move - 2) % 3
    w = (leader + trick_winner(game, t)) % 3
    return (h[0], h[1], h[2]), w, (), w, sum(POINTS[code(c)[1]] for c in t)


def points(game: GameType, hands: tuple[int, int, int], declarer: int, to_move: int,
           trick: tuple[int, ...] = (), memo: bool = False) -> int:
    """The declarer's card points from the cards in play (hands and open trick) under
    perfect play by all three: plain minimax over every legal line."""
    cache: dict[tuple[tuple[int, int, int], int, tuple[int, ...]], int] = {}

    def value(hands: tuple[int, int, int], to_move: int, trick: tuple[int, ...]) -> int:
        if not trick and not (hands[0] | hands[1] | hands[2]):
            return 0
        key = (hands, to_move, trick)
        if memo and key in cache:
            return cache[key]
        results = []
        for c in legal(game, hands[to_move], list(trick)):
            h, nxt, t, w, pts = _play(game, hands, to_move, trick, c)
            gain = pts if w == declarer else 0
            results.append(gain + value(h, nxt, t))
        v = max(results) if to_move == declarer else min(results)
        if memo:
            cache[key] = v
        return v

    return value(hands, to_move, trick)


def _all_tricks(declarer_wants: bool) -> Callable[..., bool]:
    def search(game: GameType, hands: tuple[int, int, int], declarer: int, to_move: int,
               trick: tuple[int, ...] = (), memo: bool = False) -> bool:
        cache: dict[tuple[tuple[int, int, int], int, tuple[int, ...]], bool] = {}

        def ok(hands: tuple[int, int, int], to_move: int, trick: tuple[int, ...]) -> bool:
            if not trick and not (hands[0] | hands[1] | hands[2]):
                return True
            key = (hands, to_move, trick)
            if memo and key in cache:
                return cache[key]
            results = []
            for c in legal(game, hands[to_move], list(trick)):
                h, nxt, t, w, _ = _play(game, hands, to_move, trick, c)
                if w is not None and (w == declarer) != declarer_wants:
                    results.append(False)
                else:
                    results.append(ok(h, nxt, t))
            r = any(results) if to_move == declarer else all(results)
            if memo:
                cache[key] = r
            return r

        return ok(hands, to_move, trick)

    return search


null_won = _all_tricks(declarer_wants=False)
"""Whether a Null declarer can avoid every remaining trick."""
takes_all = _all_tricks(declarer_wants=True)
"""Whether the declarer can take every remaining trick."""


def random_position(rng: random.Random, game: GameType, cards: int, trick_len: int
                    ) -> tuple[tuple[int, int, int], int, int, tuple[int, ...]]:
    """A random deal of ``cards`` cards to each seat, a random declarer and leader, and
    ``trick_len`` cards played legally to the first trick: (hands, declarer, to_move,
    trick)."""
    deck = rng.sample(range(32), 3 * cards)
    h = [sum(1 << c for c in deck[i * cards:(i + 1) * cards]) for i in range(3)]
    declarer = rng.randrange(3)
    seat = rng.randrange(3)
    trick: list[int] = []
    for _ in range(trick_len):
        c = rng.choice(legal(game, h[seat], trick))
        h[seat] &= ~(1 << c)
        trick.append(c)
        seat = (seat + 1) % 3
    return (h[0], h[1], h[2]), declarer, seat, tuple(trick)


def null_file_lines(seed: int = 5, per_size: int = 24) -> list[str]:
    """The lines of ``tests/data/null_positions.txt``: for 1..5 cards a hand,
    ``per_size`` positions the declarer (hand 1) wins and as many it loses, random deals
    with a random leader and a random Skat, each value from :func:`null_won` (memoised).
    Regenerate with ``python -m tests.skat.bruteforce > tests/data/null_positions.txt``."""
    from stich.skat.ddformat import format_line
    from stich.skat.solver import Position

    rng = random.Random(seed)
    out = []
    for cards in range(1, 6):
        want = {True: per_size, False: per_size}
        while want[True] or want[False]:
            deck = rng.sample(range(32), 3 * cards + 2)
            h = tuple(sum(1 << c for c in deck[i * cards:(i + 1) * cards]) for i in range(3))
            hands = (h[0], h[1], h[2])
            skat = (1 << deck[-1]) | (1 << deck[-2])
            leader = rng.randrange(3)
            won = null_won(GameType.NULL, hands, 0, leader, memo=True)
            if want[won]:
                want[won] -= 1
                pos = Position(GameType.NULL, hands, declarer=0, to_move=leader)
                out.append(format_line(pos, skat, int(won)))
    return out


if __name__ == "__main__":
    print("\n".join(null_file_lines()))
