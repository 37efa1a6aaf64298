"""Issue 42: the house rules (Kontra/Re, Jungfrau, Durchmarsch, Skat to the loser,
Schieberamsch, Klopfen, the compulsory Ramsch of a Ramsch round with Grand Hand allowed
instead, Spitze) and the declarer's claim of the rest and giving up (every rule set)
against an independent oracle (``tests/skat/house_oracle.py``).

Two kinds of tests:

- hand-made deals, one or two per rule, with the expected scores worked out by hand in
  the comments from the rule texts (RULES.md, the issue's interface notes, XSkat's manual);
  both the engine and the oracle must give them;
- many generated games with the house rules mixed at random, played by choosing among
  the engine's legal actions; the oracle replays each game from the deal and the action
  texts alone and must agree on every score and key fact, and at every step on who is
  to move and whether ``kontra``, ``re``, ``schieben`` and ``klopfen`` are allowed (and,
  at the start of a Ramsch round's game, that the choice is ``declare grand hand`` or
  ``pass``), that every bid and every declaration offered (Spitze included: its card in
  the hand, not in Null, not in Grand with four Unter; the ladder's values only Spitze
  reaches exactly when it is played) is the oracle's own list, and that
  ``SkatState.claims()`` offers exactly the ``claim``/``giveup`` the rule text allows
  (no ``claim`` in a Spitze game).  Spitze is played in three games of four, and a fifth
  of the otherwise random games deal a declarer a strong game with its Spitze card, who
  mostly keeps it for the last trick (and sometimes plays it at once).  In a share of
  the declared games a player claims or gives up once at most four tricks are left; the
  oracle judges a claim by its own exhaustive search.
  The number of games is ``STICH_ORACLE_GAMES`` (default 10,000).
"""

from __future__ import annotations

import dataclasses
import os
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from stich.cards import parse_cards
from stich.core import IllegalActionError
from stich.record import replay, skat_record
from stich.skat import SkatOutcome, SkatRules, SkatState

from .house_oracle import (
    CLAIM_ACTIONS,
    DECK,
    ROUND_START,
    OracleError,
    OracleResult,
    Replay,
    bidding_ladder,
    evaluate,
    spitze_card,
)

Deal = tuple[str, str, str, str]  # Vorhand, Mittelhand, Hinterhand, Skat


def _acts(text: str) -> list[str]:
    """Actions written as ``"pass, pass, 18, pickup, discard CK DQ, CA"``."""
    return [a.strip() for a in text.split(",") if a.strip()]


def _state(rules: str, deal: Deal, ramsch_round: bool = False) -> SkatState:
    hands = [parse_cards(h) for h in deal[:3]]
    return SkatState.new(SkatRules.parse(rules), hands=hands, skat=parse_cards(deal[3]),
                         ramsch_round=ramsch_round)


def _engine(rules: str, deal: Deal, actions: Sequence[str],
            ramsch_round: bool = False) -> SkatState:
    state = _state(rules, deal, ramsch_round)
    for text in actions:
        state = state.apply_text(text)
    return state


def _texts(state: SkatState) -> set[str]:
    return {str(a) for a in state.legal_actions()}


def _claims(state: SkatState) -> set[str]:
    return {str(a) for a in state.claims()}


def _engine_facts(o: SkatOutcome) -> dict[str, Any]:
    return {
        "kind": o.kind, "scores": tuple(o.scores), "declarer": o.declarer,
        "game": None if o.game is None or o.kind != "game" else o.game.value,
        "bid": o.bid, "hand": o.hand, "ouvert": o.ouvert, "matadors": o.matadors,
        "multiplier": o.multiplier, "value": o.value, "declarer_points": o.declarer_points,
        "schneider": o.schneider, "schwarz": o.schwarz, "overbid": o.overbid, "won": o.won,
        "kontra": o.kontra, "re": o.re, "loser": o.loser, "pushes": o.pushes,
        "knocks": o.knocks, "jungfrau": o.jungfrau, "durchmarsch": o.durchmarsch,
        "spitze": o.spitze, "spitze_made": o.spitze_made, "points": tuple(o.points),
        "tricks": tuple(o.tricks), "revolution": o.revolution, "gift": o.gift,
        "gift_accepted": o.gift_accepted,
    }


def _oracle_facts(r: OracleResult) -> dict[str, Any]:
    return {
        "kind": r.kind, "scores": r.scores, "declarer": r.declarer, "game": r.game,
        "bid": r.bid, "hand": r.hand, "ouvert": r.ouvert, "matadors": r.matadors,
        "multiplier": r.multiplier, "value": r.value, "declarer_points": r.declarer_points,
        "schneider": r.schneider, "schwarz": r.schwarz, "overbid": r.overbid, "won": r.won,
        "kontra": r.kontra, "re": r.re, "loser": r.loser, "pushes": r.pushes,
        "knocks": r.knocks, "jungfrau": r.jungfrau, "durchmarsch": r.durchmarsch,
        "spitze": r.spitze, "spitze_made": r.spitze_made, "points": r.points,
        "tricks": r.tricks, "revolution": r.revolution, "gift": r.gift,
        "gift_accepted": r.gift_accepted,
    }


def _check_record(state: SkatState, ramsch_round: bool) -> None:
    """The record says how the game started and replays to the same result (and the
    same end: a claim or a giveup included); the result writes ``knocks`` only when
    somebody knocked."""
    record = skat_record(state)
    assert record.get("start") == ("ramsch_round" if ramsch_round else None)
    again = replay(record)
    assert isinstance(again, SkatState)
    assert again.outcome() == state.outcome() and again.end_reason == state.end_reason
    knocks = state.outcome().knocks
    assert record["result"].get("knocks") == (knocks or None)
    spitze = state.outcome().spitze
    assert record["result"].get("spitze") == (spitze or None)


def _both(rules: str, deal: Deal, actions: Sequence[str],
          ramsch_round: bool = False) -> tuple[SkatOutcome, OracleResult]:
    """The engine's and the oracle's result of one scripted game; they must agree."""
    state = _engine(rules, deal, actions, ramsch_round)
    assert state.is_over
    outcome = state.outcome()
    result = evaluate(rules, deal[:3], deal[3], actions, ramsch_round)
    assert _engine_facts(outcome) == _oracle_facts(result)
    assert state.end_reason == result.end
    _check_record(state, ramsch_round)
    return outcome, result


def _refused(rules: str, deal: Deal, before: Sequence[str], action: str,
             ramsch_round: bool = False) -> None:
    """``action`` after ``before`` is refused by the engine and by the oracle."""
    state = _engine(rules, deal, before, ramsch_round)
    assert action not in _texts(state) | _claims(state)
    with pytest.raises(IllegalActionError):
        state.apply_text(action)
    replay = Replay.new(rules, deal[:3], deal[3], ramsch_round)
    for text in before:
        replay.step(text)
    with pytest.raises(OracleError):
        replay.step(action)


# --- the deals ------------------------------------------------------------------------

# A: Vorhand takes the Skat and plays Null; his Eichel-Ass must win the first trick.
NULL_DEAL: Deal = (
    "CA CK S7 S8 H7 H8 D7 D8 D9 H9",
    "CJ SJ HJ DJ CT CQ C9 C8 SA ST",
    "SK SQ S9 HA HT HK HQ DA DT DK",
    "C7 DQ",
)
NULL_GAME = _acts("pickup, discard CK DQ, declare null")

# B: Vorhand holds the four Unter and the six best Eichel: he takes every trick, in an
# Eichel game (Mittelhand's Eichel-Sieben is his only trump) and in Ramsch alike.
MONSTER_DEAL: Deal = (
    "CJ SJ HJ DJ CA CT CK CQ C9 C8",
    "C7 SA ST SK SQ S9 S8 S7 HA HT",
    "HK HQ H9 H8 H7 D9 D8 D7 DQ DK",
    "DA DT",
)
# the ten tricks, Vorhand leading each: (Vorhand, Mittelhand, Hinterhand)
MONSTER_TRICKS_EICHEL = ("CJ C7 HK", "SJ SA HQ", "HJ ST H9", "DJ SK H8", "CA SQ H7",
                         "CT S9 D9", "CK S8 D8", "CQ S7 D7", "C9 HA DQ", "C8 HT DK")
MONSTER_TRICKS_RAMSCH = ("CJ SA HK", "SJ ST HQ", "HJ SK H9", "DJ SQ H8", "CA C7 H7",
                         "CT S9 D9", "CK S8 D8", "CQ S7 D7", "C9 HA DQ", "C8 HT DK")


def _cards(tricks: Sequence[str]) -> list[str]:
    return [c for t in tricks for c in t.split()]


# C: a Ramsch in which Mittelhand takes one trick, Hinterhand none.
#  T1 V C8  M CA  H D7  -> M  11      T6 V CT  M C7  H H7  -> V 10
#  T2 M S7  H D8  V CJ  -> V   2      T7 V CK  M SQ  H H8  -> V  7
#  T3 V SJ  M SA  H D9  -> V  13      T8 V CQ  M S9  H H9  -> V  3
#  T4 V HJ  M ST  H DQ  -> V  15      T9 V C9  M S8  H HQ  -> V  3
#  T5 V DJ  M SK  H DK  -> V  10      T10 V HA M HT  H HK  -> V 25
# tricks: V 2+13+15+10+10+7+3+3+25 = 88 (9 tricks), M 11 (1), H 0 (0); the Skat
# (DA DT, 21) goes to V, who took the last trick: V 109, the loser.
JUNGFRAU_DEAL: Deal = (
    "CJ SJ HJ DJ CT CK CQ C9 C8 HA",
    "CA C7 SA ST SK SQ S9 S8 S7 HT",
    "HK HQ H9 H8 H7 D9 D8 D7 DQ DK",
    "DA DT",
)
JUNGFRAU_CARDS = _acts("C8, CA, D7, S7, D8, CJ, SJ, SA, D9, HJ, ST, DQ, DJ, SK, DK, "
                       "CT, C7, H7, CK, SQ, H8, CQ, S9, H9, C9, S8, HQ, HA, HT, HK")

# E: like C, but Hinterhand wins the last trick with the Herz-Ass (so the Skat's 21
# points go elsewhere than to the loser when they go to the last trick).
#  T1 V C8  M CA  H D7  -> M  11      T6 V CT  M C7  H H8  -> V 10
#  T2 M S7  H D8  V CJ  -> V   2      T7 V CK  M SQ  H H9  -> V  7
#  T3 V SJ  M SA  H D9  -> V  13      T8 V CQ  M S9  H HQ  -> V  6
#  T4 V HJ  M ST  H DQ  -> V  15      T9 V C9  M S8  H HK  -> V  4
#  T5 V DJ  M SK  H DK  -> V  10      T10 V H7 M HT  H HA  -> H 21
# tricks: V 2+13+15+10+10+7+6+4 = 67 (8 tricks), M 11 (1), H 21 (1); 99 + Skat 21 = 120
SKAT_DEAL: Deal = (
    "CJ SJ HJ DJ CT CK CQ C9 C8 H7",
    "CA C7 SA ST SK SQ S9 S8 S7 HT",
    "HK HQ H9 H8 HA D9 D8 D7 DQ DK",
    "DA DT",
)
SKAT_CARDS = _acts("C8, CA, D7, S7, D8, CJ, SJ, SA, D9, HJ, ST, DQ, DJ, SK, DK, "
                   "CT, C7, H8, CK, SQ, H9, CQ, S9, HQ, C9, S8, HK, H7, HT, HA")

# F: a Ramsch that ends 54 : 54 : 12 (Skat D7 D8, no points).
#  T1 V SK  M SQ  H S7  -> V  7       T6 H DT  V DA  M DK  -> V 25
#  T2 V H7  M HK  H SJ  -> H  6       T7 V H8  M HQ  H D9  -> M  3
#  T3 H C8  V CA  M C7  -> V 11       T8 M S9  H S8  V SA  -> V 11
#  T4 V CQ  M CK  H C9  -> M  7       T9 V H9  M HA  H CT  -> M 21
#  T5 M HJ  H CJ  V DJ  -> H  6       T10 M ST H DQ  V HT  -> M 23
# V 7+11+25+11 = 54, M 7+3+21+23 = 54, H 6+6 = 12: a tie, Vorhand (earlier) loses.
TIE_DEAL: Deal = (
    "DA DJ H7 H8 H9 HT SK SA CQ CA",
    "DK HQ HK HA HJ S9 SQ ST C7 CK",
    "D9 DQ DT S7 S8 SJ C8 C9 CT CJ",
    "D7 D8",
)
TIE_CARDS = _acts("SK, SQ, S7, H7, HK, SJ, C8, CA, C7, CQ, CK, C9, HJ, CJ, DJ, DT, DA, DK, "
                  "H8, HQ, D9, S9, S8, SA, H9, HA, CT, ST, DQ, HT")

ALL_PASS = _acts("pass, pass, pass")


def test_deals_hold_the_whole_deck() -> None:
    for deal in (NULL_DEAL, MONSTER_DEAL, JUNGFRAU_DEAL, SKAT_DEAL, TIE_DEAL, GRAND_DEAL,
                 CLAIM_DEAL, WRONG_CLAIM_DEAL, NULL_CLAIM_DEAL, NULL_CLAIM_RIGHT_DEAL,
                 SPITZE_DEAL, GRAND_SPITZE_DEAL):
        cards = " ".join(deal).split()
        assert len(cards) == 32 and set(cards) == DECK


# --- Kontra and Re ------------------------------------------------------------------


