"""A reader for XSkat's game logs (``xskat -auto N -log FILE -list FILE``), for comparing
stich's engine with XSkat's games (issue 42; the files and how they were made:
tests/data/xskat/README.md).

What XSkat writes for one game (English, unformatted; games are separated by a line of
``=``)::

     Computer1   Computer2   Computer3         <- a name written _Name_: that player
                                                  said Kontra
    ----------------------------------------
      Diamond 9   HEART 10    Diamond_A        <- one trick a row, a column a player:
      ...                                         the card in CAPITALS won the trick,
    ---- random_seed 1 0 2 ------------------     the one with a _ was led (a card that
      HEART A     SPADE J     CLUB J              was led and won is only in capitals)
      ...                                      <- the hands as played (after the Skat
    ----------------------------------------      was picked up or pushed on), trumps in
    Skat is: Diamond 8,Diamond 10                 capitals
    Skat was: Diamond 8,Diamond 10             <- the Skat as dealt (when it was picked up)
    FH passed: Heart 9,Spade K                 <- Schieberamsch: what Vorhand (FH),
    MH_passed: Heart 9,Spade K                    Mittelhand (MH), Hinterhand (RH) put
                                                  into the Skat; ``_`` = pushed it on unseen
    Last bid: 20
    Computer2 played Heart                     <- or "ComputerN lost/won the Ramsch"
    Played Hand                                <- or "Played ouvert Hand", ...
    Won with: 63 points                        <- or Lost; Null: "Won"/"Lost" alone

The log holds neither the auction nor the list score.  The auction is only its result
(declarer and last bid): :func:`auction` builds one auction that reaches it.  The list
score is in the list file (``-list``): after six header lines (carried totals, all 0
while the list has not overflowed) one line a game, ``e P R D V W``: XSkat player P
(0..2), R = 1 for Ramsch, D = 1 for a Durchmarsch, V the value, W = 1 won.  How a line
turns into the change of each player's list score (:func:`list_scores`) was read off the
totals ``xskat -auto`` prints, which the tests check again: a declarer's game is +V won
and -V lost (V already doubled for a lost game and by Kontra); Ramsch: the loser -V; a
Durchmarsch +V (120) for P; a Ramsch "won" by P without a Durchmarsch is a tie for the
most points: the two others lose V each.

Seats: the third number of ``random_seed`` is the dealer (XSkat player 1..3), who is
Hinterhand; Vorhand is the next player (1 -> 2 -> 3 -> 1), then Mittelhand.  Seat 0 is
Vorhand, 1 Mittelhand, 2 Hinterhand, as in stich.
"""

from __future__ import annotations

import gzip
import re
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "XSkatError",
    "XSkatGame",
    "XSkatTrick",
    "auction",
    "list_scores",
    "read_games",
    "read_list",
    "read_set",
]

_SUITS = {"diamond": "D", "heart": "H", "spade": "S", "club": "C"}
_RANKS = {"7": "7", "8": "8", "9": "9", "10": "T", "J": "J", "Q": "Q", "K": "K", "A": "A"}
_GAMES = {"Diamond": "schellen", "Heart": "herz", "Spade": "gruen", "Club": "eichel",
          "Grand": "grand", "Null": "null"}
_POINTS = {"7": 0, "8": 0, "9": 0, "T": 10, "J": 2, "Q": 3, "K": 4, "A": 11}
_COLUMN = 12
"""Each player's column in the log is 12 characters wide, after two spaces."""


class XSkatError(ValueError):
    """A log or list line this reader does not understand."""


def card_points(cards: tuple[str, ...] | frozenset[str]) -> int:
    """The card points of some card codes."""
    return sum(_POINTS[c[1]] for c in cards)


def _card(text: str) -> tuple[str, bool, bool]:
    """A log cell (``Diamond_A``, ``HEART 10``) as (card code, capitals, underlined)."""
    t = text.strip()
    underlined = "_" in t
    words = t.replace("_", " ").split()
    if len(words) != 2 or words[0].lower() not in _SUITS or words[1] not in _RANKS:
        raise XSkatError(f"not a card: {text!r}")
    return _SUITS[words[0].lower()] + _RANKS[words[1]], words[0].isupper(), underlined


