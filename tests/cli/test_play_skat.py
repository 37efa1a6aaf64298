"""`stich play skat`: bots-only JSON records, a scripted person, bad input, --help."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from typing import Any

import pytest
import typer.main
from rich.console import Console
from typer.testing import CliRunner

from stich.bots import SkatHeuristicBot
from stich.cards import Card
from stich.cli import app
from stich.cli.i18n import Translator
from stich.cli.play_skat import PlayOptions, SkatSession
from stich.cli.skat_input import InputProblem, interpret
from stich.core import IllegalActionError
from stich.record import replay, skat_record
from stich.skat import (
    HAND,
    HOLD,
    PASS,
    PICKUP,
    Bid,
    Declare,
    Discard,
    GameType,
    SkatRules,
    SkatState,
)

runner = CliRunner()


def invoke(*args: str, input: str | None = None) -> tuple[int, str]:
    result = runner.invoke(app, list(args), input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        result.output, result.exception)
    return result.exit_code, result.output


# --- bots only, JSON ---------------------------------------------------------------------


@pytest.mark.parametrize("rules", ["lothar", "isko"])
def test_bots_only_json_records_replay_identically(rules: str) -> None:
    code, out = invoke("play", "skat", "--bots", "3", "--json", "--games", "12", "--seed", "4",
                       "--rules", rules)
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 12
    for line in lines:
        rec = json.loads(line)  # nothing but records on stdout
        assert rec["format"] == "stich-record/1"
        assert rec["rules"] == str(SkatRules.preset(rules))
        state = replay(rec)  # checks the stored result against the replay
        assert state.outcome().to_dict() == rec["result"]
        assert skat_record(state, rec["players"], seed=rec["seed"]) == rec
        again = SkatState.new(SkatRules.parse(rec["rules"]), seed=rec["seed"])
        assert again.deal == state.deal  # the seed reproduces the deal


def test_bots_only_json_dealer_moves_and_is_reproducible() -> None:
    _, a = invoke("play", "skat", "--bots", "3", "--json", "--games", "6", "--seed", "9")
    _, b = invoke("play", "skat", "--bots", "3", "--json", "--games", "6", "--seed", "9")
    assert a == b
    dealers = [json.loads(line)["players"][2] for line in a.splitlines()]
    assert len(set(dealers[:3])) == 3  # everybody deals once in three games
    assert dealers[:3] == dealers[3:]


def test_bots_only_random_bots_json() -> None:
    code, out = invoke("play", "skat", "--bots", "3", "--bot", "random", "--json", "--games",
                       "5", "--seed", "1")
    assert code == 0
    for line in out.splitlines():
        replay(json.loads(line))


def test_bots_only_prints_games_and_the_list() -> None:
    code, out = invoke("play", "skat", "--bots", "3", "--games", "3", "--seed", "2", "-v",
                       "--lang", "en")
    assert code == 0
    assert "Game 3 of 3" in out
    assert "Skat list" in out and "Bilanz" in out
    assert "Trick 10" in out or "Ramsch" in out or "Null" in out


# --- the person at the table -------------------------------------------------------------


def test_scripted_person_session_with_bad_inputs() -> None:
    script = "\n".join([
        "foo",        # not an action at all
        "19",         # not the next value
        "?",          # help
        "hand",       # not now
        "pass",
    ]) + "\n"
    code, out = invoke("play", "skat", "--seed", "1", input=script)
    assert code == 0
    assert "Traceback" not in out
    assert "Das verstehe ich nicht: 'foo'" in out
    assert "Jetzt geht nur: 18, passe" in out or "Jetzt geht nur: ja, passe" in out \
        or "Jetzt geht nur: 20, passe" in out
    assert "Erlaubt:" in out
    assert "Eingabe zu Ende" in out  # EOF ends the sitting cleanly


def test_person_plays_cards_by_number_code_and_name() -> None:
    # Seed 3: the person (Vorhand) passes and leads the first trick.
    lines = ["pass", "99", "Eichel Sieben", "Grün Unter"] + [str(n) for n in range(1, 11)] * 10
    code, out = invoke("play", "skat", "--seed", "3", input="\n".join(lines) + "\n")
    assert code == 0
    assert "Traceback" not in out
    assert "Eine Karte mit der Nummer 99 gibt es nicht" in out
    # the engine refuses a card not held, in its own words
    assert any(line.startswith("Nicht erlaubt: ") and "C7" in line for line in out.splitlines())
    # the engine's follow-suit refusal, in German, cards named with their number
    assert "Nicht erlaubt: Du musst Trumpf bedienen: du hast 1 Schellen" in out
    assert "Letzter Stich (1): Du Grün Unter" in out
    assert "Skat: " in out
    assert "Skatliste" in out and "Punktestand" in out


def test_quit_ends_cleanly() -> None:
    code, out = invoke("play", "skat", "--seed", "1", "--lang", "en", input="quit\n")
    assert code == 0
    assert "Bye!" in out


def test_pipe_in_a_real_process() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", "from stich.cli import main; main()", "play", "skat",
         "--seed", "1", "--games", "2"],
        input="18\nja\n20\nfoo\npass\n", capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr
    assert "Das verstehe ich nicht" in proc.stdout


class AutoPerson:
    """A person who types what the heuristic bot would do, in the action's text form."""

    def __init__(self) -> None:
        self.bot = SkatHeuristicBot()
        self.rng = random.Random(0)
        self.session: SkatSession | None = None
        self.typed: list[str] = []

    def __call__(self, prompt: str) -> str:
        assert self.session is not None and self.session.asking is not None
        state, seat = self.session.asking
        text = str(self.bot.choose(state.view(seat), self.rng))
        self.typed.append(text)
        return text


