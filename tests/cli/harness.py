"""Running the real terminal sessions with a scripted person and scripted bots, capturing
every screen the person is shown (the text printed before each prompt), and running
them again in another deal with the same actions and the same typing.

A *screen* is everything the console printed since the person's previous answer; in the
log it is the narration and the panel, on the live table the whole table.
"""

from __future__ import annotations

import io
import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from rich.console import Console

from stich.baptisten import BaptistenState
from stich.baptisten.deal import Deal
from stich.cards import bits
from stich.cli.play_baptisten import BaptistenOptions, BaptistenSession
from stich.cli.play_skat import PlayOptions, SkatSession
from stich.core import IllegalActionError
from stich.skat import SkatState


class Stop(Exception):
    """Raised by the scripted reader to end a run at a given prompt."""


def swapped(places: list[int], hidden: list[int], rng: random.Random) -> list[int]:
    """The card sets ``places`` with one to three pairs of ``hidden`` cards swapped between
    the places that hold them (a pair in one place changes nothing)."""
    new = list(places)
    for _ in range(rng.randint(1, 3)):
        a, b = rng.sample(hidden, 2)
        pa = next(i for i, p in enumerate(new) if p >> a & 1)
        pb = next(i for i, p in enumerate(new) if p >> b & 1)
        if pa != pb:
            new[pa] ^= (1 << a) | (1 << b)
            new[pb] ^= (1 << a) | (1 << b)
    return new


def console(width: int, height: int) -> Console:
    return Console(record=True, width=width, height=height, file=io.StringIO(),
                   color_system=None, legacy_windows=False)


class _Silent:
    """A console that prints nothing (a re-run skips drawing the screens it does not
    compare); it measures like the real one."""

    def __init__(self, real: Console) -> None:
        self._real = real

    def print(self, *args: Any, **kwargs: Any) -> None:
        pass

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


class Capture:
    """The reader of a session: records each screen and the state the person was asked
    in, answers from ``answer`` (first run) or from ``typed`` (a re-run), and stops
    after ``stop_at`` screens.  ``shown_from``: draw nothing before that screen (the
    screens before it are recorded empty)."""

    def __init__(self, answer: Callable[[Any, str], str] | None = None,
                 typed: Sequence[str] | None = None, stop_at: int | None = None,
                 shown_from: int = 0) -> None:
        self.answer = answer
        self.replay = list(typed) if typed is not None else None
        self.stop_at = stop_at
        self.shown_from = shown_from
        self.screens: list[str] = []
        self.typed: list[str] = []
        self.asked: list[tuple[Any, int] | None] = []  # (state, seat) or None after a game
        self.session: Any = None

    def attach(self, session: Any) -> None:
        self.session = session
        if self.shown_from > 0:
            session.screen.console = _Silent(session.console)
            pieces = getattr(session, "sk", None) or session.bs
            table = pieces.table

            def quiet_table(view: Any, *args: Any, **kwargs: Any) -> Any:
                if isinstance(session.screen.console, _Silent):
                    if view.hand:
                        pieces.hand(view)  # the listing's numbers, as drawn
                    return []
                return table(view, *args, **kwargs)

            pieces.table = quiet_table

    def __call__(self, prompt: str) -> str:
        s = self.session
        self.screens.append(s.console.export_text(clear=True))
        self.asked.append(s.asking_now())
        if self.stop_at is not None and len(self.screens) >= self.stop_at:
            raise Stop
        if len(self.screens) == self.shown_from:
            s.screen.console = s.console
        if self.replay is not None:
            if len(self.typed) >= len(self.replay):
                raise Stop
            text = self.replay[len(self.typed)]
        else:
            assert self.answer is not None
            text = self.answer(s, prompt)
        self.typed.append(text)
        return text


# --- Skat ----------------------------------------------------------------------------------

class ScriptedSkat(SkatSession):
    """A Skat session whose bots follow ``policy(view, seat)`` (first run) or repeat a
    recorded game (re-run), and whose deal may be given."""

    def __init__(self, opts: PlayOptions, capture: Capture, *, live: bool = False,
                 width: int = 100, height: int = 40,
                 policy: Callable[[Any, int], Any] | None = None,
                 history: Sequence[Any] | None = None,
                 deal: tuple[tuple[int, int, int], int] | None = None) -> None:
        super().__init__(opts, console(width, height), capture, live=live)
        capture.attach(self)
        self.policy = policy
        self.history = list(history) if history is not None else None
        self.deal = deal
        self.current: SkatState | None = None
        self.final: SkatState | None = None

    def new_state(self, seed: int) -> SkatState:
        if self.deal is not None:
            return SkatState.new(self.opts.rules, hands=self.deal[0], skat=self.deal[1])
        return super().new_state(seed)

    def bot_action(self, state: SkatState, seat: int, player: int) -> Any:
        self.current = state
        if self.history is not None:
            return self.history[len(state.history)]
        assert self.policy is not None
        return self.policy(state.view(seat), seat)

    def ask(self, state: SkatState, seat: int) -> Any:
        self.current = state
        return super().ask(state, seat)

    def show_result(self, view: Any, state: SkatState) -> None:
        self.current = None
        self.final = state
        super().show_result(view, state)

    def asking_now(self) -> tuple[Any, int] | None:
        if self.current is None or self.asking is None:
            return None
        return self.asking


