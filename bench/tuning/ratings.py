"""Do the ratings converge?  Bots of a known order (``random`` < ``easy`` < ``strong``)
play Skat in rotating seats and are rated by :mod:`stich.ratings`; the figure is after how
many games the order of their shown ratings (``mu − 3σ``) was right and stayed right to
the end, for two ways of updating:

- ``team``: every game, the declarer against the two defenders (what the site does);
- ``series``: after every series of ``--series`` games, the three ranked by their list
  score over the series (places, Plackett-Luce).

Every game has one bot of each level (two levels: one of them twice), seats rotating
through every order, on the ``lothar`` preset; deal ``k``'s cards come from the seed.
``strong`` samples ``--worlds`` worlds a decision and reads a clock that does not move
(so its decisions do not depend on the machine's load).

Run: ``python -m bench.tuning.ratings --games 300 --seed 1 [--bots random,easy,strong]
[--worlds 4] [--series 6] [--save games.json | --load games.json] [--seeds K]``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from stich.ratings import Line, Rating, Ratings, bot_entity
from stich.skat import SkatRules, SkatState

__all__ = ["Converged", "converge", "lineup", "main", "play_games"]

PERMUTATIONS = list(itertools.permutations(range(3)))
RULES = "skat(preset=lothar)"


def lineup(bots: Sequence[str], k: int) -> list[str]:
    """The bots by seat in game ``k``: every order of the seats in turn; with two levels
    the one that plays twice changes every six games.

    >>> lineup(["random", "easy", "strong"], 1)
    ['random', 'strong', 'easy']
    >>> lineup(["random", "easy"], 0), lineup(["random", "easy"], 6)
    (['random', 'easy', 'random'], ['easy', 'random', 'easy'])
    """
    base = [bots[(k // 6 + i) % len(bots)] for i in range(3)]
    return [base[i] for i in PERMUTATIONS[k % 6]]


def _make(name: str, worlds: int) -> Any:
    if name == "strong":
        from bench.settings import frozen
        from stich.bots.strong import SkatStrongBot

        return SkatStrongBot(min_worlds=worlds, max_worlds=worlds, timer=frozen)
    from stich.bots import make_bot

    return make_bot(name)


def play_games(bots: Sequence[str], games: int, seed: int, worlds: int = 4
               ) -> Iterator[list[Line]]:
    """The games' lines (each bot's seat and list score, who declared and won)."""
    rules = SkatRules.parse(RULES)
    made = {name: _make(name, worlds) for name in set(bots)}
    for k in range(games):
        names = lineup(bots, k)
        rng = random.Random(f"stich-ratings bots {seed} {k}")
        state = SkatState.new(rules, seed=random.Random(f"stich-ratings {seed} {k}")
                              .getrandbits(64))
        while not state.is_over:
            s = state.to_move
            state = state.apply(made[names[s]].choose(state.view(s), rng))
        o = state.outcome()
        yield [Line(seat=s, bot=names[s], score=o.scores[s],
                    declarer=o.kind == "game" and o.declarer == s,
                    won=o.won if o.kind == "game" and o.declarer == s else None)
               for s in range(3)]


@dataclass
class Converged:
    """A method's result: the games after which the order was right and stayed (None:
    not right at the end), and the final ratings by level."""

    method: str
    games: int | None
    ratings: dict[str, Rating]


def _ordered(book: Ratings, bots: Sequence[str]) -> bool:
    shown = [book.get("skat", "lothar", bot_entity(b)).shown for b in bots]
    return all(a < b for a, b in itertools.pairwise(shown))


def converge(all_lines: Sequence[list[Line]], bots: Sequence[str], method: str,
             series: int = 6) -> Converged:
    """Rate the games by ``method`` (``team`` or ``series``); ``bots`` weakest first."""
    book = Ratings()
    since: int | None = None
    if method == "team":
        for n, lines in enumerate(all_lines, start=1):
            book.apply("skat", RULES, lines, group="lothar")
            ok = _ordered(book, bots)
            since = (since or n) if ok else None
    else:
        for start in range(0, len(all_lines) - series + 1, series):
            chunk = all_lines[start:start + series]
            totals: dict[str, int] = {}
            for lines in chunk:
                for x in lines:
                    totals[x.bot or ""] = totals.get(x.bot or "", 0) + x.score
            players = [Line(seat=i, bot=b, score=t) for i, (b, t) in enumerate(totals.items())]
            order = sorted({p.score for p in players}, reverse=True)
            book.apply_teams("skat", "lothar", [[p] for p in players],
                             [order.index(p.score) + 1 for p in players])
            ok = _ordered(book, bots)
            since = (since or start + series) if ok else None
    return Converged(method, since, {b: book.get("skat", "lothar", bot_entity(b))
                                     for b in bots})


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bots", default="random,easy,strong",
                    help="the levels, weakest first (comma-separated)")
    ap.add_argument("--worlds", type=int, default=4, help="strong's worlds a decision")
    ap.add_argument("--series", type=int, default=6, help="games per series (series method)")
    ap.add_argument("--save", type=Path, help="write the games' lines to this JSON file")
    ap.add_argument("--load", type=Path,
                    help="rate the games of a file --save wrote instead of playing")
    ap.add_argument("--seeds", type=int, default=1,
                    help="run this many seeds (from --seed) and print the median per method")
    args = ap.parse_args(argv)
    bots = args.bots.split(",")
    if args.seeds > 1:
        _many(bots, args)
        return
    t0 = time.perf_counter()
    if args.load:
        games = [[Line(**x) for x in g] for g in json.loads(args.load.read_text())]
    else:
        games = list(play_games(bots, args.games, args.seed, args.worlds))
    took = time.perf_counter() - t0
    if args.save:
        args.save.write_text(json.dumps([[asdict(x) for x in g] for g in games]))
    declared = sum(any(x.declarer for x in g) for g in games)
    print(f"{len(games)} games ({declared} declared) of {', '.join(bots)} in {took:.0f} s,"
          f" seed {args.seed}, strong with {args.worlds} worlds")
    for method in ("team", "series"):
        r = converge(games, bots, method, args.series)
        where = f"after {r.games} games" if r.games is not None else "not ordered at the end"
        figures = ", ".join(f"{b} {x.shown:.1f} (mu {x.mu:.1f}, sigma {x.sigma:.2f})"
                            for b, x in r.ratings.items())
        print(f"{method:>6}: ordered and stayed {where}; {figures}")


def _many(bots: Sequence[str], args: argparse.Namespace) -> None:
    """Several seeds: per method the games until ordered for good (never: counted as
    ``--games``, and how often), the median and the mean."""
    found: dict[str, list[int | None]] = {"team": [], "series": []}
    for seed in range(args.seed, args.seed + args.seeds):
        games = list(play_games(bots, args.games, seed, args.worlds))
        for method in found:
            found[method].append(converge(games, bots, method, args.series).games)
    print(f"{args.seeds} seeds from {args.seed}, {args.games} games each, "
          f"{', '.join(bots)}, strong with {args.worlds} worlds")
    for method, got in found.items():
        n = sorted(args.games if g is None else g for g in got)
        never = sum(g is None for g in got)
        print(f"{method:>6}: median {n[len(n) // 2]}, mean {sum(n) / len(n):.0f} games"
              f" (not ordered at the end: {never}); each: {got}")


if __name__ == "__main__":
    main()
