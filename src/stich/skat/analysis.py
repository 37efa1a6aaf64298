"""Analysis of a Skat game with all cards open: the value of every card played against
the best card in its position, the mistakes, and whether the declarer could have won.

Values are *total declarer points at the end*: the card points the declarer has taken
in completed tricks, plus the Skat, plus what the declarer takes of the cards still in
play when all three play perfectly from there on (the open-hand solver,
:mod:`stich.skat.solver`).  The declarer maximises this number, the defenders minimise
it.  In Null a value is 1 while the declarer can still avoid every trick, else 0.

What the declarer needs to win (the :class:`Goal`) comes from the settlement
(:func:`stich.skat.scoring.settle_game`) with the matadors of the declarer's hand and
the Skat: 61 points; 90 with Schneider announced; every trick with Schwarz announced (and
ISkO Ouvert); a higher level when only Schneider or Schwarz lift the game's value to the
bid; no trick in Null.  A game that is overbid even with Schwarz is lost regardless.

The goal is :func:`stich.skat.declaring.game_goal` (shared with the table's declare
values and the terminal's confirmation); its examples are there.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any

from stich.cards import CARDS, Card, card_points, cards_of, format_cards
from stich.messages import StichError
from stich.skat.actions import Declare, null_name
from stich.skat.declaring import Goal, game_goal
from stich.skat.lookup import TABLES
from stich.skat.rules import GameType, SkatRules
from stich.skat.scoring import matadors, settle_game
from stich.skat.solver import Position, card_values, null_won, reaches, solve, takes_all
from stich.skat.state import Phase, SkatState

__all__ = [
    "AnalysisError",
    "GameAnalysis",
    "Goal",
    "MoveAnalysis",
    "analyze",
    "game_goal",
    "winning_discards",
]

class AnalysisError(StichError):
    """A game the analysis cannot judge (code ``analysis.*``): no declarer, nothing
    declared yet, or a Null lost at the declaration."""


@dataclass(frozen=True)
class MoveAnalysis:
    """One card played, judged with all cards open.

    ``position`` is the position before the card, ``banked`` the declarer's total before
    it (card points of completed tricks plus the Skat).  ``value`` is the total declarer
    points at the end after this card with perfect play from then on (Null: 1 won, 0
    lost); ``best_card``/``best_value`` a best card here and its value (the card played
    when it is one).  ``values`` holds every legal card's value when asked for.
    """

    index: int
    trick_no: int
    seat: int
    card: int
    position: Position
    banked: int
    value: int
    best_card: int
    best_value: int
    winnable_before: bool
    winnable_after: bool
    values: dict[int, int] | None = None
    worth_before: int = 0
    worth_after: int = 0

    @property
    def by_declarer(self) -> bool:
        return self.seat == self.position.declarer

    @property
    def cost(self) -> int:
        """What this card cost its side in list points: how much the game's worth (the
        declarer's score with perfect play: won or lost, Schneider, Schwarz) fell for
        the declarer or rose for the defenders.  0 when only card points changed."""
        diff = self.worth_before - self.worth_after
        return diff if self.by_declarer else -diff

    @property
    def is_mistake(self) -> bool:
        """A card that changed what the game is worth (:attr:`cost` > 0); a card that
        only gave away card points (:attr:`loss`) is not a mistake."""
        return self.cost > 0

    @property
    def loss(self) -> int:
        """What this card cost its side: points (Null: 1 if it turned the game)."""
        diff = self.best_value - self.value
        return diff if self.by_declarer else -diff

    @property
    def mark(self) -> str:
        """``lost_here``: after this declarer card the game could no longer be won;
        ``won_here``: after this defender card the defenders could no longer stop it."""
        if self.winnable_before and not self.winnable_after:
            return "lost_here"
        if self.winnable_after and not self.winnable_before:
            return "won_here"
        return ""

    def to_dict(self) -> dict[str, Any]:
        p = self.position
        d: dict[str, Any] = {
            "index": self.index, "trick": self.trick_no, "seat": self.seat,
            "declarer": self.by_declarer, "card": _code(self.card),
            "position": {"hands": [format_cards(h) for h in p.hands],
                         "trick": [_code(c) for c in p.trick], "to_move": p.to_move,
                         "declarer": p.declarer, "banked": self.banked},
            "value": self.value, "best_card": _code(self.best_card),
            "best_value": self.best_value, "loss": self.loss,
            "winnable_before": self.winnable_before, "winnable_after": self.winnable_after,
            "mark": self.mark, "worth": self.worth_after, "cost": self.cost,
            "mistake": self.is_mistake,
        }
        if self.values is not None:
            d["values"] = {_code(c): v for c, v in sorted(self.values.items())}
        return d


@dataclass(frozen=True)
class GameAnalysis:
    """The analysis of one declared game (see :func:`analyze`).

    ``start_value``/``start_winnable``: the declarer's total under perfect play from the
    first lead and whether that wins; ``winning_discards``: every pair of the twelve
    cards that, put away, would have won the declared game with open cards (``None``
    for Hand games, where the Skat stays); ``final_value``/``won``: what happened
    (``None`` while the game runs).
    """

    rules: SkatRules
    contract: Declare
    declarer: int
    bid: int
    goal: Goal
    skat: int
    picked_up: bool
    start_value: int
    start_winnable: bool
    winning_discards: tuple[int, ...] | None
    moves: tuple[MoveAnalysis, ...]
    final_value: int | None
    won: bool | None

    @property
    def game(self) -> GameType:
        return self.contract.game

    @property
    def mistakes(self) -> tuple[MoveAnalysis, ...]:
        """The cards that changed what the game is worth (not every card point given
        away: see :attr:`MoveAnalysis.is_mistake`)."""
        return tuple(m for m in self.moves if m.is_mistake)

    @property
    def start_worth(self) -> int:
        """The declarer's list score with perfect play from the first lead."""
        return self.moves[0].worth_before if self.moves else 0

    @property
    def lost_at(self) -> int | None:
        """Index of the declarer card after which the game could not be won any more
        (to the end), if there is one."""
        return _last_turn(self.moves, "lost_here", lambda m: not m.winnable_after)

    @property
    def decided_at(self) -> int | None:
        """Index of the defender card after which the defenders could not stop the
        declarer any more (to the end), if there is one."""
        return _last_turn(self.moves, "won_here", lambda m: m.winnable_after)

    def to_dict(self) -> dict[str, Any]:
        wd = self.winning_discards
        return {
            "rules": str(self.rules), "game": str(self.game), "contract": str(self.contract),
            "declarer": self.declarer, "bid": self.bid, "goal": self.goal.to_dict(),
            "picked_up": self.picked_up, "skat": format_cards(self.skat),
            "skat_points": card_points(self.skat), "start_value": self.start_value,
            "start_winnable": self.start_winnable,
            "winning_discards": None if wd is None else [format_cards(s) for s in wd],
            "final_value": self.final_value, "won": self.won,
            "start_worth": self.start_worth,
            "mistakes": len(self.mistakes), "lost_at": self.lost_at,
            "decided_at": self.decided_at,
            "moves": [m.to_dict() for m in self.moves],
        }


