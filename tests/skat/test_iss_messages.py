"""The ISS reader's refusals are messages with codes (stich.messages.iss), in English and
German, and every code the ISS code raises is in the catalogue."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from stich.messages import CATALOGUE, StichError, placeholders, render
from stich.skat.iss import IssError, check_line, parse_iss
from tests.skat.iss_data import modified

SRC = Path(__file__).resolve().parents[2] / "src" / "stich"
ISS_SOURCES = [*sorted((SRC / "skat").glob("iss*.py")), SRC / "cli" / "iss.py"]


def _iss_codes() -> dict[str, dict[str, str]]:
    render("text", {"text": ""})  # loads the catalogue
    return {code: texts for code, texts in CATALOGUE.items() if code.startswith("iss.")}


def test_every_iss_message_has_both_languages_with_the_same_parameters() -> None:
    codes = _iss_codes()
    assert len(codes) > 60
    for code, texts in codes.items():
        assert placeholders(texts["en"]) == placeholders(texts["de"]), code


def test_every_code_raised_or_rendered_is_in_the_catalogue() -> None:
    codes = _iss_codes()
    used: set[str] = set()
    for path in ISS_SOURCES:
        text = path.read_text(encoding="utf-8")
        used |= set(re.findall(r"""(?:IssError|Msg)\(\s*"(iss\.[a-z_.]+)""", text))
        used |= set(re.findall(r"""render\(\s*"(iss\.[a-z_.]+)""", text))
        # no refusal of free text: every IssError names a code
        assert not re.search(r"IssError\(\s*f?['\"](?!iss\.)", text), path
    assert used, "the pattern found nothing"
    assert used <= set(codes), sorted(used - set(codes))


def test_iss_error_is_a_stich_error_with_a_code() -> None:
    with pytest.raises(IssError) as info:
        parse_iss("hello")
    e = info.value
    assert isinstance(e, StichError) and isinstance(e, ValueError)
    assert e.code == "iss.not_a_record"
    assert str(e).startswith("not an ISS record")
    assert e.text("de").startswith("kein ISS-Datensatz")


def test_a_move_error_names_the_move_and_nests_the_reason() -> None:
    check = check_line(modified("541932", "w H8.CK", "w H8.CQ"))
    assert check.note is not None and check.note.code == "iss.at_move"
    reason = check.note.params["reason"]
    assert reason.code == "iss.wrong_skat"
    assert check.detail == "move 5 'w H8.CQ': the Skat is H8 CK"
    assert render(check.note.code, check.note.params, "de") == (
        "Zug 5 'w H8.CQ': im Skat liegen H8 CK")
    # an engine refusal keeps its own code inside
    check = check_line(modified("541932", "0 SA 1 S7 2 DA 2 HJ 0 SJ",
                                "0 SA 1 S7 2 DA 2 HJ 0 HA"))
    assert check.note is not None and check.note.params["reason"].code == "skat.must_follow"
