"""``bench.speed.baptisten_cost``: the deck limits it reads from the rules, and a ``--quick``
run that prints both Markdown tables, the engines line and positive memory figures."""

from __future__ import annotations

import re

import pytest
from bench.speed import baptisten_cost as bench

from stich.baptisten import BaptistenRules
from stich.core import RulesError

from . import run


@pytest.mark.parametrize(("deck", "players", "limit"), [
    ("elferraus", 3, 26), ("elferraus", 11, 7), ("elferraus", 12, None),
    ("romme-double-joker", 3, 35), ("romme-double-joker", 15, 7),
    ("romme-double-joker", 16, None),
])
def test_largest_n_is_what_the_rules_accept(deck: str, players: int,
                                            limit: int | None) -> None:
    assert bench.largest_n(deck, players) == limit
    if limit is not None:
        BaptistenRules(deck=deck, players=players, max_cards=limit)
        with pytest.raises(RulesError):
            BaptistenRules(deck=deck, players=players, max_cards=limit + 1)


def test_quick_run_prints_tables_and_memory() -> None:
    out = run("baptisten_cost", "--quick")
    assert re.search(r"^engines: (compiled \(mypyc\)|pure Python)$", out, re.M)
    header = ("| players | N=5: ms/game | actions | N=10: ms/game | actions | largest N "
              "| ms/game | actions |")
    assert out.count(header) == 2
    assert "| 15 | — | — | — | — | — | — | — |" in out  # elferraus: 11 players at most
    assert re.search(r"^\| 15 \| [\d.,]+ \| 510 \| — \| — \| 7 \| [\d.,]+ \| 930 \|$", out,
                     re.M)  # romme-double-joker: N = 10 is above the limit of 7
    for what in ("Skat state", "Baptistenskat state, mid-game"):
        m = re.search(rf"^- {what} .*: [\d.,]+ KiB \(([\d,]+) bytes\) per state, "
                      "shared tables excluded", out, re.M)
        assert m, what
        assert int(m.group(1).replace(",", "")) > 0