@pytest.mark.parametrize(("rules", "lang", "cards"), [
    ("lothar", "de", "german"), ("isko", "en", "english"), ("lothar", "en", "french"),
])
def test_whole_sittings_with_a_typing_person(rules: str, lang: str, cards: str) -> None:
    person = AutoPerson()
    console = Console(record=True, width=100, file=open("/dev/null", "w"))  # noqa: SIM115
    opts = PlayOptions(rules=SkatRules.preset(rules), seed=11, games=6, lang=lang,
                       cards=cards)
    session = SkatSession(opts, console, person)
    person.session = session
    session.run()
    text = console.export_text()
    assert session.games_done == 6
    assert len(session.table.games) == 6
    assert sum(session.table.bilanz()) == 0
    assert "Traceback" not in text
    if "pickup" in person.typed:
        assert ("Im Skat lagen" if lang == "de" else "The Skat held") in text
    if any(t.startswith("declare") for t in person.typed):
        assert ("Du sagst an" if lang == "de" else "You declare") in text


def test_person_with_a_name_and_english_texts() -> None:
    code, out = invoke("play", "skat", "--seed", "6", "--lang", "en", "--name", "Ann",
                       "--cards", "french", input="18\npickup\n")
    assert code == 0
    assert "Ann: 18" in out
    assert "Ann is the declarer, bid 18." in out
    assert "Ann picks up" not in out and "Ann: picks up the Skat" in out
    assert "The Skat held" in out
    assert "Discard two cards" in out
    assert "End of input" in out


# --- reading input -----------------------------------------------------------------------


def test_interpret_words() -> None:
    tr = Translator("de")
    s = SkatState.new(seed=7)
    assert interpret("18", s.view(1), [], tr) == Bid(18)
    assert interpret("passe", s.view(1), [], tr) is PASS
    s = s.apply(Bid(18))
    assert interpret("ja", s.view(0), [], tr) is HOLD
    assert interpret("Hold", s.view(0), [], tr) is HOLD
    # the reader reads; whether 20 may be said now is the engine's to answer
    assert interpret("20", s.view(0), [], tr) == Bid(20)
    with pytest.raises(IllegalActionError):
        s.apply(Bid(20))


def _declarer_state() -> SkatState:
    s = SkatState.new(seed=7)
    for a in (Bid(18), PASS, PASS):  # Mittelhand wins at 18
        s = s.apply(a)
    return s


def test_interpret_skat_discard_declare_and_cards() -> None:
    tr = Translator("en")
    s = _declarer_state()
    v = s.view(s.to_move)
    assert interpret("aufnehmen", v, [], tr) is PICKUP
    assert interpret("hand", v, [], tr) is HAND
    s = s.apply(PICKUP)
    v = s.view(s.to_move)
    hand = sorted(Card.from_index(i) for i in range(32) if s.hands[s.to_move] >> i & 1)
    a, b = hand[0], hand[1]
    d = interpret(f"discard {a} {b}", v, hand, tr)
    assert d == Discard(a.bit | b.bit)
    assert interpret("drücken 1 2", v, hand, tr) == d
    assert interpret(f"{a.german}, {b.french}", v, hand, tr) == d
    with pytest.raises(InputProblem, match="exactly two"):
        interpret("discard 1", v, hand, tr)
    with pytest.raises(InputProblem, match="no card number 13"):
        interpret("discard 1 13", v, hand, tr)
    s = s.apply(d)
    v = s.view(s.to_move)
    assert interpret("grand", v, [], tr) == Declare(GameType.GRAND)
    assert interpret("spiel kreuz", v, [], tr) == Declare(GameType.EICHEL)
    assert interpret("declare grün", v, [], tr) == Declare(GameType.GRUEN)
    assert interpret("null ouvert", v, [], tr) == Declare(GameType.NULL, ouvert=True)
    typed = interpret("grand hand", v, [], tr)  # as typed: the engine refuses it
    assert typed == Declare(GameType.GRAND, hand=True)
    with pytest.raises(IllegalActionError, match="no Hand game"):
        s.apply(typed)
    with pytest.raises(InputProblem, match="do not understand"):
        interpret("tschö", v, [], tr)
    s = s.apply(Declare(GameType.GRAND))
    v = s.view(0)
    own = [Card.from_index(i) for i in range(32) if s.hands[0] >> i & 1]  # Vorhand leads
    assert interpret(own[0].french, v, own, tr) is own[0]
    assert interpret("1", v, own, tr) is own[0]
    not_mine = next(Card.from_index(i) for i in range(32) if not s.hands[0] >> i & 1)
    assert interpret(str(not_mine), v, own, tr) is not_mine  # the engine refuses it


