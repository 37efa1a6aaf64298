"""Train a small Baptistenskat policy with PPO and action masking, in plain NumPy on the
CPU, against `stich` bots; then measure it in the arena on duplicate deals.

    python examples/train_baptisten.py --minutes 10 --out policy.npz
    stich arena baptisten --bots file:policy.npz,random,random,random --deals 500

One learning seat (it moves around the table from episode to episode) plays against
bots (``--opponents random`` by default); an episode is one round (``whole_game=False``)
and its reward the seat's score of that round.  PPO (Schulman et al., 2017): clipped
surrogate, a value head on the same body, generalised advantage estimation, an entropy
bonus, Adam; the gradient is written out by hand for the two-layer tanh network of
:class:`stich.env.policy.Policy` (masked softmax: illegal actions get no probability and
no gradient).  Results of the full run are in docs/env.md.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from stich.env.gym import SingleSeat
from stich.env.policy import Array, Policy, masked_softmax

ADAPTER = {"players": 4, "whole_game": False}  # the default rules: 4 players


@dataclass
class Settings:
    episodes_per_batch: int = 64
    epochs: int = 4
    minibatch: int = 256
    lr: float = 3e-4
    clip: float = 0.2
    gamma: float = 1.0
    lam: float = 0.95
    value_coef: float = 0.5
    entropy_coef: float = 0.01
    hidden: int = 128
    reward_scale: float = 0.02  # Baptistenskat round scores are tens of points


class Adam:
    def __init__(self, params: dict[str, Array], lr: float) -> None:
        self.lr, self.t = lr, 0
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}

    def step(self, params: dict[str, Array], grads: dict[str, Array]) -> None:
        self.t += 1
        for k, g in grads.items():
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            mh = self.m[k] / (1 - 0.9 ** self.t)
            vh = self.v[k] / (1 - 0.999 ** self.t)
            params[k] -= (self.lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)


def collect(net: Policy, envs: list[SingleSeat], episodes: int, rng: np.random.Generator,
            seed: int, s: Settings) -> dict[str, Any]:
    """Play ``episodes`` rounds with the current policy (sampling), one env per seat."""
    obs_l, mask_l, act_l, logp_l, val_l, adv_l, ret_l, scores = [], [], [], [], [], [], [], []
    for e in range(episodes):
        env = envs[e % len(envs)]
        o, _ = env.reset(seed=seed + e)
        ep_obs, ep_mask, ep_act, ep_logp, ep_val, ep_rew = [], [], [], [], [], []
        done = env.game.over()
        total = 0.0
        while not done:
            logits, value, _ = net.forward(o["observation"])
            p = masked_softmax(logits, o["action_mask"])
            a = int(rng.choice(len(p), p=p / p.sum()))
            ep_obs.append(o["observation"])
            ep_mask.append(o["action_mask"])
            ep_act.append(a)
            ep_logp.append(float(np.log(p[a] + 1e-12)))
            ep_val.append(float(value))
            o, r, done, _, _ = env.step(a)
            ep_rew.append(r * s.reward_scale)
            total += r
        scores.append(total)
        if not ep_act:
            continue
        # GAE; the episode ends with the round (value 0 after it)
        adv = np.zeros(len(ep_rew), np.float32)
        last = 0.0
        for t in reversed(range(len(ep_rew))):
            nxt = ep_val[t + 1] if t + 1 < len(ep_val) else 0.0
            delta = ep_rew[t] + s.gamma * nxt - ep_val[t]
            last = delta + s.gamma * s.lam * last
            adv[t] = last
        obs_l += ep_obs
        mask_l += ep_mask
        act_l += ep_act
        logp_l += ep_logp
        val_l += ep_val
        adv_l += list(adv)
        ret_l += list(adv + np.array(ep_val, np.float32))
    return {"obs": np.array(obs_l, np.float32), "mask": np.array(mask_l, np.int8),
            "act": np.array(act_l), "logp": np.array(logp_l, np.float32),
            "adv": np.array(adv_l, np.float32), "ret": np.array(ret_l, np.float32),
            "score": float(np.mean(scores)) if scores else 0.0}


def gradients(net: Policy, b: dict[str, Any], s: Settings) -> dict[str, Array]:
    """The PPO loss's gradient for one minibatch, by hand."""
    p = net.params
    obs = b["obs"]
    logits, values, (h1, h2) = net.forward(obs)
    probs = masked_softmax(logits, b["mask"])
    n = len(obs)
    idx = np.arange(n)
    logp = np.log(probs[idx, b["act"]] + 1e-12)
    ratio = np.exp(logp - b["logp"])
    adv = b["adv"]
    active = np.where(adv >= 0, ratio <= 1 + s.clip, ratio >= 1 - s.clip)
    g_logp = -adv * ratio * active  # d loss / d log pi(a)
    onehot = np.zeros_like(probs)
    onehot[idx, b["act"]] = 1.0
    d_logits = g_logp[:, None] * (onehot - probs)
    logs = np.where(probs > 0, np.log(np.maximum(probs, 1e-12)), 0.0)
    entropy = -(probs * logs).sum(axis=1, keepdims=True)
    d_logits += s.entropy_coef * probs * (logs + entropy)  # - c * d H / d logits
    d_values = 2 * s.value_coef * (values - b["ret"])
    d_logits /= n
    d_values /= n
    g: dict[str, Array] = {}
    g["wp"] = h2.T @ d_logits
    g["bp"] = d_logits.sum(axis=0)
    g["wv"] = h2.T @ d_values[:, None]
    g["bv"] = d_values.sum(keepdims=True)
    d_h2 = d_logits @ p["wp"].T + d_values[:, None] @ p["wv"].T
    d_pre2 = d_h2 * (1 - h2 * h2)
    g["w2"] = h1.T @ d_pre2
    g["b2"] = d_pre2.sum(axis=0)
    d_pre1 = (d_pre2 @ p["w2"].T) * (1 - h1 * h1)
    g["w1"] = obs.T @ d_pre1
    g["b1"] = d_pre1.sum(axis=0)
    return {k: v.astype(np.float32) for k, v in g.items()}


