"""`stich play skat --players 4`: four at the table (the dealer sits out), bots alone with
JSON records, a person who sits out every fourth game, Bock on the list, usage errors."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from rich.console import Console

from stich.bots import SkatHeuristicBot
from stich.cli.i18n import TEXTS
from stich.cli.play_skat import PlayOptions, SkatSession
from stich.record import replay, skat_record
from stich.skat import SkatRules
from tests.cli.test_play_skat import invoke

HOUSE = "skat(preset=lothar,kontra_re=yes,bock=grand_hand+lost_60+hundred+value72)"


def records(out: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in out.splitlines()]


def test_four_bots_json_writes_one_record_per_game() -> None:
    code, out = invoke("play", "skat", "--players", "4", "--bots", "4", "--games", "8",
                       "--seed", "3", "--json", "--rules", HOUSE)
    assert code == 0
    recs = records(out)
    assert len(recs) == 8
    names = {"Kurt", "Helga", "Otto", "Erna"}
    dealers = []
    for rec in recs:
        assert rec["format"] == "stich-record/1"
        assert rec["rules"] == str(SkatRules.parse(HOUSE))
        players = rec["players"]
        assert isinstance(players, list) and len(players) == 3
        assert rec["sat_out"] in names and rec["sat_out"] not in players
        assert "dealer" not in rec  # at four the dealer is no position of the game
        assert set(players) | {rec["sat_out"]} == names
        state = replay(rec)  # checks the stored result against the replay
        extra = {k: rec[k] for k in ("sat_out", "bock") if k in rec}
        assert skat_record(state, players, seed=rec["seed"], extra=extra) == rec
        dealers.append(rec["sat_out"])
    assert len(set(dealers[:4])) == 4 and dealers[:4] == dealers[4:]  # the deal moves on
    # the deal moves to the dealer's left: the next game's dealer is this game's Vorhand
    for rec, nxt in itertools.pairwise(recs):
        assert nxt["sat_out"] == rec["players"][0]  # type: ignore[index]


def test_bots_four_alone_is_the_same_as_players_four() -> None:
    _, a = invoke("play", "skat", "--bots", "4", "--games", "4", "--seed", "5", "--json")
    _, b = invoke("play", "skat", "--players", "4", "--bots", "4", "--games", "4", "--seed",
                  "5", "--json")
    assert a == b and len(a.splitlines()) == 4


def test_bock_in_the_records_and_on_the_list() -> None:
    """With these events twelve games of the bots start Bock rounds: the doubled games
    carry their factor in the record and a mark on the list."""
    rules = "skat(preset=lothar,bock=value72+hundred+triple+lost_60,bock_overlap=stack)"
    code, out = invoke("play", "skat", "--bots", "4", "--games", "12", "--seed", "3",
                       "--json", "--rules", rules)
    assert code == 0
    recs = records(out)
    assert any(rec.get("bock", 1) != 1 for rec in recs)
    code, text = invoke("play", "skat", "--bots", "4", "--games", "12", "--seed", "3",
                        "--rules", rules, "--no-save", "--lang", "en")
    assert code == 0
    assert "Bock" in text
    assert TEXTS["en"]["bock_game"].split(":")[0] in text


def test_four_bots_log_says_who_sits_out() -> None:
    code, out = invoke("play", "skat", "--bots", "4", "--games", "4", "--seed", "2",
                       "--no-save", "--lang", "en")
    assert code == 0
    assert out.count("deals and sits this game out.") == 4
    for name in ("Kurt", "Helga", "Otto", "Erna"):
        assert f"{name} deals and sits this game out." in out
    assert "Skat list" in out and "Bilanz" in out


class AutoPerson:
    """A person who types what the heuristic bot would do; notes each game asked in."""

    def __init__(self) -> None:
        self.bot = SkatHeuristicBot()
        self.rng = random.Random(0)
        self.session: SkatSession | None = None
        self.asked_in: set[int] = set()

    def __call__(self, prompt: str) -> str:
        assert self.session is not None and self.session.asking is not None
        state, seat = self.session.asking
        self.asked_in.add(self.session.games_done + 1)
        return str(self.bot.choose(state.view(seat), self.rng))


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_person_at_a_table_of_four_sits_out_when_dealing(lang: str) -> None:
    person = AutoPerson()
    console = Console(record=True, width=100, file=open("/dev/null", "w"))  # noqa: SIM115
    opts = PlayOptions(rules=SkatRules(), seed=11, games=8, lang=lang, cards="german",
                       players=4)
    session = SkatSession(opts, console, person)
    person.session = session
    session.run()
    text = console.export_text()
    table = session.table
    assert len(table.players) == 4 and len(table.games) == 8
    out_games = {g.number for g in table.games if g.dealer == 0}
    assert len(out_games) == 2
    assert text.count(TEXTS[lang]["you_sit_out"]) == 2
    assert not person.asked_in & out_games  # never asked while sitting out
    assert all(table.games[n - 1].scores[0] == 0 for n in out_games)
    assert sum(table.bilanz()) == 0
    assert "Traceback" not in text


@pytest.mark.parametrize("args", [
    ("--players", "5"), ("--players", "4", "--bots", "2"), ("--players", "4", "--json"),
    ("--bots", "5"), ("--players", "3", "--bots", "4"),
])
def test_bad_table_sizes_are_usage_errors(args: tuple[str, ...]) -> None:
    code, out = invoke("play", "skat", *args)
    assert code == 2
    assert "Traceback" not in out


def test_the_texts_of_four_are_in_both_languages() -> None:
    four = {"sits_out", "you_sit_out", "bock_game"}
    assert four <= set(TEXTS["de"]) and four <= set(TEXTS["en"])
    _, out = invoke("play", "skat", "--help")
    assert "--players" in out
