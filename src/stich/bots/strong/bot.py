"""The Skat search bot itself: its clock and which part of it decides what.

Every decision is anytime: worlds are sampled until the budget (default 0.3 s) is used
and at least ``min_worlds`` are done, never beyond ``hard_cap`` (at most 1.5 s); every
solver question gets its node limit from the decision's clock
(:class:`~stich.bots.strong.questions.SolverClock`), so one hard question cannot hold a
decision up.  With ``max_worlds`` and a timer that does not move, decisions are the same
on any machine (the tests use this).

Under the house rule ``kontra_re``, Kontra and Re come from the search too
(:mod:`~stich.bots.strong.doubling`; the rule-based estimate of
:mod:`stich.bots.doubling` when no world was solved in time).  A defender's Kontra is
asked in the same call as his first card: the Kontra question and the card (when no
Kontra is said) each get a clock with half the hard cap.  The Schieberamsch pass and its
discard are the rule-based bot's.

The declarer on move claims the rest where the claim cannot be wrong
(:mod:`~stich.bots.strong.claim`: his own cards, or every world that agrees with his
view); the bot never gives up.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Callable

from stich.bots.clock import HARD_CAP, check_budget
from stich.bots.doubling import (
    decide,
    kontra_wanted,
    re_wanted,
    revolution_give,
    without_kontra,
)
from stich.bots.heuristic import SkatHeuristicBot
from stich.bots.play import choose_card
from stich.bots.strong import auction, doubling
from stich.bots.strong.cardplay import play
from stich.bots.strong.claim import sure_claim
from stich.bots.strong.questions import SolverClock
from stich.bots.strong.ramsch import ramsch
from stich.bots.strong.settings import DEFAULT_SETTINGS, StrongSettings
from stich.core import ArgumentError
from stich.messages import Seat as SeatName
from stich.skat.actions import CLAIM, KONTRA, PASS, RE, Action, Give
from stich.skat.rules import GameType
from stich.skat.view import SkatView

__all__ = ["SkatStrongBot"]


class SkatStrongBot:
    """The search bot.  ``budget``: seconds per decision to aim at (anytime sampling);
    ``min_worlds``: worlds sampled at least (time permitting); ``max_worlds``: a fixed
    number of worlds instead of the clock (for reproducible tests); ``hard_cap``: the
    most any decision may take (at most 1.5 s); ``timer``: the clock (injectable for
    tests); ``settings``: the tuning (:class:`StrongSettings`, the defaults unless
    given).  ``optimism``, ``infer`` and ``question_seconds``, when given, replace those
    fields of ``settings``: card points added to the open-hand result when estimating a
    game's chance, whether to weigh the worlds of the card play by the auction, and the
    most one solver question may search."""

    name = "strong"

    def __init__(self, budget: float = 0.3, *, min_worlds: int = 4,
                 max_worlds: int | None = None, hard_cap: float = HARD_CAP,
                 timer: Callable[[], float] = time.perf_counter,
                 settings: StrongSettings = DEFAULT_SETTINGS, optimism: int | None = None,
                 infer: bool | None = None, question_seconds: float | None = None) -> None:
        check_budget(budget, hard_cap)
        self.budget = budget
        self.min_worlds = min_worlds
        self.max_worlds = max_worlds
        self.hard_cap = hard_cap
        self.timer = timer
        if optimism is not None:
            settings = dataclasses.replace(settings, optimism=optimism)
        if infer is not None:
            settings = dataclasses.replace(settings, infer=infer)
        if question_seconds is not None:
            settings = dataclasses.replace(settings, question_seconds=question_seconds)
        self.settings = settings
        self._fallback = SkatHeuristicBot()
        # (phase, chance) of each auction decision that valued a game: "bid" the best
        # plan's mean chance where it held or said a value, "declare" the mean chance of
        # the game declared (the arena's calibration table compares them with the result)
        self.estimates: list[tuple[str, float]] = []

    def _clock(self, *, half: bool = False) -> SolverClock:
        """The clock of one decision; ``half``: with half the hard cap (two searches in
        one call: Kontra, then the card)."""
        cap = self.hard_cap / 2 if half else self.hard_cap
        return SolverClock(min(self.budget, cap), cap, self.min_worlds, self.max_worlds,
                           self.timer, self.settings)

    def choose(self, view: SkatView, rng: random.Random) -> Action:
        legal = view.legal_actions
        if not legal:
            raise ArgumentError("bots.nothing_to_do", seat=SeatName(view.seat), phase=view.phase)
        if CLAIM in view.claims and sure_claim(view):
            return CLAIM
        if len(legal) == 1:
            return legal[0]
        clock = self._clock()
        local = random.Random(rng.getrandbits(64))
        action = self._decide(view, local, clock)
        if action not in legal:  # a safety net: never an illegal action
            return self._fallback.choose(view, rng)
        return action

    def _decide(self, view: SkatView, rng: random.Random, clock: SolverClock) -> Action:
        """The decision of the part of the bot for ``view``'s phase; where that part has
        nothing (no world in time), the rule-based bot's."""
        s = self.settings
        legal = view.legal_actions
        if RE in legal:  # answering a Kontra: Re from the search, else the rule-based
            said = doubling.re(view, rng, clock, s)
            if said is None:
                return RE if re_wanted(view) else PASS
            return RE if said else PASS
        if KONTRA in legal:
            # the Kontra question has its own clock, and the card (if no Kontra) a fresh
            # one: each of the two with half the hard cap, so the call stays within it
            said = doubling.kontra(view, rng, self._clock(half=True), s)
            if said is None:  # no world in time
                said = kontra_wanted(view)
            if said:
                return KONTRA
            view = without_kontra(view)
            clock = self._clock(half=True)
        if legal and isinstance(legal[0], Give):  # a Revolution's exchange: searched
            return revolution_give(view, search=True)
        house = decide(view)  # the Schieberamsch pass and its discard: rule-based
        if house is not None:
            return house
        phase = view.phase
        if phase == "BIDDING":
            action, p = auction.bid(view, rng, clock, s)
            if p is not None:
                self.estimates.append(("bid", p))
            return action
        if phase == "SKAT":
            chosen = auction.hand_or_pickup(view, rng, clock, s)
        elif phase == "DISCARD":
            chosen = auction.discard(view, rng, clock, s)
        elif phase == "DECLARE":
            declared = auction.declare(view, rng, clock, s)
            if declared is not None:
                self.estimates.append(("declare", declared[1]))
            chosen = declared[0] if declared is not None else None
        elif view.game is GameType.RAMSCH:
            return ramsch(view, rng, clock, s)
        elif view.game is None:
            return choose_card(view)
        else:
            return play(view, rng, clock, s)
        return chosen if chosen is not None else self._fallback.choose(view, rng)
