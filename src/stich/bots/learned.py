"""The learned Skat bot: a policy trained with ``examples/train_skat.py`` (PPO against
the random bot, docs/env.md "Training a Skat agent"), played by the standard library
alone.

The engines' install, and the site's (``pip install 'stich[server]'``), have no NumPy:
this module reads the policy's ``.npz`` file itself (a zip of ``.npy`` arrays, read with
:mod:`zipfile` and :mod:`array`) and runs the network's forward pass in plain Python:
the observation is mostly zeros, so the first layer adds up only the rows of its
non-zero slots (a few dozen of 400), and only the legal actions' logits are computed.
:class:`stich.env.policy.PolicyBot` plays the same file with NumPy and chooses the same
actions (tests/bots/test_learned.py).

The observation is :func:`stich.skat.observation.encode` of the bot's view, as a list of
one game gives it (:meth:`stich.env.skat.SkatAdapter.encode`); the policy file names its
action space (``meta["actions"]``, the engine texts by id), so that this layer needs
nothing of :mod:`stich.env`.  Policies of the presets' space only (no house-rule
slots): at a table with house rules it plays the legal actions its space has (it never
says Kontra), sees what the presets' observation shows, and leaves a decision none of
whose actions it knows (a Revolution's exchange, ``schieben``) to the rule-based bot.

>>> bot = skat_bot()
>>> from stich.skat import SkatState
>>> state = SkatState.new(bot.rules, seed=1)
>>> bot.choose(state.view(state.to_move), random.Random(0)) in state.legal_actions()
True
"""

from __future__ import annotations

import ast
import json
import math
import random
import sys
import zipfile
from array import array
from functools import cache
from importlib import resources
from operator import mul
from pathlib import Path
from typing import IO, Any

from stich import skat
from stich.bots.base import Bot
from stich.bots.heuristic import SkatHeuristicBot
from stich.core import ArgumentError
from stich.skat.actions import Action, Discard, parse_action
from stich.skat.observation import OBS_SIZE, SCALAR_COLUMNS, encode
from stich.skat.rules import SkatRules
from stich.skat.view import SkatView

__all__ = ["POLICY", "LearnedSkatBot", "load_npz", "skat_bot"]

POLICY = "skat-learned.npz"
"""The shipped policy's file, package data of :mod:`stich.bots`."""


def _npy(data: bytes) -> tuple[str, tuple[int, ...], bytes]:
    """The dtype text, shape and raw data of one ``.npy`` file (format 1.0 to 3.0)."""
    if data[:6] != b"\x93NUMPY":
        raise ArgumentError("bots.policy_file", reason="not a .npy array")
    major = data[6]
    if major == 1:
        size, start = int.from_bytes(data[8:10], "little"), 10
    else:
        size, start = int.from_bytes(data[8:12], "little"), 12
    header = ast.literal_eval(data[start:start + size].decode("latin1"))
    if header.get("fortran_order"):
        raise ArgumentError("bots.policy_file", reason="a Fortran-order array")
    return str(header["descr"]), tuple(header["shape"]), data[start + size:]


def load_npz(file: str | Path | IO[bytes]) -> tuple[dict[str, array[float]], dict[str, Any],
                                                     dict[str, tuple[int, ...]]]:
    """The float arrays of a policy file (flat, row-major), its ``meta`` and the arrays'
    shapes; what :meth:`stich.env.policy.Policy.save` writes."""
    params: dict[str, array[float]] = {}
    shapes: dict[str, tuple[int, ...]] = {}
    meta: dict[str, Any] = {}
    with zipfile.ZipFile(file) as z:
        for name in z.namelist():
            descr, shape, raw = _npy(z.read(name))
            key = name.removesuffix(".npy")
            if key == "meta":
                if not descr.startswith("<U"):
                    raise ArgumentError("bots.policy_file", reason=f"meta is {descr}, not text")
                meta = json.loads(raw.decode("utf-32-le").rstrip("\0"))
                continue
            if descr != "<f4":
                raise ArgumentError("bots.policy_file", reason=f"{key} is {descr}, not float32")
            a = array("f")
            a.frombytes(raw)
            if sys.byteorder == "big":
                a.byteswap()
            if len(a) != math.prod(shape):
                raise ArgumentError("bots.policy_file",
                                    reason=f"{key}: {len(a)} numbers for the shape {shape}")
            params[key], shapes[key] = a, shape
    return params, meta, shapes