@pytest.mark.parametrize(("answer", "expected"), [("pass", -92), ("re", -184)])
def test_kontra_on_a_lost_null(answer: str, expected: int) -> None:
    # Vorhand plays Null (23) after taking the Skat; Mittelhand says Kontra before his
    # first card; the Eichel-Ass wins the first trick: lost, -2 x 23 = -46, Kontra x 2
    # = -92, with Re x 2 again = -184.
    actions = _acts("pass, pass, 18") + NULL_GAME + ["CA", "kontra", answer, "C8", "SK"]
    o, _ = _both("skat(preset=lothar,kontra_re=yes)", NULL_DEAL, actions)
    assert o.scores == (expected, 0, 0)
    assert o.kontra and o.re == (answer == "re") and not o.won and o.value == 23


def test_kontra_and_re_on_a_won_suit_game() -> None:
    # Eichel Hand: mit 10 (CJ SJ HJ DJ CA CT CK CQ C9 C8; C7 is Mittelhand's), game 1,
    # Hand 1, Schneider 1, Schwarz 1 (Vorhand takes every trick): 14 x 12 = 168, won;
    # Kontra x 2, Re x 2: +672.
    cards = _cards(MONSTER_TRICKS_EICHEL)
    actions = (_acts("pass, pass, 18, hand, declare eichel hand") + cards[:1]
               + ["kontra", "re"] + cards[1:])
    o, _ = _both("skat(preset=lothar,kontra_re=yes)", MONSTER_DEAL, actions)
    assert o.multiplier == 14 and o.value == 168 and o.won and o.kontra and o.re
    assert o.scores == (672, 0, 0)


def test_kontra_without_re_and_re_refused_from_defenders() -> None:
    rules = "skat(preset=isko,kontra_re=yes)"
    start = _acts("pass, pass, 18, hand, declare eichel hand, CJ")
    # no Kontra yet: a defender cannot say Re
    _refused(rules, MONSTER_DEAL, start, "re")
    # after the Kontra the declarer must answer: re or pass, no card
    state = _engine(rules, MONSTER_DEAL, [*start, "kontra"])
    assert _texts(state) == {"re", "pass"} and state.to_move == 0
    _refused(rules, MONSTER_DEAL, [*start, "kontra"], "CA")
    # after the answer it is the Kontra-sayer's card again: Re is not his to say
    _refused(rules, MONSTER_DEAL, [*start, "kontra", "pass"], "re")
    _refused(rules, MONSTER_DEAL, [*start, "kontra", "pass"], "kontra")
    # isko: Eichel Hand mit 10 is 14 x 12 = 168, won; Kontra x 2 = +336
    cards = _cards(MONSTER_TRICKS_EICHEL)
    o, _ = _both(rules, MONSTER_DEAL, [*start, "kontra", "pass", *cards[1:]])
    assert o.scores == (336, 0, 0) and o.kontra and not o.re


def test_kontra_only_before_the_own_first_card() -> None:
    rules = "skat(preset=lothar,kontra_re=yes)"
    cards = _cards(MONSTER_TRICKS_EICHEL)
    start = _acts("pass, pass, 18, hand, declare eichel hand")
    # the declarer never says Kontra
    _refused(rules, MONSTER_DEAL, start, "kontra")
    # Mittelhand has played: Hinterhand may still say it before his first card
    state = _engine(rules, MONSTER_DEAL, start + cards[:2])
    assert state.to_move == 2 and "kontra" in _texts(state)
    # trick 2: Mittelhand (and Hinterhand) played their first cards: refused
    _refused(rules, MONSTER_DEAL, start + cards[:4], "kontra")
    _refused(rules, MONSTER_DEAL, start + cards[:5], "kontra")
    # no house rule: never
    _refused("skat(preset=lothar)", MONSTER_DEAL, start + cards[:1], "kontra")


def test_bid18_kontra_only_from_a_defender_who_said_or_held() -> None:
    rules = "skat(preset=lothar,kontra_re=bid18)"
    # everybody passed, Vorhand plays at 18: neither defender said a value
    passed = _acts("pass, pass, 18") + NULL_GAME + ["CA"]
    _refused(rules, NULL_DEAL, passed, "kontra")
    _refused(rules, NULL_DEAL, [*passed, "C8"], "kontra")
    # Mittelhand said 18 (Vorhand held, then Mittelhand passed): he may, Hinterhand not
    held = _acts("18, hold, pass, pass") + NULL_GAME + ["CA"]
    assert "kontra" in _texts(_engine(rules, NULL_DEAL, held))
    _refused(rules, NULL_DEAL, [*held, "C8"], "kontra")
    o, _ = _both(rules, NULL_DEAL, [*held, "kontra", "pass", "C8", "SK"])
    assert o.scores == (-92, 0, 0)
    # with kontra_re=yes Hinterhand may say it too
    state = _engine("skat(preset=lothar,kontra_re=yes)", NULL_DEAL, [*held, "C8"])
    assert "kontra" in _texts(state)


# --- Jungfrau and Durchmarsch ---------------------------------------------------------

# C: V loses 109; Hinterhand took no trick, so with Jungfrau the loss doubles.
@pytest.mark.parametrize(("jungfrau", "expected"), [("no", -109), ("yes", -218)])
def test_jungfrau_doubles_the_loss(jungfrau: str, expected: int) -> None:
    rules = f"skat(preset=lothar,jungfrau={jungfrau})"
    o, _ = _both(rules, JUNGFRAU_DEAL, ALL_PASS + JUNGFRAU_CARDS)
    assert o.points == (109, 11, 0) and o.tricks == (9, 1, 0) and o.loser == 0
    assert o.scores == (expected, 0, 0) and o.jungfrau == (jungfrau == "yes")


@pytest.mark.parametrize(("options", "expected", "loser"), [
    # Durchmarsch takes precedence over Jungfrau: +120, no doubling
    ("jungfrau=yes,durchmarsch=yes", 120, None),
    ("jungfrau=no,durchmarsch=yes", 120, None),
    # Durchmarsch off: he is simply the loser with all 120 points ...
    ("jungfrau=no,durchmarsch=no", -120, 0),
    # ... and both others took no trick: Jungfrau doubles it
    ("jungfrau=yes,durchmarsch=no", -240, 0),
    # Schieberamsch, all three push: x 8
    ("jungfrau=yes,durchmarsch=yes,schieberamsch=yes", 960, None),
])
def test_durchmarsch(options: str, expected: int, loser: int | None) -> None:
    rules = f"skat(preset=lothar,{options})"
    actions = ALL_PASS + (["schieben"] * 3 if "schieberamsch" in options else [])
    o, _ = _both(rules, MONSTER_DEAL, actions + _cards(MONSTER_TRICKS_RAMSCH))
    assert o.tricks == (10, 0, 0)
    assert o.scores == (expected, 0, 0) and o.loser == loser
    assert o.durchmarsch == (expected > 0) and o.jungfrau == (expected == -240)


# --- the Skat in Ramsch ---------------------------------------------------------------


@pytest.mark.parametrize(("skat_rule", "points", "expected"), [
    # the Skat's 21 go to Hinterhand, who took the last trick: V 67 still loses
    ("last_trick", (67, 11, 42), -67),
    # the loser is decided without the Skat (V 67), then the Skat is added to his loss
    ("loser", (88, 11, 21), -88),
])
def test_skat_to_the_loser(skat_rule: str, points: tuple[int, int, int],
                           expected: int) -> None:
    rules = f"skat(preset=lothar,ramsch_skat={skat_rule})"
    o, _ = _both(rules, SKAT_DEAL, ALL_PASS + SKAT_CARDS)
    assert o.tricks == (8, 1, 1) and o.loser == 0
    assert o.points == points and o.scores == (expected, 0, 0)


@pytest.mark.parametrize("skat_rule", ["last_trick", "loser"])
def test_ramsch_tie_the_earlier_seat_loses_alone(skat_rule: str) -> None:
    # F: 54 : 54 : 12, the Skat holds no points; Vorhand is earlier than Mittelhand
    rules = f"skat(preset=lothar,ramsch_skat={skat_rule})"
    o, _ = _both(rules, TIE_DEAL, ALL_PASS + TIE_CARDS)
    assert o.points == (54, 54, 12) and o.tricks == (4, 4, 2)
    assert o.loser == 0 and o.scores == (-54, 0, 0)


# --- Schieberamsch --------------------------------------------------------------------


def test_schieberamsch_pushed_by_all_three() -> None:
    # E with three pushes: the Skat stays as dealt; V loses 67 x 2^3 = -536
    rules = "skat(preset=lothar,schieberamsch=yes)"
    state = _engine(rules, SKAT_DEAL, ALL_PASS)
    assert _texts(state) == {"pickup", "schieben"} and state.to_move == 0
    o, _ = _both(rules, SKAT_DEAL, ALL_PASS + ["schieben"] * 3 + SKAT_CARDS)
    assert o.pushes == 3 and o.scores == (-536, 0, 0)
    # with Jungfrau too (C: Hinterhand takes no trick): 109 x 8 x 2
    rules = "skat(preset=lothar,schieberamsch=yes,jungfrau=yes)"
    o, _ = _both(rules, JUNGFRAU_DEAL, ALL_PASS + ["schieben"] * 3 + JUNGFRAU_CARDS)
    assert o.pushes == 3 and o.jungfrau and o.scores == (-1744, 0, 0)


def test_schieberamsch_no_unter_into_the_skat() -> None:
    rules = "skat(preset=lothar,schieberamsch=yes)"
    state = _engine(rules, SKAT_DEAL, [*ALL_PASS, "pickup"])
    discards = sorted(_texts(state))
    # Vorhand holds 12 cards, four of them Unter: C(8, 2) = 28 pairs without an Unter
    assert len(discards) == 28 and all("J" not in t for t in discards)
    _refused(rules, SKAT_DEAL, [*ALL_PASS, "pickup"], "discard CJ DA")
    _refused(rules, SKAT_DEAL, [*ALL_PASS, "pickup"], "discard DJ H7")
    # he puts the Skat back, Mittelhand pushes, Hinterhand picks up and puts it back:
    # one push, V loses 67 x 2 = -134
    actions = [*ALL_PASS, "pickup", "discard DA DT", "schieben", "pickup", "discard DA DT"]
    o, _ = _both(rules, SKAT_DEAL, actions + SKAT_CARDS)
    assert o.pushes == 1 and o.scores == (-134, 0, 0)
    # the Skat-loser rule with what is left in the Skat: V's loss 88 x 2 = -176
    rules = "skat(preset=lothar,schieberamsch=yes,ramsch_skat=loser)"
    o, _ = _both(rules, SKAT_DEAL, actions + SKAT_CARDS)
    assert o.scores == (-176, 0, 0)


def test_no_schieberamsch_when_the_table_redeals() -> None:
    o, _ = _both("skat(preset=isko,schieberamsch=yes)", SKAT_DEAL, ALL_PASS)
    assert o.kind == "passed" and o.scores == (0, 0, 0)


# --- Klopfen ---------------------------------------------------------------------------

KLOPFEN = "skat(preset=lothar,klopfen=yes)"


def test_klopfen_two_knocks_quadruple_the_ramsch() -> None:
    # E: V loses 67 (the Skat's 21 go to Hinterhand with the last trick); Vorhand knocks
    # before his first card, Mittelhand before his: x 2 x 2 = -268
    state = _engine(KLOPFEN, SKAT_DEAL, ALL_PASS)
    assert state.to_move == 0 and "klopfen" in _texts(state)
    state = state.apply_text("klopfen")
    # he still plays his first card; a second knock of his is refused
    assert state.to_move == 0 and "klopfen" not in _texts(state)
    _refused(KLOPFEN, SKAT_DEAL, [*ALL_PASS, "klopfen"], "klopfen")
    actions = [*ALL_PASS, "klopfen", "C8", "klopfen", "CA", *SKAT_CARDS[2:]]
    o, _ = _both(KLOPFEN, SKAT_DEAL, actions)
    assert o.knocks == 2 and o.pushes == 0 and o.loser == 0 and o.scores == (-268, 0, 0)
    # C with Jungfrau (Hinterhand takes no trick): Vorhand and Hinterhand knock,
    # 109 x 2 x 2 x 2 = -872
    rules = "skat(preset=lothar,klopfen=yes,jungfrau=yes)"
    actions = [*ALL_PASS, "klopfen", "C8", "CA", "klopfen", *JUNGFRAU_CARDS[2:]]
    o, _ = _both(rules, JUNGFRAU_DEAL, actions)
    assert o.knocks == 2 and o.jungfrau and o.scores == (-872, 0, 0)


def test_klopfen_three_knocks_and_a_durchmarsch() -> None:
    # B: every knock doubles the Ramsch score, a Durchmarsch's too: 120 x 2^3 = +960
    cards = _cards(MONSTER_TRICKS_RAMSCH)
    actions = [*ALL_PASS, "klopfen", cards[0], "klopfen", cards[1], "klopfen", *cards[2:]]
    o, _ = _both(KLOPFEN, MONSTER_DEAL, actions)
    assert o.knocks == 3 and o.durchmarsch and o.scores == (960, 0, 0)


