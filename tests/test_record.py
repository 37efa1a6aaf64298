"""Game records: round trips through JSON, and `stich replay` on good and bad records."""

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

from stich.cards import format_cards
from stich.cli import app
from stich.core import IllegalActionError, RecordError
from stich.messages import Msg
from stich.record import FORMAT, load_records, replay, skat_record, verify
from stich.skat import SkatRules, SkatState

runner = CliRunner()
PLAYERS = ["Ann", "Ben", "Cid"]


def random_game(rules: SkatRules, seed: int) -> SkatState:
    state = SkatState.new(rules, seed=seed)
    rng = random.Random(seed)
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
    return state


def json_round_trip(record: dict[str, Any]) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(json.dumps(record))
    return data


@pytest.fixture
def good_record() -> dict[str, Any]:
    # seed 43 under lothar: Hinterhand picks up, discards, plays Eichel and wins 48
    return json_round_trip(skat_record(random_game(SkatRules(), 43), PLAYERS, seed=43))


def write(tmp_path: Path, data: Any, name: str = "game.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def run_replay(path: Path) -> Any:
    return runner.invoke(app, ["replay", "--lang", "en", str(path)])


def engine_refusal(record: dict[str, Any], index: int) -> str:
    """The engine's own message for refusing the record's action ``index``."""
    state = replay({**record, "actions": record["actions"][:index], "result": None})
    try:
        state.apply(state.parse_action(record["actions"][index]))
    except IllegalActionError as e:
        return str(e)
    raise AssertionError("the engine takes the action")


# --- round trips ----------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["lothar", "isko"])
def test_round_trip_of_random_games(preset: str) -> None:
    rules = SkatRules.preset(preset)
    kinds = set()
    for seed in range(60):
        state = random_game(rules, seed)
        rec = json_round_trip(skat_record(state, PLAYERS, seed=seed))
        replayed = replay(rec)
        assert replayed.is_over
        assert replayed.outcome() == state.outcome()
        assert replayed.outcome().to_dict() == rec["result"]
        assert [str(a) for a in replayed.history] == rec["actions"]
        kinds.add(rec["result"]["kind"])
    assert "game" in kinds
    if preset == "lothar":
        assert "ramsch" in kinds


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["lothar", "isko"]))
def test_round_trip_property(seed: int, preset: str) -> None:
    state = random_game(SkatRules.preset(preset), seed)
    rec = json_round_trip(skat_record(state, PLAYERS))
    assert verify(rec).outcome() == state.outcome()


def test_passed_game_round_trip() -> None:
    state = SkatState.new(SkatRules.preset("isko"), seed=5)
    for text in ("pass", "pass", "pass"):
        state = state.apply_text(text)
    assert state.is_over
    rec = json_round_trip(skat_record(state, PLAYERS))
    assert rec["result"] == {"kind": "passed", "scores": [0, 0, 0]}
    assert replay(rec).outcome() == state.outcome()


def test_record_fields(good_record: dict[str, Any]) -> None:
    rec = good_record
    assert rec["format"] == FORMAT == "stich-record/1"
    assert rec["game"] == "skat"
    assert rec["rules"] == "skat(preset=lothar)"
    assert rec["players"] == PLAYERS
    assert rec["dealer"] == 2
    assert rec["seed"] == 43
    state = SkatState.new(SkatRules(), seed=43)
    hands, skat = state.deal
    assert rec["deal"]["hands"] == [format_cards(h) for h in hands]
    assert rec["deal"]["skat"] == format_cards(skat)
    assert rec["actions"][:7] == ["18", "pass", "20", "pass", "pickup", "discard H9 HK",
                                  "declare eichel"]
    assert rec["result"]["scores"] == [0, 0, 48]


def test_unfinished_game_has_null_result() -> None:
    state = SkatState.new(seed=1).apply_text("18")
    rec = json_round_trip(skat_record(state, PLAYERS))
    assert rec["result"] is None
    assert replay(rec).to_move == 0


def test_docs_example_is_current() -> None:
    """The complete example in docs/records.md is the record of seed 43."""
    doc = Path(__file__).resolve().parents[1] / "docs" / "records.md"
    text = doc.read_text(encoding="utf-8")
    start = text.index("```json\n", text.index("## A complete example")) + len("```json\n")
    example = json.loads(text[start:text.index("```", start)])
    rec = json_round_trip(skat_record(random_game(SkatRules(), 43), PLAYERS, seed=43))
    assert example == rec


