"""Replaying an ISS record with the ``isko`` engine, and settling the games the server
ends before the last trick.

The engine plays every game to its last trick (RULES.md).  The server ends some games
earlier; the replay follows its moves until that point and settles the game there, with
the same pure function as a played game (:func:`stich.skat.scoring.settle_game`):

- both defenders resign (on ``PC[ISS2]`` one defender suffices once the declarer has
  shown his cards), or a defender runs out of time: the declarer takes the cards still
  in play and the tricks not yet made;
- the declarer resigns or runs out of time: the defenders take them;
- an announced Schwarz fails (the defenders take a trick) or the defenders pass 30
  against an announced Schneider: the game ends as it stands.

``docs/iss.md`` gives the evidence for each rule.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from stich.cards import Card, card_points
from stich.core import IllegalActionError
from stich.messages import Cards, Msg, Seat
from stich.skat.actions import HAND, HOLD, PASS, PICKUP, Action, Declare, Discard, bid
from stich.skat.iss_format import IssError, IssMove, IssRecord, IssResult, card_of, is_card
from stich.skat.rules import GameType, SkatRules
from stich.skat.scoring import Settlement, matadors, settle_game
from stich.skat.state import Phase, SkatState

__all__ = [
    "ISKO",
    "IssReplay",
    "ServerRules",
    "declaration_code",
    "early_settlement",
    "played_result",
    "replay_iss",
    "server_rules",
]

ISKO: SkatRules = SkatRules.preset("isko")

Ending = Literal["played", "passed", "resigned", "timeout", "announcement"]
GivesUp = Literal["declarer", "defenders"]

_GAMES = {
    "G": GameType.GRAND, "C": GameType.EICHEL, "S": GameType.GRUEN, "H": GameType.HERZ,
    "D": GameType.SCHELLEN, "N": GameType.NULL,
}
_LETTERS = {g: letter for letter, g in _GAMES.items()}
_DECL = re.compile(r"([GCSHDN])([HOSZ]*)((?:\.[^.\s]+)*)")
UNSURE_LOST_ANNOUNCEMENT = ("value", "overbid", "schneider", "schwarz")
"""The fields of ``R[...]`` not compared for a lost game with Schneider or Schwarz
announced: the server's own source counts such a game differently from the ISkO as the
engine settles it, and no public record shows which count the server uses today."""


@dataclass(frozen=True)
class ServerRules:
    """Where the server that wrote a record (its ``PC[...]``) ends a game early."""

    failed_announcement_ends: bool = True
    """An announced Schwarz that fails, or the defenders passing 30 against an announced
    Schneider, ends the game (the ISS does; our own exports are played to the end)."""
    one_resignation_after_show: bool = False
    """One defender's resignation ends the game once the declarer has shown his cards
    (``PC[ISS2]``); elsewhere both defenders must resign."""


def server_rules(place: str) -> ServerRules:
    """The rules of the server named by a record's ``PC[...]``: ``ISS2``; ``stich`` (our
    own export, played to the last trick like the engine); anything else is read as the
    International Skat Server."""
    if place == "ISS2":
        return ServerRules(one_resignation_after_show=True)
    if place == "stich":
        return ServerRules(failed_announcement_ends=False)
    return ServerRules()


@dataclass(frozen=True)
class IssReplay:
    """A record played through the engine: the final state, how the game ended, the
    engine's result in the record's terms, and the engine actions applied.  ``unsure``
    names the fields of ``R[...]`` that are not compared for this game (see
    ``docs/iss.md``)."""

    state: SkatState
    ending: Ending
    resigned: tuple[int, ...]
    result: IssResult
    actions: tuple[Action, ...]
    unsure: tuple[str, ...] = ()


def declaration_code(d: Declare) -> str:
    """The ISS letters of a declaration: ``D``, ``CHZ``, ``GO``, ``NOH``, ``HHS``."""
    letter = _LETTERS[d.game]
    if d.ouvert and d.game is not GameType.NULL:
        return letter + "O"  # Hand, Schneider and Schwarz announced are implied
    out = letter + ("O" if d.ouvert else "") + ("H" if d.hand else "")
    if d.schwarz:
        out += "Z"
    elif d.schneider:
        out += "S"
    return out


def replay_iss(record: IssRecord) -> IssReplay:
    """Play the record's moves under the ISkO preset, with the early endings of the
    server that wrote it (:func:`server_rules`).

    Raises :class:`IssError` on a move that cannot be read, is made by the wrong seat, or
    is illegal, and when the moves stop before the game is over.  A player leaving
    (``LE``) and a timeout before the card play raise too: the engine cannot settle such
    games.
    """
    return _Replayer(record).run()


class _Replayer:
    """Turns a record's moves into engine actions, one move at a time."""

    def __init__(self, record: IssRecord) -> None:
        hands, self.skat = record.deal
        self.state = SkatState.new(ISKO, hands=hands, skat=self.skat)
        self.server = server_rules(record.place)
        self.moves = record.moves
        self.actions: list[Action] = []
        self.resigned: list[int] = []
        self.shown = False  # the declarer has shown his cards (SC)
        self.ending: Ending | None = None
        self.gives_up: GivesUp | None = None
        self.timeout = -1
        self.awaiting_skat = False
        self.pending_decl: tuple[Declare, str] | None = None  # the split form "2 D 2 D9.DQ"

    def apply(self, action: Action) -> None:
        self.state = self.state.apply(action)
        self.actions.append(action)

    def run(self) -> IssReplay:
        for i in range(1, len(self.moves)):
            mv = self.moves[i]
            if self.ending is not None:
                if mv.what != "RE" and not mv.what.startswith("SC"):
                    raise _at(i, mv, IssError("iss.moves_after_end"))
                continue  # the server refuses such moves; they change nothing
            try:
                self.step(mv)
            except (IssError, IllegalActionError) as e:
                raise _at(i, mv, e) from None
        return self.finish()

    def step(self, mv: IssMove) -> None:
        who, what = mv
        if what.startswith("TI."):
            self.timed_out(what)
            return
        if who == "w":
            self.server_move(what)
            return
        seat = int(who)
        if self.awaiting_skat:
            raise IssError("iss.skat_not_shown")
        if what == "SC" or what.startswith("SC."):
            self.show_cards(seat)
            return
        if what == "RE":
            self.resign(seat)
            return
        if what.startswith("LE."):
            raise IssError("iss.player_left", seat=Seat(_seat_of(what, seat)))
        state = self.state
        if state.is_over:
            raise IssError("iss.game_over")
        if seat != state.to_move:
            raise IssError("iss.wrong_turn", seat=Seat(state.to_move))
        if self.pending_decl is not None:
            self.split_discard(what)
        elif state.phase is Phase.BIDDING:
            self.bidding(what)
        elif state.phase is Phase.SKAT:
            self.hand_or_pickup(what, seat)
        elif state.phase is Phase.DISCARD:
            self.declare_after_pickup(what, seat)
        elif state.phase is Phase.PLAY:
            self.card(what)
        else:
            raise IssError("iss.unexpected_move", phase=state.phase.name)

    def server_move(self, what: str) -> None:
        if what.startswith("LE.") and _seat_of(what, -1) >= 0:
            raise IssError("iss.player_left", seat=Seat(_seat_of(what, -1)))
        if not self.awaiting_skat:
            raise IssError("iss.unexpected_server_move")
        shown = [card_of(w) for w in what.split(".")]
        if len(shown) != 2 or sum(c.bit for c in shown) != self.skat:
            raise IssError("iss.wrong_skat", cards=Cards(self.skat))
        self.awaiting_skat = False

    def in_play(self) -> bool:
        return self.state.phase is Phase.PLAY and self.state.declarer >= 0

    def show_cards(self, seat: int) -> None:
        if not self.in_play() or seat != self.state.declarer:
            raise IssError("iss.show_not_declarer")
        self.shown = True  # the game goes on

    def resign(self, seat: int) -> None:
        if not self.in_play():
            raise IssError("iss.resign_not_in_play")
        if seat not in self.resigned:
            self.resigned.append(seat)
        d = self.state.declarer
        if seat == d:
            self.end("resigned", "declarer")
        elif len([s for s in self.resigned if s != d]) == 2 or (
                self.shown and self.server.one_resignation_after_show):
            self.end("resigned", "defenders")

    def timed_out(self, what: str) -> None:
        seat = _seat_of(what, -1)
        if seat < 0:
            raise IssError("iss.timeout_unreadable", what=what)
        if not self.in_play():
            raise IssError("iss.timeout_not_in_play", seat=Seat(seat))
        self.timeout = seat
        self.end("timeout", "declarer" if seat == self.state.declarer else "defenders")

    def end(self, ending: Ending, gives_up: GivesUp | None) -> None:
        self.ending, self.gives_up = ending, gives_up

    def bidding(self, what: str) -> None:
        if what.isdigit():
            self.apply(bid(int(what)))
        elif what in ("y", "p"):
            self.apply(HOLD if what == "y" else PASS)
        else:
            raise IssError("iss.expected_bid")

    def hand_or_pickup(self, what: str, seat: int) -> None:
        if what == "s":
            self.apply(PICKUP)
            self.awaiting_skat = True
            return
        parsed = _parse_declaration(what)
        if parsed is None:
            raise IssError("iss.expected_pickup_or_declaration")
        game, mods, rest = parsed
        self.apply(HAND)
        decl = _declare(game, mods, True, what)
        _check_ouvert_cards(rest, self.state.hands[seat], decl)
        self.apply(decl)

    def declare_after_pickup(self, what: str, seat: int) -> None:
        parsed = _parse_declaration(what)
        if parsed is None:
            raise IssError("iss.expected_declaration")
        game, mods, rest = parsed
        decl = _declare(game, mods, False, what)
        if not rest:
            self.pending_decl = (decl, what)
            return
        if len(rest) < 2:
            raise IssError("iss.discard_two")
        self.discard(rest[:2])
        _check_ouvert_cards(rest[2:], self.state.hands[seat], decl)
        self.apply(decl)

    def split_discard(self, what: str) -> None:
        assert self.pending_decl is not None
        decl, _ = self.pending_decl
        self.pending_decl = None
        words = what.split(".")
        if len(words) != 2:
            raise IssError("iss.discard_two")
        self.discard(words)
        self.apply(decl)

    def discard(self, words: list[str]) -> None:
        c1, c2 = (card_of(w) for w in words)
        if c1 is c2:
            raise IssError("iss.discard_twice")
        self.apply(Discard(c1.bit | c2.bit))

    def card(self, what: str) -> None:
        if what == "??":
            raise IssError("iss.hidden_card")
        if not is_card(what):
            raise IssError("iss.expected_card")
        self.apply(Card.parse(what))
        if self.server.failed_announcement_ends and announcement_failed(self.state):
            self.end("announcement", None)

    def finish(self) -> IssReplay:
        state, actions = self.state, tuple(self.actions)
        if self.awaiting_skat or self.pending_decl is not None:
            raise IssError("iss.stops_in_declaration")
        if self.ending is not None:
            result = early_result(state, self.gives_up, self.ending, self.timeout)
            return IssReplay(state, self.ending, tuple(self.resigned), result, actions,
                             self.unsure(result))
        if not state.is_over:
            raise IssError("iss.unfinished", phase=state.phase.name)
        if state.end_reason == "passed":
            return IssReplay(state, "passed", (), IssResult(passed=True), actions)
        result = played_result(state)
        return IssReplay(state, "played", tuple(self.resigned), result, actions,
                         self.unsure(result))

    def unsure(self, result: IssResult) -> tuple[str, ...]:
        out: tuple[str, ...] = ()
        if not result.won and announced(self.state):
            out += UNSURE_LOST_ANNOUNCEMENT
        d = self.state.declarer
        if self.ending == "resigned" and self.gives_up == "defenders" and len(
                [s for s in self.resigned if s != d]) < 2:
            out += ("resigned",)  # ISS2: whether r: marks one defender's resignation
        return out


