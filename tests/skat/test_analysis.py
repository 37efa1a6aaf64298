"""Open-hand analysis of a finished game: values against a brute force, blunders, a
perfectly played game, the discard search, the goal, the errors, and `stich analyze`."""

from __future__ import annotations

import json
import random
import re
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from stich.baptisten import BaptistenRules, BaptistenState
from stich.bots import make_bot
from stich.cards import CARDS, Card, card_points, cards_of
from stich.cli import app
from stich.messages import GameName, Msg
from stich.record import baptisten_record, skat_record
from stich.skat import Declare, GameType, Phase, SkatRules, SkatState
from stich.skat.analysis import AnalysisError, analyze, game_goal
from stich.skat.solver import Position, card_values, null_won, solve

from ..refusals import refused
from .helpers import ISKO, LOTHAR, act, deal, play

runner = CliRunner()
CARD = re.compile(r"[CSHD][789TJQKA]")


# --- helpers -------------------------------------------------------------------------------


def brute(s: SkatState) -> int:
    """The value of a card-play state by plain minimax over the engine's own moves:
    total declarer points at the end (Skat included), or for Null 1 if the declarer
    takes no trick.  Independent of the solver; only for a few cards left."""
    d = s.declarer
    if s.is_over:
        if s.game is GameType.NULL:
            return int(s.tricks_won[d] == 0)
        return s.points[d] + card_points(s.skat)
    values = [brute(s.apply(c)) for c in cards_of(s.legal_cards())]
    return max(values) if s.to_move == d else min(values)


def bot_game(seed: int, rules: SkatRules = LOTHAR) -> SkatState:
    """A game of three heuristic bots from a seeded deal."""
    rng = random.Random(seed)
    bots = [make_bot("heuristic") for _ in range(3)]
    s = SkatState.new(rules, seed=seed)
    while not s.is_over:
        s = s.apply(bots[s.to_move].choose(s.view(s.to_move), rng))
    return s


def declared_games(n: int) -> list[SkatState]:
    out = []
    seed = 0
    while len(out) < n:
        s = bot_game(seed)
        seed += 1
        if analysable(s):
            out.append(s)
    return out


def position(s: SkatState) -> Position:
    assert s.game is not None
    return Position(s.game, s.hands, s.declarer, s.to_move, s.trick)


def best_card(s: SkatState, worst: bool = False) -> int:
    """A best card (or, with ``worst``, a worst one) by the solver's card values."""
    cv = card_values(position(s))
    maximise = (s.to_move == s.declarer) != worst
    target = max(cv.values()) if maximise else min(cv.values())
    return min(c for c, v in cv.items() if v == target)


def play_best(s: SkatState, blunder_at: int = -1) -> SkatState:
    """Play to the end, every card a best one; the card number ``blunder_at`` (counted
    from this state) a worst one."""
    i = 0
    while not s.is_over:
        s = s.apply(CARDS[best_card(s, worst=i == blunder_at)])
        i += 1
    return s


def prefix(s: SkatState, n_cards_left: int) -> SkatState:
    """The state of the same game when ``n_cards_left`` cards were still to be played."""
    return next(x for x in s.replay_states() if x.phase is Phase.PLAY
                and sum(h.bit_count() for h in x.hands) == n_cards_left)


def analysable(s: SkatState) -> bool:
    return s.game not in (None, GameType.RAMSCH) and s.end_reason != "null_overbid"


# --- goal ----------------------------------------------------------------------------------


