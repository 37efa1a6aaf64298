"""The arena: bots play many duplicate deals against each other, and the figures.

A match is a list of bot entries (``strong,easy,easy``: one per seat), a number of deals
and a seed.  **Duplicate deals**: deal ``k`` (its cards drawn from a seed made of the
match seed and ``k``) is played once per *seat rotation*: in rotation ``r`` the entry
``i`` sits in seat ``(i + r) mod P``, so over the ``P`` rotations of a deal (Skat: 3;
Baptistenskat: one per player) every entry plays every seat's cards on the same deal,
and the luck of the cards cancels.  Skat plays one game per deal and rotation (a fresh
:class:`~stich.skat.SkatState`, scored by its outcome: the change of each seat's list
score, as the Skat list of :class:`~stich.skat_list.SkatList` records it); Baptistenskat
plays one whole game (every round) and scores each seat's total on the sheet.  How a
game is played, and the figures it adds to the score's (Skat: the declared games;
Baptistenskat: the bids), is the game's own (:mod:`stich.games`, ``arena_*``); here is
what every game shares.

Every bot sees only its seat's view and draws from its own random source, seeded from
(match seed, deal, rotation, seat); the games are therefore the same for any number of
processes (``jobs``), and only the measured decision times differ.

**The estimator.**  For a bot name (entries of the same name pooled) or a single entry,
the value of deal ``k`` is its mean score over the games of that deal in which it sat
(a name on two entries: 2 × P games).  The figure is the mean of these per-deal values
over the ``n`` deals, with a 95 % confidence interval ``mean ± 1.96 · sd / √n`` (``sd``
the sample standard deviation of the per-deal values).  Taking the deal as the unit keeps
the games of one deal, which share their cards and so are correlated, from being counted
as independent.  The **difference** of the first entry's name to the next other name is
paired per deal: the per-deal values of both names come from the same cards in the same
seats (each name sat every seat of the deal equally often), their difference ``d_k`` is
averaged the same way, with ``mean(d) ± 1.96 · sd(d) / √n``.

>>> m = Match("skat", ("easy", "random", "random"), deals=2, seed=1)
>>> report = run_match(m)
>>> report["games"], sorted(report["by_name"])
(6, ['easy', 'random'])
"""

from __future__ import annotations

import importlib
import random
import statistics
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

from stich.core import ArgumentError
from stich.games import get as game_named
from stich.games import names as game_names
from stich.games.baptisten_arena import BID_BUCKETS
from stich.games.base import Game as GameObject
from stich.games.played import (
    INFERENCE_SAMPLES,
    Z95,
    ArenaDeal,
    Interval,
    PlayedGame,
    SeatResult,
    interval,
    percentile,
)
from stich.games.skat_arena import CHANCE_BUCKETS, game_kind

__all__ = [
    "BID_BUCKETS",
    "CHANCE_BUCKETS",
    "GAMES",
    "INFERENCE_SAMPLES",
    "Z95",
    "Game",
    "Interval",
    "Match",
    "SeatResult",
    "match_deal_seed",
    "game_kind",
    "interval",
    "percentile",
    "play_deal",
    "play_game",
    "run_match",
    "summarize",
]

GAMES = game_names()
"""The games the arena plays: every registered game (:data:`stich.games.GAMES`)."""

Game = PlayedGame
"""One game of a match (:class:`stich.games.played.PlayedGame`)."""

ENTRY_POINT = "py:"  # a bot from Python: py:package.module:factory
POLICY_FILE = "file:"  # a trained policy: file:policy.npz (stich.env.policy)

def entry_point_bot(name: str) -> Any:
    """A bot from Python code (a trained policy, say): ``py:package.module:factory``,
    where ``factory()`` returns an object with ``choose(view, rng)`` returning a legal
    action of the view, like every bot of :mod:`stich.bots`.

    >>> bot = entry_point_bot("py:stich.bots:RandomBot")
    >>> type(bot).__name__
    'RandomBot'
    """
    path = name[len(ENTRY_POINT):]
    module, _, attr = path.partition(":")
    if not module or not attr:
        raise ArgumentError("arena.entry_point", name=name, problem="no module:factory")
    try:
        factory = getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError) as e:
        raise ArgumentError("arena.entry_point", name=name, problem=str(e)) from None
    try:
        bot = factory()
    except Exception as e:  # the factory's own failure, told as it is
        raise ArgumentError("arena.entry_point", name=name,
                            problem=f"{attr}() failed: {e}") from None
    if not callable(getattr(bot, "choose", None)):
        raise ArgumentError("arena.entry_point", name=name,
                            problem=f"{attr}() returned no bot (no choose method)")
    return bot


