"""A small policy network in plain NumPy (no deep-learning library needed), its file
format, and the bot that plays with it anywhere a `stich` bot plays (``stich arena
--bots file:policy.npz,easy,easy``).

The network: observation → ``hidden`` tanh units → ``hidden`` tanh units → one logit per
action of the game's fixed action space, illegal actions masked out; and a value head on
the same body (for training with PPO: ``examples/train_baptisten.py``,
``examples/train_skat.py``).

>>> import numpy as np

from stich.games import BAPTISTEN, SKAT
>>> net = Policy.new(obs_size=4, n_actions=3, hidden=8, seed=1)
>>> p = net.probabilities(np.zeros(4, np.float32), np.array([1, 0, 1], np.int8))
>>> float(p[1]), round(float(p.sum()), 6)
(0.0, 1.0)
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from stich.games import BAPTISTEN, SKAT

__all__ = ["Policy", "PolicyBot", "load_bot"]

Array = np.ndarray[Any, np.dtype[np.float32]]
NAMES = ("w1", "b1", "w2", "b2", "wp", "bp", "wv", "bv")


@dataclass
class Policy:
    """The weights (float32) and what they were trained for (``meta``: the game, the
    adapter's arguments, sizes)."""

    params: dict[str, Array]
    meta: dict[str, Any] = field(default_factory=dict)

    @staticmethod
    def new(obs_size: int, n_actions: int, hidden: int = 128, seed: int = 0,
            meta: dict[str, Any] | None = None) -> Policy:
        rng = np.random.default_rng(seed)

        def layer(n_in: int, n_out: int, gain: float) -> Array:
            w: Array = (rng.standard_normal((n_in, n_out)) * gain / np.sqrt(n_in)).astype(
                np.float32)
            return w

        params = {"w1": layer(obs_size, hidden, 1.0), "b1": np.zeros(hidden, np.float32),
                  "w2": layer(hidden, hidden, 1.0), "b2": np.zeros(hidden, np.float32),
                  "wp": layer(hidden, n_actions, 0.01),
                  "bp": np.zeros(n_actions, np.float32),
                  "wv": layer(hidden, 1, 1.0), "bv": np.zeros(1, np.float32)}
        return Policy(params, {"obs_size": obs_size, "n_actions": n_actions,
                               "hidden": hidden, **(meta or {})})

    def forward(self, obs: Array) -> tuple[Array, Array, tuple[Array, Array]]:
        """Logits and values of a batch (or one) of observations, and the hidden
        activations (for the gradient)."""
        p = self.params
        h1 = np.tanh(obs @ p["w1"] + p["b1"])
        h2 = np.tanh(h1 @ p["w2"] + p["b2"])
        return h2 @ p["wp"] + p["bp"], (h2 @ p["wv"] + p["bv"])[..., 0], (h1, h2)

    def probabilities(self, obs: Array, mask: np.ndarray[Any, Any]) -> Array:
        logits, _, _ = self.forward(obs)
        return masked_softmax(logits, mask)

    def save(self, path: str | Path) -> None:
        arrays: dict[str, Any] = {"meta": np.array(json.dumps(self.meta)), **self.params}
        np.savez_compressed(path, **arrays)

    @staticmethod
    def load(path: str | Path) -> Policy:
        with np.load(path, allow_pickle=False) as f:
            meta = json.loads(str(f["meta"]))
            params = {k: f[k].astype(np.float32) for k in NAMES}
        return Policy(params, meta)


def masked_softmax(logits: Array, mask: np.ndarray[Any, Any]) -> Array:
    """Softmax over the legal actions only (the others get probability 0)."""
    z = np.where(mask.astype(bool), logits, -np.inf)
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    out: Array = (e / e.sum(axis=-1, keepdims=True)).astype(np.float32)
    return out


class PolicyBot:
    """A bot that plays a trained :class:`Policy`: it encodes the view it is given (the
    same observation the environment gives) and plays the most likely legal action
    (``greedy``) or samples one.  Baptistenskat and Skat policies play (``meta["game"]``);
    a Skat discard or Revolution give is chosen card by card, as the environment's
    steps are (:meth:`stich.env.skat.SkatAdapter.action_of_view`)."""

    def __init__(self, policy: Policy, greedy: bool = True) -> None:
        self.policy = policy
        self.greedy = greedy
        meta = policy.meta
        self.game = meta.get("game")
        self.codec: Any
        if self.game == BAPTISTEN.name:
            from stich.env.baptisten import BaptistenAdapter

            self.codec = BaptistenAdapter(**meta.get("adapter", {}))
        elif self.game == SKAT.name:
            from stich.env.skat import SkatAdapter

            adapter = {k: v for k, v in meta.get("adapter", {}).items() if k == "rules"}
            self.codec = SkatAdapter(**adapter)
        else:
            raise ValueError(f"a policy for {self.game!r}: only skat and baptisten "
                             "policies play as bots")
        if (self.codec.obs_size, self.codec.n_actions) != (meta.get("obs_size"),
                                                           meta.get("n_actions")):
            raise ValueError(f"the policy's sizes {meta.get('obs_size')}, "
                             f"{meta.get('n_actions')} are not those of its game's "
                             f"space ({self.codec.obs_size}, {self.codec.n_actions})")
        self.name = f"policy:{meta.get('name', 'file')}"

    def _pick(self, obs: Array, mask: np.ndarray[Any, Any], rng: random.Random) -> int:
        probs = self.policy.probabilities(obs, mask)
        if self.greedy:
            return int(np.argmax(probs))
        return int(np.searchsorted(np.cumsum(probs), rng.random() * float(probs.sum())))

    def choose(self, view: Any, rng: random.Random) -> Any:
        codec = self.codec
        if self.game == BAPTISTEN.name:
            return codec.action_of_view(view, self._pick(codec.encode(view),
                                                         codec.view_mask(view), rng))
        from stich.env.skat_space import DISCARD0

        pending, giving = -1, 0
        while True:
            i = self._pick(codec.encode(view, pending, giving),
                           codec.view_mask(view, pending, giving), rng)
            action = codec.action_of_view(view, i, pending, giving)
            if action is not None:
                return action
            if DISCARD0 <= i < DISCARD0 + 32:
                pending = i - DISCARD0
            else:
                giving |= 1 << (i - codec.space.give0)


def load_bot(path: str, greedy: bool = True, game: str | None = None) -> PolicyBot:
    """The bot of a policy file (``stich arena --bots file:PATH``); with ``game``, a
    policy trained for another game is refused (ValueError).  A file is read once per
    process while it is unchanged (the arena asks for a bot every game; the bot keeps
    no state between its choices)."""
    p = Path(path)
    bot = _bot_of(str(p.resolve()), p.stat().st_mtime_ns, greedy)
    if game is not None and bot.game != game:
        raise ValueError(f"{path} is a policy for {bot.game}, not for {game}")
    return bot


@lru_cache(maxsize=16)
def _bot_of(path: str, mtime: int, greedy: bool) -> PolicyBot:
    return PolicyBot(Policy.load(path), greedy)
