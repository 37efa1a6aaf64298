"""The ratings' rules (:mod:`stich.ratings`, docs/ratings.md): a Skat game is the declarer
against the defenders, a Ramsch every player for himself, a game passed in rates nobody,
the dealer who sat out is not in the game; only games under the same rules are compared;
the bots are rated as their levels; a seat a stand-in played for a person is the
stand-in's; Baptistenskat by places.  And a small simulation: ``random`` and ``easy``
playing each other end up rated in that order (:mod:`bench.tuning.ratings`)."""

from __future__ import annotations

import pytest
from bench.tuning.ratings import converge, lineup, play_games

from stich.ratings import (
    DECLARER,
    SIGMA,
    Line,
    Rating,
    Ratings,
    entity_of,
    group_of,
    rate_teams,
    skat_teams,
)

LOTHAR = "skat(preset=lothar)"


def _skat(won: bool, declarer: int = 0, sat_out: int | None = None,
          users: tuple[int, ...] = (1, 2, 3)) -> list[Line]:
    return [Line(seat=i, user_id=u, declarer=i == declarer, won=won if i == declarer else None,
                 sat_out=i == sat_out) for i, u in enumerate(users)]


def test_a_won_game_raises_the_declarer_and_lowers_both_defenders_alike() -> None:
    book = Ratings()
    changes = {c.entity: c for c in book.apply("skat", LOTHAR, _skat(True))}
    assert set(changes) == {"user:1", "user:2", "user:3", DECLARER}
    assert changes["user:1"].after.mu > 25 > changes["user:2"].after.mu
    assert changes["user:2"].after == changes["user:3"].after
    assert all(c.after.sigma < SIGMA for c in changes.values())
    # the same as openskill's own two-team update, the declarer's seat on his side
    [[w, seat], [l1, _]] = rate_teams([[Rating(), Rating()], [Rating(), Rating()]], [1, 2])
    assert changes["user:1"].after == w and changes["user:2"].after == l1
    assert changes[DECLARER].after == seat
    lost = {c.entity: c for c in Ratings().apply("skat", LOTHAR, _skat(False))}
    assert lost["user:1"].after.mu < 25 < lost["user:2"].after.mu


def test_ramsch_passed_and_the_dealer_who_sat_out() -> None:
    ramsch = [Line(0, 1, score=-40), Line(1, 2), Line(2, 3)]
    changes = {c.entity: c.after.mu for c in Ratings().apply("skat", LOTHAR, ramsch)}
    assert changes["user:1"] < 25 < changes["user:2"] == changes["user:3"]
    durchmarsch = [Line(0, 1, score=120), Line(1, 2), Line(2, 3)]
    teams, ranks = skat_teams(durchmarsch) or ([], [])
    assert [[x.seat for x in t] for t in teams] == [[0], [1], [2]]
    assert ranks == [1, 2, 2]
    passed = [Line(0, 1), Line(1, 2), Line(2, 3)]
    assert Ratings().apply("skat", LOTHAR, passed) == []
    four = _skat(True, declarer=1, sat_out=0, users=(1, 2, 3, 4))
    changes4 = {c.entity for c in Ratings().apply("skat", LOTHAR, four)}
    assert changes4 == {"user:2", "user:3", "user:4", DECLARER}  # the dealer sat out
    # a Ramsch has no declarer: the seat is not in it
    assert DECLARER not in {c.entity for c in Ratings().apply("skat", LOTHAR, ramsch)}


def test_rule_groups_keep_rules_apart() -> None:
    assert group_of("skat", LOTHAR) == "lothar"
    assert group_of("skat", "skat(preset=isko)") == "isko"
    house = "skat(preset=lothar,kontra=true)"
    assert group_of("skat", house) == house
    book = Ratings()
    book.apply("skat", LOTHAR, _skat(True))
    book.apply("skat", house, _skat(False))
    book.apply("baptisten", "baptisten(preset=default)",
               [Line(0, 1, place=1), Line(1, 2, place=2), Line(2, 3, place=3)])
    assert book.get("skat", "lothar", "user:1").mu > 25
    assert book.get("skat", house, "user:1").mu < 25
    assert book.get("baptisten", "default", "user:1").mu > 25
    assert book.get("skat", "isko", "user:1") == Rating()


