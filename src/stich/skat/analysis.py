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

What a game is *worth* (:attr:`MoveAnalysis.worth_after`, :attr:`GameAnalysis.start_worth`,
:attr:`MoveAnalysis.cost`) is its list score under its rules: Kontra and Re said in the game
double it (every worth of the game, also before they were said: the analysis judges the
cards, not the doubling), and a Bock game's factor, which only the list knows, comes from
the caller (``analyze(state, bock=2)``; the record of a Bock game names it).  A Schenken
played on counts, goal and worth, as Schneider announced (twice: Schwarz), as the engine
scores it; a Revolution is judged on the hands as the defenders rearranged them.  A
Spitze game is refused (``analysis.spitze``): it is won only with the last trick taken
with the Spitze card, which the open-hand solver does not search yet.

A game ended before its last trick (a claim, giving up, a Schenken accepted, the
shortcut) is judged on the cards played: the position after the last card is valued
with perfect play, like any other; ``final_value``, ``won`` and ``score`` say what the
game really gave.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any

from stich.cards import CARDS, Card, card_points, cards_of, format_cards
from stich.messages import Cards, StichError
from stich.skat.actions import Declare, null_name
from stich.skat.declaring import Goal, game_goal
from stich.skat.lookup import TABLES
from stich.skat.rules import GameType, SkatRules, spitze_card
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
    "game_worth",
    "winning_discards",
]

class AnalysisError(StichError):
    """A game the analysis cannot judge (code ``analysis.*``): no declarer, nothing
    declared yet, a Null lost at the declaration, or a Spitze."""


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
    for Hand games, where the Skat stays); ``final_value``/``won``/``score``: what
    happened, ``score`` the declarer's list score (``None`` while the game runs);
    ``end``: the game's end reason (``claimed``, ``gave_up``, …; empty while it runs).
    ``kontra``/``re``: said in the game; ``bock``: the list's factor for the game.  Every
    worth and cost is a list score with these doublings (:attr:`factor`).  ``gift``: how
    often the declarer played on against a Schenken (the game then counts, and its goal
    is, as with Schneider announced, or Schwarz).
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
    score: int | None = None
    start_worth: int = 0  # the declarer's list score with perfect play from the first lead
    end: str = ""
    kontra: bool = False
    re: bool = False
    bock: int = 1
    gift: int = 0

    @property
    def game(self) -> GameType:
        return self.contract.game

    @property
    def factor(self) -> int:
        """What Kontra, Re and Bock multiply the game's score by on the list (1: none)."""
        return (1 << (self.kontra + self.re)) * self.bock

    @property
    def mistakes(self) -> tuple[MoveAnalysis, ...]:
        """The cards that changed what the game is worth (not every card point given
        away: see :attr:`MoveAnalysis.is_mistake`)."""
        return tuple(m for m in self.moves if m.is_mistake)

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
            "final_value": self.final_value, "won": self.won, "score": self.score,
            "end": self.end, "kontra": self.kontra, "re": self.re, "bock": self.bock,
            "factor": self.factor, "gift": self.gift, "start_worth": self.start_worth,
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


def analyze(state: SkatState, *, all_cards: bool = False, bock: int = 1) -> GameAnalysis:
    """Analyse the card play of a declared game (finished or still running) with all
    cards open.  ``all_cards``: also the value of every legal card at every move (much
    slower: one exact search per card instead of one per position).  ``bock``: the factor
    the list multiplies this game's score by (Bock; 1: none), which a single game does
    not know.

    Raises ValueError for Ramsch, passed games, games not declared yet, a Null
    declaration lost at once as overbid (Lothar's table), and Spitze games."""
    _check_bock(bock)
    _check_analysable(state)
    info = state.game_info
    contract = state.contract
    assert info is not None and contract is not None
    mats = matadors(info.owned, info.game)
    scored = _scored(contract, info.gift)
    goal = game_goal(state.rules, scored, bid=info.bid, matadors=mats)
    states, cards = _card_states(state)
    values = [_state_value(s) for s in states]
    winnable = [_winnable(goal, s, v) for s, v in zip(states, values, strict=True)]
    kontra, re = info.kontra >= 0, info.re
    doubled = kontra + re
    worth = [_worth(s, v, info.bid, mats, doubled, scored) * bock
             for s, v in zip(states, values, strict=True)]
    moves = tuple(
        replace(_move(i, states[i], cards[i], values[i], values[i + 1], winnable[i],
                      winnable[i + 1], all_cards),
                worth_before=worth[i], worth_after=worth[i + 1])
        for i in range(len(cards))
    )
    o = state.outcome() if state.is_over else None
    return GameAnalysis(
        rules=state.rules, contract=contract, declarer=info.declarer, bid=info.bid,
        goal=goal, skat=state.skat, picked_up=info.picked_up, start_value=values[0],
        start_winnable=winnable[0], winning_discards=winning_discards(states[0], goal),
        moves=moves, final_value=_state_value(state) if o is not None else None,
        won=o.won if o is not None else None,
        score=o.scores[info.declarer] * bock if o is not None else None,
        start_worth=worth[0], end=state.end_reason, kontra=kontra, re=re, bock=bock,
        gift=info.gift,
    )


