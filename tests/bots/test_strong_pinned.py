"""The Skat search bot's decisions, pinned: on 68 seeded positions of every kind it decides
(bidding: say, hold, pass, under both presets; Hand or pick up; the discard; the
declaration after picking up and Hand; the card play in suit games, Grand, Null, Ouvert,
as declarer and defender; Ramsch with and without a Durchmarsch on), the bot chooses the
action stored in ``tests/data/strong_pinned.json`` (and its sampler the worlds stored
there), with its default settings and with two others (the auction's and the card play's
tuning changed, as ``bench/tuning/skat_strong_ab.py`` compares two settings).

The stored actions were computed by the bot of commit c301848, where the settings were
module globals switched by ``setattr`` (before they became one object and the module a
package): a restructuring must keep every one of them.  The clock does not move, the
number of worlds is fixed, and the solver runs its Python search (``STICH_PURE_PYTHON=1``),
whose node counts are the same everywhere: so the decisions are the same on any machine,
with or without the compiled solver."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from stich.bots.strong import SkatStrongBot, StrongSettings, count_worlds, sample_world
from stich.cards import format_cards, parse_cards
from stich.skat import SkatRules, SkatState

DATA = Path(__file__).resolve().parents[1] / "data" / "strong_pinned.json"
WORLDS = 3
QUESTION_SECONDS = 0.03

SETTINGS: dict[str, StrongSettings] = {
    "default": StrongSettings(),
    # the auction's tuning (the positions of the bidding and the discard)
    "auction": StrongSettings(plan_top=0, auction_optimism=8,
                              chance_by_points=((61, 0.97), (55, 0.8), (49, 0.4)),
                              chance_below=0.1, gave_up_chance=None, discard_prune=False,
                              null_badness_tried=5.0, ramsch_share=0.8, bid_se=0.5),
    # the card play's and Ramsch's tuning (the positions of the card play)
    "play": StrongSettings(infer_passes=False, unlikely_bid=0.05, ramsch_rollouts=False,
                           durchmarsch_try=0.2, null_chance=(0.5, 0.9)),
}

POSITIONS: list[dict[str, Any]] = json.loads(DATA.read_text(encoding="utf-8"))


def _frozen() -> float:
    return 0.0


def _state(p: dict[str, Any]) -> SkatState:
    state = SkatState.new(SkatRules.preset(p["rules"]),
                          hands=[parse_cards(h) for h in p["hands"]], skat=parse_cards(p["skat"]))
    for text in p["history"]:
        state = state.apply(state.parse_action(text))
    return state


def _bot(settings: StrongSettings) -> SkatStrongBot:
    return SkatStrongBot(min_worlds=WORLDS, max_worlds=WORLDS, timer=_frozen,
                         settings=settings, question_seconds=QUESTION_SECONDS)


def _decide(bot: SkatStrongBot, p: dict[str, Any]) -> str:
    state = _state(p)
    return str(bot.choose(state.view(state.to_move), random.Random(p["seed"])))


def test_the_positions_cover_every_decision() -> None:
    kinds = {p["kind"] for p in POSITIONS}
    assert {"bid_open", "bid_answer", "bid_later", "bid_isko", "skat", "discard",
            "declare_pickup", "declare_hand", "play_suit_decl", "play_suit_def",
            "play_grand_decl", "play_grand_def", "play_null_decl", "play_null_def",
            "play_ouvert", "ramsch_durchmarsch", "ramsch_rollout"} <= kinds
    said = {p["expect"]["default"] for p in POSITIONS if p["kind"].startswith("bid")}
    assert {"pass", "18", "hold"} <= said
    for p in POSITIONS:
        state = _state(p)
        assert len(state.legal_actions()) > 1, p


@pytest.mark.parametrize("name", sorted(SETTINGS))
def test_the_decisions_are_pinned(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STICH_PURE_PYTHON", "1")  # the solver's Python search
    expected = [(i, p["expect"][name]) for i, p in enumerate(POSITIONS) if name in p["expect"]]
    got = [(i, _decide(_bot(SETTINGS[name]), POSITIONS[i])) for i, _ in expected]
    assert expected and got == expected


def test_bots_of_two_settings_play_in_one_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot of the default settings and one of the auction's other settings, asked in
    turn on the positions where the two decide differently: each keeps to its own."""
    monkeypatch.setenv("STICH_PURE_PYTHON", "1")
    plain, other = _bot(SETTINGS["default"]), _bot(SETTINGS["auction"])
    differ = [p for p in POSITIONS
              if p["expect"].get("auction", p["expect"]["default"]) != p["expect"]["default"]]
    assert len(differ) >= 2
    for p in differ:
        assert _decide(other, p) == p["expect"]["auction"]
        assert _decide(plain, p) == p["expect"]["default"]


def test_the_worlds_are_pinned() -> None:
    """The sampler's worlds from each position's view with seeds 0, 1, 2, and the number
    of worlds that agree with the view, as computed before: the decisions above rest on
    them, and the random numbers they take must stay the same."""
    for p in POSITIONS:
        state = _state(p)
        view = state.view(state.to_move)
        got = []
        for seed in range(3):
            hands, skat = sample_world(view, random.Random(seed))
            got.append(" | ".join([format_cards(h) for h in hands] + [format_cards(skat)]))
        assert (count_worlds(view), got) == (p["count"], p["worlds"]), p["kind"]


def test_the_other_settings_decide_otherwise() -> None:
    """Each non-default setting changes some decisions (so its pin can fail)."""
    for name in ("auction", "play"):
        assert any(p["expect"][name] != p["expect"]["default"]
                   for p in POSITIONS if name in p["expect"]), name