def test_klopfen_refused_after_the_own_first_card() -> None:
    # E: Vorhand plays without knocking; Mittelhand and Hinterhand still may
    assert "klopfen" in _texts(_engine(KLOPFEN, SKAT_DEAL, [*ALL_PASS, "C8"]))
    assert "klopfen" in _texts(_engine(KLOPFEN, SKAT_DEAL, [*ALL_PASS, "C8", "CA"]))
    # trick 2: Mittelhand leads, Hinterhand and Vorhand follow: all played already
    for n in (3, 4, 5):
        _refused(KLOPFEN, SKAT_DEAL, ALL_PASS + SKAT_CARDS[:n], "klopfen")
    # without the rule never; and never in a declared game
    _refused("skat(preset=lothar)", SKAT_DEAL, ALL_PASS, "klopfen")
    _refused(KLOPFEN, MONSTER_DEAL, _acts("pass, pass, 18, hand, declare eichel hand"),
             "klopfen")
    # nobody knocked: the plain Ramsch, no knocks written
    o, _ = _both(KLOPFEN, SKAT_DEAL, ALL_PASS + SKAT_CARDS)
    assert o.knocks == 0 and o.scores == (-67, 0, 0)


def test_klopfen_refused_for_a_player_who_pushed() -> None:
    # E in Schieberamsch: Vorhand pushes, Mittelhand picks up and puts the Skat back,
    # Hinterhand pushes.  Vorhand and Hinterhand may not knock, Mittelhand may.
    rules = "skat(preset=lothar,schieberamsch=yes,klopfen=yes)"
    pushes = [*ALL_PASS, "schieben", "pickup", "discard DA DT", "schieben"]
    _refused(rules, SKAT_DEAL, pushes, "klopfen")
    assert "klopfen" in _texts(_engine(rules, SKAT_DEAL, [*pushes, "C8"]))
    _refused(rules, SKAT_DEAL, [*pushes, "C8", "klopfen", "CA"], "klopfen")
    # two pushes and one knock: 67 x 2^3 = -536
    actions = [*pushes, "C8", "klopfen", *SKAT_CARDS[1:]]
    o, _ = _both(rules, SKAT_DEAL, actions)
    assert o.pushes == 2 and o.knocks == 1 and o.scores == (-536, 0, 0)


# --- the compulsory Ramsch of a Ramsch round (bock_ramsch) -----------------------------

ROUND = "skat(preset=lothar,bock=lost_60,bock_ramsch=yes)"

# G: B turned so that Mittelhand holds the four Unter and the six best Eichel.  Grand
# Hand, V leading:
#  T1 V SA  M CJ  H HK  -> M          T5 M CA  H D7  V C7  -> M
#  T2 M SJ  H H7  V S7  -> M          T6..T10 M CT CK CQ C9 C8, H and V throw off
#  T3 M HJ  H H8  V S8  -> M
#  T4 M DJ  H H9  V S9  -> M
# Mittelhand takes all ten tricks: mit 4, game 1, Hand 1, Schneider 1, Schwarz 1 = 8,
# 24 x 8 = 192, won (bid 0: never overbid).
GRAND_DEAL: Deal = (
    "C7 SA ST SK SQ S9 S8 S7 HA HT",
    "CJ SJ HJ DJ CA CT CK CQ C9 C8",
    "HK HQ H9 H8 H7 D9 D8 D7 DQ DK",
    "DA DT",
)
GRAND_CARDS = _acts("SA, CJ, HK, SJ, H7, S7, HJ, H8, S8, DJ, H9, S9, CA, D7, C7, "
                    "CT, D8, ST, CK, D9, SK, CQ, DQ, SQ, C9, DK, HA, C8, HQ, HT")


@pytest.mark.parametrize(("talk", "expected"), [
    ([], 192), (["kontra", "pass"], 384), (["kontra", "re"], 768)])
def test_ramsch_round_mittelhand_declares_grand_hand(talk: list[str], expected: int) -> None:
    rules = "skat(preset=lothar,kontra_re=yes,bock=lost_60,bock_ramsch=yes)"
    state = _engine(rules, GRAND_DEAL, [], ramsch_round=True)
    assert state.to_move == 0 and _texts(state) == ROUND_START
    state = state.apply_text("pass")
    assert state.to_move == 1 and _texts(state) == ROUND_START
    # Mittelhand declares: Hinterhand is not asked, Vorhand leads at once
    state = state.apply_text("declare grand hand")
    assert state.to_move == 0 and _texts(state) <= DECK | {"kontra"}
    # Hinterhand says Kontra before his first card (Vorhand's is played, Mittelhand's)
    actions = ["pass", "declare grand hand", *GRAND_CARDS[:2], *talk, *GRAND_CARDS[2:]]
    o, _ = _both(rules, GRAND_DEAL, actions, ramsch_round=True)
    assert o.kind == "game" and o.declarer == 1 and o.bid == 0 and o.hand and o.won
    assert o.matadors == 4 and o.multiplier == 8 and o.value == 192
    assert o.scores == (0, expected, 0) and o.kontra == bool(talk)


def test_ramsch_round_grand_hand_lost() -> None:
    # E: Hinterhand declares Grand Hand after both passed: ohne 4 (no Unter in his hand
    # or the Skat), game 1, Hand 1 = 6, 24 x 6 = 144.  The cards fall as in the Ramsch:
    # his tricks hold 21 points, the Skat 21: 42, lost: -288.
    actions = ["pass", "pass", "declare grand hand", *SKAT_CARDS]
    o, _ = _both(ROUND, SKAT_DEAL, actions, ramsch_round=True)
    assert o.declarer == 2 and o.declarer_points == 42 and o.matadors == -4
    assert o.multiplier == 6 and not o.won and not o.overbid and o.scores == (0, 0, -288)
    # Kontra and Re (Vorhand before his first card): -288 x 4 = -1152
    rules = "skat(preset=lothar,kontra_re=yes,bock=lost_60,bock_ramsch=yes)"
    o, _ = _both(rules, SKAT_DEAL, actions[:3] + ["kontra", "re"] + SKAT_CARDS,
                 ramsch_round=True)
    assert o.kontra and o.re and o.scores == (0, 0, -1152)
    # bid18: nobody said a value in a Ramsch round, so nobody may say Kontra
    rules = "skat(preset=lothar,kontra_re=bid18,bock=lost_60,bock_ramsch=yes)"
    _refused(rules, SKAT_DEAL, actions[:3], "kontra", ramsch_round=True)
    _refused(rules, SKAT_DEAL, actions[:4], "kontra", ramsch_round=True)


def test_ramsch_round_refuses_an_auction_and_other_games() -> None:
    for action in ("18", "hold", "hand", "pickup", "declare grand", "declare eichel hand",
                   "declare null hand", "schieben", "klopfen", "C8"):
        _refused(ROUND, SKAT_DEAL, [], action, ramsch_round=True)
    _refused(ROUND, SKAT_DEAL, ["pass", "pass"], "18", ramsch_round=True)
    # Vorhand declares: the others are not asked
    _refused(ROUND, SKAT_DEAL, ["declare grand hand"], "pass", ramsch_round=True)


@pytest.mark.parametrize("preset", ["lothar", "isko"])
def test_ramsch_round_all_pass(preset: str) -> None:
    # E: all three pass, the Ramsch is played even where all_pass=redeal (isko): -67
    rules = f"skat(preset={preset},bock=lost_60,bock_ramsch=yes)"
    o, r = _both(rules, SKAT_DEAL, ALL_PASS + SKAT_CARDS, ramsch_round=True)
    assert o.kind == "ramsch" and o.loser == 0 and o.scores == (-67, 0, 0)
    assert r.ramsch_round
    # with Schieberamsch and Klopfen: Vorhand pushes, Mittelhand picks up and knocks,
    # Hinterhand pushes: 67 x 2^3 = -536
    rules = f"skat(preset={preset},schieberamsch=yes,klopfen=yes,bock=lost_60,bock_ramsch=yes)"
    actions = [*ALL_PASS, "schieben", "pickup", "discard DA DT", "schieben", "C8", "klopfen",
               *SKAT_CARDS[1:]]
    o, _ = _both(rules, SKAT_DEAL, actions, ramsch_round=True)
    assert o.pushes == 2 and o.knocks == 1 and o.scores == (-536, 0, 0)


# --- claiming the rest and giving up ---------------------------------------------------

GRAND_HAND = _acts("pass, pass, 18, hand, declare grand hand")

# H: Vorhand plays Grand Hand; the first eight tricks, Vorhand leading and winning each:
#  T1 CA CT CK  25     T4 SQ S9 S8   3     T7 HJ DJ C7   4  (Hinterhand has no trump)
#  T2 CQ C9 C8   3     T5 HT HQ H9  13     T8 S7 H7 DQ   3  (the others have no Grün)
#  T3 SA ST SK  25     T6 DA DT DK  25
# Vorhand 101 in eight tricks (the Skat D8 D9 holds no points).  Left: Vorhand CJ HA,
# Mittelhand SJ D7, Hinterhand HK H8.  The claim is right only with the Unter first:
# CJ draws Mittelhand's SJ, then HA stands; the Herz-Ass first would be trumped by SJ.
CLAIM_DEAL: Deal = (
    "CA CQ SA SQ HT DA HJ S7 CJ HA",
    "CT C9 ST S9 HQ DT DJ H7 SJ D7",
    "CK C8 SK S8 H9 DK C7 DQ HK H8",
    "D8 D9",
)
CLAIM_TRICKS = _acts("CA, CT, CK, CQ, C9, C8, SA, ST, SK, SQ, S9, S8, HT, HQ, H9, "
                     "DA, DT, DK, HJ, DJ, C7, S7, H7, DQ")

# I: as H, but Vorhand holds H7 for HA, Mittelhand HA for H7; trick 8 goes to Mittelhand
# (T8 S7 SJ DQ: he has no Grün and trumps, 5 points).  Vorhand has 98 in seven tricks;
# Mittelhand leads HA, Hinterhand H8, and Vorhand must follow with H7: trick 9 is lost.
WRONG_CLAIM_DEAL: Deal = (
    "CA CQ SA SQ HT DA HJ S7 CJ H7",
    "CT C9 ST S9 HQ DT DJ SJ HA D7",
    "CK C8 SK S8 H9 DK C7 DQ HK H8",
    "D8 D9",
)
WRONG_CLAIM_TRICKS = [*CLAIM_TRICKS[:22], "SJ", "DQ"]

# J: Vorhand plays Null Hand (35); Mittelhand wins the first seven tricks with the high
# cards, Vorhand playing low under them:
#  T1 V C7 M CA H CK   T3 M HA H HK V H7   T5 M CQ H CJ V C8   T7 M HQ H HJ V H8
#  T2 M SA H SK V S7   T4 M DA H DK V D7   T6 M SQ H SJ V S8
# Left: Vorhand CT S9 H9, Mittelhand C9 ST HT, Hinterhand DQ DJ DT; Mittelhand leads ST.
# NULL_CLAIM_RIGHT_DEAL swaps CT and C9: then Vorhand holds only the lowest cards.
NULL_CLAIM_DEAL: Deal = (
    "C7 C8 S7 S8 H7 H8 D7 CT S9 H9",
    "CA SA HA DA CQ SQ HQ C9 ST HT",
    "CK SK HK DK CJ SJ HJ DQ DJ DT",
    "D8 D9",
)
NULL_CLAIM_RIGHT_DEAL: Deal = (
    "C7 C8 S7 S8 H7 H8 D7 C9 S9 H9",
    "CA SA HA DA CQ SQ HQ CT ST HT",
    "CK SK HK DK CJ SJ HJ DQ DJ DT",
    "D8 D9",
)
NULL_HAND = _acts("pass, pass, 18, hand, declare null hand")
NULL_CLAIM_TRICKS = _acts("C7, CA, CK, SA, SK, S7, HA, HK, H7, DA, DK, D7, CQ, CJ, C8, "
                          "SQ, SJ, S8, HQ, HJ, H8")


def _replay(rules: str, deal: Deal, actions: Sequence[str]) -> Replay:
    replay_ = Replay.new(rules, deal[:3], deal[3])
    for text in actions:
        replay_.step(text)
    return replay_


def test_a_claim_right_only_with_the_declarers_best_play() -> None:
    rules = "skat(preset=lothar)"
    before = GRAND_HAND + CLAIM_TRICKS
    state = _engine(rules, CLAIM_DEAL, before)
    assert state.to_move == 0 and _claims(state) == {"claim", "giveup"}
    assert _replay(rules, CLAIM_DEAL, before).claim_is_right()
    assert _replay(rules, CLAIM_DEAL, before).claim_lines() == {"CJ": True, "HA": False}
    # played wrongly, the Herz-Ass first: Mittelhand may trump it with his Grün-Unter
    wrong = state.apply_text("HA")
    assert "SJ" in _texts(wrong)
    wrong = wrong.apply_text("SJ").apply_text("H8")
    assert wrong.tricks[-1][2] == 1
    # the claim: Vorhand takes the last two tricks, 19 points (CJ HA SJ D7 HK H8): 120,
    # Schwarz.  Grand Hand mit 1: game 1, Hand 1, Schneider 1, Schwarz 1 = 5, 24 x 5
    o, r = _both(rules, CLAIM_DEAL, [*before, "claim"])
    assert r.end == "claimed"
    assert o.points == (120, 0, 0) and o.tricks == (10, 0, 0) and o.schwarz
    assert o.multiplier == 5 and o.won and o.scores == (120, 0, 0)


