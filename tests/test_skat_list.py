"""The Skat list of one table (dealer rotation, Punktestand, Bilanz) and the leaderboard."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console

from stich.cli.skat_render import leaderboard_table
from stich.core import ArgumentError
from stich.skat import GameType, SkatOutcome, SkatRules, SkatState
from stich.skat_list import (
    DeclarerStats,
    Leaderboard,
    SkatList,
    bilanz,
    game_bilanz,
    game_name,
)
from tests.refusals import refused

NAMES = ["Anna", "Bernd", "Carla"]


def won_game(position: int, value: int, game: GameType = GameType.GRAND) -> SkatOutcome:
    scores = [0, 0, 0]
    scores[position] = value
    return SkatOutcome(kind="game", scores=(scores[0], scores[1], scores[2]),
                       declarer=position, game=game, value=value, won=True)


def lost_game(position: int, value: int, game: GameType = GameType.HERZ) -> SkatOutcome:
    scores = [0, 0, 0]
    scores[position] = -2 * value
    return SkatOutcome(kind="game", scores=(scores[0], scores[1], scores[2]),
                       declarer=position, game=game, value=value, won=False)


def ramsch(loser: int, points: int) -> SkatOutcome:
    scores = [0, 0, 0]
    scores[loser] = -points
    return SkatOutcome(kind="ramsch", scores=(scores[0], scores[1], scores[2]),
                       game=GameType.RAMSCH, loser=loser)


PASSED = SkatOutcome(kind="passed", scores=(0, 0, 0))


def render_text(table: Leaderboard, lang: str = "de") -> str:
    console = Console(record=True, width=200, color_system=None)
    console.print(leaderboard_table(table, lang))
    return console.export_text()


def random_outcome(rules: SkatRules, seed: int) -> SkatOutcome:
    """A whole game played with random legal actions."""
    state = SkatState.new(rules, seed=seed)
    rng = random.Random(seed)
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
    return state.outcome()


# --- seats and dealing ----------------------------------------------------------------


def test_positions_follow_the_dealer() -> None:
    t = SkatList(NAMES)
    assert t.dealer == 0
    # the dealer is Hinterhand; Vorhand sits left of the dealer, then Mittelhand
    assert t.positions() == (1, 2, 0)
    assert SkatList(NAMES, first_dealer=1).positions() == (2, 0, 1)
    assert SkatList(NAMES, first_dealer=2).positions() == (0, 1, 2)


def test_dealer_rotates_after_every_game_ramsch_and_passed_included() -> None:
    t = SkatList(NAMES, first_dealer=1)
    outcomes = [won_game(0, 24), ramsch(1, 60), PASSED, lost_game(2, 20), PASSED, ramsch(0, 44),
                won_game(1, 46, GameType.NULL)]
    dealers = []
    for n, o in enumerate(outcomes):
        dealers.append(t.dealer)
        pos = t.positions()
        entry = t.record_game(o)
        assert entry.number == n + 1
        assert entry.dealer == pos[2] == dealers[-1]
        assert entry.positions == pos
    assert dealers == [1, 2, 0, 1, 2, 0, 1]
    assert t.dealer == 2
    assert [g.dealer for g in t.games] == dealers


def test_scores_are_mapped_from_positions_to_players() -> None:
    t = SkatList(NAMES, first_dealer=1)  # positions (2, 0, 1): Carla is Vorhand
    entry = t.record_game(won_game(0, 48))
    assert entry.declarer == 2
    assert entry.scores == (0, 0, 48)
    assert t.punktestand() == [0, 0, 48]
    # next game: dealer 2, positions (0, 1, 2); Mittelhand (Bernd) loses a Herz game
    entry = t.record_game(lost_game(1, 30))
    assert entry.declarer == 1
    assert entry.scores == (0, -60, 0)
    assert entry.totals == (0, -60, 48)


def test_explicit_positions() -> None:
    t = SkatList(NAMES)
    entry = t.record_game(won_game(2, 23, GameType.NULL), positions=(2, 1, 0))
    assert entry.dealer == 0
    assert entry.declarer == 0
    assert t.punktestand() == [23, 0, 0]
    assert t.dealer == 1
    with refused("table.positions", ArgumentError, positions="0, 0, 1") as e:
        t.record_game(PASSED, positions=(0, 0, 1))
    assert str(e.value) == "positions must name three different players of the table, not 0, 0, 1"


def test_invalid_tables() -> None:
    with refused("table.three_players", ArgumentError, n=2) as e:
        SkatList(["A", "B"])
    assert str(e.value) == "a Skat table seats three or four players, not 2"
    assert e.value.text("de") == "An einem Skattisch sitzen drei oder vier Spieler, nicht 2"
    with refused("table.first_dealer", ArgumentError, given=3):
        SkatList(NAMES, first_dealer=3)
    with refused("table.bilanz_three", ArgumentError, n=2):
        bilanz([1, 2])


# --- Punktestand and Bilanz -----------------------------------------------------------


def test_punktestand_is_the_sum_of_game_scores() -> None:
    t = SkatList(NAMES)
    for o in (won_game(0, 36), lost_game(0, 27), ramsch(2, 70), won_game(1, 96)):
        t.record_game(o)
    per_player = [sum(g.scores[p] for g in t.games) for p in range(3)]
    assert t.punktestand() == per_player
    assert list(t.games[-1].totals) == per_player
    # running totals
    for before, after in zip(t.games, t.games[1:], strict=False):
        assert after.totals == tuple(b + s for b, s in zip(before.totals, after.scores,
                                                            strict=True))


def test_bilanz_sums_to_zero() -> None:
    t = SkatList(NAMES)
    for o in (won_game(0, 36), lost_game(2, 27), ramsch(1, 70), PASSED, won_game(1, 120)):
        t.record_game(o)
    b = t.bilanz()
    assert sum(b) == 0
    assert any(b)


def test_rule_text_doppelt_dein_punktestand_minus_die_beiden_gegner() -> None:
    """Seed text: "die Bilanz: doppelt dein Punktestand minus die beiden Gegner,
    nullsummen über den ganzen Tisch"."""
    t = SkatList(NAMES)
    t.record_game(won_game(2, 100))  # dealer 0: position 2 is Anna
    t.record_game(lost_game(0, 10))  # dealer 1: position 0 is Carla, -20
    t.record_game(won_game(1, 30))   # dealer 2: position 1 is Bernd
    assert t.punktestand() == [100, 30, -20]
    assert t.bilanz() == [2 * 100 - 30 - (-20), 2 * 30 - 100 - (-20), 2 * (-20) - 100 - 30]
    assert t.bilanz() == [190, -20, -170]
    assert sum(t.bilanz()) == 0