def _card_list(text: str) -> tuple[str, ...]:
    return tuple(_card(part)[0] for part in text.split(","))


def _cells(line: str) -> list[str]:
    return [line[2 + i * _COLUMN: 2 + (i + 1) * _COLUMN].strip() for i in range(3)]


@dataclass(frozen=True)
class XSkatTrick:
    """One trick: the leading seat, the cards in the order played, and the seat whose
    card XSkat wrote in capitals (the winner)."""

    leader: int
    cards: tuple[str, str, str]
    winner: int


@dataclass
class XSkatGame:
    """One logged game, by seat (0 Vorhand, 1 Mittelhand, 2 Hinterhand)."""

    number: int
    """The game's place in the file, from 0."""
    seed: str
    """XSkat's ``random_seed`` line (``seed game dealer``): ``echo random_seed ... |
    xskat -game -`` deals it again."""
    players: tuple[int, int, int]
    """XSkat's player (0..2 for Computer1..3) in seat 0, 1, 2."""
    hands: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]
    """The dealt hands."""
    skat: tuple[str, ...]
    """The dealt Skat."""
    kind: str
    """``game`` (a declarer), ``ramsch`` or ``passed`` (everybody passed, no Ramsch)."""
    declarer: int | None = None
    bid: int = 0
    game: str = ""
    """stich's game word: schellen, herz, gruen, eichel, grand, null."""
    hand: bool = False
    ouvert: bool = False
    schneider: bool = False
    schwarz: bool = False
    discard: tuple[str, ...] = ()
    """The declarer's two discarded cards (the Skat at the end); () for Hand."""
    pushes: tuple[tuple[bool, tuple[str, ...]], ...] = ()
    """Schieberamsch, seats 0, 1, 2: (pushed on unseen, the cards put into the Skat)."""
    kontra: int | None = None
    """The seat that said Kontra."""
    re: bool = False
    tricks: tuple[XSkatTrick, ...] = ()
    won: bool | None = None
    """As XSkat says it: the declarer won; Ramsch: the named player "won the Ramsch"."""
    named: int | None = None
    """Ramsch: the seat XSkat names as having lost (or won) the Ramsch."""
    points: int | None = None
    """The points XSkat reports: the declarer's with the Skat; Ramsch: the named
    player's.  None for Null."""
    final_skat: tuple[str, ...] = ()
    """The Skat at the end of the game (``Skat is``)."""
    scores: tuple[int, int, int] = (0, 0, 0)
    """XSkat's list score of each seat for this game (from the list file)."""
    list_line: str = ""
    """The game's line in the list file."""

    def actions(self, *, bidders: frozenset[int] = frozenset()) -> list[str]:
        """The whole game in stich's action texts.  ``bidders``: defenders who must have
        said or held a value in the built auction (Kontra under ``bid18``)."""
        out: list[str] = []
        if self.kind != "game":
            out += ["pass", "pass", "pass"]
            for pushed, cards in self.pushes:
                out += ["schieben"] if pushed else ["pickup", "discard " + " ".join(cards)]
        else:
            assert self.declarer is not None
            built = auction(self.declarer, self.bid, bidders)
            if built is None:
                raise XSkatError(f"no auction reaches declarer {self.declarer} at "
                                 f"{self.bid} with bidders {sorted(bidders)}")
            out += built
            if self.hand:
                out.append("hand")
            else:
                out += ["pickup", "discard " + " ".join(self.discard)]
            words = ["declare", self.game]
            for flag in ("hand", "schneider", "schwarz", "ouvert"):
                if getattr(self, flag):
                    words.append(flag)
            out.append(" ".join(words))
        for number, trick in enumerate(self.tricks):
            for i, card in enumerate(trick.cards):
                seat = (trick.leader + i) % 3
                if number == 0 and seat == self.kontra:
                    out += ["kontra", "re" if self.re else "pass"]
                out.append(card)
        return out


