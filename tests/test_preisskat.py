"""The Preisskat list (Seeger-Fabian, docs/skat.md "Preisskat") against an independent
oracle written from the DSkV's Skatwettspielordnung (``tests/skat/preisskat_oracle.py``).

- hand-made series with the figures worked out by hand in the comments: a won game, a
  lost game at three and at four (the dealer who sat out gets his 30), an overbid game,
  a Ramsch, a passed game, Bock and Kontra, a tie broken by games won, then by games
  lost, a full tie (shared place);
- generated series: at three and at four seats, at least 10,000 games each
  (``STICH_PREISSKAT_GAMES``), series of 36 / 48 games and of other lengths, under
  Lothar's rules (Ramsch when all pass), the ISkO's (passed in: the next dealer deals),
  and house rules with Kontra/Re, Bock, Bock-Ramsch and Schenken; every game is played
  by the engine from a random deal with random (biased) choices.  After every series the
  oracle's lines and places must equal ``SkatList.seeger()`` and ``seeger_places``.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Sequence

import pytest

from stich.core import ArgumentError
from stich.skat import GameType, SkatOutcome, SkatRules, SkatState
from stich.skat_list import (
    PREISSKAT_SERIES,
    SkatList,
    seeger,
    seeger_json,
    seeger_places,
    series_games,
)

from .skat import preisskat_oracle as oracle

GAMES = int(os.environ.get("STICH_PREISSKAT_GAMES", "10000"))

RULE_SETS = (
    "skat(preset=lothar)",
    "skat(preset=isko)",
    "skat(preset=lothar,kontra_re=yes,bock=lost_60+grand_hand,bock_ramsch=yes,schenken=yes)",
    "skat(preset=lothar,schieberamsch=yes,kontra_re=bid18,bock=kontra_won+grand_hand+lost_60)",
)


def _outcome(kind: str, scores: Sequence[int], declarer: int | None = None,
             value: int = 0, won: bool = False,
             game: GameType = GameType.GRAND, hand: bool = False) -> SkatOutcome:
    return SkatOutcome(kind=kind, scores=(scores[0], scores[1], scores[2]),
                       declarer=declarer, game=game if kind != "passed" else None,
                       value=value, won=won, hand=hand)


def won(pos: int, value: int) -> SkatOutcome:
    s = [0, 0, 0]
    s[pos] = value
    return _outcome("game", s, pos, value, True)


def lost(pos: int, value: int) -> SkatOutcome:
    s = [0, 0, 0]
    s[pos] = -2 * value
    return _outcome("game", s, pos, value, False, GameType.HERZ)


def ramsch(loser: int, points: int) -> SkatOutcome:
    s = [0, 0, 0]
    s[loser] = -points
    return _outcome("ramsch", s, game=GameType.RAMSCH)


PASSED = _outcome("passed", (0, 0, 0))


def _facts(t: SkatList) -> list[oracle.Game]:
    """The list's games as the oracle's plain facts."""
    n = len(t.players)
    return [oracle.Game(n, g.declarer, g.won, tuple(g.scores)) for g in t.games]


def _agree(t: SkatList) -> list[oracle.Line]:
    """The oracle's lines of the list; they must equal ``seeger`` and its places."""
    want = oracle.series(len(t.players), _facts(t))
    got = t.seeger()
    assert [(w.punkte, w.won, w.lost, w.others_lost, w.leistung) for w in want] \
        == [tuple(g) for g in got]
    assert [w.place for w in want] == seeger_places(got)
    return want


# --- hand-made series ---------------------------------------------------------------------


def test_a_won_and_a_lost_game_at_three() -> None:
    t = SkatList(["Ann", "Ben", "Cid"])  # Ann deals: Ben is Vorhand, Cid Mittelhand
    t.record_game(won(0, 48))  # Ben wins a Grand with one: 48 + 50 = 98
    # (Ben deals: Cid Vorhand, Ann Mittelhand) Ann plays Herz with two and loses
    t.record_game(lost(1, 30))
    # Ann: −60 − 50 = −110; Ben 48 + 50 + 40 = 138; Cid 0 + 40 = 40
    assert [ln.score for ln in t.seeger()] == [-110, 138, 40]
    assert [ln.others_lost for ln in t.seeger()] == [0, 1, 1]
    assert seeger_places(t.seeger()) == [3, 1, 2]
    _agree(t)


