"""Reading what a person types at the Skat table into an engine action, from their view.

Accepted: bids as numbers, ``pass``/``passe``, ``hold``/``ja``; ``hand``/``pickup``
(``aufnehmen``); ``discard CJ HA`` (``drücken 3 7``, or just two cards); ``declare grand
hand`` (``grand``, ``spiel herz``, ``null ouvert``); a card by its number in the hand
listing, its ISS code (``SA``, ``HT`` or ``H10``) or its German, French or English name.

The reader knows only what the front end knows: the words, the numbers of the listing,
the legal actions of the view and the table's rules.  Whether an action is allowed is
the engine's to say; its refusal (a coded message) is shown in the person's language by
the session.  What the reader itself refuses is an :class:`InputProblem`: text it cannot
read, a number not in the listing, a discard of other than two cards, and a jump bid at
a table that bids strictly up the ladder.

>>> from stich.skat import SkatState
>>> from stich.cli.i18n import Translator
>>> v = SkatState.new(seed=7).view(1)
>>> str(interpret("18", v, [], Translator("en")))
'18'
>>> interpret("23", v, [], Translator("en"))
Traceback (most recent call last):
...
stich.cli.prompt.InputProblem: At this table the bids go strictly up the ladder: next is 18.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cache

from stich.cards import Card
from stich.cli.i18n import HAND_WORDS, HOLD_WORDS, PASS_WORDS, PICKUP_WORDS, Translator
from stich.cli.prompt import InputProblem
from stich.core import IllegalActionError
from stich.skat import (
    HAND,
    HOLD,
    PASS,
    PICKUP,
    Action,
    Bid,
    Declare,
    Discard,
    GameType,
    SkatRules,
)
from stich.skat.actions import GRAND_HAND, Give, Simple, parse_action
from stich.skat.rules import bidding_ladder
from stich.skat.view import SkatView

__all__ = ["InputProblem", "interpret", "options_text", "parse_card", "parse_cards_in"]

_DISCARD_WORDS = ("discard", "drücken", "druecken", "drücke", "druecke", "drück", "d")
_DECLARE_WORDS = ("declare", "spiel", "spiele", "ansage", "ansagen", "play", "game")
_PLAY_WORDS = ("play", "spiel", "spiele", "lege", "leg")
_GIVE_WORDS = ("give", "geben", "gib", "gebe")
_NONE_WORDS = ("nichts", "keine", "none", "nothing")
_PLAY_ON_WORDS = ("weiter", "weiterspielen", "play on", "spiel weiter")
_TEN = re.compile(r"([a-z])10")


def _simple(low: str) -> Action | None:
    """The word-only action ``low`` names (the engine's own words), else None."""
    try:
        action = parse_action(low)
    except IllegalActionError:
        return None
    return action if isinstance(action, Simple) else None


@cache
def _rules(text: str) -> SkatRules:
    return SkatRules.parse(text)


def interpret(text: str, view: SkatView, numbers: Sequence[Card], tr: Translator) -> Action:
    """The action ``text`` means for the seat of ``view`` (whose turn it is); ``numbers``
    are the cards as numbered in the hand listing (1 = the first)."""
    low = " ".join(text.strip().lower().split())
    phase = view.phase
    house = _simple(low)  # kontra, re, schieben, klopfen, claim, giveup: when offered
    if house is not None and (house in view.legal_actions or house in view.claims):
        return house
    if (low in PASS_WORDS or low in _PLAY_ON_WORDS) and PASS in view.legal_actions \
            and phase == "PLAY":
        return PASS  # no Re; Schenken: not agreeing, or playing on
    if phase == "PLAY" and any(isinstance(a, Give) for a in view.legal_actions):
        return _give(low, numbers, tr)  # a Revolution's give
    if phase == "BIDDING" and GRAND_HAND in view.legal_actions and "grand" in low.split():
        return GRAND_HAND  # a game of a Ramsch round
    if phase == "BIDDING":
        return _bid(low, text, view, tr)
    if phase == "SKAT":
        if low in HAND_WORDS:
            return HAND
        if low in PICKUP_WORDS:
            return PICKUP
    elif phase == "DISCARD":
        words = low.replace(",", " ").split()
        if words and words[0] in _DISCARD_WORDS:
            words = words[1:]
        cards = parse_cards_in(words, numbers, tr)
        mask = 0
        for c in cards:
            mask |= c.bit
        if len(cards) != 2 or mask.bit_count() != 2:
            raise InputProblem(tr("discard_two"))
        return Discard(mask)
    elif phase == "DECLARE":
        words = low.split()
        if words and words[0] in _DECLARE_WORDS:
            words = words[1:]
        if words:
            return _declaration(" ".join(words), text, view, tr)
    elif phase == "PLAY":
        words = low.split()
        if len(words) > 1 and words[0] in _PLAY_WORDS:
            words = words[1:]
        cards = parse_cards_in(words, numbers, tr)
        if len(cards) == 1:
            return cards[0]
    raise InputProblem(tr("bad_input", text=text.strip()))


def _give(low: str, numbers: Sequence[Card], tr: Translator) -> Give:
    """A Revolution's give: ``give 1 4`` (or the cards alone), ``give`` for none."""
    words = low.replace(",", " ").split()
    if words and words[0] in _GIVE_WORDS:
        words = words[1:]
    if not words or words[0] in _NONE_WORDS:
        return Give(0)
    mask = 0
    for c in parse_cards_in(words, numbers, tr):
        mask |= c.bit
    return Give(mask)


def _bid(low: str, text: str, view: SkatView, tr: Translator) -> Action:
    if low in PASS_WORDS:
        return PASS
    if low in HOLD_WORDS:
        return HOLD
    if not low.isdigit():
        raise InputProblem(tr("bad_input", text=text.strip()))
    bid = Bid(int(low))
    legal = [a.value for a in view.legal_actions if isinstance(a, Bid)]
    rules = _rules(view.rules)
    if (bid not in view.legal_actions and legal and not rules.bidding_jumps
            and bid.value > legal[0] and bid.value in bidding_ladder(rules)):
        raise InputProblem(tr("strict_ladder", value=legal[0]))
    return bid


def _declaration(words: str, text: str, view: SkatView, tr: Translator) -> Declare:
    """The declaration the words name: the legal one with just the words' flags and the
    fewest more (a Hand game need not repeat ``hand``; an ISkO Ouvert carries Schneider
    and Schwarz), else the words as they are, for the engine to refuse."""
    try:
        typed = parse_action("declare " + words)
    except IllegalActionError:
        raise InputProblem(tr("bad_input", text=text.strip())) from None
    assert isinstance(typed, Declare)
    flags = ("hand", "schneider", "schwarz", "ouvert", "spitze")
    fits = [a for a in view.legal_actions if isinstance(a, Declare) and a.game is typed.game
            and a.ouvert == typed.ouvert and a.revolution == typed.revolution
            and all(getattr(a, f) or not getattr(typed, f) for f in flags)]
    if fits:
        return min(fits, key=lambda a: sum(getattr(a, f) for f in flags))
    return typed


def parse_card(word: str) -> Card:
    """One card from a word or name; ``H10`` is read as ``HT``."""
    try:
        return Card.parse(word)
    except ValueError:
        m = _TEN.fullmatch(word.strip().lower())
        if m is None:
            raise
        return Card.parse(m.group(1) + "t")


def parse_cards_in(words: Sequence[str], numbers: Sequence[Card], tr: Translator
                   ) -> list[Card]:
    """Cards from words: numbers of the hand listing, ISS codes, or names of two or three
    words (``Eichel Unter``, ``Jack of Clubs``)."""
    out: list[Card] = []
    i = 0
    while i < len(words):
        w = words[i]
        if w.isdigit():
            n = int(w)
            if not 1 <= n <= len(numbers):
                raise InputProblem(tr("no_number", n=n, max=len(numbers)))
            out.append(numbers[n - 1])
            i += 1
            continue
        for size in (1, 2, 3):
            if i + size > len(words):
                raise InputProblem(tr("bad_input", text=" ".join(words[i:])))
            try:
                out.append(parse_card(" ".join(words[i:i + size])))
            except ValueError:
                continue
            i += size
            break
        else:
            raise InputProblem(tr("bad_input", text=" ".join(words[i:])))
    return out


def options_text(legal: Sequence[Action], tr: Translator,
                 game_word: Callable[[GameType], str] | None = None) -> str:
    """The legal actions in words the person may type (``game_word`` names the games)."""
    words: list[str] = []
    for a in legal:
        if a is PASS:
            words.append(tr("w_pass"))
        elif a is HOLD:
            words.append(tr("w_hold"))
        elif a is PICKUP:
            words.append(tr("w_pickup"))
        elif isinstance(a, Bid):
            words.append(str(a))
        elif isinstance(a, Declare):
            flags = [f for f in ("schneider", "schwarz", "ouvert", "spitze") if getattr(a, f)]
            name = game_word(a.game) if game_word is not None else a.game.value
            words.append(" ".join([name, *flags]))
        elif isinstance(a, Discard):
            words = [tr("help_discard")]
            break
        else:
            words.append(str(a))
    if len(words) > 12 and all(w.isdigit() for w in words[:-1]):
        words = [f"{words[0]} … {words[-2]}", words[-1]]
    return ", ".join(words)