def test_goal_levels() -> None:
    herz = Declare(GameType.HERZ)
    assert game_goal(LOTHAR, herz, bid=18, matadors=1).points == 61
    # Herz mit 1 is 20: bid 30 needs Schneider (Spiel 3), bid 40 Schwarz, 60 nothing
    assert game_goal(LOTHAR, herz, bid=30, matadors=1).points == 90
    assert game_goal(LOTHAR, herz, bid=40, matadors=1).kind == "all_tricks"
    assert game_goal(LOTHAR, herz, bid=60, matadors=1).kind == "impossible"
    sch = Declare(GameType.GRAND, hand=True, schneider=True)
    assert game_goal(ISKO, sch, bid=18, matadors=2).points == 90
    schw = Declare(GameType.GRAND, hand=True, schneider=True, schwarz=True)
    assert game_goal(ISKO, schw, bid=18, matadors=2).kind == "all_tricks"
    ouvert = Declare(GameType.GRAND, hand=True, ouvert=True)
    assert game_goal(LOTHAR, ouvert, bid=18, matadors=2).points == 61  # no announcements
    assert game_goal(ISKO, Declare(GameType.GRAND, True, True, True, True), bid=18,
                     matadors=2).kind == "all_tricks"
    null = game_goal(LOTHAR, Declare(GameType.NULL), bid=18, matadors=0)
    assert (null.kind, null.value) == ("no_trick", 23)


# --- values --------------------------------------------------------------------------------


@pytest.mark.parametrize("game", declared_games(4), ids=lambda s: str(s.contract))
def test_values_agree_with_brute_force_in_the_last_tricks(game: SkatState) -> None:
    a = analyze(game, all_cards=True)
    states = [x for x in game.replay_states() if x.phase is Phase.PLAY]
    assert len(a.moves) == len(states)  # the game is over: one state per card
    for m, s in zip(a.moves, states, strict=True):
        assert m.values is not None
        assert m.values[m.card] == m.value and m.values[m.best_card] == m.best_value
        pick = max if m.by_declarer else min
        assert pick(m.values.values()) == m.best_value
        assert m.loss >= 0 and (m.loss > 0) == (m.card != m.best_card)
        if sum(h.bit_count() for h in s.hands) <= 9:  # the last three tricks: brute force
            assert m.best_value == brute(s)
            for c, v in m.values.items():
                assert v == brute(s.apply(CARDS[c])), (m.index, CARDS[c])


def test_a_hand_built_ending() -> None:
    # Grand Hand of Vorhand: seven tricks of Unter and Asse, then Vorhand keeps CT ST D7,
    # Mittelhand HA HT HK, Hinterhand SK SQ DQ.  The D7 loses to the DQ, and Mittelhand
    # puts the HA on it: the defenders get 14 whatever Vorhand leads (106 for Vorhand).
    # Hinterhand throws the DQ away on the CT instead: it costs 14, Vorhand takes all.
    s = deal(LOTHAR, "CJ SJ HJ DJ CA CT CK SA ST D7", "HA HT HK HQ H9 H8 H7 DA DT DK",
             "CQ C9 C8 C7 SK SQ S9 S8 S7 DQ", "D9 D8")
    s = act(s, "pass", "pass", "18", "hand", "declare grand hand")
    s = play(s, "CJ H7 C7 SJ H8 C8 HJ H9 C9 DJ HQ S7 CA DK CQ CK DT S8 SA DA S9")
    ending = s
    assert ending.points[0] == 65
    s = play(s, "CT HK DQ ST HT SQ D7 HA SK")
    a = analyze(s, all_cards=True)
    m = a.moves[21]
    assert (m.card, m.value, m.best_value, m.loss) == (Card.parse("CT").index, 106, 106, 0)
    assert m.values == {c.index: 106 for c in cards_of(ending.hands[0])}
    blunder = a.moves[23]
    assert CARDS[blunder.card] is Card.parse("DQ") and blunder.seat == 2
    assert (blunder.value, blunder.best_value, blunder.loss) == (120, 106, 14)
    assert a.final_value == 120 and a.won
    for i in range(21, 30):  # every card of the last three tricks against the brute force
        state = prefix(s, 30 - i)
        assert a.moves[i].best_value == brute(state)


