"""A Skat game ended early on the wire (issue 42): once a claim, giving up, a gift or a
shortcut ended the game, every receiver's view has ``end`` (the reason, who said it, the
side the rest went to, the cards each position still held, the trick that lay open);
never before the game is over, and nothing in it a receiver may not see (checked by the
leak monitor, which knows nothing of the wire code)."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from stich.cards import CARDS
from stich.server.sitting import Sitting, TableSettings
from stich.server.wire import SPECTATOR, event_texts
from stich.skat.ending import EARLY_ENDS
from tests.server.monitor import LoggedEvent, Monitor

RULES = "skat(preset=lothar,schenken=yes)"


def _traffic(settings: TableSettings, seed: int, claims: float
             ) -> tuple[Sitting, dict[int | None, list[dict[str, Any]]]]:
    """A whole table in process, random legal actions; at a turn in card play the mover
    claims the rest or gives up with chance ``claims`` from the seventh trick on, a
    quarter of it before (as a person may: the table offers both beside the legal
    actions); half the time a declarer claims when the claim is right.  Every event
    rendered for every seat and for a spectator by the server's wire code."""
    rng = random.Random(seed)
    s = Sitting(settings)
    msgs: dict[int | None, list[dict[str, Any]]] = {r: [] for r in range(len(settings.seats))}
    msgs[None] = []

    def apply(events: list[Any]) -> None:
        for ev in events:
            s.apply(ev)
            texts = event_texts(s, ev, [*range(len(settings.seats)), SPECTATOR])
            for r, out in msgs.items():
                out.append(json.loads(texts[SPECTATOR if r is None else r]))

    apply(s.plan_start())
    while not s.over:
        seat = s.to_move_seat()
        assert seat is not None
        v = s.view(seat)
        choices = list(v.legal_actions)
        late = len(v.tricks) >= 6  # (a random claim is right more often late)
        if v.claims and rng.random() < (claims if late else claims / 4):
            choices = list(v.claims)
        st = s.skat  # (a declarer who knows better: half the time he claims when right)
        if st is not None and v.claims and rng.random() < 0.5 and \
                any(str(a) == "claim" for a in v.claims):
            claim = next(a for a in v.claims if str(a) == "claim")
            if st.apply(claim).end_reason == "claimed":
                choices = [claim]
        apply(s.plan_act(seat, str(rng.choice(choices)), by="bot"))
    return s, msgs


def _over_views(msgs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m["view"] for m in msgs if m["type"] == "event" and m["kind"] == "game_over"]


def test_a_game_ended_early_shows_every_card_still_held_and_nothing_before() -> None:
    settings = TableSettings(game="skat", rules=RULES, games=24, seats=("bot:random",) * 3,
                             seed=7, show_hands=False)
    s, msgs = _traffic(settings, 2, claims=0.12)
    # the monitor: no message carries a card its receiver may not know (every card of a
    # game is public only once it is over)
    mon = Monitor()
    mon.table("t", settings.game, settings.rules, settings.show_hands)
    for r, out in msgs.items():
        mon.watch("t", r, out)
    rep = mon.check("t", [LoggedEvent(e.seq, e.kind, e.seat, e.data) for e in s.events],
                    s.finished)
    assert rep.leaks == [] and rep.problems == []
    reasons: Counter[str] = Counter()
    for r, out in msgs.items():
        for m in out:  # never before the game is over
            if m["view"] and m["view"].get("end") is not None:
                assert m["view"]["phase"] == "OVER", m
        for v, rec in zip(_over_views(out), s.finished, strict=True):
            if r is None:
                reasons[v.get("end", {}).get("reason", "played out")] += 1
            end = v.get("end")
            if end is None:
                continue
            assert end["reason"] in EARLY_ENDS
            _check_cards(v, end)
            assert rec["actions"][-1] in ("claim", "giveup", "accept", "shortcut") \
                or len(rec["actions"][-1]) == 2
    # every kind of early end happened, and games played out have no ``end``
    assert {"claimed", "claim_wrong", "gave_up", "gift"} <= set(reasons), reasons
    assert reasons["played out"] > 0, reasons


def _check_cards(v: dict[str, Any], end: dict[str, Any]) -> None:
    """The held cards and the open trick are exactly the cards not yet played or put
    away, each position holding as many as it had not played."""
    played = [0, 0, 0]
    seen: list[str] = []
    for leader, cards, _ in v["tricks"]:
        for i, c in enumerate(cards):
            played[(leader + i) % 3] += 1
            seen.append(c)
    for pos, c in end["trick"]:
        played[pos] += 1
        seen.append(c)
    for pos, hand in enumerate(end["held"]):
        assert len(hand) == 10 - played[pos], (pos, hand, end)
        seen += hand
        # each held card was dealt to that position (or came from the Skat)
        dealt = set(v["deal"]["hands"][pos]) | set(v["deal"]["skat"])
        assert set(hand) <= dealt, (pos, hand)
    assert len(seen) == len(set(seen)) == 30, seen
    away = {c.code for c in CARDS} - set(seen)  # the Skat as it lay at the end
    if v["discarded"]:  # (a seat's view knows the cards put away; a spectator's not)
        assert away == set(v["discarded"])
    elif v["seat"] is not None or (v["contract"] is not None and "hand" in v["contract"]):
        assert away == set(v["deal"]["skat"])


def test_the_ending_word_and_its_side() -> None:
    """``by`` is the position whose turn it was; the side of the rest agrees with the
    tricks counted at the end."""
    settings = TableSettings(game="skat", rules=RULES, games=18, seats=("bot:random",) * 3,
                             seed=3)
    _, msgs = _traffic(settings, 5, claims=0.15)
    checked = 0
    for v in _over_views(msgs[None]):
        end = v.get("end")
        if end is None or end["reason"] == "gift":
            continue
        d = v["declarer"]
        in_tricks = sum(1 for _, _, w in v["tricks"] if w == d)
        assert (end["rest"] == "declarer") == (v["tricks_won"][d] > in_tricks)
        if end["reason"] in ("claimed", "claim_wrong"):
            assert end["by"] == d
        checked += 1
    assert checked > 0
