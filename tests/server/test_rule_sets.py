"""A circle keeps its rules (issue 42, point 3), over the HTTP API on SQLite and on
PostgreSQL: the house rules in words, named rule sets (saved, listed, reused for a table,
renamed, deleted; bounded by name, count and rate), strangers refused on every route, and
a Bestenliste that never mixes games under different house rules."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from stich.skat import SkatRules
from tests.server.conftest import DB_KINDS
from tests.server.harness import ROOMY, Client, Server, database
from tests.server.proto_helpers import error_of, kind, plain_clients, play_random, uid

MOST_SETS = 3  # this module's server: rule sets per account ...
CHANGES = 8  # ... and saves, changes and deletions per account and hour
LIMITS = f"{ROOMY},account_rule_sets={MOST_SETS},rule_set_changes_per_hour={CHANGES}"

EICHE = "skat(preset=lothar,schieberamsch=yes,kontra_re=yes,bock=kontra_won+grand_hand)"
EICHE_CANONICAL = ("skat(preset=lothar,kontra_re=yes,schieberamsch=yes,"
                   "bock=grand_hand+kontra_won)")


@pytest.fixture(scope="module", params=DB_KINDS)
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[Server]:
    """This module's server (each kind of database) with small rule-set limits."""
    tmp: Path = tmp_path_factory.mktemp("rulesets")
    with database(request.param, tmp) as url:
        srv = Server(url, bot_delay=0.0, env={"STICH_LIMITS": LIMITS})
        srv.start()
        try:
            yield srv
        finally:
            srv.stop()


@pytest.fixture
def clients(server: Server) -> Iterator[Callable[..., Client]]:
    yield from plain_clients(server)


def registered(clients: Callable[..., Client], prefix: str, lang: str = "en") -> Client:
    c = clients(lang)
    c.register(uid(prefix))
    return c


def save(c: Client, name: str, rules: str) -> dict[str, Any]:
    r = c.post("/api/me/rule-sets", {"name": name, "rules": rules}, params={"lang": c.lang})
    assert r.status_code == 200, r.text
    return dict(r.json())


def my_sets(c: Client) -> list[dict[str, Any]]:
    r = c.get("/api/me/rule-sets", params={"lang": c.lang})
    assert r.status_code == 200, r.text
    return list(r.json()["rule_sets"])


def test_the_house_rules_are_offered_in_words(clients: Callable[..., Client]) -> None:
    c = clients()
    en = c.get("/api/rules/skat", params={"lang": "en"}).json()
    de = c.get("/api/rules/skat", params={"lang": "de"}).json()
    names = [f["name"] for f in en["fields"]]
    # every house rule of the engine is offered (all fields but the four the presets set)
    import dataclasses

    preset_fields = {"bidding_jumps", "all_pass", "announcements", "null_overbid"}
    assert sorted(names) == sorted(f.name for f in dataclasses.fields(SkatRules)
                                   if f.name not in preset_fields)
    assert names[0] == "kontra_re" and names[-1] == "bock_ramsch"
    default = SkatRules()
    for f in en["fields"]:  # the defaults are the presets' (house rules off)
        value = getattr(default, f["name"])
        want = ("yes" if value else "no") if isinstance(value, bool) else str(value)
        assert f["default"] == want, f
        assert f["label"] and f["help"], f
    kontra = next(f for f in de["fields"] if f["name"] == "kontra_re")
    assert kontra["help"].startswith("Ein Gegenspieler darf vor seiner ersten Karte Kontra")
    assert [ch["value"] for ch in kontra["choices"]] == ["no", "yes", "bid18"]
    bock = next(f for f in en["fields"] if f["name"] == "bock")
    assert bock["kind"] == "events" and len(bock["choices"]) == 8

    r = c.get("/api/rules/skat/words", params={"rules": EICHE, "lang": "de"}).json()
    assert r["rules"] == EICHE_CANONICAL and r["preset"] == "custom"
    assert r["words"] == "Lothars Regeln · Kontra/Re · Schieberamsch · " \
                         "Bock (Grand Hand, Kontra gewonnen)"
    assert r["short"] == "Lothar · Kontra/Re · Schieberamsch · Bock"
    assert r["fields"]["kontra_re"] == "yes" and r["fields"]["bock"] == "grand_hand+kontra_won"
    en_words = c.get("/api/rules/skat/words", params={"rules": EICHE, "lang": "en"}).json()
    assert en_words["words"] == "Lothar's rules · Kontra/Re · Schieberamsch · " \
                                "Bock (Grand Hand, Kontra won)"
    # an invalid combination: the engine's refusal, in the asker's language
    bad = c.get("/api/rules/skat/words",
                params={"rules": "skat(preset=lothar,bock_ramsch=yes)", "lang": "de"})
    status, code, text = error_of(bad)
    assert (status, code) == (400, "rules.bock_ramsch_needs_bock")
    assert "Bock-Ereignisse" in text


