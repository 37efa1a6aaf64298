"""PPO with action masking in plain NumPy, for the two-layer tanh network of
:class:`stich.env.policy.Policy`: what ``examples/train_baptisten.py`` and
``examples/train_skat.py`` share.

PPO (Schulman et al., 2017): clipped surrogate, a value head on the same body,
generalised advantage estimation, an entropy bonus, Adam; the gradient is written out by
hand (masked softmax: illegal actions get no probability and no gradient).  One learning
seat plays against `stich` bots in :class:`stich.env.gym.SingleSeat` environments; an
episode is what one ``reset`` starts (a round, a game).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from stich.env.gym import SingleSeat
from stich.env.policy import Array, Policy, masked_softmax

__all__ = ["Adam", "Guide", "Settings", "collect", "gradients", "update"]


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
    reward_scale: float = 0.02  # rewards × this before learning (scores of tens)


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


Guide = Callable[[SingleSeat, int], Sequence[int] | None]
"""``guide(env, episode)``: the action ids another player (a teacher bot) plays for the
learner now, or None to let the policy play."""


def collect(net: Policy, envs: Sequence[SingleSeat], episodes: int,
            rng: np.random.Generator, seed: int, s: Settings,
            on_episode: Callable[[SingleSeat, float], None] | None = None,
            guide: Guide | None = None) -> dict[str, Any]:
    """Play ``episodes`` episodes with the current policy (sampling), one env after
    another; ``on_episode(env, reward)`` after each (for figures of one's own).

    ``guide`` may take some of the learner's decisions (exploring starts: a teacher bids
    for it in some episodes, so that it learns to play the games it would not yet have
    declared): those steps are played but not learnt from (they are not the policy's),
    and their reward goes to the policy's step before them (after them, when there is
    none yet)."""
    obs_l: list[Any] = []
    mask_l: list[Any] = []
    act_l: list[int] = []
    logp_l: list[float] = []
    adv_l: list[float] = []
    ret_l: list[float] = []
    scores: list[float] = []
    for e in range(episodes):
        env = envs[e % len(envs)]
        o, _ = env.reset(seed=seed + e)
        ep_obs: list[Any] = []
        ep_mask: list[Any] = []
        ep_act: list[int] = []
        ep_logp: list[float] = []
        ep_val: list[float] = []
        ep_rew: list[float] = []
        done = env.game.over()
        total = 0.0
        carry = 0.0  # reward of guided steps before the policy's first
        while not done:
            ids = guide(env, e) if guide is not None else None
            if ids is not None:
                r = 0.0
                for i in ids:
                    o, ri, done, _, _ = env.step(i)
                    r += ri
                total += r
                if ep_rew:
                    ep_rew[-1] += r * s.reward_scale
                else:
                    carry += r * s.reward_scale
                continue
            logits, value, _ = net.forward(o["observation"])
            p = masked_softmax(logits, o["action_mask"])
            a = int(rng.choice(len(p), p=p / p.sum()))
            ep_obs.append(o["observation"])
            ep_mask.append(o["action_mask"])
            ep_act.append(a)
            ep_logp.append(float(np.log(p[a] + 1e-12)))
            ep_val.append(float(value))
            o, r, done, _, _ = env.step(a)
            ep_rew.append(r * s.reward_scale + carry)
            carry = 0.0
            total += r
        scores.append(total)
        if on_episode is not None:
            on_episode(env, total)
        if not ep_act:
            continue
        # GAE; the episode ends with it (value 0 after it)
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


def update(net: Policy, opt: Adam, batch: dict[str, Any], s: Settings,
           rng: np.random.Generator) -> None:
    """The PPO epochs over one batch (its advantages normalised first)."""
    n = len(batch["act"])
    adv = batch["adv"]
    batch["adv"] = (adv - adv.mean()) / (adv.std() + 1e-8)
    for _ in range(s.epochs):
        order = rng.permutation(n)
        for i in range(0, n, s.minibatch):
            part = order[i:i + s.minibatch]
            mb = {k: v[part] for k, v in batch.items() if k != "score"}
            opt.step(net.params, gradients(net, mb, s))
