"""Reading ISS record lines: the record itself (:class:`IssRecord`), its moves and its
result (:class:`IssResult`), and finding the records in the lines of a file.

``docs/iss.md`` describes the format as we read it; :mod:`stich.skat.iss` is the public
face of the reader.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from stich.cards import Card
from stich.messages import Msg, StichError

__all__ = [
    "IssError",
    "IssLines",
    "IssMove",
    "IssRecord",
    "IssResult",
    "card_of",
    "parse_iss",
    "read_iss_lines",
    "record_text",
    "scan_iss_lines",
]

_PROP = re.compile(r"([A-Z][A-Z0-9]*)\[([^\]]*)\]")
_CARD = re.compile(r"[CSHD][789TJQKA]")


class IssError(StichError):
    """A record that cannot be read or replayed; the code and message say where and why
    (the codes are ``iss.*``, see :mod:`stich.messages.iss`)."""

    @property
    def root(self) -> Msg:
        """The innermost reason: ``iss.at_move`` and ``iss.skip.unreadable`` wrap one."""
        msg = Msg(self.code, self.params)
        while isinstance(msg.params.get("reason"), Msg):
            msg = msg.params["reason"]
        return msg


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
    ``given`` names the keys and words the record's ``R[...]`` holds.
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
    given: frozenset[str] = field(default=frozenset(), compare=False)

    COMPARED = ("declarer", "won", "value", "matadors", "overbid", "points", "tricks",
                "schneider", "schwarz", "resigned", "timeout")

    def gives(self, name: str) -> bool:
        """Whether the record gives the field ``name`` (one of :attr:`COMPARED`)."""
        if name == "timeout":
            return "to" in self.given
        return getattr(self, name) is not None

    @staticmethod
    def parse(text: str) -> IssResult:
        """Read the inside of ``R[...]``."""
        words = text.split()
        if words == ["passed"]:
            return IssResult(passed=True, raw=text, given=frozenset(words))
        kv: dict[str, int] = {}
        flags: set[str] = set()
        for w in words:
            key, sep, value = w.partition(":")
            if sep:
                try:
                    kv[key] = int(value)
                except ValueError:
                    raise IssError("iss.result_not_number", field=w) from None
            else:
                flags.add(w)
        unknown = flags - {"win", "loss", "bidok", "overbid", "penalty", "passed"}
        if unknown:
            raise IssError("iss.result_unknown_words", n=len(unknown),
                           words=", ".join(sorted(unknown)))

        def flag(yes: str, no: str) -> bool | None:
            if yes in flags:
                return True
            return False if no in flags else None

        def opt_bool(key: str) -> bool | None:
            v = kv.get(key)
            return None if v is None else v != 0

        return IssResult(
            passed="passed" in flags,
            declarer=kv.get("d"),
            won=flag("win", "loss"),
            value=kv.get("v"),
            matadors=kv.get("m"),
            overbid=flag("overbid", "bidok"),
            points=kv.get("p"),
            tricks=kv.get("t"),
            schneider=opt_bool("s"),
            schwarz=opt_bool("z"),
            penalty="penalty" in flags,
            penalty_points=(kv.get("p0", 0), kv.get("p1", 0), kv.get("p2", 0)),
            left=kv.get("l", -1),
            timeout=kv.get("to", -1),
            resigned=opt_bool("r"),
            raw=text,
            given=frozenset(kv) | frozenset(flags),
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
            raise IssError("iss.no_deal")
        words = self.moves[0].what.split(".")
        if len(words) != 32:
            raise IssError("iss.deal_size", n=len(words))
        cards = [card_of(w) for w in words]
        if len(set(cards)) != 32:
            raise IssError("iss.deal_twice")
        masks = [sum(c.bit for c in cards[i:i + 10]) for i in (0, 10, 20)]
        return (masks[0], masks[1], masks[2]), cards[30].bit | cards[31].bit

    def describe(self) -> str:
        """How the record is named in messages: its game id, else its series."""
        if self.game_id:
            return self.game_id
        return f"series {self.series}" if self.series else "(no id)"


def parse_iss(line: str) -> IssRecord:
    """Read one ISS record line; raises :class:`IssError` when it is not one.  A protocol
    prefix before the record (``table .3 x end (;GM...;)``) is skipped."""
    text = record_text(line) or line.strip()
    if not (text.startswith("(;") and text.endswith(")")):
        raise IssError("iss.not_a_record")
    props: dict[str, str] = {}
    for m in _PROP.finditer(text):
        props.setdefault(m.group(1), m.group(2))
    if props.get("GM") != "Skat":
        raise IssError("iss.not_skat", game=props.get("GM", ""))
    for key in ("P0", "P1", "P2", "MV", "R"):
        if key not in props:
            raise IssError("iss.missing_property", key=key)
    words = props["MV"].split()
    if len(words) % 2:
        raise IssError("iss.moves_not_pairs")
    moves = tuple(IssMove(words[i], words[i + 1]) for i in range(0, len(words), 2))
    for mv in moves:
        if mv.who not in ("w", "0", "1", "2"):
            raise IssError("iss.unknown_mover", move=str(mv))
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


def record_text(line: str) -> str | None:
    """The record a line holds, from its ``(;`` on: the line itself, or the record after
    a prefix of the live protocol (``table .3 xskat end (;GM[Skat]...;)``).  ``None`` for
    a line without a record (blank, a comment, a protocol message of another kind)."""
    i = line.find("(;")
    if i < 0:
        return None
    return line[i:].strip()


@dataclass(frozen=True)
class IssLines:
    """What the lines of a file hold: the records as (line number, record text), and the
    numbers of the non-blank lines that hold none."""

    records: tuple[tuple[int, str], ...]
    ignored: tuple[int, ...]


def scan_iss_lines(lines: Iterable[str]) -> IssLines:
    """Find the records in the lines of a file (numbered from 1); blank lines are neither
    records nor ignored lines."""
    records: list[tuple[int, str]] = []
    ignored: list[int] = []
    for n, ln in enumerate(lines, start=1):
        text = record_text(ln)
        if text is not None:
            records.append((n, text))
        elif ln.strip():
            ignored.append(n)
    return IssLines(tuple(records), tuple(ignored))


def read_iss_lines(lines: Iterable[str]) -> list[tuple[int, str]]:
    """The records of a file as (line number, record text); :func:`scan_iss_lines` also
    says which lines hold none."""
    return list(scan_iss_lines(lines).records)


def card_of(word: str) -> Card:
    """A card code of a record (``SA``); ``??`` (a card the record hides) and anything
    else that is not a card raise :class:`IssError`."""
    if word == "??":
        raise IssError("iss.hidden_card")
    if not _CARD.fullmatch(word):
        raise IssError("iss.bad_card", word=word)
    return Card.parse(word)


def is_card(word: str) -> bool:
    """Whether ``word`` is a card code."""
    return _CARD.fullmatch(word) is not None


def plain(value: Any) -> Any:
    """A message parameter as plain JSON data (for machine-readable output)."""
    from stich.cards import format_cards
    from stich.messages import Cards, GameName, Seat, SuitName

    if isinstance(value, Msg):
        return {"code": value.code, "params": {k: plain(v) for k, v in value.params.items()}}
    if isinstance(value, Seat):
        return value.seat
    if isinstance(value, Cards):
        return format_cards(value.mask)
    if isinstance(value, SuitName):
        return value.suit
    if isinstance(value, GameName):
        return value.game
    return value