def skat_hidden(state: SkatState, seat: int) -> int:
    """The cards whose place ``seat`` does not know."""
    return ((1 << 32) - 1) & ~state.view(seat).known_cards()


def skat_worlds(state: SkatState, seat: int, rng: random.Random, count: int,
                tries: int = 60) -> Iterator[tuple[tuple[int, int, int], int]]:
    """Up to ``count`` other deals that differ from the real one only in cards ``seat``
    may not see (swapped between the other hands and the unseen Skat) and in which the
    game so far replays legally."""
    hands, skat = state.deal
    places = [*hands, skat]
    hidden = list(bits(skat_hidden(state, seat)))
    found = 0
    for _ in range(tries):
        if found >= count or len(hidden) < 2:
            return
        new = swapped(places, hidden, rng)
        if new == places:
            continue
        deal = ((new[0], new[1], new[2]), new[3])
        try:
            s = SkatState.new(state.rules, hands=deal[0], skat=deal[1])
            for action in state.history:
                s = s.apply(action)
        except IllegalActionError:
            continue
        found += 1
        yield deal


# --- Baptistenskat -------------------------------------------------------------------------

class ScriptedBaptisten(BaptistenSession):
    """A Baptistenskat session whose bots follow ``policy(view, seat)`` or repeat a
    recorded game, and whose deals may be given."""

    def __init__(self, opts: BaptistenOptions, capture: Capture, *, live: bool = False,
                 width: int = 100, height: int = 40,
                 policy: Callable[[Any, int], Any] | None = None,
                 history: Sequence[Any] | None = None,
                 deals: Sequence[Deal] | None = None) -> None:
        self._deals = list(deals) if deals is not None else None
        super().__init__(opts, console(width, height), capture, live=live)
        capture.attach(self)
        self.policy = policy
        self.history = list(history) if history is not None else None
        self.in_game = True

    def new_state(self, first: int) -> BaptistenState:
        if self._deals is not None:
            return BaptistenState.new(self.opts.rules, deals=self._deals, first=first)
        return super().new_state(first)

    def bot_action(self, state: BaptistenState, seat: int) -> Any:
        if self.history is not None:
            return self.history[len(state.history)]
        assert self.policy is not None
        return self.policy(state.view(seat), seat)

    def asking_now(self) -> tuple[Any, int] | None:
        s = self.state
        if s.is_over or self.asking is None:
            return None
        return (s, self.person)


def baptisten_hidden(state: BaptistenState, seat: int) -> tuple[int, list[int]]:
    """The cards of the current round whose place ``seat`` does not know, and the places
    (each hand, then the undealt cards) as sets."""
    deal = state.deals[state.round_index]
    deck = state.deck
    dealt = 0
    for h in deal.hands:
        dealt |= h
    rest = deck.full_mask & ~dealt & ~(1 << deal.trump_card)
    known = state.view(seat).known_cards() | (1 << deal.trump_card)
    return deck.full_mask & ~known, [*deal.hands, rest]


def baptisten_worlds(state: BaptistenState, seat: int, rng: random.Random, count: int,
                     tries: int = 60) -> Iterator[list[Deal]]:
    """Up to ``count`` other games that differ from the real one only in cards of this
    round ``seat`` may not see (swapped between hands it cannot see and the undealt
    cards), in which this round so far replays legally."""
    hidden_mask, places = baptisten_hidden(state, seat)
    hidden = list(bits(hidden_mask))
    r = state.round_index
    found = 0
    for _ in range(tries):
        if found >= count or len(hidden) < 2:
            return
        new = swapped(places, hidden, rng)
        if new == places:
            continue
        deals = list(state.deals)
        deals[r] = Deal(tuple(new[:-1]), deals[r].trump_card)
        try:
            s = BaptistenState.new(state.rules, deals=deals, first=state.first_player)
            for action in state.history:
                s = s.apply(action)
        except (IllegalActionError, ValueError):
            continue
        found += 1
        yield deals
