"""A monitor of table traffic: no message may carry a card its receiver may not see.

Two halves:

* :class:`Monitor` (the checker).  It keeps every message each connection received,
  with the receiver it *is* (a seat, or a spectator), and after the table is over checks
  them against what that receiver may know, computed here from the finished games'
  records (deal and action list, replayed step by step) and the table's event log —
  never from the server's view or wire code:

  - Skat: a seat knows its own hand; the Skat once it picked it up as declarer (and so
    the two cards it put away); every card played; an Ouvert declarer's hand (as
    declared) once declared; everything once the game is over.  A spectator knows the
    played cards, the Ouvert hand and, once over, the deal.
  - Baptistenskat: a seat knows its own hand, in a forehead round every other seat's
    card but never its own (until played); the cards played in the round; the turned
    trump card; everything once the game is over.  A spectator: the played cards and the
    trump card.  An ``act`` event may name the card it played (the last card of a round
    comes with the next round's view).  In a double deck copies count: a message may
    show a code only as often as the receiver may know of that card.
  - A spectator of a table with ``show_hands`` may see every card.

  Every JSON string of a message (keys too) is split on whitespace; a token is a card
  when it is exactly a code of the table's deck.  A token must be one the receiver may
  know; the copies of a code counted over one JSON array (with the arrays inside it:
  ``hands`` of all seats, a trick, the tricks of a round) or inside one string may not
  exceed what the receiver may know.  A message belongs to the event number it carries
  (``seq``: events, snapshots, errors, welcomes and pongs all carry the table's number).

  The replay also checks the log: every ``act`` event is by the seat whose turn it was,
  by a player (a person's seat) or a bot (a bot's seat), with the text the record holds,
  and the event messages agree with the log.

* The traffic (:func:`play_tables`, :func:`run_batches`, the tables of :func:`mix`):
  real tables on a real server, every person a client over a real WebSocket that plays
  random legal actions from its own view's ``legal`` list (steered by :class:`Wishes`
  towards kinds of Skat game not yet seen, where asked), spectators (a person seated
  elsewhere, and an anonymous one), and attempts to act for other seats and at other
  tables, each of which must be refused.
"""

from __future__ import annotations

import asyncio
import random
import ssl
import uuid
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import httpx
import websockets
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from stich.baptisten import BaptistenRules
from stich.cards import CARDS, plain_deck
from stich.record import replay
from stich.server.store.db import sync_url
from stich.server.store.models import EventRow
from tests.server.harness import Client, Server, TableSocket

Receiver = int | None
"""A seat, or None for a spectator."""

SKAT_CODES: frozenset[str] = frozenset(c.code for c in CARDS)


# --- the checker ------------------------------------------------------------------------

@dataclass(frozen=True)
class LoggedEvent:
    """One line of a table's event log (as stored)."""

    seq: int
    kind: str
    seat: int | None
    data: dict[str, Any]


@dataclass(frozen=True)
class Leak:
    table: str
    receiver: Receiver
    seq: int | None
    message: str  # the message's type (and kind)
    path: str  # where in the message
    card: str
    shown: int
    allowed: int

    def __str__(self) -> str:
        who = "spectator" if self.receiver is None else f"seat {self.receiver}"
        return (f"table {self.table} {who} seq {self.seq} {self.message} {self.path}: "
                f"{self.card} shown {self.shown}x, may know {self.allowed}x")


@dataclass
class Report:
    """What the monitor checked, and what it found."""

    tables: int = 0
    games: Counter[str] = field(default_factory=Counter)  # per game type / variant
    seen: Counter[str] = field(default_factory=Counter)  # ouvert, ramsch, forehead rounds, …
    messages: int = 0
    card_tokens: int = 0
    actions: int = 0
    leaks: list[Leak] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def add(self, other: Report) -> None:
        self.tables += other.tables
        self.games.update(other.games)
        self.seen.update(other.seen)
        self.messages += other.messages
        self.card_tokens += other.card_tokens
        self.actions += other.actions
        self.leaks += other.leaks
        self.problems += other.problems


class _Check:
    """Checks the card tokens of one message against an allowed multiset."""

    def __init__(self, codes: frozenset[str], allowed: Counter[str] | None, leak: Any) -> None:
        self.codes = codes
        self.allowed = allowed  # None: everything
        self.leak = leak  # (path, card, shown, allowed) -> None
        self.tokens = 0
        self.reported: set[str] = set()

    def _over(self, counts: Counter[str], path: list[Any]) -> None:
        if self.allowed is None:
            return
        for card, n in counts.items():
            may = self.allowed[card]
            if n > may and card not in self.reported:
                self.reported.add(card)
                self.leak(_path(path), card, n, may)

    def walk(self, node: Any, path: list[Any]) -> Counter[str] | None:
        """The copies of whole-card strings in ``node`` (a string or an array)."""
        if isinstance(node, str):
            toks = node.split()
            cards = [t for t in toks if t in self.codes]
            if not cards:
                return None
            self.tokens += len(cards)
            counts = Counter(cards)
            self._over(counts, path)
            return counts if len(toks) == 1 else None
        if isinstance(node, list):
            total: Counter[str] = Counter()
            for i, x in enumerate(node):
                sub = self.walk(x, [*path, i])
                if sub:
                    total.update(sub)
            self._over(total, path)
            return total
        if isinstance(node, dict):
            for k, v in node.items():
                self.walk(k, [*path, "<key>"])
                self.walk(v, [*path, k])
        return None


def _path(path: list[Any]) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path) or "."


