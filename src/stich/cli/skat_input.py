"""Reading what a person types at the Skat table into an engine action.

Accepted: bids as numbers, ``pass``/``passe``, ``hold``/``ja``; ``hand``/``pickup``
(``aufnehmen``); ``discard CJ HA`` (``drücken 3 7``, or just two cards); ``declare grand
hand`` (``grand``, ``spiel herz``, ``null ouvert``); a card by its number in the hand
listing, its ISS code (``SA``) or its German, French or English name.  Every problem is
an :class:`InputProblem` with a message for the person, never a traceback.

>>> from stich.skat import SkatState
>>> from stich.cli.i18n import Translator
>>> s = SkatState.new(seed=7)
>>> str(interpret("18", s, [], Translator("en")))
'18'
>>> interpret("19", s, [], Translator("en"))
Traceback (most recent call last):
...
stich.cli.prompt.InputProblem: Allowed now: 18, pass
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from stich.cards import Card, format_cards
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
    Phase,
    SkatState,
)

__all__ = ["InputProblem", "interpret", "options_text", "parse_cards_in"]

_DISCARD_WORDS = ("discard", "drücken", "druecken", "drücke", "druecke", "drück", "d")
_DECLARE_WORDS = ("declare", "spiel", "spiele", "ansage", "ansagen", "play", "game")
_PLAY_WORDS = ("play", "spiel", "spiele", "lege", "leg")


def interpret(text: str, state: SkatState, numbers: Sequence[Card], tr: Translator,
              describe: Callable[[int], str] = format_cards) -> Action:
    """The action ``text`` means in ``state`` for the person to move; ``numbers`` are the
    cards as numbered in the hand listing (1 = the first); ``describe`` writes a set of
    cards for a message."""
    low = " ".join(text.strip().lower().split())
    phase = state.phase
    action: Action
    if phase is Phase.BIDDING:
        if low.isdigit():
            action = Bid(int(low))
        elif low in PASS_WORDS:
            action = PASS
        elif low in HOLD_WORDS:
            action = HOLD
        else:
            raise InputProblem(tr("bad_input", text=text.strip()))
    elif phase is Phase.SKAT:
        if low in HAND_WORDS:
            action = HAND
        elif low in PICKUP_WORDS:
            action = PICKUP
        else:
            raise InputProblem(tr("bad_input", text=text.strip()))
    elif phase is Phase.DISCARD:
        words = low.replace(",", " ").split()
        if words and words[0] in _DISCARD_WORDS:
            words = words[1:]
        cards = parse_cards_in(words, numbers, tr)
        mask = 0
        for c in cards:
            mask |= c.bit
        if len(cards) != 2 or mask.bit_count() != 2:
            raise InputProblem(tr("discard_two"))
        missing = mask & ~state.hands[state.to_move]
        if missing:
            raise InputProblem(tr("not_in_hand", card=describe(missing)))
        action = Discard(mask)
    elif phase is Phase.DECLARE:
        words = low.split()
        if words and words[0] in _DECLARE_WORDS:
            words = words[1:]
        if not words:
            raise InputProblem(tr("bad_input", text=text.strip()))
        try:
            action = state.parse_action("declare " + " ".join(words))
        except IllegalActionError:
            raise InputProblem(tr("bad_input", text=text.strip())) from None
    elif phase is Phase.PLAY:
        words = low.split()
        if len(words) > 1 and words[0] in _PLAY_WORDS:
            words = words[1:]
        cards = parse_cards_in(words, numbers, tr)
        if len(cards) != 1:
            raise InputProblem(tr("bad_input", text=text.strip()))
        action = cards[0]
    else:
        raise InputProblem(tr("bad_input", text=text.strip()))
    return _check_legal(action, state, tr, describe)


def _check_legal(action: Action, state: SkatState, tr: Translator,
                 describe: Callable[[int], str]) -> Action:
    legal = state.legal_actions()
    if action in legal:
        return action
    phase = state.phase
    if phase is Phase.PLAY and isinstance(action, Card):
        if not state.hands[state.to_move] & action.bit:
            raise InputProblem(tr("not_in_hand", card=describe(action.bit)))
        raise InputProblem(tr("must_follow", cards=describe(state.legal_cards())))
    if phase is Phase.BIDDING:
        raise InputProblem(tr("what_now", options=options_text(state, tr)))
    try:
        state.apply(action)
    except IllegalActionError as e:
        raise InputProblem(tr("not_allowed", reason=str(e))) from None
    raise InputProblem(tr("what_now", options=options_text(state, tr)))  # pragma: no cover


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
                out.append(Card.parse(" ".join(words[i:i + size])))
            except ValueError:
                continue
            i += size
            break
        else:
            raise InputProblem(tr("bad_input", text=" ".join(words[i:])))
    return out


def options_text(state: SkatState, tr: Translator,
                 game_word: Callable[[GameType], str] | None = None) -> str:
    """The legal actions in words the person may type (``game_word`` names the games)."""
    legal = state.legal_actions()
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
            flags = [f for f in ("schneider", "schwarz", "ouvert") if getattr(a, f)]
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