def test_kontra_and_re_then_a_claim() -> None:
    # H: Mittelhand says Kontra before his first card, Vorhand Re; the claim at trick 9
    # wins as above: 120 x 2 x 2 = +480
    rules = "skat(preset=lothar,kontra_re=yes)"
    start = [*GRAND_HAND, CLAIM_TRICKS[0], "kontra"]
    state = _engine(rules, CLAIM_DEAL, start)
    # the declarer owes the answer: no claim, no giving up
    assert state.to_move == 0 and _claims(state) == set()
    _refused(rules, CLAIM_DEAL, start, "claim")
    _refused(rules, CLAIM_DEAL, start, "giveup")
    # answered: Mittelhand plays on (or gives up)
    assert _claims(_engine(rules, CLAIM_DEAL, [*start, "re"])) == {"giveup"}
    o, _ = _both(rules, CLAIM_DEAL, [*start, "re", *CLAIM_TRICKS[1:], "claim"])
    assert o.kontra and o.re and o.won and o.scores == (480, 0, 0)


def test_a_wrong_claim_mid_trick() -> None:
    # I: the claim while trick 9 is open (HA H8 on the table).  Wrong: the defenders get
    # every card in play, HA H8 + CJ H7 + D7 + HK = 17 points, two tricks, counted for
    # Mittelhand.  Vorhand keeps 98 from seven tricks: still won, Schneider (Mittelhand
    # 22, Hinterhand 0); Grand Hand mit 1: game 1, Hand 1, Schneider 1 = 4, 24 x 4 = +96.
    rules = "skat(preset=lothar)"
    before = [*GRAND_HAND, *WRONG_CLAIM_TRICKS, "HA", "H8"]
    state = _engine(rules, WRONG_CLAIM_DEAL, before)
    assert state.to_move == 0 and _claims(state) == {"claim", "giveup"}
    assert not _replay(rules, WRONG_CLAIM_DEAL, before).claim_is_right()
    o, r = _both(rules, WRONG_CLAIM_DEAL, [*before, "claim"])
    assert r.end == "claim_wrong"
    assert o.points == (98, 22, 0) and o.tricks == (7, 3, 0)
    assert o.won and o.schneider and o.multiplier == 4 and o.scores == (96, 0, 0)
    # the declarer gives up there instead: the same cards the same way
    o, r = _both(rules, WRONG_CLAIM_DEAL, [*before, "giveup"])
    assert r.end == "gave_up" and o.points == (98, 22, 0) and o.scores == (96, 0, 0)


def test_a_defender_gives_up_and_the_other_does_not() -> None:
    # H: Vorhand leads the Herz-Ass in trick 9; Mittelhand gives up, keeps his turn and
    # trumps it with SJ (HA SJ HK: 17 to Mittelhand); Hinterhand plays on.  T10 D7 H8 CJ
    # to Vorhand (2): Vorhand 103 in nine tricks, Schneider; mit 1: 4 x 24 = +96.
    rules = "skat(preset=lothar)"
    before = [*GRAND_HAND, *CLAIM_TRICKS, "HA"]
    state = _engine(rules, CLAIM_DEAL, before)
    assert _claims(state) == {"giveup"}
    state = state.apply_text("giveup")
    assert state.to_move == 1 and not state.is_over and _claims(state) == set()
    _refused(rules, CLAIM_DEAL, [*before, "giveup"], "giveup")
    _refused(rules, CLAIM_DEAL, [*before, "giveup"], "claim")
    state = state.apply_text("SJ")
    assert state.to_move == 2 and _claims(state) == {"giveup"}
    o, r = _both(rules, CLAIM_DEAL, [*before, "giveup", "SJ", "HK", "D7", "H8", "CJ"])
    assert r.end == "played" and o.points == (103, 17, 0) and o.tricks == (9, 1, 0)
    assert o.won and o.scores == (96, 0, 0)
    # both give up, one after the other in trick 9: the rest to Vorhand, 120, Schwarz
    o, r = _both(rules, CLAIM_DEAL, [*before, "giveup", "SJ", "giveup"])
    assert r.end == "gave_up" and o.points == (120, 0, 0) and o.tricks == (10, 0, 0)
    assert o.scores == (120, 0, 0)


def test_null_claims_and_giving_up() -> None:
    rules = "skat(preset=lothar)"
    before = [*NULL_HAND, *NULL_CLAIM_TRICKS, "ST", "DQ"]
    # J: Vorhand to play to ST DQ.  He claims: S9 goes under ST, but Mittelhand then
    # leads C9 and Vorhand must take it with CT.  Wrong: he gets the nine cards in play,
    # three tricks: Null Hand lost, -2 x 35 = -70.
    assert not _replay(rules, NULL_CLAIM_DEAL, before).claim_is_right()
    o, r = _both(rules, NULL_CLAIM_DEAL, [*before, "claim"])
    assert r.end == "claim_wrong" and o.tricks == (3, 7, 0) and o.scores == (-70, 0, 0)
    # with CT and C9 swapped he holds the lowest card of every suit played: right, the
    # defenders get the rest (for Mittelhand): won, +35
    assert _replay(rules, NULL_CLAIM_RIGHT_DEAL, before).claim_is_right()
    o, r = _both(rules, NULL_CLAIM_RIGHT_DEAL, [*before, "claim"])
    assert r.end == "claimed" and o.tricks == (0, 10, 0) and o.scores == (35, 0, 0)
    # J again: both defenders give up (Mittelhand before leading ST, Hinterhand before
    # his card): in Null the defenders take the rest, Vorhand wins +35
    o, r = _both(rules, NULL_CLAIM_DEAL, [*NULL_HAND, *NULL_CLAIM_TRICKS, "giveup", "ST",
                                          "giveup"])
    assert r.end == "gave_up" and o.tricks == (0, 10, 0) and o.scores == (35, 0, 0)
    # Vorhand gives up: in Null he takes the rest, lost -70
    o, r = _both(rules, NULL_CLAIM_DEAL, [*before, "giveup"])
    assert r.end == "gave_up" and o.tricks == (3, 7, 0) and o.scores == (-70, 0, 0)


def test_no_claim_in_ramsch() -> None:
    rules = "skat(preset=lothar)"
    for n in (0, 1, 5, 27):
        state = _engine(rules, SKAT_DEAL, ALL_PASS + SKAT_CARDS[:n])
        assert _claims(state) == set()
        _refused(rules, SKAT_DEAL, ALL_PASS + SKAT_CARDS[:n], "claim")
        _refused(rules, SKAT_DEAL, ALL_PASS + SKAT_CARDS[:n], "giveup")
    # nor before the card play of a declared game
    for n in range(len(GRAND_HAND)):
        _refused(rules, CLAIM_DEAL, GRAND_HAND[:n], "claim")
        _refused(rules, CLAIM_DEAL, GRAND_HAND[:n], "giveup")



# --- Spitze ----------------------------------------------------------------------------

# K: Vorhand holds the three black-and-red Unter, Herz A 10 K O 9 and the Herz-Sieben (the
# Spitze of a Herz game) and the Eichel-Ass; Mittelhand the Schellen-Unter and Herz-Acht,
# the only other trumps.  Herz Hand Spitze, Vorhand leading every trick:
#  T1 CJ H8 C7   2     T5 HT C9 S8  10     T9  CA CT DT  31
#  T2 SJ DJ C8   4     T6 HK CQ S9   7     T10 H7 SA DA  22  (the Sieben wins: no trump left)
#  T3 HJ SQ D9   5     T7 HQ CK DQ  10
#  T4 HA SK S7  15     T8 H9 ST DK  14
# Vorhand takes all ten tricks: 120 (the Skat D8 D7 holds none), Schwarz, and the tenth
# with the Sieben: made.  Mit 3 (no DJ), game 1, Hand 1, Schneider 1, Schwarz 1, Spitze 1
# = 8; 10 x 8 = +80 (spitze=double: 9 x 10 = +90).
SPITZE_DEAL: Deal = (
    "CJ SJ HJ HA HT HK HQ H9 H7 CA",
    "DJ H8 CT CK CQ C9 SA ST SK SQ",
    "C8 C7 S9 S8 S7 DA DT DK DQ D9",
    "D8 D7",
)
SPITZE_HAND = _acts("pass, pass, 18, hand, declare herz hand spitze")
SPITZE_TRICKS = _acts("CJ, H8, C7, SJ, DJ, C8, HJ, SQ, D9, HA, SK, S7, HT, C9, S8, "
                      "HK, CQ, S9, HQ, CK, DQ, H9, ST, DK, CA, CT, DT, H7, SA, DA")
# the Sieben falls in trick 9 (M has no trump left: CT, H DT), the Eichel-Ass takes the
# tenth (SA, DA): still all ten tricks and 120, but the Spitze is lost
SPITZE_EARLY = [*SPITZE_TRICKS[:24], "H7", "CT", "DT", "CA", "SA", "DA"]


@pytest.mark.parametrize(("spitze", "expected"), [("yes", 80), ("double", 90)])
def test_a_made_spitze(spitze: str, expected: int) -> None:
    rules = f"skat(preset=lothar,spitze={spitze})"
    state = _engine(rules, SPITZE_DEAL, SPITZE_HAND[:-1])
    assert "declare herz hand spitze" in _texts(state)
    assert "declare grand hand spitze" not in _texts(state)  # no Schellen-Unter
    o, r = _both(rules, SPITZE_DEAL, SPITZE_HAND + SPITZE_TRICKS)
    assert o.spitze and o.spitze_made and o.won and o.schwarz and o.matadors == 3
    assert o.points == (120, 0, 0) and o.scores == (expected, 0, 0) and r.end == "played"
    # the same game without Spitze: 7 x 10 = +70
    o, _ = _both(rules, SPITZE_DEAL, [*SPITZE_HAND[:-1], "declare herz hand", *SPITZE_TRICKS])
    assert not o.spitze and not o.spitze_made and o.scores == (70, 0, 0)


def test_a_spitze_lost_with_every_trick_when_the_card_fell_early() -> None:
    # all ten tricks and 120 points, but the tenth taken with the Eichel-Ass: lost at
    # the full value, Schwarz included: 8 x 10 = 80, -160; with Kontra and Re x 4
    rules = "skat(preset=lothar,spitze=yes,kontra_re=yes)"
    o, _ = _both(rules, SPITZE_DEAL, SPITZE_HAND + SPITZE_EARLY)
    assert o.spitze and not o.spitze_made and not o.won and not o.overbid
    assert o.points == (120, 0, 0) and o.schwarz and o.value == 80
    assert o.scores == (-160, 0, 0)
    actions = [*SPITZE_HAND, "CJ", "kontra", "re", *SPITZE_EARLY[1:]]
    o, _ = _both(rules, SPITZE_DEAL, actions)
    assert o.kontra and o.re and o.scores == (-640, 0, 0)


def test_spitze_claims_and_giving_up() -> None:
    rules = "skat(preset=lothar,spitze=yes)"
    # no claim in a Spitze game: the declarer may only give up
    for n in (0, 3, 27):
        state = _engine(rules, SPITZE_DEAL, SPITZE_HAND + SPITZE_TRICKS[:n])
        assert state.to_move == 0 and _claims(state) == {"giveup"}
        _refused(rules, SPITZE_DEAL, SPITZE_HAND + SPITZE_TRICKS[:n], "claim")
    # both defenders give up in trick 1: the rest to Vorhand, the Spitze counts as made:
    # 120, Schwarz, +80
    actions = [*SPITZE_HAND, "CJ", "giveup", "H8", "giveup"]
    o, r = _both(rules, SPITZE_DEAL, actions)
    assert r.end == "gave_up" and o.spitze_made and o.won and o.scores == (80, 0, 0)
    # the declarer gives up after trick 1 (2 points): the defenders get 118 in nine
    # tricks, lost and Schneider: mit 3, game, Hand, Schneider, Spitze = 7 x 10 = -140
    o, r = _both(rules, SPITZE_DEAL, [*SPITZE_HAND, *SPITZE_TRICKS[:3], "giveup"])
    assert r.end == "gave_up" and not o.spitze_made and o.schneider and not o.schwarz
    assert o.points == (2, 118, 0) and o.scores == (-140, 0, 0)
    # the Sieben fell in trick 9; both defenders give up in trick 10: the rule text says
    # the Spitze then counts as made: 120, Schwarz, +80
    actions = [*SPITZE_HAND, *SPITZE_EARLY[:28], "giveup", "SA", "giveup"]
    o, r = _both(rules, SPITZE_DEAL, actions)
    assert r.end == "gave_up" and o.spitze_made and o.scores == (80, 0, 0)


def test_spitze_refused() -> None:
    rules = "skat(preset=lothar,spitze=yes)"
    # not at a table without Spitze
    _refused("skat(preset=lothar)", SPITZE_DEAL, SPITZE_HAND[:-1], "declare herz hand spitze")
    # never in Null
    _refused(rules, SPITZE_DEAL, SPITZE_HAND[:-1], "declare null hand spitze")
    _refused(rules, SPITZE_DEAL, SPITZE_HAND[:-1], "declare null hand ouvert spitze")
    # not without the card: Vorhand has no Eichel-, Grün- or Schellen-Sieben
    for game in ("eichel", "gruen", "schellen"):
        _refused(rules, SPITZE_DEAL, SPITZE_HAND[:-1], f"declare {game} hand spitze")
    # the Herz-Sieben discarded: no Herz Spitze (Herz without it is allowed); the
    # Schellen-Sieben from the Skat kept: Schellen Spitze
    pickup = _acts("pass, pass, 18, pickup")
    state = _engine(rules, SPITZE_DEAL, [*pickup, "discard H7 D8"])
    assert "declare herz" in _texts(state)
    assert {t for t in _texts(state) if "spitze" in t} == {"declare schellen spitze"}
    _refused(rules, SPITZE_DEAL, [*pickup, "discard H7 D8"], "declare herz spitze")
    state = _engine(rules, SPITZE_DEAL, [*pickup, "discard D7 D8"])
    assert {t for t in _texts(state) if "spitze" in t} == {"declare herz spitze"}
    # Grand: not with all four Unter in the hand (B: Vorhand holds them) ...
    monster = _acts("pass, pass, 18, hand")
    _refused(rules, MONSTER_DEAL, monster, "declare grand hand spitze")
    _refused(rules, MONSTER_DEAL, monster, "declare grand hand ouvert spitze")
    assert not any("spitze" in t for t in _texts(_engine(rules, MONSTER_DEAL, monster)))
    # ... but with three of them, the Eichel-Unter put into the Skat: allowed
    # (and the Schellen-Unter put away: refused again)
    state = _engine(rules, MONSTER_DEAL, [*monster[:3], "pickup", "discard CJ DA"])
    assert {t for t in _texts(state) if "spitze" in t} == {"declare grand spitze"}
    _refused(rules, MONSTER_DEAL, [*monster[:3], "pickup", "discard DJ DA"],
             "declare grand spitze")