class _SkatGame:
    """The knowledge of each receiver over one Skat game, step by step."""

    def __init__(self, record: dict[str, Any]) -> None:
        self.record = record
        self.seats: list[int] = list(record["seats"])  # the table seat of each position
        self.hands = [frozenset(h.split()) for h in record["deal"]["hands"]]
        self.skat = frozenset(record["deal"]["skat"].split())
        self.state: Any = replay({**record, "actions": [], "result": None},
                                 check_result=False)
        self.i = 0
        self.played: set[str] = set()
        self.declarer: int | None = None
        self.picked = False
        self.discard: frozenset[str] = frozenset()
        self.ouvert: frozenset[str] = frozenset()
        self.revolution = False  # a Revolution: each defender sees his partner's cards
        self.over = False
        # the Skat as it lies now (Schieberamsch: what the last one put back), and per
        # position the Skats it took up
        self.lying: frozenset[str] = self.skat
        self.took: list[set[str]] = [set(), set(), set()]

    def step(self) -> tuple[int, str]:
        """Apply the record's next action; returns (the table seat whose turn it was,
        the record's text of the action)."""
        actions = self.record["actions"]
        if self.i >= len(actions):
            raise ValueError(f"more actions than the record's {len(actions)}")
        want = actions[self.i]
        pos = int(self.state.to_move)
        self.state = self.state.apply(self.state.parse_action(want))
        self.i += 1
        toks = want.split()
        if want == "pickup":
            self.declarer, self.picked = pos, True
            self.took[pos] |= self.lying
        elif want == "hand":
            self.declarer = pos
        elif toks[0] == "discard":
            self.discard = self.lying = frozenset(toks[1:])
        elif toks[0] == "declare":
            if "ouvert" in toks:
                assert self.declarer is not None
                held = self.hands[self.declarer] | (self.skat if self.picked else frozenset())
                self.ouvert = held - self.discard
            self.revolution = "revolution" in toks
        elif want in SKAT_CODES:
            self.played.add(want)
        self.over = bool(self.state.is_over)
        return self.seats[pos], want

    def allowed(self, receiver: Receiver, show_hands: bool,
                dealer_sees: str = "nothing") -> Counter[str] | None:
        if self.over or (receiver is None and show_hands):
            return None
        known = set(self.played) | self.ouvert
        if receiver is not None and receiver not in self.seats:
            # the dealer who sits out at a table of four: a watcher, or (``all``) one
            # who sees every hand as it is held (a Skat once it was taken up)
            if dealer_sees == "all":
                for pos in range(3):
                    known |= self.hands[pos] | self.took[pos]
            return Counter(known)
        if receiver is not None:
            pos = self.seats.index(receiver)
            known |= self.hands[pos] | self.took[pos]
            if self.revolution and pos != self.declarer:  # the partner's cards, and what
                assert self.declarer is not None  # the two give each other: theirs too
                known |= self.hands[3 - pos - self.declarer]
        return Counter(known)

    def count(self, seen: Counter[str], games: Counter[str], labels: Sequence[str]) -> None:
        res = self.record["result"]
        games.update(labels)
        seen[f"skat {res['kind']}"] += 1
        if res["kind"] == "game":
            seen[f"skat {res['game']}"] += 1
            if res["hand"]:
                seen["skat hand"] += 1
            if res["ouvert"]:
                seen["skat ouvert"] += 1


def _counter(text: str) -> Counter[str]:
    return Counter(text.split())


class _BaptistenGame:
    """The knowledge of each receiver over a whole Baptistenskat game."""

    def __init__(self, record: dict[str, Any]) -> None:
        self.record = record
        self.rules = BaptistenRules.parse(record["rules"])
        self.deck = plain_deck(self.rules.deck)
        self.n = self.rules.players
        self.deals = [([_counter(h) for h in d["hands"]], str(d["trump"]))
                      for d in record["deals"]]
        self.state: Any = replay({**record, "actions": [], "result": None},
                                 check_result=False)
        self.i = 0
        self.round = 0
        self.played: list[Counter[str]] = [Counter() for _ in range(self.n)]
        self.last: str | None = None  # the card the last action played
        self.over = False
        # the cards of the round that just ended (all played openly): its round_over
        # shows its last trick, and nothing else may show them from the new round on
        self.ended: Counter[str] = Counter()

    def _forehead(self, r: int) -> bool:
        hands, _ = self.deals[r]
        return self.rules.forehead and sum(hands[0].values()) == 1

    def step(self) -> tuple[int, str]:
        actions = self.record["actions"]
        if self.i >= len(actions):
            raise ValueError(f"more actions than the record's {len(actions)}")
        want = actions[self.i]
        seat = int(self.state.to_move)
        if int(self.state.round_index) != self.round:
            raise ValueError("round out of step")
        self.state = self.state.apply(self.state.parse_action(want))
        self.i += 1
        card = None if want.startswith("bid") else want
        if card is not None:
            self.played[seat][card] += 1
        self.last = card
        self.over = bool(self.state.is_over)
        self.ended = Counter()
        if not self.over and int(self.state.round_index) != self.round:
            self.round = int(self.state.round_index)
            self.ended = sum(self.played, Counter())
            self.played = [Counter() for _ in range(self.n)]
        return seat, want

    def allowed(self, receiver: Receiver, show_hands: bool) -> Counter[str] | None:
        if self.over:
            return None
        hands, trump = self.deals[self.round]
        known: Counter[str] = Counter()
        if receiver is None and show_hands:
            for h in hands:
                known.update(h)
        elif receiver is None:
            for p in self.played:
                known.update(p)
        elif self._forehead(self.round):
            for p, h in enumerate(hands):
                if p != receiver:
                    known.update(h)
            known.update(self.played[receiver])
        else:
            known.update(hands[receiver])
            for p, pl in enumerate(self.played):
                if p != receiver:
                    known.update(pl)
        dealt = sum(sum(h.values()) for h in hands)
        if dealt < self.deck.size:  # the trump card was turned from the rest
            known[trump] += 1
        else:  # drawn and shuffled back: one of the hands holds it
            known[trump] = max(known[trump], 1)
        if self.last is not None:  # the event of the card itself (maybe a round's last)
            known[self.last] = max(known[self.last], 1)
        return known

    def count(self, seen: Counter[str], games: Counter[str], labels: Sequence[str]) -> None:
        games.update(labels)
        seen["baptisten rounds"] += len(self.deals)
        if self.rules.forehead:
            seen["baptisten forehead rounds"] += sum(
                1 for r in range(len(self.deals)) if self._forehead(r))


