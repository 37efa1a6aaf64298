"""A Skat table: a list of games (:class:`stich.skat_list.SkatList`), each dealt from the
table's seed and its number, the positions (Vorhand, Mittelhand, Hinterhand) rotating
over the table's seats.  A table has three or four seats; at four the dealer sits each
game out (:meth:`SkatPlay.position_of` gives -1 for his seat)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from stich.games.play import FinishKind, SeedOf, step
from stich.record import skat_record
from stich.skat import SkatRules, SkatState
from stich.skat.outcome import SkatOutcome
from stich.skat.rules import GameType
from stich.skat_list import ListGame, SkatList, game_bilanz

__all__ = ["SkatPlay"]


class SkatPlay:
    """The game side of a Skat table (:class:`stich.games.play.TablePlay`)."""

    deals_each_game = True
    finish_kind: FinishKind = "game_over"

    def __init__(self, rules: SkatRules) -> None:
        self._rules = rules
        self.skat: SkatState | None = None
        self.skat_list: SkatList | None = None
        self.positions: tuple[int, int, int] = (0, 1, 2)

    @property
    def rules(self) -> SkatRules:
        return self._rules

    @property
    def state(self) -> SkatState | None:
        return self.skat

    def start(self, first: int, names: Sequence[str], seed_of: SeedOf) -> None:
        self.skat_list = SkatList(list(names), self._rules, first_dealer=first)

    def deal(self, number: int, seed_of: SeedOf) -> None:
        assert self.skat_list is not None
        self.positions = self.skat_list.positions()
        self.skat = SkatState.new(self._rules, seed=seed_of(number),
                                  ramsch_round=self.skat_list.next_ramsch_round())

    def position_of(self, seat: int) -> int:
        """The seat's position in the running game; -1 for the dealer who sits out at a
        table of four."""
        return self.positions.index(seat) if seat in self.positions else -1

    def seat_at(self, position: int) -> int:
        return self.positions[position]

    def step(self, text: str) -> tuple[SkatState, str]:
        assert self.skat is not None
        new, canonical = step(self.skat, text)
        assert isinstance(new, SkatState)
        return new, canonical

    def finished_by(self, new: Any) -> bool:
        return bool(new.is_over)

    def finish_data(self, game_number: int) -> dict[str, Any]:
        return {"number": game_number}

    def table_ends(self, new: Any, planned: int, game_number: int, ending: bool) -> bool:
        return bool(planned and game_number >= planned) or ending

    def moved(self, new: Any, seat: int) -> None:
        assert isinstance(new, SkatState)
        self.skat = new

    def finish_game(self, names: Sequence[str], extra: dict[str, Any]) -> dict[str, Any]:
        assert self.skat is not None and self.skat_list is not None
        by_position = [names[p] for p in self.positions]
        entry: ListGame = self.skat_list.record_game(self.skat.outcome(), self.positions,
                                                     self.skat.ramsch_round)
        table: dict[str, Any] = {"table_game": entry.number, "seats": list(self.positions)}
        if len(names) == 4:
            table["sat_out"] = names[entry.dealer]
        if entry.bock != 1:
            table["bock"] = entry.bock
        return skat_record(self.skat, by_position, extra={**table, **extra})

    def game_over(self) -> bool:
        return self.skat is not None and self.skat.is_over

    def games_played(self, games_done: int) -> int:
        return games_done

    def result_lines(self, record: dict[str, Any]) -> tuple[int, list[dict[str, Any]]]:
        assert self.skat_list is not None
        number = int(record["table_game"])
        entry = self.skat_list.games[number - 1]
        bil = game_bilanz(entry.scores)
        lines: list[dict[str, Any]] = [
            {"score": entry.scores[seat], "bilanz": bil[seat],
             "declarer": entry.declarer == seat,
             "won": entry.won if entry.declarer == seat else None, "place": None}
            for seat in range(len(entry.scores))]
        if len(entry.scores) == 4:
            lines[entry.dealer]["sat_out"] = True
        return number, lines

    def snapshot(self) -> dict[str, Any]:
        table = self.skat_list
        return {"positions": list(self.positions), "last_trick": None,
                "list": None if table is None else {
                    "players": table.players, "first_dealer": table.first_dealer,
                    "dealer": table.dealer, "games": [_game(g) for g in table.games]}}

    def restore(self, snap: dict[str, Any], acts: Sequence[str], *, first: int,
                game_number: int, started: bool, seed_of: SeedOf) -> None:
        p = snap["positions"]
        self.positions = (int(p[0]), int(p[1]), int(p[2]))
        if snap["list"] is not None:
            d = snap["list"]
            table = SkatList(list(d["players"]), self._rules, first_dealer=d["first_dealer"])
            table.restore([_table_game(g) for g in d["games"]], int(d["dealer"]))
            self.skat_list = table
        if game_number > 0:
            ramsch_round = self.skat_list is not None and self.skat_list.next_ramsch_round()
            skat = SkatState.new(self._rules, seed=seed_of(game_number),
                                 ramsch_round=ramsch_round)
            for text in acts:
                skat = step(skat, text)[0]
            self.skat = skat


def _game(g: ListGame) -> dict[str, Any]:
    out = g.outcome._asdict()
    out["game"] = None if g.outcome.game is None else g.outcome.game.value
    d = {"number": g.number, "dealer": g.dealer, "positions": list(g.positions),
         "kind": g.kind, "declarer": g.declarer, "game": g.game, "value": g.value,
         "won": g.won, "scores": list(g.scores), "totals": list(g.totals),
         "outcome": out}
    if g.bock != 1:
        d["bock"] = g.bock
    if g.ramsch_round:
        d["ramsch_round"] = True
    return d


def _table_game(d: dict[str, Any]) -> ListGame:
    o = dict(d["outcome"])
    o["game"] = None if o["game"] is None else GameType(o["game"])
    for key in ("scores", "points", "tricks"):
        o[key] = tuple(o[key])
    p, sc, t = d["positions"], d["scores"], d["totals"]
    return ListGame(number=d["number"], dealer=d["dealer"], positions=(p[0], p[1], p[2]),
                     kind=d["kind"], declarer=d["declarer"], game=d["game"], value=d["value"],
                     won=d["won"], scores=tuple(sc), totals=tuple(t),
                     outcome=SkatOutcome(**o), bock=int(d.get("bock", 1)),
                     ramsch_round=bool(d.get("ramsch_round", False)))