def test_values_are_total_points_of_the_declarer() -> None:
    game = declared_games(1)[0]
    a = analyze(game)
    first = a.moves[0]
    rest = solve(first.position)
    assert a.start_value == first.best_value == card_points(game.skat) + rest
    assert a.final_value == game.outcome().declarer_points
    assert a.moves[-1].value == a.final_value
    for before, after in zip(a.moves, a.moves[1:], strict=False):
        assert before.value == after.best_value  # the card played leads to the next position


def test_a_deliberate_blunder_costs_what_brute_force_says() -> None:
    found = 0
    for seed in range(40):
        s = bot_game(seed)
        if s.game in (None, GameType.RAMSCH, GameType.NULL) or s.end_reason != "played":
            continue
        start = prefix(s, 9)  # three tricks before the end
        worst = best_card(start, worst=True)
        best = brute(start)
        blunder = brute(start.apply(CARDS[worst]))
        if best == blunder:
            continue
        game = play_best(start, blunder_at=0)
        a = analyze(game)
        m = a.moves[-9]
        assert m.card == worst and m.loss == abs(best - blunder) > 0
        assert m.best_value == best and m.value == blunder
        assert all(x.loss == 0 for x in a.moves[-8:])  # perfect play afterwards
        found += 1
        if found == 3:
            break
    assert found == 3


def test_a_perfectly_played_game_has_no_mistakes() -> None:
    s = act(SkatState.new(seed=5), "pass", "pass", "18", "hand", "declare grand hand")
    game = play_best(s)
    a = analyze(game)
    assert len(a.moves) == 30 and not a.mistakes
    assert all(m.mark == "" for m in a.moves)
    assert a.start_value == a.final_value == game.outcome().declarer_points
    assert a.winning_discards is None  # Hand: the Skat stays
    assert a.start_winnable == a.won == (a.final_value is not None and a.final_value >= 61)


def test_card_points_given_away_are_no_mistake_when_the_game_is_worth_the_same() -> None:
    """A 120:0 Grand Hand: the defenders throw their points to the declarer (card-point
    losses, kept as detail), but the game is won with Schneider whatever they do (Schwarz
    never within reach: the 0-point last trick goes to a defender), so none of those
    cards is a mistake."""
    hands = ("CJ SJ HJ DJ CA CT HA HT DA S7", "SA ST SK SQ S9 S8 C9 H9 D9 DT",
             "CK CQ C8 C7 HK HQ H8 H7 DK DQ")
    s = act(deal(LOTHAR, *hands, "D8 D7"), "pass", "pass", "18", "hand", "declare grand hand")
    while not s.is_over:  # the declarer plays best, the defenders give the most away
        s = s.apply(CARDS[best_card(s, worst=s.to_move != s.declarer)])
    a = analyze(s)
    o = s.outcome()  # Grand Hand mit 4, Schneider: 168
    assert a.final_value == 120 and o.value == 168 and o.won and not o.schwarz
    gifts = [m for m in a.moves if m.loss > 0]
    assert len(gifts) >= 3 and all(not m.by_declarer for m in gifts)
    assert a.mistakes == () and all(m.cost == 0 for m in a.moves)
    assert a.start_worth == 168 and all(m.worth_after == 168 for m in a.moves)
    d = a.to_dict()
    assert d["mistakes"] == 0 and sum(m["loss"] > 0 for m in d["moves"]) == len(gifts)
    assert all(m["mistake"] is False and m["cost"] == 0 for m in d["moves"])


def test_lost_here_marks_the_declarer_card_that_lost_the_game() -> None:
    for seed in range(60):
        s = bot_game(seed)
        a = analyze(s) if analysable(s) else None
        if a is None or a.lost_at is None:
            continue
        m = a.moves[a.lost_at]
        assert m.by_declarer and m.winnable_before and not m.winnable_after
        # losing the game changes what it is worth: a mistake, whatever the points
        assert m.is_mistake and m.cost > 0 and m.worth_after < 0 < m.worth_before
        assert m in a.mistakes
        assert not a.won and all(not x.winnable_after for x in a.moves[a.lost_at:])
        return
    pytest.fail("no bot game was lost by the declarer from a won position")


