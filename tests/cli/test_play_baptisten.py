"""`stich play baptisten`: bots-only scoresheet JSON, a scripted person with bad input,
whole games with a typing person, input reading, --help."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from stich.baptisten import FOREHEAD_PLAY, BaptistenRules, BaptistenState, BBid, ranking
from stich.bots import BaptistenHeuristicBot
from stich.cli import app
from stich.cli.baptisten_input import InputProblem, interpret
from stich.cli.baptisten_render import PlainStyle, scoresheet, sort_hand
from stich.cli.i18n import TEXTS, Translator
from stich.cli.play_baptisten import BaptistenOptions, BaptistenSession
from stich.core import IllegalActionError
from stich.messages import StichError

runner = CliRunner()


def invoke(*args: str, input: str | None = None) -> tuple[int, str]:
    result = runner.invoke(app, list(args), input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        result.output, result.exception)
    return result.exit_code, result.output


# --- bots only, JSON ---------------------------------------------------------------------


def check_sheet(sheet: dict[str, Any], rules: BaptistenRules) -> None:
    """The scoresheet JSON has exactly the issue's shape and adds up."""
    assert set(sheet) == {"rules", "players", "rounds", "ranking"}
    assert BaptistenRules.parse(sheet["rules"]) == rules
    n = rules.players
    assert isinstance(sheet["players"], list) and len(sheet["players"]) == n
    assert all(isinstance(p, str) and p for p in sheet["players"])
    assert [r["cards"] for r in sheet["rounds"]] == list(rules.schedule())
    totals = [0] * n
    for i, rnd in enumerate(sheet["rounds"]):
        assert set(rnd) == {"round", "cards", "first", "trump", "entries"}
        assert rnd["round"] == i + 1
        assert isinstance(rnd["first"], int) and 0 <= rnd["first"] < n
        assert rnd["first"] == (sheet["rounds"][0]["first"] + i) % n
        assert rnd["trump"] is None or isinstance(rnd["trump"], str)
        assert [e["player"] for e in rnd["entries"]] == list(range(n))  # one per player
        for e in rnd["entries"]:
            assert set(e) == {"player", "bid", "stake", "forced", "tricks", "score", "total"}
            assert all(type(e[k]) is int for k in ("player", "bid", "tricks", "score", "total"))
            assert type(e["forced"]) is bool
            if rules.trick_scoring:
                assert e["stake"] is None and e["forced"] is False
            else:
                assert type(e["stake"]) is int and (1 <= e["stake"] <= 20 or e["stake"] == 40)
                assert e["score"] == (e["stake"] if e["bid"] == e["tricks"] else -e["stake"])
                assert not e["forced"] or e["stake"] == 40
            assert 0 <= e["bid"] <= rnd["cards"] and 0 <= e["tricks"] <= rnd["cards"]
            totals[e["player"]] += e["score"]
            assert e["total"] == totals[e["player"]]
        assert sum(e["tricks"] for e in rnd["entries"]) == rnd["cards"]
        if rules.hook_applies(rnd["cards"]):
            assert sum(e["bid"] for e in rnd["entries"]) != rnd["cards"]
    if not rules.trick_scoring:
        for p in range(n):
            forties = sum(1 for rnd in sheet["rounds"] if rnd["entries"][p]["stake"] == 40)
            assert forties == rules.forties_required
    rk = sheet["ranking"]
    assert [set(r) for r in rk] == [{"player", "total", "place"}] * n
    assert sorted(r["player"] for r in rk) == list(range(n))
    assert [r["total"] for r in rk] == sorted(totals, reverse=True)
    for i, r in enumerate(rk):
        assert r["total"] == totals[r["player"]]
        if i and r["total"] == rk[i - 1]["total"]:
            assert r["place"] == rk[i - 1]["place"]  # ties share a place
        else:
            assert r["place"] == i + 1


