"""Checking a game record's header before it is replayed: the rules, the players, the
dealer, the seed, the first seat and the deal(s), each with a coded message that says
which field is wrong and what it should be (see ``docs/records.md``); and naming JSON
that is not a record at all (a scoresheet, a printed result, an analysis).

>>> check_common({"players": ["Ann", "Ben"], "seed": 3}, players=3)
Traceback (most recent call last):
...
stich.core.RecordError: bad record header: this game has 3 players, but 'players' names 2
>>> str(RecordError("records.bad_seed", value=shown(1.5)))
"bad record header: 'seed' is a whole number, not 1.5"
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

from stich.baptisten.deal import Deal
from stich.cards import PlainCard, PlainDeck, parse_cards
from stich.core import RecordError
from stich.messages import Msg, Seat

__all__ = [
    "baptisten_deals",
    "check_common",
    "check_dealer",
    "check_first",
    "check_rules",
    "foreign_json",
    "not_a_record",
    "shown",
    "skat_deal",
]

_R = TypeVar("_R")


def shown(value: Any) -> Any:
    """A value from a record for a message: a number, string, true/false or null as JSON
    (the same in every language); a list or an object by its kind, since it may be long.
    """
    if isinstance(value, list):
        return Msg("records.kind_list", {"n": len(value)})
    if isinstance(value, dict):
        return Msg("records.kind_object", {})
    return json.dumps(value, ensure_ascii=False)


def _kind(value: Any) -> Msg:
    """What a JSON value is, in words (for "a record is a JSON object, not …")."""
    if isinstance(value, bool):
        return Msg("records.kind_boolean", {})
    if isinstance(value, int | float):
        return Msg("records.kind_number", {})
    if isinstance(value, str):
        return Msg("records.kind_string", {})
    if value is None:
        return Msg("records.kind_null", {})
    if isinstance(value, list):
        return Msg("records.kind_list", {"n": len(value)})
    return Msg("records.kind_object", {})


def not_a_record(value: Any) -> RecordError:
    """The RecordError for a JSON value that is not an object."""
    return RecordError("records.not_object", kind=_kind(value))


def foreign_json(obj: dict[str, Any]) -> RecordError | None:
    """The refusal naming what a JSON object without a record's ``game`` is, when it is
    something else that stich writes: a Baptistenskat scoresheet (``stich play baptisten
    --json``), a result as ``stich replay`` prints it, an analysis (``stich analyze
    --json``)."""
    keys = obj.keys()
    if {"rounds", "ranking"} <= keys:
        if "rules" in keys or "players" in keys:
            return RecordError("records.scoresheet")
        return RecordError("records.baptisten_result")
    if {"kind", "scores"} <= keys:
        return RecordError("records.skat_result")
    if {"moves", "goal"} <= keys or {"start_value", "contract"} <= keys:
        return RecordError("records.analysis")
    return None


def _field(record: dict[str, Any], name: str) -> Any:
    if name not in record:
        raise RecordError("records.missing_field", field=name)
    return record[name]


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_rules(record: dict[str, Any], parse: Callable[[str], _R], example: str) -> _R:
    """The record's rules, read by the game's ``parse``."""
    text = _field(record, "rules")
    if not isinstance(text, str):
        raise RecordError("records.bad_rules", example=example, value=shown(text))
    try:
        return parse(text)
    except ValueError as e:
        raise RecordError("records.bad_header", reason=Msg.of(e)) from None


def check_common(record: dict[str, Any], *, players: int) -> None:
    """The fields both games share and replay does not need: ``players`` (when given, one
    name per seat) and ``seed`` (when given, a whole number)."""
    if "players" in record:
        names = record["players"]
        if not isinstance(names, list):
            raise RecordError("records.bad_players", value=shown(names))
        for i, name in enumerate(names):
            if not isinstance(name, str):
                raise RecordError("records.player_not_text", index=i, value=shown(name))
        if len(names) != players:
            raise RecordError("records.players_count", n=players, count=len(names))
    if "seed" in record and not _is_int(record["seed"]):
        raise RecordError("records.bad_seed", value=shown(record["seed"]))


def check_dealer(record: dict[str, Any]) -> None:
    """A Skat record's ``dealer`` (when given) is 2: Hinterhand deals."""
    if "dealer" in record and not (_is_int(record["dealer"]) and record["dealer"] == 2):
        raise RecordError("records.bad_dealer", value=shown(record["dealer"]))


