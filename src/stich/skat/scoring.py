"""Counting and settling a Skat game: matadors, multiplier, value, overbid, Ramsch.

These are pure functions of the facts at the end of a game, so that the engine, the ISS
reader (games ended by resignation) and the analysis use one and the same settlement.

The worked example of the rule text: Eichel mit 2 is game 3, worth 36.

>>> from stich.cards import parse_cards
>>> owned = parse_cards("CJ SJ D7 D8 D9 DQ DK S7 S8 S9 H7 H8")
>>> matadors(owned, GameType.EICHEL)
2
>>> r = settle_game(SkatRules(), Declare(GameType.EICHEL), bid=18, matadors=2,
...                 declarer_points=70, declarer_tricks=6, defender_tricks=4)
>>> r.multiplier, r.value, r.score
(3, 36, 36)
"""

from __future__ import annotations

from typing import Any, NamedTuple

from stich.cards import Rank, Suit
from stich.skat.actions import Declare
from stich.skat.rules import NULL_VALUES, GameType, SkatRules, spitze_levels

__all__ = [
    "Settlement",
    "matadors",
    "overbid_value",
    "RamschResult",
    "ramsch_result",
    "settle_ramsch",
    "settle_game",
    "settle_null_overbid",
    "trump_order",
]

_JACKS = tuple(s * 8 + Rank.UNTER for s in (Suit.EICHEL, Suit.GRUEN, Suit.HERZ, Suit.SCHELLEN))
_SUIT_ORDER = (Rank.ASS, Rank.ZEHN, Rank.KOENIG, Rank.OBER, Rank.NINE, Rank.EIGHT, Rank.SEVEN)


def trump_order(game: GameType) -> tuple[int, ...]:
    """Trump card indices from the highest down: the four Unter, then the trump suit."""
    return _TRUMP_ORDER[game]


def _trump_order(game: GameType) -> tuple[int, ...]:
    suit = game.trump_suit
    if suit is None:
        return _JACKS
    return _JACKS + tuple(suit * 8 + r for r in _SUIT_ORDER)


_TRUMP_ORDER = {g: _trump_order(g) for g in GameType}


def matadors(owned: int, game: GameType) -> int:
    """Spitzen over the declarer's ten cards plus the Skat: +n "mit n", -n "ohne n"."""
    if game in (GameType.NULL, GameType.RAMSCH):
        return 0
    order = trump_order(game)
    has_top = bool(owned >> order[0] & 1)
    n = 0
    for card in order:
        if bool(owned >> card & 1) != has_top:
            break
        n += 1
    return n if has_top else -n


class Settlement(NamedTuple):
    """The value and result of a declarer's game."""

    multiplier: int
    value: int
    won: bool
    overbid: bool
    schneider: bool
    schwarz: bool
    score: int

    def to_dict(self) -> dict[str, Any]:
        return self._asdict()


