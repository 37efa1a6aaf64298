"""How the cost of the Baptistenskat engine grows with the table: time per whole game
and memory per state, to plan how many tables one server process can hold.

Printed as Markdown, so that it can be pasted into the docs:

1. **Time per whole game** for every number of players (rows, 3 … 15 unless
   ``--players`` says otherwise) and a few N (``max_cards``: the cards dealt in the middle
   round; columns ``--n``, 5 and 10 by default, plus the largest N the deck allows at that
   table), once for the default deck (``elferraus``, 80 cards) and once for the double
   Rommé deck with three jokers (``romme-double-joker``, 105 cards, variant 1).  All other
   options are the defaults (up and down, 1 … N … 1 cards, stakes and the mandatory 40s).
   A game runs from ``BaptistenState.new(rules, rng=...)`` to ``outcome()``, every
   decision a uniform choice among ``legal_actions()`` (``random.Random`` seeded per
   cell from ``--seed``), as ``whole_games`` in ``bench.speed.baptisten_playouts``.  A cell
   plays one untimed warm-up game, then whole games until at least ``--seconds`` have
   passed (at least one game); it shows the total time ÷ games in milliseconds and the
   actions (bids and cards) per game.  The largest N is the one the rules accept: it is
   read from the refusal of ``BaptistenRules`` for a too large N (code
   ``baptisten.max_cards``, parameter ``limit``) and checked by building the rules with
   it.  "—" marks a cell the rules refuse: N above the deck's limit, or more players than
   the deck allows (deck size ÷ 7: 11 for ``elferraus``, 15 for ``romme-double-joker``).

2. **Memory**, measured with ``tracemalloc`` (the bytes Python's allocators hand out for
   objects; not the interpreter itself, not the code of compiled modules, not the
   allocator's unused pool space, so a process's resident size is larger):

   - *one state*: the bytes that stay allocated after building ``--states`` states from
     distinct deals (each its own game, kept in a list made beforehand) ÷ their number.
     Tracing starts after warm-up games of the same rules, so the tables every game
     shares (deck and rule tables, cached legal-action tuples, the card and bid objects)
     are excluded; counted is everything the kept state holds alone: the state object,
     its tuples and large ints (hands), its history (a linked list of 2-tuples, one per
     action since the deal; the actions themselves are shared objects) and, for
     Baptistenskat, the game's context with the deals of every round (drawn when the
     game starts).  Measured for a Skat state (the default rules, in the card play after
     3 tricks), for a new 15-player Baptistenskat game of the double deck with the
     largest N, and for the same game in the middle: the round of N cards, after its
     bids and 3 tricks.
   - *a chain of states*: every state of a whole game kept (as a program that keeps the
     states for undo or replay would); successive states share whatever did not change,
     so this is the retained bytes per game, and per state in the chain.
   - *one-time*: in a fresh interpreter (``tracemalloc`` started before ``stich`` is
     imported): the bytes allocated and kept by importing ``stich.skat`` and
     ``stich.baptisten`` (the standard-library modules they pull in included), then kept
     after the first Skat game and the first 15-player Baptistenskat game have been
     played to the end and dropped: the tables and caches built once per process.

3. Whether the engine modules run compiled (mypyc) or as pure Python
   (``stich._compiled.engines_compiled``; ``STICH_PURE_PYTHON=1`` forces the latter).

Run: ``python -m bench.speed.baptisten_cost [--seconds S] [--players 3-15] [--n 5,10]
[--states K] [--seed X] [--quick]``.  The full run takes under a minute (some 60
cells of ``--seconds`` each, then the memory part);
``--quick`` (players 3 and 15, 0.01 s per cell, 20 states) is a smoke test whose
numbers are too rough to quote.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

from stich._compiled import engines_compiled
from stich.baptisten import BaptistenRules, BaptistenState, BPhase
from stich.cards import plain_deck
from stich.core import RulesError
from stich.skat import Phase, SkatRules, SkatState

DEFAULT_DECK = BaptistenRules().deck
DOUBLE_JOKER = "romme-double-joker"  # variant 1: the double Rommé deck with jokers
MID_TRICKS = 3  # tricks played into the measured round of a mid-game state


def largest_n(deck: str, players: int) -> int | None:
    """The largest N (``max_cards``) the rules allow for ``players`` with ``deck``, as the
    rules themselves say it; None when they refuse this many players."""
    try:
        BaptistenRules(deck=deck, players=players, max_cards=plain_deck(deck).size + 1)
    except RulesError as e:
        if e.code != "baptisten.max_cards":
            return None  # too many (or too few) players for this deck
        limit = int(e.params["limit"])
    else:  # pragma: no cover - no deal gives more cards than the deck holds
        raise AssertionError("the rules accept N above the deck size")
    BaptistenRules(deck=deck, players=players, max_cards=limit)  # accepted
    return limit


def allowed(deck: str, players: int, n: int) -> BaptistenRules | None:
    limit = largest_n(deck, players)
    if limit is None or n > limit:
        return None
    return BaptistenRules(deck=deck, players=players, max_cards=n)


def play_game(rules: BaptistenRules, rng: random.Random) -> int:
    """One whole random game; returns its number of actions."""
    choice = rng.choice
    s = BaptistenState.new(rules, rng=rng)
    actions = 0
    while not s.is_over:
        s = s.apply(choice(s.legal_actions()))
        actions += 1
    s.outcome()
    return actions


def time_cell(rules: BaptistenRules, seconds: float, rng: random.Random
              ) -> tuple[float, float]:
    """Milliseconds per whole game and actions per game."""
    play_game(rules, rng)  # warm-up: tables and caches of these rules
    games = actions = 0
    t0 = time.perf_counter()
    while True:
        actions += play_game(rules, rng)
        games += 1
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds:
            return 1000 * elapsed / games, actions / games


def time_table(deck: str, players: list[int], ns: list[int], seconds: float, seed: int
               ) -> list[str]:
    size = plain_deck(deck).size
    head = ["players"]
    for n in ns:
        head += [f"N={n}: ms/game", "actions"]
    head += ["largest N", "ms/game", "actions"]
    lines = [f"### Time per whole game: `{deck}` ({size} cards)", "",
             "| " + " | ".join(head) + " |",
             "|" + "---:|" * len(head)]
    per_action: list[float] = []
    for p in players:
        limit = largest_n(deck, p)
        measured: dict[int, tuple[float, float]] = {}
        row = [str(p)]
        for col in (*ns, limit):
            rules = None if col is None else allowed(deck, p, col)
            if rules is None or col is None:
                row += ["—", "—"]
                continue
            if col not in measured:  # the largest N may be one of the columns
                rng = random.Random(f"{seed}-{deck}-{p}-{col}")
                measured[col] = time_cell(rules, seconds, rng)
                ms, acts = measured[col]
                per_action.append(1000 * ms / acts)
            ms, acts = measured[col]
            row += [f"{ms:,.2f}", f"{acts:,.0f}"]
        row.insert(len(ns) * 2 + 1, "—" if limit is None else str(limit))
        lines.append("| " + " | ".join(row) + " |")
    if per_action:
        lines += ["", f"µs per action over these cells: {min(per_action):.1f} … "
                      f"{max(per_action):.1f} (median {statistics.median(per_action):.1f})"]
    return lines


def limits_line(deck: str, players: list[int]) -> str:
    parts = []
    for p in players:
        limit = largest_n(deck, p)
        parts.append(f"{p}→{limit}" if limit is not None else f"{p}→refused")
    return f"- `{deck}` ({plain_deck(deck).size} cards): " + ", ".join(parts)


# --- memory ------------------------------------------------------------------------------


def retained(build: Callable[[], Any], count: int) -> float:
    """Bytes that stay allocated per object after ``count`` calls of ``build``, every
    result kept (tracing only while building)."""
    keep: list[Any] = [None] * count
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for i in range(count):
            keep[i] = build()
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    del keep
    return (after - before) / count


def skat_midgame(rules: SkatRules, rng: random.Random) -> SkatState:
    """A Skat state in the card play after ``MID_TRICKS`` tricks (deals where everybody
    passes without Ramsch are skipped)."""
    choice = rng.choice
    while True:
        s = SkatState.new(rules, rng=rng)
        while not s.is_over:
            if s.phase is Phase.PLAY and sum(s.tricks_won) == MID_TRICKS and not s.trick:
                return s
            s = s.apply(choice(s.legal_actions()))


def baptisten_midgame(rules: BaptistenRules, rng: random.Random) -> BaptistenState:
    """A state of the round with N cards, after its bids and ``MID_TRICKS`` tricks."""
    choice = rng.choice
    s = BaptistenState.new(rules, rng=rng)
    tricks = min(MID_TRICKS, rules.max_cards - 1)
    while not (s.cards == rules.max_cards and s.phase is BPhase.PLAY
               and sum(s.tricks_won) == tricks and not s.trick):
        s = s.apply(choice(s.legal_actions()))
    return s


def chain(new: Callable[[], Any], rng: random.Random) -> list[Any]:
    """Every state of one whole random game."""
    choice = rng.choice
    s = new()
    states = [s]
    while not s.is_over:
        s = s.apply(choice(s.legal_actions()))
        states.append(s)
    return states


PROBE = """
import gc, json, random, sys, tracemalloc
tracemalloc.start()
import stich.skat, stich.baptisten
from stich.baptisten import BaptistenRules, BaptistenState
from stich.skat import SkatRules, SkatState
gc.collect()
out = {"import": tracemalloc.get_traced_memory()[0]}
def play(s, rng):
    while not s.is_over:
        s = s.apply(rng.choice(s.legal_actions()))
    s.outcome()
