"""Baptistenskat game records: round trips through JSON, errors, and `stich replay`."""

from __future__ import annotations

import contextlib
import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from stich.baptisten import BaptistenRules, BaptistenState, scoresheet
from stich.cli import app
from stich.core import IllegalActionError, RecordError
from stich.record import (
    FORMAT,
    baptisten_record,
    record_result,
    replay,
    replay_baptisten,
    replay_skat,
    skat_record,
    verify,
)
from stich.skat import SkatRules, SkatState

runner = CliRunner()
NAMES = ["Ann", "Ben", "Cid", "Dan", "Eva", "Fay", "Gus", "Hal", "Ida"]

# Small games over the decks and variants; the whole-deck ones draw trump before the deal.
CONFIGS = [
    "baptisten(players=3,max_cards=3)",
    "baptisten(players=4,max_cards=4,deck=skat,variants=2+5)",
    "baptisten(players=4,max_cards=8,deck=skat)",  # round 8 uses the whole deck
    "baptisten(players=3,max_cards=5,deck=skat-double,variants=2+4)",
    "baptisten(players=8,max_cards=8,deck=skat-double)",  # whole doubled deck
    "baptisten(players=3,max_cards=4,deck=romme-double-joker,variants=3+4+5)",
    "baptisten(players=5,max_cards=3,deck=elferraus-double,variants=2+3)",
    "baptisten(players=3,max_cards=3,rounds=single,trump_card=after_deal)",
    "ohhell",
]


def random_game(rules: BaptistenRules, seed: int, first: int = 0,
                stop: int | None = None) -> BaptistenState:
    """A game of random legal actions (``stop``: only that many actions)."""
    state = BaptistenState.new(rules, seed=seed, first=first)
    rng = random.Random(seed)
    done = 0
    while not state.is_over and (stop is None or done < stop):
        state = state.apply(rng.choice(state.legal_actions()))
        done += 1
    return state


def json_round_trip(record: dict[str, Any]) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(json.dumps(record))
    return data


def record_of(rules: BaptistenRules, seed: int, first: int = 0) -> dict[str, Any]:
    state = random_game(rules, seed, first)
    return json_round_trip(baptisten_record(state, NAMES[:rules.players], seed=seed))


@pytest.fixture
def good_record() -> dict[str, Any]:
    # the example of docs/records.md: 3 players, N = 3, seed 6
    return record_of(BaptistenRules(players=3, max_cards=3), 6)


def write(tmp_path: Path, data: Any, name: str = "game.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def engine_refusal(record: dict[str, Any], index: int) -> str:
    """The engine's own message for refusing the record's action ``index``."""
    state = replay({**record, "actions": record["actions"][:index], "result": None})
    try:
        state.apply(state.parse_action(record["actions"][index]))
    except IllegalActionError as e:
        return str(e)
    raise AssertionError("the engine takes the action")


def damaged(record: dict[str, Any], index: int, text: str) -> dict[str, Any]:
    rec = copy.deepcopy(record)
    rec["actions"][index] = text
    return rec


# --- round trips ----------------------------------------------------------------------


@pytest.mark.parametrize("rules_text", CONFIGS)
def test_round_trip_of_random_games(rules_text: str) -> None:
    rules = BaptistenRules.parse(rules_text)
    names = NAMES[:rules.players]
    for seed in range(4):
        first = seed % rules.players
        state = random_game(rules, seed, first)
        assert state.is_over
        rec = json_round_trip(baptisten_record(state, names, seed=seed))
        assert rec["first"] == first
        assert len(rec["deals"]) == len(rules.schedule())
        replayed = replay(rec)
        assert isinstance(replayed, BaptistenState)
        assert replayed.is_over
        assert replayed.totals == state.totals
        assert scoresheet(replayed, names) == scoresheet(state, names)
        assert record_result(replayed) == rec["result"]
        assert [str(a) for a in replayed.history] == rec["actions"]
        # the record of the replay is the same record: deals and actions are canonical
        assert json_round_trip(baptisten_record(replayed, names, seed=seed)) == rec


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(CONFIGS))
def test_round_trip_property(seed: int, rules_text: str) -> None:
    rules = BaptistenRules.parse(rules_text)
    state = random_game(rules, seed, seed % rules.players)
    rec = json_round_trip(baptisten_record(state, NAMES[:rules.players]))
    assert "seed" not in rec
    assert verify(rec).outcome() == state.outcome()