def test_a_null_lost_by_perfect_defence() -> None:
    s = act(SkatState.new(seed=0), "pass", "pass", "18", "hand", "declare null hand")
    a = analyze(play_best(s))
    assert a.goal.kind == "no_trick" and not a.start_winnable and not a.won
    assert a.final_value == 0 and len(a.moves) == 9  # the declarer's trick ends it
    assert all(m.value == m.best_value == 0 and not m.winnable_after for m in a.moves)


def test_a_won_null_keeps_every_position_won() -> None:
    s = act(SkatState.new(seed=15), "pass", "pass", "18", "hand", "declare null hand")
    while not s.is_over:  # the declarer keeps the Null won, the defenders play anything
        cards = cards_of(s.legal_cards())
        if s.to_move == s.declarer:
            s = next(t for t in (s.apply(c) for c in cards) if not t.tricks_won[0]
                     and (t.is_over or null_won(position(t))))
        else:
            s = s.apply(cards[0])
    a = analyze(s)
    assert a.won and a.start_winnable and a.final_value == 1
    assert all(m.winnable_after and m.value == 1 for m in a.moves)
    assert not [m for m in a.mistakes if m.by_declarer]


def test_schwarz_announced_needs_every_trick() -> None:
    hands = ("CJ SJ HJ DJ CA CT CK SA ST SK", "HA HT HK HQ H9 H8 H7 DA DT DK",
             "CQ C9 C8 C7 SQ S9 S8 S7 DQ D9")
    strong = act(deal(ISKO, *hands, "D8 D7"), "pass", "pass", "18", "hand",
                 "declare grand hand schneider schwarz")
    a = analyze(play_best(strong))
    assert a.goal.kind == "all_tricks" and a.start_winnable and a.won
    assert all(m.winnable_after for m in a.moves)
    # with the D7 instead of the SK the Schneider is there, the Schwarz is not
    hands = ("CJ SJ HJ DJ CA CT CK SA ST D7", "HA HT HK HQ H9 H8 H7 DA DT DK",
             "CQ C9 C8 C7 SK SQ S9 S8 S7 DQ")
    weak = act(deal(ISKO, *hands, "D9 D8"), "pass", "pass", "18", "hand",
               "declare grand hand schneider schwarz")
    a = analyze(play_best(weak))
    assert a.start_value >= 90 and not a.start_winnable and not a.won
    assert not any(m.winnable_before or m.winnable_after for m in a.moves)


# --- discards ------------------------------------------------------------------------------


def test_the_discard_search_finds_the_winning_discards() -> None:
    # seed 7: Vorhand picks up, puts away two Unter and loses the Grand with open cards;
    # 15 other discards win it
    s = act(SkatState.new(seed=7), "pass", "pass", "18", "pickup")
    owned = s.hands[0]
    jacks = [c for c in cards_of(owned) if c.rank == 7][:2]
    s = act(s, "discard " + " ".join(str(c) for c in jacks), "declare grand")
    a = analyze(s)
    assert not a.start_winnable and a.winning_discards
    assert s.skat not in a.winning_discards
    expected = []
    for x, y in combinations(cards_of(owned), 2):
        skat = x.bit | y.bit
        pos = Position(GameType.GRAND, (owned & ~skat, s.hands[1], s.hands[2]), 0, 0)
        if card_points(skat) + solve(pos) >= 61:
            expected.append(skat)
    assert list(a.winning_discards) == expected


# --- errors --------------------------------------------------------------------------------


