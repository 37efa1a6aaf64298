"""The player page's Kontra figures come from the records' actions, replayed: who said
Kontra and Re (issue 43)."""

from __future__ import annotations

import random

from stich import games
from stich.server.player_stats import kontra_by, skat_stats
from stich.skat import SkatRules, SkatState


def _kontra_game(seed: int) -> tuple[dict, int, int | None]:
    """A game under ``kontra_re=yes`` played by random legal actions, preferring Kontra
    and Re; its record, who said Kontra, who said Re (None: nobody)."""
    rules = SkatRules.parse("skat(preset=lothar,kontra_re=yes)")
    rng = random.Random(seed)
    state = SkatState.new(rules, seed=seed)
    said: dict[str, int] = {}
    while not state.is_over:
        legal = [str(a) for a in state.legal_actions()]
        pick = next((t for t in ("kontra", "re") if t in legal), None) or rng.choice(legal)
        if pick in ("kontra", "re"):
            said[pick] = state.to_move
        state = state.apply(state.parse_action(pick))
    record = games.get("skat").record(state, ["A", "B", "C"])
    return record, said.get("kontra", -1), said.get("re")


def test_kontra_and_re_are_found_by_replaying_the_record() -> None:
    found = 0
    for seed in range(40):
        record, kontra, re_ = _kontra_game(seed)
        if kontra < 0:
            assert kontra_by(record) == {}
            continue
        found += 1
        said = kontra_by(record)
        assert said["kontra"] == [kontra]
        assert said["re"] == ([] if re_ is None else [re_])
        stats = skat_stats([(record, kontra, 0, False, None)])
        assert stats["kontra_games"] == 1 and stats["kontra_said"] == 1
        assert stats["re_said"] == 0
    assert found >= 5