@pytest.mark.parametrize("stop", [0, 4, 17])
def test_unfinished_game_has_null_result(stop: int) -> None:
    rules = BaptistenRules(players=3, max_cards=3)
    state = random_game(rules, 6, stop=stop)
    rec = json_round_trip(baptisten_record(state, NAMES[:3]))
    assert rec["result"] is None
    assert len(rec["actions"]) == stop
    assert len(rec["deals"]) == 5  # every round's deal, also those still to come
    again = replay_baptisten(rec)
    assert (again.round_no, again.to_move, again.phase) == (state.round_no, state.to_move,
                                                           state.phase)
    assert again.sheet == state.sheet


def test_record_fields(good_record: dict[str, Any]) -> None:
    rec = good_record
    assert rec["format"] == FORMAT == "stich-record/1"
    assert rec["game"] == "baptisten"
    assert rec["rules"] == "baptisten(preset=default,players=3,max_cards=3)"
    assert rec["players"] == ["Ann", "Ben", "Cid"]
    assert rec["first"] == 0
    assert rec["seed"] == 6
    state = BaptistenState.new(BaptistenRules(players=3, max_cards=3), seed=6)
    deck = state.deck
    for deal, stored in zip(state.deals, rec["deals"], strict=True):
        assert stored["hands"] == [deck.format(h) for h in deal.hands]
        assert stored["trump"] == deck.cards[deal.trump_card].code
    assert set(rec["result"]) == {"rounds", "ranking"}
    sheet = scoresheet(random_game(BaptistenRules(players=3, max_cards=3), 6), rec["players"])
    assert rec["result"] == {k: v for k, v in sheet.items() if k not in ("rules", "players")}
    assert rec["actions"][:4] == ["bid 1 stake 17", "bid 0 stake 6", "bid 1 stake 12", "B4"]


def test_doubled_deck_hands_name_both_copies() -> None:
    rules = BaptistenRules.parse("baptisten(players=8,max_cards=8,deck=skat-double)")
    rec = record_of(rules, 1)
    middle = rec["deals"][7]  # 8 × 8 = 64: the whole doubled deck is dealt
    codes = " ".join(middle["hands"]).split()
    assert len(codes) == 64
    assert all(codes.count(c) == 2 for c in codes)
    # the trump card was drawn before the deal and shuffled back: a hand holds it
    assert middle["trump"] in codes
    assert replay(rec).is_over


def test_forehead_rounds_record_the_card_played() -> None:
    rules = BaptistenRules.parse("baptisten(players=3,max_cards=2,variants=2)")
    state = BaptistenState.new(rules, seed=3)
    for text in ("bid 0 stake 1", "bid 0 stake 2", "bid 1 stake 3", "play", "play", "play"):
        state = state.apply_text(text)
    rec = json_round_trip(baptisten_record(state, NAMES[:3]))
    hands = rec["deals"][0]["hands"]
    assert rec["actions"][3:6] == hands  # the real cards, not 'play'
    assert replay(rec).sheet == state.sheet


def test_players_must_match_the_rules() -> None:
    state = BaptistenState.new(BaptistenRules(players=3, max_cards=3), seed=1)
    with pytest.raises(ValueError, match="3 players"):
        baptisten_record(state, ["Ann", "Ben"])


def test_docs_example_is_current() -> None:
    """The Baptistenskat example in docs/records.md is the record of seed 6."""
    doc = Path(__file__).resolve().parents[1] / "docs" / "records.md"
    text = doc.read_text(encoding="utf-8")
    section = text.index("## Baptistenskat")
    start = text.index("```json\n", section) + len("```json\n")
    example = json.loads(text[start:text.index("```", start)])
    assert example == record_of(BaptistenRules(players=3, max_cards=3), 6)


# --- replay errors (library) ----------------------------------------------------------


