"""A player's statistics for the player page (issue 43): Skat games, share as declarer,
won as declarer, average list points per game, Ramsch games, Kontra and Re (from the
records' actions), the Preisskat score per series (Seeger-Fabian over the player's
complete tables: :func:`stich.skat_list.seeger`); Baptistenskat games, wins and the
average place; and the ratings with their history (:mod:`stich.ratings`).

Only the games that count for the player (not those a stand-in played for her: docs/
server.md, "Whose game was it"), at most :data:`STATS_GAMES` of the newest, and of the
newest :data:`STATS_TABLES` tables.  The figures are sums over games, as the Bestenliste
counts every game: they tell nothing of one private table (no game, table or time).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import select

from stich import games
from stich.server.store.db import Store
from stich.server.store.models import GamePlayer, GameRow, TableRow
from stich.server.store.ratings import bot_ratings, user_history, user_ratings

__all__ = ["STATS_GAMES", "STATS_TABLES", "kontra_by", "player_ratings", "player_stats",
           "skat_stats"]

STATS_GAMES = 1000
"""The newest games of a player the statistics read (their records: bounded work)."""
STATS_TABLES = 30
"""The newest complete tables of a player whose Preisskat score is counted."""
HISTORY_POINTS = 300
"""The newest rated games of a rating's history that the page draws."""


def kontra_by(record: dict[str, Any]) -> dict[str, list[int]]:
    """The positions (0 = Vorhand) that said ``kontra`` and ``re`` in a Skat record
    (replayed: an action's text does not say who made it); {} when neither was said.

    >>> kontra_by({"actions": ["pass", "pass"]})
    {}
    """
    said = [a for a in record.get("actions", []) if a in ("kontra", "re")]
    if not said:
        return {}
    from stich.record import replay

    try:
        state: Any = replay({**record, "actions": [], "result": None}, check_result=False)
        out: dict[str, list[int]] = {"kontra": [], "re": []}
        for text in record["actions"]:
            if text in out:
                out[text].append(int(state.to_move))
            state = state.apply(state.parse_action(text))
    except (ValueError, KeyError, TypeError):
        return {}
    return out


def skat_stats(games: Sequence[tuple[dict[str, Any], int, int, bool, bool | None]]
               ) -> dict[str, Any]:
    """The Skat figures from the player's games: each (record, position or -1 when he
    sat out, score, declarer, won).

    >>> rec = {"result": {"kind": "ramsch"}, "actions": []}
    >>> s = skat_stats([({"result": {"kind": "game"}, "actions": []}, 0, 48, True, True),
    ...                 (rec, 1, -30, False, None), (rec, -1, 0, False, None)])
    >>> s["games"], s["declarer"], s["declarer_won"], s["average_points"], s["ramsch"]
    (2, 1, 1, 9.0, 1)
    """
    played = [g for g in games if g[1] >= 0]
    n = len(played)
    declared = [g for g in played if g[3]]
    won = sum(1 for g in declared if g[4])
    kontra_games = kontra_said = re_said = 0
    for record, position, *_ in played:
        said = kontra_by(record)
        if said.get("kontra"):
            kontra_games += 1
            kontra_said += position in said["kontra"]
            re_said += position in said.get("re", [])
    return {"games": n, "sat_out": len(games) - n, "declarer": len(declared),
            "declarer_share": round(len(declared) / n, 3) if n else None,
            "declarer_won": won,
            "declarer_won_share": round(won / len(declared), 3) if declared else None,
            "average_points": round(sum(g[2] for g in played) / n, 1) if n else None,
            "ramsch": sum(1 for g in played
                          if (g[0].get("result") or {}).get("kind") == "ramsch"),
            "kontra_games": kontra_games, "kontra_said": kontra_said, "re_said": re_said}


def _position(record: dict[str, Any], seat: int, sat_out: bool) -> int:
    """The player's position (0 = Vorhand) in a game, -1 when he sat it out."""
    if sat_out:
        return -1
    seats = record.get("seats")
    return seats.index(seat) if isinstance(seats, list) and seat in seats else seat


