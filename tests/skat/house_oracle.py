"""An independent Skat game evaluator for the house-rule tests (issue 42).

Written from the rule texts only (``/work/shared/RULES.md``, the seed "Lothars
Skat-Regeln", the issue's interface notes and XSkat's manual), never from the engine: it
parses the card codes itself, replays the auction, the Skat, the declaration, Kontra/Re,
Schieberamsch and the tricks from the action texts, and settles the list scores.

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
SUIT_GAMES = {"eichel": "C", "gruen": "S", "herz": "H", "schellen": "D"}
BASE = {"eichel": 12, "gruen": 11, "herz": 10, "schellen": 9, "grand": 24}
NULL_LEVELS = (23, 35, 46, 59)  # Null, Hand, Ouvert, Ouvert Hand
GAMES = (*SUIT_GAMES, "grand", "null")


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
    "isko": {"all_pass": "redeal", "announcements": True, "null_overbid": "refused"},
    "lothar": {"all_pass": "ramsch", "announcements": False, "null_overbid": "next_level"},
}
HOUSE_DEFAULTS: dict[str, object] = {
    "kontra_re": "no", "jungfrau": False, "durchmarsch": True, "ramsch_skat": "last_trick",
    "schieberamsch": False,
}


@dataclass(frozen=True)
class OracleRules:
    """Only the rule fields that change how a single game is settled."""

    all_pass: str = "ramsch"
    announcements: bool = False
    null_overbid: str = "next_level"
    kontra_re: str = "no"
    jungfrau: bool = False
    durchmarsch: bool = True
    ramsch_skat: str = "last_trick"
    schieberamsch: bool = False

    @staticmethod
    def of(spec: str | Mapping[str, object]) -> OracleRules:
        """From a rule string ``skat(preset=lothar,kontra_re=yes)`` or a dict of fields
        (``preset`` included); fields the oracle does not need (bidding jumps, Bock) are
        ignored."""
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
                continue  # bidding_jumps, bock, bock_games, bock_overlap: not per game
            if isinstance(fields[key], bool) and isinstance(value, str):
                value = value in ("yes", "true")
            fields[key] = value
        return OracleRules(**fields)  # type: ignore[arg-type]


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
    jungfrau: bool = False
    durchmarsch: bool = False
    tie: bool = False  # Ramsch: two players shared the most points (not an engine field)
    points: tuple[int, int, int] = (0, 0, 0)
    tricks: tuple[int, int, int] = (0, 0, 0)


# --- the replay ---------------------------------------------------------------------


@dataclass
class Replay:
    """Replays one game action by action; :meth:`result` settles it at the end.

    Between actions, :attr:`to_move` and :meth:`house_actions` say what the rule texts
    allow next, so that a test can compare the engine's legal actions with them.
    """

    rules: OracleRules
    hands: list[set[str]]
    skat: set[str]
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
    # Kontra / Re
    kontra_by: int | None = None
    re: bool = False
    # Schieberamsch
    pushes: int = 0
    ramsch_pickups: int = 0
    ramsch_turn: int = 0
    # play
    trick: list[tuple[int, str]] = field(default_factory=list)
    won_cards: list[list[str]] = field(default_factory=lambda: [[], [], []])
    trick_count: list[int] = field(default_factory=lambda: [0, 0, 0])
    last_winner: int | None = None
    played_first: set[int] = field(default_factory=set)
    tricks_done: int = 0

    @staticmethod
    def new(rules: OracleRules | str | Mapping[str, object],
            hands: Iterable[str | Iterable[str]], skat: str | Iterable[str]) -> Replay:
        r = rules if isinstance(rules, OracleRules) else OracleRules.of(rules)
        hs = [parse_codes(h) for h in hands]
        sk = parse_codes(skat)
        if len(hs) != 3 or any(len(h) != 10 for h in hs) or len(sk) != 2:
            raise OracleError("a deal is three hands of ten cards and a Skat of two")
        if set().union(*hs, sk) != DECK:
            raise OracleError("the deal must hold all 32 cards")
        return Replay(r, hs, sk)

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
        ``schieben`` (and ``pass`` as the answer to a Kontra)."""
        if self.phase == "kontra_answer":
            return {"re", "pass"}
        if self.phase == "schieben":
            return {"schieben"}
        if self.may_kontra():
            return {"kontra"}
        return set()

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
                if value <= self.highest:
                    raise OracleError(f"bid {value} not above {self.highest}")
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
        elif self.rules.schieberamsch:
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
            raise OracleError(f"declare GAME [hand] [schneider] [schwarz] [ouvert], not {words}")
        game = words[1]
        extras = set(words[2:])
        if (not extras <= {"hand", "schneider", "schwarz", "ouvert"}
                or len(extras) != len(words) - 2):
            raise OracleError(f"unknown declaration words: {words}")
        if ("hand" in extras) != self.hand_game:
            raise OracleError("the declaration says hand exactly when the Skat was not taken")
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
        self._start_play()

    def _start_play(self) -> None:
        self.phase = "play"
        self.to_move = 0

    def _schieben(self, words: list[str]) -> None:
        if words == ["schieben"]:
            self.pushes += 1
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

    def _trick_winner(self) -> int:
        led = self._follow_class(self.trick[0][1])
        best_seat, best = self.trick[0]
        for seat, card in self.trick[1:]:
            cls = self._follow_class(card)
            best_cls = self._follow_class(best)
            trumps_it = cls == "T" and best_cls != "T"
            beats_it = (cls == best_cls and cls in (led, "T")
                        and self._strength(card) > self._strength(best))
            if trumps_it or beats_it:
                best_seat, best = seat, card
        return best_seat

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
        if len(words) != 1 or words[0] not in DECK:
            raise OracleError(f"a card is to be played, not {words}")
        card = words[0]
        hand = self.hands[seat]
        if card not in hand:
            raise OracleError(f"seat {seat} does not hold {card}")
        if self.trick:
            led = self._follow_class(self.trick[0][1])
            if self._follow_class(card) != led and any(
                    self._follow_class(c) == led for c in hand):
                raise OracleError(f"seat {seat} must follow with {led}, not {card}")
        hand.remove(card)
        self.trick.append((seat, card))
        if self.tricks_done == 0:
            self.played_first.add(seat)
        if len(self.trick) < 3:
            self.to_move = (seat + 1) % 3
            return
        winner = self._trick_winner()
        self.won_cards[winner].extend(c for _, c in self.trick)
        self.trick_count[winner] += 1
        self.trick = []
        self.tricks_done += 1
        self.last_winner = winner
        self.to_move = winner
        if self.tricks_done == 10 or (self.game == "null" and winner == self.declarer):
            self.phase = "over"
            self.to_move = None

    # -- settling --

    def _null_value(self) -> int:
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
            if self.rules.all_pass == "redeal":
                return OracleResult("passed", (0, 0, 0))
            return self._ramsch(points, tricks)
        return self._game(points, tricks)

    def _ramsch(self, trick_pts: tuple[int, int, int],
                tricks: tuple[int, int, int]) -> OracleResult:
        pts = list(trick_pts)
        skat_pts = points_of(self.skat)
        factor = 2 ** self.pushes
        res = OracleResult("ramsch", (0, 0, 0), pushes=self.pushes, tricks=tricks)
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
                           tricks=tricks, kontra=self.kontra_by is not None, re=self.re)
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
            if self.schneider_announced and decl_pts < 90:
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
                    + int(self.schwarz_announced))
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
             actions: Iterable[str]) -> OracleResult:
    """Settle one game from its rules, deal and action texts."""
    return Replay.new(rules, hands, skat).run(actions)


__all__ = ["DECK", "OracleError", "OracleResult", "OracleRules", "Replay", "evaluate",
           "parse_codes", "points_of"]
