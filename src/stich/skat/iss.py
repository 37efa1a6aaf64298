"""Game records of the International Skat Server (ISS): read, replay, check and write.

One ISS record is one line::

    (;GM[Skat]PC[...]SE[series]ID[game]DT[date]P0[..]P1[..]P2[..]MV[moves]R[result] ;)

:func:`parse_iss` reads a line into an :class:`IssRecord`; :func:`replay_iss` turns its
moves into engine actions and plays them under ``SkatRules.preset("isko")`` (the ISS plays
the ISkO); :func:`check_iss` compares the engine's result with the record's ``R[...]``;
:func:`stich.skat.iss_write.export_iss` writes a finished ``isko`` game as such a
line.  ``docs/iss.md`` describes the format as we read it.

>>> line = ("(;GM[Skat]PC[International Skat Server]CO[]SE[1]ID[7]DT[]P0[a]P1[b]P2[c]"
...         "MV[w " + ".".join(["CJ", "SJ", "HJ", "DJ", "CA", "CT", "CK", "CQ", "C9", "C8",
...         "SA", "ST", "SK", "SQ", "S9", "S8", "S7", "HA", "HT", "HK",
...         "HQ", "H9", "H8", "H7", "DA", "DT", "DK", "DQ", "D9", "D8", "C7", "D7"])
...         + " 1 p 2 p 0 p ]R[passed] ;)")
>>> rec = parse_iss(line)
>>> rec.game_id, rec.players, rec.result.passed
('7', ('a', 'b', 'c'), True)
>>> check_iss(rec).status, check_iss(rec).reason
('skipped', 'passed')
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal, NamedTuple

from stich.cards import Card, card_points, cards_of
from stich.core import IllegalActionError
from stich.skat.actions import (
    HAND,
    HOLD,
    PASS,
    PICKUP,
    Action,
    Declare,
    Discard,
    bid,
)
from stich.skat.rules import GameType, SkatRules
from stich.skat.scoring import Settlement, matadors, settle_game
from stich.skat.state import Phase, SkatState

__all__ = [
    "IssCheck",
    "IssError",
    "IssMove",
    "IssRecord",
    "IssReplay",
    "IssResult",
    "SKIP_REASONS",
    "check_iss",
    "check_line",
    "declaration_code",
    "parse_iss",
    "played_result",
    "read_iss_lines",
    "replay_iss",
]

ISKO: SkatRules = SkatRules.preset("isko")
SKIP_REASONS = ("passed", "left", "timeout", "penalty", "corrupt")
"""Why a record is not compared: everybody passed, a player left, a player ran out of
time, the server gave penalty points, or the record cannot be read or replayed."""

_PROP = re.compile(r"([A-Z][A-Z0-9]*)\[([^\]]*)\]")
_CARD = re.compile(r"[CSHD][789TJQKA]")
_DECL = re.compile(r"([GCSHDN])([HOSZ]*)((?:\.[^.\s]+)*)")
_GAMES = {
    "G": GameType.GRAND, "C": GameType.EICHEL, "S": GameType.GRUEN, "H": GameType.HERZ,
    "D": GameType.SCHELLEN, "N": GameType.NULL,
}
_LETTERS = {g: letter for letter, g in _GAMES.items()}


class IssError(ValueError):
    """A record that cannot be read or replayed; the message says where and why."""


class IssMove(NamedTuple):
    """One move of ``MV[...]``: who (``w`` for the server, or a seat ``0``..``2``) and what."""

    who: str
    what: str

    def __str__(self) -> str:
        return f"{self.who} {self.what}"


@dataclass(frozen=True)
class IssResult:
    """The fields of ``R[...]`` (or the same facts computed by the engine).

    A field is ``None`` where the record does not give it.  ``value`` is signed and a loss
    is already doubled (it is the declarer's list score).  ``matadors`` is +n "mit n",
    -n "ohne n".  ``points`` are the declarer's card points including the Skat, ``tricks``
    the declarer's tricks.  ``left``/``timeout`` are seats (-1: nobody), ``resigned``
    says whether the game ended by resignation (the ``r:`` field of newer records).
    """

    passed: bool = False
    declarer: int | None = None
    won: bool | None = None
    value: int | None = None
    matadors: int | None = None
    overbid: bool | None = None
    points: int | None = None
    tricks: int | None = None
    schneider: bool | None = None
    schwarz: bool | None = None
    penalty: bool = False
    penalty_points: tuple[int, int, int] = (0, 0, 0)
    left: int = -1
    timeout: int = -1
    resigned: bool | None = None
    raw: str = ""

    COMPARED = ("declarer", "won", "value", "matadors", "overbid", "points", "tricks",
                "schneider", "schwarz", "resigned")

    @staticmethod
    def parse(text: str) -> IssResult:
        """Read the inside of ``R[...]``."""
        words = text.split()
        if words == ["passed"]:
            return IssResult(passed=True, raw=text)
        kv: dict[str, int] = {}
        flags: set[str] = set()
        for w in words:
            key, sep, value = w.partition(":")
            if sep:
                try:
                    kv[key] = int(value)
                except ValueError:
                    raise IssError(f"result field {w!r} is not a number") from None
            else:
                flags.add(w)
        unknown = flags - {"win", "loss", "bidok", "overbid", "penalty", "passed"}
        if unknown:
            raise IssError(f"unknown result word(s) {', '.join(sorted(unknown))}")

        def flag(yes: str, no: str) -> bool | None:
            if yes in flags:
                return True
            return False if no in flags else None

        def opt(key: str) -> int | None:
            return kv.get(key)

        def opt_bool(key: str) -> bool | None:
            v = kv.get(key)
            return None if v is None else v != 0

        return IssResult(
            passed="passed" in flags,
            declarer=opt("d"),
            won=flag("win", "loss"),
            value=opt("v"),
            matadors=opt("m"),
            overbid=flag("overbid", "bidok"),
            points=opt("p"),
            tricks=opt("t"),
            schneider=opt_bool("s"),
            schwarz=opt_bool("z"),
            penalty="penalty" in flags,
            penalty_points=(kv.get("p0", 0), kv.get("p1", 0), kv.get("p2", 0)),
            left=kv.get("l", -1),
            timeout=kv.get("to", -1),
            resigned=opt_bool("r"),
            raw=text,
        )

    def format(self) -> str:
        """The ``R[...]`` text of this result (what :func:`export_iss` writes)."""
        if self.passed:
            return "passed"
        b = int
        return (
            f"d:{self.declarer} {'win' if self.won else 'loss'} v:{self.value} "
            f"m:{self.matadors} {'overbid' if self.overbid else 'bidok'} p:{self.points} "
            f"t:{self.tricks} s:{b(bool(self.schneider))} z:{b(bool(self.schwarz))} "
            f"p0:{self.penalty_points[0]} p1:{self.penalty_points[1]} "
            f"p2:{self.penalty_points[2]} l:{self.left} to:{self.timeout} "
            f"r:{b(bool(self.resigned))}"
        )


@dataclass(frozen=True)
class IssRecord:
    """One ISS game record as read from its line."""

    game_id: str
    series: str
    place: str
    date: str
    players: tuple[str, str, str]
    moves: tuple[IssMove, ...]
    result: IssResult
    properties: dict[str, str] = field(default_factory=dict, compare=False)
    line: str = field(default="", compare=False)

    @property
    def deal(self) -> tuple[tuple[int, int, int], int]:
        """The three hands (Vorhand, Mittelhand, Hinterhand) and the Skat as card sets."""
        if not self.moves or self.moves[0].who != "w":
            raise IssError("the first move must be the server's deal 'w C1.C2...'")
        words = self.moves[0].what.split(".")
        if len(words) != 32:
            raise IssError(f"the deal has {len(words)} cards, not 32")
        cards = [_card(w, "the deal") for w in words]
        if len(set(cards)) != 32:
            raise IssError("the deal names a card twice")
        masks = [sum(c.bit for c in cards[i:i + 10]) for i in (0, 10, 20)]
        return (masks[0], masks[1], masks[2]), cards[30].bit | cards[31].bit

    def describe(self) -> str:
        """How the record is named in messages: its game id, else its series."""
        if self.game_id:
            return self.game_id
        return f"series {self.series}" if self.series else "(no id)"


def parse_iss(line: str) -> IssRecord:
    """Read one ISS record line; raises :class:`IssError` when it is not one."""
    text = line.strip()
    if not (text.startswith("(;") and text.endswith(")")):
        raise IssError("an ISS record starts with '(;' and ends with ';)'")
    props: dict[str, str] = {}
    for m in _PROP.finditer(text):
        props.setdefault(m.group(1), m.group(2))
    if props.get("GM") != "Skat":
        raise IssError(f"not a Skat record (GM[{props.get('GM', '')}])")
    for key in ("P0", "P1", "P2", "MV", "R"):
        if key not in props:
            raise IssError(f"the record has no {key}[...]")
    words = props["MV"].split()
    if len(words) % 2:
        raise IssError("MV[...] must be pairs 'who what'")
    moves = tuple(IssMove(words[i], words[i + 1]) for i in range(0, len(words), 2))
    for mv in moves:
        if mv.who not in ("w", "0", "1", "2"):
            raise IssError(f"unknown mover {mv.who!r} in move '{mv}'")
    return IssRecord(
        game_id=props.get("ID", ""),
        series=props.get("SE", ""),
        place=props.get("PC", ""),
        date=props.get("DT", ""),
        players=(props["P0"], props["P1"], props["P2"]),
        moves=moves,
        result=IssResult.parse(props["R"]),
        properties=props,
        line=text,
    )


def read_iss_lines(lines: Iterable[str]) -> list[tuple[int, str]]:
    """The record lines of a file as (line number, text): blank lines and lines that do
    not start with ``(;`` (comments) are left out."""
    return [(n, ln.strip()) for n, ln in enumerate(lines, start=1)
            if ln.strip().startswith("(;")]


def _card(word: str, where: str) -> Card:
    if word == "??":
        raise IssError(f"hidden card '??' in {where}: the record does not say which card")
    if not _CARD.fullmatch(word):
        raise IssError(f"{word!r} in {where} is not a card")
    return Card.parse(word)


# --- replay -----------------------------------------------------------------------------


@dataclass(frozen=True)
class IssReplay:
    """A record played through the engine: the final state, how the game ended, the
    engine's result in the record's terms, and the engine actions applied."""

    state: SkatState
    ending: Literal["played", "passed", "resigned"]
    resigned: tuple[int, ...]
    result: IssResult
    actions: tuple[Action, ...]


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


def _parse_declaration(what: str) -> tuple[GameType, set[str], list[str]] | None:
    m = _DECL.fullmatch(what)
    if m is None:
        return None
    mods = set(m.group(2))
    if len(mods) != len(m.group(2)):
        raise IssError(f"declaration {what!r} repeats a letter")
    rest = [w for w in m.group(3).split(".") if w]
    return _GAMES[m.group(1)], mods, rest


def _declare(game: GameType, mods: set[str], hand: bool, what: str) -> Declare:
    ouvert = "O" in mods
    if "H" in mods and not hand:
        raise IssError(f"declaration {what!r} says Hand after the Skat was picked up")
    if game is GameType.NULL:
        if mods & {"S", "Z"}:
            raise IssError(f"declaration {what!r}: Null has no Schneider or Schwarz")
        return Declare(game, hand=hand, ouvert=ouvert)
    schwarz = "Z" in mods or ouvert
    schneider = "S" in mods or schwarz
    return Declare(game, hand=hand, schneider=schneider, schwarz=schwarz, ouvert=ouvert)


def replay_iss(record: IssRecord) -> IssReplay:
    """Play the record's moves under the ISkO preset.

    Raises :class:`IssError` on a move that cannot be read, is made by the wrong seat, or
    is illegal, and when the moves stop before the game is over (without resignation).
    ``TI``/``LE`` moves (a timeout, a player leaving) raise too: such games cannot be
    finished by the engine.
    """
    return _Replayer(record).run()


class _Replayer:
    """Turns a record's moves into engine actions, one move at a time."""

    def __init__(self, record: IssRecord) -> None:
        hands, self.skat = record.deal
        self.state = SkatState.new(ISKO, hands=hands, skat=self.skat)
        self.moves = record.moves
        self.actions: list[Action] = []
        self.resigned: list[int] = []
        self.awaiting_skat = False
        self.pending_decl: tuple[Declare, str] | None = None  # the split form "2 D 2 D9.DQ"
        self.n = 0
        self.mv = self.moves[0] if self.moves else IssMove("w", "")

    def fail(self, why: str) -> IssError:
        return IssError(f"move {self.n} '{self.mv}': {why}")

    def apply(self, action: Action) -> None:
        try:
            self.state = self.state.apply(action)
        except IllegalActionError as e:
            raise self.fail(str(e)) from None
        self.actions.append(action)

    def run(self) -> IssReplay:
        i = 1
        while i < len(self.moves):
            self.n, self.mv = i, self.moves[i]
            i += 1
            if self.step() == "stop":
                extra = [str(m) for m in self.moves[i:] if m.what != "RE" and m.what[:2] != "SC"]
                if extra:
                    raise IssError(f"move {i} '{extra[0]}': moves after the resignation")
                break
        return self.finish()

    def step(self) -> str:
        who, what = self.mv
        if who == "w":
            self.server_move(what)
            return ""
        seat = int(who)
        if self.awaiting_skat:
            raise self.fail("the server must show the Skat first")
        if what == "SC" or what.startswith("SC."):
            return ""  # showing cards changes nothing by itself
        if what == "RE":
            return self.resign(seat)
        if what.startswith(("TI.", "LE.")):
            raise self.fail("a player left or timed out")
        state = self.state
        if state.is_over:
            raise self.fail("the game is already over")
        if seat != state.to_move:
            raise self.fail(f"it is seat {state.to_move}'s turn")
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
            raise self.fail(f"unexpected in phase {state.phase.name}")
        return ""

    def server_move(self, what: str) -> None:
        if what.startswith(("LE.", "TI.")):
            kind = "left" if what.startswith("LE.") else "timed out"
            raise self.fail(f"a player {kind}")
        if not self.awaiting_skat:
            raise self.fail("unexpected server move")
        shown = [_card(w, f"move {self.n}") for w in what.split(".")]
        if len(shown) != 2 or sum(c.bit for c in shown) != self.skat:
            raise self.fail(f"the Skat is {'.'.join(str(c) for c in cards_of(self.skat))}")
        self.awaiting_skat = False

    def resign(self, seat: int) -> str:
        if self.state.phase is not Phase.PLAY:
            raise self.fail("resigning is only possible in card play")
        if seat not in self.resigned:
            self.resigned.append(seat)
        return "stop" if _resignation_ends(self.state, self.resigned) else ""

    def bidding(self, what: str) -> None:
        if what.isdigit():
            self.apply(bid(int(what)))
        elif what in ("y", "p"):
            self.apply(HOLD if what == "y" else PASS)
        else:
            raise self.fail("a bid, 'y' or 'p' was expected")

    def hand_or_pickup(self, what: str, seat: int) -> None:
        if what == "s":
            self.apply(PICKUP)
            self.awaiting_skat = True
            return
        parsed = _parse_declaration(what)
        if parsed is None:
            raise self.fail("'s' or a declaration was expected")
        game, mods, rest = parsed
        self.apply(HAND)
        decl = _declare(game, mods, True, what)
        _check_ouvert_cards(rest, self.state.hands[seat], decl, self.n, self.mv)
        self.apply(decl)

    def declare_after_pickup(self, what: str, seat: int) -> None:
        parsed = _parse_declaration(what)
        if parsed is None:
            raise self.fail("a declaration was expected")
        game, mods, rest = parsed
        decl = _declare(game, mods, False, what)
        if not rest:
            self.pending_decl = (decl, what)
            return
        if len(rest) < 2:
            raise self.fail("the discard is two cards")
        self.discard(rest[:2])
        _check_ouvert_cards(rest[2:], self.state.hands[seat], decl, self.n, self.mv)
        self.apply(decl)

    def split_discard(self, what: str) -> None:
        assert self.pending_decl is not None
        decl, text = self.pending_decl
        self.pending_decl = None
        words = what.split(".")
        if len(words) != 2:
            raise self.fail(f"the discard after {text!r} is two cards")
        self.discard(words)
        self.apply(decl)

    def discard(self, words: list[str]) -> None:
        c1, c2 = (_card(w, f"move {self.n}") for w in words)
        if c1 is c2:
            raise self.fail("a card cannot be discarded twice")
        self.apply(Discard(c1.bit | c2.bit))

    def card(self, what: str) -> None:
        if not _CARD.fullmatch(what):
            if what == "??":
                raise self.fail("hidden card, the record cannot be replayed")
            raise self.fail("a card was expected")
        self.apply(Card.parse(what))

    def finish(self) -> IssReplay:
        state, resigned, actions = self.state, tuple(self.resigned), tuple(self.actions)
        if self.awaiting_skat or self.pending_decl is not None:
            raise IssError("the moves stop in the middle of the declaration")
        if _resignation_ends(state, resigned):
            return IssReplay(state, "resigned", resigned, _resigned_result(state, resigned),
                             actions)
        if not state.is_over:
            raise IssError(f"the moves stop before the game is over (phase {state.phase.name})")
        if state.end_reason == "passed":
            return IssReplay(state, "passed", (), IssResult(passed=True), actions)
        return IssReplay(state, "played", resigned, played_result(state), actions)


def _check_ouvert_cards(words: list[str], hand: int, decl: Declare, n: int,
                        mv: IssMove) -> None:
    """The live protocol appends an Ouvert declarer's ten cards: check them where given
    (``??`` stands for a card the record hides)."""
    if not words:
        return
    if not decl.ouvert:
        raise IssError(f"move {n} '{mv}': cards after a declaration that is not Ouvert")
    if len(words) != 10:
        raise IssError(f"move {n} '{mv}': an Ouvert hand is 10 cards, not {len(words)}")
    shown = {_card(w, f"move {n}") for w in words if w != "??"}
    wrong = [c for c in shown if not hand & c.bit]
    if wrong:
        raise IssError(f"move {n} '{mv}': the declarer does not hold "
                       f"{' '.join(str(c) for c in sorted(wrong))}")


def _resignation_ends(state: SkatState, resigned: Sequence[int]) -> bool:
    """Both defenders, or the declarer, resigned during card play."""
    d = state.declarer
    if state.phase is not Phase.PLAY or d < 0:
        return False
    if d in resigned:
        return True
    return all(s in resigned for s in range(3) if s != d)


def played_result(state: SkatState) -> IssResult:
    """The engine's result of a finished game, in the record's terms."""
    o = state.outcome()
    assert o.declarer is not None
    return IssResult(
        declarer=o.declarer, won=o.won, value=o.scores[o.declarer], matadors=o.matadors,
        overbid=o.overbid, points=o.declarer_points, tricks=o.declarer_tricks,
        schneider=o.schneider, schwarz=o.schwarz, resigned=False,
    )


def resignation_settlement(state: SkatState, resigned: Sequence[int]
                           ) -> tuple[Settlement, int, int, int]:
    """Settle a game ended by resignation, with :func:`settle_game`.

    When both defenders resign, the declarer takes every card still in play (the open
    trick included) and every remaining trick; in Null the declarer wins with the tricks
    taken so far (none).  When the declarer resigns, the defenders take them; in Null the
    declarer loses as if he had taken a trick.  Returns the settlement, the declarer's
    card points (Skat included), tricks and matadors.
    """
    g = state.game_info
    assert g is not None and g.contract is not None
    d = g.declarer
    remaining = state.hands[0] | state.hands[1] | state.hands[2]
    for c in state.trick:
        remaining |= 1 << c
    left_tricks = 10 - sum(state.tricks_won)
    points = state.points[d] + card_points(state.skat)
    d_tricks = state.tricks_won[d]
    f_tricks = sum(state.tricks_won) - d_tricks
    declarer_gives_up = d in resigned
    if g.game is GameType.NULL:
        if declarer_gives_up:
            d_tricks = max(d_tricks, 1)
    elif declarer_gives_up:
        f_tricks += left_tricks
    else:
        points += card_points(remaining)
        d_tricks += left_tricks
    m = matadors(g.owned, g.game)
    s = settle_game(state.rules, g.contract, bid=g.bid, matadors=m, declarer_points=points,
                    declarer_tricks=d_tricks, defender_tricks=f_tricks)
    return s, points, d_tricks, m


def _resigned_result(state: SkatState, resigned: Sequence[int]) -> IssResult:
    s, points, tricks, m = resignation_settlement(state, resigned)
    return IssResult(
        declarer=state.declarer, won=s.won, value=s.score, matadors=m, overbid=s.overbid,
        points=points, tricks=tricks, schneider=s.schneider, schwarz=s.schwarz,
        resigned=True,
    )


# --- checking ---------------------------------------------------------------------------


@dataclass(frozen=True)
class IssCheck:
    """The verdict on one record: ``agree``, ``disagree`` (``diffs`` lists each field as
    (name, ours, theirs)) or ``skipped`` (``reason`` is one of :data:`SKIP_REASONS`,
    ``detail`` says more)."""

    record_id: str
    status: Literal["agree", "disagree", "skipped"]
    reason: str = ""
    detail: str = ""
    diffs: tuple[tuple[str, object, object], ...] = ()
    replay: IssReplay | None = field(default=None, compare=False, repr=False)


def _skip_reason(record: IssRecord) -> tuple[str, str] | None:
    r = record.result
    moves = record.moves
    if r.passed:
        return "passed", "everybody passed"
    left = r.left if r.left >= 0 else next(
        (int(m.what[3:]) for m in moves if m.what.startswith("LE.") and m.what[3:].isdigit()),
        -1)
    timeout = r.timeout if r.timeout >= 0 else next(
        (int(m.what[3:]) for m in moves if m.what.startswith("TI.") and m.what[3:].isdigit()),
        -1)
    if r.penalty or any(r.penalty_points):
        why = f"seat {left} left" if left >= 0 else (
            f"seat {timeout} timed out" if timeout >= 0 else "penalty points")
        return "penalty", f"{why}; penalty points {'/'.join(map(str, r.penalty_points))}"
    hidden = any("??" in m.what for m in moves)
    if left >= 0:
        return "left", f"seat {left} left the table" + (
            "; a card is hidden as ??" if hidden else "")
    if timeout >= 0:
        return "timeout", f"seat {timeout} ran out of time"
    return None


def check_iss(record: IssRecord) -> IssCheck:
    """Replay a record and compare the engine's result with ``R[...]``."""
    rid = record.describe()
    skip = _skip_reason(record)
    if skip is not None and skip[0] != "passed":
        return IssCheck(rid, "skipped", skip[0], skip[1])
    try:
        rep = replay_iss(record)
    except IssError as e:
        return IssCheck(rid, "skipped", "corrupt", str(e))
    if skip is not None:  # passed: the engine must see the same auction end
        if rep.ending == "passed":
            return IssCheck(rid, "skipped", skip[0], skip[1], replay=rep)
        return IssCheck(rid, "disagree", diffs=(("passed", False, True),), replay=rep)
    theirs = record.result
    diffs: list[tuple[str, object, object]] = []
    for name in IssResult.COMPARED:
        t = getattr(theirs, name)
        o = getattr(rep.result, name)
        if t is not None and o != t:
            diffs.append((name, o, t))
    if rep.ending == "passed":  # the record claims a game, the engine saw all pass
        diffs.append(("passed", True, False))
    if diffs:
        return IssCheck(rid, "disagree", diffs=tuple(diffs), replay=rep)
    return IssCheck(rid, "agree", replay=rep)


def check_line(line: str, where: str = "") -> IssCheck:
    """Parse and check one line; an unreadable line is ``skipped``/``corrupt``."""
    try:
        record = parse_iss(line)
    except IssError as e:
        m = re.search(r"ID\[([^\]]*)\]", line)
        rid = m.group(1) if m and m.group(1) else (where or "(no id)")
        return IssCheck(rid, "skipped", "corrupt", f"cannot read the record: {e}")
    return check_iss(record)
