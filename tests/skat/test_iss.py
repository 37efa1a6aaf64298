"""The ISS record reader and writer against the real records in tests/data/validation/iss
(copies of the shared validation data)."""

from __future__ import annotations

import re

import pytest

from stich.cards import cards_of
from stich.skat import Declare, GameType, SkatRules, SkatState
from stich.skat.actions import Bid
from stich.skat.iss import (
    IssError,
    IssRecord,
    check_iss,
    check_line,
    declaration_code,
    parse_iss,
    replay_iss,
)
from stich.skat.iss_write import export_iss
from tests.skat.iss_data import LINES, modified, play_random

ISKO = SkatRules.preset("isko")

# The R[...] of every record that must agree: declarer, win, signed value, matadors,
# overbid, declarer points with the Skat, declarer tricks, Schneider, Schwarz.
AGREE = {
    "541932": ("suit game Karo, lost", 2, False, -54, -2, False, 59, 4, False, False),
    "684159": ("Grand mit 3", 2, True, 96, 3, False, 85, 8, False, False),
    "727": ("Grand Ouvert, both defenders resign", 0, True, 192, 1, False, 120, 10, True,
            True),
    "26496": ("Kreuz Hand Schwarz announced", 0, True, 108, 3, False, 120, 10, True, True),
    "596891": ("overbid Karo, split declaration '2 D 2 D9.DQ'", 2, False, -72, 1, True, 41,
               4, False, False),
    "1039093": ("Grand, show cards then resign", 1, True, 48, 1, False, 84, 5, False,
                False),
    "1390253": ("Null Ouvert, both defenders resign", 1, True, 46, 0, False, 14, 0, False,
                False),
    "8650652": ("overbid Karo ohne 1", 2, False, -72, -1, True, 75, 7, False, False),
}
CONTRACTS = {
    "541932": Declare(GameType.SCHELLEN),
    "684159": Declare(GameType.GRAND),
    "727": Declare(GameType.GRAND, True, True, True, True),
    "26496": Declare(GameType.EICHEL, True, True, True),
    "596891": Declare(GameType.SCHELLEN),
    "1039093": Declare(GameType.GRAND),
    "1390253": Declare(GameType.NULL, ouvert=True),
    "8650652": Declare(GameType.SCHELLEN),
}
SKIPPED = {"756788": "passed", "30": "penalty", "18358": "left"}


def test_the_file_holds_the_eleven_records() -> None:
    assert sorted(LINES) == sorted([*AGREE, *SKIPPED])


@pytest.mark.parametrize("game_id", sorted(AGREE), ids=lambda g: f"{g}-{AGREE[g][0]}")
def test_real_record_parses_and_replays_to_its_result(game_id: str) -> None:
    _, d, won, value, mat, overbid, points, tricks, schneider, schwarz = AGREE[game_id]
    rec = parse_iss(LINES[game_id])
    assert rec.game_id == game_id
    r = rec.result
    theirs = (r.declarer, r.won, r.value, r.matadors, r.overbid, r.points, r.tricks,
              r.schneider, r.schwarz)
    assert theirs == (d, won, value, mat, overbid, points, tricks, schneider, schwarz)
    rep = replay_iss(rec)
    o = rep.result
    ours = (o.declarer, o.won, o.value, o.matadors, o.overbid, o.points, o.tricks,
            o.schneider, o.schwarz)
    assert ours == theirs
    assert rep.state.contract == CONTRACTS[game_id]
    check = check_iss(rec)
    assert check.status == "agree", check.diffs


def test_players_deal_and_moves_are_read() -> None:
    rec = parse_iss(LINES["541932"])
    assert rec.players == ("zoot", "kermit", "foo")
    assert rec.series == "24072"
    assert rec.date == "2010-12-06/18:59:24/UTC"
    (h0, h1, h2), skat = rec.deal
    assert " ".join(sorted(str(c) for c in cards_of(skat))) == "CK H8"
    assert "HA" in {str(c) for c in cards_of(h0)}
    assert "CJ" in {str(c) for c in cards_of(h1)}
    assert "HJ" in {str(c) for c in cards_of(h2)}
    assert rec.moves[1] == ("1", "p")
    assert str(rec.moves[-1]) == "2 HT"


