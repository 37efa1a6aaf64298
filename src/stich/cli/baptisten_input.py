"""Reading what a person types at the Baptistenskat table into an engine action, from
their view.

Accepted: a bid as ``2 5``, ``2/5``, ``bid 2 stake 5`` or ``ansage 2 einsatz 5`` (tricks,
stake), just ``2`` under trick scoring or when 40 is forced (the stake is then 40); a card
by its number in the hand listing, its code (``R20``, ``HA``, ``H10``, ``JK``) or its name
(``rot 20``, ``Herz Ass``); ``play`` in a forehead round.

The reader knows only what the front end knows: the words, the numbers of the listing,
and the view (its hand and legal actions).  Whether a bid or a card is allowed (the hook
rule, the stakes, the 40s, following suit) is the engine's to say; the session shows its
refusal in the person's language.  What the reader refuses itself is an
:class:`InputProblem`: text it cannot read, a number not in the listing, a card named in
a forehead round, a bid while cards are played.

>>> from stich.baptisten import BaptistenRules, BaptistenState
>>> v = BaptistenState.new(BaptistenRules(players=3, max_cards=3), seed=1).view(0)
>>> str(interpret("1/5", v, [], Translator("en")))
'bid 1 stake 5'
>>> str(interpret("1", v, [], Translator("en")))
'bid 1'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from stich.baptisten import BaptistenRules
from stich.baptisten.actions import FOREHEAD_PLAY, BAction, BBid, bid_action
from stich.baptisten.view import BaptistenView
from stich.cards import PlainCard, PlainDeck
from stich.cli.i18n import Translator
from stich.cli.prompt import InputProblem
from stich.core import consecutive_runs

__all__ = ["InputProblem", "interpret", "parse_plain_card", "ranges"]

_BID_RE = re.compile(r"(\d+)(?:\s*(?:/|:|\s)\s*(\d+))?")
_BID_WORDS = ("bid", "ansage", "sage", "ich", "stiche", "stich", "tricks", "trick")
_STAKE_WORDS = ("stake", "einsatz", "setze", "für", "fuer")
_PLAY_WORDS = ("play", "spiel", "spiele", "spielen", "lege", "leg", "p", "ok")
_TEN = re.compile(r"([a-z])10")


def ranges(values: Sequence[int]) -> str:
    """``0, 2–5`` from 0, 2, 3, 4, 5.

    >>> ranges([0, 2, 3, 4, 5]), ranges([1])
    ('0, 2–5', '1')
    """
    return ", ".join(str(a) if a == b else f"{a}–{b}" for a, b in consecutive_runs(values))


@cache
def _rules(text: str) -> BaptistenRules:
    return BaptistenRules.parse(text)


def parse_plain_card(deck: PlainDeck, text: str, hand: int) -> PlainCard:
    """A card of ``deck`` by code or name, the copy in ``hand`` where there are two; in
    the French decks ``H10`` is read as ``HT`` (Elfer raus has a real 10 in each suit)."""
    try:
        return deck.held(text, hand)
    except ValueError:
        m = _TEN.fullmatch(text.strip().lower())
        if m is None or "T" not in deck.rank_codes:
            raise
        return deck.held(m.group(1) + "t", hand)


def interpret(text: str, view: BaptistenView, numbers: Sequence[PlainCard],
              tr: Translator) -> BAction:
    """The action ``text`` means for the seat of ``view`` (whose turn it is); ``numbers``
    are the cards as numbered in the hand listing (1 = the first)."""
    low = " ".join(text.strip().lower().split())
    if view.phase == "BIDDING":
        return _bid(low, text, view, tr)
    if view.phase != "PLAY":
        raise InputProblem(tr("bad_input", text=text.strip()))
    if not view.hand:  # a forehead round: the own card is not known
        if low in _PLAY_WORDS or low == "1":
            return FOREHEAD_PLAY
        raise InputProblem(tr("b_e_forehead"))
    words = low.split()
    if len(words) > 1 and words[0] in _PLAY_WORDS:
        words = words[1:]
    rest = " ".join(words)
    if rest.isdigit():
        n = int(rest)
        if not 1 <= n <= len(numbers):
            raise InputProblem(tr("no_number", n=n, max=len(numbers)))
        return numbers[n - 1]
    if _BID_RE.fullmatch(rest) or (words and words[0] in _BID_WORDS):
        raise InputProblem(tr("b_e_card_now"))
    try:
        return parse_plain_card(_rules(view.rules).card_deck, rest, view.hand)
    except ValueError:
        raise InputProblem(tr("bad_input", text=text.strip())) from None


def _bid(low: str, text: str, view: BaptistenView, tr: Translator) -> BBid:
    words = [w for w in low.replace(",", " ").split() if w not in _BID_WORDS]
    words = [" " if w in _STAKE_WORDS else w for w in words]
    m = _BID_RE.fullmatch(" ".join(w for w in words if w != " ").strip())
    if not m:
        key = "b_e_bid_words_ts" if _rules(view.rules).trick_scoring else "b_e_bid_words"
        raise InputProblem(tr("bad_input", text=text.strip()) + " " + tr(key))
    tricks = int(m.group(1))
    stake = int(m.group(2)) if m.group(2) is not None else None
    bids = [a for a in view.legal_actions if isinstance(a, BBid)]
    if stake is None and bids and all(b.stake == 40 for b in bids):
        stake = 40  # the forced 40 need not be typed
    return bid_action(tricks, stake)
