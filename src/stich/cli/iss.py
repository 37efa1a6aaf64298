"""`stich iss verify` and `stich iss export` (filled in by the ISS work)."""

from __future__ import annotations