def test_bots_are_rated_as_their_level_and_a_stand_in_is_a_bot() -> None:
    assert entity_of(Line(0, bot="strong")) == "bot:strong"
    assert entity_of(Line(0, bot="heuristic")) == "bot:easy"  # the older name
    assert entity_of(Line(0, user_id=5, counts=False)) == "bot:easy"
    assert entity_of(Line(0)) == "new:0"  # a deleted account: a newcomer, not kept
    game = [Line(0, user_id=5, counts=False, declarer=True, won=True),
            Line(1, user_id=6), Line(2, bot="strong")]
    changes = {c.entity: c for c in Ratings().apply("skat", LOTHAR, game)}
    assert set(changes) == {"bot:easy", "user:6", "bot:strong", DECLARER}
    assert changes["bot:easy"].after.mu > 25  # the stand-in won it, not user 5
    gone = [Line(0, declarer=True, won=True), Line(1, user_id=6), Line(2, user_id=7)]
    assert {c.entity for c in Ratings().apply("skat", LOTHAR, gone)} == {"user:6", "user:7",
                                                                          DECLARER}


def test_one_bot_in_two_seats_moves_once_by_both_seats() -> None:
    """Two ``easy`` defenders are one entity: it moves by the sum of both seats' moves."""
    game = [Line(0, user_id=1, declarer=True, won=True), Line(1, bot="easy"),
            Line(2, bot="easy")]
    changes = Ratings().apply("skat", LOTHAR, game)
    assert [c.entity for c in changes] == ["user:1", DECLARER, "bot:easy"]
    [[_, _], [one, _]] = rate_teams([[Rating(), Rating()], [Rating(), Rating()]], [1, 2])
    assert changes[2].after.mu == pytest.approx(25 + 2 * (one.mu - 25))
    # against itself a bot learns nothing: declarer and defender cancel out
    self_game = [Line(0, bot="easy", declarer=True, won=True), Line(1, bot="easy"),
                 Line(2, user_id=1)]
    mine = {c.entity: c for c in Ratings().apply("skat", LOTHAR, self_game)}
    assert abs(mine["bot:easy"].after.mu - 25) < abs(mine["user:1"].after.mu - 25)


def test_baptisten_places_with_a_shared_place() -> None:
    game = [Line(0, 1, place=2), Line(1, 2, place=1), Line(2, 3, place=2), Line(3, 4, place=4)]
    changes = Ratings().apply("baptisten", "baptisten(preset=default)", game)
    after = {c.entity: c.after.mu for c in changes}
    assert after["user:2"] > after["user:1"] > after["user:4"]
    assert after["user:1"] == pytest.approx(after["user:3"])


def test_the_lineups_rotate_every_seat() -> None:
    three = [tuple(lineup(["random", "easy", "strong"], k)) for k in range(6)]
    assert len(set(three)) == 6
    two = [lineup(["random", "easy"], k) for k in range(12)]
    assert sum(x.count("random") for x in two) == sum(x.count("easy") for x in two)


def test_random_and_easy_end_up_ordered() -> None:
    """A small simulation (cheap: no ``strong``): after 90 games ``easy`` is rated above
    ``random`` and has been for a while, by the site's team update and by series."""
    games = list(play_games(["random", "easy"], 90, seed=5))
    team = converge(games, ["random", "easy"], "team")
    assert team.games is not None and team.games <= 60, team
    assert team.ratings["easy"].shown > team.ratings["random"].shown + 3
    series = converge(games, ["random", "easy"], "series")
    assert series.ratings["easy"].mu > series.ratings["random"].mu


def test_equal_players_keep_their_level() -> None:
    """Three players of one level (``easy`` in every seat, rated as three): the
    declarer wins about three games in four, and the declarer's seat takes that up; the
    players' means stay near the start (without it they sank below 0 in 600 games)."""
    book = Ratings()
    for lines in play_games(["easy"], 240, seed=3):
        people = [Line(**{**vars(x), "bot": None, "user_id": x.seat + 1}) for x in lines]
        book.apply("skat", LOTHAR, people)
    means = [book.get("skat", "lothar", f"user:{u}").mu for u in (1, 2, 3)]
    assert all(18 < m < 32 for m in means), means
    assert book.get("skat", "lothar", DECLARER).mu > 25  # the seat wins by itself
