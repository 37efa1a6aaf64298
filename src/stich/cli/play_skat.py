"""`stich play skat` (filled in by the terminal-play work)."""

from __future__ import annotations
