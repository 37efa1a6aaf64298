"""Environments for training agents on the real rules of both games (``pip install
'stich[rl]'``): PettingZoo AEC (:func:`skat_v0`, :func:`baptisten_v0`; the modules
:mod:`stich.env.skat` and :mod:`stich.env.baptisten` also have ``env`` and
``parallel_env``, and every environment a global ``state()``) and a Gymnasium
single-seat wrapper (:class:`stich.env.gym.SingleSeat`, registered as ``stich/Skat-v0``
and ``stich/Baptisten-v0`` when that module is imported).  See docs/env.md.

The engines never import this package; it imports NumPy, Gymnasium and PettingZoo.
"""

from __future__ import annotations

from typing import Any

__all__ = ["baptisten_v0", "skat_v0"]


def __getattr__(name: str) -> Any:
    """The environment modules load on first use (each needs the ``rl`` extra)."""
    if name == "skat_v0":
        from stich.env import skat

        return skat.skat_v0
    if name == "baptisten_v0":
        from stich.env import baptisten

        return baptisten.baptisten_v0
    raise AttributeError(name)
