"""The one list of bot levels (:data:`stich.bots.LEVELS`, the older names in
:data:`stich.bots.OLD_NAMES`) and the two games' registries agree: every level and older
name has a bot in each game, an older name the same bot as its level, and nothing else
is there."""

from __future__ import annotations

import pytest

from stich.bots import (
    BAPTISTEN_BOTS,
    BOTS,
    LEVELS,
    OLD_NAMES,
    bot_level,
    known_level,
    make_baptisten_bot,
    make_bot,
)
from stich.core import ArgumentError


def test_the_levels() -> None:
    assert LEVELS == ("random", "easy", "strong")
    assert OLD_NAMES == {"heuristic": "easy"}
    assert set(OLD_NAMES.values()) <= set(LEVELS) and not set(OLD_NAMES) & set(LEVELS)


@pytest.mark.parametrize("registry", [BOTS, BAPTISTEN_BOTS], ids=["skat", "baptisten"])
def test_each_registry_has_every_level_and_nothing_else(registry: dict[str, object]) -> None:
    assert set(registry) == set(LEVELS) | set(OLD_NAMES)
    for old, level in OLD_NAMES.items():
        assert registry[old] is registry[level]


def test_a_known_level_is_one_both_games_have() -> None:
    for name in (*LEVELS, *OLD_NAMES):
        assert known_level(name) and bot_level(name) == name
        assert type(make_bot(name)) is type(BOTS[name]())
        assert type(make_baptisten_bot(name)) is type(BAPTISTEN_BOTS[name]())
    for name in ("hard", "slow", "", "Easy"):
        assert not known_level(name)
        with pytest.raises(ArgumentError) as e:
            bot_level(name)
        assert e.value.code == "bots.unknown"
        assert e.value.params == {"name": name, "choices": "easy, heuristic, random, strong"}