def test_resignation_endings() -> None:
    rep = replay_iss(parse_iss(LINES["727"]))
    assert rep.ending == "resigned" and rep.resigned == (1, 2)
    assert len(rep.state.trick) == 2  # CJ and H9 were on the table: the declarer gets them
    rep = replay_iss(parse_iss(LINES["1039093"]))
    assert rep.ending == "resigned" and rep.resigned == (2, 0)
    assert rep.result.resigned is True
    rep = replay_iss(parse_iss(LINES["1390253"]))
    assert rep.ending == "resigned" and rep.state.tricks == []


def test_split_declaration_and_engine_actions() -> None:
    rep = replay_iss(parse_iss(LINES["596891"]))
    texts = [str(a) for a in rep.actions]
    i = texts.index("pickup")
    assert texts[i + 1:i + 3] == ["discard D9 DQ", "declare schellen"]
    assert isinstance(rep.actions[0], Bid) and rep.actions[0].value == 18
    hand = [str(a) for a in replay_iss(parse_iss(LINES["26496"])).actions]
    assert "hand" in hand and "declare eichel hand schneider schwarz" in hand


@pytest.mark.parametrize("game_id", sorted(SKIPPED))
def test_skipped_records(game_id: str) -> None:
    check = check_line(LINES[game_id])
    assert (check.status, check.reason) == ("skipped", SKIPPED[game_id])


def test_corrupt_records() -> None:
    # Vorhand renounces Pik although holding SK: illegal
    bad = modified("541932", "0 SA 1 S7 2 DA 2 HJ 0 SJ", "0 SA 1 S7 2 DA 2 HJ 0 HA")
    check = check_line(bad)
    assert (check.status, check.reason) == ("skipped", "corrupt")
    assert "move" in check.detail
    # the server shows a wrong Skat
    check = check_line(modified("541932", "w H8.CK", "w H8.CQ"))
    assert check.reason == "corrupt" and "Skat" in check.detail
    # a move by the wrong seat
    check = check_line(modified("541932", "1 p 2 18", "2 p 2 18"))
    assert check.reason == "corrupt"
    # the moves stop in the middle of the game
    check = check_line(modified("541932", " 1 DK 2 HT ]", " ]"))
    assert check.reason == "corrupt" and "before the game is over" in check.detail
    # not a record at all / a broken deal
    assert check_line("(;GM[Skat]ID[5] nonsense ;)").reason == "corrupt"
    assert check_line(modified("541932", "w HA.SK.", "w HA.HA.")).reason == "corrupt"
    with pytest.raises(IssError):
        parse_iss("hello")
    # a server move that names no seat
    check = check_line(modified("541932", " 1 DK 2 HT ]", " w LE.x ]"))
    assert check.reason == "corrupt" and "unexpected server move" in check.detail


def test_timeout_record_is_compared() -> None:
    # 541932: Mittelhand runs out of time in the last trick (after SK); the declarer
    # takes SK DK HT (18) as if both defenders had resigned: 77 points, 5 tricks, won 27
    line = modified("541932", " 1 DK 2 HT ]", " w TI.1 ]")
    line = line.replace("loss v:-54", "win v:27").replace("p:59 t:4", "p:77 t:5")
    line = line.replace("to:-1 r:0", "to:1 r:0")
    check = check_line(line)
    assert check.status == "agree", (check.detail, check.diffs)
    assert check.replay is not None and check.replay.ending == "timeout"


def test_disagreement_is_reported_by_field() -> None:
    check = check_line(modified("541932", "v:-54", "v:-60"))
    assert check.status == "disagree"
    assert check.diffs == (("value", -54, -60),)


def test_other_declaration_spellings() -> None:
    # The live protocol appends an Ouvert declarer's cards; modifiers in any order.
    rec = parse_iss(LINES["727"])
    vorhand = ".".join(str(c) for c in cards_of(rec.deal[0][0]))
    assert check_line(modified("727", "0 GO ", f"0 GHO.{vorhand} ")).status == "agree"
    assert check_line(modified("727", "0 GO ", f"0 GOHZS.{vorhand} ")).status == "agree"
    wrong = vorhand.replace("HJ", "DA")
    assert check_line(modified("727", "0 GO ", f"0 GO.{wrong} ")).reason == "corrupt"
    rec = parse_iss(LINES["1390253"])
    hand = rec.deal[0][1] | rec.deal[1]
    cards = [str(c) for c in cards_of(hand) if str(c) not in ("HA", "HQ")]
    line = modified("1390253", "1 NO.HA.HQ", "1 NO.HA.HQ." + ".".join(cards))
    assert check_line(line).status == "agree"
    line = modified("1390253", "1 NO.HA.HQ", "1 NO.??.??." + ".".join(cards))
    assert check_line(line).reason == "corrupt"  # the discard is hidden


