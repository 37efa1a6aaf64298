"""The arena: bots play many duplicate deals against each other, and the figures.

A match is a list of bot entries (``strong,easy,easy``: one per seat), a number of deals
and a seed.  **Duplicate deals**: deal ``k`` (its cards drawn from a seed made of the
match seed and ``k``) is played once per *seat rotation*: in rotation ``r`` the entry
``i`` sits in seat ``(i + r) mod P``, so over the ``P`` rotations of a deal (Skat: 3;
Baptistenskat: one per player) every entry plays every seat's cards on the same deal,
and the luck of the cards cancels.  Skat plays one game per deal and rotation (a fresh
:class:`~stich.skat.SkatState`, scored by its outcome: the change of each seat's list
score, as the Skat list of :class:`~stich.table.SkatTable` records it); Baptistenskat
plays one whole game (every round) and scores each seat's total on the sheet.

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

import bisect
import importlib
import math
import os
import random
import statistics
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any

from stich.baptisten import BaptistenRules, BaptistenState, draw_first_player
from stich.bots import BAPTISTEN_BOTS, BOTS, make_baptisten_bot, make_bot
from stich.core import ArgumentError
from stich.skat import SkatRules, SkatState
from stich.skat.outcome import SkatOutcome

__all__ = [
    "GAMES",
    "Game",
    "Interval",
    "Match",
    "SeatResult",
    "deal_seed",
    "interval",
    "percentile",
    "play_deal",
    "play_game",
    "run_match",
    "summarize",
]

GAMES = ("skat", "baptisten")
Z95 = 1.96


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


def policy_file_bot(name: str) -> Any:
    """A trained policy's file (``file:policy.npz``, :mod:`stich.env.policy`; needs the
    ``rl`` extra) as a bot."""
    path = name[len(POLICY_FILE):]
    try:
        from stich.env.policy import load_bot
    except ImportError as e:
        raise ArgumentError("arena.entry_point", name=name,
                            problem=f"{e} (pip install 'stich[rl]')") from None
    try:
        return load_bot(path)
    except (OSError, ValueError, KeyError) as e:
        raise ArgumentError("arena.entry_point", name=name, problem=str(e)) from None


def _make(game: str, name: str) -> Any:
    if name.startswith(ENTRY_POINT):
        return entry_point_bot(name)
    if name.startswith(POLICY_FILE):
        return policy_file_bot(name)
    return make_bot(name) if game == "skat" else make_baptisten_bot(name)


@dataclass(frozen=True)
class Match:
    """What to play: the game, the bot entries by seat, how many deals, the seed, and the
    rules (``None``: the game's default rules; Baptistenskat: as many players as bots)."""

    game: str
    bots: tuple[str, ...]
    deals: int
    seed: int = 0
    skat_rules: SkatRules = field(default_factory=SkatRules)
    baptisten_rules: BaptistenRules | None = None
    inference: bool = False  # measure strong's belief in the true cards

    def __post_init__(self) -> None:
        if self.game not in GAMES:
            raise ArgumentError("arena.game", game=self.game)
        if not self.bots:
            raise ArgumentError("arena.no_bots")
        registry: dict[str, Any] = BOTS if self.game == "skat" else BAPTISTEN_BOTS
        for name in self.bots:
            if name.startswith(ENTRY_POINT):
                entry_point_bot(name)  # refused now, not in a worker process
            elif name.startswith(POLICY_FILE):
                policy_file_bot(name)
            elif name not in registry:
                raise ArgumentError("arena.unknown_bot", name=name, game=self.game,
                                    choices=", ".join(sorted(registry)))
        if self.game == "skat" and len(self.bots) != 3:
            raise ArgumentError("arena.skat_three", n=len(self.bots))
        if self.game == "baptisten":
            if self.baptisten_rules is None:
                object.__setattr__(self, "baptisten_rules",
                                   BaptistenRules(players=len(self.bots)))
            rules = self.baptisten_rules
            assert rules is not None
            if rules.players != len(self.bots):
                raise ArgumentError("arena.baptisten_players", players=rules.players,
                                    n=len(self.bots))
        if self.deals < 1:
            raise ArgumentError("arena.deals", n=self.deals)

    @property
    def seats(self) -> int:
        """Players at the table, and so the number of rotations per deal."""
        return len(self.bots)

    @property
    def rules_text(self) -> str:
        return str(self.skat_rules if self.game == "skat" else self.baptisten_rules)


class SeatResult:
    """What one seat of one game gives the figures."""

    __slots__ = ("entry", "seat", "score", "declared", "won", "game", "rounds", "exact",
                 "times", "beliefs", "gains", "estimates", "chances")

    def __init__(self, entry: int, seat: int) -> None:
        self.entry = entry
        self.seat = seat
        self.score = 0
        self.declared = False  # Skat: this seat declared the game
        self.won = False  # … and won it
        self.game = ""  # … as this kind of game (:func:`game_kind`)
        self.rounds = 0  # Baptistenskat: rounds played
        self.exact = 0  # … and rounds with tricks == bid
        self.times: list[float] = []  # seconds per decision
        # Skat with Match.inference: (trick, log P uniform, log P weighted) of the true
        # cards at each card-play decision of a `strong` seat (stich.bots.inference)
        self.beliefs: list[tuple[int, float, float]] = []
        # Baptistenskat with Match.inference: (cards in the round, gain in nats of the
        # bid-weighted worlds over the plain sampler) at each card decision of a `strong`
        # seat (stich.bots.baptisten_strong.belief_gain)
        self.gains: list[tuple[int, float]] = []
        # Skat: the declarer bot's own chance estimates of its game, (phase, chance), for
        # bots that keep them (strong's ``estimates``: its last bid and its declaration)
        self.estimates: list[tuple[str, float]] = []
        # Baptistenskat: per round, the bot's chance of its bid being exact and whether it
        # was, for bots that keep them (strong's ``estimates``: one per bid, None when
        # only one bid was allowed)
        self.chances: list[tuple[float, bool]] = []

    def to_tuple(self) -> tuple[int, int, int, bool, bool, int, int]:
        """Everything but the times (which differ from run to run)."""
        return (self.entry, self.seat, self.score, self.declared, self.won, self.rounds,
                self.exact)


@dataclass
class Game:
    """One game of the match: deal ``deal`` in rotation ``rotation``; ``cards`` names the
    deal's cards (the same for every rotation of a deal); ``seats`` by entry."""

    deal: int
    rotation: int
    cards: str
    seats: list[SeatResult]


def deal_seed(seed: int, k: int) -> int:
    """The seed of deal ``k`` of a match (a string seed: the same on every machine).

    >>> deal_seed(1, 0) == deal_seed(1, 0) != deal_seed(1, 1)
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


def _timed(choose: Callable[[Any, random.Random], Any], times: list[float]
           ) -> Callable[[Any, random.Random], Any]:
    def run(view: Any, rng: random.Random) -> Any:
        t0 = time.perf_counter()
        action = choose(view, rng)
        times.append(time.perf_counter() - t0)
        return action
    return run


def game_kind(outcome: SkatOutcome) -> str:
    """The kind of a declared game for the figures: ``suit``, ``grand`` or ``null``, then
    ``ouvert`` and ``hand`` where they apply (``null ouvert hand``)."""
    game = outcome.game
    assert game is not None
    name = "suit" if game.is_suit else game.value
    return name + " ouvert" * outcome.ouvert + " hand" * outcome.hand


def play_game(match: Match, k: int, rotation: int) -> Game:
    """Deal ``k`` of ``match`` played in ``rotation``."""
    n = match.seats
    seed = deal_seed(match.seed, k)
    results = [SeatResult(i, (i + rotation) % n) for i in range(n)]
    by_seat = [results[entry_at(s, rotation, n)] for s in range(n)]
    rngs = [bot_rng(match.seed, k, rotation, s) for s in range(n)]
    if match.game == "skat":
        skat_bots = [_make("skat", match.bots[r.entry]) for r in by_seat]
        chooses = [_timed(b.choose, r.times) for b, r in zip(skat_bots, by_seat, strict=True)]
        state = SkatState.new(match.skat_rules, seed=seed)
        hands, skat = state.deal
        cards = f"{hands[0]:x}/{hands[1]:x}/{hands[2]:x}/{skat:x}"
        measure = random.Random(f"stich-arena inference {match.seed} {k} {rotation}")
        while not state.is_over:
            s = state.to_move
            view = state.view(s)
            if (match.inference and match.bots[by_seat[s].entry] == "strong"
                    and view.phase == "PLAY" and view.declarer >= 0):
                by_seat[s].beliefs.append(_belief(state, view, measure))
            state = state.apply(chooses[s](view, rngs[s]))
        outcome = state.outcome()
        for s, r in enumerate(by_seat):
            r.score = outcome.scores[s]
            if outcome.kind == "game" and outcome.declarer == s:
                r.declared, r.won, r.game = True, outcome.won, game_kind(outcome)
                kept: list[tuple[str, float]] = getattr(skat_bots[s], "estimates", [])
                for phase in ("bid", "declare"):
                    last = [p for ph, p in kept if ph == phase]
                    if last:
                        r.estimates.append((phase, last[-1]))
        return Game(k, rotation, cards, results)
    rules = match.baptisten_rules
    assert rules is not None
    master = random.Random(seed)
    first, _ = draw_first_player(rules, master)
    b_state = BaptistenState.new(rules, seed=master.getrandbits(64), first=first)
    cards = f"{first}:" + ";".join(repr(d) for d in b_state.deals)
    b_bots = [_make("baptisten", match.bots[r.entry]) for r in by_seat]
    b_chooses = [_timed(b.choose, r.times) for b, r in zip(b_bots, by_seat, strict=True)]
    from stich.bots.baptisten_strong import belief_gain

    measure = random.Random(f"stich-arena inference {match.seed} {k} {rotation}")
    while not b_state.is_over:
        s = b_state.to_move
        view = b_state.view(s)
        if (match.inference and match.bots[by_seat[s].entry] == "strong"
                and view.phase == "PLAY" and view.cards >= 2 and not view.forehead):
            by_seat[s].gains.append(
                (view.cards, belief_gain(view, b_state.hands, measure, INFERENCE_SAMPLES)))
        b_state = b_state.apply(b_chooses[s](view, rngs[s]))
    for s, r in enumerate(by_seat):
        r.score = b_state.totals[s]
        r.rounds = len(b_state.sheet)
        r.exact = sum(1 for row in b_state.sheet if row.bids[s] == row.tricks[s])
        said: list[float | None] = getattr(b_bots[s], "estimates", [])
        if len(said) == len(b_state.sheet):
            r.chances = [(p, row.bids[s] == row.tricks[s])
                         for p, row in zip(said, b_state.sheet, strict=True) if p is not None]
    return Game(k, rotation, cards, results)


INFERENCE_SAMPLES = 100
"""Worlds drawn per decision to measure strong's belief (``Match.inference``)."""


def _belief(state: SkatState, view: Any, rng: random.Random) -> tuple[int, float, float]:
    """What ``strong``'s world weights believe of the true cards at ``view``."""
    from stich.bots.inference import true_world, world_log_likelihood
    from stich.bots.strong import world_weigher

    b = world_log_likelihood(view, true_world(state, view.seat),
                             world_weigher(view, state.rules), rng, INFERENCE_SAMPLES)
    return (len(view.tricks), b.uniform, b.model)


def play_deal(match: Match, k: int) -> list[Game]:
    """Every rotation of deal ``k``."""
    return [play_game(match, k, r) for r in range(match.seats)]


def _deal_task(args: tuple[Match, int]) -> list[Game]:
    return play_deal(*args)


def default_jobs() -> int:
    """The number of CPUs this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


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


@dataclass(frozen=True)
class Interval:
    """A mean over ``n`` values with its 95 % confidence interval."""

    mean: float
    low: float
    high: float
    sd: float
    n: int

    def to_dict(self) -> dict[str, Any]:
        return {"mean": round(self.mean, 4), "low": round(self.low, 4),
                "high": round(self.high, 4), "sd": round(self.sd, 4), "n": self.n}


def interval(values: Sequence[float]) -> Interval:
    """``mean ± 1.96 · sd / √n`` (a single value: no spread, the interval is the point).

    >>> i = interval([1.0, 3.0])
    >>> i.mean, round(i.low, 3), round(i.high, 3)
    (2.0, 0.04, 3.96)
    """
    n = len(values)
    mean = statistics.fmean(values)
    sd = statistics.stdev(values) if n > 1 else 0.0
    half = Z95 * sd / math.sqrt(n)
    return Interval(mean, mean - half, mean + half, sd, n)


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile by the nearest rank (``q`` in 0..1; 0.0 for no values).

    >>> percentile([3.0, 1.0, 2.0], 0.5), percentile(list(range(100)), 0.99)
    (2.0, 98)
    """
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def _figures(match: Match, games: Sequence[Game], entries: set[int]) -> dict[str, Any]:
    """The figures of the entries ``entries`` (pooled)."""
    per_deal: dict[int, list[int]] = {}
    declared = won = rounds = exact = n_games = 0
    times: list[float] = []
    kinds: dict[str, list[int]] = {}
    for g in games:
        for r in g.seats:
            if r.entry not in entries:
                continue
            per_deal.setdefault(g.deal, []).append(r.score)
            n_games += 1
            declared += r.declared
            won += r.won
            if r.declared:
                kinds.setdefault(r.game, [0, 0])
                kinds[r.game][0] += 1
                kinds[r.game][1] += r.won
            rounds += r.rounds
            exact += r.exact
            times += r.times
    values = [statistics.fmean(per_deal[k]) for k in sorted(per_deal)]
    out: dict[str, Any] = {
        "games": n_games,
        "per_game": interval(values).to_dict(),
        "decisions": len(times),
        "time_ms": {"median": round(1000 * percentile(times, 0.5), 3),
                    "p99": round(1000 * percentile(times, 0.99), 3),
                    "max": round(1000 * max(times, default=0.0), 3)},
    }
    if match.game == "skat":
        out.update(declared=declared, declarer_won=won,
                   declarer_win_rate=round(won / declared, 4) if declared else None,
                   by_game={kind: {"declared": n, "share": round(n / n_games, 4),
                                   "won": w, "win_rate": round(w / n, 4)}
                            for kind, (n, w) in sorted(kinds.items(),
                                                       key=lambda kv: -kv[1][0])})
    else:
        out.update(rounds=rounds, exact=exact,
                   bid_accuracy=round(exact / rounds, 4) if rounds else None)
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
    report = {
        "game": match.game,
        "rules": match.rules_text,
        "bots": list(match.bots),
        "deals": match.deals,
        "seed": match.seed,
        "rotations": match.seats,
        "games": len(games),
        "score": "list points per game" if match.game == "skat" else "points per game",
        "by_name": {name: _figures(match, games, {i for i, b in enumerate(match.bots)
                                                  if b == name}) for name in names},
        "by_entry": [{"entry": i, "name": b, **_figures(match, games, {i})}
                     for i, b in enumerate(match.bots)],
        "difference": _difference(match, games),
    }
    if match.inference:
        report["inference"] = (_inference(match, games) if match.game == "skat"
                               else _bid_inference(games))
    calibrate = _calibration if match.game == "skat" else _bid_calibration
    calibration = {name: calibrate(games, {i for i, b in enumerate(match.bots) if b == name})
                   for name in names}
    calibration = {k: v for k, v in calibration.items() if v["games"]}
    if calibration:
        report["calibration"] = calibration
    return report


CHANCE_BUCKETS = (0.0, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
"""The bounds of the calibration table's chance buckets (the last one includes 1)."""


BID_BUCKETS = (0.0, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
"""Baptistenskat: the bounds of the buckets of the chance of a bid being exact."""


def _bucket_rows(pairs: Sequence[tuple[float, bool]], bounds: Sequence[float]
                 ) -> list[dict[str, Any]]:
    """(chance, hit) pairs by chance bucket (the last bucket includes its upper bound):
    per bucket the count, the mean chance, the hits and the hit rate."""
    cells: list[list[tuple[float, bool]]] = [[] for _ in bounds[:-1]]
    for p, hit in pairs:
        cells[min(bisect.bisect_right(bounds, p), len(cells)) - 1].append((p, hit))
    return [{"low": bounds[i], "high": bounds[i + 1], "games": len(c),
             "mean_chance": round(statistics.fmean(p for p, _ in c), 4),
             "won": sum(w for _, w in c),
             "win_rate": round(sum(w for _, w in c) / len(c), 4)}
            for i, c in enumerate(cells) if c]


def _calibration(games: Sequence[Game], entries: set[int]) -> dict[str, Any]:
    """The games the entries declared, by the chance their bot gave its game (at its last
    bid and at the declaration) against how often it was won: is the estimate right?"""
    out: dict[str, Any] = {"games": 0}
    for phase in ("bid", "declare"):
        rows = _bucket_rows([(p, r.won) for g in games for r in g.seats
                             if r.entry in entries and r.declared
                             for ph, p in r.estimates if ph == phase], CHANCE_BUCKETS)
        out[phase] = rows
        out["games"] = max(out["games"], sum(int(r["games"]) for r in rows))
    return out


def _bid_calibration(games: Sequence[Game], entries: set[int]) -> dict[str, Any]:
    """Baptistenskat: the bids of the entries by the chance their bot gave them of being
    exact, against how often they were (``games`` counts rounds here; ``won``: exact)."""
    rows = _bucket_rows([c for g in games for r in g.seats if r.entry in entries
                         for c in r.chances], BID_BUCKETS)
    return {"games": sum(int(r["games"]) for r in rows), "bid": rows}


def _inference(match: Match, games: Sequence[Game]) -> dict[str, Any]:
    """Per trick, the log-likelihood ``strong`` gives the true cards, uniform and
    weighted, and the gain (:class:`stich.bots.inference.InferenceLog`)."""
    from stich.bots.inference import Belief, InferenceLog

    log = InferenceLog()
    for g in games:
        for r in g.seats:
            for trick, uniform, model in r.beliefs:
                log.add(trick, Belief(uniform, model))
    rows = log.table()
    return {"bot": "strong", "samples": INFERENCE_SAMPLES, "decisions": log.decisions(),
            "mean_gain": round(log.mean_gain(), 4),
            "by_trick": [{k: round(v, 4) if isinstance(v, float) else v
                          for k, v in r.items()} for r in rows]}


def _bid_inference(games: Sequence[Game]) -> dict[str, Any]:
    """Baptistenskat: by the cards in the round, the mean gain (nats) that ``strong``'s
    bid-weighted worlds give the true cards over its plain sampler, with 95 % intervals."""
    by_cards: dict[int, list[float]] = {}
    for g in games:
        for r in g.seats:
            for cards, gain in r.gains:
                by_cards.setdefault(cards, []).append(gain)
    every = [x for xs in by_cards.values() for x in xs]
    rows = []
    for cards in sorted(by_cards):
        ci = interval(by_cards[cards])
        rows.append({"cards": cards, "decisions": len(by_cards[cards]),
                     "gain": round(ci.mean, 4), "gain_low": round(ci.low, 4),
                     "gain_high": round(ci.high, 4)})
    return {"bot": "strong", "samples": INFERENCE_SAMPLES, "decisions": len(every),
            "mean_gain": round(statistics.fmean(every), 4) if every else 0.0,
            "by_cards": rows}


def run_match(match: Match, jobs: int = 1,
              progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Play ``match`` and return :func:`summarize` of it."""
    return summarize(match, play_match(match, jobs, progress))

