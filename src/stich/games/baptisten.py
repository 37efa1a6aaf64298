"""Baptistenskat as everything above the engine meets it
(:class:`stich.games.base.Game`): 3 to 15 seats as the rules say, one game of many
rounds per table, the bots of :data:`stich.bots.BAPTISTEN_BOTS`."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from stich import baptisten
from stich.baptisten import BaptistenRules, BaptistenState
from stich.bots import BAPTISTEN_BOTS, LEVELS, make_baptisten_bot
from stich.cards import plain_deck
from stich.core import ArgumentError, RulesError
from stich.games import baptisten_arena
from stich.games.baptisten_play import BaptistenPlay
from stich.games.base import TableOptions, preset_or_text
from stich.games.played import ArenaDeal, PlayedGame, SeatResult
from stich.record import baptisten_record, replay_baptisten

__all__ = ["BAPTISTEN", "BaptistenGame"]


class BaptistenGame:
    """Baptistenskat (:mod:`stich.baptisten`)."""

    name = baptisten.NAME
    title = "Baptistenskat"
    fixed_seats: int | None = None
    table_seats: tuple[int, ...] | None = None
    analysable = False
    one_game_per_table = True
    bot_levels = LEVELS

    @property
    def bots(self) -> Mapping[str, Callable[[], Any]]:
        return BAPTISTEN_BOTS

    def make_bot(self, name: str) -> Any:
        return make_baptisten_bot(name)

    def parse_rules(self, text: str) -> BaptistenRules:
        return BaptistenRules.parse(text)

    def default_rules(self, players: int = 3) -> BaptistenRules:
        return BaptistenRules(players=players)

    def players(self, rules: Any) -> int:
        assert isinstance(rules, BaptistenRules)
        return rules.players

    def record(self, state: Any, players: Sequence[str], *,
               extra: dict[str, Any] | None = None) -> dict[str, Any]:
        assert isinstance(state, BaptistenState)
        return baptisten_record(state, players, extra=extra)

    def replay(self, record: dict[str, Any]) -> BaptistenState:
        return replay_baptisten(record)

    def table_rules(self, options: TableOptions) -> BaptistenRules:
        """The seats are the players; the variants are the numbers 1–5 of the seed text
        (1 the double deck with jokers, 2 forehead, 3 trick scoring, 4 hook always,
        5 must overtrump); without ``max_cards`` the most the deck allows."""
        players = options.seats
        if options.rules:
            rules = BaptistenRules.parse(options.rules)
            if rules.players != players:
                raise ArgumentError("server.seat_count", seats=players, players=rules.players)
            return rules
        base = BaptistenRules.preset(options.preset) if options.preset else BaptistenRules()
        variants = set(options.variants)
        for v in variants:
            if v not in (1, 2, 3, 4, 5):
                raise ArgumentError("server.bad_variant", given=v)
        if 1 in variants and options.deck and options.deck != "romme-double-joker":
            raise ArgumentError("server.variant_deck", deck=options.deck)
        deck = options.deck or ("romme-double-joker" if 1 in variants else base.deck)
        size = plain_deck(deck).size
        fields: dict[str, Any] = {
            "deck": deck, "players": players,
            "forehead": base.forehead or 2 in variants,
            "trick_scoring": base.trick_scoring or 3 in variants,
            "hook_always": base.hook_always or 4 in variants,
            "must_overtrump": base.must_overtrump or 5 in variants,
            "rounds": base.rounds, "trump_card": base.trump_card,
            "points_per_trick": base.points_per_trick, "exact_bonus": base.exact_bonus,
            "exact_zero_bonus": base.exact_zero_bonus,
        }
        if options.max_cards is not None:
            return BaptistenRules(**fields, max_cards=options.max_cards)
        last: Exception | None = None
        for n in range(min(base.max_cards, max(1, size // players)), 0, -1):
            try:
                return BaptistenRules(**fields, max_cards=n)
            except RulesError as e:
                last = e
        assert last is not None
        raise last

    def rules_parts(self, rules: str) -> dict[str, Any]:
        """The rules as the parts a page names in words: ``game``, ``deck`` (its name),
        ``double``, ``joker``, ``max_cards``, ``variants`` (the options that are on)."""
        b = BaptistenRules.parse(rules)
        names = {"elferraus": "Elfer raus", "skat": "Skat", "romme": "Rommé"}
        base = b.deck.split("-")[0]
        return {"game": self.name, "deck": names.get(base, base),
                "double": "double" in b.deck, "joker": "joker" in b.deck,
                "max_cards": b.max_cards,
                "variants": [v for v in ("forehead", "trick_scoring", "hook_always",
                                         "must_overtrump") if getattr(b, v)]}

    def preset_of(self, rules: str) -> str:
        """What the history files a table's rules under: the game's name."""
        return self.name

    rated_by = "places"

    def rating_group(self, rules: str) -> str:
        return preset_or_text(self.name, BaptistenRules.parse, rules)

    def new_play(self, rules: str, seats: int) -> BaptistenPlay:
        parsed = BaptistenRules.parse(rules)
        if parsed.players != seats:
            raise ArgumentError("server.seat_count", seats=seats, players=parsed.players)
        return BaptistenPlay(parsed)

    # --- arena ---
    arena_score = "points per game"
    arena_kind = "bids"

    def arena_check(self, rules: Any, seats: int) -> None:
        baptisten_arena.check(rules, seats)

    def arena_play(self, deal: ArenaDeal) -> str:
        return baptisten_arena.play(deal)

    def arena_figures(self, seats: Sequence[SeatResult]) -> dict[str, Any]:
        return baptisten_arena.figures(seats)

    def arena_inference(self, games: Sequence[PlayedGame]) -> dict[str, Any]:
        return baptisten_arena.inference(games)

    def arena_calibration(self, games: Sequence[PlayedGame], entries: set[int]
                          ) -> dict[str, Any]:
        return baptisten_arena.calibration(games, entries)


BAPTISTEN = BaptistenGame()
"""The one Baptistenskat object (registered in :mod:`stich.games`)."""