@dataclass
class TableTraffic:
    """The messages of one table's connections, by receiver."""

    table_id: str
    game: str
    rules: str
    show_hands: bool
    labels: tuple[str, ...]
    receivers: list[tuple[Receiver, list[dict[str, Any]]]] = field(default_factory=list)
    dealer_sees: str = "nothing"  # a Skat table of four: what the sitting-out dealer sees

    def codes(self) -> frozenset[str]:
        if self.game == "skat":
            return SKAT_CODES
        deck = plain_deck(BaptistenRules.parse(self.rules).deck)
        return frozenset(c.code for c in deck.cards)


class Monitor:
    """Keeps every message each connection received, then checks them (:meth:`check`)."""

    def __init__(self) -> None:
        self.traffic: dict[str, TableTraffic] = {}

    def table(self, table_id: str, game: str, rules: str, show_hands: bool,
              labels: Sequence[str] = (), dealer_sees: str = "nothing") -> TableTraffic:
        """Begin a table's traffic (``labels``: what its games count as)."""
        t = self.traffic.get(table_id)
        if t is None:
            t = self.traffic[table_id] = TableTraffic(table_id, game, rules, show_hands,
                                                      tuple(labels), dealer_sees=dealer_sees)
        return t

    def watch(self, table_id: str, receiver: Receiver, messages: list[dict[str, Any]]) -> None:
        """Record a connection's messages (the list is read when checking)."""
        self.traffic[table_id].receivers.append((receiver, messages))

    def check(self, table_id: str, events: Sequence[LoggedEvent],
              records: Sequence[dict[str, Any]]) -> Report:
        """Check one finished table: its log and records against every message."""
        t = self.traffic[table_id]
        rep = Report(tables=1)
        codes = t.codes()
        by_seq: dict[int, list[tuple[Receiver, dict[str, Any]]]] = defaultdict(list)
        for receiver, msgs in t.receivers:
            for m in msgs:
                seq = m.get("seq")
                by_seq[seq if isinstance(seq, int) else 0].append((receiver, m))
        log = {e.seq: e for e in events}
        if sorted(log) != list(range(1, len(events) + 1)):
            rep.problems.append(f"table {table_id}: the log has gaps")
        bots = {e.seat for e in events if e.kind == "seat" and e.data.get("bot")}
        game: _SkatGame | _BaptistenGame | None = None
        games_seen: list[_SkatGame | _BaptistenGame] = []

        def evaluate(seq: int) -> None:
            cache: dict[Receiver, Counter[str] | None] = {}
            for receiver, m in by_seq.pop(seq, []):
                rep.messages += 1
                self._consistent(t, m, log, rep)
                if receiver not in cache:
                    if game is None:
                        cache[receiver] = Counter()
                    elif isinstance(game, _SkatGame):
                        cache[receiver] = game.allowed(receiver, t.show_hands, t.dealer_sees)
                    else:
                        cache[receiver] = game.allowed(receiver, t.show_hands)
                kind = m.get("type", "?") + (f" {m['kind']}" if "kind" in m else "")

                def leak(path: str, card: str, shown: int, may: int,
                         receiver: Receiver = receiver, kind: str = kind) -> None:
                    rep.leaks.append(Leak(table_id, receiver, seq, kind, path, card, shown,
                                          may))

                trick = None
                if m.get("kind") == "round_over" and isinstance(game, _BaptistenGame) \
                        and isinstance(m.get("data"), dict) and m["data"].get("trick"):
                    # the round's last trick: only cards played openly in that round
                    trick = m["data"]["trick"]
                    m = {**m, "data": {k: v for k, v in m["data"].items() if k != "trick"}}
                    chk = _Check(codes, None if game.over else game.ended, leak)
                    chk.walk(trick, ["data", "trick"])
                    rep.card_tokens += chk.tokens
                chk = _Check(codes, cache[receiver], leak)
                chk.walk(m, [])
                rep.card_tokens += chk.tokens

        evaluate(0)
        for ev in sorted(events, key=lambda e: e.seq):
            try:
                game = self._event(t, ev, game, games_seen, records, bots, rep)
            except Exception as e:  # a log the records do not explain
                rep.problems.append(f"table {table_id} seq {ev.seq}: {e!r}")
                break
            evaluate(ev.seq)
        for seq in sorted(by_seq):
            rep.problems.append(f"table {table_id}: messages of seq {seq} after the log's end")
            evaluate(seq)
        if len(games_seen) != len(records):
            rep.problems.append(f"table {table_id}: {len(records)} records, "
                                f"{len(games_seen)} games in the log")
        for g in games_seen:
            if g.i != len(g.record["actions"]) or not g.over:
                rep.problems.append(f"table {table_id}: a game stopped at action {g.i} of "
                                    f"{len(g.record['actions'])}")
            rep.actions += g.i
            g.count(rep.seen, rep.games, t.labels)
        return rep

    @staticmethod
    def _event(t: TableTraffic, ev: LoggedEvent, game: _SkatGame | _BaptistenGame | None,
               games_seen: list[_SkatGame | _BaptistenGame], records: Sequence[dict[str, Any]],
               bots: set[int | None], rep: Report) -> _SkatGame | _BaptistenGame | None:
        if t.game == "skat" and ev.kind == "deal":
            number = int(ev.data["number"])
            rec = records[number - 1]
            if rec.get("table_game") != number:
                raise ValueError(f"record {number} is game {rec.get('table_game')}")
            game = _SkatGame(rec)
            games_seen.append(game)
        elif t.game == "baptisten" and ev.kind == "start":
            game = _BaptistenGame(records[0])
            games_seen.append(game)
        elif ev.kind == "act":
            if game is None or game.over:
                raise ValueError("an action outside a game")
            if isinstance(game, _BaptistenGame):
                game.last = None
            turn, want = game.step()
            text = str(ev.data.get("text"))
            if ev.seat != turn:
                rep.problems.append(f"table {t.table_id} seq {ev.seq}: an action by seat "
                                    f"{ev.seat} when it was seat {turn}'s turn")
            if text != want and not (text == "play" and isinstance(game, _BaptistenGame)):
                rep.problems.append(f"table {t.table_id} seq {ev.seq}: logged {text!r}, "
                                    f"the record says {want!r}")
            by = ev.data.get("by")
            if (ev.seat in bots) != (by == "bot") or \
                    by not in ("player", "bot", "standin", "clock"):
                rep.problems.append(f"table {t.table_id} seq {ev.seq}: an action by {by!r} "
                                    f"at {'a bot' if ev.seat in bots else 'a person'}'s seat")
        elif isinstance(game, _BaptistenGame):
            game.last = None
        return game

    @staticmethod
    def _consistent(t: TableTraffic, m: dict[str, Any], log: dict[int, LoggedEvent],
                    rep: Report) -> None:
        if m.get("type") != "event":
            return
        ev = log.get(m["seq"])
        same = ev is not None and ev.kind == m.get("kind") and ev.seat == m.get("seat")
        if same and ev is not None and ev.kind == "act":  # the text, or a discard's first word
            text, logged = str(m["data"].get("text")), str(ev.data.get("text"))
            same = text == logged or (text in ("discard", "give")
                                      and logged.startswith(text + " "))
        if not same:
            rep.problems.append(f"table {t.table_id}: event message {m.get('seq')} "
                                f"{m.get('kind')} seat {m.get('seat')} is not the log's")


