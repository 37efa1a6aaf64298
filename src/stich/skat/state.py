"""The Skat game state: dealing, bidding, Skat and declaration, card play, outcome.

Seats are positions in the game: 0 = Vorhand, 1 = Mittelhand, 2 = Hinterhand (the dealer).
A state is immutable; :meth:`SkatState.apply` returns a new one.

>>> s = SkatState.new(seed=7)
>>> s.phase.name, s.to_move, [str(a) for a in s.legal_actions()]
('BIDDING', 1, ['18', 'pass'])
>>> s2 = s.apply(s.parse_action("18"))
>>> s2.to_move, [str(a) for a in s2.legal_actions()]
(0, ['hold', 'pass'])
>>> s.to_move   # the old state is unchanged
1
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from enum import IntEnum
from typing import Any, Final, NamedTuple

from stich.cards import BYTE_CARDS, CARDS, Card, Rank, card_points
from stich.core import IllegalActionError
from stich.messages import Cards, GameName, Msg, Seat, SuitName
from stich.skat.actions import (
    ACCEPT,
    CLAIM,
    GIVEUP,
    GRAND_HAND,
    HAND,
    HOLD,
    KLOPFEN,
    KONTRA,
    PASS,
    PICKUP,
    RE,
    SCHENKEN,
    SCHIEBEN,
    SHORTCUT,
    Action,
    Bid,
    Declare,
    Discard,
    Give,
    Simple,
    null_name,
    parse_action,
)
from stich.skat.lookup import TABLES, GameTables
from stich.skat.options import (
    HOLD_PASS,
    VORHANDRECHT,
    bid_options,
    checked_deal,
    deal_order,
    declaration_options,
    discards,
)
from stich.skat.outcome import SkatOutcome, make_outcome
from stich.skat.rules import (
    NULL_VALUES,
    REVOLUTION_VALUE,
    GameType,
    SkatRules,
    bidding_ladder,
    spitze_card,
)

__all__ = ["Phase", "SkatState", "POSITION_NAMES", "deal_order"]

POSITION_NAMES = ("Vorhand", "Mittelhand", "Hinterhand")


class Phase(IntEnum):
    BIDDING = 0
    SKAT = 1  # the declarer chooses Hand or picks up the Skat
    DISCARD = 2
    DECLARE = 3
    PLAY = 4
    OVER = 5


# Final: compiled (mypyc), these are static values rather than lookups in the module
_BIDDING: Final = Phase.BIDDING
_SKAT: Final = Phase.SKAT
_DISCARD: Final = Phase.DISCARD
_DECLARE: Final = Phase.DECLARE
_PLAY: Final = Phase.PLAY
_OVER: Final = Phase.OVER


class _Bidding(NamedTuple):
    value: int  # highest value said or held so far (0: none)
    duel: int  # 1: Mittelhand says to Vorhand; 2: Hinterhand to the winner; 3: Vorhandrecht
    bidder: int
    answerer: int
    pending: bool  # a value was said and awaits the answerer's hold or pass


class _Game(NamedTuple):
    """What is fixed once the game is declared (or Ramsch begins)."""

    declarer: int  # -1 in Ramsch
    contract: Declare | None  # None in Ramsch
    game: GameType
    bid: int
    picked_up: bool
    owned: int  # declarer's ten cards and the Skat, for matadors
    tables: GameTables
    talk: bool = False  # an action other than a card may come in card play (Kontra, Re)
    kontra: int = -1  # the seat that said Kontra (-1: none)
    re: bool = False
    re_pending: bool = False  # Kontra was said; the declarer answers re or pass
    schieben: tuple[tuple[int, int, int], ...] = ()  # Schieberamsch: (seat, seen, put back)
    pushes: int = 0  # Schieberamsch: how often the Skat was pushed on unseen
    knocks: int = 0  # Ramsch: how often somebody knocked (klopfen)
    knocked: int = 0  # Ramsch: the seats that knocked, as bits
    resigned: int = 0  # the defenders who gave up, as bits
    gift: int = 0  # Schenken: how often the declarer played on (1: Schneider, 2: Schwarz)
    gift_pending: int = 0  # Schenken: 1 the partner answers an offer, 2 the declarer does
    gift_by: int = -1  # Schenken: the defender whose offer is pending
    gift_tried: int = 0  # Schenken: the defenders who offered at this level, as bits
    exchange: int = 0  # Revolution: 1 the first defender gives, 2 his partner gives back
    given: int = 0  # Revolution: the cards the first defender gave

    @property
    def waiting(self) -> bool:
        """Whether card play waits for an answer (Re, Schenken) or a Revolution's
        exchange."""
        return self.re_pending or self.gift_pending > 0 or self.exchange > 0


STATE_FIELDS = (
    "rules", "phase", "to_move", "hands", "skat", "deal", "_bidding", "_game", "trick",
    "leader", "points", "tricks_won", "_tricks", "_hist", "_auction", "_end", "_follow",
    "_talking",
)
"""Every attribute of a :class:`SkatState` (its slots; compiled classes have no
``__slots__`` attribute to read them from)."""


class SkatState:
    """One Skat game in progress (or over).  Build it with :meth:`new`."""

    __slots__ = STATE_FIELDS

    rules: SkatRules
    phase: Phase
    to_move: int
    hands: tuple[int, int, int]
    skat: int
    deal: tuple[tuple[int, int, int], int]
    _bidding: _Bidding | None
    _game: _Game | None
    trick: tuple[int, ...]
    leader: int
    points: tuple[int, int, int]
    tricks_won: tuple[int, int, int]
    _tricks: tuple[Any, ...] | None
    _hist: tuple[Any, ...] | None
    _auction: tuple[Any, ...] | None  # the auction's (seat, action) pairs, newest first
    _end: str
    _follow: tuple[int, ...]  # follow-suit groups of the game being played (else empty)
    _talking: bool  # ``_game.talk``, kept here too: the card play's hot path reads it

    # --- construction ------------------------------------------------------------------

    def __init__(self) -> None:
        """An empty state, to be filled in: build a game with :meth:`new`."""

    @classmethod
    def new(
        cls,
        rules: SkatRules | None = None,
        seed: int | None = None,
        *,
        rng: random.Random | None = None,
        hands: Sequence[int] | None = None,
        skat: int | None = None,
        ramsch_round: bool = False,
    ) -> SkatState:
        """A new game: deal from a seeded shuffle (``seed`` or ``rng``), or from given
        hands (three 10-card sets) and Skat.  ``ramsch_round``: a game of a compulsory
        Ramsch round (``bock_ramsch``): no auction; each player from Vorhand declares
        Grand Hand or passes, and when all pass, Ramsch is played."""
        rules = rules if rules is not None else SkatRules()
        if hands is None:
            if rng is None:
                rng = random.Random(seed)
            rnd = rng.random
            h0, h1, h2, sk = deal_order(sorted(_DECK_ORDER, key=lambda _: rnd()))
        else:
            h0, h1, h2, sk = checked_deal(hands, skat)
        self = cls()
        self.rules = rules
        self.phase = _BIDDING
        self.to_move = 0 if ramsch_round else 1
        self.hands = (h0, h1, h2)
        self.skat = sk
        self.deal = ((h0, h1, h2), sk)
        self._bidding = _Bidding(0, 4, 0, 0, False) if ramsch_round else _Bidding(0, 1, 1, 0,
                                                                                   False)
        self._game = None
        self.trick = ()
        self.leader = 0
        self.points = (0, 0, 0)
        self.tricks_won = (0, 0, 0)
        self._tricks = None
        self._hist = None
        self._auction = None
        self._end = ""
        self._follow = ()
        self._talking = False
        return self

    def _fork(self) -> SkatState:
        new = SkatState()
        new.rules = self.rules
        new.phase = self.phase
        new.to_move = self.to_move
        new.hands = self.hands
        new.skat = self.skat
        new.deal = self.deal
        new._bidding = self._bidding
        new._game = self._game
        new.trick = self.trick
        new.leader = self.leader
        new.points = self.points
        new.tricks_won = self.tricks_won
        new._tricks = self._tricks
        new._hist = self._hist
        new._auction = self._auction
        new._end = self._end
        new._follow = self._follow
        new._talking = self._talking
        return new

    # --- simple facts ------------------------------------------------------------------

    @property
    def phase_name(self) -> str:
        """The phase's name (``phase.name``, without the enum's slow attribute)."""
        return _PHASE_NAMES[self.phase]

    @property
    def is_over(self) -> bool:
        return self.phase is _OVER

    @property
    def ramsch_round(self) -> bool:
        """Whether this is a game of a compulsory Ramsch round (``bock_ramsch``)."""
        return self._bidding is not None and self._bidding.duel == 4

    @property
    def declarer(self) -> int:
        """The declarer's seat, or -1 before the auction ends and in Ramsch."""
        if self._game is not None:
            return self._game.declarer
        b = self._bidding
        if self.phase is _BIDDING or b is None or self._end == "passed":
            return -1
        return b.bidder

    @property
    def bid_value(self) -> int:
        """The highest value said or held so far (the declarer's bid after the auction)."""
        return self._bidding.value if self._bidding is not None else 0

    @property
    def contract(self) -> Declare | None:
        return self._game.contract if self._game is not None else None

    @property
    def game(self) -> GameType | None:
        return self._game.game if self._game is not None else None

    @property
    def picked_up(self) -> bool:
        if self._game is not None:
            return self._game.picked_up
        return self.phase is _DISCARD or (self.phase is _DECLARE and not self._hand_flag())

    @property
    def history(self) -> list[Action]:
        """Every action applied since the deal, in order."""
        return _unwind(self._hist)

    @property
    def tricks(self) -> list[tuple[int, tuple[int, ...], int]]:
        """Completed tricks as (leader, card indices in play order, winner)."""
        return _unwind(self._tricks)

    @property
    def end_reason(self) -> str:
        """Why the game is over: '', 'played', 'null_lost', 'null_overbid', 'passed';
        'claimed' (a right claim), 'claim_wrong', 'gave_up'; 'gift' (the declarer
        accepted the defenders' Schenken); 'shortcut' (:meth:`forced_rest`)."""
        return self._end

    def claims(self) -> tuple[Action, ...]:
        """What the player to move may do besides :meth:`legal_actions` in card play:
        the declarer ``claim`` (the rest) and ``giveup``, a defender ``giveup``.  Kept
        apart from the legal actions, so that a playout or a learner never gives up by
        chance; every table offers them."""
        g = self._game
        if self.phase is not _PLAY or g is None or g.declarer < 0 or g.waiting:
            return ()
        if self.to_move == g.declarer:  # a Spitze is won only with the last trick played
            return _GIVEUP if g.contract is not None and g.contract.spitze else _CLAIM_GIVEUP
        if g.resigned >> self.to_move & 1:
            return ()
        return _GIVEUP

    def forced_rest(self) -> int:
        """Whether every remaining trick (the open one included) goes to one side
        whatever anyone plays: 1 to the declarer, 0 to the defenders (in Null: the
        declarer takes no more trick), -1 neither.  -1 too where it is not searched: in
        Ramsch, in a Spitze game (the last trick's card decides it), while an answer or
        a Revolution's exchange is pending, with more than :data:`SHORTCUT_CARDS` cards
        in play, or when the search passes :data:`SHORTCUT_NODES` positions."""
        g = self._game
        if self.phase is not _PLAY or g is None or g.declarer < 0 or g.waiting:
            return -1
        if g.contract is not None and g.contract.spitze:
            return -1
        hands = self.hands
        if (hands[0] | hands[1] | hands[2]).bit_count() + len(self.trick) > SHORTCUT_CARDS:
            return -1
        for side in ((0,) if g.game is GameType.NULL else (1, 0)):
            budget = [SHORTCUT_NODES]
            if not self._escapes(hands, self.trick, self.to_move, side, {}, budget):
                return side
        return -1

    def _escapes(self, hands: tuple[int, int, int], trick: tuple[int, ...], seat: int,
                 side: int, memo: dict[tuple[tuple[int, int, int], tuple[int, ...], int],
                                       bool], budget: list[int]) -> bool:
        """Whether some way of playing on (anyone's legal cards) gives a trick to the
        side other than ``side`` (1 the declarer, 0 the defenders); True too when the
        search runs out of ``budget``.  ``seat`` is to move; after three cards it is the
        trick's leader again."""
        g = self._game
        assert g is not None
        budget[0] -= 1
        if budget[0] < 0:
            return True
        if len(trick) == 3:
            winner = (seat + g.tables.winner(trick)) % 3
            if (winner == g.declarer) != (side == 1):
                return True
            if not (hands[0] | hands[1] | hands[2]):
                return False
            return self._escapes(hands, (), winner, side, memo, budget)
        key = (hands, trick, seat)
        known = memo.get(key)
        if known is not None:
            return known
        hand = hands[seat]
        playable = hand
        if trick:
            follow = self._follow[trick[0]] & hand
            if follow:
                playable = follow
        found = False
        while playable and not found:
            bit = playable & -playable
            playable ^= bit
            h = list(hands)
            h[seat] = hand ^ bit
            found = self._escapes((h[0], h[1], h[2]), trick + (bit.bit_length() - 1,),
                                  _NEXT[seat], side, memo, budget)
        memo[key] = found
        return found

    def __repr__(self) -> str:
        return f"<SkatState {self.rules} {self.phase.name} to_move={self.to_move}>"

    # --- legal actions -----------------------------------------------------------------

    def legal_actions(self) -> Sequence[Action]:
        """Every action the player to move may take now."""
        phase = self.phase
        if phase is _PLAY:
            if self._talking:
                g = self._game
                assert g is not None
                return self._talk_actions(g)
            hand = self.hands[self.to_move]
            trick = self.trick
            if trick:
                follow = self._follow[trick[0]] & hand
                if follow:
                    hand = follow
            return _cards_of(hand)
        if phase is _BIDDING:
            return self._bidding_actions()
        if phase is _SKAT:
            if self._game is not None:
                return (PICKUP, SCHIEBEN)
            return (HAND, PICKUP)
        if phase is _DISCARD:
            if self._game is not None:
                return tuple(d for d in discards(self.hands[self.to_move])
                             if not d.cards & _UNTER)
            return discards(self.hands[self.to_move])
        if phase is _DECLARE:
            return self._declarations()
        return ()

    def legal_cards(self) -> int:
        """The cards the player to move may play, as a set (card play only)."""
        if self.phase is not _PLAY:
            return 0
        if self._talking:
            g = self._game
            if g is not None and g.waiting:
                return 0
        hand = self.hands[self.to_move]
        if self.trick:
            follow = self._follow[self.trick[0]] & hand
            if follow:
                return follow
        return hand

    def _talk_actions(self, g: _Game) -> tuple[Action, ...]:
        """Card play while Kontra and Re, Klopfen or Schenken may be said (the first
        trick), and a Revolution's exchange."""
        if g.re_pending:
            return _RE_PASS
        if g.exchange:
            return self._gives(g)
        if g.gift_pending:
            return _SCHENKEN_PASS if g.gift_pending == 1 else _ACCEPT_PASS
        cards: tuple[Action, ...] = _cards_of(self.legal_cards())
        if self._kontra_open(g):
            cards += (KONTRA,)
        if self._schenken_open(g):
            cards += (SCHENKEN,)
        if self._klopfen_open(g):
            cards += (KLOPFEN,)
        return cards

    def _gives(self, g: _Game) -> tuple[Action, ...]:
        """Revolution: every set the first defender may give his partner; then every
        set of as many of the partner's own cards he may give back."""
        hand = self.hands[self.to_move]
        if g.exchange == 2:
            hand &= ~g.given
            n = g.given.bit_count()
            return tuple(Give(m) for m in _subsets(hand) if m.bit_count() == n)
        return tuple(Give(m) for m in _subsets(hand))

    def _schenken_open(self, g: _Game) -> bool:
        """Whether the defender to move may offer to give the game away: in the first
        trick, in a suit game or Grand without announcement, Ouvert or Spitze, at most
        once per defender before the declarer plays on, and not after a second time."""
        seat = self.to_move
        c = g.contract
        if (not g.talk or not self.rules.schenken or c is None or seat == g.declarer
                or g.declarer < 0 or self._tricks is not None or g.gift >= 2
                or g.gift_tried >> seat & 1):
            return False
        return (c.game is not GameType.NULL and not c.schneider and not c.ouvert
                and not c.spitze)

    def _klopfen_open(self, g: _Game) -> bool:
        """Whether the player to move may knock now: in Ramsch before his first card,
        once, and in Schieberamsch not after pushing the Skat on unseen."""
        seat = self.to_move
        if (not g.talk or g.declarer >= 0 or self._tricks is not None
                or g.knocked >> seat & 1):
            return False
        return not any(s == seat and not seen for s, seen, _ in g.schieben)

    def _kontra_open(self, g: _Game) -> bool:
        """Whether the player to move may say Kontra now: a defender before his first
        card (so in the first trick), if nobody has; under ``bid18`` only one who said
        or held a value in the auction."""
        seat = self.to_move
        kontra_re = self.rules.kontra_re
        if (not g.talk or kontra_re == "no" or g.kontra >= 0 or seat == g.declarer
                or g.declarer < 0 or self._tricks is not None):
            return False
        if kontra_re == "bid18":
            return any(s == seat and (a is HOLD or isinstance(a, Bid))
                       for s, a in self.bidding_history())
        return True

    def _talk(self, action: Action) -> SkatState:
        g = self._game
        assert g is not None
        seat = self.to_move
        if g.re_pending:
            if action is RE or action is PASS:
                new = self._pushed(action)
                new._game = g._replace(re=action is RE, re_pending=False)
                new.to_move = g.kontra
                return new
            raise IllegalActionError("skat.re_or_pass", seat=Seat(seat), action=str(action))
        if g.gift_pending:
            return self._schenken(g, action)
        if g.exchange:
            raise IllegalActionError("skat.revolution_give", seat=Seat(seat),
                                     action=str(action))
        if action is KONTRA and self._kontra_open(g):
            new = self._pushed(action)
            new._game = g._replace(kontra=seat, re_pending=True)
            new.to_move = g.declarer
            return new
        if action is KONTRA:
            return self._kontra_refusal(g)
        if action is KLOPFEN and self._klopfen_open(g):
            new = self._pushed(action)
            new._game = g._replace(knocks=g.knocks + 1, knocked=g.knocked | 1 << seat)
            return new
        if action is KLOPFEN:
            return self._klopfen_refusal(g)
        if action is CLAIM or action is GIVEUP:
            return self._claim(g, action)
        if action is SHORTCUT:
            side = self.forced_rest()
            if side < 0:
                raise IllegalActionError("skat.no_shortcut")
            return self._pushed(action)._rest(side == 1, "shortcut")
        if action is SCHENKEN:
            return self._schenken(g, action)
        raise IllegalActionError("game.play_a_card", action=str(action))

    def _schenken(self, g: _Game, action: Action) -> SkatState:
        """An offer to give the game away, the partner's answer, the declarer's."""
        seat = self.to_move
        if g.gift_pending == 1:
            if action is SCHENKEN:
                new = self._pushed(action)
                new._game = g._replace(gift_pending=2)
                new.to_move = g.declarer
                return new
            if action is PASS:
                new = self._pushed(action)
                new._game = g._replace(gift_pending=0, gift_by=-1)
                new.to_move = g.gift_by
                return new
            raise IllegalActionError("skat.schenken_or_pass", seat=Seat(seat),
                                     action=str(action))
        if g.gift_pending == 2:
            if action is ACCEPT:
                new = self._pushed(action)
                new._game = g._replace(gift_pending=0)
                new.hands = (0, 0, 0)  # the cards still in play count for nobody
                new.trick = ()
                new.phase = _OVER
                new.to_move = -1
                new._end = "gift"
                return new
            if action is PASS:
                new = self._pushed(action)
                new._game = g._replace(gift=g.gift + 1, gift_pending=0, gift_by=-1,
                                       gift_tried=0)
                new.to_move = g.gift_by
                return new
            raise IllegalActionError("skat.accept_or_pass", seat=Seat(seat),
                                     action=str(action))
        if self._schenken_open(g):
            new = self._pushed(action)
            new._game = g._replace(gift_pending=1, gift_by=seat,
                                   gift_tried=g.gift_tried | 1 << seat)
            new.to_move = 3 - seat - g.declarer  # the partner
            return new
        raise IllegalActionError("skat.no_schenken_here")

    def _give(self, action: Give) -> SkatState:
        """Revolution: a defender gives his partner cards."""
        g = self._game
        assert g is not None
        seat = self.to_move
        if not self._talking or not g.exchange:
            raise IllegalActionError("skat.no_give_here")
        hand = self.hands[seat]
        own = hand & ~g.given if g.exchange == 2 else hand
        if action.cards & ~own:
            raise IllegalActionError("skat.give_not_held", seat=Seat(seat),
                                     cards=Cards(action.cards & ~own))
        if g.exchange == 2 and action.cards.bit_count() != g.given.bit_count():
            raise IllegalActionError("skat.give_as_many", seat=Seat(seat),
                                     n=g.given.bit_count())
        new = self._pushed(action)
        partner = 3 - seat - g.declarer
        hands = list(self.hands)
        hands[seat] &= ~action.cards
        hands[partner] |= action.cards
        new.hands = (hands[0], hands[1], hands[2])
        if g.exchange == 1:
            new._game = g._replace(exchange=2, given=action.cards)
            new.to_move = partner
        else:
            new._game = g._replace(exchange=0)
            new.to_move = 0
        return new

    def _claim(self, g: _Game, action: Action) -> SkatState:
        """A claim of the rest or giving up (:meth:`claims`)."""
        seat = self.to_move
        if action not in self.claims():
            if g.declarer < 0:
                raise IllegalActionError("skat.claim_in_ramsch")
            if action is CLAIM:
                raise IllegalActionError("skat.claim_declarer", seat=Seat(seat))
            raise IllegalActionError("skat.gave_up_already", seat=Seat(seat))
        null = g.game is GameType.NULL
        if action is GIVEUP and seat != g.declarer:
            resigned = g.resigned | 1 << seat
            new = self._pushed(action)
            new._game = g._replace(resigned=resigned)
            if resigned.bit_count() < 2:
                return new
            return new._rest(not null, "gave_up")
        new = self._pushed(action)
        if action is GIVEUP:
            return new._rest(null, "gave_up")
        from stich.skat.solver import Position, null_won, takes_all

        pos = Position(g.game, self.hands, g.declarer, seat, self.trick)
        right = null_won(pos) if null else takes_all(pos)
        if null:
            return new._rest(not right, "claimed" if right else "claim_wrong")
        return new._rest(right, "claimed" if right else "claim_wrong")

    def _rest(self, to_declarer: bool, end: str) -> SkatState:
        """The game ends: every card still in play (the open trick too) goes to the
        declarer or to the defenders (counted for the first defender after him)."""
        g = self._game
        assert g is not None
        left = self.hands[0] | self.hands[1] | self.hands[2]
        for c in self.trick:
            left |= 1 << c
        tricks = left.bit_count() // 3
        taker = g.declarer if to_declarer else (g.declarer + 1) % 3
        pts = list(self.points)
        tw = list(self.tricks_won)
        pts[taker] += card_points(left)
        tw[taker] += tricks
        self.points = (pts[0], pts[1], pts[2])
        self.tricks_won = (tw[0], tw[1], tw[2])
        self.hands = (0, 0, 0)
        self.trick = ()
        self.phase = _OVER
        self.to_move = -1
        self._end = end
        return self

    def _klopfen_refusal(self, g: _Game) -> SkatState:
        seat = Seat(self.to_move)
        if not self.rules.klopfen or g.declarer >= 0:
            raise IllegalActionError("skat.no_klopfen_here")
        if g.knocked >> self.to_move & 1:
            raise IllegalActionError("skat.klopfen_once", seat=seat)
        if self._tricks is not None or not g.talk:
            raise IllegalActionError("skat.klopfen_before_first_card", seat=seat)
        raise IllegalActionError("skat.klopfen_after_schieben", seat=seat)

    def _kontra_refusal(self, g: _Game) -> SkatState:
        seat = Seat(self.to_move)
        if self.rules.kontra_re == "no" or g.declarer < 0:
            raise IllegalActionError("skat.no_kontra_here")
        if g.kontra >= 0:
            raise IllegalActionError("skat.kontra_once")
        if self.to_move == g.declarer:
            raise IllegalActionError("skat.kontra_defenders", seat=seat)
        if self._tricks is not None:
            raise IllegalActionError("skat.kontra_before_first_card", seat=seat)
        raise IllegalActionError("skat.kontra_bid18", seat=seat)

    def _bidding_actions(self) -> tuple[Action, ...]:
        b = self._bidding
        assert b is not None
        if b.pending:
            return HOLD_PASS
        duel = b.duel
        if duel >= 3:
            return VORHANDRECHT if duel == 3 else _GRAND_OR_PASS
        return bid_options(self.rules)[b.value]

    def _sayable(self, current: int) -> tuple[int, ...]:
        return tuple(a.value for a in bid_options(self.rules)[current] if isinstance(a, Bid))

    def _hand_flag(self) -> bool:
        """In the DECLARE phase: whether the declarer plays Hand."""
        return self._hist is not None and self._hist[0] is HAND

    def _declarations(self) -> tuple[Declare, ...]:
        hand = self._hand_flag()
        bid_value = self.bid_value
        lenient = self.rules.null_overbid == "next_level" and bid_value <= 59
        nulls = tuple(
            NULL_VALUES[(hand, o)] >= bid_value or lenient for o in (False, True)
        )
        options = declaration_options(hand, self.rules.announcements, nulls)
        if self.rules.revolution and bid_value <= REVOLUTION_VALUE:
            options += (Declare(GameType.NULL, hand, ouvert=True, revolution=True),)
        if self.rules.spitze == "no":
            return options
        return options + tuple(
            Declare(d.game, d.hand, d.schneider, d.schwarz, d.ouvert, True)
            for d in options if d.game is not GameType.NULL and self._spitze_held(d.game))

    def _spitze_held(self, game: GameType) -> bool:
        """Whether the declarer may declare Spitze in ``game``: he holds its card (the
        trump Sieben, in Grand the Schellen-Unter), and not all four Unter in a Grand."""
        hand = self.hands[self.to_move]
        if not hand >> spitze_card(game) & 1:
            return False
        return game is not GameType.GRAND or (hand & _UNTER) != _UNTER

    def _null_refusal(self, d: Declare) -> IllegalActionError | None:
        value = d.null_value
        bid_value = self.bid_value
        if value >= bid_value:
            return None
        if self.rules.null_overbid == "refused":
            return IllegalActionError("skat.null_refused", game=null_name(d), value=value,
                                      bid=bid_value)
        if bid_value > 59:
            return IllegalActionError("skat.null_above_59", game=GameName("null"),
                                      bid=bid_value)
        return None

    # --- applying actions --------------------------------------------------------------

    def parse_action(self, text: str) -> Action:
        """Read an action's text form, filling in what the state implies (a Hand
        declaration need not repeat 'hand'; ISkO Ouvert implies Schneider and Schwarz)."""
        action = parse_action(text)
        if isinstance(action, Declare) and self.phase is _DECLARE:
            hand = action.hand or self._hand_flag()
            sch, schw = action.schneider, action.schwarz
            if self.rules.announcements and action.ouvert and action.game is not GameType.NULL:
                sch = schw = True
            sch = sch or schw
            action = Declare(action.game, hand, sch, schw, action.ouvert, action.spitze,
                             action.revolution)
        return action

    def apply(self, action: Action) -> SkatState:
        """The state after ``action``; raises IllegalActionError saying why if illegal."""
        phase = self.phase
        if phase is _PLAY:
            if action.__class__ is Card:
                return self._play(action)
            if action.__class__ is Simple:
                return self._talk(action)
            if action.__class__ is Give:
                return self._give(action)
            raise IllegalActionError("game.play_a_card", action=str(action))
        if phase is _BIDDING:
            return self._bid(action)
        if phase is _SKAT:
            return self._skat(action)
        if phase is _DISCARD:
            return self._discard(action)
        if phase is _DECLARE:
            return self._declare(action)
        raise IllegalActionError("game.over")

    def apply_text(self, text: str) -> SkatState:
        return self.apply(self.parse_action(text))

    def _pushed(self, action: Action) -> SkatState:
        new = self._fork()
        new._hist = (action, self._hist)
        if self.phase is _BIDDING:
            new._auction = ((self.to_move, action), self._auction)
        return new

    def _bid(self, action: Action) -> SkatState:
        b = self._bidding
        assert b is not None
        if b.pending:
            if action is HOLD:
                return self._after_bid(
                    _Bidding(b.value, b.duel, b.bidder, b.answerer, False), action, b.bidder)
            if action is PASS:
                return self._duel_won(b, action, winner=b.bidder)
        elif b.duel == 4:
            return self._ramsch_round_start(action)
        elif action is PASS:
            if b.duel == 3:
                return self._all_passed(action)
            return self._duel_won(b, action, winner=b.answerer)
        elif b.duel == 3:
            if action == VORHANDRECHT[0]:
                new = self._pushed(action)
                new._bidding = _Bidding(18, 3, 0, 0, False)
                return new._end_auction(0)
        elif isinstance(action, Bid) and action in bid_options(self.rules)[b.value]:
            return self._after_bid(
                _Bidding(action.value, b.duel, b.bidder, b.answerer, True), action, b.answerer)
        raise self._bid_refusal(b, action)

    def _bid_refusal(self, b: _Bidding, action: Action) -> IllegalActionError:
        seat = Seat(self.to_move)
        if b.pending:
            return IllegalActionError("skat.answer_hold_or_pass", seat=seat, value=b.value,
                                      action=str(action))
        if not isinstance(action, Bid):
            return IllegalActionError("skat.say_or_pass", seat=seat, action=str(action))
        if b.duel == 3:
            return IllegalActionError("skat.vorhand_18_or_pass", seat=seat)
        v = action.value
        ladder = bidding_ladder(self.rules)
        if v not in ladder:
            return IllegalActionError("skat.not_a_game_value", value=v,
                                      ladder=_ladder_hint(ladder, v))
        sayable = self._sayable(b.value)
        if not sayable:
            return IllegalActionError("skat.nothing_above", seat=seat, value=b.value)
        if not self.rules.bidding_jumps:
            return IllegalActionError("skat.next_bid", value=sayable[0])
        return IllegalActionError("skat.bid_above", value=b.value)

    def _after_bid(self, b: _Bidding, action: Action, to_move: int) -> SkatState:
        new = self._pushed(action)
        new._bidding = b
        new.to_move = to_move
        return new

    def _duel_won(self, b: _Bidding, action: Action, winner: int) -> SkatState:
        if b.duel == 1:
            nb = _Bidding(b.value, 2, 2, winner, False)
            return self._after_bid(nb, action, 2)
        # duel 2 over
        if winner == 2 or b.value > 0:
            new = self._pushed(action)
            new._bidding = _Bidding(b.value, b.duel, winner, winner, False)
            return new._end_auction(winner)
        # nobody said a value: Vorhandrecht
        nb = _Bidding(0, 3, 0, 0, False)
        return self._after_bid(nb, action, 0)

    def _end_auction(self, declarer: int) -> SkatState:
        self.phase = _SKAT
        self.to_move = declarer
        return self

    def _ramsch_round_start(self, action: Action) -> SkatState:
        """A compulsory Ramsch: Grand Hand instead, or pass (all three: Ramsch)."""
        seat = self.to_move
        if action == GRAND_HAND:
            new = self._pushed(action)
            new._game = _Game(seat, GRAND_HAND, GameType.GRAND, 0, False,
                              self.hands[seat] | self.skat, TABLES[GameType.GRAND],
                              self.rules.kontra_re != "no" or self.rules.schenken)
            new._talking = new._game.talk
            new._follow = TABLES[GameType.GRAND].follow
            new.phase = _PLAY
            new.to_move = 0
            new.leader = 0
            return new
        if action is PASS:
            if seat == 2:
                return self._all_passed(action)
            new = self._pushed(action)
            new.to_move = seat + 1
            return new
        raise IllegalActionError("skat.grand_hand_or_pass", seat=Seat(seat),
                                 action=str(action))

    def _all_passed(self, action: Action) -> SkatState:
        new = self._pushed(action)
        if self.rules.all_pass == "redeal" and not self.ramsch_round:
            new.phase = _OVER
            new.to_move = -1
            new._end = "passed"
            return new
        new._game = _Game(-1, None, GameType.RAMSCH, 0, False, 0, TABLES[GameType.RAMSCH],
                          self.rules.klopfen)
        new._talking = self.rules.klopfen
        new._follow = TABLES[GameType.RAMSCH].follow
        new.phase = _SKAT if self.rules.schieberamsch else _PLAY
        new.to_move = 0
        new.leader = 0
        return new

    def _schieben(self, action: Action) -> SkatState:
        """Schieberamsch: the player to move picks up the Skat or pushes it on unseen."""
        g = self._game
        assert g is not None
        seat = self.to_move
        if action is PICKUP:
            new = self._pushed(action)
            hands = list(self.hands)
            hands[seat] |= self.skat
            new.hands = (hands[0], hands[1], hands[2])
            new._game = g._replace(schieben=g.schieben + ((seat, self.skat, 0),))
            new.phase = _DISCARD
            return new
        if action is SCHIEBEN:
            new = self._pushed(action)
            new._game = g._replace(schieben=g.schieben + ((seat, 0, 0),), pushes=g.pushes + 1)
            return new._next_pusher()
        raise IllegalActionError("skat.pickup_or_schieben", seat=Seat(seat), action=str(action))

    def _next_pusher(self) -> SkatState:
        if self.to_move < 2:
            self.phase = _SKAT
            self.to_move += 1
        else:
            self.phase = _PLAY
            self.to_move = 0
            self.leader = 0
        return self

    def _ramsch_discard(self, action: Discard) -> SkatState:
        g = self._game
        assert g is not None
        if action.cards & _UNTER:
            raise IllegalActionError("skat.no_unter_pushed", seat=Seat(self.to_move),
                                     cards=Cards(action.cards & _UNTER))
        new = self._pushed(action)
        d = self.to_move
        hands = list(self.hands)
        hands[d] &= ~action.cards
        new.hands = (hands[0], hands[1], hands[2])
        new.skat = action.cards
        seat, seen, _ = g.schieben[-1]
        new._game = g._replace(schieben=g.schieben[:-1] + ((seat, seen, action.cards),))
        return new._next_pusher()

    def _skat(self, action: Action) -> SkatState:
        if self._game is not None:
            return self._schieben(action)
        if action is HAND:
            new = self._pushed(action)
            new.phase = _DECLARE
            return new
        if action is PICKUP:
            new = self._pushed(action)
            d = self.to_move
            hands = list(self.hands)
            hands[d] |= self.skat
            new.hands = (hands[0], hands[1], hands[2])
            new.phase = _DISCARD
            return new
        raise IllegalActionError("skat.hand_or_pickup", seat=Seat(self.to_move),
                                 action=str(action))

    def _discard(self, action: Action) -> SkatState:
        d = self.to_move
        if not isinstance(action, Discard):
            raise IllegalActionError("skat.discard_two", seat=Seat(d), example=Cards(self.skat),
                                     action=str(action))
        missing = action.cards & ~self.hands[d]
        if missing:
            raise IllegalActionError("skat.discard_not_held", seat=Seat(d),
                                     cards=Cards(missing))
        if self._game is not None:
            return self._ramsch_discard(action)
        new = self._pushed(action)
        hands = list(self.hands)
        hands[d] &= ~action.cards
        new.hands = (hands[0], hands[1], hands[2])
        new.skat = action.cards
        new.phase = _DECLARE
        return new

    def _declare(self, action: Action) -> SkatState:
        if not isinstance(action, Declare):
            raise IllegalActionError("skat.declare_a_game", seat=Seat(self.to_move),
                                     action=str(action))
        refusal = self._declare_refusal(action)
        if refusal is not None:
            raise refusal
        d = self.to_move
        new = self._pushed(action)
        owned = self.hands[d] | self.skat
        new._follow = TABLES[action.game].follow
        talk = (self.rules.kontra_re != "no" or action.revolution
                or (self.rules.schenken and action.game is not GameType.NULL))
        new._game = _Game(d, action, action.game, self.bid_value, not action.hand, owned,
                          TABLES[action.game], talk, exchange=1 if action.revolution else 0)
        new._talking = talk
        if action.game is GameType.NULL and action.null_value < self.bid_value:
            new.phase = _OVER
            new.to_move = -1
            new._end = "null_overbid"
            return new
        new.phase = _PLAY
        new.to_move = (d + 1) % 3 if action.revolution else 0
        new.leader = 0
        return new

    def _declare_refusal(self, a: Declare) -> IllegalActionError | None:
        hand = self._hand_flag()
        if a.hand != hand:
            seat = Seat(self.to_move)
            if a.hand:
                return IllegalActionError("skat.no_hand_after_pickup", seat=seat)
            return IllegalActionError("skat.hand_declare", seat=seat)
        if a.game is GameType.RAMSCH:
            return IllegalActionError("skat.ramsch_not_declared")
        if a.revolution:
            if not self.rules.revolution:
                return IllegalActionError("skat.no_revolution")
            if a.game is not GameType.NULL or not a.ouvert:
                return IllegalActionError("skat.revolution_null_ouvert")
        if a.spitze:
            if self.rules.spitze == "no":
                return IllegalActionError("skat.no_spitze")
            if a.game is GameType.NULL or not self._spitze_held(a.game):
                return IllegalActionError("skat.spitze_card", card=Cards(
                    1 << spitze_card(GameType.GRAND if a.game is GameType.NULL else a.game)))
        announced = a.schneider or a.schwarz
        if a.game is GameType.NULL:
            if announced:
                return IllegalActionError("skat.null_no_announcements")
            return self._null_refusal(a)
        return self._announcement_refusal(a, hand, announced)

    def _announcement_refusal(self, a: Declare, hand: bool, announced: bool
                              ) -> IllegalActionError | None:
        """Why a suit game or Grand may not be declared with these Hand, Ouvert,
        Schneider and Schwarz flags, if it may not."""
        if a.ouvert and not hand:
            return IllegalActionError("skat.ouvert_needs_hand")
        if announced and not self.rules.announcements:
            return IllegalActionError("skat.no_announcements")
        if announced and not hand:
            return IllegalActionError("skat.announce_needs_hand")
        if a.schwarz and not a.schneider:
            return IllegalActionError("skat.schwarz_includes_schneider")
        if a.ouvert and self.rules.announcements and not (a.schneider and a.schwarz):
            return IllegalActionError("skat.ouvert_implies_schwarz")
        return None

    def _play(self, card: Card) -> SkatState:
        seat = self.to_move
        hands = self.hands
        hand = hands[seat]
        index = card.index
        bit = 1 << index
        g: _Game = self._game  # type: ignore[assignment]
        trick = self.trick
        talking = self._talking
        if talking and g.waiting:
            raise self._waiting_refusal(g, card)
        if not hand & bit:
            raise IllegalActionError("skat.not_held", seat=Seat(seat), cards=Cards(bit))
        if trick:
            follow = self._follow[trick[0]]
            if not follow & bit and follow & hand:
                raise self._follow_refusal(trick[0], follow & hand)
        new = SkatState()
        new.rules = self.rules
        new.phase = _PLAY
        new.skat = self.skat
        new.deal = self.deal
        new._bidding = self._bidding
        new._game = g
        new._hist = (card, self._hist)
        new._auction = self._auction
        new._end = ""
        new._follow = self._follow
        new._talking = talking
        hand ^= bit
        if seat == 0:
            new.hands = (hand, hands[1], hands[2])
        elif seat == 1:
            new.hands = (hands[0], hand, hands[2])
        else:
            new.hands = (hands[0], hands[1], hand)
        if len(trick) < 2:
            new.trick = trick + (index,)
            new.to_move = _NEXT[seat]
            new.leader = self.leader
            new.points = self.points
            new.tricks_won = self.tricks_won
            new._tricks = self._tricks
            return new
        cards = trick + (index,)
        leader = self.leader
        winner = (leader + g.tables.winner(cards)) % 3
        new.trick = ()
        if talking:  # Kontra is said before one's first card: the first trick is over
            g = g._replace(talk=False)
            new._game = g
            new._talking = False
        pts = list(self.points)
        pts[winner] += _POINTS[cards[0]] + _POINTS[cards[1]] + _POINTS[cards[2]]
        tw = list(self.tricks_won)
        tw[winner] += 1
        new.tricks_won = (tw[0], tw[1], tw[2])
        new._tricks = ((leader, cards, winner), self._tricks)
        new.leader = winner
        new.to_move = winner
        if g.declarer == winner and g.game is GameType.NULL:
            new.phase = _OVER
            new.to_move = -1
            new._end = "null_lost"
        elif not (new.hands[0] | new.hands[1] | new.hands[2]):
            if g.declarer < 0 and self.rules.ramsch_skat == "last_trick":
                pts[winner] += card_points(self.skat)  # Ramsch: the Skat to the last trick
            new.phase = _OVER
            new.to_move = -1
            new._end = "played"
        new.points = (pts[0], pts[1], pts[2])
        return new

    def _waiting_refusal(self, g: _Game, card: Card) -> IllegalActionError:
        seat = Seat(self.to_move)
        if g.re_pending:
            return IllegalActionError("skat.re_or_pass", seat=seat, action=str(card))
        if g.exchange:
            return IllegalActionError("skat.revolution_give", seat=seat, action=str(card))
        if g.gift_pending == 1:
            return IllegalActionError("skat.schenken_or_pass", seat=seat, action=str(card))
        return IllegalActionError("skat.accept_or_pass", seat=seat, action=str(card))

    def _follow_refusal(self, led: int, must: int) -> IllegalActionError:
        g = self._game
        assert g is not None
        what: Msg | SuitName = (Msg("skat.trump", {}) if g.tables.trump >> led & 1
                                else SuitName(CARDS[led].suit))
        return IllegalActionError("skat.must_follow", seat=Seat(self.to_move), what=what,
                                  cards=Cards(must))

    # --- outcome and views -------------------------------------------------------------

    def outcome(self) -> SkatOutcome:
        """The whole breakdown of a finished game (raises if it is not over)."""
        if self.phase is not _OVER:
            raise IllegalActionError("game.not_over")
        return make_outcome(self)

    def view(self, seat: int) -> Any:
        """Exactly what ``seat`` may know now (see :class:`stich.skat.view.SkatView`)."""
        from stich.skat.view import make_view

        return make_view(self, seat)

    def bidding_history(self) -> list[tuple[int, Action]]:
        """The auction as (seat, action) pairs: public to everybody."""
        return _unwind(self._auction)

    def replay_states(self) -> Iterator[SkatState]:
        """The states from the deal to this one, each after one more action."""
        s = SkatState.new(self.rules, hands=self.deal[0], skat=self.deal[1],
                          ramsch_round=self.ramsch_round)
        yield s
        for a in self.history:
            s = s.apply(a)
            yield s

    @property
    def game_info(self) -> _Game | None:
        return self._game


