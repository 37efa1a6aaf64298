"""The house rules' moments in the engine: when Kontra, Re and Schieben may be said, what
each seat sees of them, the text forms, and what leaves the server.  The scores under
every rule are checked against an independent oracle in test_house_oracle.py."""

from __future__ import annotations

import pickle
import random

import pytest

from stich.core import IllegalActionError
from stich.skat import SkatRules, SkatState
from stich.skat.actions import KONTRA, PASS, PICKUP, RE, SCHIEBEN, parse_action
from stich.skat.iss_write import export_iss
from tests.skat.helpers import act, deal

KONTRA_RULES = SkatRules.parse("skat(preset=lothar,kontra_re=yes)")
BID18 = SkatRules.parse("skat(preset=lothar,kontra_re=bid18)")
SCHIEBE = SkatRules.parse("skat(preset=lothar,schieberamsch=yes)")

HANDS = ("CJ SJ HJ DJ CA CT SA ST HA HT",  # Vorhand: a strong Grand
         "CK CQ C9 C8 C7 SK SQ S9 S8 S7",
         "HK HQ H9 H8 H7 DA DT DK DQ D9")
SKAT = "D8 D7"


def grand(rules: SkatRules) -> SkatState:
    """Mittelhand says 18, Vorhand holds, both pass on: Vorhand plays Grand Hand."""
    s = deal(rules, *HANDS, SKAT)
    return act(s, "18", "hold", "pass", "pass", "hand", "declare grand hand")


def test_new_actions_round_trip() -> None:
    for action in (KONTRA, RE, SCHIEBEN):
        assert parse_action(str(action)) is action
        assert pickle.loads(pickle.dumps(action)) is action
    assert parse_action("Kontra") is KONTRA and parse_action("push") is SCHIEBEN


def test_kontra_window_is_a_defenders_first_card() -> None:
    s = grand(KONTRA_RULES)
    assert s.to_move == 0 and KONTRA not in s.legal_actions()  # the declarer leads
    s = act(s, "CJ")
    assert s.legal_actions()[-1] is KONTRA  # Mittelhand, before his first card
    s = act(s, "kontra")
    assert s.to_move == 0 and list(s.legal_actions()) == [RE, PASS]
    with pytest.raises(IllegalActionError) as e:
        s.apply(s.parse_action("SJ"))
    assert e.value.code == "skat.re_or_pass"
    s = act(s, "re")
    assert s.to_move == 1 and KONTRA not in s.legal_actions()
    with pytest.raises(IllegalActionError) as e:
        s.apply(KONTRA)
    assert e.value.code == "skat.kontra_once"
    v = s.view(2)
    assert (v.kontra, v.re) == (1, True)


def test_kontra_after_the_first_card_is_refused() -> None:
    s = act(grand(KONTRA_RULES), "CJ", "CK")
    assert KONTRA in s.legal_actions()  # Hinterhand has not played yet
    s = act(s, "HK")
    with pytest.raises(IllegalActionError) as e:
        s.apply(KONTRA)
    assert e.value.code in ("skat.kontra_defenders", "skat.kontra_before_first_card")
    assert all(a is not KONTRA for a in s.legal_actions())


def test_bid18_only_for_a_defender_who_bid() -> None:
    s = act(grand(BID18), "CJ")
    assert KONTRA in s.legal_actions()  # Mittelhand said 18
    s = act(s, "CK")
    assert KONTRA not in s.legal_actions()  # Hinterhand only passed
    with pytest.raises(IllegalActionError) as e:
        s.apply(KONTRA)
    assert e.value.code == "skat.kontra_bid18"


def test_without_the_rule_kontra_is_refused() -> None:
    s = act(grand(SkatRules()), "CJ")
    with pytest.raises(IllegalActionError) as e:
        s.apply(KONTRA)
    assert e.value.code == "skat.no_kontra_here"


def test_kontra_and_re_double_the_score_not_the_value() -> None:
    plain = grand(SkatRules())
    doubled = act(grand(KONTRA_RULES), "CJ", "kontra", "re")
    o_plain = _finish(plain)
    o = _finish(doubled)
    assert o.value == o_plain.value and o.kontra and o.re
    assert o.scores[0] == 4 * o_plain.scores[0]
    assert o.to_dict()["kontra"] is True and "kontra" not in o_plain.to_dict()


def _finish(state: SkatState):  # type: ignore[no-untyped-def]
    """Play the same cards in both games: each seat its lowest legal card."""
    while not state.is_over:
        cards = [a for a in state.legal_actions() if a is not KONTRA]
        state = state.apply(cards[0])
    return state.outcome()


def all_pass(rules: SkatRules) -> SkatState:
    s = deal(rules, *HANDS, SKAT)
    return act(s, "pass", "pass", "pass")


