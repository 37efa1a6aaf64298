"""Reading what a person types at the Baptistenskat table into an engine action.

Accepted: a bid as ``2 5``, ``2/5``, ``bid 2 stake 5`` or ``ansage 2 einsatz 5`` (tricks,
stake), just ``2`` under trick scoring or when 40 is forced; a card by its number in the
hand listing, its code (``R20``, ``HA``, ``JK``) or its name (``rot 20``, ``Herz Ass``);
``play`` in a forehead round.  Every problem is an :class:`InputProblem` whose message
says why, in the UI language, never a traceback.

>>> from stich.baptisten import BaptistenRules, BaptistenState
>>> s = BaptistenState.new(BaptistenRules(players=3, max_cards=3), seed=1)
>>> str(interpret("1/5", s, [], Translator("en")))
'bid 1 stake 5'
>>> interpret("1", s, [], Translator("en"))
Traceback (most recent call last):
...
stich.cli.prompt.InputProblem: Say your stake too (1–20), e.g. "1 5".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from stich.baptisten.actions import FOREHEAD_PLAY, BAction, BBid, bid_action
from stich.baptisten.state import BaptistenState, BPhase
from stich.cards import PlainCard
from stich.cli.i18n import Translator
from stich.cli.prompt import InputProblem
from stich.core import consecutive_runs

__all__ = ["InputProblem", "interpret", "ranges"]

_BID_RE = re.compile(r"(\d+)(?:\s*(?:/|:|\s)\s*(\d+))?")
_BID_WORDS = ("bid", "ansage", "sage", "ich", "stiche", "stich", "tricks", "trick")
_STAKE_WORDS = ("stake", "einsatz", "setze", "für", "fuer")
_PLAY_WORDS = ("play", "spiel", "spiele", "spielen", "lege", "leg", "p", "ok")


def ranges(values: Sequence[int]) -> str:
    """``0, 2–5`` from 0, 2, 3, 4, 5.

    >>> ranges([0, 2, 3, 4, 5]), ranges([1])
    ('0, 2–5', '1')
    """
    return ", ".join(str(a) if a == b else f"{a}–{b}" for a, b in consecutive_runs(values))


def _cards_word(tr: Translator, k: int) -> str:
    return tr("b_card_one" if k == 1 else "b_card_many")


def interpret(text: str, state: BaptistenState, numbers: Sequence[PlainCard], tr: Translator,
              describe: Callable[[int], str] | None = None) -> BAction:
    """The action ``text`` means for the person to move; ``numbers`` are the cards as
    numbered in the hand listing (1 = the first); ``describe`` writes a set of cards."""
    show = describe if describe is not None else state.deck.format
    low = " ".join(text.strip().lower().split())
    if state.phase is BPhase.BIDDING:
        return _bid(low, text, state, tr)
    if state.phase is not BPhase.PLAY:
        raise InputProblem(tr("bad_input", text=text.strip()))
    if state.is_forehead_round:
        if low in _PLAY_WORDS or low in ("1", "spielen"):
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
        card = numbers[n - 1]
    else:
        if _BID_RE.fullmatch(rest) or (words and words[0] in _BID_WORDS):
            raise InputProblem(tr("b_e_card_now"))
        try:
            card = state.deck.held(rest, state.hands[state.to_move])
        except ValueError:
            raise InputProblem(tr("bad_input", text=text.strip())) from None
    hand = state.hands[state.to_move]
    if not hand & card.bit:
        raise InputProblem(tr("not_in_hand", card=show(card.bit)))
    legal = state.legal_cards()
    if not legal & card.bit:
        suit = state.follow_suit
        if (state.rules.must_overtrump and suit == state.trump
                and card.suit == suit):
            raise InputProblem(tr("b_e_overtrump", cards=show(legal)))
        raise InputProblem(tr("must_follow", cards=show(legal)))
    return card


def _bid(low: str, text: str, state: BaptistenState, tr: Translator) -> BAction:
    words = [w for w in low.replace(",", " ").split() if w not in _BID_WORDS]
    words = [" " if w in _STAKE_WORDS else w for w in words]
    m = _BID_RE.fullmatch(" ".join(w for w in words if w != " ").strip())
    if not m:
        raise InputProblem(tr("bad_input", text=text.strip()) + " " + tr("b_e_bid_words"))
    tricks = int(m.group(1))
    stake = int(m.group(2)) if m.group(2) is not None else None
    k = state.cards
    seat = state.to_move
    rules = state.rules
    forced = state.must_stake_40(seat)
    may_40 = not forced and state.owed[seat] > 0 and k >= 3
    forty = tr("b_or40") if may_40 else ""
    if not 0 <= tricks <= k:
        raise InputProblem(tr("b_e_range", k=k, cards=_cards_word(tr, k)))
    hooked = state.hooked_bid()
    if tricks == hooked:
        allowed = ranges([t for t in range(k + 1) if t != hooked])
        raise InputProblem(tr("b_e_hooked", k=k, bid=tricks, allowed=allowed))
    if rules.trick_scoring:
        if stake is not None:
            raise InputProblem(tr("b_e_no_stake", bid=tricks))
        action: BBid = bid_action(tricks, None)
    else:
        if stake is None:
            if not forced:
                raise InputProblem(tr("b_e_need_stake", bid=tricks, forty=forty))
            stake = 40
        if forced and stake != 40:
            left = sum(1 for c in rules.schedule()[state.round_index:] if c >= 3)
            raise InputProblem(tr("b_e_forced", owed=state.owed[seat], left=left, bid=tricks))
        if stake == 40 and not forced and not may_40:
            raise InputProblem(tr("b_e_no40_small" if k < 3 else "b_e_no40_done"))
        if stake != 40 and not 1 <= stake <= 20:
            raise InputProblem(tr("b_e_stake_range", forty=forty))
        action = bid_action(tricks, stake)
    if action not in state.legal_actions():  # pragma: no cover - a safety net
        raise InputProblem(tr("bad_input", text=text.strip()))
    return action
