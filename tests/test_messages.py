"""The message catalogue and the refusals that use it.

- Every catalogue entry has an English and a German text with the same parameters in
  every form; a form addressing the reader (``_you``) exists only where there is a seat.
- Every refusal raised in the engines, the analysis and ``stich analyze``/``stich solve``
  passes a literal code from the catalogue and every parameter its texts use (an AST scan
  of the sources); no plain ``ValueError`` is left in the engines.
- Random illegal actions tried at random points of random Skat games (both presets) and
  Baptistenskat games are refused with a code from the catalogue, whose text renders in
  English and German, for the player and for an onlooker, and reads differently in the
  two languages unless the text is language-neutral.
- ``docs/messages.md`` lists every code.
"""

from __future__ import annotations

import ast
import random
import re
import string
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stich.baptisten import FOREHEAD_PLAY, BaptistenRules, BaptistenState, BBid
from stich.cards import CARDS
from stich.core import IllegalActionError
from stich.messages import (
    CATALOGUE,
    LANGS,
    Cards,
    GameName,
    Msg,
    Seat,
    StichError,
    SuitName,
    _load,
    placeholders,
    render,
)
from stich.messages.listing import BEGIN, END, markdown
from stich.skat import HAND, HOLD, PASS, PICKUP, Bid, Declare, Discard, GameType, SkatState
from stich.skat.rules import SkatRules

_load()

SRC = Path(__file__).resolve().parents[1] / "src" / "stich"
DOC = Path(__file__).resolve().parents[1] / "docs" / "messages.md"

# The engines, the records and the ISS reader: no plain ValueError left in them.
ENGINE_FILES = sorted(
    [SRC / "cards.py", SRC / "core.py", SRC / "skat_list.py", *SRC.glob("record*.py")]
    + list((SRC / "skat").glob("*.py"))
    + list((SRC / "baptisten").glob("*.py"))
    + list((SRC / "bots").glob("*.py"))
)
# Every module that raises or renders messages: the whole package but the catalogues.
AREA_FILES = sorted(p for p in SRC.rglob("*.py") if p.parent.name != "messages")
CATALOGUE_MODULES = tuple(sorted(p.stem for p in (SRC / "messages").glob("*.py")
                                 if p.stem not in ("__init__", "listing")))
ERRORS = {"StichError", "IllegalActionError", "RecordError", "RulesError", "ArgumentError",
          "CardError", "AnalysisError", "IssError"}
FORMS = ("en", "en_you", "de", "de_you")
NEUTRAL = {"text", "plural"}  # the same text in every language by design


# --- the catalogue ------------------------------------------------------------------------


def test_every_entry_has_english_and_german_with_the_same_parameters() -> None:
    for code, texts in CATALOGUE.items():
        assert set(texts) <= set(FORMS), code
        assert "en" in texts and "de" in texts, code
        base = placeholders(texts["en"])
        assert placeholders(texts["de"]) == base, code
        for form in ("en_you", "de_you"):
            if form in texts:  # may leave out the seat it addresses, nothing else
                assert placeholders(texts[form]) - {"seat"} == base - {"seat"}, (code, form)


def test_you_forms_only_with_a_seat_and_in_both_languages() -> None:
    with_you = [code for code, texts in CATALOGUE.items() if "en_you" in texts]
    assert len(with_you) >= 15
    for code, texts in CATALOGUE.items():
        if "en_you" in texts or "de_you" in texts:
            assert "seat" in placeholders(texts["en"]), code
            assert "en_you" in texts and "de_you" in texts, code


def test_codes_are_dotted_by_area() -> None:
    for code in CATALOGUE:
        assert code in NEUTRAL or re.fullmatch(r"[a-z0-9_]+(\.[a-z0-9_]+)+", code), code


def test_plural_forms_are_well_formed_and_german_has_no_bracketed_endings() -> None:
    for code, texts in CATALOGUE.items():
        for form, template in texts.items():
            for _, _, spec, _ in string.Formatter().parse(template):
                if spec and spec.startswith("plural:"):
                    assert spec.count("|") == 1, (code, form, spec)
            assert not re.search(r"\w\((e|n|s|en|er)\)", template), (code, form, template)


def _names(template: str) -> set[str]:
    """The placeholders of a template, those inside a format spec included."""
    out = set()
    for _, name, spec, _ in string.Formatter().parse(template):
        if name:
            out.add(name)
        if spec:
            out |= _names(spec)
    return out