def _at(n: int, mv: IssMove, e: Exception) -> IssError:
    """The error of move ``n``, naming the move."""
    return IssError("iss.at_move", n=n, move=str(mv), reason=Msg.of(e))


def _seat_of(what: str, default: int) -> int:
    """The seat a ``TI.n``/``LE.n`` move names, else ``default``."""
    tail = what[3:]
    return int(tail) if tail in ("0", "1", "2") else default


def _parse_declaration(what: str) -> tuple[GameType, set[str], list[str]] | None:
    m = _DECL.fullmatch(what)
    if m is None:
        return None
    mods = set(m.group(2))
    if len(mods) != len(m.group(2)):
        raise IssError("iss.decl_repeats", decl=what)
    rest = [w for w in m.group(3).split(".") if w]
    return _GAMES[m.group(1)], mods, rest


def _declare(game: GameType, mods: set[str], hand: bool, what: str) -> Declare:
    ouvert = "O" in mods
    if "H" in mods and not hand:
        raise IssError("iss.decl_hand_after_pickup", decl=what)
    if game is GameType.NULL:
        if mods & {"S", "Z"}:
            raise IssError("iss.decl_null_announcement", decl=what)
        return Declare(game, hand=hand, ouvert=ouvert)
    schwarz = "Z" in mods or ouvert
    schneider = "S" in mods or schwarz
    return Declare(game, hand=hand, schneider=schneider, schwarz=schwarz, ouvert=ouvert)