def overbid_value(base: int, bid: int) -> int:
    """The smallest multiple of the base value that reaches the bid."""
    return -(-bid // base) * base


def settle_game(
    rules: SkatRules,
    contract: Declare,
    *,
    bid: int,
    matadors: int,
    declarer_points: int,
    declarer_tricks: int,
    defender_tricks: int,
    doubled: int = 0,
    spitze_made: bool = True,
) -> Settlement:
    """Settle a played suit game, Grand or Null.

    ``declarer_points`` includes the Skat.  A Null game is won when the declarer took
    no trick.  A lost game scores twice its value, negative.  ``doubled`` counts Kontra
    and Re: each doubles the score (not the value).  A declared Spitze adds its levels
    (:func:`~stich.skat.rules.spitze_levels`) and loses the game unless ``spitze_made``.
    """
    s = _settle_game(rules, contract, bid=bid, matadors=matadors,
                     declarer_points=declarer_points, declarer_tricks=declarer_tricks,
                     defender_tricks=defender_tricks, spitze_made=spitze_made)
    if doubled:
        return s._replace(score=s.score << doubled)
    return s


def _settle_game(
    rules: SkatRules,
    contract: Declare,
    *,
    bid: int,
    matadors: int,
    declarer_points: int,
    declarer_tricks: int,
    defender_tricks: int,
    spitze_made: bool = True,
) -> Settlement:
    game = contract.game
    if game is GameType.NULL:
        value = contract.null_value
        won = declarer_tricks == 0
        overbid = value < bid
        if overbid:
            return settle_null_overbid(bid)
        return Settlement(0, value, won, False, False, False, value if won else -2 * value)

    defender_points = 120 - declarer_points
    made = declarer_points >= 61
    if made:
        schneider = defender_points <= 30
        schwarz = defender_tricks == 0
    else:
        schneider = declarer_points <= 30
        schwarz = declarer_tricks == 0
    ann_schwarz = contract.schwarz or (contract.ouvert and rules.announcements)
    ann_schneider = contract.schneider or ann_schwarz
    won = made
    if ann_schneider and defender_points > 30:
        won = False
    if ann_schwarz and defender_tricks > 0:
        won = False
    mult = abs(matadors) + 1
    mult += contract.hand
    mult += schneider or ann_schneider
    mult += ann_schneider
    mult += schwarz or ann_schwarz
    mult += ann_schwarz
    mult += contract.ouvert
    if contract.spitze:
        mult += spitze_levels(rules)
        won = won and spitze_made
    base = game.base_value
    value = base * mult
    overbid = value < bid
    if overbid:
        won = False
        value = overbid_value(base, bid)
    return Settlement(mult, value, won, overbid, schneider, schwarz,
                      value if won else -2 * value)


def settle_null_overbid(bid: int) -> Settlement:
    """Lothar's Null overbid: lost at once, at the smallest Null level reaching the bid."""
    level = min(v for v in NULL_VALUES.values() if v >= bid)
    return Settlement(0, level, False, True, False, False, -2 * level)


def ramsch_result(points: tuple[int, int, int], tricks: tuple[int, int, int]
                  ) -> tuple[tuple[int, int, int], int | None, bool]:
    """Scores per seat, the loser (None after a Durchmarsch) and whether it was one.

    The player with the most points scores minus that many; on a tie the earlier seat in
    the order Vorhand, Mittelhand, Hinterhand loses.  A Durchmarsch (all ten tricks) is
    +120 for that player.
    """
    r = settle_ramsch(points, tricks)
    return r.scores, r.loser, r.durchmarsch


class RamschResult(NamedTuple):
    """How a Ramsch is settled: the scores, the loser (None after a Durchmarsch), and
    what doubled it."""

    scores: tuple[int, int, int]
    loser: int | None
    durchmarsch: bool
    jungfrau: bool
    points: tuple[int, int, int]  # card points, the Skat counted where it went


def settle_ramsch(points: tuple[int, int, int], tricks: tuple[int, int, int], *,
                  durchmarsch: bool = True, jungfrau: bool = False, skat_to_loser: int = 0,
                  pushes: int = 0, knocks: int = 0) -> RamschResult:
    """Settle a Ramsch under the house rules (``docs/skat.md``).

    ``points`` are the card points of each seat's tricks (the Skat included for the
    winner of the last trick under ``ramsch_skat=last_trick``); ``skat_to_loser`` the
    Skat's points when they go to the loser instead.  A Durchmarsch (all ten tricks, if
    played) is +120; else the player with the most points (tie: the earlier seat) loses
    them, twice that if ``jungfrau`` is played and another player took no trick.  Each
    push of a Schieberamsch and each knock (Klopfen) doubles the score.

    >>> settle_ramsch((30, 50, 40), (3, 4, 3), jungfrau=True, pushes=1).scores
    (0, -100, 0)
    >>> settle_ramsch((0, 120, 0), (0, 10, 0), jungfrau=True).scores
    (0, 120, 0)
    """
    factor = 1 << (pushes + knocks)
    if durchmarsch:
        for seat in range(3):
            if tricks[seat] == 10:
                scores = [0, 0, 0]
                scores[seat] = 120 * factor
                return RamschResult((scores[0], scores[1], scores[2]), None, True, False,
                                    points)
    loser = max(range(3), key=lambda s: (points[s], -s))
    pts = list(points)
    pts[loser] += skat_to_loser
    virgin = jungfrau and any(tricks[s] == 0 for s in range(3) if s != loser)
    scores = [0, 0, 0]
    scores[loser] = -pts[loser] * factor * (2 if virgin else 1)
    return RamschResult((scores[0], scores[1], scores[2]), loser, False, virgin,
                        (pts[0], pts[1], pts[2]))