def test_illegal_action_names_index_and_reason(good_record: dict[str, Any]) -> None:
    rec = damaged(good_record, 3, "R1")  # Ann's only card is B4
    with pytest.raises(RecordError) as err:
        replay(rec)
    assert str(err.value) == f"action 3 (R1): {engine_refusal(rec, 3)}"
    assert engine_refusal(rec, 3) == "seat 1 does not hold R1"  # the seat is named


@pytest.mark.parametrize(
    ("index", "text", "reason"),
    [
        (0, "bid 2 stake 5", "a bid is 0..1 tricks in a round with 1 card"),
        (0, "bid 1 stake 40", "no 40 in a round with 1 or 2 cards"),
        (0, "bid 1 stake 21", "a stake is 1..20 points, or 40"),
        (0, "bid 1", "seat 1 must say a stake too"),
        (0, "B4", "it is time to bid"),
        (3, "bid 1 stake 5", "it is time to play a card"),
        (3, "banana", "unknown card 'banana' in the elferraus deck"),
        (16, "bid 3 stake 5", "the stake is 40"),  # round 3 is the only one with 3 cards
        (19, "B6", "seat 1 must follow green: seat 1 holds G16 G19"),
        (42, "bid 0 stake 1", "the game is over"),
    ],
)
def test_illegal_actions(good_record: dict[str, Any], index: int, text: str,
                         reason: str) -> None:
    rec = copy.deepcopy(good_record)
    if index == len(rec["actions"]):
        rec["actions"].append(text)
    else:
        rec["actions"][index] = text
    with pytest.raises(RecordError) as err:
        replay(rec)
    message = str(err.value)
    assert message.startswith(f"action {index} ({text}): ")
    assert reason.lower() in message.lower()


def test_hook_rule_is_reported(good_record: dict[str, Any]) -> None:
    # round 3 (3 cards): Cid bids 1; if Ann bids 2, Ben may not bid 0
    rec = damaged(good_record, 16, "bid 2 stake 40")
    with pytest.raises(RecordError,
                       match=r"action 17 \(bid 0 stake 40\): the bids may not add up to 3"):
        replay(rec)


def test_wrong_stored_result(good_record: dict[str, Any]) -> None:
    rec = copy.deepcopy(good_record)
    rec["result"]["rounds"][4]["entries"][0]["score"] = -13
    with pytest.raises(RecordError, match=r"^wrong stored result: "
                                          r"rounds\[4\]\.entries\[0\]\.score: stored -13, "
                                          r"replayed 13$"):
        replay(rec)
    assert replay(rec, check_result=False).totals == (6, 69, -10)


def test_wrong_stored_ranking(good_record: dict[str, Any]) -> None:
    rec = copy.deepcopy(good_record)
    rec["result"]["ranking"] = rec["result"]["ranking"][:2]
    with pytest.raises(RecordError, match=r"wrong stored result: ranking: stored \[.*\], "
                                          r"replayed \[.*\]"):
        replay(rec)


def test_many_differences_are_counted(good_record: dict[str, Any]) -> None:
    rec = copy.deepcopy(good_record)
    for rnd in rec["result"]["rounds"]:
        for entry in rnd["entries"]:
            entry["total"] += 1
    with pytest.raises(RecordError, match=r"^wrong stored result in 15 fields, the first 8 of "
                                          r"them: rounds\[0\]\.entries\[0\]\.total: stored -16, "
                                          r"replayed -17; .*; rounds\[2\]\.entries\[1\]\.total: "
                                          r"stored 57, replayed 56$"):
        replay(rec)


