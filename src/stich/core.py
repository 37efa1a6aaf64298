"""The protocol every game engine implements, its errors, and the game registry.

A game is played by immutable states: ``state.apply(action)`` returns a new state and
never changes the old one.  Chance (the shuffle) is a seeded input, so every game
replays exactly.  Actions are small value types whose ``str()`` parses back to the same
action with the game's ``parse_action``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

__all__ = [
    "GAMES",
    "GameState",
    "IllegalActionError",
    "RecordError",
    "register_game",
]


class IllegalActionError(ValueError):
    """An action that the rules do not allow in this state; the message says why."""


class RecordError(ValueError):
    """A game record that cannot be read or replayed; the message says where and why."""


@runtime_checkable
class GameState(Protocol):
    """What every game state offers to bots, records, the CLI and the server."""

    @property
    def to_move(self) -> int:
        """The seat whose turn it is, or -1 once the game is over."""
        ...

    @property
    def is_over(self) -> bool: ...

    def legal_actions(self) -> Sequence[Any]: ...

    def apply(self, action: Any) -> GameState: ...

    def parse_action(self, text: str) -> Any: ...

    def view(self, seat: int) -> Any: ...

    def outcome(self) -> Any: ...


GAMES: dict[str, Callable[..., Any]] = {}


def register_game(name: str, factory: Callable[..., Any]) -> None:
    """Make a game known by name (``skat``, ``baptisten``) to records and the CLI."""
    GAMES[name] = factory