def train(seconds: float, *, opponents: str = "random", seed: int = 0,
          settings: Settings | None = None, log: Any = None,
          iterations: int | None = None) -> Policy:
    """Train for ``seconds`` (or exactly ``iterations`` batches: reproducible whatever
    the machine's speed) and return the policy."""
    s = settings or Settings()
    envs = [SingleSeat("baptisten", seat=i, bots=opponents, **ADAPTER)
            for i in range(ADAPTER["players"])]
    game = envs[0].game
    net = Policy.new(game.obs_size, game.n_actions, s.hidden, seed,
                     meta={"game": "baptisten", "adapter": ADAPTER,
                           "name": f"ppo-{opponents}", "opponents": opponents})
    opt = Adam(net.params, s.lr)
    rng = np.random.default_rng(seed)
    start = time.monotonic()
    it = 0
    while (it < iterations) if iterations is not None else \
            (time.monotonic() - start < seconds):
        batch = collect(net, envs, s.episodes_per_batch, rng,
                        seed * 1_000_003 + it * s.episodes_per_batch, s)
        n = len(batch["act"])
        adv = batch["adv"]
        batch["adv"] = (adv - adv.mean()) / (adv.std() + 1e-8)
        for _ in range(s.epochs):
            order = rng.permutation(n)
            for i in range(0, n, s.minibatch):
                part = order[i:i + s.minibatch]
                mb = {k: v[part] for k, v in batch.items() if k != "score"}
                opt.step(net.params, gradients(net, mb, s))
        it += 1
        if log is not None:
            log(f"iteration {it}: {time.monotonic() - start:5.0f} s, "
                f"score per round {batch['score']:+.1f}")
    net.meta["iterations"] = it
    net.meta["seconds"] = round(time.monotonic() - start)
    return net


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--opponents", default="random", choices=["random", "easy"])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--iterations", type=int, default=None,
                    help="train exactly this many batches instead of --minutes")
    ap.add_argument("--out", default="policy.npz")
    args = ap.parse_args(argv)
    net = train(args.minutes * 60, opponents=args.opponents, seed=args.seed,
                log=lambda line: print(line, file=sys.stderr), iterations=args.iterations)
    net.save(args.out)
    print(f"saved {args.out} after {net.meta['iterations']} iterations")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