def test_a_player_keeps_reuses_renames_and_deletes_a_rule_set(
        clients: Callable[..., Client]) -> None:
    anna = registered(clients, "Anna")
    assert my_sets(anna) == []
    made = save(anna, "  Skatclub   Eiche ", EICHE)
    s = made["rule_set"]
    assert not made["replaced"]
    assert (s["name"], s["rules"], s["base"]) == ("Skatclub Eiche", EICHE_CANONICAL, "lothar")
    assert s["words"].startswith("Lothar's rules · Kontra/Re")
    assert [x["id"] for x in my_sets(anna)] == [s["id"]]

    # the same name (in other letters) gets the new rules: still one set
    again = save(anna, "SKATCLUB EICHE", EICHE_CANONICAL.replace("kontra_re=yes",
                                                                 "kontra_re=bid18"))
    assert again["replaced"] and again["rule_set"]["id"] == s["id"]
    assert again["rule_set"]["name"] == "SKATCLUB EICHE"
    assert "kontra_re=bid18" in my_sets(anna)[0]["rules"]

    # reused: a table of four with the set's rules keeps and names them
    rules = my_sets(anna)[0]["rules"]
    t = anna.create(game="skat", rules=rules, games=4,
                    seats=["me", "person", "bot:easy", "bot:easy"])["table"]
    assert t["rules"] == rules and t["preset"] == "custom"
    row = next(x for x in anna.get("/api/tables", params={"lang": "de"}).json()["tables"]
               if x["id"] == t["id"])
    assert row["rules_words"] == "Lothars Regeln · Kontra/Re ab 18 · Schieberamsch · " \
                                 "Bock (Grand Hand, Kontra gewonnen)"
    assert row["rules_short"] == "Lothar · Kontra/Re ab 18 · Schieberamsch · Bock"
    assert anna.post(f"/api/tables/{t['id']}/close").status_code == 200

    # renamed, other rules, a second set; a name of another set is refused
    r = anna.post("/api/me/rule-sets/change", {"id": s["id"], "name": "Eiche"})
    assert r.status_code == 200 and r.json()["rule_set"]["name"] == "Eiche", r.text
    other = save(anna, "Donnerstag", "skat(preset=isko,jungfrau=yes)")["rule_set"]
    assert other["rules"] == "skat(preset=isko,jungfrau=yes)" and other["base"] == "isko"
    r = anna.post("/api/me/rule-sets/change", {"id": other["id"], "name": "eiche"})
    assert error_of(r)[:2] == (409, "server.rule_set_name_taken")
    r = anna.post("/api/me/rule-sets/change", {"id": other["id"], "rules": "skat(preset=isko)"})
    assert r.json()["rule_set"]["rules"] == "skat(preset=isko)"
    assert [x["name"] for x in my_sets(anna)] == ["Donnerstag", "Eiche"]

    r = anna.post("/api/me/rule-sets/delete", {"id": s["id"]})
    assert r.status_code == 200 and r.json() == {"deleted": s["id"]}
    assert [x["name"] for x in my_sets(anna)] == ["Donnerstag"]
    r = anna.post("/api/me/rule-sets/delete", {"id": s["id"]})
    assert error_of(r)[:2] == (404, "server.no_such_rule_set")


