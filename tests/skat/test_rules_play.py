"""RULES.md, Skat / Table and dealing, Card play; errors and immutability."""

from __future__ import annotations

import contextlib
import itertools
import random

import pytest

from stich.cards import CARDS, Card, parse_cards
from stich.messages import Cards, Msg, Seat, SuitName
from stich.skat import GameType, IllegalActionError, Phase, SkatState
from stich.skat.lookup import TABLES
from stich.skat.scoring import trump_order
from stich.skat.state import STATE_FIELDS, deal_order

from ..refusals import refused
from .helpers import ALL_CARDS, ISKO, LOTHAR, act, deal, play, play_out


def idx(text: str) -> tuple[int, ...]:
    return tuple(Card.parse(w).index for w in text.split())


def winner(game: GameType, trick: str) -> int:
    """Seat (0, 1, 2) of the card that wins the trick, in play order."""
    return TABLES[game].winner(idx(trick))


SUITS = "CSHD"
SIDE_ORDER = ("A", "T", "K", "Q", "9", "8", "7")
NULL_ORDER = ("A", "K", "Q", "J", "T", "9", "8", "7")


# --- trump orders ---------------------------------------------------------------------


@pytest.mark.parametrize(("game", "suit"), [(GameType.EICHEL, "C"), (GameType.GRUEN, "S"),
                                            (GameType.HERZ, "H"), (GameType.SCHELLEN, "D")])
def test_suit_game_trump_order(game, suit) -> None:
    trumps = ["CJ", "SJ", "HJ", "DJ"] + [suit + r for r in SIDE_ORDER]
    assert tuple(CARDS[i].code for i in trump_order(game)) == tuple(trumps)
    side = next(s for s in SUITS if s != suit)
    for i, high in enumerate(trumps):
        for low in trumps[i + 1:]:
            assert winner(game, f"{low} {high} {side}7") == 1
            assert winner(game, f"{high} {low} {side}7") == 0
        # even the lowest trump beats the Ass of a side suit that is led
        assert winner(game, f"{side}A {high} {side}T") == 1
    assert TABLES[game].trump == parse_cards(" ".join(trumps))


@pytest.mark.parametrize("game", [GameType.GRAND, GameType.RAMSCH])
def test_grand_and_ramsch_trumps_are_the_four_unter(game) -> None:
    assert tuple(CARDS[i].code for i in trump_order(game)) == ("CJ", "SJ", "HJ", "DJ")
    assert TABLES[game].trump == parse_cards("CJ SJ HJ DJ")
    assert winner(game, "DJ SJ CJ") == 2
    assert winner(game, "HJ DJ CA") == 0
    assert winner(game, "CA DJ CT") == 1
    for suit in SUITS:  # every suit is a side suit: A 10 K O 9 8 7
        other = next(s for s in SUITS if s != suit) + "A"
        cards = [suit + r for r in SIDE_ORDER]
        for i, high in enumerate(cards):
            for low in cards[i + 1:]:
                assert winner(game, f"{low} {high} {other}") == 1
                assert winner(game, f"{high} {other} {low}") == 0
                assert winner(game, f"{high} {low} DJ") == 2


@pytest.mark.parametrize("game", [GameType.EICHEL, GameType.GRAND, GameType.NULL])
def test_a_card_neither_trump_nor_led_suit_never_wins(game) -> None:
    assert winner(game, "S7 HA DA") == 0
    assert winner(game, "H7 SA H8") == 2


def test_null_has_no_trumps_and_its_own_order() -> None:
    t = TABLES[GameType.NULL]
    assert t.trump == 0
    for suit in SUITS:
        other = next(s for s in SUITS if s != suit) + "A"
        cards = [suit + r for r in NULL_ORDER]
        for i, high in enumerate(cards):
            for low in cards[i + 1:]:
                assert winner(GameType.NULL, f"{low} {high} {other}") == 1
                assert winner(GameType.NULL, f"{high} {other} {low}") == 0
        # the 10 ranks between Unter and 9; the Unter between Ober and 10
        assert winner(GameType.NULL, f"{suit}9 {suit}T {suit}8") == 1
        assert winner(GameType.NULL, f"{suit}T {suit}J {suit}9") == 1
        assert winner(GameType.NULL, f"{suit}J {suit}Q {suit}T") == 1
    # the Unter belongs to its printed suit: a Unter of another suit cannot win
    assert winner(GameType.NULL, "H7 CJ DJ") == 0
    assert t.follow[Card.parse("HJ").index] == parse_cards("H7 H8 H9 HT HJ HQ HK HA")