def test_result_stored_for_an_unfinished_game(good_record: dict[str, Any]) -> None:
    rec = copy.deepcopy(good_record)
    del rec["actions"][-1]
    with pytest.raises(RecordError, match="not over after 41 actions"):
        replay(rec)


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("rules",), "baptisten(preset=nope)", "unknown baptistenskat preset"),
        (("rules",), "baptisten(players=2)", "at least 3 players"),
        (("first",), 3, "'first' is a seat 0..2, not 3"),
        (("first",), "0", "'first' is a seat 0..2, not \"0\""),
        (("deals",), {}, "one deal per round"),
        (("deals", 4), "G12 R8 R17", "round 5: a deal is an object"),
        (("deals", 0, "hands"), "B4 B6 Y20", "round 1: 'hands' is a list"),
        (("deals", 0, "hands", 1), 17, "card codes in one string"),
        (("deals", 0, "hands", 1), "B6 B7", "round 1: seat 2 has 2 cards, not 1"),
        (("deals", 0, "hands", 1), "B4", "round 1: b4 is dealt more often than the deck"),
        (("deals", 0, "hands", 1), "Q9", "round 1: unknown card 'q9'"),
        (("deals", 0, "trump"), "B6", "round 1: the turned trump card was dealt"),
        (("deals", 0, "trump"), None, "the trump card is a card code"),
        (("actions",), "bid 1 stake 17", "must be a list"),
        (("result",), "won", "must be a json object"),
        (("game",), "doppelkopf", "unknown game"),
        (("format",), "stich-record/99", "unknown record format"),
    ],
)
def test_malformed_records(good_record: dict[str, Any], path: tuple[Any, ...], value: Any,
                           message: str) -> None:
    rec = copy.deepcopy(good_record)
    target = rec
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(RecordError) as err:
        replay(rec)
    assert message.lower() in str(err.value).lower()


@pytest.mark.parametrize("field", ["deals", "first", "rules"])
def test_missing_field(good_record: dict[str, Any], field: str) -> None:
    rec = copy.deepcopy(good_record)
    del rec[field]
    with pytest.raises(RecordError, match=f"bad record header: missing field '{field}'"):
        replay(rec)


def test_missing_round_and_deal_fields(good_record: dict[str, Any]) -> None:
    rec = copy.deepcopy(good_record)
    del rec["deals"][-1]
    with pytest.raises(RecordError, match="5 rounds need 5 deals, not 4"):
        replay(rec)
    rec = copy.deepcopy(good_record)
    del rec["deals"][2]["trump"]
    with pytest.raises(RecordError, match="round 3: missing field 'trump'"):
        replay(rec)


def test_replay_for_one_game_refuses_the_other(good_record: dict[str, Any]) -> None:
    skat = json_round_trip(skat_record(SkatState.new(SkatRules(), seed=1)))
    with pytest.raises(RecordError, match="a baptisten record, not a Skat record"):
        replay_skat(good_record)
    with pytest.raises(RecordError, match="a skat record, not a Baptistenskat record"):
        replay_baptisten(skat)
    assert isinstance(replay(skat), SkatState)
    assert isinstance(replay(good_record), BaptistenState)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 90) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                max_size=3),
    max_leaves=6,
)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["format", "game", "rules", "first", "deals", "actions", "result"]),
       st.sampled_from([(), (0,), (2, "hands"), (2, "trump"), (1, "hands", 0), (5,),
                        ("rounds",), ("ranking", 0)]),
       json_values)
def test_any_damage_is_a_record_error(field: str, sub: tuple[Any, ...], value: Any) -> None:
    rec = record_of(BaptistenRules(players=3, max_cards=3), 6)
    target: Any = rec
    keys = (field, *sub)
    for key in keys[:-1]:
        try:
            target = target[key]
        except (KeyError, IndexError, TypeError):
            return
    if not isinstance(target, dict | list):
        return
    try:
        target[keys[-1]] = value
    except (IndexError, TypeError):
        return
    with contextlib.suppress(RecordError):
        replay(rec)


# --- stich replay ---------------------------------------------------------------------


def test_cli_prints_the_scoresheet(tmp_path: Path, good_record: dict[str, Any]) -> None:
    result = runner.invoke(app, ["replay", str(write(tmp_path, good_record))])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == good_record["result"]


def test_cli_illegal_action_exits_1(tmp_path: Path, good_record: dict[str, Any]) -> None:
    path = write(tmp_path, damaged(good_record, 19, "B6"))
    result = runner.invoke(app, ["replay", "--lang", "en", str(path)])
    assert result.exit_code == 1
    assert (f"{path}: action 19 (B6): seat 1 must follow green: seat 1 holds G16 G19"
            in result.stderr)
    assert result.stdout == ""
    assert "Traceback" not in result.output


