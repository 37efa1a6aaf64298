"""The contract every game meets above its engine: what the arena, the server's table,
the records, the environments and the command line ask a game for, instead of testing
its name.  One object per game implements it (:mod:`stich.games.skat`,
:mod:`stich.games.baptisten`) and is registered in :mod:`stich.games`.

The engines (``stich.skat``, ``stich.baptisten``) know nothing of this: a game object
sits above its engine, the records and the bots, and below every front end."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from stich.core import GameState
from stich.games.play import TablePlay
from stich.games.played import ArenaDeal, PlayedGame, SeatResult

__all__ = ["Game", "TableOptions", "preset_or_text"]


def preset_or_text(game: str, parse: Callable[[str], Any], rules: str) -> str:
    """A preset's name when ``rules`` are exactly that preset of ``game``, else their
    canonical text (rules ``parse`` cannot read: the text as given)."""
    try:
        parsed = parse(rules)
    except ValueError:
        return rules
    name, text = parsed.preset_name, str(parsed)
    return str(name) if text == f"{game}(preset={name})" else text


@dataclass(frozen=True)
class TableOptions:
    """What a person chose for a new table's rules (the site's form): a full ``rules``
    text, or a ``preset`` and the options of the game (Baptistenskat: ``max_cards``,
    ``deck``, ``variants``); ``seats`` at the table."""

    seats: int
    preset: str | None = None
    rules: str | None = None
    max_cards: int | None = None
    deck: str | None = None
    variants: tuple[int, ...] = ()


class Game(Protocol):
    """One game, as everything above the engines meets it."""

    name: str
    """The name records, table settings, URLs and the command line use (``skat``)."""
    title: str
    """The game's name for people (``Skat``, ``Baptistenskat``)."""
    fixed_seats: int | None
    """Players of every game (Skat: 3), or None (the rules say how many)."""
    table_seats: tuple[int, ...] | None
    """Seats a table may have when they differ from ``fixed_seats`` (Skat: 3 or 4, the
    dealer sitting each game out at four), else None."""
    one_game_per_table: bool
    """A table plays one game of many rounds (Baptistenskat), not a list of games."""
    analysable: bool
    """The open-card analysis (the Skat solver) reads finished games of this game."""
    bot_levels: tuple[str, ...]
    """The bot levels a table of the game offers, weakest first (each in :attr:`bots`)."""

    @property
    def bots(self) -> Mapping[str, Callable[[], Any]]:
        """The bot levels by name, each a factory of a bot (``choose(view, rng)``); older
        names too."""
        ...

    def make_bot(self, name: str) -> Any:
        """A new bot of level ``name`` (an unknown name is an ArgumentError naming the
        levels)."""
        ...

    def parse_rules(self, text: str) -> Any:
        """The rules written as ``text`` (their canonical string, or a preset's name)."""
        ...

    def default_rules(self, players: int) -> Any:
        """The game's rules when none are given, for ``players`` seats."""
        ...

    def players(self, rules: Any) -> int:
        """How many seats ``rules`` are for."""
        ...

    def record(self, state: Any, players: Sequence[str], *,
               extra: dict[str, Any] | None = None) -> dict[str, Any]:
        """The record of ``state`` (finished or not) with the players' names by seat."""
        ...

    def replay(self, record: dict[str, Any]) -> GameState:
        """A record of this game replayed to its last action (its result checked)."""
        ...

    def table_rules(self, options: TableOptions) -> Any:
        """The rules of a new table from the options a person chose (refused with the
        reason: an unknown preset, a variant that needs another deck, …)."""
        ...

    def rules_parts(self, rules: str) -> dict[str, Any]:
        """The rules (their text) as the parts a page names in words, with ``game``."""
        ...

    def preset_of(self, rules: str) -> str:
        """What the history files a table's rules under (a preset's name, ``custom``)."""
        ...

    rated_by: str
    """What one game's rating update compares (:mod:`stich.ratings`): ``declarer`` (the
    declarer against the defenders, one declarer a game) or ``places`` (every seat by
    its place)."""

    def rating_group(self, rules: str) -> str:
        """The ratings' rule group of ``rules``: a preset's name when they are exactly a
        preset, else their canonical text (rules that cannot be read: the text)."""
        ...

    def new_play(self, rules: str, seats: int) -> TablePlay:
        """The game side of a new table with ``seats`` seats playing ``rules`` (their
        text); rules for another number of seats are refused."""
        ...

    # --- arena ---
    arena_score: str
    """What the arena's figures measure per game (``list points per game``)."""
    arena_kind: str
    """What the arena's figures count beside the score, and so what its table shows:
    ``declarer`` (one declarer a game: the games declared and won, by kind, and the
    chance the declarer gave its game) or ``bids`` (every seat bids every round: the
    rounds, the exact bids, and the chance a bot gave its bid)."""

    def arena_check(self, rules: Any, seats: int) -> None:
        """Refuse (an ArgumentError ``arena.*``) a match of ``seats`` bots under
        ``rules``."""
        ...

    def arena_play(self, deal: ArenaDeal) -> str:
        """Play one game of an arena match, filling in its seats' results; the deal's
        cards as text (the same for every rotation of a deal)."""
        ...

    def arena_figures(self, seats: Sequence[SeatResult]) -> dict[str, Any]:
        """The game's own figures of these seats' results (pooled), after the score's."""
        ...

    def arena_inference(self, games: Sequence[PlayedGame]) -> dict[str, Any]:
        """What ``strong``'s inference knew of the true cards (``Match.inference``)."""
        ...

    def arena_calibration(self, games: Sequence[PlayedGame], entries: set[int]
                          ) -> dict[str, Any]:
        """The chances the bots of ``entries`` gave against what came (``games``: how
        many were measured; 0 for bots that give none)."""
        ...
