"""Game records: a documented JSON form of a whole game, and its replay.

A record names its game (``skat`` or ``baptisten``) and rule string, the players by seat,
the deal (for Baptistenskat one deal per round), every action in its text form, and the
result (see ``docs/records.md``).  Replaying a record applies every action to a fresh
state and checks the stored result against the engine's.

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
from typing import Any, Protocol, Self, TypeVar

from stich.baptisten.deal import Deal
from stich.baptisten.rules import BaptistenRules
from stich.baptisten.scoring import scoresheet
from stich.baptisten.state import BaptistenState
from stich.cards import PlainCard, PlainDeck, format_cards, parse_cards
from stich.core import IllegalActionError, RecordError
from stich.skat.rules import SkatRules
from stich.skat.state import SkatState

__all__ = [
    "FORMAT",
    "RECORD_GAMES",
    "RecordState",
    "baptisten_record",
    "load_records",
    "record_result",
    "replay",
    "replay_baptisten",
    "replay_skat",
    "skat_record",
    "verify",
]

FORMAT = "stich-record/1"
RECORD_GAMES = ("skat", "baptisten")
"""The games a record may name."""

RecordState = SkatState | BaptistenState
"""What :func:`replay` gives back: the state after the last recorded action."""

_MAX_DIFFS = 8  # differing fields named in a Baptistenskat result check


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
        "result": record_result(state),
    }
    if seed is not None:
        rec["seed"] = seed
    if extra:
        rec.update(extra)
    return rec


def baptisten_record(
    state: BaptistenState,
    players: Sequence[str],
    *,
    seed: int | None = None,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The record of a whole Baptistenskat game (finished or not: ``result`` is null
    while it runs).  ``players`` are the names by seat; seat ``first`` starts round 1.
    Every round's deal is written, also those of rounds not yet played.

    >>> import random
    >>> from stich.baptisten import BaptistenRules, BaptistenState
    >>> s = BaptistenState.new(BaptistenRules(players=3, max_cards=2), seed=5)
    >>> rng = random.Random(5)
    >>> while not s.is_over:
    ...     s = s.apply(rng.choice(s.legal_actions()))
    >>> rec = baptisten_record(s, ["Ann", "Ben", "Cid"], seed=5)
    >>> rec["game"], rec["first"], len(rec["deals"])
    ('baptisten', 0, 3)
    >>> [len(hand.split()) for hand in rec["deals"][1]["hands"]]
    [2, 2, 2]
    >>> replay(rec).totals == s.totals
    True
    """
    n = state.players
    if len(players) != n:
        raise ValueError(f"this Baptistenskat game has {n} players: name {n}, "
                         f"not {len(players)}")
    deck = state.deck
    rec: dict[str, Any] = {
        "format": FORMAT,
        "game": "baptisten",
        "rules": str(state.rules),
        "players": list(players),
        "first": state.first_player,
        "deals": [
            {"hands": [_plain_text(deck, h) for h in deal.hands],
             "trump": deck.cards[deal.trump_card].code}
            for deal in state.deals
        ],
        "actions": [str(a) for a in state.history],
        "result": record_result(state),
    }
    if seed is not None:
        rec["seed"] = seed
    if extra:
        rec.update(extra)
    return rec


def record_result(state: RecordState) -> dict[str, Any] | None:
    """The ``result`` a record stores for this state: null while the game runs; for Skat
    ``SkatOutcome.to_dict()``; for Baptistenskat the scoresheet
    (:func:`stich.baptisten.scoring.scoresheet`) without ``rules`` and ``players``, which
    the record holds already."""
    if not state.is_over:
        return None
    if isinstance(state, SkatState):
        return state.outcome().to_dict()
    sheet = scoresheet(state, [])
    del sheet["rules"], sheet["players"]
    return sheet


def replay(record: dict[str, Any], *, check_result: bool = True) -> RecordState:
    """Replay a record of either game; raises RecordError naming the action index and
    the reason."""
    if _game_of(record) == "baptisten":
        return _replay_baptisten(record, check_result)
    return _replay_skat(record, check_result)


def replay_skat(record: dict[str, Any], *, check_result: bool = True) -> SkatState:
    """Replay a Skat record (a record of another game is a RecordError)."""
    game = _game_of(record)
    if game != "skat":
        raise RecordError(f"a {game} record, not a Skat record")
    return _replay_skat(record, check_result)


def replay_baptisten(record: dict[str, Any], *, check_result: bool = True
                     ) -> BaptistenState:
    """Replay a Baptistenskat record (a record of another game is a RecordError)."""
    game = _game_of(record)
    if game != "baptisten":
        raise RecordError(f"a {game} record, not a Baptistenskat record")
    return _replay_baptisten(record, check_result)


def _game_of(record: Any) -> str:
    if not isinstance(record, dict):
        raise RecordError(f"a record is a JSON object, not {type(record).__name__}")
    fmt = record.get("format", FORMAT)
    if fmt != FORMAT:
        raise RecordError(f"unknown record format {fmt!r} (this version reads {FORMAT})")
    game = record.get("game")
    if game not in RECORD_GAMES:
        raise RecordError(f"unknown game {game!r} in record")
    return str(game)


def _replay_skat(record: dict[str, Any], check_result: bool) -> SkatState:
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
    state, n_actions = _apply_all(state, record)
    if check_result:
        _check_result(record, state, n_actions, limit=None)
    return state