@pytest.mark.parametrize(("args", "rules"), [
    ((), BaptistenRules()),
    (("--players", "3", "--max-cards", "6", "--variants", "2,5"),
     BaptistenRules(players=3, max_cards=6, forehead=True, must_overtrump=True)),
    (("--players", "4", "--deck", "skat", "--max-cards", "6", "--variants", "3,4"),
     BaptistenRules(players=4, deck="skat", max_cards=6, trick_scoring=True,
                    hook_always=True)),
    (("--players", "4", "--deck", "romme", "--max-cards", "12", "--bot", "random"),
     BaptistenRules(players=4, deck="romme", max_cards=12)),
])
def test_bots_only_json_has_the_issue_shape(args: tuple[str, ...],
                                            rules: BaptistenRules) -> None:
    n = str(rules.players)
    code, out = invoke("play", "baptisten", "--bots", n, "--seed", "4", "--json", *args)
    assert code == 0
    sheet = json.loads(out)  # nothing but the JSON on stdout
    check_sheet(sheet, rules)


def test_json_ties_share_a_place() -> None:
    found = False
    for seed in range(1, 30):
        _, out = invoke("play", "baptisten", "--bots", "4", "--seed", str(seed), "--json",
                        "--variants", "3")
        sheet = json.loads(out)
        check_sheet(sheet, BaptistenRules(trick_scoring=True))
        places = [r["place"] for r in sheet["ranking"]]
        if len(set(places)) < len(places):
            found = True
            break
    assert found
    assert ranking([5, 9, 5, 1]) == [(1, 9, 1), (0, 5, 2), (2, 5, 2), (3, 1, 4)]


def test_json_is_reproducible_by_seed() -> None:
    _, a = invoke("play", "baptisten", "--bots", "4", "--seed", "9", "--json")
    _, b = invoke("play", "baptisten", "--bots", "4", "--seed", "9", "--json")
    _, c = invoke("play", "baptisten", "--bots", "4", "--seed", "10", "--json")
    assert a == b
    assert a != c
    fresh = subprocess.run(  # a new process, nothing played before
        [sys.executable, "-c", "from stich.cli import main; main()", "play", "baptisten",
         "--bots", "4", "--seed", "9", "--json"],
        capture_output=True, text=True, timeout=60, check=True,
    )
    assert json.loads(fresh.stdout) == json.loads(a)
    assert fresh.stderr == ""


def test_json_needs_bots_only_and_options_are_checked() -> None:
    code, out = invoke("play", "baptisten", "--json")
    assert code != 0 and "--json" in out
    code, out = invoke("play", "baptisten", "--bots", "2")
    assert code != 0 and "--bots" in out
    code, out = invoke("play", "baptisten", "--bots", "4", "--deck", "tarot")
    assert code != 0 and "unknown deck" in out
    code, out = invoke("play", "baptisten", "--bots", "4", "--variants", "7")
    assert code != 0 and "unknown variant" in out
    code, out = invoke("play", "baptisten", "--bots", "4", "--max-cards", "30")
    assert code != 0 and "max_cards" in out
    code, out = invoke("play", "baptisten", "--lang", "fr")
    assert code != 0 and "--lang" in out


def test_bots_only_prints_rounds_sheet_and_ranking() -> None:
    code, out = invoke("play", "baptisten", "--bots", "4", "--seed", "2", "--max-cards", "4",
                       "--lang", "en", "-v")
    assert code == 0
    assert "Round 7 of 7" in out
    assert "Trick 1:" in out
    assert "Scoresheet" in out and "Final ranking" in out
    code, out = invoke("play", "baptisten", "--bots", "4", "--seed", "2", "--max-cards", "4")
    assert "Anschreibezettel" in out and "Endstand" in out and "Stich 1:" not in out


# --- the person at the table -------------------------------------------------------------