# --- replay errors (library) ----------------------------------------------------------


def test_illegal_action_names_index_and_reason(good_record: dict[str, Any]) -> None:
    rec = copy.deepcopy(good_record)
    rec["actions"][7] = "CJ"  # Vorhand's first lead: CJ is in Hinterhand's hand
    with pytest.raises(RecordError) as err:
        replay(rec)
    assert str(err.value) == f"action 7 (CJ): {engine_refusal(rec, 7)}"
    assert engine_refusal(rec, 7) == "Vorhand does not hold CJ"  # the seat is named


@pytest.mark.parametrize(
    ("index", "text", "reason"),
    [
        (0, "19", "19 is not a game value"),
        (0, "22", "next bid must be 18"),  # lothar: no jumps
        (4, "declare grand", "hand or picks up the skat"),
        (5, "discard CA CK", "Hinterhand cannot discard"),
        (6, "declare herz hand", "Hinterhand picked up the skat: no hand game"),
        (6, "declare eichel schneider", "not announced at this table"),
        (8, "banana", "cannot read action"),
    ],
)
def test_illegal_actions(good_record: dict[str, Any], index: int, text: str,
                         reason: str) -> None:
    rec = copy.deepcopy(good_record)
    rec["actions"][index] = text
    with pytest.raises(RecordError) as err:
        replay(rec)
    message = str(err.value)
    assert message.startswith(f"action {index} ({text}): ")
    assert reason.lower() in message.lower()


def test_must_follow_suit_is_reported(good_record: dict[str, Any]) -> None:
    # Eichel is trump; Vorhand leads CQ (trump).  Mittelhand holds DJ C7 CK CA: playing a
    # Schellen card instead is refused.
    rec = copy.deepcopy(good_record)
    assert rec["actions"][7:9] == ["CQ", "CA"]
    rec["actions"][8] = "D9"
    with pytest.raises(RecordError, match=r"action 8 \(D9\): Mittelhand must follow trump"):
        replay(rec)


def test_action_after_the_end(good_record: dict[str, Any]) -> None:
    rec = copy.deepcopy(good_record)
    rec["actions"].append("pass")
    with pytest.raises(RecordError, match=r"action 37 \(pass\): the game is over"):
        replay(rec)


def test_wrong_stored_result(good_record: dict[str, Any]) -> None:
    rec = copy.deepcopy(good_record)
    rec["result"]["scores"] = [0, 0, 96]
    with pytest.raises(RecordError, match=r"wrong stored result: scores: stored \[0, 0, 96\], "
                                          r"replayed \[0, 0, 48\]"):
        replay(rec)
    assert replay(rec, check_result=False).outcome().scores == (0, 0, 48)


def test_result_stored_for_an_unfinished_game(good_record: dict[str, Any]) -> None:
    rec = copy.deepcopy(good_record)
    del rec["actions"][-1]
    with pytest.raises(RecordError, match="not over after 36 actions"):
        replay(rec)


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("rules",), "skat(preset=nope)", "unknown skat preset"),
        (("deal",), None, "bad record header"),
        (("deal", "hands"), ["CJ"], "three hands"),
        (("deal", "hands", 0), 17, "card codes in one string"),
        (("deal", "skat"), "CJ", "bad record header"),
        (("actions",), "18 pass", "must be a list"),
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
    assert message in str(err.value).lower()


def test_missing_field(good_record: dict[str, Any]) -> None:
    rec = copy.deepcopy(good_record)
    del rec["deal"]
    with pytest.raises(RecordError, match="missing field 'deal'"):
        replay(rec)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                max_size=3),
    max_leaves=6,
)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["format", "game", "rules", "deal", "actions", "result", "players"]),
       st.sampled_from([(), ("hands",), ("skat",), ("hands", 1), (3,), ("scores",)]),
       json_values)
def test_any_damage_is_a_record_error(field: str, sub: tuple[Any, ...], value: Any) -> None:
    rec = json_round_trip(skat_record(random_game(SkatRules(), 43), PLAYERS))
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


# --- load_records ---------------------------------------------------------------------


def test_load_records_forms(tmp_path: Path, good_record: dict[str, Any]) -> None:
    one = write(tmp_path, good_record, "one.json")
    many = write(tmp_path, [good_record, good_record], "many.json")
    lines = tmp_path / "lines.jsonl"
    lines.write_text("\n".join(json.dumps(good_record) for _ in range(3)) + "\n",
                     encoding="utf-8")
    assert load_records(one) == [good_record]
    assert len(load_records(many)) == 2
    assert len(load_records(lines)) == 3