def test_game_bilanz_definition() -> None:
    assert game_bilanz((48, 0, 0)) == (96, -48, -48)
    assert game_bilanz((0, -54, 0)) == (54, -108, 54)
    assert game_bilanz((0, 0, 0)) == (0, 0, 0)
    a, b, c = 10, -20, 35
    assert game_bilanz((a, b, c)) == (2 * a - b - c, 2 * b - a - c, 2 * c - a - b)


score_lists = st.lists(
    st.tuples(st.integers(0, 2), st.integers(-1000, 1000), st.sampled_from(["game", "ramsch",
                                                                              "passed"])),
    max_size=40,
)


@given(score_lists, st.integers(0, 2))
def test_bilanz_sums_to_zero_property(games: list[tuple[int, int, str]], first: int) -> None:
    t = SkatList(NAMES, first_dealer=first)
    per_game_total = [0, 0, 0]
    for position, score, kind in games:
        scores = [0, 0, 0]
        if kind != "passed":
            scores[position] = score
        o = SkatOutcome(kind=kind, scores=(scores[0], scores[1], scores[2]),
                        declarer=position if kind == "game" else None,
                        game=GameType.GRAND if kind == "game" else None,
                        value=abs(score), won=score > 0)
        entry = t.record_game(o)
        for p, v in enumerate(game_bilanz(entry.scores)):
            per_game_total[p] += v
    assert sum(t.bilanz()) == 0
    assert t.dealer == (first + len(games)) % 3
    assert sum(t.punktestand()) == sum(s for _, s, k in games if k != "passed")
    # the Bilanz of a sitting is the sum of the Bilanz of its games
    assert t.bilanz() == per_game_total
    lb = Leaderboard()
    lb.add_table(t)
    assert [lb[n].bilanz for n in NAMES] == t.bilanz()
    assert [lb[n].punktestand for n in NAMES] == t.punktestand()


# --- declarers, entries ---------------------------------------------------------------