def read_events(db_url: str, table_id: str) -> list[LoggedEvent]:
    """A table's event log, read from the database (not through the server)."""
    engine = create_engine(sync_url(db_url))
    try:
        with Session(engine) as s:
            rows = s.execute(select(EventRow).where(EventRow.table_id == table_id)
                             .order_by(EventRow.seq)).scalars()
            return [LoggedEvent(r.seq, r.kind, r.seat, dict(r.data)) for r in rows]
    finally:
        engine.dispose()


def table_records(client: Client, name: str, table_id: str) -> list[dict[str, Any]]:
    """The records of a table's finished games, in order, found through a seated
    registered player's page and fetched one by one (``GET /api/games/{id}``)."""
    r = client.get(f"/api/users/{name}", params={"limit": 200})
    assert r.status_code == 200, r.text
    ids = sorted((g["number"], g["id"]) for g in r.json()["games"] if g["table"] == table_id)
    out = []
    for _, gid in ids:
        g = client.get(f"/api/games/{gid}")
        assert g.status_code == 200, g.text
        out.append(dict(g.json()["record"]))
    return out


# --- the traffic: tables of clients that play ------------------------------------------

@dataclass
class TableSpec:
    """A table to play: ``seats`` per seat ``person`` or ``bot:<level>``; ``create`` the
    other fields of ``POST /api/tables`` (preset, games, deck, variants, …);
    ``labels`` what its games count as."""

    game: str
    seats: list[str]
    create: dict[str, Any]
    labels: tuple[str, ...]

    @property
    def persons(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s == "person"]


@dataclass
class Outcome:
    """What the clients of one table saw besides the monitored traffic."""

    table_id: str
    spec: TableSpec
    names: dict[int, str]  # seat → registered name (persons)
    creator: Client
    clients: dict[int, Client] = field(default_factory=dict)  # seat → a guest's client
    refused: Counter[str] = field(default_factory=Counter)  # refusal codes seen as expected
    pairs: set[tuple[int, int]] = field(default_factory=set)  # (seat, mover) refused
    reconnects: int = 0
    problems: list[str] = field(default_factory=list)

    def close(self) -> None:
        for c in self.clients.values():
            c.close()


TURN_TIMEOUT = 30.0


def _mover(view: dict[str, Any] | None) -> int | None:
    """The table seat whose turn it is in a view (None: nobody's, or over)."""
    if not view or view.get("phase") == "OVER":
        return None
    to_move = view.get("to_move")
    if not isinstance(to_move, int) or to_move < 0:
        return None
    if view.get("game") == "skat":
        return int(view["positions"][to_move])
    return to_move


def _over(msg: dict[str, Any]) -> bool:
    """The table's end: its ``end`` event, or a snapshot of an ended table."""
    if msg["type"] == "event":
        return bool(msg["kind"] == "end")
    return msg["type"] == "snapshot" and msg["table"]["status"] == "over"