def test_unter_never_belongs_to_its_printed_suit_outside_null() -> None:
    for game in (GameType.EICHEL, GameType.GRUEN, GameType.SCHELLEN, GameType.GRAND,
                 GameType.RAMSCH):
        herz = TABLES[game].follow[Card.parse("HA").index]
        assert herz == parse_cards("H7 H8 H9 HT HQ HK HA")
    # in a Herz game Herz is trump: the Herz-Unter follows a Herz lead as a trump
    assert TABLES[GameType.HERZ].follow[Card.parse("HA").index] == parse_cards(
        "CJ SJ HJ DJ HA HT HK HQ H9 H8 H7")


# --- follow suit in play --------------------------------------------------------------

# Mittelhand holds the Herz-Unter and one Herz (H9); Hinterhand holds the Herz-Unter's
# companions in Grand: DJ, and no Herz at all.
FOLLOW_DEAL = (
    "HA HT CA CT CK SA ST SK CJ C9",
    "HJ H9 C8 C7 SQ S9 S8 S7 DA DT",
    "DJ SJ DK DQ D9 D8 D7 CQ HK HQ",
    "H8 H7",
)


def start(rules, game: str):
    return act(deal(rules, *FOLLOW_DEAL), "pass", "pass", "18", "hand",
               f"declare {game} hand")


@pytest.mark.parametrize("game", ["grand", "eichel", "gruen", "schellen"])
def test_herz_unter_may_not_follow_herz(game) -> None:
    s = play(start(LOTHAR, game), "HA")
    assert [str(c) for c in s.legal_actions()] == ["H9"]
    with pytest.raises(IllegalActionError) as err:
        play(s, "HJ")
    assert str(err.value) == "Mittelhand must follow Herz: Mittelhand holds H9"
    assert err.value.code == "skat.must_follow"
    assert err.value.text("de", you=1) == "Du musst Herz bedienen: du hast H9"


def test_void_in_led_suit_may_play_anything() -> None:
    s = play(start(LOTHAR, "grand"), "HA H9")
    # Hinterhand still holds HK HQ: must follow
    assert {str(c) for c in s.legal_actions()} == {"HK", "HQ"}
    s = play(s, "HQ")
    # next trick: Vorhand won and leads Herz again; Mittelhand, void in Herz, holds HJ
    assert s.to_move == 0
    s = play(s, "HT")
    assert s.legal_cards() == s.hands[1]  # the Herz-Unter is no Herz: anything goes
    assert Card.parse("HJ") in s.legal_actions()


def test_trump_led_must_be_followed_with_trump() -> None:
    s = play(start(LOTHAR, "grand"), "CJ")
    # Mittelhand's only trump is the Herz-Unter
    assert [str(c) for c in s.legal_actions()] == ["HJ"]
    with refused("skat.must_follow", IllegalActionError, seat=Seat(1),
                 what=Msg("skat.trump", {}), cards=Cards(parse_cards("HJ"))) as e:
        play(s, "H9")
    assert str(e.value) == "Mittelhand must follow trump: Mittelhand holds HJ"
    assert e.value.text("de") == "Mittelhand muss Trumpf bedienen: Mittelhand hat HJ"
    assert e.value.text("de", you=1) == "Du musst Trumpf bedienen: du hast HJ"
    s = play(s, "HJ")
    assert {str(c) for c in s.legal_actions()} == {"DJ", "SJ"}


def test_herz_led_in_a_herz_game_is_trump_led() -> None:
    s = play(start(LOTHAR, "herz"), "HA")
    assert {str(c) for c in s.legal_actions()} == {"HJ", "H9"}
    with pytest.raises(IllegalActionError, match="must follow trump"):
        play(s, "DA")