def auction(declarer: int, bid: int, bidders: frozenset[int] = frozenset()
            ) -> list[str] | None:
    """An auction (stich's texts, bids may jump) that makes ``declarer`` the declarer at
    ``bid`` and in which every seat of ``bidders`` said or held a value; None when no
    auction can (for example Mittelhand declares at 18: only Vorhand's pass is possible).

    >>> auction(1, 20)
    ['20', 'pass', 'pass']
    >>> auction(0, 18)
    ['pass', 'pass', '18']
    >>> auction(0, 24, frozenset({1, 2}))
    ['18', 'hold', 'pass', '24', 'hold', 'pass']
    >>> auction(1, 18, frozenset({2})) is None
    True
    """
    others = bidders - {declarer}
    b = str(bid)
    if declarer == 0:
        if not others:
            return ["pass", "pass", "18"] if bid == 18 else [b, "hold", "pass", "pass"]
        if others == {1}:
            return [b, "hold", "pass", "pass"]
        if others == {2}:
            return ["pass", b, "hold", "pass"]
        return ["18", "hold", "pass", b, "hold", "pass"] if bid > 18 else None
    if declarer == 1:
        if not others:
            return [b, "pass", "pass"]
        if others == {0}:
            return ["18", "hold", b, "pass", "pass"] if bid > 18 else None
        if others == {2}:
            return ["18", "pass", b, "hold", "pass"] if bid > 18 else None
        return ["18", "hold", "20", "pass", b, "hold", "pass"] if bid > 20 else None
    if not others:
        return ["pass", b, "pass"]
    if others == {0}:
        return ["pass", "18", "hold", b, "pass"] if bid > 18 else None
    if others == {1}:
        return ["18", "pass", b, "pass"] if bid > 18 else None
    return ["18", "hold", "pass", b, "pass"] if bid > 18 else None


_SEED = re.compile(r"^---- random_seed (\d+) (\d+) (\d+) -*$")
_PLAYED = re.compile(r"^Computer([123]) played (\w+)$")
_RAMSCH = re.compile(r"^Computer([123]) (lost|won) the Ramsch$")
_RESULT = re.compile(r"^(Won|Lost)(?: with: (\d+) points)?$")
_PASSED = re.compile(r"^(FH|MH|RH)( |_)passed: (.*)$")
_NAME = re.compile(r"(_?)Computer([123])(_?)")
_FLAGS = {"Hand": "hand", "ouvert": "ouvert", "Schneider": "schneider", "Schwarz": "schwarz"}


def _split_games(text: str) -> list[list[str]]:
    games: list[list[str]] = [[]]
    for line in text.splitlines():
        if line.startswith("=" * 10):
            games.append([])
        else:
            games[-1].append(line)
    return [g for g in games if any(line.strip() for line in g)]


