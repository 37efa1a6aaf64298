"""Train a small Skat policy with PPO and action masking, in plain NumPy on the CPU,
against `stich` bots; then measure it in the arena on duplicate deals.

    python examples/train_skat.py --minutes 15 --out skat-policy.npz
    stich arena skat --bots file:skat-policy.npz,random,random --deals 1000
    python examples/train_skat.py --evaluate skat-policy.npz --deals 1000
    python examples/train_skat.py --ship skat-policy.npz    # the site's "learned" bot

One learning seat (seats 0, 1, 2 in turn, and the dealer drawn from each episode's
seed, so it bids from every position) plays against bots (``--opponents random`` by
default); an episode is one game of Lothar's rules (``games=1``) and its reward the
seat's Seeger–Fabian score of that game (``scoring="seeger"``: the list score, + 50 for
a game won as declarer, − 50 for one lost, + 40 for each defender of a lost game).  The
list score alone gives a defender 0 whatever he plays, and a learner that has not yet
learnt to play its cards loses what it declares: it learns to pass every game and never
learns to defend.  With the defenders' 40 its card play is rewarded from the first
game, and the 50 for a game won makes declaring a good hand pay more than passing and
letting a random declarer lose (docs/env.md, "Training a Skat agent").

PPO itself (clipped surrogate, value head, GAE, entropy bonus, Adam, the gradient by
hand) is :mod:`stich.env.ppo`, shared with ``examples/train_baptisten.py``.
``--evaluate`` plays a policy file in the arena and adds what the arena does not give:
the figures by phase (declared, won as declarer; defended, won as defender).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from stich.arena import (
    Game,
    Match,
    bot_rng,
    interval,
    match_deal_seed,
    play_match,
    summarize,
)
from stich.bots import make_bot
from stich.env.gym import SingleSeat
from stich.env.policy import Policy, load_bot
from stich.env.ppo import Adam, Settings, collect, update
from stich.skat.actions import PASS

ADAPTER: dict[str, Any] = {"rules": "lothar", "games": 1, "scoring": "seeger"}


def default_settings() -> Settings:
    """The example's PPO settings (Seeger–Fabian scores are around a hundred)."""
    return Settings(episodes_per_batch=128, hidden=64, lr=1e-3, reward_scale=0.01,
                    entropy_coef=0.01)


class Tally:
    """What the learning seat did in the episodes of a batch: games declared and won,
    games defended and won, games nobody declared."""

    def __init__(self) -> None:
        self.games = self.declared = self.won = self.defended = self.defence_won = 0
        self.reward = 0.0

    def __call__(self, env: SingleSeat, reward: float) -> None:
        entry = env.game.table.games[-1]
        self.games += 1
        self.reward += reward
        if entry.kind != "game" or entry.declarer is None:
            return
        if entry.declarer == env.seat:
            self.declared += 1
            self.won += bool(entry.won)
        else:
            self.defended += 1
            self.defence_won += not entry.won

    def line(self) -> str:
        def rate(a: int, b: int) -> str:
            return f"{a / b:5.1%}" if b else "   - "

        return (f"reward {self.reward / max(self.games, 1):+6.1f}, declares "
                f"{rate(self.declared, self.games)} (won {rate(self.won, self.declared)}), "
                f"defence won {rate(self.defence_won, self.defended)}")


class BiddingTeacher:
    """Exploring starts: in a share of the episodes (``share``) the ``easy`` bot bids for
    the learner (the auction only: the learner takes up or not, declares, discards and
    plays the game itself).  So the learner plays the games a rule-based bidder takes on
    and learns to win them before its own bidding, still losing what it declares at
    random, has learnt to pass everything; in the other episodes it bids itself."""

    def __init__(self, share: float, seed: int) -> None:
        self.share = share
        self.bot = make_bot("easy")
        self.rng = random.Random(seed)
        self.episode = -1
        self.on = False

    def __call__(self, env: SingleSeat, episode: int) -> Sequence[int] | None:
        if episode != self.episode:
            self.episode, self.on = episode, self.rng.random() < self.share
        if not self.on:
            return None
        view = env.game.view(env.seat)
        if view.phase != "BIDDING":
            return None
        return env.game.action_ids(self.bot.choose(view, self.rng))