def test_null_unter_follows_its_printed_suit() -> None:
    s = act(deal(LOTHAR, *FOLLOW_DEAL), "pass", "pass", "18", "hand", "declare null hand")
    s = play(s, "HA")
    assert {str(c) for c in s.legal_actions()} == {"HJ", "H9"}
    s = play(s, "H9")
    with refused("skat.must_follow", IllegalActionError, what=SuitName(1)):
        play(s, "DJ")


# --- who leads ------------------------------------------------------------------------


@pytest.mark.parametrize("bidding", [("pass", "pass", "18"), ("18", "pass", "pass"),
                                     ("pass", "18", "pass")])
def test_vorhand_leads_the_first_trick_whoever_declares(bidding) -> None:
    s = act(deal(LOTHAR, *FOLLOW_DEAL), *bidding, "hand", "declare grand hand")
    assert s.phase is Phase.PLAY and s.to_move == 0 and s.leader == 0


def test_trick_winner_leads_the_next_trick() -> None:
    rng = random.Random(3)
    s = start(LOTHAR, "grand")
    while not s.is_over:
        s = s.apply(rng.choice(s.legal_actions()))
        if not s.trick and s.tricks and not s.is_over:
            won_by = s.tricks[-1][2]
            assert s.to_move == won_by == s.leader
    # and each trick's leader is the previous trick's winner
    tricks = s.tricks
    assert tricks[0][0] == 0
    for prev, nxt in itertools.pairwise(tricks):
        assert nxt[0] == prev[2]


def test_play_goes_round_the_table() -> None:
    s = start(LOTHAR, "grand")
    order = []
    for _ in range(3):
        order.append(s.to_move)
        s = s.apply(s.legal_actions()[0])
    assert order == [0, 1, 2]


# --- Null ends early ------------------------------------------------------------------

NULL_HIGH = (
    "CT CJ CQ CK CA ST SJ SQ SK SA",  # Vorhand: high cards
    "C7 C8 C9 S7 S8 S9 H7 H8 H9 D7",
    "HT HJ HQ HK HA DT DJ DQ DK DA",
    "D8 D9",
)


def test_null_ends_when_the_declarer_takes_a_trick() -> None:
    s = act(deal(LOTHAR, *NULL_HIGH), "pass", "pass", "18", "hand", "declare null hand")
    s = play(s, "CA C7 HA")
    assert s.is_over and s.end_reason == "null_lost"
    assert len(s.tricks) == 1 and s.to_move == -1
    assert list(s.legal_actions()) == []
    o = s.outcome()
    assert not o.won and o.declarer_tricks == 1 and o.value == 35
    assert o.scores == (-70, 0, 0)
    with refused("game.over", IllegalActionError) as e:
        play(s, "CK")
    assert e.value.text("de") == "Das Spiel ist vorbei"


@pytest.mark.parametrize("game", ["grand", "eichel"])
def test_other_games_are_played_to_the_last_trick(game) -> None:
    s = play_out(start(LOTHAR, game), random.Random(5))
    assert len(s.tricks) == 10 and s.end_reason == "played"
    assert s.hands == (0, 0, 0)


# --- dealing --------------------------------------------------------------------------


def test_deal_order_is_3_skat_4_3() -> None:
    h0, h1, h2, sk = deal_order(list(range(32)))
    assert h0 == sum(1 << i for i in (0, 1, 2, 11, 12, 13, 14, 23, 24, 25))
    assert h1 == sum(1 << i for i in (3, 4, 5, 15, 16, 17, 18, 26, 27, 28))
    assert h2 == sum(1 << i for i in (6, 7, 8, 19, 20, 21, 22, 29, 30, 31))
    assert sk == (1 << 9) | (1 << 10)


def test_deal_order_follows_the_deck_order() -> None:
    order = list(range(32))
    random.Random(42).shuffle(order)
    h0, h1, h2, sk = deal_order(order)
    assert h0 == sum(1 << order[i] for i in (0, 1, 2, 11, 12, 13, 14, 23, 24, 25))
    assert h1 == sum(1 << order[i] for i in (3, 4, 5, 15, 16, 17, 18, 26, 27, 28))
    assert h2 == sum(1 << order[i] for i in (6, 7, 8, 19, 20, 21, 22, 29, 30, 31))
    assert sk == (1 << order[9]) | (1 << order[10])


