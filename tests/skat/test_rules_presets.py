"""RULES.md, Skat / Rule sets and the bidding ladder."""

from __future__ import annotations

import dataclasses
import itertools

import pytest

from stich.skat import SkatRules, SkatState, bidding_ladder

from .helpers import ISKO, LOTHAR

# The official ISkO Reizwerte.
ISKO_VALUES = (
    18, 20, 22, 23, 24, 27, 30, 33, 35, 36, 40, 44, 45, 46, 48, 50, 54, 55, 59, 60,
    63, 66, 70, 72, 77, 80, 81, 84, 88, 90, 96, 99, 100, 108, 110, 117, 120, 121, 126, 130,
    132, 135, 140, 143, 144, 150, 153, 154, 156, 160, 162, 165, 168, 170, 176, 180, 187,
    192, 198, 204, 216, 240, 264,
)
NOT_IN_LOTHAR = (153, 162, 170, 187, 198, 204, 240, 264)


def test_isko_preset_fields() -> None:
    assert ISKO.bidding_jumps is True
    assert ISKO.all_pass == "redeal"
    assert ISKO.announcements is True
    assert ISKO.null_overbid == "refused"
    assert ISKO.kontra_re == "no"
    assert ISKO.jungfrau is False
    assert not ISKO.house_rules


def test_lothar_preset_fields() -> None:
    assert LOTHAR.bidding_jumps is False
    assert LOTHAR.all_pass == "ramsch"
    assert LOTHAR.announcements is False
    assert LOTHAR.null_overbid == "next_level"
    assert LOTHAR.kontra_re == "no"
    assert LOTHAR.jungfrau is False
    assert not LOTHAR.house_rules


def test_lothar_differs_from_isko_in_exactly_four_fields() -> None:
    # the six deviations: four are fields that differ; Kontra/Re and Jungfrau are off
    # in both (ISkO as the ISS plays it has no Kontra/Re, and Jungfrau is a Ramsch rule)
    differing = {
        f.name for f in dataclasses.fields(SkatRules)
        if getattr(ISKO, f.name) != getattr(LOTHAR, f.name)
    }
    assert differing == {"bidding_jumps", "all_pass", "announcements", "null_overbid"}


def test_lothar_is_the_default() -> None:
    assert SkatRules() == LOTHAR
    assert SkatState.new(seed=1).rules == LOTHAR
    assert SkatRules.preset("lothar") is SkatRules.preset("lothar")


def test_unknown_preset_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown Skat preset"):
        SkatRules.preset("bierlachs")


HOUSE = (
    "skat(preset=lothar,kontra_re=yes)",
    "skat(preset=isko,kontra_re=bid18)",
    "skat(preset=lothar,jungfrau=yes,durchmarsch=no,ramsch_skat=loser,schieberamsch=yes)",
    "skat(preset=isko,bock=lost_60+grand_hand+kontra_won,bock_games=4,bock_overlap=stack)",
)


@pytest.mark.parametrize("text", HOUSE)
def test_house_rule_strings_are_canonical(text: str) -> None:
    rules = SkatRules.parse(text)
    assert str(rules) == text
    assert rules.house_rules
    assert rules.preset_name == text.split("preset=")[1].split(",")[0]


def test_bock_events_are_kept_in_one_order() -> None:
    rules = SkatRules.parse("skat(bock=kontra_won+lost_60)")
    assert rules.bock == "lost_60+kontra_won"
    assert rules.bock_events == {"lost_60", "kontra_won"}
    assert SkatRules.parse("skat(bock=no)") == LOTHAR


@pytest.mark.parametrize("rules", [ISKO, LOTHAR, dataclasses.replace(LOTHAR, all_pass="redeal")])
def test_rule_string_round_trips(rules: SkatRules) -> None:
    assert SkatRules.parse(str(rules)) == rules


def test_rules_are_immutable() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        LOTHAR.bidding_jumps = True  # type: ignore[misc]


# --- the ladder -----------------------------------------------------------------------


def test_isko_ladder_is_the_63_official_values() -> None:
    ladder = bidding_ladder(ISKO)
    assert len(ladder) == 63
    assert ladder == ISKO_VALUES
    assert ladder[0] == 18 and ladder[-1] == 264


def test_lothar_ladder_has_55_values_ending_at_216() -> None:
    ladder = bidding_ladder(LOTHAR)
    assert len(ladder) == 55
    assert ladder[-1] == 216
    assert ladder[:11] == (18, 20, 22, 23, 24, 27, 30, 33, 35, 36, 40)
    assert set(ISKO_VALUES) - set(ladder) == set(NOT_IN_LOTHAR)
    assert set(ladder) <= set(ISKO_VALUES)


def test_ladder_is_strictly_ascending() -> None:
    for rules in (ISKO, LOTHAR):
        ladder = bidding_ladder(rules)
        assert all(a < b for a, b in itertools.pairwise(ladder))


def test_ladder_is_derived_from_the_rules_not_from_the_preset_name() -> None:
    # Lothar's table with announcements reaches the ISkO maximum multipliers again
    assert bidding_ladder(dataclasses.replace(LOTHAR, announcements=True)) == ISKO_VALUES
    # and the ISkO without announcements stops at Grand x 9 = 216
    assert bidding_ladder(dataclasses.replace(ISKO, announcements=False))[-1] == 216


def _reachable_values(max_extra: int) -> set[int]:
    """Every game value: base x (matadors 1..max + 1 + extra levels), and the Null values."""
    values = {23, 35, 46, 59}
    for base, most in ((9, 11), (10, 11), (11, 11), (12, 11), (24, 4)):
        for mult in range(2, most + 1 + max_extra + 1):
            values.add(base * mult)
    return values


def test_every_ladder_value_is_some_game_value() -> None:
    # lothar: Hand, Schneider, Schwarz, Ouvert; isko also both announcements
    assert set(bidding_ladder(LOTHAR)) == _reachable_values(4)
    assert set(bidding_ladder(ISKO)) == _reachable_values(6)


def test_the_rule_string_is_kept_once_made_and_follows_a_changed_copy() -> None:
    """Every view names its rules: the text is made once per rules object; a copy with
    another option has its own text, and equality and hashing ignore the kept text."""
    from stich.baptisten import BaptistenRules

    for rules, change in ((SkatRules.preset("isko"), {"all_pass": "ramsch"}),
                          (BaptistenRules(players=4), {"max_cards": 7})):
        fresh = dataclasses.replace(rules)
        text = str(rules)
        assert str(rules) is text  # kept
        assert fresh == rules and hash(fresh) == hash(rules) and str(fresh) == text
        other = dataclasses.replace(rules, **change)
        assert str(other) != text and type(rules).parse(str(other)) == other