def game_worth(state: SkatState, *, bock: int = 1) -> int:
    """What a declared game is worth for the declarer on the list (his list score) with
    perfect play from a state of its card play where a card is to be played, or what it
    gave once it is over: the worth the analysis judges every card by, with the Kontra
    and Re said so far, a Schenken played on, and the list's ``bock`` factor.  Refuses
    what :func:`analyze` refuses, and a state where an answer or an exchange is awaited
    (``analysis.no_card_now``)."""
    _check_bock(bock)
    _check_analysable(state)
    info = state.game_info
    contract = state.contract
    assert info is not None and contract is not None
    if state.is_over:
        return state.outcome().scores[info.declarer] * bock
    if not state.legal_cards():  # Re, a Schenken's answer or an exchange is awaited
        raise AnalysisError("analysis.no_card_now")
    mats = matadors(info.owned, info.game)
    doubled = (info.kontra >= 0) + info.re
    scored = _scored(contract, info.gift)
    return _worth(state, _state_value(state), info.bid, mats, doubled, scored) * bock


def _scored(contract: Declare, gift: int) -> Declare:
    """The contract a game is scored as: once the declarer played on against a
    Schenken, as though Schneider was announced (played on twice: Schwarz), as the
    engine's outcome settles it."""
    if not gift:
        return contract
    return Declare(contract.game, contract.hand, gift >= 1, gift >= 2)


def _check_bock(bock: int) -> None:
    if isinstance(bock, bool) or not isinstance(bock, int) or bock < 1:
        raise AnalysisError("analysis.bock", value=repr(bock))


def _card_states(state: SkatState) -> tuple[list[SkatState], list[int]]:
    """The positions before each card played and the position after the last one (the
    first lead when no card was played), with the cards.  Kontra, Re, Schenken or a
    Revolution's exchange between cards is no position of its own, and a claim, giving
    up or a Schenken accepted is no card: a game ended so is judged on the cards played."""
    replayed = list(state.replay_states())
    played = [(i, a.index) for i, a in enumerate(state.history)
              if isinstance(a, Card) and replayed[i].phase is Phase.PLAY]
    states = [replayed[i] for i, _ in played]
    if played:
        states.append(replayed[played[-1][0] + 1])
    else:  # where the first card would have been played
        states.append(next(s for s in reversed(replayed)
                           if s.phase is Phase.PLAY and s.legal_cards()))
    return states, [c for _, c in played]


def _check_analysable(state: SkatState) -> None:
    game = state.game
    if game is None:
        if state.end_reason == "passed":
            raise AnalysisError("analysis.all_passed")
        raise AnalysisError("analysis.not_declared")
    if game is GameType.RAMSCH:
        raise AnalysisError("analysis.ramsch")
    contract = state.contract
    if contract is not None and contract.spitze:
        raise AnalysisError("analysis.spitze", card=Cards(1 << spitze_card(game)))
    if state.end_reason == "null_overbid":
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


def _worth(s: SkatState, value: int, bid: int, mats: int, doubled: int,
           contract: Declare) -> int:
    """What the game is worth for the declarer (the list score) when everybody plays
    perfectly from state ``s`` of value ``value``: the settlement of ``value`` points
    (Null: won or lost), with Schwarz when the declarer can still take every trick at
    120 points, or when the declarer took no trick and gets no more points.  (Perfect
    play is counted in card points, as the values are; it decides Schneider too.)
    ``doubled``: Kontra and Re said (each doubles the score); ``contract``: what the game
    is scored as (:func:`_scored`); Bock is the caller's.  A game over is worth what its
    outcome gave (a Schenken accepted: won as given, whatever the cards)."""
    d = s.declarer
    if s.is_over:
        return s.outcome().scores[d]
    if s.game is GameType.NULL:
        return settle_game(s.rules, contract, bid=bid, matadors=0, declarer_points=0,
                           declarer_tricks=1 - value, defender_tricks=0,
                           doubled=doubled).score
    mine = s.tricks_won[d]
    theirs = sum(s.tricks_won) - mine
    ft = 0 if theirs == 0 and value == 120 and takes_all(_position(s)) else 1
    dt = 0 if mine == 0 and value == card_points(s.skat) else 1
    return settle_game(s.rules, contract, bid=bid, matadors=mats, declarer_points=value,
                       declarer_tricks=dt, defender_tricks=ft, doubled=doubled).score


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