_POINTS: Final = tuple(c.points for c in CARDS)
_UNTER: Final = sum(1 << c.index for c in CARDS if c.rank == Rank.UNTER)
_RE_PASS: Final[tuple[Action, ...]] = (RE, PASS)
_SCHENKEN_PASS: Final[tuple[Action, ...]] = (SCHENKEN, PASS)
_ACCEPT_PASS: Final[tuple[Action, ...]] = (ACCEPT, PASS)
_GRAND_OR_PASS: Final[tuple[Action, ...]] = (GRAND_HAND, PASS)
_CLAIM_GIVEUP: Final[tuple[Action, ...]] = (CLAIM, GIVEUP)
_GIVEUP: Final[tuple[Action, ...]] = (GIVEUP,)
_NEXT: Final = (1, 2, 0)
SHORTCUT_CARDS: Final = 12
"""The most cards in play (four tricks) :meth:`SkatState.forced_rest` searches."""
SHORTCUT_NODES: Final = 20_000
"""The most positions :meth:`SkatState.forced_rest` visits per side."""
_DECK_ORDER: Final = tuple(range(32))
_BYTES: Final = BYTE_CARDS


_PHASE_NAMES: Final = tuple(p.name for p in Phase)


def _unwind(node: tuple[Any, ...] | None) -> list[Any]:
    """:func:`stich.core.unwind` again, compiled with this module (a view unwinds the
    tricks and the auction every time)."""
    out = []
    while node is not None:
        out.append(node[0])
        node = node[1]
    out.reverse()
    return out


def _cards_of(mask: int) -> tuple[Card, ...]:
    """:func:`stich.cards.cards_of` again, so that it is compiled with this module (the
    hottest line of a playout: a call into a Python module costs more than the lookup)."""
    t = _BYTES
    return (t[0][mask & 255] + t[1][mask >> 8 & 255] + t[2][mask >> 16 & 255]
            + t[3][mask >> 24 & 255])


def _subsets(mask: int) -> list[int]:
    """Every subset of a set of cards, the empty set first."""
    out = [0]
    while mask:
        bit = mask & -mask
        mask ^= bit
        out += [m | bit for m in out]
    return out


def _ladder_hint(ladder: tuple[int, ...], v: int) -> str:
    near = [x for x in ladder if abs(x - v) <= 12][:6] or list(ladder[:6])
    return ", ".join(map(str, near)) + ", …"
