"""Skat as everything above the engine meets it (:class:`stich.games.base.Game`): three
players a game at tables of three or four seats (at four the dealer sits out), a list of
games per table, the bots of :data:`stich.bots.BOTS`, records of one game each."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from stich import skat
from stich.bots import BOTS, SKAT_LEVELS, make_bot
from stich.core import ArgumentError
from stich.games import skat_arena
from stich.games.base import TableOptions, preset_or_text
from stich.games.played import ArenaDeal, PlayedGame, SeatResult
from stich.games.skat_play import SkatPlay
from stich.record import replay_skat, skat_record
from stich.skat import SkatRules, SkatState

__all__ = ["SKAT", "SkatGame"]


class SkatGame:
    """Skat (:mod:`stich.skat`)."""

    name = skat.NAME
    title = "Skat"
    fixed_seats: int | None = 3  # the players of one game
    table_seats: tuple[int, ...] | None = (3, 4)
    """Seats a table may have: three, or four with the dealer sitting each game out."""
    analysable = True  # the open-card analysis (the solver) reads its games
    one_game_per_table = False
    bot_levels = SKAT_LEVELS  # the levels of both games, and the trained network

    @property
    def bots(self) -> Mapping[str, Callable[[], Any]]:
        return BOTS

    def make_bot(self, name: str) -> Any:
        return make_bot(name)

    def parse_rules(self, text: str) -> SkatRules:
        return SkatRules.parse(text)

    def default_rules(self, players: int = 3) -> SkatRules:
        return SkatRules()

    def players(self, rules: Any) -> int:
        return 3

    def record(self, state: Any, players: Sequence[str], *,
               extra: dict[str, Any] | None = None) -> dict[str, Any]:
        assert isinstance(state, SkatState)
        return skat_record(state, players, extra=extra)

    def replay(self, record: dict[str, Any]) -> SkatState:
        return replay_skat(record)

    def table_rules(self, options: TableOptions) -> SkatRules:
        if options.seats not in (self.table_seats or (3,)):
            raise ArgumentError("server.skat_seats", given=options.seats)
        if options.rules:
            return SkatRules.parse(options.rules)
        return SkatRules.preset(options.preset or "lothar")

    def rules_parts(self, rules: str) -> dict[str, Any]:
        """The rules as the parts a page names in words: ``game``, ``preset``, and
        whether they were ``changed`` from it."""
        r = SkatRules.parse(rules)
        return {"game": self.name, "preset": r.preset_name,
                "changed": str(r) != f"skat(preset={r.preset_name})"}

    def preset_of(self, rules: str) -> str:
        """The preset a table's rules are (``lothar``, ``isko``), or ``custom``."""
        parsed = SkatRules.parse(rules)
        name = parsed.preset_name
        return name if str(parsed) == f"skat(preset={name})" else "custom"

    rated_by = "declarer"

    def rating_group(self, rules: str) -> str:
        return preset_or_text(self.name, SkatRules.parse, rules)

    def new_play(self, rules: str, seats: int) -> SkatPlay:
        return SkatPlay(SkatRules.parse(rules))

    # --- arena ---
    arena_score = "list points per game"
    arena_kind = "declarer"

    def arena_check(self, rules: Any, seats: int) -> None:
        skat_arena.check(rules, seats)

    def arena_play(self, deal: ArenaDeal) -> str:
        return skat_arena.play(deal)

    def arena_figures(self, seats: Sequence[SeatResult]) -> dict[str, Any]:
        return skat_arena.figures(seats)

    def arena_inference(self, games: Sequence[PlayedGame]) -> dict[str, Any]:
        return skat_arena.inference(games)

    def arena_calibration(self, games: Sequence[PlayedGame], entries: set[int]
                          ) -> dict[str, Any]:
        return skat_arena.calibration(games, entries)


SKAT = SkatGame()
"""The one Skat object (registered in :mod:`stich.games`)."""