def _sample(code: str) -> dict[str, Any]:
    """Parameters for every placeholder of ``code``: a seat for ``seat``, else numbers."""
    names = set().union(*(_names(t) for t in CATALOGUE[code].values()))
    return {n: Seat(1) if n == "seat" else 2 for n in names}


def test_every_entry_renders_in_both_languages_for_the_player_and_others() -> None:
    for code in CATALOGUE:
        params = _sample(code)
        for lang in LANGS:
            for you in (None, 1, 0):
                assert render(code, params, lang, you=you).strip(), (code, lang, you)


def test_the_you_form_is_chosen_only_for_the_readers_own_seat() -> None:
    params = {"seat": Seat(2), "cards": Cards(CARDS[0].bit)}
    assert render("skat.not_held", params, "de") == "Hinterhand hat D7 nicht"
    assert render("skat.not_held", params, "de", you=2) == "Du hast D7 nicht"
    assert render("skat.not_held", params, "de", you=0) == "Hinterhand hat D7 nicht"
    assert render("skat.not_held", params, "en", you=2) == "you do not hold D7"


# --- the raise sites ----------------------------------------------------------------------


def _calls(path: Path) -> Iterator[tuple[str, ast.Call]]:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(
                f, ast.Attribute) else ""
            yield name, node


def _template_names(code: str) -> set[str]:
    return set().union(*(placeholders(t) for t in CATALOGUE[code].values())) - set()


def test_every_refusal_uses_a_literal_code_with_its_parameters() -> None:
    seen = 0
    for path in AREA_FILES:
        for name, call in _calls(path):
            if name not in ERRORS:
                continue
            where = f"{path.relative_to(SRC)}:{call.lineno}"
            assert call.args, where
            if isinstance(call.args[0], ast.Name) and call.args[0].id == "code":
                continue  # a helper building the error for literal codes its callers pass
            assert isinstance(call.args[0], ast.Constant), where
            code = call.args[0].value
            assert isinstance(code, str) and code in CATALOGUE, (where, code)
            given_names = {k.arg for k in call.keywords}
            assert None not in given_names, where  # no **params: the names are checked
            need = _template_names(code)
            # a _you form may leave out the seat, the others name it: all are given
            assert need <= given_names, (where, code, need - given_names)
            seen += 1
    assert seen >= 120


def test_every_nested_message_uses_a_known_code_with_its_parameters() -> None:
    for path in AREA_FILES:
        for name, call in _calls(path):
            if name != "Msg" or not call.args or not isinstance(call.args[0], ast.Constant):
                continue
            code = call.args[0].value
            assert code in CATALOGUE, (path.name, call.lineno, code)
            if len(call.args) > 1 and isinstance(call.args[1], ast.Dict):
                keys = {k.value for k in call.args[1].keys if isinstance(k, ast.Constant)}
                assert _template_names(code) <= keys, (path.name, call.lineno)


def test_no_plain_value_error_is_left_in_the_engines() -> None:
    for path in ENGINE_FILES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                f = node.exc.func
                assert not (isinstance(f, ast.Name) and f.id == "ValueError"), (
                    f"{path.relative_to(SRC)}:{node.lineno}")


def _defined_codes(module: str) -> set[str]:
    tree = ast.parse((SRC / "messages" / f"{module}.py").read_text(encoding="utf-8"))
    codes: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "define":
            (entries,) = node.args
            assert isinstance(entries, ast.Dict)
            codes |= {k.value for k in entries.keys if isinstance(k, ast.Constant)}
    return codes


def test_every_code_of_these_catalogues_is_used_somewhere() -> None:
    literals: set[str] = set()
    prefixes: set[str] = set()
    for path in SRC.rglob("*.py"):
        if path.parent.name == "messages":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                literals.add(node.value)
            elif isinstance(node, ast.JoinedStr) and node.values \
                    and isinstance(node.values[0], ast.Constant):  # f"iss.field.{name}"
                prefixes.add(str(node.values[0].value))
    for module in CATALOGUE_MODULES:
        unused = {code for code in _defined_codes(module) - literals - NEUTRAL
                  if not any(code.startswith(p) for p in prefixes if p.count(".") >= 2)}
        assert not unused, (module, sorted(unused))


# --- random illegal actions in random games -----------------------------------------------