def _parse_game(number: int, lines: list[str]) -> XSkatGame:
    names = _NAME.findall(lines[0])
    if [int(n[1]) for n in names] != [1, 2, 3]:
        raise XSkatError(f"game {number}: header {lines[0]!r}")
    said = [int(n[1]) - 1 for n in names if n[0] == "_" and n[2] == "_"]
    if not lines[2].startswith("-" * 10):
        raise XSkatError(f"game {number}: no line after the header")
    i = 3
    rows: list[list[str]] = []
    while not lines[i].startswith("---- random_seed"):
        rows.append(_cells(lines[i]))
        i += 1
    m = _SEED.match(lines[i])
    if not m:
        raise XSkatError(f"game {number}: {lines[i]!r}")
    seed = " ".join(m.groups())
    dealer = int(m.group(3)) - 1
    players = ((dealer + 1) % 3, (dealer + 2) % 3, dealer)
    seat_of = {p: s for s, p in enumerate(players)}
    i += 1
    final: list[list[str]] = [[], [], []]
    while not lines[i].startswith("-" * 10):
        for p, cell in enumerate(_cells(lines[i])):
            final[p].append(_card(cell)[0])
        i += 1
    info = [line for line in lines[i + 1:] if line.strip()]

    g = XSkatGame(number=number, seed=seed, players=players, hands=((), (), ()), skat=(),
                  kind="game")
    skat_was: tuple[str, ...] | None = None
    passes: dict[str, tuple[bool, tuple[str, ...]]] = {}
    for line in info:
        if line.startswith("Skat is: "):
            g.final_skat = _card_list(line[9:])
        elif line.startswith("Skat was: "):
            skat_was = _card_list(line[10:])
        elif line.startswith("Last bid: "):
            g.bid = int(line[10:])
        elif (mm := _PLAYED.match(line)) is not None:
            g.declarer = seat_of[int(mm.group(1)) - 1]
            if mm.group(2) not in _GAMES:
                raise XSkatError(f"game {number}: game {mm.group(2)!r}")
            g.game = _GAMES[mm.group(2)]
        elif line.startswith("Played "):
            for word in line.split()[1:]:
                if word not in _FLAGS:
                    raise XSkatError(f"game {number}: {line!r}")
                setattr(g, _FLAGS[word], True)
        elif (mm := _RAMSCH.match(line)) is not None:
            g.kind = "ramsch"
            g.named = seat_of[int(mm.group(1)) - 1]
            g.won = mm.group(2) == "won"
        elif (mm := _RESULT.match(line)) is not None:
            if g.kind == "game":
                g.won = mm.group(1) == "Won"
            elif g.won != (mm.group(1) == "Won"):
                raise XSkatError(f"game {number}: {line!r} after the Ramsch line")
            g.points = int(mm.group(2)) if mm.group(2) else None
        elif (mm := _PASSED.match(line)) is not None:
            passes[mm.group(1)] = (mm.group(2) == "_", _card_list(mm.group(3)))
        else:
            raise XSkatError(f"game {number}: unknown line {line!r}")

    by_seat = tuple(tuple(final[p]) for p in players)
    if rows and [c.replace("_", "") for c in rows[0]] == ["Pass", "Pass", "Pass"]:
        g.kind = "passed"
        rows = []
    g.tricks = _tricks(number, rows, players)
    if g.tricks and g.tricks[0].leader != 0:
        raise XSkatError(f"game {number}: the first trick was not led by Vorhand")
    hands = [set(h) for h in by_seat]
    if g.kind == "game":
        if g.declarer is None or g.won is None:
            raise XSkatError(f"game {number}: no declarer or no result")
        if skat_was is None or (g.hand and set(skat_was) != set(g.final_skat)):
            raise XSkatError(f"game {number}: the Skat ({skat_was}, {g.final_skat})")
        g.skat = skat_was
        if not g.hand:
            g.discard = g.final_skat
            d = hands[g.declarer]
            hands[g.declarer] = (d | set(g.final_skat)) - set(skat_was)
    elif g.kind == "ramsch":
        if passes:
            if skat_was is None or sorted(passes) != ["FH", "MH", "RH"]:
                raise XSkatError(f"game {number}: Schieberamsch lines")
            g.skat = skat_was
            skat = set(skat_was)
            pushes = []
            for seat, key in enumerate(("FH", "MH", "RH")):
                pushed, cards = passes[key]
                if pushed:
                    if set(cards) != skat:
                        raise XSkatError(f"game {number}: {key} pushed {cards}, not {skat}")
                else:
                    hands[seat] = (hands[seat] | set(cards)) - skat
                skat = set(cards)
                pushes.append((pushed, cards))
            if skat != set(g.final_skat):
                raise XSkatError(f"game {number}: the Skat after the pushes")
            g.pushes = tuple(pushes)
        else:
            if skat_was is not None:
                raise XSkatError(f"game {number}: 'Skat was' in a Ramsch without pushes")
            g.skat = g.final_skat
    else:
        g.skat = g.final_skat
    g.hands = (tuple(sorted(hands[0])), tuple(sorted(hands[1])), tuple(sorted(hands[2])))
    every = set().union(*hands) | set(g.skat)
    if len(every) != 32 or any(len(h) != 10 for h in hands) or len(g.skat) != 2:
        raise XSkatError(f"game {number}: the deal is not 3 x 10 + 2 different cards")
    if len(said) > 2:
        raise XSkatError(f"game {number}: three names marked")
    for p in said:
        seat = seat_of[p]
        if seat == g.declarer:
            g.re = True
        elif g.kontra is None:
            g.kontra = seat
        else:
            raise XSkatError(f"game {number}: two defenders marked")
    if g.re and g.kontra is None:
        raise XSkatError(f"game {number}: the declarer marked without Kontra")
    return g


