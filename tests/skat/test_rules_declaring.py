"""RULES.md, Skat / Skat, Hand and declaring (and the Null overbid rules)."""

from __future__ import annotations

import pytest

from stich.cards import cards_of, parse_cards
from stich.messages import Cards, GameName, Msg, Seat
from stich.skat import Declare, Discard, GameType, IllegalActionError, Phase

from ..refusals import refused
from .helpers import ISKO, LOTHAR, act, bid_up, deal, play, play_out

DEAL = (
    "CJ SJ CA CT CK CQ C9 SA ST HA",
    "HJ DJ C8 C7 SK SQ S9 HT HK HQ",
    "S8 S7 H9 H8 H7 DA DT DK DQ D9",
    "D8 D7",
)
SKAT = parse_cards("D8 D7")
VORHAND = parse_cards(DEAL[0])


def declarer_at_18(rules, how: str):
    """Vorhand is declarer at 18 and has chosen ``hand`` or ``pickup``."""
    return act(deal(rules, *DEAL), "pass", "pass", "18", how)


def labels(state) -> list[str]:
    return [str(a) for a in state.legal_actions()]


# --- pick up and discard --------------------------------------------------------------


@pytest.mark.parametrize("rules", [ISKO, LOTHAR], ids=["isko", "lothar"])
def test_skat_phase_offers_hand_or_pickup(rules) -> None:
    s = act(deal(rules, *DEAL), "pass", "pass", "18")
    assert s.phase is Phase.SKAT and s.to_move == 0
    assert labels(s) == ["hand", "pickup"]
    with refused("skat.hand_or_pickup", IllegalActionError, seat=Seat(0),
                 action="declare grand") as e:
        act(s, "declare grand")
    assert str(e.value) == ("the declarer (Vorhand) plays Hand or picks up the Skat, "
                            "not declare grand")
    assert e.value.text("de", you=0) == ("Du spielst Hand oder nimmst den Skat auf, "
                                         "nicht „declare grand“")


def test_pickup_gives_twelve_cards_and_any_two_may_be_discarded() -> None:
    s = declarer_at_18(LOTHAR, "pickup")
    assert s.phase is Phase.DISCARD and s.to_move == 0
    assert s.hands[0] == VORHAND | SKAT and s.hands[0].bit_count() == 12
    discards = s.legal_actions()
    assert len(discards) == 66  # every pair of the twelve cards
    assert {d.cards for d in discards} == {
        a.bit | b.bit for i, a in enumerate(cards_of(s.hands[0]))
        for b in cards_of(s.hands[0])[i + 1:]
    }
    assert Discard(parse_cards("CJ SJ")) in discards  # Unter may be put away


def test_discarding_two_unter() -> None:
    s = act(declarer_at_18(LOTHAR, "pickup"), "discard CJ SJ")
    assert s.phase is Phase.DECLARE
    assert s.skat == parse_cards("CJ SJ")
    assert s.hands[0] == (VORHAND | SKAT) & ~parse_cards("CJ SJ")
    assert s.hands[0].bit_count() == 10
    # the put-away Unter still count as matadors: over the ten cards and the Skat
    s = act(s, "declare grand")
    assert s.game_info.owned == VORHAND | SKAT


def test_discard_must_be_cards_held() -> None:
    s = declarer_at_18(LOTHAR, "pickup")
    with refused("skat.discard_not_held", IllegalActionError, seat=Seat(0),
                 cards=Cards(parse_cards("HK"))) as e:
        act(s, "discard D8 HK")
    assert str(e.value) == "Vorhand cannot discard HK: not in the hand"
    assert e.value.text("en", you=0) == "you cannot discard HK: not in your hand"
    assert e.value.text("de") == "Vorhand kann HK nicht drücken: nicht auf der Hand"
    assert e.value.text("de", you=0) == "Du kannst HK nicht drücken: nicht auf deiner Hand"
    with refused("game.unreadable_action", IllegalActionError) as e:
        act(s, "discard D8")  # exactly two cards
    assert e.value.params["reason"] == Msg("skat.discard_size", {"n": 1})
    with refused("skat.discard_two", IllegalActionError, seat=Seat(0),
                 example=Cards(SKAT), action="declare grand"):
        act(s, "declare grand")


def test_pickup_is_not_hand() -> None:
    s = act(declarer_at_18(LOTHAR, "pickup"), "discard D8 D7")
    assert all(not d.hand for d in s.legal_actions())
    with refused("skat.no_hand_after_pickup", IllegalActionError, seat=Seat(0)) as e:
        s.apply(Declare(GameType.GRAND, hand=True))
    assert str(e.value) == "Vorhand picked up the Skat: no Hand game"
    assert e.value.text("de") == "Vorhand hat den Skat aufgenommen: kein Handspiel"
    assert e.value.text("de", you=0) == "Du hast den Skat aufgenommen: kein Handspiel"