@pytest.mark.parametrize("seed", [0, 1, 17, 2**40 + 3])
def test_same_seed_same_deal(seed) -> None:
    a = SkatState.new(LOTHAR, seed=seed)
    b = SkatState.new(ISKO, seed=seed)
    c = SkatState.new(LOTHAR, rng=random.Random(seed))
    assert a.deal == b.deal == c.deal
    (h0, h1, h2), sk = a.deal
    assert [h.bit_count() for h in (h0, h1, h2, sk)] == [10, 10, 10, 2]
    assert h0 | h1 | h2 | sk == ALL_CARDS
    assert a.hands == (h0, h1, h2) and a.skat == sk


def test_different_seeds_give_different_deals() -> None:
    deals = {SkatState.new(seed=s).deal for s in range(50)}
    assert len(deals) == 50


def test_given_deal_is_checked() -> None:
    hands = [parse_cards(h) for h in FOLLOW_DEAL[:3]]
    with pytest.raises(ValueError):
        SkatState.new(LOTHAR, hands=hands, skat=parse_cards("H8"))
    with pytest.raises(ValueError):
        SkatState.new(LOTHAR, hands=[hands[0], hands[0], hands[2]], skat=parse_cards("H8 H7"))


# --- errors and immutability ----------------------------------------------------------


def test_illegal_actions_raise_illegal_action_error_with_a_reason() -> None:
    s = start(LOTHAR, "grand")
    cases = [
        (s, "HJ", "skat.not_held", "Vorhand does not hold HJ"),
        (s, "18", "game.play_a_card", "it is time to play a card, not 18"),
        (play(s, "HA"), "HJ", "skat.must_follow", "Mittelhand must follow Herz"),
        (deal(LOTHAR, *FOLLOW_DEAL), "22", "skat.next_bid", "next bid must be 18"),
        (deal(LOTHAR, *FOLLOW_DEAL), "hand", "skat.say_or_pass", "say a value or pass"),
    ]
    for state, text, code, reason in cases:
        with refused(code, IllegalActionError) as err:
            act(state, text)
        assert isinstance(err.value, ValueError)
        assert reason in str(err.value)
    with refused("skat.not_held", IllegalActionError, seat=Seat(0),
                 cards=Cards(parse_cards("HJ"))) as err:
        act(s, "HJ")
    assert err.value.text("de") == "Vorhand hat HJ nicht"
    assert err.value.text("de", you=0) == "Du hast HJ nicht"
    assert err.value.text("en", you=0) == "you do not hold HJ"
    with refused("game.unreadable_action", IllegalActionError, text="declare bierlachs",
                 reason=Msg("skat.unknown_game", {"text": "bierlachs"})) as err:
        s.parse_action("declare bierlachs")
    assert str(err.value).startswith("cannot read action 'declare bierlachs': unknown game")
    assert err.value.text("de").startswith("„declare bierlachs“ nicht verstanden: "
                                           "Unbekanntes Spiel „bierlachs“")
    with refused("game.empty_action", IllegalActionError):
        s.parse_action("  ")
    with refused("game.not_over", IllegalActionError):
        s.outcome()


def _snapshot(state: SkatState) -> dict:
    return {name: getattr(state, name) for name in STATE_FIELDS}


def test_apply_never_changes_the_old_state() -> None:
    rng = random.Random(11)
    for rules in (LOTHAR, ISKO):
        for seed in range(5):
            s = SkatState.new(rules, seed=seed)
            while not s.is_over:
                before = _snapshot(s)
                legal = s.legal_actions()
                nxt = s.apply(rng.choice(legal))
                assert nxt is not s
                with contextlib.suppress(IllegalActionError):
                    s.apply(CARDS[rng.randrange(32)])
                assert _snapshot(s) == before
                assert tuple(s.legal_actions()) == tuple(legal)
                s = nxt