def policy_file_bot(name: str, game: str | None = None) -> Any:
    """A trained policy's file (``file:policy.npz``, :mod:`stich.env.policy`; needs the
    ``rl`` extra) as a bot; with ``game``, a policy of another game is refused."""
    path = name[len(POLICY_FILE):]
    try:
        from stich.env.policy import load_bot
    except ImportError as e:
        raise ArgumentError("arena.entry_point", name=name,
                            problem=f"{e} (pip install 'stich[rl]')") from None
    try:
        return load_bot(path, game=game)
    except (OSError, ValueError, KeyError) as e:
        raise ArgumentError("arena.entry_point", name=name, problem=str(e)) from None


def _make(game: str, name: str) -> Any:
    if name.startswith(ENTRY_POINT):
        return entry_point_bot(name)
    if name.startswith(POLICY_FILE):
        return policy_file_bot(name, game)
    return game_named(game).make_bot(name)


@dataclass(frozen=True)
class Match:
    """What to play: the game (its name), the bot entries by seat, how many deals, the
    seed, and the game's rules (``None``: the game's default rules for as many players
    as bots)."""

    game: str
    bots: tuple[str, ...]
    deals: int
    seed: int = 0
    rules: Any = None
    inference: bool = False  # measure strong's belief in the true cards

    def __post_init__(self) -> None:
        if self.game not in GAMES:
            raise ArgumentError("arena.game", game=self.game)
        if not self.bots:
            raise ArgumentError("arena.no_bots")
        game = self.played
        for name in self.bots:
            if name.startswith(ENTRY_POINT):
                entry_point_bot(name)  # refused now, not in a worker process
            elif name.startswith(POLICY_FILE):
                policy_file_bot(name, self.game)
            elif name not in game.bots:
                raise ArgumentError("arena.unknown_bot", name=name, game=self.game,
                                    choices=", ".join(sorted(game.bots)))
        if self.rules is None:
            object.__setattr__(self, "rules", game.default_rules(len(self.bots)))
        game.arena_check(self.rules, len(self.bots))
        if self.deals < 1:
            raise ArgumentError("arena.deals", n=self.deals)

    @property
    def played(self) -> GameObject:
        """The game played (:mod:`stich.games`): it plays the match's games and gives
        their own figures."""
        return game_named(self.game)

    @property
    def seats(self) -> int:
        """Players at the table, and so the number of rotations per deal."""
        return len(self.bots)

    @property
    def rules_text(self) -> str:
        return str(self.rules)


def match_deal_seed(seed: int, k: int) -> int:
    """The seed of deal ``k`` of a match (a string seed: the same on every machine).

    >>> match_deal_seed(1, 0) == match_deal_seed(1, 0) != match_deal_seed(1, 1)
    True
    """
    return random.Random(f"stich-arena deal {seed} {k}").getrandbits(64)


def bot_rng(seed: int, k: int, rotation: int, seat: int) -> random.Random:
    """The random source of the bot in ``seat`` of deal ``k``, rotation ``rotation``."""
    return random.Random(f"stich-arena bot {seed} {k} {rotation} {seat}")


def entry_at(seat: int, rotation: int, n: int) -> int:
    """The entry sitting in ``seat`` in ``rotation`` (entry ``i`` sits in ``(i + r) % n``).

    >>> [entry_at(s, 1, 3) for s in range(3)]
    [2, 0, 1]
    """
    return (seat - rotation) % n


def play_game(match: Match, k: int, rotation: int) -> Game:
    """Deal ``k`` of ``match`` played in ``rotation`` (by the game: ``arena_play``)."""
    n = match.seats
    results = [SeatResult(i, (i + rotation) % n) for i in range(n)]
    by_seat = [results[entry_at(s, rotation, n)] for s in range(n)]
    deal = ArenaDeal(
        rules=match.rules, seed=match_deal_seed(match.seed, k),
        names=[match.bots[r.entry] for r in by_seat], seats=by_seat,
        rngs=[bot_rng(match.seed, k, rotation, s) for s in range(n)],
        make=lambda name: _make(match.game, name), inference=match.inference,
        measure=random.Random(f"stich-arena inference {match.seed} {k} {rotation}"))
    cards = match.played.arena_play(deal)
    return Game(k, rotation, cards, results)


def play_deal(match: Match, k: int) -> list[Game]:
    """Every rotation of deal ``k``."""
    return [play_game(match, k, r) for r in range(match.seats)]


