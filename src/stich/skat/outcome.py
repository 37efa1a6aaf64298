"""The result of a finished Skat game, with the whole breakdown."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from stich.cards import card_points
from stich.skat.actions import Declare
from stich.skat.rules import GameType, spitze_card
from stich.skat.scoring import matadors, settle_game, settle_null_overbid, settle_ramsch

if TYPE_CHECKING:
    from stich.skat.state import SkatState

__all__ = ["SkatOutcome", "make_outcome"]


class SkatOutcome(NamedTuple):
    """Everything about how a game ended.

    ``kind`` is ``game`` (a declarer played), ``ramsch`` or ``passed`` (everybody passed
    and the cards are dealt again).  ``scores`` is the change of each seat's list score
    (seat 0 = Vorhand).  For Ramsch, ``points`` holds each seat's card points (the Skat
    counted for the winner of the last trick), ``loser`` the seat that pays, and
    ``durchmarsch`` whether one player took every trick.

    Under house rules: ``kontra`` and ``re`` (said in a declarer's game; each doubles the
    score), ``pushes`` (Schieberamsch: each doubles), ``knocks`` (Klopfen: each doubles)
    and ``jungfrau`` (a Ramsch loss doubled because another player took no trick);
    ``spitze`` and ``spitze_made``; ``gift`` (Schenken: how often the declarer played
    on: 1 Schneider, 2 Schwarz, scored as announced) and ``gift_accepted`` (the declarer
    took the gift: won simply, or with Schneider after playing on once, whatever the
    cards taken so far); ``revolution``.
    ``scores`` include every doubling.

    It is an immutable named tuple: cheap to build, since random playouts build millions.
    """

    kind: str
    scores: tuple[int, int, int]
    declarer: int | None = None
    game: GameType | None = None
    bid: int = 0
    hand: bool = False
    ouvert: bool = False
    schneider_announced: bool = False
    schwarz_announced: bool = False
    matadors: int = 0
    multiplier: int = 0
    value: int = 0
    declarer_points: int = 0
    defender_points: int = 0
    declarer_tricks: int = 0
    defender_tricks: int = 0
    schneider: bool = False
    schwarz: bool = False
    overbid: bool = False
    won: bool = False
    points: tuple[int, int, int] = (0, 0, 0)
    tricks: tuple[int, int, int] = (0, 0, 0)
    loser: int | None = None
    durchmarsch: bool = False
    kontra: bool = False
    re: bool = False
    pushes: int = 0
    jungfrau: bool = False
    knocks: int = 0
    spitze: bool = False
    spitze_made: bool = False
    gift: int = 0
    gift_accepted: bool = False
    revolution: bool = False

    @property
    def mit(self) -> bool:
        """True for "mit" (the declarer holds the Eichel-Unter), False for "ohne"."""
        return self.matadors > 0

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (the ``result`` of a game record)."""
        d: dict[str, Any] = {"kind": self.kind, "scores": list(self.scores)}
        if self.kind == "game":
            d.update(
                declarer=self.declarer, game=str(self.game), bid=self.bid, hand=self.hand,
                ouvert=self.ouvert, schneider_announced=self.schneider_announced,
                schwarz_announced=self.schwarz_announced, matadors=self.matadors,
                multiplier=self.multiplier, value=self.value,
                declarer_points=self.declarer_points, defender_points=self.defender_points,
                declarer_tricks=self.declarer_tricks, defender_tricks=self.defender_tricks,
                schneider=self.schneider, schwarz=self.schwarz, overbid=self.overbid,
                won=self.won,
            )
            if self.kontra:
                d.update(kontra=True, re=self.re)
            if self.spitze:
                d.update(spitze=True, spitze_made=self.spitze_made)
            if self.gift or self.gift_accepted:
                d.update(gift=self.gift, gift_accepted=self.gift_accepted)
            if self.revolution:
                d["revolution"] = True
        elif self.kind == "ramsch":
            d.update(points=list(self.points), tricks=list(self.tricks), loser=self.loser,
                     durchmarsch=self.durchmarsch)
            if self.pushes:
                d["pushes"] = self.pushes
            if self.jungfrau:
                d["jungfrau"] = True
            if self.knocks:
                d["knocks"] = self.knocks
        return d