def _my_turn(view: dict[str, Any] | None) -> bool:
    return bool(view and view.get("legal") and view.get("to_move") == view.get("seat"))


class _Seat:
    """One person's connection to its table, playing random legal actions."""

    def __init__(self, play: _TablePlay, seat: int, c: Client, ws: TableSocket,
                 rng: random.Random) -> None:
        self.play, self.seat, self.client, self.ws, self.rng = play, seat, c, ws, rng
        self.answers: list[str] = []  # error codes since a try was sent
        self.answered: asyncio.Future[list[str]] | None = None
        self.own_try: int | None = None  # the mover of a try of our own in flight
        self.last_view: tuple[int, dict[str, Any]] | None = None

    async def run(self) -> None:
        while True:
            try:
                msg = await self.ws.recv(TURN_TIMEOUT)
            except websockets.ConnectionClosed as e:  # never the server's to do: a problem
                self.play.out.problems.append(f"table {self.play.out.table_id} seat "
                                              f"{self.seat}: the server closed ({e})")
                self.ws = await self.play.reconnect(self.client, self.ws, self.seat, self.rng)
                continue
            kind = msg["type"]
            if kind == "error" and msg["code"] == "server.not_saved":
                self.play.out.refused[msg["code"]] += 1  # nothing happened: act again
                if self.answered is None and self.own_try is None:
                    await self._decide()
                continue
            if kind == "error":
                if self.answered is not None or self.own_try is not None:
                    self.answers.append(msg["code"])
                elif msg["code"] != "server.stale":
                    self.play.out.problems.append(f"seat {self.seat}: {msg}")
                continue
            if kind == "pong":
                await self._pong()
                continue
            if _over(msg):
                return
            if kind == "event" and msg["kind"] == "game_over" and self.play.wishes:
                self.play.wishes.seen(msg["data"]["line"]["result"])
            if kind in ("event", "snapshot") and msg.get("view"):
                view = msg["view"]
                before = self.last_view[1] if self.last_view else None
                self.last_view = (int(msg["seq"]), view)
                if kind == "event" and msg["kind"] == "act" and before is not None \
                        and before.get("round") != view.get("round"):
                    continue  # a Baptistenskat round's last card: its round_over follows
                if self.own_try is None:
                    await self._decide()

    async def _pong(self) -> None:
        answers, self.answers = self.answers, []
        if self.answered is not None:
            fut, self.answered = self.answered, None
            fut.set_result(answers)
            return
        if self.own_try is not None:  # a try at a bot table: refused either way
            mover, self.own_try = self.own_try, None
            for code in answers:
                if code in ("server.not_your_turn", "server.stale"):
                    self.play.out.refused[code] += 1
                    if code == "server.not_your_turn":
                        self.play.out.pairs.add((self.seat, mover))
                else:
                    self.play.out.problems.append(f"seat {self.seat} acting for seat {mover}: "
                                                  f"{code}")
            await self._decide()

    async def _decide(self) -> None:
        if self.last_view is None:
            return
        seq, view = self.last_view
        if _my_turn(view):
            action = self.play.choose(view["legal"], self.rng)
            if self.play.coordinated:
                await self.play.others_try(self.seat, seq, action)
            await self.ws.act(action, seq=seq)
            if not self.play.coordinated and self.rng.random() < 0.05:
                self.ws = await self.play.reconnect(self.client, self.ws, self.seat, self.rng)
            return
        mover = _mover(view)
        refused = self.play.out.refused
        if (mover is not None and not self.play.coordinated and mover != self.seat
                and (refused["server.not_your_turn"] + refused["server.stale"] == 0
                     or self.rng.random() < 0.3)):
            # a bot's turn: try to act for it (refused: not your turn, or stale); at
            # the first bot's turn of the table always, so every bot table has a try
            # however short its games (by chance alone a short table had none: the
            # test asserting the refusal failed once in CI)
            self.own_try = mover
            await self.ws.act(self.rng.choice(self.play.any_action), seq=seq)
            await self.ws.send({"type": "ping"})

    async def try_for(self, mover: int, seq: int, action: str) -> list[str]:
        """Act for ``mover`` at event ``seq`` (with an explicit seat, then plainly), and
        return the refusals (sent by the mover's task while the table waits for it)."""
        loop = asyncio.get_running_loop()
        self.answered = loop.create_future()
        await self.ws.send({"type": "act", "seq": seq, "action": action, "seat": mover})
        await self.ws.act(action, seq=seq)
        await self.ws.send({"type": "ping"})
        return await asyncio.wait_for(self.answered, TURN_TIMEOUT)


class _Watcher:
    """A spectator's connection: reads everything, tries to act at every seat's turn."""

    def __init__(self, play: _TablePlay, c: Client, ws: TableSocket,
                 rng: random.Random) -> None:
        self.play, self.client, self.ws, self.rng = play, c, ws, rng
        self.pending = False
        self.answers: list[str] = []
        self.tried: set[int] = set()

    async def run(self) -> None:
        while True:
            try:
                msg = await self.ws.recv(TURN_TIMEOUT)
            except websockets.ConnectionClosed as e:
                self.play.out.problems.append(f"table {self.play.out.table_id} spectator: "
                                              f"the server closed ({e})")
                self.ws = await self.play.reconnect(self.client, self.ws, None, self.rng)
                self.pending = False
                continue
            kind = msg["type"]
            if kind == "error":
                self.answers.append(msg["code"])
                continue
            if kind == "pong":
                self.pending = False
                for code in self.answers:
                    if code == "server.spectator":
                        self.play.out.refused[code] += 1
                    else:
                        self.play.out.problems.append(f"a spectator acting: {code}")
                self.answers = []
                continue
            if _over(msg):
                return
            if kind == "event" and not self.pending and self.rng.random() < 0.02:
                self.ws = await self.play.reconnect(self.client, self.ws, None, self.rng)
                continue
            if kind in ("event", "snapshot") and not self.pending:
                mover = _mover(msg.get("view"))
                if mover is not None and (mover not in self.tried or self.rng.random() < 0.05):
                    self.tried.add(mover)
                    self.pending = True
                    await self.ws.act(self.rng.choice(self.play.any_action), seq=msg["seq"])
                    await self.ws.send({"type": "pause"})
                    await self.ws.send({"type": "ping"})