def _check_ouvert_cards(words: list[str], hand: int, decl: Declare) -> None:
    """The live protocol appends an Ouvert declarer's ten cards: check them where given
    (``??`` stands for a card the record hides)."""
    if not words:
        return
    if not decl.ouvert:
        raise IssError("iss.cards_not_ouvert")
    if len(words) != 10:
        raise IssError("iss.ouvert_size", n=len(words))
    shown = sum(card_of(w).bit for w in set(words) if w != "??")
    if shown & ~hand:
        raise IssError("iss.ouvert_not_held", cards=Cards(shown & ~hand))


# --- settling ----------------------------------------------------------------------------


def _announcements(state: SkatState) -> tuple[bool, bool]:
    """Schneider announced, Schwarz announced (Ouvert implies both under ``isko``)."""
    c = state.contract
    if c is None or c.game is GameType.NULL:
        return False, False
    schwarz = c.schwarz or (c.ouvert and state.rules.announcements)
    return c.schneider or schwarz, schwarz


def announced(state: SkatState) -> bool:
    """Whether the declarer announced Schneider or Schwarz."""
    return _announcements(state)[0]


def announcement_failed(state: SkatState) -> bool:
    """After a completed trick of a running game: an announced Schwarz failed (the
    defenders took a trick) or the defenders passed 30 against an announced Schneider.
    The ISS ends the game at this moment."""
    if state.phase is not Phase.PLAY or state.trick or state.declarer < 0:
        return False
    schneider, schwarz = _announcements(state)
    d = state.declarer
    their_tricks = sum(state.tricks_won) - state.tricks_won[d]
    their_points = sum(state.points) - state.points[d]
    return (schwarz and their_tricks > 0) or (schneider and their_points > 30)


