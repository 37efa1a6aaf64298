"""`stich play skat --shortcut`: a game ends as soon as its remaining tricks all go to one
side whatever anyone plays (the same check as a site's table with that setting:
``tests/server/test_shortcut.py``), told in the log in both languages; without it
nothing changes."""

from __future__ import annotations

import json
import random

import pytest
from rich.console import Console

from stich.cli.i18n import TEXTS
from stich.cli.play_skat import PlayOptions, SkatSession
from stich.skat import SkatRules
from tests.cli.test_play_skat import invoke
from tests.cli.test_play_skat_four import AutoPerson
from tests.server.test_shortcut import check_shortcuts


def _records(*args: str) -> list[dict[str, object]]:
    code, out = invoke("play", "skat", "--bots", "3", "--json", "--games", "12",
                       "--seed", "4", *args)
    assert code == 0, out
    return [json.loads(line) for line in out.splitlines()]


def test_shortcut_ends_games_where_the_rest_is_certain() -> None:
    rng = random.Random(5)
    on = _records("--shortcut")
    ended = [check_shortcuts(rec, rng, on=True) for rec in on]
    assert len(on) == 12 and sum(ended) >= 6, ended
    off = _records()
    assert not any(check_shortcuts(rec, rng, on=False) for rec in off)
    # the same deals either way (the bots may play on differently after a shortcut)
    assert on[0]["deal"] == off[0]["deal"]


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_log_tells_the_shortcut(lang: str) -> None:
    code, out = invoke("play", "skat", "--bots", "3", "--games", "6", "--seed", "4",
                       "--shortcut", "--lang", lang, "--no-save")
    assert code == 0 and "Traceback" not in out
    said = [line for line in out.splitlines()
            if line.startswith(TEXTS[lang]["shortcut_declarer"].split(":")[0])]
    assert said, out
    _, plain = invoke("play", "skat", "--bots", "3", "--games", "6", "--seed", "4",
                      "--lang", lang, "--no-save")
    assert TEXTS[lang]["shortcut_declarer"].split(":")[0] not in plain


def test_the_texts_and_the_option() -> None:
    keys = {"shortcut_declarer", "shortcut_declarer_you", "shortcut_defenders",
            "shortcut_defenders_you"}
    assert keys <= set(TEXTS["de"]) and keys <= set(TEXTS["en"])
    _, out = invoke("play", "skat", "--help")
    assert "--shortcut" in out


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_person_at_a_table_that_shortcuts(lang: str) -> None:
    person = AutoPerson()
    console = Console(record=True, width=100, file=open("/dev/null", "w"))  # noqa: SIM115
    opts = PlayOptions(rules=SkatRules(), seed=11, games=6, lang=lang, cards="german",
                       shortcut=True)
    session = SkatSession(opts, console, person)
    person.session = session
    session.run()
    text = console.export_text()
    starts = {TEXTS[lang][k].split(":")[0] for k in ("shortcut_declarer", "shortcut_defenders")}
    assert any(s in text for s in starts), text[-2000:]
    assert "Traceback" not in text and len(session.table.games) == 6