# L: Mittelhand holds the Eichel-, Grün- and Schellen-Unter and the seven Eichel; the
# Herz-Unter lies in the Skat.  Grand Hand Ouvert Spitze, Vorhand leading:
#  T1 V SA  M CJ  H D8  -> M     T2..T9 M SJ CA CT CK CQ C9 C8 C7, H and V throw off
#  T10 M DJ  H DA  V HA  -> M (no other trump left: made)
# Mittelhand takes every trick: mit 4 (the Skat counts), game 1, Hand 1, Schneider 1,
# Schwarz 1, Ouvert 1, Spitze 1 = 10: 24 x 10 = 240, a value no game reaches without
# Spitze under lothar (the most is Grand 9 x 24 = 216).  Under isko Ouvert brings
# Schneider and Schwarz announced: 12 x 24 = 288, above isko's 264.
GRAND_SPITZE_DEAL: Deal = (
    "SA ST SK SQ S9 S8 S7 HA HT HK",
    "CJ SJ DJ CA CT CK CQ C9 C8 C7",
    "HQ H9 H8 H7 DA DT DK DQ D9 D8",
    "HJ D7",
)
GRAND_SPITZE_TRICKS = _acts("SA, CJ, D8, SJ, D9, S7, CA, H7, S8, CT, H8, S9, CK, H9, SQ, "
                            "CQ, HQ, SK, C9, DQ, ST, C8, DK, HK, C7, DT, HT, DJ, DA, HA")


@pytest.mark.parametrize(("rules", "bid", "declaration"), [
    ("skat(preset=lothar,bidding_jumps=yes,spitze=yes)", 240, "declare grand hand ouvert"),
    ("skat(preset=isko,spitze=yes)", 288, "declare grand hand schneider schwarz ouvert"),
])
def test_a_value_only_spitze_reaches(rules: str, bid: int, declaration: str) -> None:
    without = rules.replace("spitze=yes", "spitze=no")
    # without Spitze nobody may say it; with Spitze Mittelhand may
    assert str(bid) not in _texts(_state(without, GRAND_SPITZE_DEAL))
    _refused(without, GRAND_SPITZE_DEAL, [], str(bid))
    assert str(bid) in _texts(_state(rules, GRAND_SPITZE_DEAL))
    # the highest value without Spitze is offered in both
    top = 216 if "lothar" in rules else 264
    assert str(top) in _texts(_state(without, GRAND_SPITZE_DEAL))
    assert max(int(t) for t in _texts(_state(rules, GRAND_SPITZE_DEAL)) if t.isdigit()) == bid
    start = [str(bid), "pass", "pass", "hand"]
    o, _ = _both(rules, GRAND_SPITZE_DEAL, [*start, f"{declaration} spitze",
                                           *GRAND_SPITZE_TRICKS])
    assert o.bid == bid and o.matadors == 4 and o.spitze_made and o.won and not o.overbid
    assert o.value == bid and o.scores == (0, bid, 0)
    # the same game without the word: one level short, overbid: settled at the bid, lost
    o, _ = _both(rules, GRAND_SPITZE_DEAL, [*start, declaration, *GRAND_SPITZE_TRICKS])
    assert o.overbid and not o.won and o.value == bid and o.scores == (0, -2 * bid, 0)

# --- generated games ------------------------------------------------------------------

GAMES = int(os.environ.get("STICH_ORACLE_GAMES", "10000"))
HOUSE = {"kontra", "re", "schieben", "klopfen", "schenken", "accept"}
# actions that are never right at the start of a Ramsch round's game
NOT_AT_ROUND_START = ("18", "hold", "hand", "pickup", "declare grand", "schieben", "klopfen")
GREEDY = {r: i for i, r in enumerate("789QKTA")}


def _random_rules(rng: random.Random, ramsch_round: bool) -> str:
    preset = rng.choice(["lothar", "isko"])
    opts = [f"preset={preset}"]
    opts.append("kontra_re=" + rng.choice(["no", "yes", "yes", "bid18", "bid18"]))
    opts.append("klopfen=" + rng.choice(["yes", "yes", "no"]))
    for key in ("jungfrau", "durchmarsch", "schieberamsch"):
        if rng.random() < 0.6:
            opts.append(f"{key}={rng.choice(['yes', 'no'])}")
    if rng.random() < 0.6:
        opts.append("ramsch_skat=" + rng.choice(["last_trick", "loser"]))
    if preset == "isko" and rng.random() < 0.5:
        opts.append("all_pass=ramsch")
    if rng.random() < 0.15:
        opts.append("null_overbid=" + rng.choice(["refused", "next_level"]))
    if rng.random() < 0.15:
        opts.append("bidding_jumps=" + rng.choice(["yes", "no"]))
    if ramsch_round:  # a Ramsch round follows a Bock round
        opts += ["bock=" + rng.choice(["lost_60", "lost_60+kontra_won", "grand_hand"]),
                 "bock_ramsch=yes"]
    elif rng.random() < 0.1:  # Bock belongs to the list: a single game's score ignores it
        opts.append("bock=lost_60+kontra_won")
        if rng.random() < 0.5:
            opts.append("bock_ramsch=yes")
    rng.shuffle(opts)
    return f"skat({','.join(opts)})"


def _random_deal(rng: random.Random, monster: int | None) -> list[str]:
    """Three hands and the Skat; ``monster``: that seat gets the four Unter and the six
    best cards of one suit (he takes every trick when he plays them from the top)."""
    deck = sorted(DECK)
    rng.shuffle(deck)
    if monster is None:
        return [" ".join(deck[i:i + 10]) for i in (0, 10, 20)] + [" ".join(deck[30:])]
    suit = rng.choice("CSHD")
    strong = ["CJ", "SJ", "HJ", "DJ"] + [suit + r for r in "ATKQ98"]
    if rng.random() < 0.3:  # nearly: one of them swapped for a random card
        strong[rng.randrange(4, 10)] = rng.choice([c for c in deck if c not in strong])
    rest = [c for c in deck if c not in strong]  # 22 cards
    chunks = [rest[0:10], rest[10:20]]
    hands = [strong if seat == monster else chunks.pop() for seat in range(3)]
    return [" ".join(h) for h in hands] + [" ".join(rest[20:])]


def _low_deal(rng: random.Random, low: int) -> list[str]:
    """Three hands and the Skat; seat ``low`` gets ten of the twelve Sieben, Acht and
    Neun (in two deals of three one to three of them swapped for a Zehn, Unter or Ober:
    a card a defender may force him to take a trick with, or not)."""
    deck = sorted(DECK)
    rng.shuffle(deck)
    lows = [c for c in deck if c[1] in "789"][:10]
    if rng.random() < 0.67:
        for i in rng.sample(range(10), rng.randint(2, 4)):
            lows[i] = rng.choice([c for c in deck if c[1] in "TJQ" and c not in lows])
    rest = [c for c in deck if c not in lows]  # 22 cards
    chunks = [rest[0:10], rest[10:20]]
    hands = [lows if seat == low else chunks.pop() for seat in range(3)]
    return [" ".join(h) for h in hands] + [" ".join(rest[20:])]


def _lowest_null(texts: list[str]) -> str | None:
    """The lowest card in Null order (A K O U 10 9 8 7), or None without a card."""
    return min((t for t in texts if t in DECK), key=lambda c: "AKQJT987".index(c[1]),
               default=None)


def _greedy(texts: list[str]) -> str:
    """The highest card: an Unter (Eichel first), else by rank A 10 K O 9 8 7."""
    def key(t: str) -> tuple[int, int]:
        return (1, "DHSC".index(t[0])) if t[1] == "J" else (0, GREEDY[t[1]])
    return max(texts, key=key)


def _choose(rng: random.Random, replay: Replay, texts: list[str], mode: str,
            monster: int | None, p: dict[str, float]) -> str:
    seat = replay.to_move
    if "kontra" in texts and rng.random() < p["kontra"]:
        return "kontra"
    if "klopfen" in texts and rng.random() < p["klopfen"]:
        return "klopfen"
    if replay.phase == "ramsch_round":
        if monster is not None:  # he plays Grand Hand ("game") or marches through
            return "declare grand hand" if seat == monster and mode == "game" else "pass"
        return "declare grand hand" if rng.random() < p["grand"] else "pass"
    if replay.phase == "kontra_answer":
        return "re" if rng.random() < p["re"] else "pass"
    if replay.phase == "schieben":
        if seat == monster or rng.random() < p["schieben"]:
            return "schieben"
        return "pickup"
    if replay.phase == "auction":
        if mode == "all_pass" or (monster is not None and (seat != monster or mode == "ramsch")):
            if "pass" in texts:
                return "pass"
        elif seat == monster:
            bids = [t for t in texts if t != "pass"]
            if bids:
                return min(bids, key=lambda t: int(t) if t.isdigit() else 0) \
                    if rng.random() < 0.7 else rng.choice(bids)
    if replay.phase == "auction" and rng.random() < p["eager"]:
        bids = [t for t in texts if t != "pass"]
        if bids:
            return rng.choice(bids)
    if replay.phase == "declare" and (mode == "null" or rng.random() < p["null"]):
        nulls = [t for t in texts if t.startswith("declare null")]
        if nulls:
            return rng.choice(nulls)
    if replay.phase == "play" and seat == monster:
        cards = [t for t in texts if t in DECK]
        if cards and mode == "null":
            return _lowest_null(cards) or cards[0]
        if cards:
            return _greedy(cards)
    choices = [t for t in texts if t not in ("kontra", "klopfen", "schenken")] or texts
    return rng.choice(choices)


class _GiftPlan:
    """Revolution and Schenken in the generated games, from a generator of their own
    (the other choices of a game stay as they were): whether the table plays them, how
    eagerly a defender offers, a partner agrees, a declarer accepts, and how many cards
    a Revolution's defenders pass."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.revolution = rng.random() < 0.3
        self.schenken = rng.random() < 0.35
        self.offer = rng.choice([0.2, 0.6, 0.9])
        self.agree = rng.choice([0.3, 0.8])
        self.accept = rng.choice([0.2, 0.5, 0.8])
        self.revolt = rng.choice([0.3, 0.9])  # a Null declarer's choice of a Revolution

    def rules(self, rules: str) -> str:
        extra = ([",revolution=yes"] if self.revolution else []) + (
            [",schenken=yes"] if self.schenken else [])
        return f"{rules[:-1]}{''.join(extra)})"

    def choose(self, replay: Replay, texts: list[str]) -> str | None:
        rng = self.rng
        if replay.phase == "exchange":
            gives = [t for t in texts if t.startswith("give")]
            # now and then nothing, else a set of a random size
            if rng.random() < 0.2:
                return "give" if "give" in gives else rng.choice(gives)
            return rng.choice(gives)
        if replay.phase == "gift_partner":
            return "schenken" if rng.random() < self.agree else "pass"
        if replay.phase == "gift_declarer":
            return "accept" if rng.random() < self.accept else "pass"
        if "schenken" in texts and rng.random() < self.offer:
            return "schenken"
        if replay.phase == "declare":
            revolt = [t for t in texts if t.endswith(" revolution")]
            if revolt and any(t.startswith("declare null") for t in texts) and \
                    rng.random() < 0.2 * self.revolt:
                return rng.choice(revolt)
        return None


# claiming and giving up in the generated games: in this share of the declared games (of
# the Null games: they rarely last) a plan is drawn, carried out once at most four tricks
# (12 cards, the open trick's counted) are left
CLAIM_SHARE = 0.5
CLAIM_SHARE_NULL = 0.9
CLAIM_PLANS = ("claim", "claim", "claim", "claim", "declarer_giveup", "defenders_giveup",
               "defenders_giveup", "one_defender_giveup", "one_defender_giveup")
CLAIM_CARDS = 12
NULL_MODE = 0.15  # of the "random" games: a Null player with low cards


class _ClaimPlan:
    """What one generated game does with ``claim``/``giveup``: ``claim`` (the declarer
    claims at a turn of his), ``declarer_giveup``, ``defenders_giveup`` (each defender
    gives up at his next turn and plays his card; the second ends the game) or
    ``one_defender_giveup`` (the first defender to move gives up, the game is played to
    the end).  A Null declarer with a plan plays his lowest card till then, except that
    most Null declarers who plan a claim misjudge: they play as the game's other choices
    say and claim only at a moment the oracle finds the claim wrong (a Null declarer
    still in the game at trick 7 is nearly always safe)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.drawn = False
        self.plan: str | None = None
        self.misjudge = False
        self.urge = rng.choice([0.2, 0.5, 1.0])  # the chance per turn once it may
        self.claim_mid_trick = False
        self.claim_needs_care = False  # right, but not with every card he may play
        self.giveup_then_card = 0

    def choose(self, replay: Replay, offered: set[str], texts: list[str]) -> str | None:
        if replay.phase != "play" or replay.declarer is None:
            return None
        null = replay.game == "null"
        if not self.drawn:  # at the declared game's first card
            self.drawn = True
            if self.rng.random() < (CLAIM_SHARE_NULL if null else CLAIM_SHARE):
                self.plan = self.rng.choice(CLAIM_PLANS)
                self.misjudge = null and self.rng.random() < 0.7
        if self.plan is None:
            return None
        declarer = replay.to_move == replay.declarer
        action = self._act(replay, offered, declarer)
        if action is None and null and declarer and self.plan != "played_on" and not self.misjudge:
            return _lowest_null(texts)
        return action

    def _act(self, replay: Replay, offered: set[str], declarer: bool) -> str | None:
        if (not offered or replay.cards_in_play > CLAIM_CARDS
                or self.rng.random() >= self.urge):
            return None
        if self.plan == "claim" and declarer and "claim" in offered:
            if self.misjudge and replay.claim_is_right():
                return None
            self.claim_mid_trick = bool(replay.trick)
            lines = replay.claim_lines()
            assert any(lines.values()) == replay.claim_is_right()
            self.claim_needs_care = any(lines.values()) and not all(lines.values())
            return "claim"
        if self.plan == "declarer_giveup" and declarer:
            return "giveup"
        if self.plan in ("defenders_giveup", "one_defender_giveup") and not declarer:
            if self.plan == "one_defender_giveup":
                self.plan = "played_on"  # nobody gives up after him
            return "giveup"
        return None