def _nested_codes(params: dict[str, Any]) -> Iterator[str]:
    for value in params.values():
        if isinstance(value, Msg):
            yield value.code
            yield from _nested_codes(dict(value.params))


def check_refusal(e: StichError, player: int, seen: set[str]) -> None:
    """A refusal has a code from the catalogue (no free text, nor inside it) and renders in
    both languages for the player and for an onlooker, differently in the two languages
    unless the text is the same by design."""
    assert e.code in CATALOGUE and e.code not in NEUTRAL, (e.code, str(e))
    assert not set(_nested_codes(e.params)) & NEUTRAL, e.params
    seen.add(e.code)
    texts = CATALOGUE[e.code]
    seat = e.params.get("seat")
    if seat is not None:
        assert isinstance(seat, Seat)
    for you in (None, player):
        own = seat is not None and you == seat.seat
        rendered = {}
        forms = {}
        for lang in LANGS:
            forms[lang] = f"{lang}_you" if own and f"{lang}_you" in texts else lang
            rendered[lang] = e.text(lang, you=you)
            assert rendered[lang].strip()
        if texts[forms["en"]] != texts[forms["de"]]:
            assert rendered["en"] != rendered["de"], (e.code, rendered["en"])
    assert str(e) == e.text("en")


BIDS = (0, 1, 17, 18, 19, 20, 22, 23, 27, 30, 59, 60, 100, 216, 240, 264, 300)
DECLARES = tuple(Declare(g, h, sch, schw, o) for g in GameType for h in (False, True)
                 for sch in (False, True) for schw in (False, True) for o in (False, True))
SKAT_TEXTS = ("", "   ", "declare", "declare bierlachs", "declare grand nonsense",
              "declare ramsch", "discard", "discard CJ", "discard CJ CJ", "discard XX YY",
              "XZ", "Eichel Zwölf", "hold on", "18 20", "ja", "spiel null hand ouvert",
              "drücken SA ST", "declare herz hand schwarz", "CJ", "pass", "hand")


def skat_candidate(rnd: random.Random) -> Any:
    """A random action object or action text, most of them illegal in most states."""
    kind = rnd.randrange(8)
    if kind == 0:
        return Bid(rnd.choice(BIDS))
    if kind == 1:
        return rnd.choice((PASS, HOLD, HAND, PICKUP))
    if kind == 2:
        a, b = rnd.sample(range(32), 2)
        return Discard(1 << a | 1 << b)
    if kind == 3:
        return rnd.choice(DECLARES)
    if kind in (4, 5):
        return CARDS[rnd.randrange(32)]
    return rnd.choice(SKAT_TEXTS)


def try_skat(s: SkatState, candidate: Any, seen: set[str]) -> None:
    """Apply ``candidate`` (an action or its text) to ``s`` when it is not legal: it must
    be refused with a good message."""
    player = max(s.to_move, 0)
    try:
        action = s.parse_action(candidate) if isinstance(candidate, str) else candidate
    except IllegalActionError as e:
        check_refusal(e, player, seen)
        return
    if action in s.legal_actions():
        return
    with pytest.raises(IllegalActionError) as info:
        s.apply(action)
    check_refusal(info.value, player, seen)


def walk_skat(rules: SkatRules, seed: int, rnd: random.Random, seen: set[str]) -> None:
    s = SkatState.new(rules, seed=seed)
    with pytest.raises(IllegalActionError) as info:
        s.outcome()
    check_refusal(info.value, 0, seen)
    while not s.is_over:
        if rnd.random() < 0.6:
            for _ in range(3):
                try_skat(s, skat_candidate(rnd), seen)
        legal = s.legal_actions()
        # pass readily in the auction now and then, so that Ramsch and redeals occur
        passes = PASS in legal and rnd.random() < 0.3
        s = s.apply(PASS if passes else rnd.choice(legal))
    try_skat(s, skat_candidate(rnd), seen)


def baptisten_rules(rnd: random.Random) -> BaptistenRules:
    deck = rnd.choice(("elferraus", "skat", "skat-double", "romme-double-joker"))
    players = rnd.randint(3, 4 if deck == "skat" else 5)
    variants = {v for v in (2, 3, 4, 5) if rnd.random() < 0.4}
    return BaptistenRules(deck=deck, players=players, max_cards=rnd.randint(1, 4),
                          forehead=2 in variants, trick_scoring=3 in variants,
                          hook_always=4 in variants, must_overtrump=5 in variants)


