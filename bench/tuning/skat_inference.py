"""The log-likelihood ``strong``'s world weights give the true hidden cards, by trick.

Plays seeded deals with three bots (``easy`` by default: fast, and the players the
weights were written for; ``--bots`` for others) and, at every card-play decision of a
declared game, asks :func:`stich.bots.inference.world_log_likelihood` what the seat to
move believes of the true deal: uniformly over the worlds that agree with its view
(``−log N``, counted exactly), and weighted as ``strong`` weighs its worlds in the card
play (``_world_weight``: the declarer's ten cards by the rule-based chance of the game
declared, the others' cards by the values they bid).  Prints, per trick, the mean of
both and the gain of the weights with its 95 % interval (natural log; above 0: the
weights put more belief on the truth than uniform sampling).

Run: ``python -m bench.tuning.skat_inference [--deals 200] [--seed 1] [--samples 200]
[--bots easy,easy,easy] [--rules lothar] [--jobs 2] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from concurrent.futures import ProcessPoolExecutor

from stich.bots import BOTS
from stich.bots.inference import InferenceLog, true_world, world_log_likelihood
from stich.bots.strong import world_weigher
from stich.skat import SkatRules, SkatState


def one_deal(args: tuple[int, str, list[str], int, bool]) -> InferenceLog:
    deal, rules_text, bots, samples, passes = args
    rules = SkatRules.parse(rules_text) if "(" in rules_text else SkatRules.preset(rules_text)
    players = [BOTS[name]() for name in bots]
    rng = random.Random(deal * 7919 + 1)
    measure = random.Random(deal)
    state = SkatState.new(rules, seed=deal)
    log = InferenceLog()
    while not state.is_over:
        seat = state.to_move
        view = state.view(seat)
        if state.phase_name == "PLAY" and view.declarer >= 0 and len(view.legal_actions) > 0:
            log.add(len(view.tricks), world_log_likelihood(
                view, true_world(state, seat), world_weigher(view, rules, passes=passes),
                measure, samples))
        state = state.apply(players[seat].choose(view, rng))
    return log


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1, help="the first deal's seed")
    ap.add_argument("--samples", type=int, default=200, help="worlds for E[w]")
    ap.add_argument("--bots", default="easy,easy,easy")
    ap.add_argument("--rules", default="lothar")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--passes", action=argparse.BooleanOptionalAction, default=True,
                    help="weigh the passes too (as strong does)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    bots = args.bots.split(",")
    if len(bots) != 3 or any(b not in BOTS for b in bots):
        ap.error(f"--bots: three of {', '.join(sorted(BOTS))}")
    start = time.perf_counter()
    work = [(args.seed + i, args.rules, bots, args.samples, args.passes)
            for i in range(args.deals)]
    total = InferenceLog()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            for log in pool.map(one_deal, work, chunksize=4):
                total.merge(log)
    else:
        for w in work:
            total.merge(one_deal(w))
    rows = total.table()
    if args.json:
        print(json.dumps({"deals": args.deals, "seed": args.seed, "bots": bots,
                          "rules": args.rules, "samples": args.samples, "by_trick": rows},
                         indent=1))
        return 0
    print(f"{args.deals} deals from seed {args.seed}, {args.rules}, bots {args.bots}, "
          f"{args.samples} worlds for E[w], {time.perf_counter() - start:.0f} s")
    print("trick  decisions  log P uniform  log P weighted  gain (95 %)")
    for r in rows:
        print(f"{r['trick']:5d}  {r['decisions']:9d}  {r['uniform']:13.2f}  "
              f"{r['weighted']:14.2f}  {r['gain']:+.3f} ({r['gain_low']:+.3f} .. "
              f"{r['gain_high']:+.3f})")
    print(f"all    {total.decisions():9d}  mean gain {total.mean_gain():+.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