def _claim_features(replay: Replay, r: OracleResult, plan: _ClaimPlan) -> list[str]:
    null = r.game == "null"
    f = []
    if r.end == "claimed":
        f += ["claim_right", *(["claim_right_null"] if null else [])]
        f += ["claim_right_mid_trick"] if plan.claim_mid_trick else []
        f += ["claim_right_needs_best_play"] if plan.claim_needs_care else []
        f += ["claim_right_kontra"] if r.kontra else []
        f += ["claim_right_schwarz"] if r.schwarz and not null else []
    elif r.end == "claim_wrong":
        f += ["claim_wrong", *(["claim_wrong_null"] if null else [])]
        f += ["claim_wrong_mid_trick"] if plan.claim_mid_trick else []
        f += ["claim_wrong_still_won"] if r.won else []
    elif r.end == "gave_up" and len(replay.gave_up) == 2:
        f += ["defenders_gave_up", *(["defenders_gave_up_null"] if null else [])]
    elif r.end == "gave_up":
        f += ["declarer_gave_up", *(["declarer_gave_up_null"] if null else [])]
    if len(replay.gave_up) == 1 and r.end in ("played", "null_lost"):
        f.append("one_defender_gave_up_played_out")
    f += ["giveup_then_card"] * plan.giveup_then_card
    return f


def _gift_features(replay: Replay, r: OracleResult, actions: list[str]) -> list[str]:
    f = []
    if r.revolution:
        f += ["revolution", "revolution_won" if r.won else "revolution_lost"]
        given = [a for a in actions if a.startswith("give")]
        f += ["revolution_gave_cards"] if given and given[0] != "give" else []
        f += ["revolution_gave_none"] if given and given[0] == "give" else []
        f += ["revolution_kontra"] if r.kontra else []
    offers = actions.count("schenken")
    if offers:
        f.append("schenken_offered")
    f += [name for name, on in (
        ("gift_accepted", r.gift_accepted and r.gift == 0),
        ("gift_accepted_schneider", r.gift_accepted and r.gift == 1),
        ("gift_played_on_once", r.gift == 1 and not r.gift_accepted),
        ("gift_played_on_twice", r.gift == 2),
        ("gift_played_on_won", r.gift >= 1 and r.won and not r.gift_accepted),
        ("gift_played_on_lost", r.gift >= 1 and not r.won),
        ("gift_accepted_overbid", r.gift_accepted and r.overbid),
        ("gift_kontra", r.gift_accepted and r.kontra),
        ("gift_offer_lapsed", offers > 0 and r.gift == 0 and not r.gift_accepted),
    ) if on]
    return f


def _features(replay: Replay, r: OracleResult, rules: str) -> list[str]:
    f = [r.kind]
    if r.ramsch_round:
        f.append("round")
        if r.kind == "game":
            f += ["round_grand", f"round_grand_by_{r.declarer}",
                  "round_grand_won" if r.won else "round_grand_lost"]
            f += ["round_grand_kontra"] if r.kontra else []
        else:
            f.append("round_all_pass")
            f += ["round_ramsch_where_redeal"] if "preset=isko" in rules and \
                "all_pass=ramsch" not in rules else []
    if r.kind == "game":
        f.append("null" if r.game == "null" else "suit_or_grand")
        f += [name for name, on in (
            ("won", r.won), ("lost", not r.won), ("overbid", r.overbid),
            ("null_overbid_at_once", replay.null_overbid_lost),
            ("schneider", r.schneider), ("schwarz", r.schwarz), ("hand", r.hand),
            ("ouvert", r.ouvert), ("announced", replay.schneider_announced),
            ("kontra", r.kontra), ("re", r.re), ("kontra_null", r.kontra and r.game == "null"),
            ("kontra_ouvert", r.kontra and r.ouvert), ("kontra_overbid", r.kontra and r.overbid),
            ("kontra_won", r.kontra and r.won), ("kontra_lost", r.kontra and not r.won),
            ("kontra_bid18", r.kontra and "kontra_re=bid18" in rules),
            ("kontra_by_vorhand", replay.kontra_by == 0),
        ) if on]
        if r.spitze:
            early = replay.spitze_trick is not None and replay.spitze_trick < 10
            f += ["spitze", *[name for name, on in (
                ("spitze_made", r.spitze_made), ("spitze_not_made", not r.spitze_made),
                ("spitze_won", r.won), ("spitze_made_but_lost", r.spitze_made and not r.won),
                ("spitze_not_made_61", not r.spitze_made and r.declarer_points >= 61
                 and not r.overbid),
                ("spitze_card_early", early), ("spitze_card_early_61", early
                                               and r.declarer_points >= 61),
                ("spitze_double", "spitze=double" in rules),
                ("spitze_double_made", "spitze=double" in rules and r.spitze_made),
                ("spitze_grand", r.game == "grand"), ("spitze_suit", r.game != "grand"),
                ("spitze_grand_made", r.game == "grand" and r.spitze_made),
                ("spitze_hand", r.hand), ("spitze_kontra", r.kontra), ("spitze_re", r.re),
                ("spitze_kontra_made", r.kontra and r.spitze_made),
                ("spitze_overbid", r.overbid), ("spitze_schneider", r.schneider),
                ("spitze_schwarz", r.schwarz),
                ("spitze_hand_ouvert_isko", r.hand and r.ouvert and "preset=isko" in rules),
                ("spitze_ouvert_lothar", r.ouvert and "preset=lothar" in rules),
                ("spitze_defenders_gave_up", r.end == "gave_up" and len(replay.gave_up) == 2),
                ("spitze_declarer_gave_up", r.end == "gave_up" and len(replay.gave_up) < 2),
            ) if on]]
    elif r.kind == "ramsch":
        f += [f"pushes_{r.pushes}"] if r.pushes else []
        f += [f"knocks_{r.knocks}"] if r.knocks else []
        f += [name for name, on in (
            ("klopfen_pushes", r.knocks > 0 and r.pushes > 0),
            ("klopfen_jungfrau", r.knocks > 0 and r.jungfrau),
            ("klopfen_durchmarsch", r.knocks > 0 and r.durchmarsch),
            ("jungfrau", r.jungfrau), ("durchmarsch", r.durchmarsch),
            ("all_tricks_durchmarsch_off", 10 in r.tricks and not r.durchmarsch),
            ("all_tricks_jungfrau_on", 10 in r.tricks and "jungfrau=yes" in rules),
            ("ramsch_pickup", replay.ramsch_pickups > 0),
            ("skat_to_loser", "ramsch_skat=loser" in rules and r.loser is not None
             and r.loser != replay.last_winner),
            ("ramsch_tie", r.tie),
        ) if on]
    return f


# the least each feature must be seen in 10,000 games (about a third of what the seeded
# run sees), scaled down for a smaller STICH_ORACLE_GAMES
MINIMUM = {
    "game": 1900, "ramsch": 1000, "passed": 300, "null": 400, "suit_or_grand": 1500,
    "won": 300, "lost": 1600, "overbid": 900, "null_overbid_at_once": 20, "schneider": 550,
    "schwarz": 130, "hand": 900, "ouvert": 450, "announced": 300, "kontra": 700, "re": 350,
    "kontra_null": 120, "kontra_won": 80, "kontra_lost": 600, "kontra_bid18": 250,
    "kontra_ouvert": 150, "kontra_overbid": 350,
    "kontra_by_vorhand": 350, "kontra_refused_bid18": 700, "kontra_refused_too_late": 10000,
    "pushes_1": 75, "pushes_2": 90, "pushes_3": 110, "jungfrau": 60, "durchmarsch": 140,
    "all_tricks_durchmarsch_off": 70, "all_tricks_jungfrau_on": 65, "ramsch_pickup": 200,
    "skat_to_loser": 120, "ramsch_tie": 12, "refusal": 8000,
    # Klopfen
    "knocks_1": 170, "knocks_2": 130, "knocks_3": 165, "klopfen_pushes": 70,
    "klopfen_jungfrau": 30, "klopfen_durchmarsch": 65, "klopfen_refused_pushed": 470,
    "klopfen_refused_too_late": 20000, "klopfen_refused_twice": 900,
    # the compulsory Ramsch of a Ramsch round
    "round": 850, "round_all_pass": 480, "round_ramsch_where_redeal": 120,
    "round_grand": 380, "round_grand_won": 170, "round_grand_lost": 210,
    "round_grand_by_0": 190, "round_grand_by_1": 105, "round_grand_by_2": 85,
    "round_grand_kontra": 95, "refusal_round_start": 600,
    # claiming the rest and giving up
    "claim_right": 60, "claim_right_null": 12, "claim_right_mid_trick": 20,
    "claim_right_needs_best_play": 8,
    "claim_right_kontra": 20, "claim_right_schwarz": 30, "claim_wrong": 200,
    "claim_wrong_null": 7, "claim_wrong_mid_trick": 140, "claim_wrong_still_won": 15,
    "declarer_gave_up": 75, "declarer_gave_up_null": 6, "defenders_gave_up": 145,
    "defenders_gave_up_null": 22, "one_defender_gave_up_played_out": 210,
    "giveup_then_card": 350, "claims_offered_declarer": 14000,
    "claims_offered_defender": 29000, "claims_none_ramsch": 38000,
    "claims_none_re_pending": 590, "claims_none_gave_up": 940, "refusal_claim": 4400,
    # Spitze (null_overbid_at_once above is lower since Spitze took a share of the games)
    "spitze": 500, "spitze_made": 240, "spitze_not_made": 270, "spitze_won": 145,
    "spitze_made_but_lost": 95, "spitze_not_made_61": 60, "spitze_card_early": 230,
    "spitze_card_early_61": 80, "spitze_double": 170, "spitze_double_made": 80,
    "spitze_grand": 110, "spitze_grand_made": 60, "spitze_suit": 400, "spitze_hand": 260,
    "spitze_kontra": 180, "spitze_kontra_made": 70, "spitze_re": 90, "spitze_overbid": 180,
    "spitze_schneider": 260, "spitze_schwarz": 60, "spitze_hand_ouvert_isko": 32,
    "spitze_ouvert_lothar": 60, "spitze_defenders_gave_up": 45, "spitze_declarer_gave_up": 24,
    "spitze_offered": 900, "spitze_card_discarded": 175, "spitze_refused_four_unter": 130,
    "refusal_spitze": 350, "refusal_spitze_card": 200, "refusal_spitze_null": 65,
    "refusal_spitze_rule_off": 75, "bid_spitze_only": 330, "claims_spitze_giveup_only": 5000,
}
# Revolution and Schenken: set from the first 10,000-game run (about a third of it)
MINIMUM_GIFT = {
    "revolution": 75, "revolution_won": 15, "revolution_lost": 60,
    "revolution_gave_cards": 60, "revolution_gave_none": 15, "revolution_kontra": 20,
    "revolution_exchange_offers": 150, "refusal_give": 28, "schenken_offered": 190,
    "gift_accepted": 60, "gift_accepted_schneider": 11, "gift_played_on_once": 26,
    "gift_played_on_twice": 25, "gift_played_on_won": 9, "gift_played_on_lost": 44,
    "gift_accepted_overbid": 16, "gift_kontra": 8, "gift_offer_lapsed": 70,
    "gift_partner_schenken": 160, "gift_partner_pass": 140, "gift_declarer_accept": 70,
    "gift_declarer_pass": 89,
}
MINIMUM.update(MINIMUM_GIFT)
# the shortcut: compared at every card-play step with at most this many cards in play
SHORTCUT_COMPARED = 12
MINIMUM_SHORTCUT = {"forced_1": 700, "forced_0": 1200, "forced_-1": 9000, "shortcut_1": 270,
                    "shortcut_0": 350, "shortcut_null": 110, "shortcut_mid_trick": 420,
                    "refusal_shortcut": 450}
