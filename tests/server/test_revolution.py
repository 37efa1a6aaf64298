"""Revolution and Schenken on the server's wire (issue 42).

- In process: whole tables under ``revolution`` and ``schenken``, steered towards a
  Revolution (declared Hand after a bid of 18) and towards a Grand Hand in which the
  defenders offer Schenken, every event rendered for every seat and a spectator by the
  server's wire code: the leak monitor (``tests/server/monitor.py``) finds nothing, a
  defender's view has ``partner_hand`` (exactly his partner's cards, the given ones
  included) and the declarer's and a spectator's have none, the cards of a ``give`` are
  shown to the two defenders only (the others read ``give``), ``gift`` and
  ``gift_pending`` are public; the monitor reports a partner's hand shown to the declarer
  or to a defender before the declaration (the check has teeth).
- Over the protocol: three persons play a Revolution; the defenders receive each other's
  cards, the declarer and a stranger watching receive none of them.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from stich.server.sitting import Sitting, TableSettings
from stich.server.wire import SPECTATOR, event_texts, view_json
from tests.server.harness import Client, TableSocket
from tests.server.monitor import LoggedEvent, Monitor, Report
from tests.server.proto_helpers import my_turn, uid

RULES = "skat(preset=lothar,revolution=yes,schenken=yes)"


def steer(legal: list[str], game: int, rng: random.Random) -> str:
    """A chooser over legal action texts: Mittelhand bids 18 and plays Hand, an odd game
    a Revolution, an even one a Grand Hand; a defender offers Schenken; a give of two
    cards where there is one; else a random action."""
    want = "revolution" if game % 2 else "declare grand hand"
    for text in legal:
        if text.startswith("declare") and (want in text if game % 2 else text == want):
            return text
    for text in ("hand", "schenken"):
        if text in legal:
            return text
    if "hold" in legal:
        return "pass"
    if "18" in legal:
        return "18"
    if any(t.isdigit() for t in legal):
        return "pass"
    gives = [t for t in legal if t.startswith("give")]
    if gives:
        two = [t for t in gives if len(t.split()) == 3]
        return rng.choice(two or gives)
    return rng.choice(legal)


def _traffic(games: int, seed: int) -> tuple[Sitting, dict[int | None, list[dict[str, Any]]]]:
    rng = random.Random(seed)
    s = Sitting(TableSettings(game="skat", rules=RULES, games=games,
                              seats=("bot:random",) * 3, seed=seed))
    msgs: dict[int | None, list[dict[str, Any]]] = {0: [], 1: [], 2: [], None: []}

    def apply(events: list[Any]) -> None:
        for ev in events:
            s.apply(ev)
            texts = event_texts(s, ev, [0, 1, 2, SPECTATOR])
            for r, out in msgs.items():
                out.append(json.loads(texts[SPECTATOR if r is None else r]))
            for r in range(3):
                assert msgs[r][-1]["view"] == view_json(s, r)

    apply(s.plan_start())
    while not s.over:
        seat = s.to_move_seat()
        assert seat is not None
        legal = [str(a) for a in s.view(seat).legal_actions]
        apply(s.plan_act(seat, steer(legal, s.game_number, rng), by="bot"))
    return s, msgs


def _check(s: Sitting, msgs: dict[int | None, list[dict[str, Any]]],
           extra: dict[int | None, list[dict[str, Any]]] | None = None) -> Report:
    mon = Monitor()
    mon.table("t", "skat", s.settings.rules, s.settings.show_hands)
    for r, out in msgs.items():
        mon.watch("t", r, out + (extra or {}).get(r, []))
    events = [LoggedEvent(e.seq, e.kind, e.seat, e.data) for e in s.events]
    return mon.check("t", events, s.finished)


def test_revolution_and_schenken_tables_leak_nothing() -> None:
    s, msgs = _traffic(4, 3)
    rep = _check(s, msgs)
    assert rep.leaks == [] and rep.problems == [], rep.leaks[:5]
    results = [r["result"] for r in s.finished]
    assert [bool(r.get("revolution")) for r in results] == [True, False, True, False]
    assert all("gift" in r for r in results[1::2])  # the Grand games: Schenken said
    partner_views = gifts = gives = 0
    for r, out in msgs.items():
        for i, m in enumerate(out):
            v = m["view"]
            if v is None or v["phase"] != "PLAY":
                continue
            pos = None if r is None else v["positions"].index(r)
            if "gift_pending" in v:
                gifts += 1
            if v["contract"] is None or "revolution" not in v["contract"]:
                assert "partner_hand" not in v
                continue
            text = m["data"].get("text", "") if m["kind"] == "act" else ""
            if pos is None or pos == v["declarer"]:  # the declarer, a spectator
                assert "partner_hand" not in v
                assert not text.startswith("give ")
                if text == "give":
                    gives += 1
            else:  # a defender: exactly the partner's hand as the partner's view has it
                partner = 3 - pos - v["declarer"]
                mate = msgs[v["positions"][partner]][i]  # the same event, the partner's
                assert sorted(v["partner_hand"]) == sorted(mate["view"]["hand"])
                partner_views += 1
                if text.startswith("give "):
                    gives += 1
    assert partner_views > 10 and gifts > 0 and gives > 0


def test_the_monitor_reports_a_partners_hand_shown_where_it_may_not_be() -> None:
    s, msgs = _traffic(2, 5)
    rec = s.finished[0]
    assert "revolution" in " ".join(rec["actions"])
    seats = rec["seats"]
    events = [e for e in s.events if e.kind == "act"]
    declare = next(e for e in events if str(e.data["text"]).startswith("declare"))
    declarer = declare.seat
    assert declarer is not None
    pos = seats.index(declarer)
    defender = seats[(pos + 1) % 3]
    partner_cards = rec["deal"]["hands"][(pos + 2) % 3].split()
    before = declare.seq - 1  # the last bid: nobody sees another's hand yet
    extra: dict[int | None, list[dict[str, Any]]] = {
        declarer: [{**msgs[declarer][declare.seq - 1],
                    "view": {"partner_hand": partner_cards[:1]}}],
        defender: [{**msgs[defender][before - 1],
                    "view": {"partner_hand": partner_cards[1:2]}}],
    }
    rep = _check(s, msgs, extra)
    found = sorted((x.receiver, x.card) for x in rep.leaks)
    assert found == sorted([(declarer, partner_cards[0]), (defender, partner_cards[1])])
    assert all("view.partner_hand" in str(x) for x in rep.leaks)
    # the same message after the declaration is what the defender may see
    ok = {defender: [{**msgs[defender][declare.seq - 1],
                      "view": {"partner_hand": partner_cards}}]}
    assert _check(s, msgs, ok).leaks == []


# --- over the protocol --------------------------------------------------------------------


def test_a_revolution_over_the_protocol_shows_the_partners_cards_to_the_defenders_only(
        clients: Callable[..., Client], run: Callable[..., Any]) -> None:
    people = [clients() for _ in range(3)]
    for i, p in enumerate(people):
        p.guest(uid(f"R{i}"))
    made = people[0].create(game="skat", seats=["me", "person", "person"], games=3,
                            rules=RULES)["table"]
    tid = made["id"]
    for i in (1, 2):
        r = people[i].post(f"/api/tables/{tid}/join", {"seat": i})
        assert r.status_code == 200, r.text
    stranger = clients()
    stranger.guest(uid("W"))
    rng = random.Random(4)

    async def go() -> tuple[list[TableSocket], TableSocket]:
        socks = [await p.connect(tid) for p in people]
        watcher = await stranger.connect(tid)
        for ws in socks:
            await ws.until(lambda m: m["type"] == "snapshot" or m["type"] == "event")
        for _ in range(400):
            for ws in socks:
                await ws.drain(0.1)
            if any(m["type"] == "event" and m["kind"] == "game_over" for m in socks[0].messages):
                break
            for ws in socks:
                if my_turn(ws.view):
                    assert ws.view is not None
                    await ws.act(steer(ws.view["legal"], 1, rng))
                    break
        await watcher.drain(0.3)
        return socks, watcher

    socks, watcher = run(go())
    people[0].post(f"/api/tables/{tid}/close")
    end = next(m for m in socks[0].messages if m["type"] == "event" and m["kind"] == "game_over")
    for ws in [*socks, watcher]:  # the first game only
        ws.messages = [m for m in ws.messages if m.get("seq", 0) <= end["seq"]]
    over = end["view"]
    assert over is not None and "revolution" in str(over["contract"])
    positions = over["positions"]
    declarer = positions[over["declarer"]]
    deal = over["deal"]["hands"]  # the hands as dealt (shown once the game is over)
    seen_partner = {0: 0, 1: 0, 2: 0}
    for seat, ws in enumerate(socks):
        pos = positions.index(seat)
        for m in ws.messages:
            v = m.get("view")
            if not v or "partner_hand" not in v:
                continue
            assert seat != declarer, "the declarer got the defenders' cards"
            partner = 3 - pos - over["declarer"]
            assert set(v["partner_hand"]) <= set(deal[partner]) | set(deal[pos])
            seen_partner[seat] += 1
    assert seen_partner[declarer] == 0
    assert all(n > 0 for s, n in seen_partner.items() if s != declarer)
    # the first defender's give: its cards for the two defenders, "give" for the others
    gives = {seat: [m["data"]["text"] for m in ws.messages
                    if m["type"] == "event" and m["kind"] == "act"
                    and str(m["data"]["text"]).startswith("give")]
             for seat, ws in enumerate([*socks, watcher])}
    assert gives[declarer] == ["give", "give"] and gives[3] == ["give", "give"]
    for seat in range(3):
        if seat != declarer:
            assert len(gives[seat]) == 2 and all(len(t.split()) == 3 for t in gives[seat])
    # the stranger: no partner_hand, no defender's card before it was played
    defenders = set(deal[(over["declarer"] + 1) % 3]) | set(deal[(over["declarer"] + 2) % 3])
    watched = 0
    for m in watcher.messages:
        v = m.get("view")
        if not v or v["phase"] == "OVER":
            continue
        assert "partner_hand" not in v and v["hand"] == []
        played = {c for t in v["tricks"] for c in t[1]} | {c for _, c in v["trick"]}
        assert not _words(m) & (defenders - played), m
        watched += 1
    # the fewest: the snapshot, three words of the auction, hand, the declaration, two
    # gives and two cards (a Null lost with the first trick ends at the third)
    assert watched >= 10


def _words(node: Any) -> set[str]:
    """Every word of every string in a message."""
    if isinstance(node, str):
        return set(node.split())
    if isinstance(node, list):
        return set().union(*map(_words, node)) if node else set()
    if isinstance(node, dict):
        return _words(list(node.keys())) | _words(list(node.values()))
    return set()
