"""Words at the table over real sockets: refusals name cards as people do, in the card
style the client asked for (``?style=``), English ones start with a capital; the
declarer's own view while declaring counts every game (``declare_values``), and no other
seat nor a spectator gets it."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import websockets

from stich.cards import Card, parse_cards
from stich.skat.rules import GameType
from stich.skat.scoring import matadors
from tests.server.harness import Client, Server, TableSocket
from tests.server.proto_helpers import next_error, plain_clients, uid, wait_my_turn

CODE = re.compile(r"\b(?:[CSHD][789TJQKA])\b")


@pytest.fixture
def clients(server: Server) -> Iterator[Callable[..., Client]]:
    yield from plain_clients(server)


async def _connect(c: Client, tid: str, lang: str, style: str | None) -> TableSocket:
    q = f"lang={lang}" + (f"&style={style}" if style else "")
    ws = await websockets.connect(f"{c.server.ws}/ws/tables/{tid}?{q}",
                                  additional_headers={"Cookie": c.cookie_header()},
                                  max_size=2**22)
    return TableSocket(ws)


def test_refusals_name_the_cards_in_the_tables_card_style(
        clients: Callable[..., Client], run: Callable[..., Any]) -> None:
    a = clients()
    a.guest(uid("A"))
    tid = a.create(game="skat", games=0, seats=["bot:easy", "me", "bot:random"],
                   grace=3600)["table"]["id"]

    async def story() -> None:
        socks = {key: await _connect(a, tid, lang, style) for key, lang, style in (
            ("de-german", "de", "german"), ("de-french", "de", "french4"),
            ("en-german", "en", None), ("en-french", "en", "french2"))}
        main = socks["de-german"]
        for _ in range(200):
            view = await wait_my_turn(main, timeout=60)
            n = main.seq
            off = sorted(set(view["hand"]) - set(view["legal"]))
            if view["phase"] == "PLAY" and view["trick"] and off:
                texts = {}
                for key, ws in socks.items():
                    await ws.act(off[0], seq=n)
                    err = await next_error(ws)
                    assert err["code"] in ("skat.must_follow",), err
                    texts[key] = err["text"]
                must = {c for c in view["legal"]}
                for key, text in texts.items():
                    assert not CODE.search(text), (key, text)  # never "S8 SK ST SA"
                    assert text[0].isupper(), text
                    held = re.sub(r"^.*: (du hast|you hold) ", "", text)
                    named = {str(Card.parse(w)) for w in held.split(",")}
                    assert named == must, (key, text, must)
                de, fr = texts["de-german"], texts["de-french"]
                assert de.startswith("Du musst ") and " bedienen: du hast " in de, de
                assert re.search(r"(Eichel|Grün|Herz|Schellen) (7|8|9|10|Unter|Ober|König|Ass)",
                                 de), de
                assert not re.search(r"Kreuz|Pik|Karo|Bube|Dame", de), de
                assert re.search(r"(Kreuz|Pik|Herz|Karo) (7|8|9|10|Bube|Dame|König|Ass)",
                                 fr), fr
                assert not re.search(r"Eichel|Grün|Schellen|Unter|Ober", fr), fr
                assert texts["en-german"].startswith("You must follow "), texts
                assert " of " in texts["en-french"], texts  # "8 of Spades"
                break
            await main.act(view["legal"][0], seq=n)
            msg = await main.until(lambda m: m["type"] in ("event", "error"))
            assert msg["type"] == "event", msg
        else:
            pytest.fail("no card had to follow suit in 200 turns")
        for ws in socks.values():
            await ws.close()

    run(story(), 300)


def test_the_declarers_view_counts_each_game_and_only_the_declarer_gets_it(
        clients: Callable[..., Client], run: Callable[..., Any]) -> None:
    """Mittelhand bids the ladder up to 40, Vorhand holds until then: Mittelhand declares
    with a bid of 40, where Null (23) is lost at once at Lothar's table (−92)."""
    people = [clients("de") for _ in range(3)]
    for i, p in enumerate(people):
        p.guest(uid("ABC"[i]))
    watcher = clients("de")
    watcher.guest(uid("W"))
    tid = people[0].create(game="skat", games=3, seats=["me", "person", "person"],
                           grace=3600)["table"]["id"]
    for p in people[1:]:
        assert p.post(f"/api/tables/{tid}/join", {}).status_code == 200

    async def story() -> None:
        socks = [await _connect(p, tid, "de", None) for p in people]
        spec = await _connect(watcher, tid, "de", None)
        ladder = [18, 20, 22, 23, 24, 27, 30, 33, 35, 36, 40]
        seen: list[dict[str, Any]] = []
        declarer_view: dict[str, Any] | None = None
        declarer_sock: TableSocket | None = None
        for _ in range(60):
            for ws in (*socks, spec):
                await ws.drain(0.15)
                seen.append(dict(ws.view or {}))
            mover = next((ws for ws in socks if ws.view and ws.view.get("legal")), None)
            if mover is None:
                continue
            v = mover.view
            assert v is not None
            legal = v["legal"]
            pos = v["seat"]
            if v["phase"] == "BIDDING":
                said = [int(t) for _, t in v["bidding"] if t.isdigit()]
                nxt = ladder[len(said)] if len(said) < len(ladder) else None
                if pos == 1 and nxt is not None and str(nxt) in legal:
                    act = str(nxt)
                elif pos == 0 and "hold" in legal and v["bid"] < 40:
                    act = "hold"
                else:
                    act = "pass"
            elif v["phase"] == "SKAT":
                act = "pickup"
            elif v["phase"] == "DISCARD":
                act = next(a for a in legal if a.startswith("discard"))
            else:
                assert v["phase"] == "DECLARE", v
                declarer_view, declarer_sock = v, mover
                break
            await mover.act(act, seq=mover.seq)
            msg = await mover.until(lambda m: m["type"] in ("event", "error"), 20)
            assert msg["type"] == "event", msg
        assert declarer_view is not None
        assert declarer_view["bid"] == 40 and declarer_view["declarer"] == 1
        values = declarer_view["declare_values"]
        assert set(values) == {a for a in declarer_view["legal"] if a.startswith("declare")}
        # Null is lost at once after a bid of 40 (settled at Null Ouvert, 46: −92).
        assert values["declare null"]["loss"] == -92, values["declare null"]
        assert "verloren" in values["declare null"]["text"], values["declare null"]
        def core(d: dict[str, Any]) -> dict[str, Any]:
            return {k: d[k] for k in ("value", "text", "loss")}

        assert core(values["declare null ouvert"]) == {"value": 46, "text": "Null Ouvert: 46",
                                                       "loss": None}
        # Every suit game and Grand counted the Skat way from the hand and the Skat.
        owned = parse_cards(" ".join(declarer_view["hand"] + declarer_view["discarded"]))
        names = {"eichel": "Eichel", "gruen": "Grün", "herz": "Herz", "schellen": "Schellen",
                 "grand": "Grand"}
        for word, name in names.items():
            game = GameType(word)
            m = matadors(owned, game)
            value = game.base_value * (abs(m) + 1)
            got = values[f"declare {word}"]
            if value >= 40:
                mit = "mit" if m > 0 else "ohne"
                assert core(got) == {"value": value, "text": f"{name} {mit} {abs(m)}: {value}",
                                     "loss": None}, (word, got)
                # the same in every language and card style a connection may have
                french = {"Eichel": "Kreuz", "Grün": "Pik", "Schellen": "Karo"}.get(name, name)
                assert got["texts"]["de-german"] == got["text"], got
                assert got["texts"]["de-french"] == f"{french} {mit} {abs(m)}: {value}", got
                assert got["texts"]["en-german"].endswith(f" {abs(m)}: {value}"), got
            elif game.base_value * (abs(m) + 3) >= 40:  # Schneider or Schwarz lifts it
                assert got["loss"] is None and got["value"] >= 40, got
            else:  # overbid even with Schwarz: lost at the next multiple of the base
                lost = -(-40 // game.base_value) * game.base_value
                assert got["loss"] == -2 * lost, got
        # Nobody else, no spectator, and no view before the declaration has the field.
        others = [ws for ws in socks if ws is not declarer_sock]
        assert len(others) == 2
        for ws in (*others, spec):
            await ws.drain(0.3)
            assert ws.view is not None and "declare_values" not in ws.view, ws.view
        assert all("declare_values" not in v for v in seen if v.get("phase") != "DECLARE")
        for ws in (*socks, spec):
            await ws.close()

    run(story(), 120)