def test_strangers_cannot_read_change_or_delete_a_rule_set(
        clients: Callable[..., Client]) -> None:
    anna = registered(clients, "Anna")
    mine = save(anna, "Skatclub Eiche", EICHE)["rule_set"]
    bert = registered(clients, "Bert")
    gast = clients()
    gast.guest(uid("Gast"))
    nobody = clients()

    for who in (bert, gast):  # nothing of hers in their lists ...
        assert my_sets(who) == []
        assert "Eiche" not in who.get("/api/me/rule-sets").text
        # ... and her set is as if it did not exist for them
        r = who.post("/api/me/rule-sets/change", {"id": mine["id"], "name": "Meins"})
        assert error_of(r)[:2] == (404, "server.no_such_rule_set")
        r = who.post("/api/me/rule-sets/change", {"id": mine["id"], "rules": "isko"})
        assert error_of(r)[:2] == (404, "server.no_such_rule_set")
        r = who.post("/api/me/rule-sets/delete", {"id": mine["id"]})
        assert error_of(r)[:2] == (404, "server.no_such_rule_set")
        assert "Eiche" not in r.text and EICHE_CANONICAL not in r.text
    # a guest cannot keep a rule set at all: told in his language
    gast_de = clients("de")
    gast_de.guest(uid("Gast"))
    for who, words in ((gast, "A guest cannot save rule sets: register"),
                       (gast_de, "Als Gast kannst du keine Regelsätze speichern")):
        r = who.post("/api/me/rule-sets", {"name": "Gastregeln", "rules": EICHE},
                     params={"lang": who.lang})
        status, code, text = error_of(r)
        assert (status, code) == (403, "server.rule_sets_guest") and words in text, text
    # nobody logged in: every route of the sets refused
    for method, path, body in (("GET", "/api/me/rule-sets", None),
                               ("POST", "/api/me/rule-sets", {"name": "x", "rules": EICHE}),
                               ("POST", "/api/me/rule-sets/change",
                                {"id": mine["id"], "name": "x"}),
                               ("POST", "/api/me/rule-sets/delete", {"id": mine["id"]})):
        r = nobody.http.request(method, path, json=body)
        assert error_of(r)[:2] == (401, "auth.not_logged_in"), (path, r.text)
    # hers is untouched, and a same-named set of Bert's is his own
    assert [(x["id"], x["name"], x["rules"]) for x in my_sets(anna)] == \
        [(mine["id"], "Skatclub Eiche", EICHE_CANONICAL)]
    his = save(bert, "Skatclub Eiche", "skat(preset=isko)")["rule_set"]
    assert his["id"] != mine["id"]
    assert my_sets(anna)[0]["rules"] == EICHE_CANONICAL
    # ids that no row can have
    for bad in (0, -1, 2**31, 2**62):
        r = anna.post("/api/me/rule-sets/delete", {"id": bad})
        assert error_of(r)[:2] == (404, "server.no_such_rule_set"), bad


def test_rule_sets_are_bounded(clients: Callable[..., Client]) -> None:
    anna = registered(clients, "Anna")
    for name, code in (("", "server.rule_set_name"), ("   ", "server.rule_set_name"),
                       ("x" * 41, "server.rule_set_name"),
                       ("Eiche\u202e", "server.rule_set_name_chars"),
                       ("Ei\x00che", "server.rule_set_name_chars")):
        r = anna.post("/api/me/rule-sets", {"name": name, "rules": EICHE})
        assert error_of(r)[:2] == (400, code), (name, r.text)
    assert save(anna, "x" * 40, EICHE)["rule_set"]["name"] == "x" * 40
    for rules, code in (("skat(preset=lothar,bock_ramsch=yes)", "rules.bock_ramsch_needs_bock"),
                        ("skat(preset=lothar,kontra_re=maybe)", "rules.option_choice"),
                        ("baptisten(deck=skat)", "rules.not_a_rule_string")):
        r = anna.post("/api/me/rule-sets", {"name": "Falsch", "rules": rules})
        assert error_of(r)[:2] == (400, code), (rules, r.text)
    r = anna.post("/api/me/rule-sets", {"name": "Lang", "rules": "skat(" + "x" * 300 + ")"})
    assert r.status_code == 422, r.text
    # at most MOST_SETS sets per account; saving an existing name again is no new one
    for i in range(1, MOST_SETS):
        save(anna, f"Runde {i}", "skat(preset=lothar,klopfen=yes)")
    r = anna.post("/api/me/rule-sets", {"name": "Eine zu viel", "rules": EICHE})
    assert error_of(r)[:2] == (409, "server.rule_sets_full")
    assert save(anna, "runde 1", EICHE)["replaced"]
    assert len(my_sets(anna)) == MOST_SETS
    # saves, changes and deletions per hour: CHANGES, then refused with a time to wait
    # (the sets saved, the one too many and the one saved again; the refusals of names
    # and rules spent nothing: refused before the limit)
    spent = MOST_SETS + 2
    first = my_sets(anna)[0]["id"]
    for i in range(spent, CHANGES):
        r = anna.post("/api/me/rule-sets/change", {"id": first, "name": f"Neu {i}"})
        assert r.status_code == 200, (i, r.text)
    r = anna.post("/api/me/rule-sets/change", {"id": first, "name": "Noch einer"})
    assert error_of(r)[:2] == (429, "server.rate_limited")
    assert int(r.headers["retry-after"]) > 0
    assert my_sets(anna)[0]["name"] == f"Neu {CHANGES - 1}"  # reading is free
    # another account's limit is its own
    bert = registered(clients, "Bert")
    assert save(bert, "Eiche", EICHE)["rule_set"]["name"] == "Eiche"