def played_result(state: SkatState) -> IssResult:
    """The engine's result of a finished game, in the record's terms."""
    o = state.outcome()
    assert o.declarer is not None
    return IssResult(
        declarer=o.declarer, won=o.won, value=o.scores[o.declarer], matadors=o.matadors,
        overbid=o.overbid, points=o.declarer_points, tricks=o.declarer_tricks,
        schneider=o.schneider, schwarz=o.schwarz, resigned=False,
    )


def early_settlement(state: SkatState, gives_up: GivesUp | None
                     ) -> tuple[Settlement, int, int, int]:
    """Settle a game the server ended before its last trick, with :func:`settle_game`.

    ``gives_up="defenders"`` (both resigned, or one timed out): the declarer takes every
    card still in play (the open trick included) and every remaining trick; in Null he
    wins with the tricks taken so far (none).  ``"declarer"`` (resigned or timed out):
    the defenders take them, his own cards and tricks stay as they are; in Null he loses;
    during the first trick he is neither Schneider nor Schwarz.  ``None`` (a failed
    announcement): the game is settled as it stands.  Returns the settlement, the
    declarer's card points (Skat included), his tricks and the matadors.
    """
    g = state.game_info
    assert g is not None and g.contract is not None
    d = g.declarer
    remaining = state.hands[0] | state.hands[1] | state.hands[2]
    for c in state.trick:
        remaining |= 1 << c
    done = sum(state.tricks_won)
    points = state.points[d] + card_points(state.skat)
    d_tricks = state.tricks_won[d]
    f_tricks = done - d_tricks
    settle_points, settle_tricks = points, d_tricks
    if g.game is GameType.NULL:
        if gives_up == "declarer":
            settle_tricks = max(d_tricks, 1)  # lost as if he had taken a trick
    elif gives_up == "defenders":
        points += card_points(remaining)
        d_tricks += 10 - done
        settle_points, settle_tricks = points, d_tricks
    elif gives_up == "declarer":
        f_tricks += 10 - done
        if done == 0:
            # Conceding during the first trick costs no Schneider and no Schwarz:
            # settled with the facts that carry exactly that value (still lost, as
            # the Skat alone is far from 61).
            settle_points, settle_tricks = max(points, 31), max(d_tricks, 1)
    m = matadors(g.owned, g.game)
    s = settle_game(state.rules, g.contract, bid=g.bid, matadors=m,
                    declarer_points=settle_points, declarer_tricks=settle_tricks,
                    defender_tricks=f_tricks)
    return s, points, d_tricks, m


def early_result(state: SkatState, gives_up: GivesUp | None, ending: Ending,
                 timeout: int = -1) -> IssResult:
    """The result, in the record's terms, of a game the server ended early."""
    s, points, tricks, m = early_settlement(state, gives_up)
    return IssResult(
        declarer=state.declarer, won=s.won, value=s.score, matadors=m, overbid=s.overbid,
        points=points, tricks=tricks, schneider=s.schneider, schwarz=s.schwarz,
        resigned=ending == "resigned", timeout=timeout,
    )