def test_declarer_won_lost_counts() -> None:
    t = SkatList(NAMES)  # positions (1, 2, 0), then (2, 0, 1), then (0, 1, 2), ...
    t.record_game(won_game(0, 24))    # Bernd wins
    t.record_game(lost_game(0, 20))   # Carla loses
    t.record_game(ramsch(0, 50))      # nobody declares
    t.record_game(won_game(0, 18))    # Bernd wins
    t.record_game(PASSED)
    t.record_game(lost_game(1, 23))   # dealer 2 → positions (0, 1, 2): Bernd loses
    assert t.declarer_stats() == [DeclarerStats(0, 0), DeclarerStats(2, 1), DeclarerStats(0, 1)]
    assert t.declarer_stats()[1].won == 2


def test_ramsch_and_passed_entries() -> None:
    t = SkatList(NAMES)
    e = t.record_game(ramsch(1, 61))
    assert (e.kind, e.declarer, e.won, e.value, e.game) == ("ramsch", None, None, 61, "Ramsch")
    assert e.scores == (0, 0, -61)
    e = t.record_game(PASSED)
    assert (e.kind, e.declarer, e.won, e.value, e.game) == ("passed", None, None, 0, "eingepasst")
    durch = SkatOutcome(kind="ramsch", scores=(0, 120, 0), game=GameType.RAMSCH,
                        durchmarsch=True)
    e = t.record_game(durch)
    assert (e.value, e.game) == (120, "Durchmarsch")


def test_game_names() -> None:
    o = SkatOutcome(kind="game", scores=(0, 0, 0), game=GameType.GRAND, hand=True, ouvert=True)
    assert game_name(o) == "Grand Hand Ouvert"
    o = SkatOutcome(kind="game", scores=(0, 0, 0), game=GameType.HERZ, hand=True,
                    schneider_announced=True, schneider=True)
    assert game_name(o) == "Herz Hand Schneider angesagt"
    o = SkatOutcome(kind="game", scores=(0, 0, 0), game=GameType.SCHELLEN, overbid=True)
    assert game_name(o) == "Schellen (überreizt)"
    assert game_name(o, "en") == "Diamonds (overbid)"
    assert game_name(PASSED, "en") == "passed (redeal)"
    with refused("table.unknown_lang", ArgumentError, lang="fr"):
        game_name(PASSED, "fr")


# --- a whole sitting ------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["lothar", "isko"])
def test_full_sitting_of_random_games(preset: str) -> None:
    rules = SkatRules.preset(preset)
    t = SkatList(NAMES, rules, first_dealer=2)
    expected = [0, 0, 0]
    won_lost = {p: [0, 0] for p in range(3)}
    for n in range(12):
        pos = t.positions()
        assert pos[2] == (2 + n) % 3
        o = random_outcome(rules, seed=1000 + n)
        for seat, player in enumerate(pos):
            expected[player] += o.scores[seat]
        if o.kind == "game":
            assert o.declarer is not None
            won_lost[pos[o.declarer]][0 if o.won else 1] += 1
        t.record_game(o)
    assert len(t.games) == 12
    assert t.punktestand() == expected
    assert sum(t.bilanz()) == 0
    assert t.bilanz() == [3 * e - sum(expected) for e in expected]
    assert [tuple(s) for s in t.declarer_stats()] == [tuple(won_lost[p]) for p in range(3)]
    assert t.dealer == (2 + 12) % 3
    d = json.loads(json.dumps(t.to_dict()))
    assert d["players"] == NAMES
    assert d["rules"] == str(rules)
    assert d["punktestand"] == expected
    assert len(d["games"]) == 12
    assert d["games"][-1]["totals"] == expected


# --- rendering ------------------------------------------------------------------------


def test_game_names_in_the_language_or_the_front_ends_style() -> None:
    t = SkatList(NAMES)
    t.record_game(won_game(0, 72))
    t.record_game(ramsch(2, 58))
    t.record_game(PASSED)
    assert [g.name() for g in t.games] == ["Grand", "Ramsch", "eingepasst"]
    assert [g.name("en") for g in t.games] == ["Grand", "Ramsch", "passed (redeal)"]
    herz = SkatOutcome(kind="game", scores=(0, 0, -60), declarer=2, game=GameType.HERZ,
                       value=30, won=False, schneider_announced=True, hand=True)
    assert game_name(herz) == "Herz Hand Schneider angesagt"
    assert game_name(herz, "en") == "Hearts Hand Schneider announced"
    assert game_name(herz, "en", lambda g: "Herz") == "Herz Hand Schneider announced"