MINIMUM.update(MINIMUM_SHORTCUT)


# Spitze in the generated games: drawn from a generator of its own (the other choices of a
# game stay as they were); SPITZE_MODE of the "random" games get a Spitze deal
SPITZE_MODE = 0.2
SPITZE_GAMES = ("eichel", "gruen", "herz", "schellen", "grand")


def _spitze_deal(rng: random.Random, seat: int, game: str) -> list[str]:
    """Three hands and the Skat; seat ``seat`` holds a strong ``game`` with its Spitze
    card: three Unter (not the Schellen-Unter in a suit game; the Herz-Unter left out in
    Grand) and the top of a suit (the trump suit in a suit game) with its Sieben or the
    Schellen-Unter; in two deals of five one or two of those swapped for other cards."""
    deck = sorted(DECK)
    rng.shuffle(deck)
    if game == "grand":
        suit = rng.choice("CSHD")
        strong = ["CJ", "SJ", "DJ"] + [suit + r for r in "ATKQ98"]
    else:
        suit = {"eichel": "C", "gruen": "S", "herz": "H", "schellen": "D"}[game]
        strong = ["CJ", "SJ", "HJ"] + [suit + r for r in "ATKQ9"] + [suit + "7"]
    strong.append(rng.choice([c for c in deck if c not in strong]))
    if rng.random() < 0.4:
        card = spitze_card(game)
        for i in rng.sample([i for i, c in enumerate(strong) if c != card], rng.randint(1, 2)):
            strong[i] = rng.choice([c for c in deck if c not in strong])
    rest = [c for c in deck if c not in strong]  # 22 cards
    chunks = [rest[0:10], rest[10:20]]
    hands = [strong if s == seat else chunks.pop() for s in range(3)]
    return [" ".join(h) for h in hands] + [" ".join(rest[20:])]


class _SpitzePlan:
    """What one generated game does with Spitze: how eagerly a declarer says it when
    offered (``game``: the Spitze deal's game, said nearly always), and whether the
    declarer keeps the card for the last trick (``keep``) or plays it at once."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.rule = rng.choice(["no", "yes", "yes", "double"])
        self.say = rng.choice([0.5, 0.9])
        self.keep = rng.random() < 0.6
        self.game: str | None = None

    def choose(self, replay: Replay, texts: list[str], mode: str,
               monster: int | None, null: float) -> str | None:
        """``null``: the game's share of Null declarations, left to the other choices."""
        seat = replay.to_move
        if replay.phase == "skat" and mode == "spitze" and seat == monster:
            return "hand" if self.rng.random() < 0.5 else "pickup"
        if replay.phase == "declare" and mode != "null" and self.rng.random() >= null:
            offered = [t for t in texts if t.endswith(" spitze")]
            planned = [t for t in offered if t.split()[1] == self.game]
            if planned and seat == monster and self.rng.random() < 0.95:
                return self.rng.choice(planned)
            if offered and self.rng.random() < self.say:
                return self.rng.choice(offered)
            if offered and seat != monster:  # the other declarations as often as before
                return self.rng.choice([t for t in texts if not t.endswith(" spitze")])
        if replay.phase == "play" and replay.spitze and seat == replay.declarer:
            assert replay.game is not None
            card = spitze_card(replay.game)
            cards = [t for t in texts if t in DECK]
            others = [c for c in cards if c != card]
            if not self.keep:
                return card if card in cards else None
            if others:
                return _greedy(others) if mode == "spitze" else self.rng.choice(others)
        return None


def _spitze_probe(sp: _SpitzePlan, replay: Replay, state: SkatState, where: str,
                  seen: Counter[str]) -> None:
    """At a declaration: a Spitze the rules do not allow now is refused by both."""
    hand = " hand" if replay.hand_game else ""
    game = sp.rng.choice([*SPITZE_GAMES, "null"])
    text = f"declare {game}{hand} spitze"
    if text in replay.declarations():
        return
    with pytest.raises(IllegalActionError):
        state.apply_text(text)
    with pytest.raises(OracleError):
        replay.step(text)  # refused before it changes anything
    seen["refusal_spitze"] += 1
    why = "null" if game == "null" else "rule_off" if sp.rule == "no" else "card"
    seen[f"refusal_spitze_{why}"] += 1


def _count_declaration(replay: Replay, texts: list[str], seen: Counter[str]) -> None:
    """Count the declarations compared where Spitze is played: offered or not, and why
    not (the card put into the Skat, all four Unter with the Schellen-Unter)."""
    if replay.rules.spitze == "no":
        return
    d = replay.declarer
    assert d is not None
    if any(t.endswith(" spitze") for t in texts):
        seen["spitze_offered"] += 1
    if not replay.hand_game and any(spitze_card(g) in replay.skat for g in SPITZE_GAMES):
        seen["spitze_card_discarded"] += 1
    if {"CJ", "SJ", "HJ", "DJ"} <= replay.hands[d]:
        seen["spitze_refused_four_unter"] += 1


def _play_one(seed: int, seen: Counter[str]) -> None:
    rng = random.Random(seed)
    ramsch_round = rng.random() < 0.25
    rules = _random_rules(rng, ramsch_round)
    sp = _SpitzePlan(random.Random(f"spitze {seed}"))
    mode = rng.choices(["random", "all_pass", "ramsch", "game"], [50, 30, 10, 10])[0]
    monster = rng.randrange(3) if mode in ("ramsch", "game") else None
    deal = _random_deal(rng, monster)
    # claims draw from their own generator: the game's other choices stay as they were
    plan = _ClaimPlan(random.Random(f"claims {seed}"))
    if mode == "random" and not ramsch_round and plan.rng.random() < NULL_MODE:
        # a Null player with (nearly) the lowest cards, to see Null claims
        mode, monster = "null", plan.rng.randrange(3)
        deal = _low_deal(plan.rng, monster)
    if mode == "random" and not ramsch_round and sp.rng.random() < SPITZE_MODE:
        # a declarer with a strong game and its Spitze card
        mode, monster, sp.game = "spitze", sp.rng.randrange(3), sp.rng.choice(SPITZE_GAMES)
        deal = _spitze_deal(sp.rng, monster, sp.game)
        sp.rule = sp.rng.choice(["yes", "yes", "double"])
        sp.keep = sp.rng.random() < 0.8
    if sp.rule != "no":
        rules = f"{rules[:-1]},spitze={sp.rule})"
    gp = _GiftPlan(random.Random(f"gift {seed}"))
    sc = random.Random(f"shortcut {seed}")
    rules = gp.rules(rules)
    no_spitze_ladder = set(bidding_ladder(dataclasses.replace(
        Replay.new(rules, deal[:3], deal[3]).rules, spitze="no")))
    p = {"kontra": rng.choice([0.0, 0.5, 0.95]), "re": rng.choice([0.0, 0.5, 1.0]),
         "schieben": rng.choice([0.3, 0.6, 0.9]), "null": rng.choice([0.0, 0.0, 0.6]),
         "eager": rng.choice([0.0, 0.0, 0.8]), "klopfen": rng.choice([0.0, 0.3, 0.6, 0.95]),
         "grand": rng.choice([0.0, 0.15, 0.5])}
    state = SkatState.new(SkatRules.parse(rules), hands=[parse_cards(h) for h in deal[:3]],
                          skat=parse_cards(deal[3]), ramsch_round=ramsch_round)
    replay = Replay.new(rules, deal[:3], deal[3], ramsch_round)
    actions: list[str] = []
    where = f"seed {seed}, {rules}, ramsch_round {ramsch_round}, deal {deal}"
    klopfen_on = "klopfen=yes" in rules
    while not state.is_over:
        assert not replay.is_over, f"{where}: the oracle ended after {actions}"
        texts = [str(a) for a in state.legal_actions()]
        allowed = replay.house_actions()
        assert state.to_move == replay.to_move, f"{where}: to move after {actions}"
        assert set(texts) & HOUSE == allowed - {"pass"}, f"{where}: {texts} after {actions}"
        offered = _claims(state)
        assert offered == replay.claim_actions(), f"{where}: {offered} after {actions}"
        assert not offered & set(texts), f"{where}: {texts} after {actions}"
        _count_claim_situation(replay, offered, seen)
        if replay.phase == "auction":
            assert set(texts) == replay.auction_actions(), f"{where}: {texts} after {actions}"
        if replay.phase == "declare":
            assert set(texts) == replay.declarations(), f"{where}: {texts} after {actions}"
            _count_declaration(replay, texts, seen)
            if sp.rng.random() < 0.3:
                _spitze_probe(sp, replay, state, where, seen)
        if plan.rng.random() < 0.05:
            # claim or giveup where the rules do not allow it is refused
            refused = sorted(CLAIM_ACTIONS - offered)
            if refused:
                with pytest.raises(IllegalActionError):
                    state.apply_text(plan.rng.choice(refused))
                seen["refusal_claim"] += 1
        if replay.phase == "ramsch_round":
            assert set(texts) == ROUND_START, f"{where}: {texts} after {actions}"
            if rng.random() < 0.3:
                with pytest.raises(IllegalActionError):
                    state.apply_text(rng.choice(NOT_AT_ROUND_START))
                seen["refusal_round_start"] += 1
        if replay.phase == "play" and replay.declarer is None and klopfen_on:
            # a Ramsch player's turn: Klopfen refused once he played (or knocked), or
            # when he pushed the Skat on unseen
            if replay.to_move in replay.played_first:
                seen["klopfen_refused_too_late"] += 1
            elif replay.to_move in replay.pushed:
                seen["klopfen_refused_pushed"] += 1
            elif replay.to_move in replay.knocked:
                seen["klopfen_refused_twice"] += 1
        if replay.phase == "kontra_answer":
            assert set(texts) == {"re", "pass"}, f"{where}: {texts} after {actions}"
        if replay.phase == "exchange":
            gives = {frozenset(t.split()[1:]) for t in texts}
            assert gives == replay.gives(), f"{where}: {texts} after {actions}"
            seen["revolution_exchange_offers"] += 1
            if gp.rng.random() < 0.2:  # a card of the partner or a wrong number: refused
                wrong = sorted(replay.hands[replay.partner(replay.to_move)])[:1]
                with pytest.raises(IllegalActionError):
                    state.apply_text("give " + " ".join(wrong))
                seen["refusal_give"] += 1
        gift_phase = replay.phase if replay.phase.startswith("gift_") else ""
        shortcut = False
        if replay.phase == "schieben":
            assert set(texts) == {"pickup", "schieben"}, f"{where}: {texts} after {actions}"
        if replay.phase == "discard" and replay.declarer is None:
            assert all("J" not in t for t in texts), f"{where}: {texts} after {actions}"
        if (replay.phase == "play" and replay.declarer not in (None, replay.to_move)
                and "kontra_re=no" not in rules and replay.kontra_by is None):
            # a defender's turn, Kontra not said: refused when he has played his first
            # card already, or (bid18) when he only passed in the auction
            if replay.to_move in replay.played_first:
                seen["kontra_refused_too_late"] += 1
            elif "kontra_re=bid18" in rules and replay.to_move not in replay.said:
                seen["kontra_refused_bid18"] += 1
        if rng.random() < 0.1:  # an action the rules do not allow now is refused
            probe = rng.choice(sorted(HOUSE - allowed))
            with pytest.raises(IllegalActionError):
                state.apply_text(probe)
            seen["refusal"] += 1
        if (replay.phase == "play" and replay.declarer is not None
                and replay.cards_in_play <= SHORTCUT_COMPARED):
            forced = replay.forced_side()
            assert state.forced_rest() == forced, f"{where}: after {actions}"
            seen[f"forced_{forced}"] += 1
            after_giveup = bool(actions) and actions[-1] == "giveup"  # he plays his card
            if forced >= 0 and not after_giveup and sc.random() < 0.4:
                seen[f"shortcut_{'null' if replay.game == 'null' else forced}"] += 1
                if replay.trick:
                    seen["shortcut_mid_trick"] += 1
                shortcut = True
            elif forced < 0 and sc.random() < 0.05:
                with pytest.raises(IllegalActionError):
                    state.apply_text("shortcut")
                seen["refusal_shortcut"] += 1
        text = "shortcut" if shortcut else (plan.choose(replay, offered, texts)
                or gp.choose(replay, texts)
                or sp.choose(replay, texts, mode, monster, p["null"])
                or _choose(rng, replay, texts, mode, monster, p))
        if replay.phase == "auction" and text.isdigit() and int(text) not in no_spitze_ladder:
            seen["bid_spitze_only"] += 1
        if actions and actions[-1] == "giveup" and replay.to_move in replay.gave_up:
            assert text in DECK, f"{where}: {text} after {actions}"
            plan.giveup_then_card += 1  # a defender who gave up plays his card
        if gift_phase:
            seen[f"{gift_phase}_{text}"] += 1
        state = state.apply_text(text)
        replay.step(text)
        actions.append(text)
    assert replay.is_over, f"{where}: the engine ended after {actions}"
    assert [str(a) for a in state.history] == actions
    result = replay.result()
    # the oracle again, from the deal and the texts alone
    assert evaluate(rules, deal[:3], deal[3], actions, ramsch_round) == result
    assert _engine_facts(state.outcome()) == _oracle_facts(result), \
        f"{where}: actions {actions}"
    assert state.end_reason == result.end, f"{where}: actions {actions}"
    claimed = bool(CLAIM_ACTIONS & set(actions))
    if ramsch_round or result.knocks or claimed or seed % 10 == 0:
        _check_record(state, ramsch_round)
    seen.update(_features(replay, result, rules))
    seen.update(_gift_features(replay, result, actions))
    seen.update(_claim_features(replay, result, plan))


