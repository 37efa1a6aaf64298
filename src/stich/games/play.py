"""What a table plays, game by game: the running engine game, the seats' places in it,
and how one game (or round) follows the other.  The server's table model
(:class:`stich.server.sitting.Sitting`) keeps the seats, the people, the events and the
waits; it asks its :class:`TablePlay` everything that depends on the game.

Nothing here knows the server: a play is told what happened (``start``, ``deal``, an
action, a game's end) and answers with plain values; the sitting makes events of them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal, Protocol

__all__ = ["FinishKind", "SeedOf", "TablePlay"]

FinishKind = Literal["game_over", "round_over"]
"""The event that closes a game (a table of several) or a round (a table of one game)."""

SeedOf = Callable[[int], int]
"""The seed of a table's game number ``n`` (0: the draw for the first seat)."""


class TablePlay(Protocol):
    """The game side of one table."""

    deals_each_game: bool
    """A table of several games, each dealt by a ``deal`` event (Skat); else one game
    that deals its rounds itself (Baptistenskat)."""
    finish_kind: FinishKind
    """The event that closes a game (``game_over``) or a round (``round_over``)."""

    @property
    def rules(self) -> Any: ...

    @property
    def state(self) -> Any:
        """The running engine game (None before the start, or between Skat games before
        the first deal)."""
        ...

    def start(self, first: int, names: Sequence[str], seed_of: SeedOf) -> None:
        """The table starts: ``first`` is the seat the draw chose."""
        ...

    def deal(self, number: int, seed_of: SeedOf) -> None:
        """Game ``number`` of the table is dealt (tables with :attr:`deals_each_game`)."""
        ...

    def position_of(self, seat: int) -> int:
        """The table seat's place in the running game."""
        ...

    def seat_at(self, position: int) -> int:
        """The table seat at a place of the running game."""
        ...

    def step(self, text: str) -> tuple[Any, str]:
        """The state after an action given as text (the engine's refusal stands), and
        the action's canonical text."""
        ...

    def finished_by(self, new: Any) -> bool:
        """Whether moving to ``new`` closes a game or round (:attr:`finish_kind`)."""
        ...

    def finish_data(self, game_number: int) -> dict[str, Any]:
        """What the closing event says (the game's or the round's number)."""
        ...

    def table_ends(self, new: Any, planned: int, game_number: int, ending: bool) -> bool:
        """Whether the table ends with the game or round ``new`` closes (``planned``:
        the games the table was set for, 0 open-ended; ``ending``: asked to end)."""
        ...

    def moved(self, new: Any, seat: int) -> None:
        """The running game is ``new`` now: ``seat`` moved."""
        ...

    def finish_game(self, names: Sequence[str], extra: dict[str, Any]) -> dict[str, Any]:
        """The running game is over: its record (``names`` by table seat; ``extra`` goes
        into the record) and its entry in the table's list."""
        ...

    def game_over(self) -> bool:
        """Whether the table's game is over after a round closed (one-game tables)."""
        ...

    def games_played(self, games_done: int) -> int:
        """What the lobby counts as played: Skat games (``games_done``), or the rounds
        of the one game."""
        ...

    def result_lines(self, record: dict[str, Any]) -> tuple[int, list[dict[str, Any]]]:
        """A finished game's number at the table and per seat what the history keeps of
        it: ``score``, ``bilanz``, ``declarer``, ``won``, ``place``."""
        ...

    def snapshot(self) -> dict[str, Any]:
        """What a table's snapshot keeps of the game side (``positions``,
        ``last_trick``, ``list``: :mod:`stich.server.snapshot`)."""
        ...

    def restore(self, snap: dict[str, Any], acts: Sequence[str], *, first: int,
                game_number: int, started: bool, seed_of: SeedOf) -> None:
        """Back to what ``snap`` says, the running game replayed from its ``acts``."""
        ...


def step(state: Any, text: str) -> tuple[Any, str]:
    """The engine's parse and apply of an action's text: (new state, canonical text)."""
    action = state.parse_action(text)
    return state.apply(action), str(action)