def test_a_hand_declaration_need_not_repeat_hand_and_isko_ouvert_implies_schwarz() -> None:
    tr = Translator("en")
    s = SkatState.new(SkatRules.preset("isko"), seed=7)
    for a in (Bid(18), PASS, PASS, HAND):
        s = s.apply(a)
    v = s.view(s.to_move)
    assert interpret("grand", v, [], tr) == Declare(GameType.GRAND, hand=True)
    assert interpret("herz ouvert", v, [], tr) == Declare(
        GameType.HERZ, hand=True, schneider=True, schwarz=True, ouvert=True)
    assert interpret("herz schneider", v, [], tr) == Declare(GameType.HERZ, hand=True,
                                                              schneider=True)


def test_ten_typed_as_10() -> None:
    """``H10``, ``s10`` and ``Herz 10`` are read like ``HT`` wherever a card is typed."""
    tr = Translator("de")
    s = _declarer_state().apply(PICKUP)
    v = s.view(s.to_move)
    hand = [Card.from_index(i) for i in range(32) if s.hands[s.to_move] >> i & 1]
    for text, code in (("H10", "HT"), ("s10", "ST"), ("Herz 10", "HT"), ("c10", "CT")):
        d = interpret(f"drücken {text} {hand[0]}", v, hand, tr)
        assert isinstance(d, Discard)
        assert d.cards & Card.parse(code).bit, text


# --- help on every subcommand ------------------------------------------------------------


def _command_paths(cmd: Any, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every command path of the CLI (groups have a ``commands`` mapping)."""
    out = [prefix]
    if isinstance(getattr(cmd, "commands", None), dict):
        for name, sub in cmd.commands.items():
            out += _command_paths(sub, (*prefix, name))
    return out


@pytest.mark.parametrize("path", _command_paths(typer.main.get_command(app)))
def test_help_on_every_subcommand(path: tuple[str, ...]) -> None:
    code, out = invoke(*path, "--help")
    assert code == 0
    assert "Usage" in out


def test_play_skat_help_lists_the_options() -> None:
    _, out = invoke("play", "skat", "--help")
    for opt in ("--rules", "--seed", "--games", "--lang", "--cards", "--bots", "--bot",
                "--json", "--name"):
        assert opt in out


@pytest.mark.parametrize("args", [
    ("--bots", "2"), ("--json",), ("--rules", "vienna"), ("--lang", "fr"),
    ("--cards", "tarot"), ("--bot", "clever"), ("--games", "0"),
])
def test_bad_options_are_usage_errors(args: tuple[str, ...]) -> None:
    code, out = invoke("play", "skat", *args)
    assert code == 2
    assert "Traceback" not in out


def test_both_languages_have_every_text() -> None:
    from stich.cli.i18n import TEXTS

    assert set(TEXTS["de"]) == set(TEXTS["en"])


def test_ctrl_c_while_the_bots_play_ends_cleanly(monkeypatch: pytest.MonkeyPatch) -> None:
    """A KeyboardInterrupt outside the prompt (the bots are thinking) ends the sitting."""
    from stich.bots import base

    def interrupted(self: object, view: object, rng: object) -> object:
        raise KeyboardInterrupt

    monkeypatch.setattr(base.RandomBot, "choose", interrupted)
    code, out = invoke("play", "skat", "--bots", "3", "--bot", "random", "--seed", "1")
    assert code == 0
    assert "Traceback" not in out


def test_python_dash_m_stich_runs_the_command() -> None:
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "stich", "--help"], capture_output=True,
                         text=True, check=True)
    assert "play" in out.stdout and "replay" in out.stdout