def test_a_lost_game_at_four_gives_the_dealer_who_sat_out_thirty() -> None:
    t = SkatList(["Ann", "Ben", "Cid", "Dora"])  # Ann deals and sits out
    t.record_game(lost(1, 24))  # Cid (Mittelhand) loses a Grand: −48 − 50 = −98
    # Ann (sat out), Ben, Dora: 30 each
    assert [ln.score for ln in t.seeger()] == [30, 30, -98, 30]
    t.record_game(won(2, 36))  # (Ben deals) Hinterhand is Ann: 36 + 50 = 86; Ann 116
    assert [ln.score for ln in t.seeger()] == [116, 30, -98, 30]
    assert _agree(t)[0].leistung == 116


def test_an_overbid_game_is_lost_with_twice_the_bid_value() -> None:
    # overbid: bid 24, a Schellen with one is worth 18; the list says −2 × 27 (the next
    # value above the bid, ISkO 5.3.x): the Preisskat list adds −50 on top
    t = SkatList(["Ann", "Ben", "Cid"])  # Ben is Vorhand
    t.record_game(_outcome("game", (-54, 0, 0), 0, 27, False, GameType.SCHELLEN))
    assert [ln.score for ln in t.seeger()] == [40, -104, 40]
    _agree(t)


def test_ramsch_and_passed_games_count_no_game_won_or_lost() -> None:
    t = SkatList(["Ann", "Ben", "Cid"])
    t.record_game(ramsch(2, 30))  # Ann (Hinterhand) loses the Ramsch: −30 on the list
    t.record_game(PASSED)  # passed in: nothing
    lines = t.seeger()
    assert [ln.score for ln in lines] == [-30, 0, 0]
    assert all(ln.won == ln.lost == ln.others_lost == 0 for ln in lines)
    assert seeger_places(lines) == [3, 1, 1]  # Ben and Cid: full tie, the place shared
    _agree(t)


def test_bock_and_kontra_are_in_the_list_score_the_fifty_is_not_doubled() -> None:
    rules = SkatRules.parse("skat(preset=lothar,kontra_re=yes,bock=grand_hand)")
    t = SkatList(["Ann", "Ben", "Cid"], rules=rules)
    # Grand Hand won by Ben (Vorhand): 72 (+ 50); a Bock round follows
    t.record_game(_outcome("game", (72, 0, 0), 0, 72, True, hand=True))
    assert t.next_bock() == 2
    # (Ben deals: Cid Vorhand) Cid loses a Herz with Kontra in Bock: the engine scores
    # −2 × 20 (Kontra doubled the value), the list × 2 (Bock) = −80; the 50 and the 40s
    # are not doubled
    t.record_game(_outcome("game", (-40, 0, 0), 0, 20, False, GameType.HERZ))
    assert t.games[-1].scores == (0, 0, -80)
    lines = t.seeger()
    # Ann 0 + 40 = 40; Ben 72 + 50 + 40 = 162; Cid −80 − 50 = −130
    assert [ln.score for ln in lines] == [40, 162, -130]
    _agree(t)


def test_ties_are_broken_by_games_won_then_by_games_lost() -> None:
    # equal Leistung 100: Ann won two (0 + 2 × 50), Ben one (50 + 50): Ann first
    lines = seeger([0, 50, 0], [2, 1, 0], [0, 0, 0])
    assert [ln.score for ln in lines] == [100, 100, 0]
    assert seeger_places(lines) == [1, 2, 3]
    # equal Leistung, equal games won: fewer lost first.  Ann 100 + 50 − 50 = 100;
    # Ben 10 + 50 + 40 (Ann's lost game) = 100; Cid 0 + 40 = 40
    lines = seeger([100, 10, 0], [1, 1, 0], [1, 0, 0])
    assert [ln.score for ln in lines] == [100, 100, 40]
    assert seeger_places(lines) == [2, 1, 3]


def test_a_short_series_by_hand() -> None:
    t = SkatList(["Ann", "Ben", "Cid"])
    t.record_game(won(0, 140))  # (Ann deals; Vorhand Ben) Ben 140 + 50 = 190
    t.record_game(won(0, 100))  # (Ben deals; Vorhand Cid) Cid 100 + 50 = 150
    t.record_game(lost(1, 10))  # (Cid deals; Mittelhand Ben) Ben −20 − 50; others + 40
    t.record_game(won(2, 10))  # (Ann deals; Hinterhand Ann) Ann 10 + 50
    # Ann 40 + 60 = 100; Ben 190 − 70 = 120; Cid 150 + 40 = 190
    assert [ln.score for ln in t.seeger()] == [100, 120, 190]
    assert seeger_places(t.seeger()) == [3, 2, 1]
    _agree(t)


def test_a_full_tie_shares_the_place() -> None:
    lines = seeger([20, 20, -10, 0], [1, 1, 0, 0], [0, 0, 0, 0])
    assert seeger_places(lines) == [1, 1, 4, 3]


