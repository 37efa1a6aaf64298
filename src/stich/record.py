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
from typing import Any, Protocol, Self, TypeVar

from stich.baptisten import NAME as BAPTISTEN
from stich.baptisten.rules import BaptistenRules
from stich.baptisten.scoring import scoresheet
from stich.baptisten.state import BaptistenState
from stich.cards import PlainDeck, format_cards
from stich.core import ArgumentError, RecordError
from stich.messages import Msg
from stich.record_file import RecordEntry, RecordFile, load_records, read_records
from stich.record_header import (
    baptisten_deals,
    check_common,
    check_dealer,
    check_first,
    check_rules,
    foreign_json,
    not_a_record,
    shown,
    skat_deal,
)
from stich.skat import NAME as SKAT
from stich.skat.rules import SkatRules
from stich.skat.state import SkatState

__all__ = [
    "FORMAT",
    "RECORD_GAMES",
    "RecordEntry",
    "RecordFile",
    "RecordState",
    "baptisten_record",
    "bock_factor",
    "load_records",
    "read_records",
    "record_result",
    "replay",
    "replay_baptisten",
    "replay_skat",
    "skat_record",
    "verify",
]

FORMAT = "stich-record/1"
RECORD_GAMES = (SKAT, BAPTISTEN)
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
        raise ArgumentError("records.skat_players", n=len(players))
    hands, skat = state.deal
    rec: dict[str, Any] = {
        "format": FORMAT,
        "game": SKAT,
        "rules": str(state.rules),
        "players": list(players),
        "dealer": 2,
        "deal": {"hands": [format_cards(h) for h in hands], "skat": format_cards(skat)},
        "actions": [str(a) for a in state.history],
        "result": record_result(state),
    }
    if state.ramsch_round:
        rec["start"] = "ramsch_round"
    if seed is not None:
        rec["seed"] = seed
    if extra:
        rec.update(extra)
        if "sat_out" in extra:  # at four the dealer is no position of the game
            del rec["dealer"]
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
        raise ArgumentError("records.baptisten_players", n=n, given=len(players))
    deck = state.deck
    rec: dict[str, Any] = {
        "format": FORMAT,
        "game": BAPTISTEN,
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
    if _game_of(record) == BAPTISTEN:
        return _replay_baptisten(record, check_result)
    return _replay_skat(record, check_result)


def replay_skat(record: dict[str, Any], *, check_result: bool = True) -> SkatState:
    """Replay a Skat record (a record of another game is a RecordError)."""
    game = _game_of(record)
    if game != SKAT:
        raise RecordError("records.wrong_game", game=game, expected="Skat")
    return _replay_skat(record, check_result)


def replay_baptisten(record: dict[str, Any], *, check_result: bool = True
                     ) -> BaptistenState:
    """Replay a Baptistenskat record (a record of another game is a RecordError)."""
    game = _game_of(record)
    if game != BAPTISTEN:
        raise RecordError("records.wrong_game", game=game, expected="Baptistenskat")
    return _replay_baptisten(record, check_result)


def _game_of(record: Any) -> str:
    """The game a record names, after its envelope is checked; JSON that is something
    else (a scoresheet, a printed result, an analysis) is named as what it is."""
    if not isinstance(record, dict):
        raise not_a_record(record)
    if "format" not in record and record.get("game") not in RECORD_GAMES:
        foreign = foreign_json(record)
        if foreign is not None:
            raise foreign
    fmt = record.get("format", FORMAT)
    if fmt != FORMAT:
        raise RecordError("records.bad_format", value=shown(fmt), expected=FORMAT)
    if "game" not in record:
        raise RecordError("records.no_game")
    game = record["game"]
    if game not in RECORD_GAMES:
        raise RecordError("records.unknown_game", value=shown(game))
    return str(game)


def _replay_skat(record: dict[str, Any], check_result: bool) -> SkatState:
    rules = check_rules(record, SkatRules.parse, "skat(preset=lothar)")
    check_common(record, players=3)
    check_dealer(record)
    hands, skat = skat_deal(record)
    start = record.get("start", "auction")
    if start not in ("auction", "ramsch_round"):
        raise RecordError("records.bad_start", value=shown(start))
    bock_factor(record)
    try:
        state = SkatState.new(rules, hands=hands, skat=skat,
                              ramsch_round=start == "ramsch_round")
    except ValueError as e:
        raise RecordError("records.bad_header", reason=Msg.of(e)) from None
    state, n_actions = _apply_all(state, record)
    if check_result:
        _check_result(record, state, n_actions, limit=None)
    return state


def bock_factor(record: dict[str, Any]) -> int:
    """The factor a Skat record's ``bock`` says the list multiplied the game's scores by
    (1 when it has none): what the analysis needs to count the game as the list did.

    >>> bock_factor({"bock": 2}), bock_factor({})
    (2, 1)
    """
    value = record.get("bock", 1)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise RecordError("records.bad_bock", value=shown(value))
    return value


def _replay_baptisten(record: dict[str, Any], check_result: bool) -> BaptistenState:
    rules = check_rules(record, BaptistenRules.parse, "baptisten(preset=default)")
    check_common(record, players=rules.players)
    first = check_first(record, rules.players)
    deals = baptisten_deals(record, rules.card_deck)
    try:
        state = BaptistenState.new(rules, first=first, deals=deals)
    except ValueError as e:
        raise RecordError("records.bad_header", reason=Msg.of(e)) from None
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
    """Apply the record's actions in order: the state after the last, and their number.
    An action the engine refuses is a RecordError that carries the engine's message as
    it is (``reason``), so a front end renders it in its language, naming the seat."""
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError("records.actions_not_list", value=shown(actions))
    for i, text in enumerate(actions):
        if not isinstance(text, str):
            raise RecordError("records.action_not_text", index=i, value=shown(text))
        try:
            state = state.apply(state.parse_action(text))
        except ValueError as e:  # IllegalActionError, or a reader's ValueError
            raise RecordError("records.action", index=i, action=text,
                              reason=Msg.of(e)) from None
    return state, len(actions)


def _check_result(record: dict[str, Any], state: RecordState, n_actions: int, *,
                  limit: int | None) -> None:
    """Compare the stored result (when there is one) with the replayed game's: name every
    differing field, or the first ``limit`` of them."""
    stored = record.get("result")
    if stored is None:
        return
    if not isinstance(stored, dict):
        raise RecordError("records.result_not_object", value=shown(stored))
    actual = record_result(state)
    if actual is None:
        raise RecordError("records.result_not_over", n=n_actions)
    diffs = _diffs(stored, actual, "")
    if not diffs:
        return
    if limit is not None and len(diffs) > limit:
        raise RecordError("records.wrong_result_more", n=len(diffs), shown=limit,
                          diffs=_one_after_another(diffs[:limit]))
    raise RecordError("records.wrong_result", diffs=_one_after_another(diffs))


def _diffs(stored: Any, actual: Any, path: str) -> list[Msg]:
    """Where the stored JSON differs from the replayed one: the fields of objects and the
    items of lists of objects one by one (``rounds[2].entries[1].score``), other values
    whole, written as JSON.  Fields only in the stored object are not compared."""
    if isinstance(actual, dict) and isinstance(stored, dict):
        out: list[Msg] = []
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
        return [Msg("records.diff", {"path": path, "stored": _json(stored),
                                     "replayed": _json(actual)})]
    return []


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _one_after_another(parts: list[Msg]) -> Msg:
    """Messages joined by semicolons, as one message."""
    joined = parts[-1]
    for part in reversed(parts[:-1]):
        joined = Msg("records.diffs", {"first": part, "rest": joined})
    return joined


def _plain_text(deck: PlainDeck, mask: int) -> str:
    """A hand as card codes by suit and rank (two copies of a card side by side)."""
    cards = [deck.cards[i] for i in range(deck.size) if mask >> i & 1]
    cards.sort(key=lambda c: (c.suit < 0, c.kind if c.suit >= 0 else 0, c.copy))
    return " ".join(c.code for c in cards)


def verify(record: dict[str, Any]) -> RecordState:
    """Replay and check the stored result (alias of :func:`replay`)."""
    return replay(record, check_result=True)