class LearnedSkatBot:
    """A Skat policy file's network as a bot, in plain Python (greedy: the legal action
    of the highest logit; a discard card by card, as the environment's steps are)."""

    name = "learned"

    def __init__(self, file: str | Path | IO[bytes]) -> None:
        params, meta, shapes = load_npz(file)
        if meta.get("game") != skat.NAME:
            raise ArgumentError("bots.policy_file",
                                reason=f"a policy for {meta.get('game')!r}, not for {skat.NAME}")
        actions = meta.get("actions")
        if not actions:
            raise ArgumentError("bots.policy_file",
                                reason="the policy file names no actions (meta['actions'])")
        n_in, hidden = shapes["w1"]
        n_out = shapes["wp"][1]
        if n_in != OBS_SIZE or n_out != len(actions):
            raise ArgumentError("bots.policy_file",
                                reason=f"the network's sizes {n_in}, {n_out} are not those "
                                f"of the presets' observation ({OBS_SIZE}) and of its "
                                f"{len(actions)} actions")
        self.meta = meta
        self.rules = SkatRules.parse(meta.get("adapter", {}).get("rules", "lothar"))
        self.hidden = hidden
        w1 = params["w1"]
        self._w1 = [w1[i * hidden:(i + 1) * hidden] for i in range(OBS_SIZE)]
        w2 = params["w2"]
        self._w2 = [w2[i * hidden:(i + 1) * hidden] for i in range(hidden)]
        wp = params["wp"]
        self._wp = [wp[a::n_out] for a in range(n_out)]  # one column per action
        self._b1, self._b2, self._bp = list(params["b1"]), list(params["b2"]), params["bp"]
        self._index: dict[Action, int] = {}
        self._discard: dict[int, int] = {}  # card index → id of "discard <card>"
        for i, text in enumerate(actions):
            if text.startswith("discard "):
                self._discard[parse_action(text.removeprefix("discard ")).index] = i  # type: ignore[union-attr]
            elif not text.startswith("give "):
                self._index[parse_action(text)] = i
        self._fallback: Bot = SkatHeuristicBot()

    def logits(self, view: SkatView, pending: int, ids: list[int]) -> list[float]:
        """The network's logits of ``ids`` at ``view`` (``pending``: the first discard
        card chosen, -1 none)."""
        obs, scalars = encode(view, pending, 0, 1, (0, 0, 0))
        h = self._b1.copy()
        hidden = range(self.hidden)
        rows = self._w1
        for i in [i for i, b in enumerate(obs) if b]:
            row = rows[i]
            for k in hidden:
                h[k] += row[k]
        for col, x in zip(SCALAR_COLUMNS, scalars, strict=True):
            if x:
                row = rows[col]
                for k in hidden:
                    h[k] += x * row[k]
        h1 = [math.tanh(x) for x in h]
        h = self._b2.copy()
        for j, x in enumerate(h1):
            row = self._w2[j]
            for k in hidden:
                h[k] += x * row[k]
        h2 = [math.tanh(x) for x in h]
        return [self._bp[a] + sum(map(mul, h2, self._wp[a])) for a in ids]

    def _best(self, view: SkatView, pending: int, ids: list[int]) -> int:
        scores = self.logits(view, pending, ids)
        return ids[max(range(len(ids)), key=scores.__getitem__)]

    def choose(self, view: SkatView, rng: random.Random) -> Action:
        legal = view.legal_actions
        if legal and isinstance(legal[0], Discard):
            pairs = [a.cards for a in legal]  # type: ignore[union-attr]
            card_of = {i: c for c, i in self._discard.items()}
            cards = 0
            for pair in pairs:
                cards |= pair
            first = card_of[self._best(view, -1, [self._discard[c] for c in range(32)
                                                  if cards >> c & 1])]
            seconds = [c for c in range(32)
                       if c != first and (1 << first | 1 << c) in pairs]
            second = card_of[self._best(view, first, [self._discard[c] for c in seconds])]
            return Discard(1 << first | 1 << second)
        known = [(self._index[a], a) for a in legal if a in self._index]
        if not known:
            return self._fallback.choose(view, rng)
        best = self._best(view, -1, [i for i, _ in known])
        return next(a for i, a in known if i == best)


@cache
def _shipped() -> LearnedSkatBot:
    with resources.files("stich.bots").joinpath(POLICY).open("rb") as f:
        return LearnedSkatBot(f)


def skat_bot() -> LearnedSkatBot:
    """The shipped learned Skat bot (one network, shared: the bot keeps no state)."""
    return _shipped()