def _last_turn(moves: tuple[MoveAnalysis, ...], mark: str,
               stays: Callable[[MoveAnalysis], bool]) -> int | None:
    turns = [m.index for m in moves if m.mark == mark]
    if not turns or not stays(moves[-1]):
        return None
    return turns[-1]


def _code(card: int) -> str:
    return str(CARDS[card])


# --- the analysis ----------------------------------------------------------------------


def analyze(state: SkatState, *, all_cards: bool = False) -> GameAnalysis:
    """Analyse the card play of a declared game (finished or still running) with all
    cards open.  ``all_cards``: also the value of every legal card at every move (much
    slower: one exact search per card instead of one per position).

    Raises ValueError for Ramsch, passed games, games not declared yet, and a Null
    declaration lost at once as overbid (Lothar's table)."""
    _check_analysable(state)
    info = state.game_info
    contract = state.contract
    assert info is not None and contract is not None
    goal = game_goal(state.rules, contract, bid=info.bid,
                     matadors=matadors(info.owned, info.game))
    history = state.history
    replayed = list(state.replay_states())
    # the positions before each card (a Kontra or Re between them is no position of its own)
    states = [s for s, a in zip(replayed, history, strict=False)
              if s.phase is Phase.PLAY and isinstance(a, Card)]
    cards = [a.index for a in history if isinstance(a, Card)]
    if state.is_over or replayed[-1].phase is Phase.PLAY:
        states.append(replayed[-1])
    values = [_state_value(s) for s in states]
    winnable = [_winnable(goal, s, v) for s, v in zip(states, values, strict=True)]
    worth = [_worth(s, v, info.bid, matadors(info.owned, info.game))
             for s, v in zip(states, values, strict=True)]
    moves = tuple(
        replace(_move(i, states[i], cards[i], values[i], values[i + 1], winnable[i],
                      winnable[i + 1], all_cards),
                worth_before=worth[i], worth_after=worth[i + 1])
        for i in range(len(cards))
    )
    over = state.is_over
    o = state.outcome() if over else None
    return GameAnalysis(
        rules=state.rules, contract=contract, declarer=info.declarer, bid=info.bid,
        goal=goal, skat=state.skat, picked_up=info.picked_up, start_value=values[0],
        start_winnable=winnable[0], winning_discards=winning_discards(states[0], goal),
        moves=moves, final_value=values[-1] if over else None,
        won=o.won if o is not None else None,
    )