def test_declaration_codes() -> None:
    assert declaration_code(Declare(GameType.SCHELLEN)) == "D"
    assert declaration_code(Declare(GameType.GRAND, True, True, True, True)) == "GO"
    assert declaration_code(Declare(GameType.EICHEL, True, True, True)) == "CHZ"
    assert declaration_code(Declare(GameType.HERZ, True, True)) == "HHS"
    assert declaration_code(Declare(GameType.GRUEN, True)) == "SH"
    assert declaration_code(Declare(GameType.NULL, True, ouvert=True)) == "NOH"
    assert declaration_code(Declare(GameType.NULL, ouvert=True)) == "NO"


# --- export round trip ------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(300))
def test_export_round_trip(seed: int) -> None:
    state = play_random(ISKO, seed)
    line = export_iss(state, ["a", "b", "c"], game_id=str(seed), date="2026-01-01/00:00:00/UTC")
    rec: IssRecord = parse_iss(line)
    assert rec.players == ("a", "b", "c") and rec.game_id == str(seed)
    check = check_iss(rec)
    if state.end_reason == "passed":
        assert (check.status, check.reason) == ("skipped", "passed")
        return
    assert check.status == "agree", (check, line)
    assert check.replay is not None
    replayed = check.replay.state
    assert replayed.history == state.history
    assert replayed.outcome() == state.outcome()
    assert export_iss(replayed, ["a", "b", "c"], game_id=str(seed),
                      date="2026-01-01/00:00:00/UTC") == line


def test_export_refuses_other_rules_and_unfinished_games() -> None:
    with pytest.raises(ValueError, match="ISkO"):
        export_iss(play_random(SkatRules(), 1), ["a", "b", "c"])
    with pytest.raises(ValueError, match="not over"):
        export_iss(SkatState.new(ISKO, seed=1), ["a", "b", "c"])
    with pytest.raises(ValueError, match="player name"):
        export_iss(play_random(ISKO, 1), ["a b", "b", "c"])


def _resigned_at(line: str, cards_played: int, seats: tuple[int, ...]) -> str:
    """The line with the card play cut after ``cards_played`` cards and RE moves added."""
    head, mv, tail = re.match(r"(.*MV\[)(.*?)( \]R\[.*)", line).groups()  # type: ignore[union-attr]
    words = mv.split()
    pairs = [f"{words[i]} {words[i + 1]}" for i in range(0, len(words), 2)]
    card_at = [i for i, p in enumerate(pairs) if re.fullmatch(r"[012] [CSHD][789TJQKA]", p)]
    cut = card_at[cards_played] if cards_played < len(card_at) else len(pairs)
    kept = pairs[:cut] + [f"{s} RE" for s in seats]
    return head + " ".join(kept) + tail.replace(" r:0]", " r:1]")


@pytest.mark.parametrize("seed", range(200))
def test_resignation_agrees_with_playing_on(seed: int) -> None:
    """When the declarer in fact won every remaining trick, both defenders resigning at
    that point (or one card later, the open trick included) gives the played result."""
    state = play_random(ISKO, seed)
    if state.end_reason != "played" or state.game is GameType.NULL:
        return
    d = state.declarer
    tricks = state.tricks
    k = len(tricks)
    while k > 0 and tricks[k - 1][2] == d:
        k -= 1
    if k == len(tricks):
        return
    line = export_iss(state, ["a", "b", "c"], date="x")
    defenders = tuple(s for s in range(3) if s != d)
    for played in (3 * k, 3 * k + 1):
        check = check_line(_resigned_at(line, played, defenders))
        assert check.replay is not None and check.replay.ending == "resigned"
        assert check.status == "agree", check.diffs
