"""Revolution and Schenken at the terminal (issue 42): the questions, the partner's
cards a defender sees, what the person types, the narration and the result, in German
and English; the declarer never sees which cards the defenders gave each other."""

from __future__ import annotations

from typing import Any

import pytest

from stich.cards import Card
from stich.cli.i18n import TEXTS, Translator
from stich.cli.play_skat import PlayOptions
from stich.cli.skat_input import InputProblem, interpret
from stich.skat import SkatRules, SkatState
from stich.skat.actions import ACCEPT, PASS, SCHENKEN, Give, parse_action
from tests.cli.harness import Capture, ScriptedSkat

RULES = "skat(preset=lothar,revolution=yes,schenken=yes)"


def _bots(declare: str, bid: bool) -> Any:
    """The bots: bid 18 when ``bid`` (a held bid is passed), play Hand, declare
    ``declare``, agree to a Schenken and accept it, never offer one; give two cards or
    as many as asked; else the first legal card."""
    def policy(view: Any, seat: int) -> Any:
        legal = [str(a) for a in view.legal_actions]
        for text in (declare, "hand", "accept"):
            if text in legal:
                return parse_action(text)
        if view.gift_pending == 1:
            return SCHENKEN
        if view.phase == "BIDDING":
            return parse_action("18" if bid and "18" in legal and "hold" not in legal
                                else "pass")
        gives = [a for a in view.legal_actions if isinstance(a, Give)]
        if gives:
            return next((a for a in gives if a.cards.bit_count() == 2), gives[0])
        return next(a for a in view.legal_actions if isinstance(a, Card))
    return policy


def _run(lang: str, declare: str, person: Any, *, bots_bid: bool, seed: int = 3
         ) -> tuple[ScriptedSkat, Capture]:
    capture = Capture(answer=person)
    opts = PlayOptions(rules=SkatRules.parse(RULES), seed=seed, games=1, lang=lang,
                       cards="german")
    session = ScriptedSkat(opts, capture, width=110, height=60,
                           policy=_bots(declare, bots_bid))
    session.run()
    return session, capture


def _view(session: ScriptedSkat) -> Any:
    asked = session.asking_now()
    assert asked is not None
    state, seat = asked
    return state.view(seat)