def test_load_records_errors(tmp_path: Path, good_record: dict[str, Any]) -> None:
    empty = tmp_path / "empty.json"
    empty.write_text("  \n", encoding="utf-8")
    with pytest.raises(RecordError, match=f"^the file {empty} is empty$"):
        load_records(empty)
    broken = tmp_path / "broken.json"
    broken.write_text('{\n  "game": "skat",\n  "rules": lothar\n}\n', encoding="utf-8")
    with pytest.raises(RecordError, match=r"is not JSON: a JSON value is expected in line 3, "
                                          r"column 12$"):
        load_records(broken)
    lines = tmp_path / "lines.jsonl"
    lines.write_text(json.dumps(good_record) + "\n{oops\n", encoding="utf-8")
    with pytest.raises(RecordError, match=r"^record 1 in .*lines.jsonl is not JSON: a field name "
                                          r"in double quotes is expected in line 2, column 2$"):
        load_records(lines)
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00\x01")
    with pytest.raises(RecordError, match="is not a UTF-8 text file: byte 0 is not UTF-8"):
        load_records(binary)


# --- stich replay ---------------------------------------------------------------------


def test_cli_good_record_prints_result_and_exits_0(tmp_path: Path,
                                                   good_record: dict[str, Any]) -> None:
    result = run_replay(write(tmp_path, good_record))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == good_record["result"]


def test_cli_illegal_action_exits_1(tmp_path: Path, good_record: dict[str, Any]) -> None:
    rec = copy.deepcopy(good_record)
    rec["actions"][7] = "CJ"
    path = write(tmp_path, rec)
    result = run_replay(path)
    assert result.exit_code == 1
    assert result.stderr == f"error: {path}: action 7 (CJ): {engine_refusal(rec, 7)}\n"
    assert result.stdout == ""
    assert "Traceback" not in result.output


def test_cli_wrong_result_exits_1(tmp_path: Path, good_record: dict[str, Any]) -> None:
    rec = copy.deepcopy(good_record)
    rec["result"]["won"] = False
    path = write(tmp_path, rec)
    result = run_replay(path)
    assert result.exit_code == 1
    assert result.stderr == (f"error: {path}: wrong stored result: won: stored false, "
                             f"replayed true\n")