async def player_stats(store: Store, user_id: int) -> dict[str, Any]:
    """The player page's statistics (the module's docstring says which games)."""
    q = (select(GameRow.game, GameRow.table_id, GameRow.record, GamePlayer.seat,
                GamePlayer.score, GamePlayer.declarer, GamePlayer.won, GamePlayer.place,
                GamePlayer.sat_out)
         .join(GamePlayer, GamePlayer.game_id == GameRow.id)
         .where(GamePlayer.user_id == user_id, GamePlayer.counts.is_(True))
         .order_by(GameRow.id.desc()).limit(STATS_GAMES))
    async with store.session() as s:
        rows = (await s.execute(q)).all()
    skat = [(r.record, _position(r.record, r.seat, r.sat_out), r.score, r.declarer, r.won)
            for r in rows if r.game == games.SKAT.name]
    bapt = [r for r in rows if r.game == games.BAPTISTEN.name]
    out: dict[str, Any] = {games.SKAT.name: skat_stats(skat), "limit": STATS_GAMES}
    out[games.SKAT.name] |= await _preisskat(store, user_id,
                                    list(dict.fromkeys(r.table_id for r in rows
                                                       if r.game == games.SKAT.name)))
    places = [r.place for r in bapt if r.place]
    out[games.BAPTISTEN.name] = {"games": len(bapt), "wins": sum(1 for p in places if p == 1),
                        "average_place": round(sum(places) / len(places), 2)
                        if places else None}
    return out


async def _preisskat(store: Store, user_id: int, tables: list[str]) -> dict[str, Any]:
    """The player's Preisskat score (Seeger-Fabian Leistung) per complete series: the
    newest :data:`STATS_TABLES` tables that are over, played all their games, and whose
    every game counted for him at one seat."""
    from stich.skat_list import seeger

    async with store.session() as s:
        over = {t.id: t for t in (await s.execute(
            select(TableRow).where(TableRow.id.in_(tables[:STATS_TABLES * 3]),
                                   TableRow.status == "over"))).scalars()}
        ids = [t for t in tables if t in over][:STATS_TABLES]
        lines = (await s.execute(
            select(GameRow.table_id, GameRow.number, GamePlayer.seat, GamePlayer.user_id,
                   GamePlayer.counts, GamePlayer.score, GamePlayer.declarer, GamePlayer.won)
            .join(GamePlayer, GamePlayer.game_id == GameRow.id)
            .where(GameRow.table_id.in_(ids)))).all() if ids else []
    scores: list[int] = []
    for tid in ids:
        mine = [x for x in lines if x.table_id == tid]
        numbers = {x.number for x in mine}
        planned = int(over[tid].settings.get("games", 0) or 0)
        seats = sorted({x.seat for x in mine})
        own = {x.seat for x in mine if x.user_id == user_id}
        if (len(numbers) != planned or len(seats) not in (3, 4) or len(own) != 1
                or not all(x.counts for x in mine if x.user_id == user_id)):
            continue
        totals = [sum(x.score for x in mine if x.seat == s) for s in seats]
        won = [sum(1 for x in mine if x.seat == s and x.declarer and x.won) for s in seats]
        lost = [sum(1 for x in mine if x.seat == s and x.declarer and x.won is False)
                for s in seats]
        scores.append(seeger(totals, won, lost)[seats.index(own.pop())].score)
    return {"series": len(scores),
            "preisskat_average": round(sum(scores) / len(scores), 1) if scores else None}


async def player_ratings(store: Store, user_id: int, lang: str) -> list[dict[str, Any]]:
    """The player's ratings (per game and rule group: ``rating`` = mu − 3σ, ``mu``,
    ``sigma``, ``games``), each with its history (``history``: the shown figure after
    each of the newest :data:`HISTORY_POINTS` rated games), the bots' ratings of the
    group (``bots``: level → shown figure) and the bot whose rating is nearest
    (``like``: "plays like ``strong``")."""
    from stich.present.skat_rules import rules_words

    out = []
    for r in await user_ratings(store, user_id):
        history = await user_history(store, user_id, r["game"], r["group"], HISTORY_POINTS)
        bots = await bot_ratings(store, r["game"], r["group"])
        group = r["group"]
        words = None
        if r["game"] == games.SKAT.name and "(" in group:
            try:
                words = rules_words(group, lang, short=True)
            except ValueError:
                words = None
        shown = r["mu"] - 3 * r["sigma"]
        bot_shown = {lv: b["mu"] - 3 * b["sigma"] for lv, b in bots.items()}
        like = min(bot_shown, key=lambda lv: abs(bot_shown[lv] - shown)) if bot_shown else None
        out.append(r | {"rating": round(shown, 1), "like": like,
                        "words": words,
                        "history": [round(h["mu"] - 3 * h["sigma"], 2) for h in history],
                        "bots": {lv: round(b["mu"] - 3 * b["sigma"], 1)
                                 for lv, b in sorted(bots.items())}})
    return out
