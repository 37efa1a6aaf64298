"""A game ended early at the terminal (issue 42): after a claim of the rest, giving up, an
accepted gift or a shortcut the result lists the cards each player still held (and the
open trick), in German and English; a game played out lists none."""

from __future__ import annotations

import random
import re

import pytest
from rich.console import Console

from stich.cards import CARDS
from stich.cli.i18n import TEXTS, Translator
from stich.cli.skat_render import CardStyle
from stich.cli.skat_screen import Seating, SkatScreen
from stich.skat import SkatRules, SkatState
from stich.skat.ending import early_end
from tests.cli.test_play_skat import invoke

NAMES = ("Anna", "Bert", "Carla")


def _games(n: int, seed: int) -> list[SkatState]:
    """Finished games of random play in which the mover claims or gives up now and then
    (Schenken allowed: gifts too)."""
    rng = random.Random(seed)
    out = []
    for g in range(n):
        s = SkatState.new(SkatRules.parse("skat(preset=lothar,schenken=yes)"), seed=seed + g)
        while not s.is_over:
            claims = list(s.claims())
            s = s.apply(rng.choice(claims if claims and rng.random() < 0.1
                                   else list(s.legal_actions())))
        out.append(s)
    return out


def _screen(lang: str) -> SkatScreen:
    tr = Translator(lang)
    sk = SkatScreen(tr, CardStyle("german", tr), Console(width=100))
    sk.seating = Seating(NAMES)
    return sk


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_result_lists_the_cards_still_held(lang: str) -> None:
    sk = _screen(lang)
    seen: set[str] = set()
    for s in _games(120, 9):
        view = s.view(0)
        end = early_end(s)
        lines = sk.result_lines(view, s.outcome(), end)
        header = TEXTS[lang]["held_at_end"].split("(")[0]
        if end is None:
            assert not any(line.startswith(header) for line in lines)
            continue
        seen.add(end.reason)
        at = next(i for i, line in enumerate(lines) if line.startswith(header))
        assert TEXTS[lang][f"end_{end.reason}"] in lines[at]
        plain = [re.sub(r"\[/?[a-z ]*\]", "", line) for line in lines[at + 1:at + 4]]
        played = view.played_by()  # the finished tricks (the open trick is in end.trick)
        for pos, line in enumerate(plain):
            assert line.strip().startswith(NAMES[pos] + ":")
            names = [c.name_in("german") for c in CARDS if end.held[pos] >> c.index & 1]
            assert all(n in line for n in names), (line, names)
            in_trick = sum(1 for p, _ in end.trick if p == pos)
            assert end.held[pos].bit_count() + in_trick + played[pos].bit_count() == 10
        if end.trick:
            assert TEXTS[lang]["held_trick"].split("{")[0].strip() in lines[at + 4]
    assert {"claim_wrong", "gave_up", "gift"} <= seen, seen


@pytest.mark.parametrize("lang", ["de", "en"])
def test_bots_play_and_the_log_lists_the_cards_at_a_shortcut(lang: str) -> None:
    code, out = invoke("play", "skat", "--bots", "3", "--games", "3", "--seed", "4",
                       "--shortcut", "--lang", lang, "--no-save")
    assert code == 0 and "Traceback" not in out
    header = TEXTS[lang]["held_at_end"].format(how=TEXTS[lang]["end_shortcut"])
    lines = out.splitlines()
    at = [i for i, line in enumerate(lines) if line == header]
    assert at, out
    for i in at:  # each player's line follows, with the name and the cards
        for j in range(1, 4):
            assert re.match(r"^  \w+: \S", lines[i + j]), lines[i:i + 4]