# --- Hand -----------------------------------------------------------------------------


def test_hand_keeps_the_ten_cards_and_the_skat() -> None:
    s = declarer_at_18(LOTHAR, "hand")
    assert s.phase is Phase.DECLARE
    assert s.hands[0] == VORHAND and s.skat == SKAT
    assert all(d.hand for d in s.legal_actions())
    with refused("skat.hand_declare", IllegalActionError, seat=Seat(0)) as e:
        s.apply(Declare(GameType.GRAND))
    assert e.value.text("en", you=0) == "you play Hand: say e.g. 'declare grand hand'"
    assert e.value.text("de", you=0) == "Du spielst Hand: sag z. B. „declare grand hand“"
    # the state fills in the Hand a Hand declarer need not repeat
    assert act(s, "declare grand").contract == Declare(GameType.GRAND, hand=True)


@pytest.mark.parametrize("rules", [ISKO, LOTHAR], ids=["isko", "lothar"])
def test_every_game_can_be_declared_hand_or_not(rules) -> None:
    for how in ("hand", "pickup"):
        s = declarer_at_18(rules, how)
        if how == "pickup":
            s = act(s, "discard D8 D7")
        games = {d.game for d in s.legal_actions()}
        assert games == {GameType.SCHELLEN, GameType.HERZ, GameType.GRUEN, GameType.EICHEL,
                         GameType.GRAND, GameType.NULL}


# --- Ouvert ---------------------------------------------------------------------------


@pytest.mark.parametrize("rules", [ISKO, LOTHAR], ids=["isko", "lothar"])
def test_suit_and_grand_ouvert_need_hand(rules) -> None:
    s = act(declarer_at_18(rules, "pickup"), "discard D8 D7")
    assert not [d for d in s.legal_actions() if d.ouvert and d.game is not GameType.NULL]
    with pytest.raises(IllegalActionError, match="Ouvert in a suit game or Grand needs Hand"):
        act(s, "declare grand ouvert")
    with refused("skat.ouvert_needs_hand", IllegalActionError):
        s.apply(Declare(GameType.HERZ, ouvert=True))
    h = declarer_at_18(rules, "hand")
    ouverts = [d for d in h.legal_actions() if d.ouvert and d.game is not GameType.NULL]
    assert {d.game for d in ouverts} == {GameType.SCHELLEN, GameType.HERZ, GameType.GRUEN,
                                         GameType.EICHEL, GameType.GRAND}


@pytest.mark.parametrize("rules", [ISKO, LOTHAR], ids=["isko", "lothar"])
def test_null_ouvert_with_or_without_pickup(rules) -> None:
    s = act(declarer_at_18(rules, "pickup"), "discard D8 D7")
    assert "declare null ouvert" in labels(s) and "declare null" in labels(s)
    assert act(s, "declare null ouvert").contract == Declare(GameType.NULL, ouvert=True)
    h = declarer_at_18(rules, "hand")
    assert "declare null hand ouvert" in labels(h) and "declare null hand" in labels(h)


def test_ouvert_hand_is_shown_from_before_the_first_lead() -> None:
    s = declarer_at_18(LOTHAR, "hand")
    assert s.view(1).ouvert_hand == 0
    s = act(s, "declare grand hand ouvert")
    assert s.phase is Phase.PLAY and s.trick == () and not s.tricks
    for seat in (1, 2):
        v = s.view(seat)
        assert v.ouvert_hand == VORHAND
        assert v.known_cards() & VORHAND == VORHAND
    s = play(s, "CJ")
    assert s.view(2).ouvert_hand == VORHAND & ~parse_cards("CJ")


def test_lothar_ouvert_is_one_more_level_and_no_announcement() -> None:
    s = act(declarer_at_18(LOTHAR, "hand"), "declare grand hand ouvert")
    assert s.contract == Declare(GameType.GRAND, hand=True, ouvert=True)
    assert not s.contract.schneider and not s.contract.schwarz


# --- announcements --------------------------------------------------------------------


def test_lothar_has_no_announcements() -> None:
    s = declarer_at_18(LOTHAR, "hand")
    assert not [d for d in s.legal_actions() if d.schneider or d.schwarz]
    with refused("skat.no_announcements", IllegalActionError) as e:
        act(s, "declare grand hand schneider")
    assert str(e.value) == "Schneider and Schwarz are not announced at this table"
    assert e.value.text("de") == "An diesem Tisch werden Schneider und Schwarz nicht angesagt"
    with refused("skat.no_announcements", IllegalActionError):
        act(s, "declare eichel hand schneider schwarz")