class AutoPerson:
    """A person who first types something wrong whenever there is something wrong to
    type (a hooked bid, a stake of 40 where it is not allowed, a card that does not
    follow suit), then what the heuristic bot would do, in the action's text form."""

    def __init__(self, mistakes: bool = True) -> None:
        self.bot = BaptistenHeuristicBot()
        self.rng = random.Random(0)
        self.session: BaptistenSession | None = None
        self.mistakes = mistakes
        self.pending: list[str] = []
        self.made: set[str] = set()
        self.refusals: list[str] = []  # the engine's refusals of the wrong input, rendered
        self.asked_in: BaptistenState | None = None

    def __call__(self, prompt: str) -> str:
        assert self.session is not None and self.session.asking is not None
        state = self.session.asking
        if state is not self.asked_in:
            self.asked_in = state
            self.pending = self.plan(state)
        return self.pending.pop(0)

    def plan(self, state: BaptistenState) -> list[str]:
        seat = state.to_move
        good = str(self.bot.choose(state.view(seat), self.rng))
        bad: list[str] = []
        if self.mistakes and state.phase.name == "BIDDING":
            hooked = state.hooked_bid()
            if hooked is not None:
                bad.append(f"{hooked} 5")
                self.made.add("hooked")
            if not state.rules.trick_scoring:
                if state.cards < 3:
                    bad.append("0 40")
                    self.made.add("forty_small")
                elif state.owed[seat] == 0:
                    bad.append("0 40")
                    self.made.add("forty_done")
                elif state.must_stake_40(seat):
                    bad.append("0 5")
                    self.made.add("forced")
        elif self.mistakes and not state.is_forehead_round:
            illegal = state.hands[seat] & ~state.legal_cards()
            if illegal:
                bad.append(state.deck.cards[illegal.bit_length() - 1].code)
                self.made.add("follow")
        for text in bad:
            self.refusals.append(self.refusal(state, text))
        return [*bad, good]

    def refusal(self, state: BaptistenState, text: str) -> str:
        """The line the person must be shown for ``text``: the engine's refusal in the
        session's language, cards named as on the screen."""
        assert self.session is not None
        action = state.parse_action(text if " " not in text else "bid " + text.replace(
            " ", " stake ", 1))
        with pytest.raises(StichError) as e:
            state.apply(action)
        lang = self.session.opts.lang
        reason = e.value.text(lang, self.session.namer, you=0)
        return Translator(lang)("not_allowed", reason=reason)


def run_session(rules: BaptistenRules, lang: str, seed: int,
                mistakes: bool = True) -> tuple[BaptistenSession, AutoPerson, str]:
    person = AutoPerson(mistakes)
    console = Console(record=True, width=120, file=io.StringIO())
    session = BaptistenSession(BaptistenOptions(rules=rules, seed=seed, lang=lang),
                               console, person)
    person.session = session
    session.run()
    return session, person, console.export_text()


def test_scripted_person_with_bad_inputs_sees_messages() -> None:
    session, person, text = run_session(BaptistenRules(players=4, max_cards=6), "de", 3)
    assert session.state.is_over
    assert "Traceback" not in text
    assert {"hooked", "forty_small", "follow"} <= person.made
    assert person.made & {"forty_done", "forced"}
    # every wrong input got the engine's refusal, in the person's language
    flat = " ".join(text.split())
    assert person.refusals
    for refusal in person.refusals:
        assert " ".join(refusal.split()) in flat
    assert "Anschreibezettel" in text and "Endstand" in text
    assert "Noch zu setzende 40er" in text


@pytest.mark.parametrize(("rules", "lang"), [
    (BaptistenRules(players=3, max_cards=5, forehead=True, must_overtrump=True), "en"),
    (BaptistenRules(players=5, max_cards=4, trick_scoring=True, hook_always=True), "de"),
    (BaptistenRules(players=4, max_cards=11, deck="romme-double-joker"), "en"),
])
def test_whole_games_with_a_typing_person(rules: BaptistenRules, lang: str) -> None:
    session, _, text = run_session(rules, lang, 7)
    assert session.state.is_over
    assert len(session.state.sheet) == len(rules.schedule())
    assert "Traceback" not in text
    assert ("Final ranking" if lang == "en" else "Endstand") in text
    if rules.forehead:
        assert "Forehead round" in text