def train(seconds: float, *, opponents: str = "random", seed: int = 0,
          settings: Settings | None = None, log: Any = None,
          iterations: int | None = None, start: Policy | None = None,
          teach: float = 0.5,
          on_batch: Callable[[int, Tally], None] | None = None) -> Policy:
    """Train for ``seconds`` (or exactly ``iterations`` batches: reproducible whatever
    the machine's speed) and return the policy (``start``: go on training that one;
    ``teach``: the share of episodes the :class:`BiddingTeacher` bids in;
    ``on_batch(iteration, tally)`` after each batch)."""
    s = settings or default_settings()
    envs = [SingleSeat("skat", seat=i, bots=opponents, **ADAPTER) for i in range(3)]
    game = envs[0].game
    net = start or Policy.new(game.obs_size, game.n_actions, s.hidden, seed,
                              meta={"game": "skat", "adapter": ADAPTER,
                                    "name": f"ppo-{opponents}", "opponents": opponents,
                                    "actions": list(game.space.actions)})
    opt = Adam(net.params, s.lr)
    rng = np.random.default_rng(seed)
    teacher = BiddingTeacher(teach, seed) if teach > 0 else None
    begin = time.monotonic()
    it = 0
    while (it < iterations) if iterations is not None else \
            (time.monotonic() - begin < seconds):
        tally = Tally()
        batch = collect(net, envs, s.episodes_per_batch, rng,
                        seed * 1_000_003 + it * s.episodes_per_batch, s, tally,
                        teacher)
        update(net, opt, batch, s, rng)
        it += 1
        if on_batch is not None:
            on_batch(it, tally)
        if log is not None:
            log(f"iteration {it}: {time.monotonic() - begin:5.0f} s, {tally.line()}")
    net.meta["iterations"] = net.meta.get("iterations", 0) + it
    net.meta["seconds"] = net.meta.get("seconds", 0) + round(time.monotonic() - begin)
    return net


def phase_figures(match: Match, games: Sequence[Game]) -> dict[str, dict[str, Any]]:
    """Per bot name (entries pooled): games, declared and won as declarer, defended
    (another seat declared) and won as defender (that declarer lost), and games nobody
    declared (passed in or Ramsch)."""
    out: dict[str, dict[str, Any]] = {}
    for g in games:
        declarer = next((r for r in g.seats if r.declared), None)
        for r in g.seats:
            f = out.setdefault(match.bots[r.entry], dict.fromkeys(
                ("games", "declared", "declarer_won", "defended", "defence_won",
                 "not_declared"), 0))
            f["games"] += 1
            if declarer is None:
                f["not_declared"] += 1
            elif r is declarer:
                f["declared"] += 1
                f["declarer_won"] += r.won
            else:
                f["defended"] += 1
                f["defence_won"] += not declarer.won
    for f in out.values():
        f["declare_rate"] = round(f["declared"] / f["games"], 4)
        f["declarer_win_rate"] = (round(f["declarer_won"] / f["declared"], 4)
                                  if f["declared"] else None)
        f["defence_win_rate"] = (round(f["defence_won"] / f["defended"], 4)
                                 if f["defended"] else None)
    return out


def _rate(k: int, n: int) -> dict[str, Any]:
    """``k`` of ``n`` as a rate with its 95 % interval (normal approximation)."""
    p = k / n if n else 0.0
    half = 1.96 * (p * (1 - p) / n) ** 0.5 if n else 0.0
    return {"rate": round(p, 4), "low": round(p - half, 4), "high": round(p + half, 4),
            "n": n}


def evaluate(path: str, opponent: str = "random", deals: int = 1000, seed: int = 11,
             jobs: int = 1) -> dict[str, Any]:
    """The policy file against two ``opponent`` bots on ``deals`` duplicate deals: the
    arena's report with :func:`phase_figures` added (``phases``), and the defence
    (``defence``): how often the opponent's declared games are lost with the policy among
    the defenders, and in a match of three ``opponent`` bots on the same deals."""
    match = Match("skat", (f"file:{path}", opponent, opponent), deals=deals, seed=seed)
    games = play_match(match, jobs)
    report = summarize(match, games)
    report["phases"] = phases = phase_figures(match, games)
    base = Match("skat", (opponent,) * 3, deals=deals, seed=seed)
    base_phases = phase_figures(base, play_match(base, jobs))[opponent]
    mine, theirs = phases[f"file:{path}"], phases[opponent]
    report["defence"] = {
        "policy_defending": _rate(theirs["declared"] - theirs["declarer_won"],
                                  theirs["declared"]),
        f"{opponent}_defending": _rate(base_phases["declared"] - base_phases["declarer_won"],
                                       base_phases["declared"])}
    report["declaring"] = {"policy": _rate(mine["declarer_won"], mine["declared"]),
                           opponent: _rate(theirs["declarer_won"], theirs["declared"])}
    return report