BAPTISTEN_TEXTS = ("", "  ", "play", "bid", "bid x", "bid 2 stake", "bid 1 stake 5",
                   "3/40", "R99", "banana", "JK", "HA", "R1", "bid 0", "1 21")


def baptisten_candidate(s: BaptistenState, rnd: random.Random) -> Any:
    kind = rnd.randrange(6)
    if kind == 0:
        return BBid(rnd.randint(-1, s.cards + 2),
                    rnd.choice((None, 0, 1, 5, 20, 21, 39, 40, 41)))
    if kind in (1, 2):
        return s.deck.cards[rnd.randrange(s.deck.size)]
    if kind == 3:
        return FOREHEAD_PLAY
    return rnd.choice(BAPTISTEN_TEXTS)


def try_baptisten(s: BaptistenState, candidate: Any, seen: set[str]) -> None:
    player = max(s.to_move, 0)
    try:
        action = s.parse_action(candidate) if isinstance(candidate, str) else candidate
    except IllegalActionError as e:
        check_refusal(e, player, seen)
        return
    legal = s.legal_actions()
    if action in legal:
        return
    if s.phase.name == "PLAY":
        if action is FOREHEAD_PLAY and s.is_forehead_round:
            return  # playing the unseen card: allowed in a forehead round
        kinds = {c.kind for c in legal}
        if getattr(action, "kind", None) in kinds:
            return  # the other copy of a card the player may play: the same card
    with pytest.raises(IllegalActionError) as info:
        s.apply(action)
    check_refusal(info.value, player, seen)


def walk_baptisten(rules: BaptistenRules, seed: int, rnd: random.Random,
                   seen: set[str]) -> None:
    s = BaptistenState.new(rules, seed=seed, first=rnd.randrange(rules.players))
    with pytest.raises(IllegalActionError) as info:
        s.outcome()
    check_refusal(info.value, 0, seen)
    while not s.is_over:
        if rnd.random() < 0.5:
            for _ in range(3):
                try_baptisten(s, baptisten_candidate(s, rnd), seen)
        s = s.apply(rnd.choice(s.legal_actions()))
    try_baptisten(s, baptisten_candidate(s, rnd), seen)


SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(st.sampled_from(("lothar", "isko")), st.integers(0, 2**32 - 1),
       st.integers(0, 2**32 - 1))
def test_random_illegal_skat_actions_are_refused_with_codes(preset: str, seed: int,
                                                            choices: int) -> None:
    walk_skat(SkatRules.preset(preset), seed, random.Random(choices), set())


@SETTINGS
@given(st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1))
def test_random_illegal_baptisten_actions_are_refused_with_codes(seed: int,
                                                                 choices: int) -> None:
    rnd = random.Random(choices)
    walk_baptisten(baptisten_rules(rnd), seed, rnd, set())


def test_the_random_tries_meet_the_common_refusals() -> None:
    """The random tries above are not vacuous: over a few fixed games they meet the
    refusals a player meets most."""
    seen: set[str] = set()
    for n in range(40):
        rnd = random.Random(n)
        walk_skat(SkatRules.preset(("lothar", "isko")[n % 2]), n, rnd, seen)
        walk_baptisten(baptisten_rules(rnd), n, rnd, seen)
    expected = {
        "game.over", "game.not_over", "game.empty_action", "game.unreadable_action",
        "game.play_a_card", "skat.must_follow", "skat.not_held", "skat.next_bid",
        "skat.answer_hold_or_pass", "skat.say_or_pass", "skat.not_a_game_value",
        "skat.hand_or_pickup", "skat.discard_two", "skat.discard_not_held",
        "skat.declare_a_game", "skat.no_hand_after_pickup", "skat.hand_declare",
        "skat.ramsch_not_declared", "skat.bid_above",
        "baptisten.bid_now", "baptisten.not_held", "baptisten.must_follow",
        "baptisten.bid_range", "baptisten.stake_range", "baptisten.stake_missing",
        "baptisten.forehead_only", "baptisten.unreadable_bid",
    }
    assert expected <= seen, sorted(expected - seen)


# --- other refusals: seats, exports ----------------------------------------------------------