def make_outcome(state: SkatState) -> SkatOutcome:
    g = state.game_info
    if g is None:
        return SkatOutcome(kind="passed", scores=(0, 0, 0))
    points = state.points
    tricks = state.tricks_won
    rules = state.rules
    if g.declarer < 0:
        to_loser = card_points(state.skat) if rules.ramsch_skat == "loser" else 0
        r = settle_ramsch(points, tricks, durchmarsch=rules.durchmarsch,
                          jungfrau=rules.jungfrau, skat_to_loser=to_loser, pushes=g.pushes,
                          knocks=g.knocks)
        return SkatOutcome(kind="ramsch", scores=r.scores, game=GameType.RAMSCH,
                           points=r.points, tricks=tricks, loser=r.loser,
                           durchmarsch=r.durchmarsch, pushes=g.pushes, jungfrau=r.jungfrau,
                           knocks=g.knocks)
    d = g.declarer
    contract = g.contract
    assert contract is not None
    dp = points[d] + card_points(state.skat)
    dt = tricks[d]
    ft = sum(tricks) - dt
    m = matadors(g.owned, g.game)
    made = contract.spitze and _spitze_made(state, d, g.game, g.resigned)
    gift = state.end_reason == "gift"
    if state.end_reason == "null_overbid":
        s = settle_null_overbid(g.bid)
    elif gift or g.gift:  # Schenken: scored as though announced, or won as given
        c = Declare(g.game, contract.hand, g.gift >= 1, g.gift >= 2)
        if gift:
            s = settle_game(state.rules, c, bid=g.bid, matadors=m,
                            declarer_points=90 if g.gift else 61, declarer_tricks=1,
                            defender_tricks=1, doubled=(g.kontra >= 0) + g.re)
        else:
            s = settle_game(state.rules, c, bid=g.bid, matadors=m, declarer_points=dp,
                            declarer_tricks=dt, defender_tricks=ft,
                            doubled=(g.kontra >= 0) + g.re)
    else:
        s = settle_game(state.rules, contract, bid=g.bid, matadors=m, declarer_points=dp,
                        declarer_tricks=dt, defender_tricks=ft,
                        doubled=(g.kontra >= 0) + g.re, spitze_made=made)
    per_seat = [0, 0, 0]
    per_seat[d] = s.score
    return SkatOutcome(
        kind="game", scores=(per_seat[0], per_seat[1], per_seat[2]), declarer=d, game=g.game,
        bid=g.bid, hand=contract.hand, ouvert=contract.ouvert,
        schneider_announced=contract.schneider or contract.schwarz or (
            contract.ouvert and state.rules.announcements and g.game is not GameType.NULL),
        schwarz_announced=contract.schwarz or (
            contract.ouvert and state.rules.announcements and g.game is not GameType.NULL),
        matadors=m, multiplier=s.multiplier, value=s.value, declarer_points=dp,
        defender_points=120 - dp, declarer_tricks=dt, defender_tricks=ft,
        schneider=s.schneider, schwarz=s.schwarz, overbid=s.overbid, won=s.won,
        points=points, tricks=tricks, kontra=g.kontra >= 0, re=g.re,
        spitze=contract.spitze, spitze_made=made, gift=g.gift, gift_accepted=gift,
        revolution=contract.revolution,
    )


def _spitze_made(state: SkatState, declarer: int, game: GameType, resigned: int) -> bool:
    """Whether the declarer took the last trick with the Spitze card (or both defenders
    gave up, which gives him every trick)."""
    if state.end_reason == "gave_up":
        return resigned.bit_count() == 2
    if state.end_reason != "played":
        return False
    _, cards, winner = state.tricks[-1]
    return winner == declarer and spitze_card(game) in cards