def check_first(record: dict[str, Any], players: int) -> int:
    """A Baptistenskat record's ``first``: a seat."""
    first = _field(record, "first")
    if not _is_int(first) or not 0 <= first < players:
        raise RecordError("records.bad_first", last=players - 1, value=shown(first))
    result: int = first
    return result


# --- Skat: one deal -------------------------------------------------------------------


def skat_deal(record: dict[str, Any]) -> tuple[list[int], int]:
    """The three hands and the Skat of a Skat record's ``deal``."""
    deal = _field(record, "deal")
    if not isinstance(deal, dict) or "hands" not in deal or "skat" not in deal:
        raise RecordError("records.bad_deal")
    texts = deal["hands"]
    if not isinstance(texts, list) or len(texts) != 3:
        raise RecordError("records.bad_hands", value=shown(texts))
    hands = []
    for seat, text in enumerate(texts):
        if not isinstance(text, str):
            raise RecordError("records.hand_not_text", seat=Seat(seat), value=shown(text))
        hands.append(_skat_cards(text))
    if not isinstance(deal["skat"], str):
        raise RecordError("records.skat_not_text", value=shown(deal["skat"]))
    return hands, _skat_cards(deal["skat"])


def _skat_cards(text: str) -> int:
    try:
        return parse_cards(text)
    except ValueError as e:
        raise RecordError("records.bad_header", reason=Msg.of(e)) from None


# --- Baptistenskat: one deal per round ------------------------------------------------


def baptisten_deals(record: dict[str, Any], deck: PlainDeck) -> list[Deal]:
    """The deals of a Baptistenskat record, one per round (their number and sizes are
    checked by the engine)."""
    deals = _field(record, "deals")
    if not isinstance(deals, list):
        raise RecordError("records.bad_deals")
    return [_read_deal(deck, d, r) for r, d in enumerate(deals, start=1)]


def _read_deal(deck: PlainDeck, entry: Any, round_no: int) -> Deal:
    """One round's deal from ``{"hands": [...], "trump": "G7"}``.  In a doubled deck the
    two copies of a card are alike: each code takes the first copy not yet dealt in this
    round, and the trump card a copy that no hand holds (if there is one)."""
    if not isinstance(entry, dict):
        raise RecordError("records.round_not_object", round=round_no)
    for name in ("hands", "trump"):
        if name not in entry:
            raise RecordError("records.round_missing", round=round_no, field=name)
    hands_text, trump_text = entry["hands"], entry["trump"]
    if not isinstance(hands_text, list):
        raise RecordError("records.round_hands", round=round_no)
    dealt = 0
    hands = []
    for seat, text in enumerate(hands_text):
        if not isinstance(text, str):
            raise RecordError("records.round_hand_not_text", round=round_no, seat=seat,
                              value=shown(text))
        hand = 0
        for word in text.replace(",", " ").split():
            card = _free_copy(deck, _parse_card(deck, word, round_no), dealt)
            if card is None:
                raise RecordError("records.round_card_too_often", round=round_no, card=word)
            hand |= card
            dealt |= card
        hands.append(hand)
    if not isinstance(trump_text, str):
        raise RecordError("records.round_trump_not_text", round=round_no,
                          value=shown(trump_text))
    trump = _parse_card(deck, trump_text, round_no)
    free = _free_copy(deck, trump, dealt)
    return Deal(tuple(hands), free.bit_length() - 1 if free is not None else trump.index)


def _parse_card(deck: PlainDeck, word: str, round_no: int) -> PlainCard:
    try:
        return deck.parse(word)
    except ValueError as e:
        raise RecordError("records.round_card", round=round_no, reason=Msg.of(e)) from None


def _free_copy(deck: PlainDeck, card: PlainCard, taken: int) -> int | None:
    """The bit of the first copy of ``card``'s kind not in ``taken`` (None: all taken)."""
    for c in deck.same_kind(card):
        if not taken & c.bit:
            bit: int = c.bit
            return bit
    return None