class PassThenPlay:
    """A bot that passes in every auction and plays its cards as ``bot`` does: the
    defence alone, on the same auctions whoever plays the cards."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    def choose(self, view: Any, rng: random.Random) -> Any:
        if view.phase == "BIDDING":
            return PASS
        return self.bot.choose(view, rng)


def defence(path: str, deals: int = 1000, seed: int = 11) -> dict[str, Any]:
    """The policy's defence against the random bot's, paired: in each deal and seat
    rotation one seat passes in the auction and then defends with the policy's cards,
    then the same with random cards (the other two seats random bots with the arena's
    random sources: the same auction, the same declarer and game, until the defender's
    first different card).  Per deal (the deal as the unit, as the arena takes it): the
    declared games the declarer lost, and his list score, with the policy's defence
    minus with random's, and their 95 % intervals."""
    from stich.skat import SkatRules, SkatState

    rules = SkatRules.parse(ADAPTER["rules"])
    policy, rand = load_bot(path), make_bot("random")
    lost: dict[str, list[float]] = {"policy": [], "random": []}
    points: dict[str, list[float]] = {"policy": [], "random": []}
    declared = {"policy": 0, "random": 0}
    for k in range(deals):
        for name, player in (("policy", PassThenPlay(policy)), ("random", PassThenPlay(rand))):
            got_lost, got_points = [], []
            for r in range(3):
                rngs = [bot_rng(seed, k, r, s) for s in range(3)]
                state = SkatState.new(rules, seed=match_deal_seed(seed, k))
                while not state.is_over:
                    s = state.to_move
                    bot = player if s == r else rand
                    state = state.apply(bot.choose(state.view(s), rngs[s]))
                out = state.outcome()
                if out.kind == "game" and out.declarer is not None:
                    got_lost.append(float(not out.won))
                    got_points.append(float(out.scores[out.declarer]))
            declared[name] += len(got_lost)
            lost[name].append(statistics.fmean(got_lost) if got_lost else float("nan"))
            points[name].append(statistics.fmean(got_points) if got_points else float("nan"))
    keep = [i for i in range(deals) if not math.isnan(lost["policy"][i])]

    def paired(d: dict[str, list[float]]) -> dict[str, Any]:
        return {"policy": interval([d["policy"][i] for i in keep]).to_dict(),
                "random": interval([d["random"][i] for i in keep]).to_dict(),
                "difference": interval([d["policy"][i] - d["random"][i]
                                        for i in keep]).to_dict()}

    return {"deals": len(keep), "declared": declared, "declarer_lost": paired(lost),
            "declarer_points": paired(points)}


SHIPPED = Path(__file__).parents[1] / "src" / "stich" / "bots" / "skat-learned.npz"
"""Where the package keeps the learned bot's policy (:mod:`stich.bots.learned`)."""


def ship(path: str, out: Path = SHIPPED) -> Policy:
    """Copy a policy file to the package's learned bot (``--ship``): with its action
    texts in ``meta["actions"]`` (files of older runs lack them), which the bot reads
    instead of :mod:`stich.env`'s space."""
    net = Policy.load(path)
    if net.meta.get("game") != "skat":
        raise ValueError(f"{path} is no Skat policy")
    net.meta.setdefault("actions", list(SingleSeat("skat", seat=0, bots="random",
                                                   **ADAPTER).game.space.actions))
    net.save(out)
    return net


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=15.0)
    ap.add_argument("--opponents", default="random", choices=["random", "easy"])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--iterations", type=int, default=None,
                    help="train exactly this many batches instead of --minutes")
    ap.add_argument("--start", default=None, help="go on training this policy file")
    ap.add_argument("--teach", type=float, default=0.5,
                    help="share of episodes in which the easy bot bids for the learner")
    ap.add_argument("--out", default="skat-policy.npz")
    ap.add_argument("--evaluate", metavar="POLICY", default=None,
                    help="do not train: play POLICY in the arena against two "
                         "--opponents bots and print the figures (JSON)")
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--arena-seed", type=int, default=11)
    ap.add_argument("-j", "--jobs", type=int, default=1)
    ap.add_argument("--ship", metavar="POLICY", default=None,
                    help="do not train: make POLICY the package's learned bot "
                         "(src/stich/bots/skat-learned.npz)")
    args = ap.parse_args(argv)
    if args.ship:
        ship(args.ship)
        print(f"shipped {args.ship} as {SHIPPED}")
        return 0
    if args.evaluate:
        report = evaluate(args.evaluate, args.opponents, args.deals, args.arena_seed,
                          args.jobs)
        report["defence_paired"] = defence(args.evaluate, args.deals, args.arena_seed)
        print(json.dumps({k: report[k] for k in ("bots", "deals", "seed", "difference",
                                                   "phases", "defence", "declaring",
                                                   "defence_paired")}
                         | {"per_game": {n: f["per_game"]
                                         for n, f in report["by_name"].items()}},
                         indent=1))
        return 0
    start = Policy.load(args.start) if args.start else None
    net = train(args.minutes * 60, opponents=args.opponents, seed=args.seed,
                log=lambda line: print(line, file=sys.stderr),
                iterations=args.iterations, start=start, teach=args.teach)
    net.save(args.out)
    print(f"saved {args.out} after {net.meta['iterations']} iterations")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