def _card(view: Any) -> str:
    return str(next(a for a in view.legal_actions if isinstance(a, Card)))


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_defender_sees_the_partners_cards_and_gives_by_typing(lang: str) -> None:
    gave: list[str] = []
    partner_seen: list[bool] = []

    def person(session: ScriptedSkat, prompt: str) -> str:
        v = _view(session)
        if v.phase == "BIDDING":
            return "passe" if lang == "de" else "pass"
        gives = [a for a in v.legal_actions if isinstance(a, Give)]
        partner_seen.append(bool(v.partner_hand))
        if gives:
            first = len({a.cards.bit_count() for a in gives}) > 1
            pick = next(a for a in gives if a.cards.bit_count() == (2 if first else
                                                                   gives[0].cards.bit_count()))
            gave.append(str(pick))
            return str(pick).replace("give", "geben" if lang == "de" else "give")
        return _card(v)

    session, capture = _run(lang, "declare null hand ouvert revolution", person,
                            bots_bid=True)
    assert gave and all(partner_seen)
    t = TEXTS[lang]
    text = "\n".join(capture.screens)
    at_give = [s for s in capture.screens if "Revolution:" in s]
    assert len(at_give) == 1  # the one question of the give
    partner_word = "Karten von " if lang == "de" else "'s cards: "
    assert partner_word in at_give[0]
    first = t["q_give_first"].split("{name}")[0]
    back = t["q_give_back"].split("{name}")[0]
    assert (first in at_give[0]) != (back in at_give[0]) or first == back
    # the narration: the defenders' gives, with their cards (this seat is a defender)
    gives_word = t["gives_cards"].split("{name}")[1].split("{cards}")[0]
    assert text.count(gives_word) + text.count(t["gives_none"].split("{name}")[1]) >= 1
    final = session.final
    assert final is not None and final.outcome().revolution
    assert "Revolution" in session.console.export_text()  # the result says it


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_declarer_of_a_revolution_sees_no_given_card(lang: str) -> None:
    def person(session: ScriptedSkat, prompt: str) -> str:
        v = _view(session)
        legal = [str(a) for a in v.legal_actions]
        for text in ("18", "hand", "declare null hand ouvert revolution"):
            if text in legal:
                return text
        if v.phase == "BIDDING":
            return "pass"
        assert not v.partner_hand
        return _card(v)

    session, capture = _run(lang, "", person, bots_bid=False, seed=5)
    final = session.final
    assert final is not None and final.outcome().revolution
    t = TEXTS[lang]
    text = "\n".join(capture.screens)
    hidden = t["gives_hidden"].split("{name}")[1]
    assert text.count(hidden) >= 2  # both gives told, neither with its cards
    told = [line for line in text.splitlines()
            if t["gives_cards"].split("{cards}")[0].split("{name}")[1] in line]
    assert told and all(line.rstrip().endswith(hidden) for line in told), told
    assert t["partner_cards"].replace("{name}", "").split("{cards}")[0] not in text


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_defender_offers_schenken_and_the_declarer_accepts(lang: str) -> None:
    said: list[str] = []

    def person(session: ScriptedSkat, prompt: str) -> str:
        v = _view(session)
        if v.phase == "BIDDING":
            return "pass"
        if SCHENKEN in v.legal_actions and not said:
            said.append("schenken")
            return "schenken"
        return _card(v)

    session, capture = _run(lang, "declare grand hand", person, bots_bid=True)
    assert said == ["schenken"]
    final = session.final
    assert final is not None
    o = final.outcome()
    assert o.gift_accepted and o.won and o.gift == 0
    t = TEXTS[lang]
    text = "\n".join(capture.screens) + session.console.export_text()
    assert any("schenken" in s for s in capture.screens)  # offered among the words
    assert t["offers_gift"].replace("{name}", "").strip(": ") in text
    assert t["agrees_gift"].replace("{name}", "").strip(": ") in text
    assert t["accepts_gift"].replace("{name}", "").strip(": ") in text
    assert t["result_gift"] in text


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_declarer_is_asked_to_accept_and_plays_on(lang: str) -> None:
    asked: list[str] = []

    def person(session: ScriptedSkat, prompt: str) -> str:
        v = _view(session)
        legal = [str(a) for a in v.legal_actions]
        for text in ("18", "hand", "declare grand hand"):
            if text in legal:
                return text
        if v.phase == "BIDDING":
            return "pass"
        if ACCEPT in v.legal_actions:
            asked.append(capture.screens[-1])
            return "weiter" if lang == "de" else "play on"
        return _card(v)

    def bots(view: Any, seat: int) -> Any:
        if view.phase == "BIDDING":
            return PASS
        if SCHENKEN in view.legal_actions and not view.gift:
            return SCHENKEN  # offer, and agree, once
        return next(a for a in view.legal_actions if isinstance(a, Card))

    capture = Capture(answer=person)
    opts = PlayOptions(rules=SkatRules.parse(RULES), seed=4, games=1, lang=lang,
                       cards="german")
    session = ScriptedSkat(opts, capture, width=110, height=60, policy=bots)
    session.run()
    assert len(asked) == 1
    t = TEXTS[lang]
    assert t["q_gift_accept"].split("(")[0].strip() in asked[0]
    final = session.final
    assert final is not None and final.outcome().gift == 1
    text = "\n".join(capture.screens) + session.console.export_text()
    assert t["plays_on_gift"].replace("{name}", "").split("(")[0].strip(": ") in text


def test_reading_a_give() -> None:
    tr = Translator("de")
    st = SkatState.new(SkatRules.parse(RULES), seed=11)
    bots = _bots("declare null hand ouvert revolution", True)
    while not any(isinstance(a, Give) for a in st.legal_actions()):
        st = st.apply(bots(st.view(st.to_move), st.to_move))
    v = st.view(st.to_move)
    assert interpret("give", v, [], tr) == Give(0)
    assert interpret("geben nichts", v, [], tr) == Give(0)
    two = next(a for a in v.legal_actions if isinstance(a, Give) and a.cards.bit_count() == 2)
    assert interpret(str(two), v, [], tr) == two
    numbers = [c for c in (Card.parse(x) for x in str(two).split()[1:])]
    assert interpret("gib 1 2", v, numbers, tr) == two  # by the listing's numbers
    with pytest.raises(InputProblem):
        interpret("give XY", v, [], tr)