def test_forced_40_shown_and_required() -> None:
    """A person who never stakes 40 gets it entered by force at the end."""
    rules = BaptistenRules(players=3, max_cards=4)

    class Stubborn(AutoPerson):
        def plan(self, state: BaptistenState) -> list[str]:
            if state.phase.name == "BIDDING":
                hooked = state.hooked_bid()
                t = next(x for x in range(state.cards + 1) if x != hooked)
                if not state.must_stake_40(state.to_move):
                    return [f"{t} 3"]
                self.made.add("forced")
                return [f"{t} 5", f"{t}"]  # the stake defaults to the forced 40
            return super().plan(state)

    person = Stubborn(mistakes=False)
    console = Console(record=True, width=120, file=io.StringIO())
    session = BaptistenSession(BaptistenOptions(rules=rules, seed=1, lang="en"), console,
                               person)
    person.session = session
    session.run()
    text = console.export_text()
    assert "forced" in person.made
    assert "your stake is 40" in text
    assert "40!" in text  # the forced 40 on the scoresheet
    assert all(rr.forced[0] for rr in session.state.sheet if rr.stakes[0] == 40)


def test_piped_person_bad_input_eof_and_quit() -> None:
    script = "\n".join(["?", "foo", "3 5", "1", "0 40", "0 25", "0 5"]) + "\n"
    code, out = invoke("play", "baptisten", "--seed", "1", "--max-cards", "3",
                       "--players", "3", "--lang", "en", input=script)
    assert code == 0
    assert "Traceback" not in out
    assert "Allowed: Bids: 0–1 tricks" in out
    assert "I do not understand 'foo'" in out
    # the engine's refusals of "3 5", "1", "0 40" and "0 25", each in one line
    opts = BaptistenOptions(rules=BaptistenRules(players=3, max_cards=3), seed=1, lang="en")
    session = BaptistenSession(opts, Console(file=io.StringIO()), lambda p: "")
    state = session.state
    assert state.to_move == 0
    for bid in (BBid(3, 5), BBid(1, None), BBid(0, 40), BBid(0, 25)):
        with pytest.raises(IllegalActionError) as e:
            state.apply(bid)
        assert "Not allowed: " + e.value.text("en", session.namer, you=0) in " ".join(
            out.split())
    assert "End of input" in out
    code, out = invoke("play", "baptisten", "--seed", "1", "--name", "Ann", input="quit\n")
    assert code == 0 and "Tschüss!" in out


def test_pipe_in_a_real_process() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", "from stich.cli import main; main()", "play", "baptisten",
         "--seed", "1", "--players", "3", "--max-cards", "3"],
        input="foo\n0 5\n1\n1\n", capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr
    assert "Das verstehe ich nicht" in proc.stdout


def test_help() -> None:
    code, out = invoke("play", "baptisten", "--help")
    assert code == 0
    for option in ("--players", "--max-cards", "--deck", "--variants", "--seed", "--lang",
                   "--bots", "--bot", "--json", "--name"):
        assert option in out
    code, out = invoke("play", "--help")
    assert "baptisten" in out


# --- reading input and rendering ---------------------------------------------------------


def _play_state(rules: BaptistenRules, seed: int, round_no: int) -> BaptistenState:
    bot = BaptistenHeuristicBot()
    rng = random.Random(0)
    s = BaptistenState.new(rules, seed=seed)
    while s.round_no < round_no or s.phase.name != "PLAY":
        s = s.apply(bot.choose(s.view(s.to_move), rng))
    return s