def test_isko_announcements_only_with_hand() -> None:
    s = act(declarer_at_18(ISKO, "pickup"), "discard D8 D7")
    assert not [d for d in s.legal_actions() if d.schneider or d.schwarz]
    with refused("skat.announce_needs_hand", IllegalActionError):
        s.apply(Declare(GameType.GRAND, schneider=True))
    h = declarer_at_18(ISKO, "hand")
    legal = h.legal_actions()
    for game in (GameType.SCHELLEN, GameType.HERZ, GameType.GRUEN, GameType.EICHEL,
                 GameType.GRAND):
        assert Declare(game, hand=True, schneider=True) in legal
        assert Declare(game, hand=True, schneider=True, schwarz=True) in legal
    assert act(h, "declare grand hand schneider").contract.schneider


def test_isko_schwarz_announced_includes_schneider() -> None:
    h = declarer_at_18(ISKO, "hand")
    assert Declare(GameType.GRAND, hand=True, schwarz=True) not in h.legal_actions()
    with refused("skat.schwarz_includes_schneider", IllegalActionError):
        h.apply(Declare(GameType.GRAND, hand=True, schwarz=True))
    # the text form fills the Schneider in
    c = act(h, "declare grand hand schwarz").contract
    assert c.schneider and c.schwarz


def test_null_has_no_announcements() -> None:
    h = declarer_at_18(ISKO, "hand")
    with refused("skat.null_no_announcements", IllegalActionError):
        h.apply(Declare(GameType.NULL, hand=True, schneider=True))


def test_isko_ouvert_implies_schwarz_announced() -> None:
    h = declarer_at_18(ISKO, "hand")
    ouverts = [d for d in h.legal_actions() if d.ouvert and d.game is GameType.GRAND]
    assert ouverts == [Declare(GameType.GRAND, True, True, True, True)]
    with refused("skat.ouvert_implies_schwarz", IllegalActionError):
        h.apply(Declare(GameType.GRAND, hand=True, ouvert=True))
    c = act(h, "declare grand hand ouvert").contract
    assert c.ouvert and c.schneider and c.schwarz


# The declarer wins nine tricks and loses the last (Schellen-Sieben) to the Schellen-Ass.
OUVERT_DEAL = (
    "CJ SJ HJ DJ CA CT CK CQ C9 D7",
    "C8 C7 SA ST SK SQ S9 S8 S7 HA",
    "HT HK HQ H9 H8 H7 DA DT DK DQ",
    "D9 D8",
)
OUVERT_PLAY = (
    "CJ S7 H7  SJ S8 H8  HJ S9 H9  DJ SQ HQ  CA C7 HK "
    "CT C8 HT  CK SK DQ  CQ ST DK  C9 SA DT  D7 HA DA"
)


def test_isko_ouvert_needs_every_trick() -> None:
    s = act(deal(ISKO, *OUVERT_DEAL), "pass", "pass", "18", "hand",
            "declare grand hand ouvert")
    o = play(s, OUVERT_PLAY).outcome()
    assert (o.declarer_points, o.defender_points) == (98, 22)
    assert (o.declarer_tricks, o.defender_tricks) == (9, 1)
    assert o.schneider_announced and o.schwarz_announced
    # lost: the defenders took a trick; mit 4, game, Hand, Schneider, Schneider announced,
    # Schwarz, Schwarz announced, Ouvert = 11
    assert not o.won and o.multiplier == 11 and o.value == 264
    assert o.scores == (-528, 0, 0)


def test_lothar_ouvert_is_won_with_61() -> None:
    s = act(deal(LOTHAR, *OUVERT_DEAL), "pass", "pass", "18", "hand",
            "declare grand hand ouvert")
    o = play(s, OUVERT_PLAY).outcome()
    assert not o.schwarz_announced
    # won: mit 4, game, Hand, Schneider (22 <= 30), Ouvert = 8
    assert o.won and o.schneider and not o.schwarz
    assert o.multiplier == 8 and o.value == 192
    assert o.scores == (192, 0, 0)


@pytest.mark.parametrize(("rules", "mult"), [(ISKO, 11), (LOTHAR, 9)], ids=["isko", "lothar"])
def test_ouvert_schwarz_won(rules, mult) -> None:
    # Vorhand holds four Unter and six clubs; the Kreuz-Sieben must follow: all ten tricks
    s = deal(rules, "CJ SJ HJ DJ CA CT CK CQ C9 C8", "C7 SA ST SK SQ S9 S8 S7 HA HT",
             "HK HQ H9 H8 H7 DA DT DK DQ D9", "D8 D7")
    s = act(s, "pass", "pass", "18", "hand", "declare grand hand ouvert")
    o = play_out(s).outcome()
    assert o.won and o.schwarz and o.declarer_tricks == 10
    assert o.multiplier == mult and o.scores == (24 * mult, 0, 0)