def _check_analysable(state: SkatState) -> None:
    game = state.game
    if game is None:
        if state.end_reason == "passed":
            raise AnalysisError("analysis.all_passed")
        raise AnalysisError("analysis.not_declared")
    if game is GameType.RAMSCH:
        raise AnalysisError("analysis.ramsch")
    if state.end_reason == "null_overbid":
        contract = state.contract
        assert contract is not None
        raise AnalysisError("analysis.null_overbid", game=null_name(contract),
                            value=contract.null_value, bid=state.bid_value)


def _position(s: SkatState) -> Position:
    game = s.game
    assert game is not None
    return Position(game, s.hands, s.declarer, s.to_move, s.trick)


def _banked(s: SkatState) -> int:
    """The declarer's card points so far: completed tricks and the Skat."""
    return s.points[s.declarer] + card_points(s.skat)


def _state_value(s: SkatState) -> int:
    """The value of a card-play state (see the module text) with perfect play."""
    d = s.declarer
    if s.game is GameType.NULL:
        if s.tricks_won[d]:
            return 0
        return 1 if s.is_over else int(null_won(_position(s)))
    if s.is_over:
        return _banked(s)
    return _banked(s) + solve(_position(s))


def _worth(s: SkatState, value: int, bid: int, mats: int) -> int:
    """What the game is worth for the declarer (the list score) when everybody plays
    perfectly from state ``s`` of value ``value``: the settlement of ``value`` points
    (Null: won or lost), with Schwarz when the declarer can still take every trick at
    120 points, or when the declarer took no trick and gets no more points.  (Perfect
    play is counted in card points, as the values are; it decides Schneider too.)"""
    contract = s.contract
    assert contract is not None
    d = s.declarer
    if s.game is GameType.NULL:
        return settle_game(s.rules, contract, bid=bid, matadors=0, declarer_points=0,
                           declarer_tricks=1 - value, defender_tricks=0).score
    mine = s.tricks_won[d]
    theirs = sum(s.tricks_won) - mine
    if s.is_over:
        dt, ft = mine, theirs
    else:
        ft = 0 if theirs == 0 and value == 120 and takes_all(_position(s)) else 1
        dt = 0 if mine == 0 and value == card_points(s.skat) else 1
    return settle_game(s.rules, contract, bid=bid, matadors=mats, declarer_points=value,
                       declarer_tricks=dt, defender_tricks=ft).score


def _winnable(goal: Goal, s: SkatState, value: int) -> bool:
    """Whether the declarer still wins with perfect play from state ``s`` (of value
    ``value``)."""
    kind = goal.kind
    if kind == "points":
        return value >= goal.points
    if kind == "no_trick":
        return value == 1
    if kind == "impossible":
        return False
    d = s.declarer
    if sum(s.tricks_won) != s.tricks_won[d]:  # all tricks: the defenders took one
        return False
    return s.is_over or takes_all(_position(s))