def test_interpret_bids_and_cards() -> None:
    tr = Translator("en")
    s = BaptistenState.new(BaptistenRules(players=3, max_cards=4), seed=2)
    v = s.view(s.to_move)
    for text in ("1 5", "1/5", "bid 1 stake 5", "Ansage 1 Einsatz 5", "1:5"):
        assert interpret(text, v, [], tr) == BBid(1, 5)
    assert interpret("1", v, [], tr) == BBid(1, None)  # the engine asks for the stake
    with pytest.raises(IllegalActionError):
        s.apply(BBid(1, None))
    with pytest.raises(InputProblem, match="A bid is"):
        interpret("two", v, [], tr)
    s = _play_state(BaptistenRules(players=3, max_cards=4), 2, 3)
    v = s.view(s.to_move)
    hand = sort_hand(s.hands[s.to_move], s.deck, s.trump)
    legal = [c for c in hand if s.legal_cards() & c.bit]
    first = legal[0]
    assert interpret(str(hand.index(first) + 1), v, hand, tr) is first
    assert interpret(first.code, v, hand, tr) is first
    assert interpret(first.german, v, hand, tr) is first
    assert interpret(f"play {first.english}", v, hand, tr) is first
    with pytest.raises(InputProblem, match="no card number 9"):
        interpret("9", v, hand, tr)
    with pytest.raises(InputProblem, match="Now a card"):
        interpret("1 5", v, hand, tr)
    other = next(c for c in s.deck.cards if not s.hands[s.to_move] & c.bit)
    assert interpret(other.code, v, hand, tr) == other  # the engine refuses it
    with pytest.raises(IllegalActionError):
        s.apply(other)


def test_a_forced_40_need_not_be_typed() -> None:
    rules = BaptistenRules(players=3, max_cards=4)
    rng = random.Random(1)
    s = BaptistenState.new(rules, seed=1)
    while not (s.phase.name == "BIDDING" and s.must_stake_40(s.to_move)):
        legal = [a for a in s.legal_actions() if not isinstance(a, BBid) or a.stake != 40]
        s = s.apply(rng.choice(legal))
    v = s.view(s.to_move)
    hooked = s.hooked_bid()
    t = next(x for x in range(s.cards + 1) if x != hooked)
    assert interpret(str(t), v, [], Translator("de")) == BBid(t, 40)


def test_interpret_forehead_play() -> None:
    rules = BaptistenRules(players=3, max_cards=3, forehead=True)
    bot = BaptistenHeuristicBot()
    s = BaptistenState.new(rules, seed=1)
    while s.phase.name != "PLAY":
        s = s.apply(bot.choose(s.view(s.to_move), random.Random(0)))
    tr = Translator("de")
    v = s.view(s.to_move)
    assert interpret("play", v, [], tr) is FOREHEAD_PLAY
    assert interpret("spielen", v, [], tr) is FOREHEAD_PLAY
    with pytest.raises(InputProblem, match="Stirnrunde"):
        interpret("R5", v, [], tr)


def test_scoresheet_table_marks_forced_forties_and_fits() -> None:
    s = BaptistenState.new(BaptistenRules(players=3, max_cards=4), seed=1)
    rng = random.Random(1)
    while not s.is_over:  # random bids: the 40s come late, by force
        s = s.apply(rng.choice(s.legal_actions()))
    assert any(any(rr.forced) for rr in s.sheet)
    style = PlainStyle(s.deck, Translator("en"))
    for width in (80, 50):
        console = Console(record=True, width=width, file=io.StringIO())
        console.print(scoresheet(s.sheet, ["Ann", "Kurt", "Helga"], style, width=width))
        text = console.export_text()
        assert "40!" in text and "Scoresheet" in text
        assert max(len(line.rstrip()) for line in text.splitlines()) <= width


def test_texts_exist_in_both_languages() -> None:
    assert set(TEXTS["de"]) == set(TEXTS["en"])