def test_games_without_a_declarer_are_refused() -> None:
    ramsch = act(SkatState.new(LOTHAR, seed=1), "pass", "pass", "pass")
    with refused("analysis.ramsch", AnalysisError) as e:
        analyze(ramsch)
    assert str(e.value) == "Ramsch: no declarer to analyse"
    assert e.value.text("de") == "Ramsch: kein Alleinspieler zu analysieren"
    passed = act(SkatState.new(ISKO, seed=1), "pass", "pass", "pass")
    with refused("analysis.all_passed", AnalysisError) as e:
        analyze(passed)
    assert str(e.value) == "everybody passed: no declarer to analyse"
    assert e.value.text("de") == "Alle haben gepasst: kein Alleinspieler, nichts zu analysieren"
    with refused("analysis.not_declared", AnalysisError):
        analyze(act(SkatState.new(seed=1), "18"))


def test_a_null_overbid_is_lost_before_play() -> None:
    s = act(SkatState.new(LOTHAR, seed=1), "18", "hold", "20", "hold", "22", "hold", "23",
            "hold", "24", "pass", "pass", "pickup")
    s = act(s, "discard " + " ".join(str(c) for c in cards_of(s.hands[s.declarer])[:2]),
            "declare null")
    assert s.end_reason == "null_overbid"
    with refused("analysis.null_overbid", AnalysisError, value=23, bid=24,
                 game=Msg("skat.null", {"game": GameName("null")})) as e:
        analyze(s)
    assert str(e.value) == ("Null overbid: Null is worth 23, the bid was 24; the game was lost "
                            "at the declaration, no card was played")
    assert e.value.text("de") == ("Null überreizt: Null ist 23 wert, gereizt wurde bis 24; das "
                                  "Spiel war mit der Ansage verloren, keine Karte wurde gespielt")


def test_an_unfinished_game_is_analysed_so_far() -> None:
    s = act(SkatState.new(seed=5), "pass", "pass", "18", "hand", "declare grand hand")
    for _ in range(4):
        s = s.apply(CARDS[best_card(s)])
    a = analyze(s)
    assert len(a.moves) == 4 and a.final_value is None and a.won is None


# --- the command ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> Path:
    result = runner.invoke(app, ["play", "skat", "--bots", "3", "--games", "2", "--seed", "3",
                                 "--json"])
    assert result.exit_code == 0, result.output
    path = tmp_path_factory.mktemp("rec") / "games.jsonl"
    path.write_text(result.output, encoding="utf-8")
    return path


def invoke(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        result.output, result.exception)
    return result.exit_code, result.stdout, result.stderr


def test_cli_table(records: Path) -> None:
    code, out, _ = invoke("analyze", str(records))
    assert code == 0
    assert "Analyse mit offenen Karten" in out and "Bemerkung" in out and "Ergebnis" in out
    code, out, _ = invoke("analyze", str(records), "--index", "1", "--lang", "en")
    assert code == 0 and "Analysis with open cards" in out and "Trick" in out


def test_cli_json(records: Path) -> None:
    code, out, _ = invoke("analyze", str(records), "--index", "1", "--json")
    assert code == 0
    data = json.loads(out)
    rec = json.loads(records.read_text().splitlines()[1])
    assert data["index"] == 1 and data["players"] == rec["players"]
    assert data["contract"] == next(a for a in rec["actions"] if a.startswith("declare"))
    assert data["final_value"] == rec["result"]["declarer_points"]
    assert data["won"] == rec["result"]["won"]
    assert len(data["moves"]) == sum(1 for x in rec["actions"] if CARD.fullmatch(x))
    first = data["moves"][0]
    assert set(first) >= {"trick", "seat", "card", "position", "value", "best_card",
                          "best_value", "loss", "winnable_before", "winnable_after", "mark"}
    assert first["best_value"] == data["start_value"]


def write(tmp_path: Path, rec: dict[str, Any]) -> Path:
    path = tmp_path / "rec.json"
    path.write_text(json.dumps(rec), encoding="utf-8")
    return path