def test_schieberamsch_turns_and_privacy() -> None:
    s = all_pass(SCHIEBE)
    assert s.phase_name == "SKAT" and s.to_move == 0
    assert list(s.legal_actions()) == [PICKUP, SCHIEBEN]
    s = act(s, "pickup")
    assert s.phase_name == "DISCARD" and all("J" not in str(a) for a in s.legal_actions())
    with pytest.raises(IllegalActionError) as e:
        s.apply(s.parse_action("discard CJ D8"))
    assert e.value.code == "skat.no_unter_pushed"
    s = act(s, "discard CA CT")
    assert s.view(0).skat_seen and s.view(0).discarded
    assert not s.view(1).skat_seen and not s.view(1).discarded  # he did not see it
    s = act(s, "schieben", "schieben")
    assert s.phase_name == "PLAY" and s.to_move == 0
    assert s.view(2).pushes == 2 and not s.view(2).skat_seen


def test_schieberamsch_pushed_by_all_three_is_eightfold() -> None:
    plain = all_pass(SkatRules())
    pushed = act(all_pass(SCHIEBE), "schieben", "schieben", "schieben")
    a, b = _finish(plain), _finish(pushed)
    assert b.pushes == 3 and b.loser == a.loser
    assert b.scores == tuple(8 * x for x in a.scores)


def test_house_rules_are_not_exported_to_the_iss() -> None:
    rules = SkatRules.parse("skat(preset=isko,kontra_re=yes)")
    state = _finish_state(grand(rules))
    with pytest.raises(ValueError) as e:
        export_iss(state, ["a", "b", "c"])
    assert "not_isko" in getattr(e.value, "code", "")


def _finish_state(state: SkatState) -> SkatState:
    while not state.is_over:
        state = state.apply(next(a for a in state.legal_actions() if a is not KONTRA))
    return state


def test_presets_never_offer_a_house_action() -> None:
    rng = random.Random(5)
    for rules in (SkatRules(), SkatRules.preset("isko")):
        for seed in range(300):
            s = SkatState.new(rules, seed=seed)
            while not s.is_over:
                legal = s.legal_actions()
                assert not any(a in (KONTRA, RE, SCHIEBEN) for a in legal)
                s = s.apply(rng.choice(legal))


def test_the_analysis_skips_kontra_and_re() -> None:
    from stich.skat.analysis import analyze

    plain = _finish_state(act(grand(SkatRules()), "CJ"))
    doubled = _finish_state(act(grand(KONTRA_RULES), "CJ", "kontra", "re"))
    a, b = analyze(plain), analyze(doubled)
    assert len(b.moves) == len(a.moves) == 30
    assert [m.card for m in b.moves] == [m.card for m in a.moves]
    assert (b.start_value, b.final_value, b.won) == (a.start_value, a.final_value, a.won)


KLOPF = SkatRules.parse("skat(preset=lothar,klopfen=yes)")
ROUND = SkatRules.parse("skat(preset=lothar,bock=grand_hand,bock_ramsch=yes,klopfen=yes)")


def test_klopfen_before_ones_first_card_doubles_the_ramsch() -> None:
    from stich.skat.actions import KLOPFEN

    s = all_pass(KLOPF)
    assert s.legal_actions()[-1] is KLOPFEN
    s = act(s, "klopfen")
    assert s.to_move == 0 and KLOPFEN not in s.legal_actions()  # once, then a card
    plain = _finish(all_pass(SkatRules()))
    knocked = _finish(act(all_pass(KLOPF), "klopfen", "CJ", "klopfen"))
    assert knocked.knocks == 2 and knocked.to_dict()["knocks"] == 2
    assert knocked.scores == tuple(4 * x for x in plain.scores)
    assert act(all_pass(KLOPF), "CJ", "klopfen").view(0).knocks == 1  # public: Vorhand sees
    assert act(all_pass(KLOPF), "klopfen").view(2).knocks == 1  # Hinterhand too


def test_a_ramsch_round_game_offers_grand_hand_in_turn() -> None:
    from stich.record import replay, skat_record
    from stich.skat.actions import GRAND_HAND

    s = SkatState.new(ROUND, hands=deal(ROUND, *HANDS, SKAT).deal[0],
                      skat=deal(ROUND, *HANDS, SKAT).deal[1], ramsch_round=True)
    assert s.ramsch_round and s.to_move == 0 and list(s.legal_actions()) == [GRAND_HAND, PASS]
    with pytest.raises(IllegalActionError) as e:
        s.apply(s.parse_action("18"))
    assert e.value.code == "skat.grand_hand_or_pass"
    g = act(s, "pass", "declare grand hand")
    assert g.phase_name == "PLAY" and g.declarer == 1 and g.bid_value == 0
    r = act(s, "pass", "pass", "pass")
    assert r.game is not None and r.game.value == "ramsch"
    for state in (g, r):
        done = _finish_state(state)
        record = skat_record(done, ["a", "b", "c"])
        assert record["start"] == "ramsch_round"
        assert replay(record).outcome() == done.outcome()