def _deal_task(args: tuple[Match, int]) -> list[Game]:
    return play_deal(*args)


DEFAULT_JOBS = 1
"""Processes of ``stich arena`` unless ``--jobs`` says otherwise: one.  Every CPU would
take a shared machine from its other users, and ``strong`` decides in a set time, so
processes that compete for CPUs make it play weaker; give ``--jobs`` the CPUs that are
free."""


def play_match(match: Match, jobs: int = 1,
               progress: Callable[[int], None] | None = None) -> list[Game]:
    """Every game of ``match``, in the order of deal and rotation, with ``jobs``
    processes; ``progress(deals_done)`` after each finished deal."""
    if jobs < 1:
        raise ArgumentError("arena.jobs", n=jobs)
    out: dict[int, list[Game]] = {}

    def done(k: int, games: list[Game]) -> None:
        out[k] = games
        if progress is not None:
            progress(len(out))

    if jobs == 1 or match.deals == 1:
        for k in range(match.deals):
            done(k, play_deal(match, k))
    else:
        with ProcessPoolExecutor(max_workers=min(jobs, match.deals)) as pool:
            futures = {pool.submit(_deal_task, (match, k)): k for k in range(match.deals)}
            for fut in as_completed(futures):
                done(futures[fut], fut.result())
    return [g for k in range(match.deals) for g in out[k]]


# --- the figures -------------------------------------------------------------------------


def _figures(match: Match, games: Sequence[Game], entries: set[int]) -> dict[str, Any]:
    """The figures of the entries ``entries`` (pooled): the score and the decision times,
    then the game's own (``arena_figures``)."""
    per_deal: dict[int, list[int]] = {}
    seats: list[SeatResult] = []
    times: list[float] = []
    for g in games:
        for r in g.seats:
            if r.entry not in entries:
                continue
            per_deal.setdefault(g.deal, []).append(r.score)
            seats.append(r)
            times += r.times
    values = [statistics.fmean(per_deal[k]) for k in sorted(per_deal)]
    out: dict[str, Any] = {
        "games": len(seats),
        "per_game": interval(values).to_dict(),
        "decisions": len(times),
        "time_ms": {"median": round(1000 * percentile(times, 0.5), 3),
                    "p99": round(1000 * percentile(times, 0.99), 3),
                    "max": round(1000 * max(times, default=0.0), 3)},
    }
    out.update(match.played.arena_figures(seats))
    return out


def _difference(match: Match, games: Sequence[Game]) -> dict[str, Any] | None:
    """The first entry's name against the next other name, paired per deal and seat."""
    a = match.bots[0]
    others = [b for b in match.bots if b != a]
    if not others:
        return None
    b = others[0]
    n = match.seats
    # per deal and seat: the mean score of each name in that seat
    cell: dict[tuple[int, int, str], list[int]] = {}
    for g in games:
        for r in g.seats:
            name = match.bots[r.entry]
            if name in (a, b):
                cell.setdefault((g.deal, r.seat, name), []).append(r.score)
    diffs = []
    for k in sorted({g.deal for g in games}):
        per_seat = [statistics.fmean(cell[k, s, a]) - statistics.fmean(cell[k, s, b])
                    for s in range(n)]
        diffs.append(statistics.fmean(per_seat))
    return {"a": a, "b": b, **interval(diffs).to_dict()}


def summarize(match: Match, games: Sequence[Game]) -> dict[str, Any]:
    """The match's figures as one JSON-ready object (see the module's docstring)."""
    names = list(dict.fromkeys(match.bots))
    game = match.played
    report = {
        "game": match.game,
        "rules": match.rules_text,
        "bots": list(match.bots),
        "deals": match.deals,
        "seed": match.seed,
        "rotations": match.seats,
        "games": len(games),
        "score": game.arena_score,
        "by_name": {name: _figures(match, games, {i for i, b in enumerate(match.bots)
                                                  if b == name}) for name in names},
        "by_entry": [{"entry": i, "name": b, **_figures(match, games, {i})}
                     for i, b in enumerate(match.bots)],
        "difference": _difference(match, games),
    }
    if match.inference:
        report["inference"] = game.arena_inference(games)
    calibration = {name: game.arena_calibration(games, {i for i, b in enumerate(match.bots)
                                                        if b == name})
                   for name in names}
    calibration = {k: v for k, v in calibration.items() if v["games"]}
    if calibration:
        report["calibration"] = calibration
    return report


def run_match(match: Match, jobs: int = 1,
              progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Play ``match`` and return :func:`summarize` of it."""
    return summarize(match, play_match(match, jobs, progress))