def _move(i: int, s: SkatState, card: int, before: int, after: int,
          win_before: bool, win_after: bool, all_cards: bool) -> MoveAnalysis:
    """One card's analysis; ``before`` is the position's value (the best card's),
    ``after`` the value once ``card`` is played."""
    pos = _position(s)
    values = None
    if all_cards:
        banked = 0 if s.game is GameType.NULL else _banked(s)
        values = {c: banked + v for c, v in card_values(pos).items()}
    if after == before:
        best = card
    elif values is not None:
        best = next(c for c in _candidates(s) if values[c] == before)
    else:
        best = _best_card(s, before)
    return MoveAnalysis(
        index=i, trick_no=len(s.tricks) + 1, seat=s.to_move, card=card, position=pos,
        banked=_banked(s), value=after, best_card=best, best_value=before,
        winnable_before=win_before, winnable_after=win_after, values=values,
    )


def _candidates(s: SkatState) -> list[int]:
    """The legal cards, strongest first (a fixed order for naming a best card)."""
    game = s.game
    assert game is not None
    strength = TABLES[game].strength
    return sorted((c.index for c in cards_of(s.legal_cards())),
                  key=lambda c: (-strength[c], -c))


def _best_card(s: SkatState, best: int) -> int:
    """A legal card that keeps the position's value ``best``, found with zero-window
    questions (cheaper than the exact value of every card)."""
    maximise = s.to_move == s.declarer
    for c in _candidates(s):
        child = s.apply(CARDS[c])
        if maximise and _at_least(child, best):
            return c
        if not maximise and not _at_least(child, best + 1):
            return c
    raise AssertionError("no card keeps the position's value")  # pragma: no cover


def _at_least(s: SkatState, target: int) -> bool:
    """Whether the state's value is at least ``target``."""
    if s.game is GameType.NULL or s.is_over:
        return _state_value(s) >= target
    return reaches(_position(s), target - _banked(s))


def winning_discards(first: SkatState, goal: Goal) -> tuple[int, ...] | None:
    """For a game whose Skat was picked up, given the state at the first lead: every
    pair of the declarer's twelve cards (hand and Skat) that, put away, wins the
    declared game with open cards (as card sets, in card order).  ``None`` for Hand.

    Discards that put away cards playing alike (see :func:`_play_key`) are searched
    once."""
    info = first.game_info
    assert info is not None
    if not info.picked_up:
        return None
    if goal.kind == "impossible":
        return ()
    d = first.declarer
    others = ((1 << 32) - 1) & ~info.owned
    known: dict[tuple[tuple[int, int, int], ...], bool] = {}
    out = []
    for a, b in combinations(cards_of(info.owned), 2):
        kind = tuple(sorted((_play_key(info.game, a.index, others),
                             _play_key(info.game, b.index, others))))
        if kind not in known:
            skat = a.bit | b.bit
            hands = list(first.hands)
            hands[d] = info.owned & ~skat
            pos = Position(info.game, (hands[0], hands[1], hands[2]), d, 0)
            known[kind] = _open_win(goal, pos, card_points(skat))
        if known[kind]:
            out.append(a.bit | b.bit)
    return tuple(out)


def _play_key(game: GameType, card: int, others: int) -> tuple[int, int, int]:
    """What a card of the declarer's is worth in play: its follow group, its points
    (none in Null) and the other players' cards of the group below it.  Two of the
    declarer's cards with the same key can swap places without changing the game."""
    t = TABLES[game]
    group = t.follow[card]
    st = t.strength
    mine = others & group
    below = sum(1 << x for x in range(32) if mine >> x & 1 and st[x] < st[card])
    return group, 0 if game is GameType.NULL else CARDS[card].points, below


def _open_win(goal: Goal, pos: Position, banked: int) -> bool:
    """Whether the declarer wins from a first-lead position with ``banked`` points in
    the Skat."""
    if goal.kind == "points":
        return reaches(pos, goal.points - banked)
    if goal.kind == "all_tricks":
        return takes_all(pos)
    if goal.kind == "no_trick":
        return null_won(pos)
    return False
