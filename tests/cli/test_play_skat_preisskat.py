"""`stich play skat --scoring seeger`: the Preisskat lines at the end (Seeger-Fabian,
docs/skat.md "Preisskat"), in words and as the last JSON line, equal to the independent
oracle's lines recomputed from the printed records alone."""

from __future__ import annotations

import json
from typing import Any

import pytest

from stich.record import replay
from tests.cli.test_play_skat import invoke
from tests.skat import preisskat_oracle as oracle


def _oracle(records: list[dict[str, Any]], players: list[str]) -> list[oracle.Line]:
    n = len(players)
    games = []
    for rec in records:
        outcome = replay(rec).outcome()  # type: ignore[union-attr]
        scores = [0] * n
        who = [players.index(p) for p in rec["players"]]
        for pos, p in enumerate(who):
            scores[p] = outcome.scores[pos] * int(rec.get("bock", 1))
        declarer = who[outcome.declarer] if outcome.kind == "game" else None
        games.append(oracle.Game(n, declarer, outcome.won if declarer is not None else None,
                                 tuple(scores)))
    return oracle.series(n, games)


@pytest.mark.parametrize(("bots", "games", "rules"),
                         [("3", "9", "lothar"), ("4", "8", "isko"),
                          ("3", "6", "skat(preset=lothar,kontra_re=yes,bock=lost_60)")])
def test_json_ends_with_the_preisskat_lines(bots: str, games: str, rules: str) -> None:
    code, out = invoke("play", "skat", "--bots", bots, "--games", games, "--seed", "7",
                       "--rules", rules, "--scoring", "seeger", "--json")
    assert code == 0, out
    lines = [json.loads(x) for x in out.splitlines()]
    *records, last = lines
    assert len(records) == int(games)
    pk = last["preisskat"]
    assert pk["games"] == int(games) and pk["won_each"] == 50
    assert pk["others_each"] == (40 if bots == "3" else 30)
    want = _oracle(records, pk["players"])
    assert [(x["points"], x["won"], x["lost"], x["others_lost"], x["score"], x["place"])
            for x in pk["lines"]] == [(w.punkte, w.won, w.lost, w.others_lost, w.leistung,
                                       w.place) for w in want]


def test_words_in_german_and_english() -> None:
    code, de = invoke("play", "skat", "--bots", "3", "--games", "3", "--seed", "2",
                      "--scoring", "seeger", "--no-save", "--lang", "de")
    assert code == 0 and "Preisskat (Seeger-Fabian), 3 Spiele" in de and "Leistung" in de
    code, en = invoke("play", "skat", "--bots", "3", "--games", "3", "--seed", "2",
                      "--scoring", "seeger", "--no-save", "--lang", "en")
    assert code == 0 and "Preisskat (Seeger-Fabian), 3 games" in en and "Place" in en
    # without --scoring seeger: no Preisskat lines
    _, plain = invoke("play", "skat", "--bots", "3", "--games", "3", "--seed", "2",
                      "--no-save", "--lang", "en")
    assert "Preisskat" not in plain


def test_the_series_defaults_and_refusals() -> None:
    code, out = invoke("play", "skat", "--bots", "4", "--scoring", "seeger", "--json",
                       "--seed", "1")
    assert code == 0
    assert json.loads(out.splitlines()[-1])["preisskat"]["games"] == 48
    code, out = invoke("play", "skat", "--bots", "4", "--games", "6", "--scoring", "seeger",
                       "--json")
    assert code == 2 and "Preisskat" in out
    code, out = invoke("play", "skat", "--bots", "3", "--scoring", "bogus", "--json")
    assert code == 2 and "--scoring" in out
