"""A Baptistenskat table: one game of many rounds, dealt from the table's seed; the
table seats are the game's seats."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from stich.baptisten import BaptistenRules, BaptistenState
from stich.baptisten.scoring import ranking
from stich.cards import bits
from stich.games.play import FinishKind, SeedOf, step
from stich.record import baptisten_record

__all__ = ["BaptistenPlay"]


class BaptistenPlay:
    """The game side of a Baptistenskat table (:class:`stich.games.play.TablePlay`)."""

    deals_each_game = False
    finish_kind: FinishKind = "round_over"

    def __init__(self, rules: BaptistenRules) -> None:
        self._rules = rules
        self.baptisten: BaptistenState | None = None
        # the last trick of the last round (leader, card indices, winner)
        self.last_trick: tuple[int, list[int], int] | None = None

    @property
    def rules(self) -> BaptistenRules:
        return self._rules

    @property
    def state(self) -> BaptistenState | None:
        return self.baptisten

    def start(self, first: int, names: Sequence[str], seed_of: SeedOf) -> None:
        self.baptisten = BaptistenState.new(self._rules, seed=seed_of(1), first=first)

    def deal(self, number: int, seed_of: SeedOf) -> None:
        raise AssertionError("a Baptistenskat table deals its rounds itself")

    def position_of(self, seat: int) -> int:
        return seat

    def seat_at(self, position: int) -> int:
        return position

    def step(self, text: str) -> tuple[BaptistenState, str]:
        assert self.baptisten is not None
        new, canonical = step(self.baptisten, text)
        assert isinstance(new, BaptistenState)
        return new, canonical

    def finished_by(self, new: Any) -> bool:
        assert self.baptisten is not None
        return bool(new.round_index != self.baptisten.round_index or new.is_over)

    def finish_data(self, game_number: int) -> dict[str, Any]:
        assert self.baptisten is not None
        return {"round": self.baptisten.round_no}

    def table_ends(self, new: Any, planned: int, game_number: int, ending: bool) -> bool:
        return bool(new.is_over)

    def moved(self, new: Any, seat: int) -> None:
        assert isinstance(new, BaptistenState)
        old = self.baptisten
        assert old is not None
        if new.round_index != old.round_index or new.is_over:
            self.last_trick = _last_trick(old, new, seat)
        self.baptisten = new

    def finish_game(self, names: Sequence[str], extra: dict[str, Any]) -> dict[str, Any]:
        assert self.baptisten is not None
        return baptisten_record(self.baptisten, list(names), extra=extra)

    def game_over(self) -> bool:
        return self.baptisten is not None and self.baptisten.is_over

    def games_played(self, games_done: int) -> int:
        return len(self.baptisten.sheet) if self.baptisten is not None else 0

    def result_lines(self, record: dict[str, Any]) -> tuple[int, list[dict[str, Any]]]:
        assert self.baptisten is not None
        totals = self.baptisten.totals
        places = {p: pl for p, _, pl in ranking(totals)}
        return 1, [{"score": totals[seat], "bilanz": 0, "declarer": False, "won": None,
                    "place": places[seat]} for seat in range(len(totals))]

    def snapshot(self) -> dict[str, Any]:
        lt = self.last_trick
        return {"positions": [0, 1, 2], "last_trick": None if lt is None else list(lt),
                "list": None}

    def restore(self, snap: dict[str, Any], acts: Sequence[str], *, first: int,
                game_number: int, started: bool, seed_of: SeedOf) -> None:
        lt = snap["last_trick"]
        self.last_trick = None if lt is None else (int(lt[0]), list(lt[1]), int(lt[2]))
        if started:
            state = BaptistenState.new(self._rules, seed=seed_of(1), first=first)
            for text in acts:
                state = step(state, text)[0]
            self.baptisten = state


def _last_trick(old: BaptistenState, new: BaptistenState,
                seat: int) -> tuple[int, list[int], int]:
    """A round's last trick, played by ``seat``'s last card: every player's last card,
    and the winner (the one whose trick count the round's sheet row raised)."""
    cards = [*old.trick, *bits(old.hands[seat])]
    row = new.sheet[-1]
    winner = next((p for p in range(len(row.tricks)) if row.tricks[p] > old.tricks_won[p]),
                  seat)
    return old.leader, cards, winner