def _replay_baptisten(record: dict[str, Any], check_result: bool) -> BaptistenState:
    try:
        rules = BaptistenRules.parse(str(record["rules"]))
        first = record["first"]
        if not isinstance(first, int) or isinstance(first, bool):
            raise ValueError(f"'first' is a seat number, not {first!r}")
        deals = record["deals"]
        if not isinstance(deals, list):
            raise ValueError("'deals' is a list with one deal per round")
        state = BaptistenState.new(
            rules, first=first,
            deals=[_read_deal(rules.card_deck, d, r) for r, d in enumerate(deals, start=1)],
        )
    except KeyError as e:
        raise RecordError(f"bad record header: missing field {e}") from None
    except (TypeError, ValueError) as e:
        raise RecordError(f"bad record header: {e}") from None
    state, n_actions = _apply_all(state, record)
    if check_result:
        _check_result(record, state, n_actions, limit=_MAX_DIFFS)
    return state


class _Replayable(Protocol):
    @property
    def is_over(self) -> bool: ...

    def parse_action(self, text: str) -> Any: ...

    def apply(self, action: Any) -> Self: ...


_S = TypeVar("_S", bound=_Replayable)


def _apply_all(state: _S, record: dict[str, Any]) -> tuple[_S, int]:
    """Apply the record's actions in order: the state after the last, and their number."""
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError("'actions' must be a list of action texts")
    for i, text in enumerate(actions):
        try:
            state = state.apply(state.parse_action(str(text)))
        except IllegalActionError as e:
            raise RecordError(f"action {i} ({text!r}): {e}") from None
    return state, len(actions)


def _check_result(record: dict[str, Any], state: RecordState, n_actions: int, *,
                  limit: int | None) -> None:
    """Compare the stored result (when there is one) with the replayed game's."""
    stored = record.get("result")
    if stored is None:
        return
    if not isinstance(stored, dict):
        raise RecordError("'result' must be a JSON object or null")
    actual = record_result(state)
    if actual is None:
        raise RecordError(
            f"the record stores a result but the game is not over after {n_actions} actions"
        )
    diffs = _diffs(stored, actual, "")
    if diffs:
        more = len(diffs) - limit if limit is not None and len(diffs) > limit else 0
        shown = diffs[:limit] if more else diffs
        tail = f"; and {more} more" if more else ""
        raise RecordError("wrong stored result: " + "; ".join(shown) + tail)


def _diffs(stored: Any, actual: Any, path: str) -> list[str]:
    """Where the stored JSON differs from the replayed one: the fields of objects and the
    items of lists of objects one by one (``rounds[2].entries[1].score``), other values
    whole.  Fields only in the stored object are not compared."""
    if isinstance(actual, dict) and isinstance(stored, dict):
        out: list[str] = []
        for k, v in actual.items():
            out += _diffs(stored.get(k), v, f"{path}.{k}" if path else str(k))
        return out
    if (isinstance(actual, list) and isinstance(stored, list) and len(stored) == len(actual)
            and any(isinstance(v, dict) for v in actual)):
        out = []
        for i, (s, a) in enumerate(zip(stored, actual, strict=True)):
            out += _diffs(s, a, f"{path}[{i}]")
        return out
    if stored != actual:
        return [f"{path}: stored {stored!r}, replayed {actual!r}"]
    return []


def _read_deal(deck: PlainDeck, entry: Any, round_no: int) -> Deal:
    """One round's deal from ``{"hands": [...], "trump": "G7"}``.  In a doubled deck the
    two copies of a card are alike: each code takes the first copy not yet dealt in this
    round, and the trump card a copy that no hand holds (if there is one)."""
    where = f"round {round_no}"
    if not isinstance(entry, dict):
        raise ValueError(f"{where}: a deal is an object with 'hands' and 'trump'")
    if "hands" not in entry or "trump" not in entry:
        missing = "hands" if "hands" not in entry else "trump"
        raise ValueError(f"{where}: missing field {missing!r}")
    hands_text, trump_text = entry["hands"], entry["trump"]
    if not isinstance(hands_text, list):
        raise ValueError(f"{where}: 'hands' is a list of hands by seat")
    dealt = 0
    hands = []
    for text in hands_text:
        if not isinstance(text, str):
            raise ValueError(f"{where}: a hand is written as card codes in one string, "
                             f"not {text!r}")
        hand = 0
        for word in text.replace(",", " ").split():
            card = _free_copy(deck, _parse_card(deck, word, where), dealt)
            if card is None:
                raise ValueError(f"{where}: {word} is dealt more often than the deck has it")
            hand |= card
            dealt |= card
        hands.append(hand)
    if not isinstance(trump_text, str):
        raise ValueError(f"{where}: the trump card is a card code, not {trump_text!r}")
    trump = _parse_card(deck, trump_text, where)
    free = _free_copy(deck, trump, dealt)
    return Deal(tuple(hands), free.bit_length() - 1 if free is not None else trump.index)


def _parse_card(deck: PlainDeck, word: str, where: str) -> PlainCard:
    try:
        return deck.parse(word)
    except ValueError as e:
        raise ValueError(f"{where}: {e}") from None


def _free_copy(deck: PlainDeck, card: PlainCard, taken: int) -> int | None:
    """The bit of the first copy of ``card``'s kind not in ``taken`` (None: all taken)."""
    for c in deck.same_kind(card):
        if not taken & c.bit:
            bit: int = c.bit
            return bit
    return None


def _plain_text(deck: PlainDeck, mask: int) -> str:
    """A hand as card codes by suit and rank (two copies of a card side by side)."""
    cards = [deck.cards[i] for i in range(deck.size) if mask >> i & 1]
    cards.sort(key=lambda c: (c.suit < 0, c.kind if c.suit >= 0 else 0, c.copy))
    return " ".join(c.code for c in cards)


def _cards(text: Any, what: str) -> int:
    """Cards given as text (``"CJ SJ HA"``) in a record's deal."""
    if not isinstance(text, str):
        raise ValueError(f"{what} is written as card codes in one string, not {text!r}")
    return parse_cards(text)


def verify(record: dict[str, Any]) -> RecordState:
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