def _tricks(number: int, rows: list[list[str]], players: tuple[int, int, int]
            ) -> tuple[XSkatTrick, ...]:
    seat_of = {p: s for s, p in enumerate(players)}
    out: list[XSkatTrick] = []
    leader = 0
    for row in rows:
        if not any(row):
            continue
        if not all(row):
            raise XSkatError(f"game {number}: an incomplete trick {row}")
        parsed = [_card(cell) for cell in row]
        by_seat = {seat_of[p]: parsed[p] for p in range(3)}
        winners = [s for s, c in by_seat.items() if c[1]]
        marked = [s for s, c in by_seat.items() if c[2]]
        if len(winners) != 1 or len(marked) > 1:
            raise XSkatError(f"game {number}: trick {row}: winner/leader not marked once")
        if (marked[0] if marked else winners[0]) != leader:
            raise XSkatError(f"game {number}: trick {row}: not led by seat {leader}")
        cards = tuple(by_seat[(leader + k) % 3][0] for k in range(3))
        out.append(XSkatTrick(leader, (cards[0], cards[1], cards[2]), winners[0]))
        leader = winners[0]
    return tuple(out)


def read_games(text: str) -> list[XSkatGame]:
    """Every game of a log's text."""
    return [_parse_game(n, lines) for n, lines in enumerate(_split_games(text))]


def read_list(text: str) -> list[tuple[int, int, int, int, bool]]:
    """The game lines of a list file: (player, ramsch, durchmarsch, value, won).  Raises
    when the header carries totals (the list overflowed, so games are missing)."""
    lines = text.splitlines()
    header, games = lines[:6], lines[6:]
    for line in header:
        if any(w not in ("0", "a", "t", "b", "g", "v") for w in line.split()):
            raise XSkatError(f"the list carries earlier games: {line!r}")
    out = []
    for line in games:
        w = line.split()
        if len(w) != 6 or w[0] != "e" or w[5] not in ("0", "1"):
            raise XSkatError(f"list line {line!r}")
        out.append((int(w[1]), int(w[2]), int(w[3]), int(w[4]), w[5] == "1"))
    return out


def list_scores(entry: tuple[int, int, int, int, bool]) -> tuple[int, int, int]:
    """The change of each XSkat player's list score (player 0..2) by one list line."""
    player, ramsch, durchmarsch, value, won = entry
    scores = [0, 0, 0]
    if not ramsch or not won or durchmarsch:
        scores[player] = value if won else -value
    else:  # a tie for the most Ramsch points: the other two lose
        for p in range(3):
            if p != player:
                scores[p] = -value
    return scores[0], scores[1], scores[2]


def _text(path: Path) -> str:
    if path.suffix == ".gz":
        return gzip.decompress(path.read_bytes()).decode("utf-8")
    return path.read_text(encoding="utf-8")


def read_set(log: Path, lst: Path) -> list[XSkatGame]:
    """The games of a log with the list score of each seat from the matching list file
    (one list line a game, in order)."""
    games = read_games(_text(log))
    entries = read_list(_text(lst))
    if len(entries) != len(games):
        raise XSkatError(f"{log.name}: {len(games)} games, {len(entries)} list lines")
    for g, entry in zip(games, entries, strict=True):
        by_player = list_scores(entry)
        g.scores = (by_player[g.players[0]], by_player[g.players[1]], by_player[g.players[2]])
        g.list_line = "e " + " ".join(str(int(x)) for x in entry)
    return games