# --- Null overbid ---------------------------------------------------------------------

NULL_DEAL = (
    "CT CJ CQ CK CA ST SJ SQ SK SA",
    "C7 C8 C9 S7 S8 S9 H7 H8 H9 D7",
    "HT HJ HQ HK HA DT DJ DQ DK DA",
    "D8 D9",
)


@pytest.mark.parametrize(
    ("bid", "take", "declaration", "level"),
    [
        (24, "pickup", "declare null", 35),
        (36, "hand", "declare null hand", 46),
        (48, "pickup", "declare null ouvert", 59),
        (59, "pickup", "declare null", 59),
    ],
)
def test_lothar_null_overbid_is_lost_at_the_next_level(bid, take, declaration, level) -> None:
    s = act(bid_up(deal(LOTHAR, *NULL_DEAL), bid), take)
    if take == "pickup":
        s = act(s, "discard D8 D9")
    s = act(s, declaration)
    assert s.is_over and s.end_reason == "null_overbid" and s.tricks == []
    o = s.outcome()
    assert o.game is GameType.NULL and o.overbid and not o.won
    assert o.value == level and o.scores == (0, -2 * level, 0)


def test_lothar_null_reaching_the_bid_is_played() -> None:
    s = act(bid_up(deal(LOTHAR, *NULL_DEAL), 35), "hand", "declare null hand")
    assert s.phase is Phase.PLAY
    o = play_out(s).outcome()
    assert o.won and not o.overbid and o.scores == (0, 35, 0)


def test_isko_null_below_the_bid_is_refused() -> None:
    s = act(bid_up(deal(ISKO, *NULL_DEAL), 36), "hand")
    assert [str(d) for d in s.legal_actions() if d.game is GameType.NULL] == [
        "declare null hand ouvert"]
    with refused("skat.null_refused", IllegalActionError, value=35, bid=36,
                 game=Msg("skat.null_hand", {"game": GameName("null")})) as e:
        act(s, "declare null hand")
    assert str(e.value) == "Null Hand (35) is refused: the bid is 36"
    assert e.value.text("de") == "Null Hand (35) ist nicht erlaubt: gereizt wurde bis 36"
    s = act(bid_up(deal(ISKO, *NULL_DEAL), 60), "hand")
    assert not [d for d in s.legal_actions() if d.game is GameType.NULL]
    with refused("skat.null_refused", IllegalActionError, value=59, bid=60) as e:
        act(s, "declare null hand ouvert")
    assert str(e.value) == "Null Ouvert Hand (59) is refused: the bid is 60"


def test_lothar_null_above_59_is_refused() -> None:
    s = act(bid_up(deal(LOTHAR, *NULL_DEAL), 60), "pickup", "discard D8 D9")
    assert not [d for d in s.legal_actions() if d.game is GameType.NULL]
    with refused("skat.null_above_59", IllegalActionError, bid=60) as e:
        act(s, "declare null")
    assert str(e.value) == "Null is refused above 59: the bid is 60"
    assert e.value.text("de") == "Null gibt es nicht über 59: gereizt wurde bis 60"
    # suit games stay possible (and are settled as overbid if they fall short)
    assert act(s, "declare grand").phase is Phase.PLAY


def test_a_hand_game_counts_the_hands_own_matadors_and_the_least_any_skat_leaves() -> None:
    """In a Hand game the Skat is unknown: the value is the least any Skat leaves (here a
    Skat with the Grün-Unter makes "ohne 2" an "ohne 1": 30, not 40), and the count named
    is the hand's own (issue 38: "mit 1" for a hand without the Eichel-Unter misled)."""
    from stich.skat.declaring import declare_values
    from stich.skat.rules import SkatRules as Rules

    hand = parse_cards("HJ DJ HA HT HK HQ H9 H8 SA ST")  # neither CJ nor SJ
    unseen = ((1 << 32) - 1) & ~hand
    got = declare_values(Rules(), (Declare(GameType.HERZ, hand=True),), bid=18, owned=hand,
                         unseen=unseen)["declare herz hand"]
    assert (got.value, got.own, got.depends, got.loss) == (30, -2, True, None)
    # a picked-up Skat is known: one value, no "at least"
    known = declare_values(Rules(), (Declare(GameType.HERZ),), bid=18, owned=hand)
    assert (known["declare herz"].value, known["declare herz"].depends) == (30, False)
