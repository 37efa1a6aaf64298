"""`stich iss verify` and `stich iss export`: output in German (the default) and English,
JSON without language, records after a protocol prefix, files without records, and an
ID of its own for every exported game."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from stich.cli import app
from stich.record import skat_record
from stich.skat import SkatRules, SkatState
from stich.skat.iss import check_iss, parse_iss
from tests.skat.iss_data import ISS_FILE, LINES, modified, play_random

ISKO = SkatRules.preset("isko")
runner = CliRunner()

SHIPPED = {
    "de": [
        "übersprungen 756788: eingepasst (alle haben gepasst)",
        "übersprungen 30: Strafpunkte (Hinterhand ist gegangen; Strafpunkte 0/0/1)",
        "übersprungen 18358: verlassen (Mittelhand hat den Tisch verlassen; eine Karte "
        "ist als ?? verdeckt)",
        "11 Datensätze: 8 stimmen überein, 0 weichen ab, 3 übersprungen",
    ],
    "en": [
        "skipped 756788: passed (everybody passed)",
        "skipped 30: penalty (Hinterhand left; penalty points 0/0/1)",
        "skipped 18358: left (Mittelhand left the table; a card is hidden as ??)",
        "11 records: 8 agree, 0 disagree, 3 skipped",
    ],
}


@pytest.mark.parametrize("lang", ["de", "en"])
def test_verify_on_the_shipped_file(lang: str) -> None:
    args = ["iss", "verify", str(ISS_FILE)] + (["--lang", lang] if lang != "de" else [])
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == SHIPPED[lang]
    assert result.stderr == ""


@pytest.mark.parametrize("lang,first,last", [
    ("en", "541932: points: ours 59, theirs 60",
     "2 records: 0 agree, 1 disagree, 1 skipped"),
    ("de", "541932: Augen: bei uns 59, beim Server 60",
     "2 Datensätze: 0 stimmen überein, 1 weicht ab, 1 übersprungen"),
])
def test_verify_reports_disagreements(tmp_path: Path, lang: str, first: str,
                                      last: str) -> None:
    f = tmp_path / "bad.sgf"
    f.write_text(modified("541932", "p:59 t:4", "p:60 t:4") + "\n"
                 + modified("684159", "w HT.H9", "w HT.H8") + "\n", encoding="utf-8")
    result = runner.invoke(app, ["iss", "verify", str(f), "--lang", lang])
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0] == first
    assert lines[1].startswith(("skipped 684159: corrupt (", "übersprungen 684159: "
                                "fehlerhaft (Zug "))
    assert lines[-1] == last
    assert len(lines) == 3


def test_verify_json_is_the_same_in_every_language(tmp_path: Path) -> None:
    f = tmp_path / "bad.sgf"
    f.write_text(LINES["541932"].replace("p:59", "p:60") + "\n" + LINES["30"] + "\n",
                 encoding="utf-8")
    out = {lang: runner.invoke(app, ["iss", "verify", str(f), "--json", "--lang", lang])
           for lang in ("de", "en")}
    assert out["de"].exit_code == out["en"].exit_code == 1
    assert out["de"].stdout == out["en"].stdout
    data = json.loads(out["de"].stdout)
    assert (data["records"], data["agree"], data["disagree"], data["skipped"]) == (2, 0, 1, 1)
    first, second = data["checks"]
    assert first["diffs"] == [{"field": "points", "ours": 59, "theirs": 60}]
    assert second["reason"] == "penalty"
    assert second["message"] == {"code": "iss.skip.penalty", "params": {
        "why": {"code": "iss.skip.seat_left", "params": {"seat": 2}}, "points": "0/0/1"}}


def test_verify_reads_records_after_a_protocol_prefix(tmp_path: Path) -> None:
    # the live protocol sends a finished game as "table .N observer end (;GM...;)"
    f = tmp_path / "log.txt"
    f.write_text("\n".join(
        ["table .3 xskat start", ""]
        + [f"table .3 xskat end {line}" for line in LINES.values()]
        + ["table .3 xskat tell hello"]) + "\n", encoding="utf-8")
    result = runner.invoke(app, ["iss", "verify", str(f), "--lang", "en"])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == "11 records: 8 agree, 0 disagree, 3 skipped"
    assert result.stderr.strip() == (
        f"note: {f}: 2 lines without an ISS record ignored (line 1, 14)")
    prefixed = f"table .5 goskat end {LINES['541932']}"
    assert parse_iss(prefixed).game_id == "541932"


@pytest.mark.parametrize("lang,message", [
    ("en", "error: {f} holds no ISS record"),
    ("de", "Fehler: {f} enthält keinen ISS-Datensatz"),
])
def test_verify_refuses_a_file_without_records(tmp_path: Path, lang: str,
                                               message: str) -> None:
    f = tmp_path / "notes.txt"
    f.write_text("table .3 xskat start\nsome words\n\n", encoding="utf-8")
    result = runner.invoke(app, ["iss", "verify", str(f), "--lang", lang])
    assert result.exit_code == 2
    assert result.stderr.startswith(message.format(f=f))
    assert result.stdout == ""
    # an empty file too, also next to a good one
    (tmp_path / "empty.sgf").write_text("", encoding="utf-8")
    result = runner.invoke(app, ["iss", "verify", str(ISS_FILE), str(tmp_path / "empty.sgf")])
    assert result.exit_code == 2 and "keinen ISS-Datensatz" in result.stderr


def test_verify_a_missing_file(tmp_path: Path) -> None:
    result = runner.invoke(app, ["iss", "verify", str(tmp_path / "nope.sgf")])
    assert result.exit_code == 2
    assert result.stderr == f"Fehler: die Datei {tmp_path / 'nope.sgf'} gibt es nicht\n"
    assert isinstance(result.exception, SystemExit)


def test_help() -> None:
    for args in (["iss", "--help"], ["iss", "verify", "--help"], ["iss", "export", "--help"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 0
        assert "ISS" in result.stdout or "isko" in result.stdout
    assert "--lang" in runner.invoke(app, ["iss", "verify", "--help"]).stdout


# --- export -----------------------------------------------------------------------------


def _export(tmp_path: Path, states: list[SkatState], *args: str) -> list[str]:
    f = tmp_path / "games.json"
    f.write_text(json.dumps([skat_record(s, ["Ann Smith", "Ben", "Cid"]) for s in states]),
                 encoding="utf-8")
    result = runner.invoke(app, ["iss", "export", str(f), "--date", "d", *args])
    assert result.exit_code == 0, result.output
    return result.stdout.splitlines()


def _ids(lines: list[str]) -> list[str]:
    return [parse_iss(line).game_id for line in lines]


def test_export_reads_back(tmp_path: Path) -> None:
    (line,) = _export(tmp_path, [play_random(ISKO, 4)], "--id", "42")
    parsed = parse_iss(line)
    assert parsed.game_id == "42" and parsed.players == ("Ann_Smith", "Ben", "Cid")
    assert check_iss(parsed).status in ("agree", "skipped")


def test_export_gives_every_game_its_own_id(tmp_path: Path) -> None:
    states = [play_random(ISKO, seed) for seed in (4, 5, 6)]
    ids = _ids(_export(tmp_path, states))
    assert len(set(ids)) == 3 and all(re.fullmatch(r"\d+", i) for i in ids)
    # stable: the same game gets the same ID again, wherever it stands in the file
    assert _ids(_export(tmp_path, states[::-1])) == ids[::-1]
    assert _ids(_export(tmp_path, states[1:2])) == ids[1:2]
    # counted on from --id
    assert _ids(_export(tmp_path, states, "--id", "42")) == ["42", "43", "44"]
    assert _ids(_export(tmp_path, states, "--id", "abc")) == ["abc-1", "abc-2", "abc-3"]


@pytest.mark.parametrize("lang,words", [
    ("en", ("ISS records are ISkO games", "the game is not finished",
            "error: there is no file")),
    ("de", ("ISS-Datensätze sind ISkO-Spiele", "das Spiel ist nicht beendet",
            "Fehler: die Datei")),
])
def test_export_refusals(tmp_path: Path, lang: str, words: tuple[str, str, str]) -> None:
    lothar = tmp_path / "lothar.json"
    lothar.write_text(json.dumps(skat_record(play_random(SkatRules(), 4))), "utf-8")
    unfinished = tmp_path / "unfinished.json"
    unfinished.write_text(json.dumps(skat_record(SkatState.new(ISKO, seed=1))), "utf-8")
    for path, text in zip((lothar, unfinished, tmp_path / "missing.json"), words,
                          strict=True):
        result = runner.invoke(app, ["iss", "export", str(path), "--lang", lang])
        assert result.exit_code == 1
        assert isinstance(result.exception, SystemExit)  # a message, not a traceback
        assert text in result.stderr