rng = random.Random(0)
play(SkatState.new(SkatRules(), rng=rng), rng)
gc.collect()
out["skat"] = tracemalloc.get_traced_memory()[0]
deck, players, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rules = BaptistenRules(deck=deck, players=players, max_cards=n)
play(BaptistenState.new(rules, rng=rng), rng)
gc.collect()
out["baptisten"] = tracemalloc.get_traced_memory()[0]
print(json.dumps(out))
"""


def one_time(deck: str, players: int, n: int) -> dict[str, int]:
    """The one-time bytes in a fresh interpreter (see the module docstring)."""
    done = subprocess.run([sys.executable, "-c", PROBE, deck, str(players), str(n)],
                          capture_output=True, text=True, check=True)
    out: dict[str, int] = json.loads(done.stdout)
    return out


def kib(b: float) -> str:
    return f"{b / 1024:,.1f} KiB ({b:,.0f} bytes)"


def memory_lines(states: int, chains: int, seed: int) -> list[str]:
    rng = random.Random(f"{seed}-memory")
    skat_rules = SkatRules()
    players = 15
    n = largest_n(DOUBLE_JOKER, players)
    assert n is not None, "15 players are refused with the double deck"
    b_rules = BaptistenRules(deck=DOUBLE_JOKER, players=players, max_cards=n)
    for _ in range(5):  # warm-up: every shared table and cache of both rule sets
        chain(lambda: SkatState.new(skat_rules, rng=rng), rng)
        chain(lambda: BaptistenState.new(b_rules, rng=rng), rng)
    skat = retained(lambda: skat_midgame(skat_rules, rng), states)
    fresh = retained(lambda: BaptistenState.new(b_rules, rng=rng), states)
    mid = retained(lambda: baptisten_midgame(b_rules, rng), states)
    hist = len(baptisten_midgame(b_rules, rng).history)
    lengths: list[int] = []

    def skat_chain() -> list[Any]:
        c = chain(lambda: SkatState.new(skat_rules, rng=rng), rng)
        lengths.append(len(c))
        return c

    def b_chain() -> list[Any]:
        c = chain(lambda: BaptistenState.new(b_rules, rng=rng), rng)
        lengths.append(len(c))
        return c

    skat_c = retained(skat_chain, chains)
    skat_len = sum(lengths) / len(lengths)
    lengths.clear()
    b_c = retained(b_chain, chains)
    b_len = sum(lengths) / len(lengths)
    once = one_time(DOUBLE_JOKER, players, n)
    games = f"{chains} game" + ("s" if chains != 1 else "")
    where = f"{players} players, `{DOUBLE_JOKER}`, N={n}"
    return [
        "### Memory (tracemalloc)", "",
        f"- Skat state (`{skat_rules}`, card play after {MID_TRICKS} tricks): "
        f"{kib(skat)} per state, shared tables excluded ({states} states)",
        f"- Baptistenskat state, new game ({where}): {kib(fresh)} per state, "
        f"shared tables excluded ({states} states)",
        f"- Baptistenskat state, mid-game ({where}, round of {n} cards after "
        f"{MID_TRICKS} tricks, {hist} actions of history): {kib(mid)} per state, "
        f"shared tables excluded ({states} states)",
        f"- chain of states of a whole Skat game ({skat_len:.0f} states): {kib(skat_c)} "
        f"per game, {skat_c / skat_len:,.0f} bytes per state ({games})",
        f"- chain of states of a whole Baptistenskat game ({where}, {b_len:.0f} states): "
        f"{kib(b_c)} per game, {b_c / b_len:,.0f} bytes per state ({games})",
        f"- one-time, importing `stich.skat` and `stich.baptisten`: {kib(once['import'])}",
        f"- one-time, kept after the first Skat game: {kib(once['skat'] - once['import'])}",
        f"- one-time, kept after the first Baptistenskat game ({where}): "
        f"{kib(once['baptisten'] - once['skat'])}",
    ]


def parse_players(text: str) -> list[int]:
    """``3-15``, ``3,4,15`` or ``3-5,15``."""
    out: list[int] = []
    for part in text.split(","):
        a, sep, b = part.strip().partition("-")
        out += range(int(a), int(b) + 1) if sep else [int(a)]
    return sorted(set(out))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=None,
                    help="seconds of play per cell (default 0.3; --quick: 0.01)")
    ap.add_argument("--players", type=parse_players, default=None,
                    help="rows, e.g. 3-15 or 3,4,15 (default 3-15; --quick: 3,15)")
    ap.add_argument("--n", type=parse_players, default=parse_players("5,10"),
                    help="N columns besides the largest N (default 5,10)")
    ap.add_argument("--states", type=int, default=None,
                    help="states per memory measurement (default 1000; --quick: 20)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--quick", action="store_true", help="a tiny run for smoke tests")
    args = ap.parse_args()
    seconds = args.seconds if args.seconds is not None else 0.01 if args.quick else 0.3
    players = args.players or (parse_players("3,15") if args.quick else parse_players("3-15"))
    states = args.states or (20 if args.quick else 1000)
    chains = max(1, states // 50)
    compiled = engines_compiled()
    print(f"engines: {'compiled (mypyc)' if compiled else 'pure Python'}")
    print(f"python {sys.version.split()[0]}, seed {args.seed}, at least {seconds} s per cell")
    print()
    print("Largest N (`max_cards`) the rules allow, by players:")
    print()
    for deck in (DEFAULT_DECK, DOUBLE_JOKER):
        print(limits_line(deck, players))
    for deck in (DEFAULT_DECK, DOUBLE_JOKER):
        print()
        print("\n".join(time_table(deck, players, args.n, seconds, args.seed)))
    print()
    print("—: refused by the rules (N above the deck's limit, or too many players).")
    print()
    print("\n".join(memory_lines(states, chains, args.seed)))


if __name__ == "__main__":
    main()