def test_cli_several_records(tmp_path: Path, good_record: dict[str, Any]) -> None:
    bad = copy.deepcopy(good_record)
    bad["actions"][0] = "19"
    lines = tmp_path / "games.jsonl"
    lines.write_text("\n".join(json.dumps(r) for r in (good_record, bad, good_record)),
                     encoding="utf-8")
    result = run_replay(lines)
    assert result.exit_code == 1
    assert len(result.stdout.splitlines()) == 2  # the two good results
    assert result.stderr.startswith(f"error: {lines}, record 1 (line 2): action 0 (19): 19 is "
                                    f"not a game value")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"this is not a record\n", "is not JSON: a JSON value is expected in line 1, column 1"),
        (b'{"game": "skat", ', "is cut off: it ends in the middle of its record"),
        (b"", "is empty"),
        (b'"just a string"', "a record is a JSON object, not a string"),
        (b"[1, 2]", "record 1 (line 1): a record is a JSON object, not a number"),
        (b"[[]]", "a record is a JSON object, not a list of 0 items"),
        (b"\xff\xfe\x00", "is not a UTF-8 text file"),
    ],
)
def test_cli_unreadable_files(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    result = run_replay(path)
    assert result.exit_code == 1
    assert message in result.stderr
    assert "Traceback" not in result.output
    assert isinstance(result.exception, SystemExit)


def test_cli_missing_file(tmp_path: Path) -> None:
    result = run_replay(tmp_path / "nope.json")
    assert result.exit_code == 1
    assert result.stderr == f"error: there is no file {tmp_path / 'nope.json'}\n"
    assert isinstance(result.exception, SystemExit)


# --- the record layer carries the engine's refusal, about the seat by name ------------


def test_engine_refusal_is_carried_unchanged(good_record: dict[str, Any]) -> None:
    rec = copy.deepcopy(good_record)
    rec["actions"][7] = "CJ"  # Vorhand's first lead: CJ is in Hinterhand's hand
    state = replay({**rec, "actions": rec["actions"][:7], "result": None})
    with pytest.raises(IllegalActionError) as engine:  # the engine's words, whatever they are
        state.apply(state.parse_action("CJ"))
    with pytest.raises(RecordError) as err:
        replay(rec)
    assert err.value.code == "records.action"
    assert err.value.params["reason"] == Msg.of(engine.value)
    assert str(err.value) == f"action 7 (CJ): {engine.value}"
    assert err.value.text("de") == f"Aktion 7 (CJ): {engine.value.text('de')}"


def test_must_follow_names_the_seat_in_both_languages(tmp_path: Path,
                                                      good_record: dict[str, Any]) -> None:
    rec = copy.deepcopy(good_record)
    rec["actions"][8] = "D9"  # Mittelhand holds DJ C7 CK CA and must follow trump
    path = write(tmp_path, [good_record, rec], "games.json")
    result = runner.invoke(app, ["replay", "--lang", "en", str(path)])
    assert result.stderr == (f"error: {path}, record 1 (line 1): action 8 (D9): Mittelhand "
                             f"must follow trump: Mittelhand holds DJ C7 CK CA\n")
    german = runner.invoke(app, ["replay", str(path)])
    assert german.stderr == (f"Fehler: {path}, Protokoll 1 (Zeile 1): Aktion 8 (D9): "
                             f"Mittelhand muss Trumpf bedienen: Mittelhand hat DJ C7 CK CA\n")
    assert german.exit_code == 1
    assert json.loads(german.stdout) == good_record["result"]


# --- the header is checked ------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("dealer", 5, "bad record header: 'dealer' is 2 (Hinterhand, position 2, deals), "
                      "not 5"),
        ("dealer", -1, "not -1"),
        ("dealer", 0, "not 0"),
        ("dealer", "Cid", 'not "Cid"'),
        ("dealer", True, "not true"),
        ("players", ["Ann", "Ben"], "bad record header: this game has 3 players, but "
                                    "'players' names 2"),
        ("players", ["Ann", "Ben", "Cid", "Dan"], "but 'players' names 4"),
        ("players", "Ann Ben Cid", "'players' is a list of names (strings) by seat, "
                                   'not "Ann Ben Cid"'),
        ("players", ["Ann", 7, "Cid"], "player 1 in 'players' is a name (a string), not 7"),
        ("seed", "abc", "bad record header: 'seed' is a whole number, not \"abc\""),
        ("seed", 1.5, "'seed' is a whole number, not 1.5"),
        ("seed", True, "'seed' is a whole number, not true"),
        ("seed", [1], "'seed' is a whole number, not a list of 1 item"),
        ("rules", 5, "bad record header: 'rules' is a rule string such as "
                     "\"skat(preset=lothar)\", not 5"),
        ("deal", [], "bad record header: 'deal' is an object with 'hands' (three hands) and "
                     "'skat'"),
    ],
)
def test_header_fields_are_checked(good_record: dict[str, Any], field: str, value: Any,
                                   message: str) -> None:
    rec = copy.deepcopy(good_record)
    rec[field] = value
    with pytest.raises(RecordError) as err:
        replay(rec)
    assert message in str(err.value)


def test_optional_header_fields(good_record: dict[str, Any]) -> None:
    rec = copy.deepcopy(good_record)
    del rec["seed"], rec["players"], rec["dealer"]
    assert replay(rec).outcome().scores == (0, 0, 48)


def test_action_must_be_a_text(good_record: dict[str, Any]) -> None:
    rec = copy.deepcopy(good_record)
    rec["actions"][2] = {"bid": 20}
    with pytest.raises(RecordError, match=r"^action 2 is written as a text, not an object$"):
        replay(rec)


def test_many_wrong_fields_are_named_in_a_whole_sentence(good_record: dict[str, Any]
                                                         ) -> None:
    rec = copy.deepcopy(good_record)
    rec["result"].update(value=96, won=False, bid=18)
    with pytest.raises(RecordError) as err:
        replay(rec)
    assert str(err.value) == ("wrong stored result: bid: stored 18, replayed 20; value: "
                              "stored 96, replayed 48; won: stored false, replayed true")
    assert err.value.text("de") == ("falsches gespeichertes Ergebnis: bid: gespeichert 18, "
                                    "nachgespielt 20; value: gespeichert 96, nachgespielt "
                                    "48; won: gespeichert false, nachgespielt true")