class Wishes:
    """Kinds of Skat game not yet seen; where given, the persons steer towards them
    (all pass for Ramsch or a passed game, Hand, an Ouvert, Null or Grand declaration
    when legal) and play uniformly at random once each was seen."""

    WORDS: ClassVar[dict[str, str]] = {"skat ouvert": "ouvert", "skat null": "null",
                                       "skat grand": "grand", "skat hand": "hand"}

    def __init__(self) -> None:
        self.wanted = {"skat ramsch", "skat passed", *self.WORDS}

    def seen(self, result: dict[str, Any]) -> None:
        self.wanted -= {f"skat {result.get('kind')}", f"skat {result.get('game')}"}
        for key in ("hand", "ouvert"):
            if result.get(key):
                self.wanted.discard(f"skat {key}")

    def choose(self, legal: list[str], preset: str, rng: random.Random) -> str | None:
        w = self.wanted
        if "pass" in legal and f"skat {'ramsch' if preset == 'lothar' else 'passed'}" in w:
            return "pass"
        if "hand" in legal and "skat hand" in w:
            return "hand"
        words = [self.WORDS[k] for k in w if k in self.WORDS]
        scored = [(sum(x in a.split() for x in words), a) for a in legal
                  if a.startswith("declare")]
        best = max((n for n, _ in scored), default=0)
        if best:
            return rng.choice([a for n, a in scored if n == best])
        return None


class _TablePlay:
    def __init__(self, out: Outcome, coordinated: bool, rng: random.Random, monitor: Monitor,
                 wishes: Wishes | None = None) -> None:
        self.out = out
        self.monitor = monitor
        self.sockets: list[TableSocket] = []  # every connection opened, to close at the end
        self.wishes = wishes if out.spec.game == "skat" else None
        self.preset = str(out.spec.create.get("preset", "lothar"))
        self.coordinated = coordinated  # every seat a person: tries while the mover waits
        self.rng = rng
        self.seats: dict[int, _Seat] = {}
        game = out.spec.game
        self.any_action = ["pass", "18", "hand", "pickup", "SA", "CJ", "declare grand"] \
            if game == "skat" else ["bid 0 stake 1", "bid 1", "play"]

    async def reconnect(self, c: Client, ws: TableSocket, receiver: Receiver,
                        rng: random.Random) -> TableSocket:
        """Close a connection and open it again: half of the time asking for what came
        after the last event seen (the missed events), else for a snapshot."""
        since = ws.seq if rng.random() < 0.5 else None
        await ws.close()
        new = await c.connect(self.out.table_id, since=since)
        self.sockets.append(new)
        self.monitor.watch(self.out.table_id, receiver, new.messages)
        welcome = await new.recv(TURN_TIMEOUT)
        if welcome["type"] != "welcome" or welcome["you"] != receiver:
            self.out.problems.append(f"reconnected as {welcome}")
        self.out.reconnects += 1
        return new

    def choose(self, legal: list[str], rng: random.Random) -> str:
        """A random legal action (steered towards wished game kinds, if any)."""
        if self.wishes is not None:
            wished = self.wishes.choose(legal, self.preset, rng)
            if wished is not None:
                return wished
        return rng.choice(legal)

    async def others_try(self, mover: int, seq: int, action: str) -> None:
        """While ``mover`` holds its move, another seat acts for it (first those that
        have not yet been refused for this mover): refused, nothing changes."""
        left = [s for s in self.seats if s != mover and (s, mover) not in self.out.pairs]
        if not left:
            if self.rng.random() > 0.1:
                return
            left = [s for s in self.seats if s != mover]
        s = self.rng.choice(left)
        answers = await self.seats[s].try_for(mover, seq, action)
        if answers == ["server.bad_message", "server.not_your_turn"]:
            self.out.pairs.add((s, mover))
            self.out.refused.update(answers)
        else:
            self.out.problems.append(f"seat {s} acting for seat {mover} at {seq}: {answers}")


_SSL = ssl.create_default_context()


def client(server: Server) -> Client:
    """A :class:`Client` whose HTTP side shares one SSL context (plain HTTP here; a new
    context per client costs a tenth of a second)."""
    c = Client.__new__(Client)
    c.server, c.lang = server, "en"
    c.http = httpx.Client(base_url=server.url, timeout=30, verify=_SSL)
    return c


class Names:
    """Names for the traffic's persons (a fresh prefix per run)."""

    def __init__(self) -> None:
        self.prefix = "m" + uuid.uuid4().hex[:6]
        self.n = 0

    def __call__(self) -> str:
        self.n += 1
        return f"{self.prefix}x{self.n}"


class Pool:
    """Registered persons, one per table of a batch, reused batch after batch: each
    creates a table and sits there, and its page (``GET /api/users/{name}``) lists the
    table's games.  (Registering hashes a password: too slow for one per table.)"""

    def __init__(self, server: Server, size: int, names: Names) -> None:
        self.names = names
        self.people = [(client(server), names()) for _ in range(size)]

    async def register(self) -> None:
        await asyncio.gather(*(asyncio.to_thread(c.register, n) for c, n in self.people))

    def close(self) -> None:
        for c, _ in self.people:
            c.close()