def _count_claim_situation(replay: Replay, offered: set[str], seen: Counter[str]) -> None:
    """Count the situations the claims are compared in (``offered`` equals the oracle's
    already): offered to the declarer or a defender, none in a Ramsch's card play, none
    while the declarer owes the answer to a Kontra, none for a defender who gave up."""
    if replay.phase == "kontra_answer":
        seen["claims_none_re_pending"] += 1
    elif replay.phase != "play":
        return
    elif replay.declarer is None:
        seen["claims_none_ramsch"] += 1
    elif replay.to_move in replay.gave_up:
        seen["claims_none_gave_up"] += 1
    elif replay.to_move == replay.declarer:
        seen["claims_offered_declarer"] += 1
        if replay.spitze:
            seen["claims_spitze_giveup_only"] += 1
    else:
        seen["claims_offered_defender"] += 1


def test_generated_games_agree_with_the_oracle() -> None:
    seen: Counter[str] = Counter()
    for seed in range(GAMES):
        _play_one(seed, seen)
    print(f"\n{GAMES} games: " + ", ".join(f"{k} {v}" for k, v in sorted(seen.items())))
    scale = min(1.0, GAMES / 10_000)
    short = {k: (seen[k], m) for k, m in MINIMUM.items() if seen[k] < int(m * scale)}
    assert not short, f"features seen too rarely (seen, minimum): {short}"


def test_the_default_run_plays_ten_thousand_games() -> None:
    if "STICH_ORACLE_GAMES" not in os.environ:
        assert GAMES >= 10_000


# --- Schenken -----------------------------------------------------------------------

SCHENKEN = "skat(preset=lothar,schenken=yes)"
EICHEL_HAND = _acts("pass, pass, 18, hand, declare eichel hand")


@pytest.mark.parametrize(("talk", "expected", "gift"), [
    # accepted at once: Eichel Hand mit 10, game 1, Hand 1 = 12 x 12, won simply
    (["schenken", "schenken", "accept"], 144, 0),
    # the declarer plays on and takes every trick: + Schneider, announced, Schwarz
    # = 15 x 12
    (["schenken", "schenken", "pass"], 180, 1),
    # offered again, by the other defender in the same trick, and accepted: the Schneider
    # (Schneider and announced) = 14 x 12
    (["schenken", "schenken", "pass", "C7", "schenken", "schenken", "accept"], 168, 1),
    # played on twice: Schwarz announced too = 16 x 12, made
    (["schenken", "schenken", "pass", "C7", "schenken", "schenken", "pass"], 192, 2),
])
def test_schenken_accepted_or_played_on(talk: list[str], expected: int, gift: int) -> None:
    cards = _cards(MONSTER_TRICKS_EICHEL)
    played = [t for t in talk if t in DECK]
    rest = cards[1 + len(played):] if talk[-1] == "pass" else []
    o, r = _both(SCHENKEN, MONSTER_DEAL, [*EICHEL_HAND, cards[0], *talk, *rest])
    assert o.scores == (expected, 0, 0) and o.won and o.gift == gift
    assert o.gift_accepted == (talk[-1] == "accept") == r.gift_accepted


def test_schenken_played_on_and_missing_the_schneider() -> None:
    # Eichel Hand, played on once: the Schneider counts as announced and must be made.
    # Vorhand takes five tricks (54 points, with the Skat's DA DT 75) and gives up: the
    # defenders get 45, no Schneider: lost at mit 10, game, Hand, Schneider and announced
    # = 14 x 12 = 168, -336
    cards = _cards(MONSTER_TRICKS_EICHEL)
    actions = [*EICHEL_HAND, cards[0], "schenken", "schenken", "pass", *cards[1:15],
               "giveup"]
    o, _ = _both(SCHENKEN, MONSTER_DEAL, actions)
    assert o.gift == 1 and not o.won and o.declarer_points == 75
    assert o.multiplier == 14 and o.scores == (-336, 0, 0)


def test_schenken_refused_where_the_rules_say_no() -> None:
    cards = _cards(MONSTER_TRICKS_EICHEL)
    # not at a table without it
    _refused("skat(preset=lothar)", MONSTER_DEAL, [*EICHEL_HAND, cards[0]], "schenken")
    # not by the declarer, not after the first trick
    _refused(SCHENKEN, MONSTER_DEAL, EICHEL_HAND, "schenken")
    _refused(SCHENKEN, MONSTER_DEAL, [*EICHEL_HAND, *cards[:4]], "schenken")
    # not twice by the same defender at one level; the partner may
    start = [*EICHEL_HAND, cards[0], "schenken", "pass"]
    _refused(SCHENKEN, MONSTER_DEAL, start, "schenken")
    assert "schenken" in _texts(_engine(SCHENKEN, MONSTER_DEAL, [*start, cards[1]]))
    # the partner answers schenken or pass, the declarer accept or pass; no card meanwhile
    _refused(SCHENKEN, MONSTER_DEAL, [*EICHEL_HAND, cards[0], "schenken"], "accept")
    _refused(SCHENKEN, MONSTER_DEAL, [*EICHEL_HAND, cards[0], "schenken"], "C7")
    _refused(SCHENKEN, MONSTER_DEAL, [*EICHEL_HAND, cards[0], "schenken", "schenken"],
             "schenken")
    _refused(SCHENKEN, MONSTER_DEAL, [*EICHEL_HAND, cards[0], "schenken", "schenken"], "C7")
    # not in Null, not with Schneider announced, not with Spitze
    _refused(SCHENKEN, NULL_DEAL, _acts("pass, pass, 18") + NULL_GAME + ["CA"], "schenken")
    isko = "skat(preset=isko,schenken=yes)"
    _refused(isko, MONSTER_DEAL, [*_acts("pass, pass, 18, hand, declare eichel hand "
                                         "schneider"), cards[0]], "schenken")
    # after the second time the declarer plays on, no more offers
    again = [*EICHEL_HAND, cards[0], "schenken", "schenken", "pass", "C7", "schenken",
             "schenken", "pass"]
    _refused(SCHENKEN, MONSTER_DEAL, again, "schenken")


def test_schenken_accepted_with_kontra_and_overbid() -> None:
    rules = "skat(preset=lothar,schenken=yes,kontra_re=yes)"
    cards = _cards(MONSTER_TRICKS_EICHEL)
    # Kontra, then the gift: 144 x 2
    o, _ = _both(rules, MONSTER_DEAL, [*EICHEL_HAND, cards[0], "kontra", "pass",
                                       "schenken", "schenken", "accept"])
    assert o.scores == (288, 0, 0) and o.kontra and o.gift_accepted
    # bid 168 (Schneider was his plan) and accepts the simple game: overbid, lost at
    # the next multiple of 12 reaching 168 = 168, -336
    o, _ = _both("skat(preset=isko,schenken=yes)", MONSTER_DEAL,
                 _acts("pass, 168, hold, pass, hand, declare eichel hand")
                 + [cards[0], "schenken", "schenken", "accept"])
    assert o.overbid and not o.won and o.bid == 168 and o.scores == (-336, 0, 0)


# --- Revolution ---------------------------------------------------------------------

REVOLUTION = "skat(preset=lothar,revolution=yes)"
REVOLT = _acts("pass, pass, 18, hand, declare null hand ouvert revolution")


def test_revolution_the_defenders_rearrange_and_see_each_other() -> None:
    # Vorhand (CA CK S7 S8 H7 H8 D7 D8 D9 H9) declares a Revolution: Mittelhand gives
    # Hinterhand CJ SJ, Hinterhand gives back HA HT; Vorhand leads the Eichel-Ass, both
    # follow (Hinterhand with the Eichel-Unter he was given) and he takes it: lost,
    # -2 x 92
    state = _engine(REVOLUTION, NULL_DEAL, REVOLT)
    assert state.to_move == 1 and all(t.startswith("give") for t in _texts(state))
    assert len(_texts(state)) == 2 ** 10  # any set of his ten cards
    v1, v2, v0 = state.view(1), state.view(2), state.view(0)
    assert v1.partner_hand == parse_cards(NULL_DEAL[2]) and v1.ouvert_hand == parse_cards(
        NULL_DEAL[0])
    assert v2.partner_hand == parse_cards(NULL_DEAL[1]) and v0.partner_hand == 0
    state = state.apply_text("give CJ SJ")
    assert state.to_move == 2 and len(_texts(state)) == 45  # two of his own ten
    _refused(REVOLUTION, NULL_DEAL, [*REVOLT, "give CJ SJ"], "give HA")  # as many
    _refused(REVOLUTION, NULL_DEAL, [*REVOLT, "give CJ SJ"], "give CJ SJ")  # his own
    _refused(REVOLUTION, NULL_DEAL, [*REVOLT, "give CJ SJ"], "SK")  # no card yet
    _refused(REVOLUTION, NULL_DEAL, REVOLT, "CA")
    state = state.apply_text("give HA HT")
    assert state.view(1).hand == parse_cards("HJ DJ CT CQ C9 C8 SA ST HA HT")
    assert state.view(2).partner_hand == parse_cards("HJ DJ CT CQ C9 C8 SA ST HA HT")
    o, r = _both(REVOLUTION, NULL_DEAL, [*REVOLT, "give CJ SJ", "give HA HT", "CA", "C8",
                                         "CJ"])
    assert o.revolution and r.revolution and not o.won and o.value == 92
    assert o.scores == (-184, 0, 0)


def test_revolution_bids_and_refusals() -> None:
    assert 92 in bidding_ladder(Replay.new(REVOLUTION, NULL_DEAL[:3], NULL_DEAL[3]).rules)
    plain = Replay.new("skat(preset=lothar)", NULL_DEAL[:3], NULL_DEAL[3]).rules
    assert 92 not in bidding_ladder(plain)
    from stich.skat.rules import bidding_ladder as engine_ladder
    assert 92 in engine_ladder(SkatRules.parse(REVOLUTION))
    assert 92 not in engine_ladder(SkatRules.parse("lothar"))
    # a bid of 92 leaves only the Revolution among the Nulls
    bids = ["pass"] + [x for v in (18, 20, 22, 23, 24, 27, 30, 33, 35, 36, 40, 44, 45, 46,
                                   48, 50, 54, 55, 59, 60, 63, 66, 70, 72, 77, 80, 81, 84,
                                   88, 90, 92) for x in (str(v), "hold")]
    state = _engine(REVOLUTION, NULL_DEAL, [*bids, "pass", "hand"])
    assert state.declarer == 0 and state.bid_value == 92
    nulls = {t for t in _texts(state) if t.startswith("declare null")}
    assert nulls == {"declare null hand ouvert revolution"}
    # not at a table without it, not as a plain Null
    _refused("skat(preset=lothar)", NULL_DEAL, _acts("pass, pass, 18, hand"),
             "declare null hand ouvert revolution")
    _refused(REVOLUTION, NULL_DEAL, _acts("pass, pass, 18, hand"),
             "declare null hand revolution")
    # a Revolution won: Vorhand gets rid of every card without a trick (both defenders
    # give up at once after the exchange)
    o, _ = _both(REVOLUTION, NULL_DEAL, [*REVOLT, "give", "give", "S7", "giveup", "SA",
                                         "giveup"])
    assert o.won and o.scores == (92, 0, 0)


# --- the shortcut -------------------------------------------------------------------


def test_the_shortcut_when_every_trick_is_the_declarers() -> None:
    # Eichel Hand, Vorhand holds the four Unter and the six best Eichel: after the first
    # six tricks (12 cards left) every way of playing on is his: shortcut, the rest his;
    # the same score as playing it out (Schneider and Schwarz: 14 x 12)
    rules = "skat(preset=lothar)"
    cards = _cards(MONSTER_TRICKS_EICHEL)
    start = _acts("pass, pass, 18, hand, declare eichel hand")
    before = _engine(rules, MONSTER_DEAL, [*start, *cards[:15]])
    assert before.forced_rest() == -1  # 15 cards in play: not searched
    state = _engine(rules, MONSTER_DEAL, [*start, *cards[:18]])
    assert state.forced_rest() == 1 and "shortcut" not in _texts(state) | _claims(state)
    o, r = _both(rules, MONSTER_DEAL, [*start, *cards[:18], "shortcut"])
    played, _ = _both(rules, MONSTER_DEAL, [*start, *cards])
    assert o.scores == played.scores == (168, 0, 0) and r.end == "shortcut"
    # mid-trick too
    o, _ = _both(rules, MONSTER_DEAL, [*start, *cards[:19], "shortcut"])
    assert o.scores == (168, 0, 0)


def test_no_shortcut_while_the_rest_is_open() -> None:
    rules = "skat(preset=lothar)"
    # the Null of deal A after the first trick: the declarer may still take a trick
    state = _engine(rules, NULL_DEAL, _acts("pass, pass, 18") + NULL_GAME + ["S7"])
    assert state.forced_rest() == -1
    _refused(rules, NULL_DEAL, _acts("pass, pass, 18") + NULL_GAME + ["S7"], "shortcut")
    # not in Ramsch, not in the auction
    _refused(rules, MONSTER_DEAL, ALL_PASS, "shortcut")
    _refused(rules, MONSTER_DEAL, [], "shortcut")