def test_claims_are_offered_apart_from_the_legal_actions() -> None:
    from stich.skat.actions import CLAIM, GIVEUP

    s = grand(SkatRules())
    assert s.claims() == (CLAIM, GIVEUP) and CLAIM not in s.legal_actions()
    s = act(s, "CJ")
    assert s.claims() == (GIVEUP,)  # a defender
    with pytest.raises(IllegalActionError) as e:
        s.apply(CLAIM)
    assert e.value.code == "skat.claim_declarer"
    s = act(s, "giveup")
    assert s.to_move == 1 and s.claims() == () and not s.is_over  # he still plays his card
    s = act(s, "CK", "giveup")  # the second defender: the declarer takes the rest
    assert s.is_over and s.end_reason == "gave_up"
    o = s.outcome()
    assert o.won and o.declarer_points == 120 and o.schwarz
    with pytest.raises(IllegalActionError) as e:
        all_pass(SkatRules()).apply(CLAIM)
    assert e.value.code == "skat.claim_in_ramsch"


def test_a_right_claim_ends_the_game_and_a_wrong_one_loses_it() -> None:
    # Vorhand holds all four Unter and the two top Kreuz and Pik: Grand Hand, all his
    right = act(grand(SkatRules()), "claim")
    assert right.end_reason == "claimed" and right.outcome().won
    assert right.outcome().declarer_tricks == 10
    # Vorhand plays Null Hand with four aces: a claim of no more tricks is wrong
    s = deal(SkatRules(), *HANDS, SKAT)
    s = act(s, "pass", "pass", "18", "hand", "declare null hand")
    wrong = act(s, "claim")
    assert wrong.end_reason == "claim_wrong" and not wrong.outcome().won


def test_the_declarer_gives_up() -> None:
    s = act(grand(SkatRules()), "CJ", "CK", "HK")
    gave = act(s, "giveup")
    o = gave.outcome()
    assert gave.end_reason == "gave_up" and not o.won and o.declarer_tricks == 1


SPITZE = SkatRules.parse("skat(preset=lothar,spitze=yes)")


def test_spitze_is_won_only_with_the_last_trick() -> None:
    from stich.skat.actions import CLAIM, Declare
    from stich.skat.rules import GameType

    # Hinterhand holds the Schellen-Unter (DJ is Vorhand's here): Vorhand, Grand, may not
    s = act(deal(SPITZE, *HANDS, SKAT), "18", "hold", "pass", "pass", "hand")
    assert Declare(GameType.GRAND, hand=True, spitze=True) not in s.legal_actions()  # 4 Unter
    # Hinterhand declares Herz Hand Spitze with the H7
    s = act(deal(SPITZE, *HANDS, SKAT), "pass", "18", "pass", "hand")
    spitze = Declare(GameType.HERZ, hand=True, spitze=True)
    assert spitze in s.legal_actions() and str(spitze) == "declare herz hand spitze"
    g = act(s, "declare herz hand spitze")
    assert g.contract == spitze
    g = act(g, "CJ")  # Vorhand leads
    while not g.is_over:
        assert CLAIM not in g.claims()  # a Spitze is won only by playing the last trick
        g = g.apply(g.legal_actions()[0])
    o = g.outcome()
    assert o.spitze and o.to_dict()["spitze"] is True
    plain = act(deal(SkatRules(), *HANDS, SKAT), "pass", "18", "pass", "hand",
                "declare herz hand", "CJ")
    while not plain.is_over:
        plain = plain.apply(plain.legal_actions()[0])
    assert o.multiplier == plain.outcome().multiplier + 1
    assert o.won == (plain.outcome().won and o.spitze_made)


def test_the_bids_follow_the_ladder_of_each_rule_set_in_one_process() -> None:
    """The bids are cached per rule set: Spitze's extra level must not leak into another
    rule set with the same announcements and jumps, in either order."""
    from stich.skat.rules import bidding_ladder

    for order in ((SkatRules.parse("skat(preset=lothar,bidding_jumps=yes)"),
                   SkatRules.parse("skat(preset=lothar,bidding_jumps=yes,spitze=yes)")),
                  (SkatRules.parse("skat(preset=isko,spitze=double)"),
                   SkatRules.preset("isko"))):
        for rules in order:
            bids = [a.value for a in SkatState.new(rules, seed=1).legal_actions()
                    if hasattr(a, "value")]
            assert max(bids) == bidding_ladder(rules)[-1], rules