def test_the_json_part_shows_every_column() -> None:
    t = SkatList(["Ann", "Ben", "Cid", "Dora"])
    t.record_game(lost(1, 24))
    part = seeger_json(t.seeger())
    assert part["won_each"] == 50 and part["others_each"] == 30
    cid = part["lines"][2]
    assert (cid["points"], cid["lost_points"], cid["score"], cid["place"]) == (-48, -50, -98, 4)
    assert part["lines"][0]["others_points"] == 30


def test_the_series_length() -> None:
    assert PREISSKAT_SERIES == {3: 36, 4: 48}
    assert series_games("seeger", 3, None) == 36 and series_games("seeger", 4, None) == 48
    assert series_games("seeger", 4, 8) == 8
    for bad in (0, 10, -4):
        with pytest.raises(ArgumentError):
            series_games("seeger", 4, bad)
    assert series_games("list", 3, 0) == 0  # the classic list may be open-ended


# --- generated series ---------------------------------------------------------------------


def choose(actions: Sequence[object], rng: random.Random) -> object:
    """A random choice that gives a mix of won and lost games: low bids often, high
    ones rarely; plain declarations mostly; now and then Kontra, Schenken, a claim."""
    texts = [str(a) for a in actions]
    nums = [i for i, t in enumerate(texts) if t.isdigit()]
    if nums:
        if rng.random() < (0.55 if int(texts[nums[0]]) <= 24 else 0.12):
            return actions[nums[0]]
        return actions[texts.index("pass")] if "pass" in texts else rng.choice(actions)
    if "hold" in texts and "pass" in texts:
        return actions[texts.index("hold" if rng.random() < 0.5 else "pass")]
    declare = [i for i, t in enumerate(texts) if t.startswith("declare")]
    if declare:
        plain = [i for i in declare
                 if not any(w in texts[i] for w in ("ouvert", "schneider", "schwarz"))]
        return actions[rng.choice(plain if plain and rng.random() < 0.9 else declare)]
    cards = [i for i, t in enumerate(texts) if len(t) == 2 and t[0] in "DHSC"]
    other = [i for i in range(len(texts)) if i not in cards]
    if other and (not cards or rng.random() < 0.15):
        return actions[rng.choice(other)]
    return actions[rng.choice(cards)] if cards else rng.choice(actions)


def play_series(players: int, rules: str, length: int, seed: int,
                seen: Counter[str]) -> SkatList:
    rng = random.Random(seed)
    r = SkatRules.parse(rules)
    t = SkatList([f"P{i}" for i in range(players)], rules=r,
                 first_dealer=rng.randrange(players))
    for number in range(length):
        ramsch_round = t.next_ramsch_round()
        state = SkatState.new(r, seed=seed * 1000 + number, ramsch_round=ramsch_round)
        while not state.is_over:
            state = state.apply(choose(state.legal_actions(), rng))  # type: ignore[arg-type]
        o = state.outcome()
        pos, factor = t.positions(), t.next_bock()
        entry = t.record_game(o, ramsch_round=ramsch_round)
        # the oracle's facts come from the game itself: who sat where, the list score
        want = [0] * players
        for seat, p in enumerate(pos):
            want[p] = o.scores[seat] * factor
        assert entry.scores == tuple(want)
        assert entry.declarer == (pos[o.declarer] if o.kind == "game"
                                  and o.declarer is not None else None)
        seen[o.kind if o.kind != "game" else ("won" if o.won else "lost")] += 1
        seen["kontra"] += bool(getattr(o, "kontra", False))
        seen["bock"] += factor > 1
        seen["gift"] += bool(getattr(o, "gift_accepted", False))
    return t


@pytest.mark.parametrize("players", [3, 4])
def test_generated_series_agree_with_the_oracle(players: int) -> None:
    rng = random.Random(43 + players)
    seen: Counter[str] = Counter()
    games = series = 0
    while games < GAMES:
        rules = RULE_SETS[series % len(RULE_SETS)]
        length = (PREISSKAT_SERIES[players] if series % 3 == 0
                  else players * rng.randint(1, 20))
        t = play_series(players, rules, length, seed=players * 100_000 + series, seen=seen)
        _agree(t)
        games += length
        series += 1
    # the mix the series covered (so the comparison meant something)
    assert seen["won"] > GAMES // 20 and seen["lost"] > GAMES // 5
    assert seen["ramsch"] > 50 and seen["passed"] > 50
    assert seen["kontra"] > 20 and seen["bock"] > 100
    print(f"{players} seats: {games} games in {series} series: {dict(seen)}")
