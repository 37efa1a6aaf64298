"""The one list of bot levels (:data:`stich.bots.LEVELS`, the older names in
:data:`stich.bots.OLD_NAMES`, each game's offer in its ``bot_levels``: Skat's with its own
``learned``) and the two games' registries agree: every level and older name has a bot in
each game, a game's own level in that game only, an older name the same bot as its
level, and nothing else is there."""

from __future__ import annotations

import pytest

from stich import games
from stich.bots import (
    BAPTISTEN_BOTS,
    BOTS,
    LEVELS,
    OLD_NAMES,
    SKAT_LEVELS,
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


@pytest.mark.parametrize("game", [games.SKAT, games.BAPTISTEN], ids=lambda g: g.name)
def test_each_registry_has_every_level_and_nothing_else(game: games.Game) -> None:
    registry = game.bots
    assert set(registry) == set(game.bot_levels) | set(OLD_NAMES)
    for old, level in OLD_NAMES.items():
        assert registry[old] is registry[level]
    assert set(LEVELS) <= set(game.bot_levels)  # the levels of every game, and its own
    own = set(game.bot_levels) - set(LEVELS)
    assert own == ({"learned"} if game is games.SKAT else set())
    assert list(game.bot_levels) == sorted(game.bot_levels, key=list(SKAT_LEVELS).index)


def test_skats_own_level() -> None:
    assert games.SKAT.bot_levels == SKAT_LEVELS == ("random", "learned", "easy", "strong")
    assert games.BAPTISTEN.bot_levels == LEVELS
    assert known_level("learned", BOTS) and bot_level("learned", BOTS) == "learned"
    assert not known_level("learned") and not known_level("learned", BAPTISTEN_BOTS)
    with pytest.raises(ArgumentError) as e:
        bot_level("learned", BAPTISTEN_BOTS)
    assert e.value.params == {"name": "learned", "choices": "easy, heuristic, random, strong"}
    with pytest.raises(ArgumentError) as e:
        bot_level("hard", BOTS)
    assert e.value.params == {"name": "hard",
                              "choices": "easy, heuristic, learned, random, strong"}
    assert make_bot("learned").name == "learned"


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