async def _setup(server: Server, spec: TableSpec, person: tuple[Client, str], names: Names,
                 monitor: Monitor, show_hands: bool
                 ) -> tuple[Outcome, dict[int, TableSocket]]:
    """Create the table (``person`` sits at the first person's seat, guests at the
    others), connect each person at once, and refuse a join of a taken seat.  Returns
    the outcome and the seats' sockets."""
    persons = spec.persons
    creator, name = person
    clients = {s: creator if s == persons[0] else client(server) for s in persons}
    names_of = {s: name if s == persons[0] else names() for s in persons}
    await asyncio.gather(*(asyncio.to_thread(clients[s].guest, names_of[s])
                           for s in persons[1:]))
    seats = ["me" if i == persons[0] else x for i, x in enumerate(spec.seats)]
    body = {"game": spec.game, "seats": seats, "show_hands": show_hands, **spec.create}
    made = await asyncio.to_thread(creator.create, **body)
    info = made["table"]
    tid = str(info["id"])
    out = Outcome(tid, spec, names_of, creator,
                  {s: c for s, c in clients.items() if c is not creator})
    monitor.table(tid, spec.game, str(info["rules"]), show_hands, spec.labels,
                  str(info.get("dealer_sees") or "nothing"))
    sockets: dict[int, TableSocket] = {}

    async def sit(seat: int) -> None:
        ws = await clients[seat].connect(tid)
        welcome = await ws.recv(TURN_TIMEOUT)
        if welcome["type"] != "welcome" or welcome["you"] != seat:
            out.problems.append(f"seat {seat} welcomed as {welcome}")
        monitor.watch(tid, seat, ws.messages)
        sockets[seat] = ws

    await sit(persons[0])
    for s in persons[1:]:
        if s == persons[-1]:  # the last one first tries a taken seat
            r = await asyncio.to_thread(clients[s].post, f"/api/tables/{tid}/join",
                                        {"seat": persons[0]})
            code = r.json().get("error", {}).get("code")
            if r.status_code == 409 and code == "server.seat_taken":
                out.refused[code] += 1
            else:
                out.problems.append(f"joining a taken seat: {r.status_code} {r.text}")
        r = await asyncio.to_thread(clients[s].post, f"/api/tables/{tid}/join", {"seat": s})
        if r.status_code != 200 or r.json()["you"] != s:
            out.problems.append(f"joining seat {s}: {r.status_code} {r.text}")
        await sit(s)
    return out, sockets


async def play_tables(server: Server, specs: Sequence[tuple[TableSpec, bool]],
                      monitor: Monitor, pool: Pool, seed: int,
                      wishes: Wishes | None = None) -> list[Outcome]:
    """Play a batch of tables at once (each spec with its ``show_hands``; at most one
    per person of the pool).  Each table gets an anonymous spectator and one seated at
    the next table; while they play, the creator of each acts at every other table of
    the batch (refused: only a spectator there)."""
    if len(specs) > len(pool.people):
        raise ValueError("more tables than persons in the pool")
    rng = random.Random(seed)
    setups = await asyncio.gather(*(_setup(server, spec, pool.people[i], pool.names, monitor,
                                           show)
                                    for i, (spec, show) in enumerate(specs)))
    outs = [o for o, _ in setups]
    tasks: list[asyncio.Task[None]] = []
    plays: list[_TablePlay] = []
    anonymous = client(server)
    try:
        for i, (out, sockets) in enumerate(setups):
            play = _TablePlay(out, coordinated=all(x == "person" for x in out.spec.seats),
                              rng=random.Random(rng.random()), monitor=monitor, wishes=wishes)
            plays.append(play)
            neighbour = outs[(i + 1) % len(outs)]
            lookers = [anonymous]
            if neighbour is not out:
                lookers.append(neighbour.creator)
            for c in lookers:
                ws = await c.connect(out.table_id)
                monitor.watch(out.table_id, None, ws.messages)
                play.sockets.append(ws)
                tasks.append(asyncio.create_task(
                    _Watcher(play, c, ws, random.Random(rng.random())).run()))
            for s, ws in sockets.items():
                play.sockets.append(ws)
                c = out.creator if s == out.spec.persons[0] else out.clients[s]
                play.seats[s] = _Seat(play, s, c, ws, random.Random(rng.random()))
            if neighbour is not out:  # an outsider can neither join nor seat a bot
                r = await asyncio.to_thread(neighbour.creator.post,
                                            f"/api/tables/{out.table_id}/join", {})
                _expect(out, r.status_code, r.json(), 409, "server.started")
                r = await asyncio.to_thread(neighbour.creator.post,
                                            f"/api/tables/{out.table_id}/seats/0/bot", {})
                _expect(out, r.status_code, r.json(), 403, "server.not_seated")
            for seat in play.seats.values():
                tasks.append(asyncio.create_task(seat.run()))
        for out in outs:  # acting at every other table, where one is only a spectator
            for other in outs:
                if other is not out:
                    tasks.append(asyncio.create_task(_act_elsewhere(out, other, monitor)))
        await asyncio.gather(*tasks)
    finally:
        for task in tasks:
            task.cancel()
        for ws in [ws for _, socks in setups for ws in socks.values()] \
                + [ws for p in plays for ws in p.sockets]:
            await ws.close()
        anonymous.close()
    return outs


