"""Reading record files (damaged, cut off, missing, not records at all) and what
`stich replay` says about them, in English and German."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from stich.baptisten import BaptistenRules, BaptistenState
from stich.cli import app
from stich.core import RecordError
from stich.record import baptisten_record, load_records, read_records, skat_record
from stich.skat import SkatRules, SkatState

runner = CliRunner()
PLAYERS = ["Ann", "Ben", "Cid"]


def skat_game(seed: int) -> dict[str, Any]:
    state = SkatState.new(SkatRules(), seed=seed)
    rng = random.Random(seed)
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
    data: dict[str, Any] = json.loads(json.dumps(skat_record(state, PLAYERS, seed=seed)))
    return data


RECORDS = [skat_game(seed) for seed in (43, 44, 45, 46)]


def replay_cli(path: Path, *lang: str) -> Any:
    return runner.invoke(app, ["replay", *lang, str(path)])


def results(stdout: str) -> list[Any]:
    return [json.loads(line) for line in stdout.splitlines()]


# --- a file cut off in the middle of a record -----------------------------------------


def test_cut_off_json_lines_replays_the_complete_records(tmp_path: Path) -> None:
    text = "".join(json.dumps(r) + "\n" for r in RECORDS)
    path = tmp_path / "games.jsonl"
    path.write_text(text[:text.rindex("\n", 0, len(text) - 1) + 40], encoding="utf-8")
    result = replay_cli(path, "--lang", "en")
    assert results(result.stdout) == [r["result"] for r in RECORDS[:3]]
    assert result.stderr == (f"error: {path} is cut off: it ends in the middle of record 3 "
                             f"(line 4)\n")
    assert result.exit_code == 1
    german = replay_cli(path)
    assert german.stderr == (f"Fehler: {path} ist abgeschnitten: die Datei endet mitten in "
                             f"Protokoll 3 (Zeile 4)\n")
    assert results(german.stdout) == results(result.stdout)


def test_cut_off_json_list_replays_the_complete_records(tmp_path: Path) -> None:
    text = json.dumps(RECORDS, indent=2)
    start = text.index('"format"', text.index('"format"', text.index('"format"') + 1) + 1)
    line = text.count("\n", 0, start)  # record 2's "{" stands on the line before
    path = tmp_path / "games.json"
    path.write_text(text[:start + 300], encoding="utf-8")
    rf = read_records(path)
    assert rf.records == RECORDS[:2]
    assert [e.code for e in rf.problems] == ["records.truncated"]
    assert str(rf.problems[0]) == (f"{path} is cut off: it ends in the middle of record 2 "
                                   f"(line {line})")
    result = replay_cli(path, "--lang", "en")
    assert results(result.stdout) == [r["result"] for r in RECORDS[:2]]
    assert "cut off" in result.stderr
    assert result.exit_code == 1


def test_list_cut_after_a_whole_record(tmp_path: Path) -> None:
    text = json.dumps(RECORDS[:3])
    path = tmp_path / "games.json"
    path.write_text(text[:text.index("}, {", text.index("}, {") + 1) + 2], encoding="utf-8")
    rf = read_records(path)
    assert rf.records == RECORDS[:2]
    assert [str(e) for e in rf.problems] == [
        f"{path} is cut off: it ends in line 1, before the list of records is closed"]


def test_one_record_cut_off(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text("\n" + json.dumps(RECORDS[0], indent=1)[:500], encoding="utf-8")
    result = replay_cli(path, "--lang", "en")
    assert result.stdout == ""
    assert result.stderr == (f"error: {path} is cut off: it ends in the middle of its "
                             f"record, which begins in line 2\n")
    assert result.exit_code == 1


@settings(max_examples=60, deadline=None)
@given(st.booleans(), st.data())
def test_any_cut_keeps_every_complete_record(as_list: bool, data: st.DataObject) -> None:
    """Wherever a copy stops, the records that end before the cut are read, unchanged,
    and exactly one problem says the file is cut off."""
    if as_list:
        parts = [json.dumps(r, indent=1) for r in RECORDS]
        text = "[\n" + ",\n".join(parts) + "\n]\n"
    else:
        text = "".join(json.dumps(r) + "\n" for r in RECORDS)
    ends, pos = [], 0
    for r in RECORDS:
        pos = text.index(json.dumps(r, indent=1) if as_list else json.dumps(r), pos)
        pos += len(json.dumps(r, indent=1) if as_list else json.dumps(r))
        ends.append(pos)
    cut = data.draw(st.integers(3, ends[-1] - 1))
    complete = sum(end <= cut for end in ends)
    rf = _read_text(text[:cut])
    assert rf.records == RECORDS[:complete]
    if not as_list and any(cut in (end, end + 1) for end in ends):
        # JSON lines cut right after a record (or its line's end): a whole file of fewer
        # records, nothing tells it was cut (hypothesis found the cut at 1,840)
        assert rf.problems == []
        return
    assert len(rf.problems) == 1
    assert "cut off" in str(rf.problems[0])


def _read_text(text: str) -> Any:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "cut.json"
        path.write_text(text, encoding="utf-8")
        return read_records(path)


def test_damaged_line_in_the_middle_of_json_lines(tmp_path: Path) -> None:
    lines = [json.dumps(r) for r in RECORDS[:3]]
    lines[1] = lines[1].replace('"game": "skat",', '"game" "skat",')
    path = tmp_path / "games.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = replay_cli(path, "--lang", "en")
    assert results(result.stdout) == [RECORDS[0]["result"], RECORDS[2]["result"]]
    column = lines[1].index('"game" "skat"') + len('"game" ') + 1  # at "skat"
    assert result.stderr == (f"error: record 1 in {path} is not JSON: a colon is expected "
                             f"in line 2, column {column}\n")
    assert result.exit_code == 1


def test_damaged_list_keeps_the_records_before(tmp_path: Path) -> None:
    text = json.dumps(RECORDS[:3], indent=2)
    second = text.index('"rules"', text.index('"rules"') + 1)
    text = text[:second] + text[second:].replace('lothar)",', 'lothar)"', 1)
    path = tmp_path / "games.json"
    path.write_text(text, encoding="utf-8")
    rf = read_records(path)
    assert rf.records == RECORDS[:1]
    line = text.count("\n", 0, second) + 2  # the field after "rules"
    assert [str(e) for e in rf.problems] == [
        f"record 1 in {path} is not JSON: a comma is expected in line {line}, column 5; "
        f"the records after it are not read"]


def test_strict_load_refuses_a_damaged_file(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(RECORDS[0]) + "\n" + json.dumps(RECORDS[1])[:99],
                    encoding="utf-8")
    with pytest.raises(RecordError, match="cut off: it ends in the middle of record 1"):
        load_records(path)


# --- messages are whole sentences -----------------------------------------------------


@pytest.mark.parametrize(
    ("content", "en", "de"),
    [
        ('{"game": "sk\nat"}\n',
         "is not JSON: a control character such as a line break stands inside a string in "
         "line 1, column 13",
         "ist kein JSON: ein Steuerzeichen wie ein Zeilenumbruch steht in einer "
         "Zeichenkette in Zeile 1, Spalte 13"),
        ('{"game": "skat"} {"game": "skat"}',
         "is not JSON: more follows after the end of the JSON value in line 1, column 18",
         "ist kein JSON: nach dem Ende des JSON-Werts folgt noch mehr in Zeile 1, "
         "Spalte 18"),
        ('{\n  "game": "skat",\n  "rules": lothar\n}\n',
         "is not JSON: a JSON value is expected in line 3, column 12",
         "ist kein JSON: ein JSON-Wert wird erwartet in Zeile 3, Spalte 12"),
        ('{"game": "\\q"}', "is not JSON: a backslash starts no valid escape in line 1, "
         "column 11", "ist kein JSON: ein Backslash beginnt keine gültige Escape-Sequenz"),
    ],
)
def test_json_errors_are_whole_sentences(tmp_path: Path, content: str, en: str,
                                         de: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    english = replay_cli(path, "--lang", "en")
    assert english.stderr == f"error: {path} {en}\n"
    assert english.exit_code == 1
    assert f"Fehler: {path} {de}" in replay_cli(path).stderr


# --- a file that cannot be read -------------------------------------------------------


def test_missing_file_says_so(tmp_path: Path) -> None:
    path = tmp_path / "games.json"
    result = replay_cli(path, "--lang", "en")
    assert result.stderr == f"error: there is no file {path}\n"
    assert result.exit_code == 1
    assert isinstance(result.exception, SystemExit)
    assert replay_cli(path).stderr == f"Fehler: die Datei {path} gibt es nicht\n"


def test_folder_instead_of_a_file(tmp_path: Path) -> None:
    result = replay_cli(tmp_path, "--lang", "en")
    assert result.stderr == f"error: {tmp_path} is a folder, not a file\n"
    assert result.exit_code == 1
    assert replay_cli(tmp_path).stderr == f"Fehler: {tmp_path} ist ein Ordner, keine Datei\n"


def test_no_permission(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "games.json"
    path.write_text(json.dumps(RECORDS[0]), encoding="utf-8")

    def refuse(self: Path) -> bytes:
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "read_bytes", refuse)  # root may read anything: pretend
    result = replay_cli(path, "--lang", "en")
    assert result.stderr == f"error: the file {path} may not be read (no permission)\n"
    assert result.exit_code == 1
    assert replay_cli(path).stderr == (f"Fehler: die Datei {path} darf nicht gelesen werden "
                                       f"(keine Berechtigung)\n")


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "games.json"
    path.write_bytes(b'{"game": "sk\xffat"}')
    result = replay_cli(path, "--lang", "en")
    assert result.stderr == f"error: {path} is not a UTF-8 text file: byte 12 is not UTF-8\n"


# --- files and JSON that are not game records -----------------------------------------


def test_scoresheet_is_named(tmp_path: Path) -> None:
    played = runner.invoke(app, ["play", "baptisten", "--bots", "3", "--players", "3",
                                 "--max-cards", "2", "--seed", "3", "--json"])
    assert played.exit_code == 0, played.output
    path = tmp_path / "sheet.json"
    path.write_text(played.stdout, encoding="utf-8")
    result = replay_cli(path, "--lang", "en")
    assert result.exit_code == 1
    assert result.stderr == (
        f"error: {path}: this is a Baptistenskat scoresheet (stich play baptisten --json), "
        "not a game record: it holds the scores but neither the deals nor the cards "
        "played, so it cannot be replayed; stich replay reads game records "
        "(docs/records.md)\n")
    assert "Baptistenskat-Anschreibezettel" in replay_cli(path).stderr


def test_replay_output_is_named(tmp_path: Path) -> None:
    """What `stich replay` prints is a result, not a record: replaying it says so."""
    state = BaptistenState.new(BaptistenRules(players=3, max_cards=2), seed=1)
    rng = random.Random(1)
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
    source = tmp_path / "games.jsonl"
    source.write_text(json.dumps(RECORDS[0]) + "\n"
                      + json.dumps(baptisten_record(state, PLAYERS)) + "\n",
                      encoding="utf-8")
    printed = replay_cli(source)
    assert printed.exit_code == 0, printed.output
    out = tmp_path / "out.jsonl"
    out.write_text(printed.stdout, encoding="utf-8")
    result = replay_cli(out, "--lang", "en")
    lines = result.stderr.splitlines()
    assert lines[0].startswith(f"error: {out}, record 0 (line 1): this is the result of a "
                               f"Skat game as stich replay prints it, not a game record")
    assert lines[1].startswith(f"error: {out}, record 1 (line 2): this is the result of a "
                               f"Baptistenskat game as stich replay prints it")


def test_analysis_is_named(tmp_path: Path) -> None:
    source = tmp_path / "game.json"
    source.write_text(json.dumps(RECORDS[0]), encoding="utf-8")
    analysed = runner.invoke(app, ["analyze", str(source), "--json"])
    assert analysed.exit_code == 0, analysed.output
    path = tmp_path / "analysis.json"
    path.write_text(analysed.stdout, encoding="utf-8")
    result = replay_cli(path, "--lang", "en")
    assert f"{path}: this is an analysis of a Skat game (stich analyze --json)" in result.stderr


def test_iss_file_is_named(tmp_path: Path) -> None:
    source = Path(__file__).parent / "data" / "validation" / "iss" / "jskat-examples.sgf"
    path = tmp_path / "games.sgf"
    path.write_bytes(source.read_bytes())
    result = replay_cli(path, "--lang", "en")
    assert result.stderr == (f"error: {path} holds game records of the International Skat "
                             f"Server, not stich records: check them with stich iss verify "
                             f"{path}\n")
    assert result.exit_code == 1


def test_solver_positions_are_named(tmp_path: Path) -> None:
    source = Path(__file__).parent / "data" / "null_positions.txt"
    result = replay_cli(source, "--lang", "en")
    assert result.stderr.startswith(f"error: {source} holds solver positions")
    assert f"stich solve {source}" in result.stderr


def test_object_without_game(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text('{"format": "stich-record/1", "rules": "lothar"}', encoding="utf-8")
    result = replay_cli(path, "--lang", "en")
    assert result.stderr == (f"error: {path}: this JSON object is not a game record: it has "
                             f"no field 'game' (skat or baptisten); stich replay reads game "
                             f"records (docs/records.md)\n")


def test_damaged_first_line_of_json_lines(tmp_path: Path) -> None:
    lines = [json.dumps(r) for r in RECORDS[:2]]
    path = tmp_path / "games.jsonl"
    path.write_text(lines[0][:-1] + ",\n" + lines[1] + "\n", encoding="utf-8")
    rf = read_records(path)
    assert rf.records == RECORDS[1:2]
    assert [str(e) for e in rf.problems] == [
        f"record 0 in {path} is not JSON: a field name in double quotes is expected in "
        f"line 1, column {len(lines[0]) + 1}"]


def test_record_spread_over_lines_is_one_document(tmp_path: Path) -> None:
    """A record written over several lines, with a nested line that is a JSON object on
    its own, is still one damaged document, not a file of one record per line."""
    path = tmp_path / "game.json"
    path.write_text('{\n"format": "stich-record/1",\n"result":\n{"kind": "passed", '
                    '"scores": [0, 0, 0]}\n"game": "skat"\n}\n', encoding="utf-8")
    rf = read_records(path)
    assert rf.records == []
    assert [str(e) for e in rf.problems] == [
        f"{path} is not JSON: a comma is expected in line 5, column 1"]


# --- the catalogue --------------------------------------------------------------------


def test_every_records_code_is_defined_in_both_languages() -> None:
    """A code that is not in the catalogue would silently become free text during the
    conversion: every code the record modules use is defined, with the same parameters
    in English and German."""
    import re as regex

    from stich.messages import CATALOGUE, placeholders, render

    src = Path(__file__).resolve().parents[1] / "src" / "stich"
    used = set()
    for name in ("record.py", "record_file.py", "record_header.py"):
        used |= set(regex.findall(r'"(records\.[a-z_]+)"', (src / name).read_text()))
    render("records.empty", {"file": "x"})  # loads the catalogue
    defined = {code for code in CATALOGUE if code.startswith("records.")}
    assert used and used <= defined
    for code in defined:
        texts = CATALOGUE[code]
        assert placeholders(texts["en"]) == placeholders(texts["de"]), code
