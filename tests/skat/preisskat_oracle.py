"""An independent Preisskat list (Seeger-Fabian), written from the DSkV's
Skatwettspielordnung (SkWO 5.1, "Leistungsbewertung"), for comparison with
``stich.skat_list.SkatList.seeger``.  It imports nothing from ``stich``.

The rule as the text gives it: the game points and the number of games of every
participant, as his list shows them, are joined into one Gesamtleistung.  For every game
won the declarer is credited 50 Wertungspunkte, for every game lost 50 are taken off.
For every game the declarer loses the Gegenpartei is credited: at a table of three the
two defenders 40 each, at a table of four the two defenders and the dealer (who sat the
game out) 30 each.  At equal Leistung the higher number of games won gives the better
place; if that is equal, the lower number of games lost; if that is equal too, the lot.

The oracle works game by game (the implementation sums totals): each game gives every
player at the table its list score plus the Wertungspunkte of that game.  A game without
a declarer (passed in, Ramsch) gives no Wertungspunkte; its list score (a Ramsch's
minus points) counts as it stands on the list.

Where the text leaves a choice, the oracle follows docs/skat.md ("Preisskat"): the lot
is not drawn, equal players share the place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

WON_BONUS = 50
LOST_PENALTY = 50
DEFENDER_BONUS = {3: 40, 4: 30}


@dataclass(frozen=True)
class Game:
    """One line of the list in plain facts.  ``table``: how many players sit at the
    table (3 or 4); ``declarer``: the player (index at the table) who played alone, or
    None (passed in, Ramsch); ``won``: whether he won; ``scores``: the list score of
    every player at the table in this game (Bock, Kontra, Jungfrau ... already in it)."""

    table: int
    declarer: int | None
    won: bool | None
    scores: tuple[int, ...]


@dataclass(frozen=True)
class Line:
    punkte: int  # the list's game points (Punktestand)
    won: int  # games won as declarer
    lost: int  # games lost as declarer
    others_lost: int  # games the others at the table lost as declarer
    leistung: int  # the Gesamtleistung
    place: int = 0


def wertung(game: Game) -> list[int]:
    """The Wertungspunkte of one game per player (the list score not included)."""
    out = [0] * game.table
    if game.declarer is None:
        return out
    if game.won:
        out[game.declarer] += WON_BONUS
    else:
        out[game.declarer] -= LOST_PENALTY
        for p in range(game.table):
            if p != game.declarer:  # the Gegenpartei (at four: the dealer too)
                out[p] += DEFENDER_BONUS[game.table]
    return out


def series(players: int, games: Sequence[Game]) -> list[Line]:
    """Every player's line after a series of games at one table."""
    if players not in DEFENDER_BONUS:
        raise ValueError(f"a Skat table has 3 or 4 players, not {players}")
    punkte, won, lost, others, leistung = ([0] * players for _ in range(5))
    for g in games:
        if g.table != players or len(g.scores) != players:
            raise ValueError("every game is one of this table")
        w = wertung(g)
        for p in range(players):
            punkte[p] += g.scores[p]
            leistung[p] += g.scores[p] + w[p]
        if g.declarer is not None:
            if g.won:
                won[g.declarer] += 1
            else:
                lost[g.declarer] += 1
                for p in range(players):
                    if p != g.declarer:
                        others[p] += 1
    lines = [Line(punkte[p], won[p], lost[p], others[p], leistung[p]) for p in range(players)]
    return [Line(ln.punkte, ln.won, ln.lost, ln.others_lost, ln.leistung,
                 place(lines, p)) for p, ln in enumerate(lines)]


def place(lines: Sequence[Line], p: int) -> int:
    """Player ``p``'s place: 1 + the number of players ranked strictly before him
    (higher Leistung; at equal Leistung more games won; then fewer lost)."""
    me = lines[p]
    before = 0
    for q, other in enumerate(lines):
        if q == p:
            continue
        if other.leistung != me.leistung:
            before += other.leistung > me.leistung
        elif other.won != me.won:
            before += other.won > me.won
        elif other.lost != me.lost:
            before += other.lost < me.lost
    return before + 1