def test_a_view_of_a_seat_that_does_not_exist() -> None:
    with pytest.raises(StichError) as e:
        SkatState.new(seed=1).view(3)
    assert e.value.code == "game.bad_seat" and str(e.value) == "seat must be 0..2, not 3"
    assert e.value.text("de") == "Der Platz muss 0..2 sein, nicht 3"
    with pytest.raises(StichError) as e:
        BaptistenState.new(BaptistenRules(), seed=1).view(4)
    assert e.value.params == {"last": 3, "given": 4}


def test_iss_export_refusals() -> None:
    from stich.skat.iss_write import export_iss

    isko = SkatRules.preset("isko")
    with pytest.raises(StichError) as e:
        export_iss(SkatState.new(isko, seed=1), ["a", "b", "c"])
    assert e.value.code == "game.not_over"
    s = SkatState.new(isko, seed=1)
    rnd = random.Random(1)
    while not s.is_over:
        s = s.apply(rnd.choice(s.legal_actions()))
    with pytest.raises(StichError) as e:
        export_iss(s, ["a", "b"])
    assert e.value.code == "skat.export.players" and e.value.params == {"n": 2}
    with pytest.raises(StichError) as e:
        export_iss(s, ["a b", "b", "c"])
    assert e.value.code == "skat.export.player_name"
    assert e.value.text("de") == ("Der Spielername „a b“ lässt sich nicht schreiben (keine "
                                  "Leerzeichen oder Klammern)")
    with pytest.raises(StichError) as e:
        export_iss(SkatState.new(seed=1), ["a", "b", "c"])
    assert e.value.code == "skat.export.not_isko"


def test_rule_strings_are_refused_by_code() -> None:
    cases = {
        "skat(preset=x)": "rules.unknown_preset",
        "whist": "rules.not_a_rule_string",
        "skat(all_pass)": "rules.option_needs_value",
        "skat(colour=red)": "rules.unknown_option",
        "skat(bidding_jumps=maybe)": "rules.option_yes_no",
        "skat(all_pass=later)": "rules.option_choice",
        "skat(kontra_re=maybe)": "rules.option_choice",
        "skat(bock=sometimes)": "rules.option_choice",
        "skat(bock_games=three)": "rules.option_number",
        "skat(bock_games=13)": "rules.option_range",
    }
    for text, code in cases.items():
        with pytest.raises(StichError) as e:
            SkatRules.parse(text)
        assert e.value.code == code, text
        assert e.value.text("de") != str(e.value)
    with pytest.raises(StichError) as e:
        SkatRules.parse("skat(all_pass=later)")
    assert str(e.value) == "all_pass must be one of ramsch, redeal, not 'later'"
    assert e.value.text("de") == "all_pass muss eines von ramsch, redeal sein, nicht „later“"


def test_the_seat_of_a_baptisten_table_of_three_is_no_skat_position() -> None:
    p = Seat(0, 3, named=False)
    assert render("baptisten.not_held", {"seat": p, "cards": Cards(1, "elferraus")},
                  "en") == "seat 1 does not hold R1"
    assert render("skat.not_held", {"seat": Seat(0), "cards": Cards(1)},
                  "en") == "Vorhand does not hold D7"


def test_typed_parameters_are_named_by_the_namer() -> None:
    class Shouting:
        def cards(self, c: Cards, lang: str) -> str:
            return "CARDS"

        def suit(self, s: SuitName, lang: str) -> str:
            return "SUIT"

        def game(self, g: GameName, lang: str) -> str:
            return "GAME"

        def seat(self, p: Seat, lang: str) -> str:
            return "ANN" if lang == "de" else "Ann"

    with pytest.raises(StichError) as e:
        SkatState.new(seed=1).apply(CARDS[0])  # bidding: a card is no bid
    namer = Shouting()
    assert e.value.text("de", namer) == "ANN reizt: einen Wert sagen oder passen, nicht „D7“"
    assert e.value.text("en", namer, you=1) == "you bid: say a value or pass, not D7"


# --- the documentation --------------------------------------------------------------------


def test_the_doc_lists_every_code() -> None:
    text = DOC.read_text(encoding="utf-8")
    listing = text.split(BEGIN, 1)[1].split(END, 1)[0]
    assert listing.strip() == markdown().strip(), (
        "docs/messages.md is out of date: run python -m stich.messages.listing "
        "docs/messages.md")
    for code in CATALOGUE:
        assert f"- `{code}` " in listing, code