def _expect(out: Outcome, status: int, body: dict[str, Any], want_status: int,
            want_code: str) -> None:
    code = body.get("error", {}).get("code")
    if status == want_status and code == want_code:
        out.refused[want_code] += 1
    else:
        out.problems.append(f"expected {want_status} {want_code}, got {status} {body}")


async def _act_elsewhere(out: Outcome, other: Outcome, monitor: Monitor) -> None:
    """``out``'s creator connects to ``other``'s table and acts there for every seat,
    pauses and ends: each refused (server.spectator)."""
    ws = await out.creator.connect(other.table_id)
    monitor.watch(other.table_id, None, ws.messages)
    try:
        welcome = await ws.recv(TURN_TIMEOUT)
        if welcome.get("you") is not None:
            out.problems.append(f"welcomed at table {other.table_id} as {welcome.get('you')}")
        await ws.recv(TURN_TIMEOUT)  # the snapshot
        for seat in range(len(other.spec.seats)):
            await ws.send({"type": "act", "seq": ws.seq, "action": "pass", "seat": seat})
            await ws.act("pass")
        for kind in ("pause", "resume", "end"):
            await ws.send({"type": kind})
        await ws.send({"type": "ping"})
        codes = []
        while True:
            msg = await ws.recv(TURN_TIMEOUT)
            if msg["type"] == "pong":
                break
            if msg["type"] == "error":
                codes.append(msg["code"])
        want = ["server.bad_message", "server.spectator"] * len(other.spec.seats) \
            + ["server.spectator"] * 3
        if codes == want:
            out.refused.update(codes)
        else:
            out.problems.append(f"acting at table {other.table_id}: {codes}")
    finally:
        await ws.close()


def check_tables(server: Server, outs: Iterable[Outcome], monitor: Monitor) -> Report:
    """Check every finished table's traffic against its log and records."""
    rep = Report()
    for out in outs:
        records = table_records(out.creator, out.names[out.spec.persons[0]], out.table_id)
        events = read_events(server.db, out.table_id)
        rep.add(monitor.check(out.table_id, events, records))
        rep.problems += out.problems
        out.close()
    return rep



# --- a mix of tables, played in batches -------------------------------------------------

SKAT_KINDS: tuple[tuple[str, bool, bool], ...] = (
    # preset, every seat a person (else one person and two bots), show_hands
    ("lothar", True, False), ("isko", True, True), ("lothar", False, True),
    ("isko", True, False), ("lothar", True, True), ("isko", False, False),
)

BAPTISTEN_VARIANTS: tuple[tuple[int, ...], ...] = (
    (2,), (3,), (4,), (5,), (1,), (2, 3), (2, 4, 5), (1, 2), (1, 3, 5), (2, 3, 4, 5),
    (), (1, 2, 3, 4, 5),
)
BAPTISTEN_DECKS = ("elferraus", "skat", "romme")


def mix(skat_games: int, baptisten_games: int, skat_per_table: int = 6
        ) -> list[tuple[TableSpec, bool]]:
    """Tables for about ``skat_games`` Skat games (``skat_per_table`` a table, presets
    lothar and isko, all persons or one person and two ``bot:easy``) and
    ``baptisten_games`` Baptistenskat games (one a table; 3 to 7 players, every variant
    and deck in turn, ``max_cards`` 2 or 3; every fourth table one person and bots),
    each with its ``show_hands``."""
    out: list[tuple[TableSpec, bool]] = []
    left = skat_games
    i = 0
    while left > 0:
        preset, persons, show = SKAT_KINDS[i % len(SKAT_KINDS)]
        games = min(skat_per_table, -(-left // 3) * 3)
        seats = ["person"] * 3 if persons else ["person", "bot:easy", "bot:easy"]
        labels = (f"skat {preset}", "skat persons" if persons else "skat with bots")
        out.append((TableSpec("skat", seats, {"preset": preset, "games": games}, labels), show))
        left -= games
        i += 1
    for j in range(baptisten_games):
        variants = BAPTISTEN_VARIANTS[j % len(BAPTISTEN_VARIANTS)]
        players = 3 + j % 5
        decks = BAPTISTEN_DECKS if players <= 4 else BAPTISTEN_DECKS[::2]  # 32 cards: 4
        deck = "romme-double-joker" if 1 in variants else decks[j % len(decks)]
        seats = ["person"] * players if j % 4 else \
            ["person"] + ["bot:easy"] * (players - 1)
        body = {"deck": deck, "variants": list(variants), "max_cards": 2 + j % 2}
        labels = ("baptisten", f"baptisten deck {deck}", f"baptisten {players} players",
                  *(f"baptisten variant {v}" for v in variants))
        if not variants:
            labels += ("baptisten no variant",)
        out.append((TableSpec("baptisten", seats, body, labels), j % 3 == 0))
    return out


async def run_batches(server: Server, tables: Sequence[tuple[TableSpec, bool]],
                      monitor: Monitor, pool: Pool, seed: int, wishes: Wishes | None = None,
                      progress: Any = None) -> tuple[Report, list[Outcome]]:
    """Play the tables in batches of the pool's size (steered by ``wishes``, if given),
    checking each batch when it is over; returns the report and every table's
    outcome."""
    rep = Report()
    outs: list[Outcome] = []
    size = len(pool.people)
    for b in range(0, len(tables), size):
        batch = await play_tables(server, tables[b:b + size], monitor, pool, seed + b, wishes)
        part = await asyncio.to_thread(check_tables, server, batch, monitor)
        for out in batch:
            del monitor.traffic[out.table_id]
        rep.add(part)
        outs += batch
        if progress is not None:
            progress(rep, len(outs), len(tables))
    return rep, outs