def test_cli_refuses_ramsch_passed_unfinished_and_baptisten(tmp_path: Path) -> None:
    ramsch = act(SkatState.new(LOTHAR, seed=1), "pass", "pass", "pass")
    while not ramsch.is_over:
        ramsch = ramsch.apply(ramsch.legal_actions()[0])
    cases: list[tuple[dict[str, Any], str, str]] = [
        (skat_record(ramsch), "Ramsch: no declarer to analyse",
         "Ramsch: kein Alleinspieler zu analysieren"),
        (skat_record(act(SkatState.new(ISKO, seed=1), "pass", "pass", "pass")),
         "everybody passed: no declarer", "Alle haben gepasst: kein Alleinspieler"),
        (skat_record(act(SkatState.new(seed=5), "pass", "pass", "18")),
         "the game is not finished (3 actions, phase SKAT)",
         "Die Partie ist nicht zu Ende (3 Aktionen, Phase SKAT)"),
    ]
    b = BaptistenState.new(BaptistenRules(players=3, max_cards=2), seed=5)
    rng = random.Random(5)
    while not b.is_over:
        b = b.apply(rng.choice(b.legal_actions()))
    cases.append((baptisten_record(b, ["Ann", "Ben", "Cid"]),
                  "a baptisten record; stich analyze reads Skat records only",
                  "ein baptisten-Protokoll; stich analyze liest nur Skat-Protokolle"))
    for rec, english, german in cases:
        path = write(tmp_path, rec)
        code, _, err = invoke("analyze", str(path), "--lang", "en")
        assert code == 1 and err == f"error: {path}: {english}" + err[len(
            f"error: {path}: {english}"):], (english, err)
        code, _, err = invoke("analyze", str(path))  # German by default
        assert code == 1 and err.startswith(f"Fehler: {path}: {german}"), (german, err)


def test_cli_bad_index_and_file(records: Path, tmp_path: Path) -> None:
    code, _, err = invoke("analyze", str(records), "--index", "5", "--lang", "en")
    assert code == 1 and err == f"error: {records} holds 2 records: use --index 0 to 1\n"
    code, _, err = invoke("analyze", str(records), "--index", "5")
    assert code == 1 and err == f"Fehler: {records} enthält 2 Protokolle: wähle --index 0 bis 1\n"
    missing = tmp_path / "missing.json"
    code, _, err = invoke("analyze", str(missing))
    assert code == 1 and err == f"Fehler: die Datei {missing} gibt es nicht\n"
    code, _, err = invoke("analyze", str(missing), "--lang", "en")
    assert code == 1 and err == f"error: there is no file {missing}\n"


def test_cli_analyses_a_record_before_the_damage_of_a_cut_off_file(
        records: Path, tmp_path: Path) -> None:
    """A file cut off in its second record: the first is analysed, the second is reported
    as damaged, in words."""
    text = records.read_text(encoding="utf-8")
    cut = tmp_path / "cut.jsonl"
    cut.write_text(text[:len(text.splitlines()[0]) + 40], encoding="utf-8")
    code, out, err = invoke("analyze", str(cut), "--lang", "en")
    assert code == 0 and "Analysis with open cards" in out and err == ""
    code, _, err = invoke("analyze", str(cut), "--index", "1", "--lang", "en")
    assert code == 1 and err == (f"error: {cut} is cut off: it ends in the middle of record 1 "
                                 "(line 2)\n")


def test_cli_names_the_record_of_a_file_with_several(records: Path, tmp_path: Path) -> None:
    lines = records.read_text().splitlines()
    rec = json.loads(lines[1])
    rec["actions"] = rec["actions"][:3]
    del rec["result"]
    path = tmp_path / "two.jsonl"
    path.write_text(lines[0] + "\n" + json.dumps(rec) + "\n", encoding="utf-8")
    code, _, err = invoke("analyze", str(path), "--index", "1", "--lang", "en")
    assert code == 1 and err.startswith(f"error: {path} record 1: the game is not finished")
    code, _, err = invoke("analyze", str(path), "--index", "1")
    assert code == 1 and err.startswith(f"Fehler: {path}, Protokoll 1: Die Partie ist nicht")
