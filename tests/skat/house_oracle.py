"""An independent Skat game evaluator for the house-rule tests (issue 42).

Written from the rule texts only (``/work/shared/RULES.md``, the seed "Lothars
Skat-Regeln", the issue's interface notes and XSkat's manual), never from the engine: it
parses the card codes itself, replays the auction (or the start of a compulsory Ramsch
of a Ramsch round: Grand Hand or pass), the Skat, the declaration, Kontra/Re,
Schieberamsch, Klopfen, the tricks, and the declarer's claim of the rest or a player
giving up (``claim``, ``giveup``) from the action texts, and settles the list scores.
It derives on its own which bids (:func:`bidding_ladder`, :meth:`Replay.auction_actions`)
and which declarations (:meth:`Replay.declarations`, Spitze included) the rules allow.

Spitze (``spitze=yes|double``, XSkat's -spitze/-spitze2): the declarer of a suit game or
Grand may add ``spitze`` when the game's lowest trump is in his hand at the declaration
(the trump Sieben; in Grand the Schellen-Unter, and not with all four Unter in his hand);
it adds 1 (``double``: 2) levels to the multiplier, and the game is lost unless he takes
the tenth trick with that card (both defenders giving up: made; his own giveup: lost).

Revolution (``revolution=yes``, XSkat's -revolution, "a special variation of Null
ouvert … the opponents can look at each other's cards and rearrange the cards between
their two hands in any way they wish before the start of the play … worth 92 points"):
declared as ``declare null [hand] ouvert revolution`` (92 must reach the bid); the first
defender after the declarer says ``give`` with any of his cards, his partner ``give``
with as many of his own cards; then Vorhand leads.  Every rearrangement is one such pair.

Schenken (``schenken=yes``, XSkat's -schenken: "If the opponents decide at the start of
the play that they cannot defeat the Soloist, they can give up … during the first trick
when it's your turn.  If the Soloist accepts, the score is as though the game was won
simply.  The Soloist can insist on playing on, but in that case has to make the
opponents Schneider to win.  The score in this case is as for an announced Schneider …
If the Soloist goes on the opponents can schenken again, giving the Soloist the
Schneider.  The Soloist can accept Schneider or insist on playing on for Schwarz"): the
project's reading (docs/skat.md): in a suit game or Grand without announcement, Ouvert or
Spitze, a defender at his turn in the first trick says ``schenken``; his partner agrees
(``schenken``) or not (``pass``); agreed, the declarer says ``accept`` or ``pass`` (plays
on).  Each defender offers at most once per level; after two ``pass`` of the declarer no
more.  Accepted: won, simply (after playing on once: with Schneider announced), an
overbid lost as ever.

The shortcut (``shortcut``, XSkat's -shortcut: "finish the game when the remaining tricks
will all go to one side"): allowed in a declared game's card play (not with Spitze, not
while an answer or an exchange is pending) when every way of playing on, by anyone, gives
every remaining trick (the open one too) to the same side; the rest then goes to that
side (:meth:`Replay.forced_side`, its own exhaustive search, at most
:data:`MAX_CLAIM_CARDS` cards).  In Null only the declarer's "no more trick" counts.

A claim is checked here by its own exhaustive search over the cards still in play (all
hands known, :meth:`Replay.claim_is_right`): practical only for few cards, so the oracle
refuses to judge a claim with more than :data:`MAX_CLAIM_CARDS` cards in play.

It is deliberately plain (sets of card codes, no bitmasks, no tables shared with the
engine) so that an error in the engine cannot hide in a shared helper.

Card codes: suit letter ``C`` Eichel, ``S`` Grün, ``H`` Herz, ``D`` Schellen, then the
rank ``7 8 9 T`` (10) ``J`` (Unter) ``Q`` (Ober) ``K`` ``A``.  Seats: 0 Vorhand,
1 Mittelhand, 2 Hinterhand.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

SUITS = "CSHD"  # Eichel, Grün, Herz, Schellen: also the Unter order, highest first
RANKS = "789TJQKA"
DECK = frozenset(s + r for s in SUITS for r in RANKS)
POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
UNTER = ("CJ", "SJ", "HJ", "DJ")
SUIT_ORDER = "ATKQ987"  # A 10 K O 9 8 7, highest first (the Unter is trump)
NULL_ORDER = "AKQJT987"  # A K O U 10 9 8 7, highest first
ROUND_START = frozenset({"declare grand hand", "pass"})  # a compulsory Ramsch's start
SUIT_GAMES = {"eichel": "C", "gruen": "S", "herz": "H", "schellen": "D"}
BASE = {"eichel": 12, "gruen": 11, "herz": 10, "schellen": 9, "grand": 24}
NULL_LEVELS = (23, 35, 46, 59)  # Null, Hand, Ouvert, Ouvert Hand
SPITZE_LEVELS = {"no": 0, "yes": 1, "double": 2}  # what a declared Spitze adds
GAMES = (*SUIT_GAMES, "grand", "null")
CLAIM_ACTIONS = frozenset({"claim", "giveup"})
MAX_CLAIM_CARDS = 15  # five tricks: the exhaustive search stays quick up to here
# why a game ended (the engine's SkatState.end_reason); the last three by a claim
END_REASONS = ("played", "null_lost", "null_overbid", "passed", "claimed", "claim_wrong",
               "gave_up", "gift", "shortcut")


class OracleError(Exception):
    """An action the rule texts do not allow at that point (or a malformed one)."""


def parse_codes(text: str | Iterable[str]) -> set[str]:
    words = text.split() if isinstance(text, str) else list(text)
    cards = set()
    for w in words:
        if w not in DECK:
            raise OracleError(f"not a card code: {w!r}")
        cards.add(w)
    if len(cards) != len(words):
        raise OracleError(f"a card twice in {words}")
    return cards


def points_of(cards: Iterable[str]) -> int:
    return sum(POINTS[c[1]] for c in cards)


def _three(xs: list[int]) -> tuple[int, int, int]:
    return (xs[0], xs[1], xs[2])


# --- rules --------------------------------------------------------------------------

PRESETS: dict[str, dict[str, object]] = {
    # RULES.md, "Rule sets": isko is the base, lothar its six deviations; every house
    # rule is off in both (and Durchmarsch on: the seed's rule).
    "isko": {"all_pass": "redeal", "announcements": True, "null_overbid": "refused",
             "bidding_jumps": True},
    "lothar": {"all_pass": "ramsch", "announcements": False, "null_overbid": "next_level",
               "bidding_jumps": False},
}
HOUSE_DEFAULTS: dict[str, object] = {
    "kontra_re": "no", "jungfrau": False, "durchmarsch": True, "ramsch_skat": "last_trick",
    "schieberamsch": False, "klopfen": False, "spitze": "no", "revolution": False,
    "schenken": False,
}
REVOLUTION = 92


@dataclass(frozen=True)
class OracleRules:
    """Only the rule fields that change how a single game is bid and settled."""

    all_pass: str = "ramsch"
    bidding_jumps: bool = False
    announcements: bool = False
    null_overbid: str = "next_level"
    kontra_re: str = "no"
    jungfrau: bool = False
    durchmarsch: bool = True
    ramsch_skat: str = "last_trick"
    schieberamsch: bool = False
    klopfen: bool = False
    spitze: str = "no"
    revolution: bool = False
    schenken: bool = False

    @staticmethod
    def of(spec: str | Mapping[str, object]) -> OracleRules:
        """From a rule string ``skat(preset=lothar,kontra_re=yes)`` or a dict of fields
        (``preset`` included); fields the oracle does not need (Bock) are
        ignored (``bock_ramsch`` too: whether a game is a compulsory Ramsch is the list's
        business, given to :meth:`Replay.new` as ``ramsch_round``)."""
        if isinstance(spec, str):
            m = re.fullmatch(r"\s*skat\((.*)\)\s*", spec)
            if m is None:
                raise OracleError(f"not a Skat rule string: {spec!r}")
            items: dict[str, object] = {}
            for part in filter(None, (p.strip() for p in m.group(1).split(","))):
                key, _, value = part.partition("=")
                items[key.strip()] = value.strip()
        else:
            items = dict(spec)
        fields: dict[str, object] = dict(HOUSE_DEFAULTS)
        fields.update(PRESETS[str(items.pop("preset", "lothar"))])
        for key, value in items.items():
            if key not in fields:
                continue  # bock, bock_games, bock_overlap, bock_ramsch
            if isinstance(fields[key], bool) and isinstance(value, str):
                value = value in ("yes", "true")
            fields[key] = value
        return OracleRules(**fields)  # type: ignore[arg-type]


def bidding_ladder(rules: OracleRules) -> tuple[int, ...]:
    """Every value some game can be worth under ``rules``, ascending (RULES.md: derived,
    not written down).  A suit game or Grand is worth base x multiplier; the multiplier is
    matadors (1 to 11 in a suit game, 1 to 4 in Grand, "mit" or "ohne") + 1, plus any
    number of the further levels up to all of them at once: Hand, Schneider, Schwarz,
    Ouvert (the four need nothing of each other: Ouvert Hand reaches Schwarz, Schneider
    and Schwarz are reached in play), under ``isko`` also Schneider and Schwarz announced,
    and a declared Spitze (1 or 2 levels).  Spitze holds with the most matadors: a suit
    game mit 11 has its Sieben in the hand (only one of the twelve cards is in the Skat),
    a Grand mit 4 may hold the Schellen-Unter with another Unter in the Skat.  Null adds
    its four fixed values."""
    levels = 4 + (2 if rules.announcements else 0) + SPITZE_LEVELS[rules.spitze]
    values = set(NULL_LEVELS) | ({REVOLUTION} if rules.revolution else set())
    for game, base in BASE.items():
        most_matadors = 4 if game == "grand" else 11
        values.update(base * m for m in range(2, most_matadors + 1 + levels + 1))
    return tuple(sorted(values))


def spitze_card(game: str) -> str:
    """The card a Spitze is made with: the trump Sieben, in Grand the Schellen-Unter."""
    return "DJ" if game == "grand" else SUIT_GAMES[game] + "7"


# --- result -------------------------------------------------------------------------


@dataclass
class OracleResult:
    kind: str  # "game", "ramsch" or "passed"
    scores: tuple[int, int, int]
    declarer: int | None = None
    game: str | None = None
    bid: int = 0
    hand: bool = False
    ouvert: bool = False
    matadors: int = 0  # positive "mit", negative "ohne"
    multiplier: int = 0
    value: int = 0
    declarer_points: int = 0
    schneider: bool = False
    schwarz: bool = False
    overbid: bool = False
    won: bool = False
    kontra: bool = False
    re: bool = False
    loser: int | None = None
    pushes: int = 0
    knocks: int = 0
    jungfrau: bool = False
    durchmarsch: bool = False
    spitze: bool = False
    spitze_made: bool = False  # only with a Spitze declared
    end: str = ""  # why the game ended: one of END_REASONS
    revolution: bool = False
    gift: int = 0  # how often the declarer played on after Schenken
    gift_accepted: bool = False
    ramsch_round: bool = False  # a compulsory Ramsch game (not an engine outcome field)
    tie: bool = False  # Ramsch: two players shared the most points (not an engine field)
    points: tuple[int, int, int] = (0, 0, 0)
    tricks: tuple[int, int, int] = (0, 0, 0)


# --- the replay ---------------------------------------------------------------------


@dataclass
class Replay:
    """Replays one game action by action; :meth:`result` settles it at the end.

    Between actions, :attr:`to_move` and :meth:`house_actions` say what the rule texts
    allow next, so that a test can compare the engine's legal actions with them.

    ``ramsch_round``: a compulsory Ramsch game of a Ramsch round (``bock_ramsch``): no
    auction; each player in turn from Vorhand says ``declare grand hand`` or ``pass``;
    the first who declares plays Grand Hand at bid 0 and the others are not asked; when
    all three pass, Ramsch is played (whatever ``all_pass`` says), with Schieberamsch and
    Klopfen when those are on.
    """

    rules: OracleRules
    hands: list[set[str]]
    skat: set[str]
    ramsch_round: bool = False
    phase: str = "auction"
    to_move: int | None = 1
    # auction
    duel: int = 1
    speaker: int = 1
    listener: int = 0
    awaiting: str = "speaker"  # the speaker says a value, or the listener answers
    highest: int = 0
    said: set[int] = field(default_factory=set)  # said a value or held
    declarer: int | None = None
    # declaring
    hand_game: bool = False
    game: str | None = None
    ouvert: bool = False
    schneider_announced: bool = False
    schwarz_announced: bool = False
    declarer_cards: set[str] = field(default_factory=set)  # ten cards + Skat, for matadors
    null_overbid_lost: bool = False
    spitze: bool = False
    spitze_made: bool = False  # decided by the tenth trick, or by who gave up
    spitze_trick: int | None = None  # the trick (1 to 10) the declarer played its card to
    # Kontra / Re
    kontra_by: int | None = None
    re: bool = False
    # Schieberamsch
    pushes: int = 0
    pushed: set[int] = field(default_factory=set)  # seats that pushed the Skat unseen
    ramsch_pickups: int = 0
    ramsch_turn: int = 0
    # Klopfen
    knocked: set[int] = field(default_factory=set)
    # claiming the rest and giving up
    gave_up: set[int] = field(default_factory=set)  # defenders who gave up
    claim_right: bool | None = None  # the oracle's verdict on the declarer's claim
    end: str = ""  # why the game ended (END_REASONS)
    # Revolution
    revolution: bool = False
    gave: set[str] = field(default_factory=set)  # what the first defender gave
    # Schenken
    gift: int = 0  # how often the declarer played on
    gift_by: int | None = None  # whose offer is pending
    gift_accepted: bool = False
    offered_at_level: set[int] = field(default_factory=set)
    # play
    trick: list[tuple[int, str]] = field(default_factory=list)
    won_cards: list[list[str]] = field(default_factory=lambda: [[], [], []])
    trick_count: list[int] = field(default_factory=lambda: [0, 0, 0])
    last_winner: int | None = None
    played_first: set[int] = field(default_factory=set)
    tricks_done: int = 0

    @staticmethod
    def new(rules: OracleRules | str | Mapping[str, object],
            hands: Iterable[str | Iterable[str]], skat: str | Iterable[str],
            ramsch_round: bool = False) -> Replay:
        r = rules if isinstance(rules, OracleRules) else OracleRules.of(rules)
        hs = [parse_codes(h) for h in hands]
        sk = parse_codes(skat)
        if len(hs) != 3 or any(len(h) != 10 for h in hs) or len(sk) != 2:
            raise OracleError("a deal is three hands of ten cards and a Skat of two")
        if set().union(*hs, sk) != DECK:
            raise OracleError("the deal must hold all 32 cards")
        if ramsch_round:
            return Replay(r, hs, sk, ramsch_round=True, phase="ramsch_round", to_move=0)
        return Replay(r, hs, sk)

    @property
    def knocks(self) -> int:
        return len(self.knocked)

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def run(self, actions: Iterable[str]) -> OracleResult:
        for a in actions:
            self.step(a)
        return self.result()

    # -- what may come next (house-rule actions only) --

    def house_actions(self) -> set[str]:
        """The house-rule action texts the rules allow now: ``kontra``, ``re``,
        ``schieben``, ``klopfen`` (and ``pass`` as the answer to a Kontra).  At the start
        of a compulsory Ramsch the whole choice is :data:`ROUND_START`."""
        if self.phase == "kontra_answer":
            return {"re", "pass"}
        if self.phase == "gift_partner":
            return {"schenken", "pass"}
        if self.phase == "gift_declarer":
            return {"accept", "pass"}
        if self.phase == "schieben":
            return {"schieben"}
        out = set()
        if self.may_kontra():
            out.add("kontra")
        if self.may_schenken():
            out.add("schenken")
        if self.may_klopfen():
            out.add("klopfen")
        return out

    def partner(self, seat: int) -> int:
        assert self.declarer is not None
        return next(s for s in range(3) if s not in (seat, self.declarer))

    def gives(self) -> set[frozenset[str]]:
        """Revolution: the card sets the defender to move may give now."""
        if self.phase != "exchange" or self.to_move is None:
            return set()
        own = sorted(self.hands[self.to_move] - self.gave)
        sizes = range(len(own) + 1) if not self.gave and self._first_giver() else [
            len(self.gave)]
        from itertools import combinations
        return {frozenset(c) for k in sizes for c in combinations(own, k)}

    def _first_giver(self) -> bool:
        assert self.declarer is not None
        return self.to_move == (self.declarer + 1) % 3

    def may_schenken(self) -> bool:
        """A defender at his turn in the first trick of a suit game or Grand declared
        without Schneider, Schwarz, Ouvert or Spitze, once per level, two levels."""
        seat = self.to_move
        if (self.phase != "play" or not self.rules.schenken or self.declarer is None
                or seat is None or seat == self.declarer or self.game not in BASE):
            return False
        if (self.schneider_announced or self.schwarz_announced or self.ouvert
                or self.spitze):
            return False
        return (self.tricks_done == 0 and seat not in self.played_first and self.gift < 2
                and seat not in self.offered_at_level)

    def claim_actions(self) -> set[str]:
        """What the player to move may do besides playing on: in the card play of a
        declared game (never in Ramsch, never while the declarer owes the answer to a
        Kontra), the declarer ``claim`` and ``giveup``, a defender ``giveup`` unless he
        gave up already."""
        seat = self.to_move
        if self.phase != "play" or self.declarer is None or seat is None:
            return set()
        if seat == self.declarer:
            # a Spitze is made only in the tenth trick: no claim, only giving up
            return {"giveup"} if self.spitze else {"claim", "giveup"}
        return set() if seat in self.gave_up else {"giveup"}

    def bids(self) -> list[str]:
        """The values the bidder to speak may say now: every ladder value above the
        highest so far (``bidding_jumps``), else only the next one."""
        higher = [str(v) for v in bidding_ladder(self.rules) if v > self.highest]
        return higher if self.rules.bidding_jumps else higher[:1]

    def auction_actions(self) -> set[str]:
        """Everything the player to move may say in the auction: a value or ``pass``
        (the bidder), ``hold`` or ``pass`` (the one who answers), ``18`` or ``pass``
        (Vorhand when nobody said a value)."""
        if self.phase != "auction":
            return set()
        if self.duel == 3:
            return {"18", "pass"}
        if self.awaiting == "speaker":
            return {"pass", *self.bids()}
        return {"hold", "pass"}

    def spitze_allowed(self, game: str) -> bool:
        """Whether the declarer may add ``spitze`` to ``game``: the rule is on, the game
        is a suit game or Grand, its Spitze card is in his hand now (after the discard;
        with Hand his ten cards), and in Grand he does not hold all four Unter."""
        if self.rules.spitze == "no" or game not in BASE or self.declarer is None:
            return False
        hand = self.hands[self.declarer]
        if spitze_card(game) not in hand:
            return False
        return not (game == "grand" and set(UNTER) <= hand)

    def declarations(self) -> set[str]:
        """The declaration texts allowed now (the declarer after Hand or his discard), in
        the words' order game, hand, schneider, schwarz, ouvert, spitze.  A suit game or
        Grand is allowed whatever the bid (an overbid is settled at the end); Ouvert only
        with Hand, and under ``isko`` only with Schneider and Schwarz announced (which
        need Hand too); Null and Null Ouvert with or without Hand, refused below the bid
        under ``null_overbid=refused`` and above 59 under ``next_level``; Spitze as
        :meth:`spitze_allowed` says."""
        if self.phase != "declare":
            return set()
        hand = " hand" if self.hand_game else ""
        extras = [""]
        if self.hand_game:
            extras += ([" schneider", " schneider schwarz", " schneider schwarz ouvert"]
                       if self.rules.announcements else [" ouvert"])
        out = set()
        for game in BASE:
            spitze = self.spitze_allowed(game)
            for e in extras:
                out.add(f"declare {game}{hand}{e}")
                if spitze:
                    out.add(f"declare {game}{hand}{e} spitze")
        for ouvert in (False, True):
            value = NULL_LEVELS[int(self.hand_game) + 2 * int(ouvert)]
            if value >= self.highest or (self.rules.null_overbid == "next_level"
                                         and self.highest <= NULL_LEVELS[-1]):
                out.add(f"declare null{hand}{' ouvert' if ouvert else ''}")
        if self.rules.revolution and self.highest <= REVOLUTION:
            out.add(f"declare null{hand} ouvert revolution")
        return out

    @property
    def cards_in_play(self) -> int:
        """The cards not yet in a finished trick: the hands and the open trick's."""
        return sum(len(h) for h in self.hands) + len(self.trick)

    def may_klopfen(self) -> bool:
        """Ramsch with ``klopfen``: at his turn in the first trick before his own first
        card, once per player, never by one who pushed the Skat on unseen."""
        seat = self.to_move
        if (self.phase != "play" or self.declarer is not None or seat is None
                or not self.rules.klopfen):
            return False
        return not (self.tricks_done > 0 or seat in self.played_first
                    or seat in self.knocked or seat in self.pushed)

    def may_kontra(self) -> bool:
        seat = self.to_move
        if (self.phase != "play" or self.declarer is None or seat is None
                or self.rules.kontra_re == "no" or self.kontra_by is not None):
            return False
        if seat == self.declarer or self.tricks_done > 0 or seat in self.played_first:
            return False
        return self.rules.kontra_re == "yes" or seat in self.said

    # -- one action --

    def step(self, text: str) -> None:
        words = text.split()
        if not words:
            raise OracleError("empty action")
        handler = getattr(self, f"_{self.phase}")
        handler(words)

    def _ramsch_round(self, words: list[str]) -> None:
        seat = self.to_move
        assert seat is not None
        if words == ["declare", "grand", "hand"]:
            # Grand Hand at bid 0: the Skat stays unseen and counts for him
            self._set_declarer(seat, 0)
            self.hand_game = True
            self.game = "grand"
            self._start_play()
        elif words == ["pass"]:
            if seat < 2:
                self.to_move = seat + 1
            else:  # all three passed: the compulsory Ramsch
                self._start_ramsch()
        else:
            raise OracleError(f"a Ramsch round's game starts with declare grand hand or "
                              f"pass, not {' '.join(words)}")

    def _auction(self, words: list[str]) -> None:
        w = words[0]
        if self.duel == 3:  # nobody said a value: Vorhand plays at 18 or passes
            if w == "18":
                self._set_declarer(0, 18)
            elif w == "pass":
                self._all_passed()
            else:
                raise OracleError(f"Vorhand's right: 18 or pass, not {w}")
            return
        if self.awaiting == "speaker":
            if w == "pass":
                self._end_duel(self.listener)
            elif w.isdigit():
                value = int(w)
                if w not in self.auction_actions():
                    raise OracleError(f"bid {value} not allowed after {self.highest} "
                                      f"(the ladder: {self.bids()})")
                self.highest = value
                self.said.add(self.speaker)
                self.awaiting = "listener"
                self.to_move = self.listener
            else:
                raise OracleError(f"the bidder says a value or passes, not {w}")
        else:
            if w == "hold":
                self.said.add(self.listener)
                self.awaiting = "speaker"
                self.to_move = self.speaker
            elif w == "pass":
                self._end_duel(self.speaker)
            else:
                raise OracleError(f"the answer is hold or pass, not {w}")

    def _end_duel(self, survivor: int) -> None:
        if self.duel == 1:
            self.duel = 2
            self.speaker, self.listener = 2, survivor
            self.awaiting = "speaker"
            self.to_move = 2
        elif self.highest > 0:
            self._set_declarer(survivor, self.highest)
        else:
            assert survivor == 0
            self.duel = 3
            self.to_move = 0

    def _set_declarer(self, seat: int, bid: int) -> None:
        self.declarer = seat
        self.highest = bid
        self.declarer_cards = self.hands[seat] | self.skat
        self.phase = "skat"
        self.to_move = seat

    def _all_passed(self) -> None:
        if self.rules.all_pass == "redeal":
            self.phase = "over"
            self.to_move = None
            self.end = "passed"
        else:
            self._start_ramsch()

    def _start_ramsch(self) -> None:
        if self.rules.schieberamsch:
            self.phase = "schieben"
            self.ramsch_turn = 0
            self.to_move = 0
        else:
            self._start_play()

    def _skat(self, words: list[str]) -> None:
        if words == ["hand"]:
            self.hand_game = True
            self.phase = "declare"
        elif words == ["pickup"]:
            assert self.declarer is not None
            self.hands[self.declarer] |= self.skat
            self.skat = set()
            self.phase = "discard"
        else:
            raise OracleError(f"hand or pickup, not {' '.join(words)}")

    def _discard(self, words: list[str]) -> None:
        if words[0] != "discard" or len(words) != 3:
            raise OracleError(f"discard X Y, not {' '.join(words)}")
        seat = self.to_move
        assert seat is not None
        cards = parse_codes(words[1:])
        if not cards <= self.hands[seat]:
            raise OracleError(f"discard of cards not held: {words[1:]}")
        if self.declarer is None and any(c[1] == "J" for c in cards):
            raise OracleError("Schieberamsch: an Unter may not be put into the Skat")
        self.hands[seat] -= cards
        self.skat = cards
        if self.declarer is None:
            self._next_ramsch_turn()
        else:
            self.phase = "declare"

    def _declare(self, words: list[str]) -> None:
        if words[0] != "declare" or len(words) < 2 or words[1] not in GAMES:
            raise OracleError(f"declare GAME [hand] [schneider] [schwarz] [ouvert] [spitze], "
                              f"not {words}")
        game = words[1]
        extras = set(words[2:])
        if (not extras <= {"hand", "schneider", "schwarz", "ouvert", "spitze", "revolution"}
                or len(extras) != len(words) - 2):
            raise OracleError(f"unknown declaration words: {words}")
        if "revolution" in extras:
            if not self.rules.revolution or game != "null" or "ouvert" not in extras:
                raise OracleError("a Revolution is a Null Ouvert at a table that plays it")
            self.revolution = True
        if "spitze" in extras:
            if self.rules.spitze == "no":
                raise OracleError("Spitze is not played at this table")
            if not self.spitze_allowed(game):
                raise OracleError(f"no Spitze in {game} with this hand")
        if ("hand" in extras) != self.hand_game:
            raise OracleError("the declaration says hand exactly when the Skat was not taken")
        self.spitze = "spitze" in extras
        self.game = game
        self.ouvert = "ouvert" in extras
        self.schneider_announced = "schneider" in extras
        self.schwarz_announced = "schwarz" in extras
        if game == "null":
            if self.schneider_announced or self.schwarz_announced:
                raise OracleError("Null has no Schneider or Schwarz")
            if self._null_value() < self.highest:
                if self.rules.null_overbid != "next_level" or self.highest > NULL_LEVELS[-1]:
                    raise OracleError("a Null declaration below the bid is refused")
                self.null_overbid_lost = True
                self.phase = "over"
                self.to_move = None
                self.end = "null_overbid"
                return
        else:
            if (self.schneider_announced or self.schwarz_announced) and (
                    not self.rules.announcements or not self.hand_game):
                raise OracleError("Schneider/Schwarz announced only with Hand (isko)")
            if self.schwarz_announced and not self.schneider_announced:
                raise OracleError("Schwarz announced includes Schneider announced")
            if self.ouvert and not self.hand_game:
                raise OracleError("suit and Grand Ouvert only with Hand")
            if self.ouvert and self.rules.announcements:
                # ISkO: Ouvert implies Schwarz announced
                self.schneider_announced = self.schwarz_announced = True
        if self.revolution:
            assert self.declarer is not None
            self.phase = "exchange"
            self.to_move = (self.declarer + 1) % 3
            return
        self._start_play()

    def _exchange(self, words: list[str]) -> None:
        if words[0] != "give":
            raise OracleError(f"Revolution: give cards first, not {words}")
        seat = self.to_move
        assert seat is not None
        cards = parse_codes(words[1:]) if words[1:] else set()
        if frozenset(cards) not in self.gives():
            raise OracleError(f"seat {seat} may not give {sorted(cards)}")
        partner = self.partner(seat)
        self.hands[seat] -= cards
        self.hands[partner] |= cards
        if self._first_giver():
            self.gave = set(cards)
            self.to_move = partner
        else:
            self._start_play()

    def _gift_partner(self, words: list[str]) -> None:
        assert self.gift_by is not None
        if words == ["schenken"]:
            self.phase = "gift_declarer"
            self.to_move = self.declarer
        elif words == ["pass"]:
            self.phase = "play"
            self.to_move, self.gift_by = self.gift_by, None
        else:
            raise OracleError(f"the partner agrees (schenken) or not (pass), not {words}")

    def _gift_declarer(self, words: list[str]) -> None:
        if words == ["accept"]:
            self.gift_accepted = True
            self.hands = [set(), set(), set()]
            self.trick = []
            self._over("gift")
        elif words == ["pass"]:
            self.gift += 1
            self.offered_at_level = set()
            self.phase = "play"
            self.to_move, self.gift_by = self.gift_by, None
        else:
            raise OracleError(f"the declarer accepts or plays on (pass), not {words}")

    def _start_play(self) -> None:
        self.phase = "play"
        self.to_move = 0

    def _schieben(self, words: list[str]) -> None:
        if words == ["schieben"]:
            self.pushes += 1
            self.pushed.add(self.ramsch_turn)
            self._next_ramsch_turn()
        elif words == ["pickup"]:
            self.ramsch_pickups += 1
            self.hands[self.ramsch_turn] |= self.skat
            self.skat = set()
            self.phase = "discard"
        else:
            raise OracleError(f"Schieberamsch: pickup or schieben, not {' '.join(words)}")

    def _next_ramsch_turn(self) -> None:
        self.ramsch_turn += 1
        if self.ramsch_turn == 3:
            self._start_play()
        else:
            self.phase = "schieben"
            self.to_move = self.ramsch_turn

    def _kontra_answer(self, words: list[str]) -> None:
        if words == ["re"]:
            self.re = True
        elif words != ["pass"]:
            raise OracleError(f"Kontra is answered with re or pass, not {words}")
        self.phase = "play"
        self.to_move = self.kontra_by

    # -- card play --

    def _trump(self, card: str) -> bool:
        if self.game == "null":
            return False
        if card[1] == "J":
            return True
        return self.game in SUIT_GAMES and card[0] == SUIT_GAMES[self.game]

    def _follow_class(self, card: str) -> str:
        """The "suit" a card belongs to for following: ``T`` for trump, else its suit."""
        return "T" if self._trump(card) else card[0]

    def _strength(self, card: str) -> tuple[int, int]:
        """A comparable rank inside the card's own class (trump or suit)."""
        if self.game == "null":
            return (0, len(NULL_ORDER) - NULL_ORDER.index(card[1]))
        if card[1] == "J":
            return (1, 10 - UNTER.index(card))
        return (0, len(SUIT_ORDER) - SUIT_ORDER.index(card[1]))

    def _trick_winner(self, trick: list[tuple[int, str]] | None = None) -> int:
        """Who wins ``trick`` (three (seat, card) pairs; the open trick by default)."""
        trick = self.trick if trick is None else trick
        led = self._follow_class(trick[0][1])
        best_seat, best = trick[0]
        for seat, card in trick[1:]:
            cls = self._follow_class(card)
            best_cls = self._follow_class(best)
            trumps_it = cls == "T" and best_cls != "T"
            beats_it = (cls == best_cls and cls in (led, "T")
                        and self._strength(card) > self._strength(best))
            if trumps_it or beats_it:
                best_seat, best = seat, card
        return best_seat

    def _playable(self, hand: Iterable[str], trick: list[tuple[int, str]]) -> list[str]:
        """The cards of ``hand`` that may be played to ``trick``: the led suit (trump
        counting as one suit) when he holds it, else any."""
        cards = sorted(hand)
        if not trick:
            return cards
        led = self._follow_class(trick[0][1])
        follow = [c for c in cards if self._follow_class(c) == led]
        return follow or cards

    def _play(self, words: list[str]) -> None:
        seat = self.to_move
        assert seat is not None
        if words == ["kontra"]:
            if not self.may_kontra():
                raise OracleError("Kontra not allowed here")
            self.kontra_by = seat
            self.phase = "kontra_answer"
            self.to_move = self.declarer
            return
        if words == ["schenken"]:
            if not self.may_schenken():
                raise OracleError("Schenken not allowed here")
            self.offered_at_level.add(seat)
            self.gift_by = seat
            self.phase = "gift_partner"
            self.to_move = self.partner(seat)
            return
        if words == ["klopfen"]:
            if not self.may_klopfen():
                raise OracleError("Klopfen not allowed here")
            self.knocked.add(seat)  # he still plays his first card
            return
        if words == ["shortcut"]:
            side = self.forced_side()
            if side < 0:
                raise OracleError("no shortcut: the rest is open")
            self._rest(to_declarer=side == 1, end="shortcut")
            return
        if len(words) == 1 and words[0] in CLAIM_ACTIONS:
            if words[0] not in self.claim_actions():
                raise OracleError(f"{words[0]} not allowed here")
            self._claim_or_giveup(seat, words[0])
            return
        if len(words) != 1 or words[0] not in DECK:
            raise OracleError(f"a card is to be played, not {words}")
        card = words[0]
        hand = self.hands[seat]
        if card not in hand:
            raise OracleError(f"seat {seat} does not hold {card}")
        if card not in self._playable(hand, self.trick):
            led = self._follow_class(self.trick[0][1])
            raise OracleError(f"seat {seat} must follow with {led}, not {card}")
        hand.remove(card)
        if self.spitze and seat == self.declarer and self.game is not None \
                and card == spitze_card(self.game):
            self.spitze_trick = self.tricks_done + 1
        self.trick.append((seat, card))
        if self.tricks_done == 0:
            self.played_first.add(seat)
        if len(self.trick) < 3:
            self.to_move = (seat + 1) % 3
            return
        winner = self._trick_winner()
        self.won_cards[winner].extend(c for _, c in self.trick)
        self.trick_count[winner] += 1
        if self.spitze and self.tricks_done == 9:
            # made: the declarer takes the tenth trick with the Spitze card
            assert self.game is not None
            self.spitze_made = (winner == self.declarer
                                and (self.declarer, spitze_card(self.game)) in self.trick)
        self.trick = []
        self.tricks_done += 1
        self.last_winner = winner
        self.to_move = winner
        if self.game == "null" and winner == self.declarer:
            self._over("null_lost")
        elif self.tricks_done == 10:
            self._over("played")

    def _over(self, end: str) -> None:
        self.phase = "over"
        self.to_move = None
        self.end = end

    # -- claiming the rest, giving up --

    def _claim_or_giveup(self, seat: int, action: str) -> None:
        """Only in a declared game's card play (:meth:`claim_actions`).

        The declarer's ``claim``: right when he can take every remaining trick (Null: no
        further trick) against any defence, playing best himself; right, the rest goes
        his way (Null: to the defenders), wrong, the other way.  The declarer's
        ``giveup``: the rest to the defenders (Null: to him).  A defender's ``giveup``
        keeps his turn; the second defender's gives the rest to the declarer (Null: to
        the defenders)."""
        null = self.game == "null"
        if action == "claim":
            right = self.claim_is_right()
            self.claim_right = right
            self._rest(to_declarer=right != null, end="claimed" if right else "claim_wrong")
        elif seat == self.declarer:
            self.spitze_made = False  # his own giveup loses a Spitze
            self._rest(to_declarer=null, end="gave_up")
        else:
            self.gave_up.add(seat)  # he still plays his card
            if len(self.gave_up) == 2:
                self.spitze_made = True  # both defenders gave up: the Spitze counts as made
                self._rest(to_declarer=not null, end="gave_up")

    def _rest(self, to_declarer: bool, end: str) -> None:
        """Every card still in play (the open trick's too) to the declarer or to the
        defenders, counted for the first defender after him; a trick per three cards."""
        d = self.declarer
        assert d is not None
        cards = [c for h in self.hands for c in h] + [c for _, c in self.trick]
        taker = d if to_declarer else (d + 1) % 3
        self.won_cards[taker].extend(cards)
        self.trick_count[taker] += len(cards) // 3
        self.hands = [set(), set(), set()]
        self.trick = []
        self._over(end)

    def forced_side(self) -> int:
        """1 when every way of playing on gives every remaining trick to the declarer, 0
        when to the defenders (Null: the declarer takes none), else -1; -1 also outside
        a declared game's card play, with a Spitze, and while an answer is pending."""
        if self.phase != "play" or self.declarer is None or self.spitze:
            return -1
        if self.cards_in_play > MAX_CLAIM_CARDS:
            raise OracleError("too many cards in play for the shortcut search")
        d = self.declarer
        to_move = self.to_move
        assert to_move is not None

        memo: dict[tuple[object, ...], bool] = {}

        def escapes(hands: tuple[frozenset[str], ...], trick: tuple[tuple[int, str], ...],
                    seat: int, side: int) -> bool:
            key = (hands, trick, seat, side)
            if key not in memo:
                memo[key] = escapes_now(hands, trick, seat, side)
            return memo[key]

        def escapes_now(hands: tuple[frozenset[str], ...],
                        trick: tuple[tuple[int, str], ...], seat: int, side: int) -> bool:
            if len(trick) == 3:
                winner = self._trick_winner(list(trick))
                if (winner == d) != (side == 1):
                    return True
                if not any(hands):
                    return False
                return escapes(hands, (), winner, side)
            for c in self._playable(hands[seat], list(trick)):
                rest = tuple(h - {c} if i == seat else h for i, h in enumerate(hands))
                if escapes(rest, (*trick, (seat, c)), (seat + 1) % 3, side):
                    return True
            return False

        hands = tuple(frozenset(h) for h in self.hands)
        for side in ((0,) if self.game == "null" else (1, 0)):
            if not escapes(hands, tuple(self.trick), to_move, side):
                return side
        return -1

    def claim_is_right(self) -> bool:
        """Whether the declarer, to move now, can take every remaining trick (Null: avoid
        every one) whatever the defenders play: an exhaustive search over the cards in
        play, all hands open, the open trick included."""
        if self.phase != "play" or self.declarer is None or self.to_move != self.declarer:
            raise OracleError("only the declarer claims, at his turn in the card play")
        if self.cards_in_play > MAX_CLAIM_CARDS:
            raise OracleError(f"{self.cards_in_play} cards in play: too many for the "
                              f"oracle's exhaustive check (at most {MAX_CLAIM_CARDS})")
        hands = tuple(frozenset(h) for h in self.hands)
        memo: dict[tuple[object, ...], bool] = {}
        return self._search(hands, tuple(self.trick), self.declarer, memo)

    def claim_lines(self) -> dict[str, bool]:
        """For each card the declarer (to move) may play now: whether his claim still
        holds after it, against any defence.  The claim is right exactly when one of them
        holds; a right claim with a False here needs the declarer's best play."""
        if self.phase != "play" or self.declarer is None or self.to_move != self.declarer:
            raise OracleError("only the declarer claims, at his turn in the card play")
        if self.cards_in_play > MAX_CLAIM_CARDS:
            raise OracleError(f"{self.cards_in_play} cards in play: too many for the "
                              f"oracle's exhaustive check (at most {MAX_CLAIM_CARDS})")
        d = self.declarer
        memo: dict[tuple[object, ...], bool] = {}
        hands = tuple(frozenset(h) for h in self.hands)
        return {c: self._search(tuple(h - {c} if i == d else h for i, h in enumerate(hands)),
                                (*self.trick, (d, c)), (d + 1) % 3, memo)
                for c in self._playable(hands[d], self.trick)}

    def _search(self, hands: tuple[frozenset[str], ...], trick: tuple[tuple[int, str], ...],
                seat: int, memo: dict[tuple[object, ...], bool]) -> bool:
        d = self.declarer
        if len(trick) == 3:
            took = self._trick_winner(list(trick)) == d
            if took == (self.game == "null"):
                return False  # he lost a trick (Null: he took one)
            if not any(hands):
                return True
            return self._search(hands, (), self._trick_winner(list(trick)), memo)
        key = (hands, trick, seat)
        known = memo.get(key)
        if known is not None:
            return known
        outcomes = (
            self._search(tuple(h - {c} if i == seat else h for i, h in enumerate(hands)),
                         (*trick, (seat, c)), (seat + 1) % 3, memo)
            for c in self._playable(hands[seat], list(trick)))
        # the declarer needs one way that works, against every answer of the defenders
        value = any(outcomes) if seat == d else all(outcomes)
        memo[key] = value
        return value

    # -- settling --

    def _null_value(self) -> int:
        if self.revolution:
            return REVOLUTION
        return NULL_LEVELS[(1 if self.hand_game else 0) + (2 if self.ouvert else 0)]

    def _matadors(self) -> int:
        assert self.game in BASE
        order = list(UNTER)
        if self.game in SUIT_GAMES:
            order += [SUIT_GAMES[self.game] + r for r in SUIT_ORDER]
        has_top = order[0] in self.declarer_cards
        n = 0
        for card in order:
            if (card in self.declarer_cards) != has_top:
                break
            n += 1
        return n if has_top else -n

    def result(self) -> OracleResult:
        if self.phase != "over":
            raise OracleError(f"the game is not over (phase {self.phase})")
        points = _three([points_of(w) for w in self.won_cards])
        tricks = _three(self.trick_count)
        if self.declarer is None:
            if self.rules.all_pass == "redeal" and not self.ramsch_round:
                return OracleResult("passed", (0, 0, 0), end=self.end)
            return self._ramsch(points, tricks)
        return self._game(points, tricks)

    def _ramsch(self, trick_pts: tuple[int, int, int],
                tricks: tuple[int, int, int]) -> OracleResult:
        pts = list(trick_pts)
        skat_pts = points_of(self.skat)
        # every push and every knock doubles the Ramsch score, Durchmarsch included
        factor = 2 ** (self.pushes + self.knocks)
        res = OracleResult("ramsch", (0, 0, 0), pushes=self.pushes, knocks=self.knocks,
                           tricks=tricks, ramsch_round=self.ramsch_round, end=self.end)
        if self.rules.ramsch_skat == "last_trick":
            assert self.last_winner is not None
            pts[self.last_winner] += skat_pts
        marcher = next((s for s in range(3) if tricks[s] == 10), None)
        if marcher is not None and self.rules.durchmarsch:
            # with ramsch_skat=loser there is no loser: the Skat's points go to nobody
            scores = [0, 0, 0]
            scores[marcher] = 120 * factor
            res.scores = _three(scores)
            res.durchmarsch = True
            res.points = _three(pts)
            return res
        # most points loses; a tie: the earlier seat (0 before 1 before 2) loses alone
        loser = max(range(3), key=lambda s: (pts[s], -s))
        res.tie = sum(p == pts[loser] for p in pts) > 1
        if self.rules.ramsch_skat == "loser":
            pts[loser] += skat_pts
        jungfrau = self.rules.jungfrau and any(tricks[s] == 0 for s in range(3) if s != loser)
        scores = [0, 0, 0]
        scores[loser] = -pts[loser] * factor * (2 if jungfrau else 1)
        res.scores = _three(scores)
        res.loser = loser
        res.jungfrau = jungfrau
        res.points = _three(pts)
        return res

    def _game(self, points: tuple[int, int, int], tricks: tuple[int, int, int]) -> OracleResult:
        d = self.declarer
        assert d is not None and self.game is not None
        bid = self.highest
        res = OracleResult("game", (0, 0, 0), declarer=d, game=self.game, bid=bid,
                           hand=self.hand_game, ouvert=self.ouvert, points=points,
                           tricks=tricks, kontra=self.kontra_by is not None, re=self.re,
                           ramsch_round=self.ramsch_round, end=self.end, spitze=self.spitze,
                           spitze_made=self.spitze and self.spitze_made,
                           revolution=self.revolution, gift=self.gift,
                           gift_accepted=self.gift_accepted)
        res.declarer_points = points[d] + points_of(self.skat)
        if self.game == "null":
            if self.null_overbid_lost:
                value = min(v for v in NULL_LEVELS if v >= bid)
                won = False
                res.overbid = True
            else:
                value = self._null_value()
                won = tricks[d] == 0
        else:
            base = BASE[self.game]
            decl_pts = res.declarer_points
            decl_tricks = tricks[d]
            res.matadors = self._matadors()
            schneider = decl_pts >= 90 or decl_pts <= 30
            schwarz = decl_tricks in (0, 10)
            won = decl_pts >= 61
            # Schenken: playing on counts as Schneider (then Schwarz) announced
            if self.gift >= 1:
                self.schneider_announced = True
            if self.gift >= 2:
                self.schwarz_announced = True
            if self.gift_accepted:  # won as given: simply, or with the Schneider
                won, schneider, schwarz = True, self.gift >= 1, False
            if self.schneider_announced and decl_pts < 90 and not self.gift_accepted:
                won = False
            if self.schwarz_announced and decl_tricks < 10:
                won = False
            res.schneider = schneider  # reached (either side at most 30)
            res.schwarz = schwarz  # reached (either side without a trick)
            # an announced level counts whether reached or not, never twice
            schneider = schneider or self.schneider_announced or self.schwarz_announced
            schwarz = schwarz or self.schwarz_announced
            mult = (abs(res.matadors) + 1 + int(self.hand_game) + int(schneider)
                    + int(schwarz) + int(self.ouvert) + int(self.schneider_announced)
                    + int(self.schwarz_announced)
                    + (SPITZE_LEVELS[self.rules.spitze] if self.spitze else 0))
            if self.spitze and not self.spitze_made:
                won = False  # lost at the full value, Schneider and Schwarz as reached
            value = base * mult
            res.multiplier = mult
            if value < bid:  # overbid: lost, settled at the next multiple of the base
                won = False
                res.overbid = True
                value = -(-bid // base) * base
        score = value if won else -2 * value
        if res.kontra:
            score *= 2
        if res.re:
            score *= 2
        scores = [0, 0, 0]
        scores[d] = score
        res.scores = _three(scores)
        res.value = value
        res.won = won
        return res


def evaluate(rules: OracleRules | str | Mapping[str, object],
             hands: Iterable[str | Iterable[str]], skat: str | Iterable[str],
             actions: Iterable[str], ramsch_round: bool = False) -> OracleResult:
    """Settle one game from its rules, deal and action texts (``ramsch_round``: a
    compulsory Ramsch game of a Ramsch round)."""
    return Replay.new(rules, hands, skat, ramsch_round).run(actions)


__all__ = ["CLAIM_ACTIONS", "DECK", "END_REASONS", "MAX_CLAIM_CARDS", "ROUND_START",
           "SPITZE_LEVELS", "OracleError", "OracleResult", "OracleRules", "Replay",
           "bidding_ladder", "evaluate", "parse_codes", "points_of", "spitze_card"]