def test_table_module_imports_no_rich() -> None:
    code = "import sys, stich.skat_list; assert 'rich' not in sys.modules, 'rich imported'"
    subprocess.run([sys.executable, "-c", code], check=True)


# --- the leaderboard ------------------------------------------------------------------


def test_leaderboard_across_tables() -> None:
    t1 = SkatList(["Anna", "Bernd", "Carla"])
    t1.record_game(won_game(2, 60))      # Anna +60
    t1.record_game(ramsch(0, 40))        # dealer 1: Carla −40
    t2 = SkatList(["Dora", "Anna", "Bernd"])
    t2.record_game(lost_game(0, 24))     # Anna (position 0 with dealer Dora) −48
    t2.record_game(PASSED)
    lb = Leaderboard()
    lb.add_tables([t1, t2])
    # per game Bilanz: (120, -60, -60), (40, 40, -80), Anna/Bernd/Dora: (-96, 48, 48), 0
    assert lb["Anna"].bilanz == 120 + 40 - 96
    assert lb["Bernd"].bilanz == -60 + 40 + 48
    assert lb["Carla"].bilanz == -60 - 80
    assert lb["Dora"].bilanz == 48
    assert sum(r.bilanz for r in lb.ranking()) == 0
    assert lb["Anna"].games == 4 and lb["Carla"].games == 2
    assert (lb["Anna"].won, lb["Anna"].lost) == (1, 1)
    assert lb["Anna"].punktestand == 60 - 48
    assert lb["Anna"].bilanz_per_game == pytest.approx(64 / 4)
    ranking = lb.ranking()
    assert [r.name for r in ranking] == ["Anna", "Dora", "Bernd", "Carla"]
    assert [r.rank for r in ranking] == [1, 2, 3, 4]
    d = json.loads(json.dumps(lb.to_dict()))
    assert d[0]["name"] == "Anna" and d[0]["bilanz"] == 64
    assert "Dora" in render_text(lb)


def test_leaderboard_ties_share_a_rank() -> None:
    lb = Leaderboard()
    lb.add_game(["A", "B", "C"], (0, 0, 0))
    assert [r.rank for r in lb.ranking()] == [1, 1, 1]
    with refused("table.game_players", ArgumentError, names="A, A, C") as e:
        lb.add_game(["A", "A", "C"], (0, 0, 0))
    assert e.value.text("de") == ("An einem Spiel sind drei verschiedene Spieler beteiligt, "
                                  "nicht A, A, C")


def test_leaderboard_add_outcome_by_position() -> None:
    lb = Leaderboard()
    lb.add_outcome(["V", "M", "H"], lost_game(1, 10))
    lb.add_outcome(["V", "M", "H"], ramsch(2, 30))
    assert (lb["M"].bilanz, lb["M"].lost, lb["M"].punktestand) == (-40 + 30, 1, -20)
    assert (lb["H"].won, lb["H"].lost) == (0, 0)


def test_the_leaderboard_as_a_terminal_table() -> None:
    """The Bestenliste in the terminal (``stich.cli.skat_render``; the list itself loads
    no terminal library), as it was drawn when it was ``Leaderboard.render``."""
    lb = Leaderboard()
    lb.add_game(["Anna", "Bernd", "Carla"], (120, -60, -60), declarer=0, won=True)
    lb.add_game(["Anna", "Bernd", "Dora"], (-96, 48, 48), declarer=0, won=False)
    de, en = render_text(lb, "de").splitlines(), render_text(lb, "en").splitlines()
    assert de[0].strip() == "Bestenliste" and en[0].strip() == "Leaderboard"
    assert de[2] == ("┃ Platz ┃ Name  ┃ Bilanz ┃ Punktestand ┃ Spiele ┃ gewonnen/verloren "
                     "┃ Bilanz/Spiel ┃")
    assert en[2] == "┃ Rank ┃ Name  ┃ Bilanz ┃ Score ┃ Games ┃ won/lost ┃ Bilanz/game ┃"
    assert de[4] == ("│     1 │ Dora  │   +144 │          48 │      1 │               0/0 "
                     "│       144.00 │")
    assert en[7] == "│    4 │ Carla │   -180 │   -60 │     1 │      0/0 │     -180.00 │"