def _play_table(c: Client, rules: str) -> str:
    """A table of this person and two random bots under ``rules``, played to its end
    (three games); its id."""
    t = c.create(game="skat", rules=rules, games=3,
                 seats=["me", "bot:random", "bot:random"])["table"]

    async def go() -> None:
        ws = await c.connect(t["id"])
        await play_random(ws, random.Random(t["id"]), kind("end"), timeout=120)
        await ws.close()

    asyncio.run(asyncio.wait_for(go(), 150))
    return str(t["id"])


def test_the_bestenliste_never_mixes_games_under_different_house_rules(
        clients: Callable[..., Client]) -> None:
    kontra = "skat(preset=lothar,kontra_re=yes)"
    ramsch = "skat(preset=lothar,jungfrau=yes,schieberamsch=yes,klopfen=yes)"
    name = uid("Hausregler")
    anna = clients()
    anna.register(name)
    tables = {rules: _play_table(anna, rules) for rules in (kontra, ramsch)}

    def mine(params: dict[str, str]) -> tuple[dict[str, Any], dict[str, Any]]:
        r = anna.get("/api/bestenliste", params={**params, "lang": "de"})
        assert r.status_code == 200, r.text
        body = r.json()
        return body, next(p for p in body["players"] if p["name"] == name)

    for rules, tid in tables.items():
        lst = anna.get(f"/api/tables/{tid}/list").json()["list"]
        seat = lst["players"].index(name)
        # the spelling asked for does not matter: the canonical string is the filter
        asked = rules.replace("preset=lothar,", "") if rules == ramsch else rules
        body, row = mine({"rules": asked})
        assert body["rules"] == rules and body["preset"] == "custom"
        assert body["words"].startswith("Lothars Regeln · ")
        # exactly the three games of that table: its list's figures, nothing else
        assert row["games"] == 3
        assert (row["punktestand"], row["bilanz"]) == (lst["punktestand"][seat],
                                                      lst["bilanz"][seat])
        offered = {h["rules"]: h for h in body["house_rules"]}
        assert offered[rules]["games"] >= 3 and offered[rules]["words"] == body["words"]
    words = {h["rules"]: h["words"] for h in mine({"rules": kontra})[0]["house_rules"]}
    assert words[kontra] == "Lothars Regeln · Kontra/Re"
    assert words[ramsch] == "Lothars Regeln · Jungfrau · Schieberamsch · Klopfen"
    # the presets' lists hold none of them, and "custom" alone is no list at all
    lothar = anna.get("/api/bestenliste", params={"preset": "lothar"}).json()["players"]
    assert name not in {p["name"] for p in lothar}
    r = anna.get("/api/bestenliste", params={"preset": "custom"})
    assert error_of(r)[:2] == (400, "server.custom_needs_rules")
    r = anna.get("/api/bestenliste", params={"rules": "skat(preset=lothar,bock_ramsch=yes)"})
    assert error_of(r)[:2] == (400, "rules.bock_ramsch_needs_bock")
    # a preset named by its rule string is that preset's list
    body = anna.get("/api/bestenliste", params={"rules": "skat(preset=isko)"}).json()
    assert body["preset"] == "isko" and body["rules"] == "skat(preset=isko)"
    # the page: the choice in words, the list of those games only
    page = anna.get("/bestenliste", params={"rules": kontra, "lang": "de"}).text
    assert "Nur Spiele unter diesen Regeln:" in page or "Only games" in page
    assert "Lothars Regeln · Kontra/Re" in page and name in page
