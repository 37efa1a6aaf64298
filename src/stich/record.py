"""Game records: a documented JSON form of a whole game, and its replay.

A record names its game and rule string, the players by seat, the deal, every action in
its text form, and the result (see ``docs/records.md``).  Replaying a record applies every
action to a fresh state and checks the stored result against the engine's.

>>> from stich.skat import SkatState
>>> import random
>>> s = SkatState.new(seed=3)
>>> rng = random.Random(0)
>>> while not s.is_over:
...     s = s.apply(rng.choice(s.legal_actions()))
>>> rec = skat_record(s, ["Ann", "Ben", "Cid"])
>>> replay(rec).outcome() == s.outcome()
True
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from stich.cards import format_cards, parse_cards
from stich.core import IllegalActionError, RecordError
from stich.skat.rules import SkatRules
from stich.skat.state import SkatState

__all__ = ["FORMAT", "load_records", "replay", "skat_record", "verify"]

FORMAT = "stich-record/1"


def skat_record(
    state: SkatState,
    players: Sequence[str] = ("Vorhand", "Mittelhand", "Hinterhand"),
    *,
    seed: int | None = None,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The record of a Skat game (finished or not: ``result`` is null while it runs)."""
    if len(players) != 3:
        raise ValueError("a Skat record names three players: Vorhand, Mittelhand, Hinterhand")
    hands, skat = state.deal
    rec: dict[str, Any] = {
        "format": FORMAT,
        "game": "skat",
        "rules": str(state.rules),
        "players": list(players),
        "dealer": 2,
        "deal": {"hands": [format_cards(h) for h in hands], "skat": format_cards(skat)},
        "actions": [str(a) for a in state.history],
        "result": state.outcome().to_dict() if state.is_over else None,
    }
    if seed is not None:
        rec["seed"] = seed
    if extra:
        rec.update(extra)
    return rec


def replay(record: dict[str, Any], *, check_result: bool = True) -> SkatState:
    """Replay a record; raises RecordError naming the action index and the reason."""
    if not isinstance(record, dict):
        raise RecordError(f"a record is a JSON object, not {type(record).__name__}")
    fmt = record.get("format", FORMAT)
    if fmt != FORMAT:
        raise RecordError(f"unknown record format {fmt!r} (this version reads {FORMAT})")
    game = record.get("game")
    if game != "skat":
        raise RecordError(f"unknown game {game!r} in record")
    try:
        rules = SkatRules.parse(str(record["rules"]))
        deal = record["deal"]
        hands = [_cards(h, "a hand") for h in deal["hands"]]
        skat = _cards(deal["skat"], "the Skat")
        state = SkatState.new(rules, hands=hands, skat=skat)
    except KeyError as e:
        raise RecordError(f"bad record header: missing field {e}") from None
    except (TypeError, ValueError) as e:
        raise RecordError(f"bad record header: {e}") from None
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError("'actions' must be a list of action texts")
    for i, text in enumerate(actions):
        try:
            state = state.apply(state.parse_action(str(text)))
        except IllegalActionError as e:
            raise RecordError(f"action {i} ({text!r}): {e}") from None
    stored = record.get("result")
    if check_result and stored is not None:
        if not isinstance(stored, dict):
            raise RecordError("'result' must be a JSON object or null")
        if not state.is_over:
            raise RecordError(
                f"the record stores a result but the game is not over after {len(actions)} actions"
            )
        actual = state.outcome().to_dict()
        diffs = [
            f"{k}: stored {stored.get(k)!r}, replayed {v!r}"
            for k, v in actual.items()
            if stored.get(k) != v
        ]
        if diffs:
            raise RecordError("wrong stored result: " + "; ".join(diffs))
    return state


def _cards(text: Any, what: str) -> int:
    """Cards given as text (``"CJ SJ HA"``) in a record's deal."""
    if not isinstance(text, str):
        raise ValueError(f"{what} is written as card codes in one string, not {text!r}")
    return parse_cards(text)


def verify(record: dict[str, Any]) -> SkatState:
    """Replay and check the stored result (alias of :func:`replay`)."""
    return replay(record, check_result=True)


def load_records(path: str | Path) -> list[dict[str, Any]]:
    """Read one record (a JSON object) or many (a JSON list, or one object per line)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        raise RecordError(f"{path}: not a UTF-8 text file ({e.reason})") from None
    stripped = text.strip()
    if not stripped:
        raise RecordError(f"{path}: empty file")
    try:
        data = json.loads(stripped)
    except json.JSONDecodeError as whole:
        # Perhaps one record per line (JSON Lines); if not even the first line is JSON,
        # the file is one broken document: report where the whole parse failed.
        out = []
        lines = [(n, ln) for n, ln in enumerate(text.splitlines(), start=1) if ln.strip()]
        for i, (n, line) in enumerate(lines):
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError as e:
                if i == 0:
                    raise RecordError(
                        f"{path}: not JSON: {whole.msg} (line {whole.lineno}, "
                        f"column {whole.colno})"
                    ) from None
                raise RecordError(f"{path}:{n}: not JSON: {e.msg}") from None
        return out
    if isinstance(data, list):
        return data
    if isinstance(data, dict):
        return [data]
    raise RecordError(f"{path}: a record is a JSON object")