def test_cli_wrong_result_exits_1(tmp_path: Path, good_record: dict[str, Any]) -> None:
    rec = copy.deepcopy(good_record)
    rec["result"]["ranking"][0]["place"] = 2
    result = runner.invoke(app, ["replay", "--lang", "en", str(write(tmp_path, rec))])
    assert result.exit_code == 1
    assert "wrong stored result: ranking[0].place: stored 2, replayed 1" in result.stderr


def test_cli_file_mixing_both_games(tmp_path: Path, good_record: dict[str, Any]) -> None:
    state = SkatState.new(SkatRules(), seed=43)
    rng = random.Random(43)
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
    skat = json_round_trip(skat_record(state, ["Ann", "Ben", "Cid"], seed=43))
    lines = tmp_path / "games.jsonl"
    lines.write_text(json.dumps(skat) + "\n" + json.dumps(good_record) + "\n",
                     encoding="utf-8")
    result = runner.invoke(app, ["replay", str(lines)])
    assert result.exit_code == 0, result.output
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert out == [skat["result"], good_record["result"]]
    # a bad Baptistenskat record among good ones: its index in the file and the reason
    bad = damaged(good_record, 3, "R1")
    lines.write_text("\n".join(json.dumps(r) for r in (skat, bad, good_record)),
                     encoding="utf-8")
    result = runner.invoke(app, ["replay", "--lang", "en", str(lines)])
    assert result.exit_code == 1
    assert len(result.stdout.splitlines()) == 2
    assert result.stderr == (f"error: {lines}, record 1 (line 2): action 3 (R1): "
                             f"{engine_refusal(bad, 3)}\n")


# --- the header is checked ------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("players", ["Ann", "Ben"], "bad record header: this game has 3 players, but "
                                    "'players' names 2"),
        ("players", NAMES[:4], "this game has 3 players, but 'players' names 4"),
        ("players", {"Ann": 0}, "'players' is a list of names (strings) by seat, not an "
                                "object"),
        ("seed", "6", "bad record header: 'seed' is a whole number, not \"6\""),
        ("seed", 6.0, "'seed' is a whole number, not 6.0"),
        ("seed", False, "'seed' is a whole number, not false"),
        ("first", True, "bad record header: 'first' is a seat 0..2, not true"),
        ("first", -1, "'first' is a seat 0..2, not -1"),
        ("rules", ["baptisten"], "bad record header: 'rules' is a rule string such as "
                                 "\"baptisten(preset=default)\", not a list of 1 item"),
    ],
)
def test_header_fields_are_checked(good_record: dict[str, Any], field: str, value: Any,
                                   message: str) -> None:
    rec = copy.deepcopy(good_record)
    rec[field] = value
    with pytest.raises(RecordError) as err:
        replay(rec)
    assert message in str(err.value)


def test_players_by_the_rules(good_record: dict[str, Any]) -> None:
    """A record of five players names five."""
    rec = record_of(BaptistenRules(players=5, max_cards=2), 3)
    assert replay(rec).is_over
    rec["players"] = rec["players"][:3]
    with pytest.raises(RecordError, match="this game has 5 players, but 'players' names 3"):
        replay(rec)


def test_many_differences_end_in_a_whole_sentence(good_record: dict[str, Any]) -> None:
    rec = copy.deepcopy(good_record)
    for entry in rec["result"]["rounds"][4]["entries"]:
        entry["score"] += 1
        entry["total"] += 1
    rec["result"]["ranking"][0]["total"] += 1
    rec["result"]["ranking"][2]["total"] += 1
    rec["result"]["ranking"][1]["total"] += 1
    with pytest.raises(RecordError) as err:
        replay(rec)
    message = str(err.value)
    assert message.startswith("wrong stored result in 9 fields, the first 8 of them: "
                              "rounds[4].entries[0].score: stored 14, replayed 13; ")
    assert message.endswith("; ranking[1].total: stored 7, replayed 6")
    assert message.count(": stored ") == 8
    assert "more" not in message
    assert err.value.text("de").startswith("falsches gespeichertes Ergebnis in 9 Feldern, "
                                           "die ersten 8 davon: ")
