"""What a connection receives: a seat's view as JSON, and each event as that seat may
see it.  Everything a client gets is built here, from the engine's ``view(seat)`` only.

A spectator gets the public view: a seat's view with its private parts taken out (no
hand, no Skat, no forehead cards, no legal moves).  Where the table allows it, a
spectator sees every hand instead: the views of all seats, merged.

Action texts are public except the cards of a Skat discard and of a Revolution's give:
an event's text is shown to a receiver only when every card it names is among the cards
that receiver's view knows; otherwise only its first word (``discard``, ``give``).
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable
from functools import lru_cache
from typing import Any

import orjson

from stich import games
from stich.baptisten.view import BaptistenView
from stich.baptisten.view import display_order as baptisten_display_order
from stich.cards import PlainDeck, bits, format_cards, plain_deck
from stich.games import BAPTISTEN, SKAT
from stich.messages import GameName, render
from stich.present.languages import DEFAULT_LANG, LANGS
from stich.present.styles import StyleNamer
from stich.server import protocol
from stich.server.sitting import Event, Sitting, TableSettings
from stich.skat.declaring import declare_values
from stich.skat.ending import early_end
from stich.skat.rules import GameType, SkatRules
from stich.skat.view import SkatView
from stich.skat.view import display_order as skat_display_order

__all__ = ["SPECTATOR", "declare_values_json", "event_message", "event_texts", "known_mask",
           "message_text",
           "public_event_data", "view_json"]

SPECTATOR = -1
"""The receiver number of a spectator."""


_SKAT_CODES = tuple(format_cards(1 << i) for i in range(32))  # a card's code by index


def _skat_cards(mask: int) -> list[str]:
    codes = _SKAT_CODES
    return [codes[i] for i in bits(mask)]  # format_cards' order (index order), fewer steps


def _plain(deck: PlainDeck, mask: int) -> list[str]:
    return [deck.cards[i].code for i in bits(mask)]


def _held_skat(mask: int, v: SkatView) -> list[str]:
    """Cards in a hand as a player holds them for the game (trumps first)."""
    return list(_skat_order(mask, None if v.contract is None else v.contract.game))


@lru_cache(maxsize=8192)
def _skat_order(mask: int, game: GameType | None) -> tuple[str, ...]:
    # a hand is rendered for every event while the others play: the same few masks
    return tuple(_SKAT_CODES[c.index] for c in skat_display_order(mask, game))


def _held_plain(deck: PlainDeck, mask: int, trump: int) -> list[str]:
    return list(_plain_order(deck, mask, trump))


@lru_cache(maxsize=8192)
def _plain_order(deck: PlainDeck, mask: int, trump: int) -> tuple[str, ...]:
    return tuple(c.code for c in baptisten_display_order(mask, deck, trump))


@lru_cache(maxsize=4096)
def _legal_texts(legal: tuple[Any, ...]) -> tuple[str, ...]:
    """The legal actions' texts (the same tuples recur: bids, a hand's cards)."""
    return tuple(str(a) for a in legal)


def skat_view_json(v: SkatView, public: bool = False,
                   lang: str = DEFAULT_LANG) -> dict[str, Any]:
    """A Skat view as JSON (positions: 0 Vorhand, 1 Mittelhand, 2 Hinterhand); the
    declarer's own view while declaring has ``declare_values`` (texts in ``lang``)."""
    played = [0, 0, 0]
    for leader, cards, _ in v.tricks:
        for i in range(len(cards)):
            played[(leader + i) % 3] += 1
    for seat, _ in v.trick:
        played[seat] += 1
    held = [10 - p for p in played]
    if v.phase == "DISCARD":
        held[v.to_move] = 12  # the Skat picked up, two cards still to put away
    out: dict[str, Any] = {
        "game": SKAT.name,
        "seat": None if public else v.seat,
        "rules": v.rules,
        "phase": v.phase,
        "to_move": v.to_move,
        "hand": [] if public else _held_skat(v.hand, v),
        "cards_held": held,
        "bidding": [[s, t] for s, t in v.bidding],
        "bid": v.bid,
        "declarer": v.declarer,
        "contract": None if v.contract is None else str(v.contract),
        "skat": [] if public else _skat_cards(v.skat_seen),
        "discarded": [] if public else _skat_cards(v.discarded),
        "ouvert": _held_skat(v.ouvert_hand, v),
        "trick": [[s, _SKAT_CODES[c]] for s, c in v.trick],
        "tricks": [[leader, [_SKAT_CODES[c] for c in cards], winner]
                   for leader, cards, winner in v.tricks],
        "tricks_won": list(v.tricks_won),
        "points_taken": list(v.points_taken()),
        "legal": [] if public else list(_legal_texts(v.legal_actions)),
        "deal": None,
    }
    if v.deal is not None:
        hands, skat = v.deal
        out["deal"] = {"hands": [_skat_cards(h) for h in hands], "skat": _skat_cards(skat)}
    if v.kontra >= 0:  # house rules: written only when said, so other tables' messages
        out["kontra"] = v.kontra  # stay as they were
        out["re"] = v.re
    if v.pushes:
        out["pushes"] = v.pushes
    if v.knocks:
        out["knocks"] = v.knocks
    if v.resigned:
        out["gave_up"] = [s for s in range(3) if v.resigned >> s & 1]
    if v.gift or v.gift_pending:  # Schenken: how often the declarer played on, and
        out["gift"] = v.gift  # who answers an offer now (1 the partner, 2 the declarer)
        out["gift_pending"] = v.gift_pending
    if not public and v.partner_hand:  # Revolution: a defender sees his partner's cards
        out["partner_hand"] = _held_skat(v.partner_hand, v)
    if not public and v.phase == "DECLARE" and v.seat == v.declarer:
        out["declare_values"] = declare_values_json(v, lang)
    return out


def declare_values_json(v: SkatView, lang: str = DEFAULT_LANG) -> dict[str, Any]:
    """The declarer's legal declarations counted for this hand
    (:func:`stich.skat.declaring.declare_values`): per action text its ``value``, a
    ``text`` saying it the Skat way ("Eichel mit 2: 36", German card names), ``texts`` the
    same per language and naming (``de-german``, ``de-french``: "Kreuz mit 2: 36",
    ``en-german``, ``en-french``: a message is rendered once for every connection of a
    seat, whatever its language and card style), ``loss``, the list score of a certain
    loss (else None), and ``needs``: ``"schneider"`` or ``"schwarz"`` when the game
    reaches the bid only so (not announced), else None (the button says it in words)."""
    known_skat = v.skat_seen | v.discarded
    unseen = 0 if known_skat else ((1 << 32) - 1) & ~v.hand
    values = declare_values(SkatRules.parse(v.rules), v.legal_actions, bid=v.bid,
                            owned=v.hand | known_skat, unseen=unseen)
    german, french = StyleNamer("german"), StyleNamer("french4")
    out: dict[str, Any] = {}
    for text, d in values.items():
        texts = {f"{lg}-{style}": _value_words(d, v.bid, lg, namer)
                 for lg in LANGS
                 for style, namer in (("german", german), ("french", french))}
        needs = "schwarz" if d.schwarz_needed else "schneider" if d.schneider_needed else None
        out[text] = {"value": d.value, "text": texts[f"{lang}-german"], "texts": texts,
                     "loss": d.loss, "needs": needs}
    return out


def _value_words(d: Any, bid: int, lang: str, namer: StyleNamer) -> str:
    """One declaration's value said the Skat way in ``lang`` with ``namer``'s suit names
    ("Eichel mit 2: 36" / "Kreuz mit 2: 36")."""
    c = d.contract
    game = namer.game(GameName(c.game.value), lang) + "".join(
        f" {word}" for word, on in (("Hand", c.hand), ("Schneider", c.schneider),
                                    ("Schwarz", c.schwarz), ("Ouvert", c.ouvert)) if on)
    m = d.goal.matadors
    extra = ", Schwarz" if d.schwarz_needed else ", Schneider" if d.schneider_needed else ""
    if d.loss is not None:
        return render("skat.value_lost", {"game": game, "bid": bid,
                                          "score": f"{d.loss}".replace("-", "−")}, lang)
    if c.game is GameType.NULL:
        return render("skat.value_null", {"game": game, "value": d.value}, lang)
    if d.depends:  # a Hand game: the hand's own count, and the least any Skat leaves
        own = d.own
        return render("skat.value_hand_with" if own > 0 else "skat.value_hand_without",
                      {"game": game, "n": abs(own), "extra": extra, "value": d.value}, lang)
    return render("skat.value_with" if m > 0 else "skat.value_without",
                  {"game": game, "n": abs(m), "extra": extra, "value": d.value}, lang)


def baptisten_view_json(v: BaptistenView, deck: PlainDeck,
                        public: bool = False) -> dict[str, Any]:
    """A Baptistenskat view as JSON (seats are table seats)."""
    return {
        "game": BAPTISTEN.name,
        "seat": None if public else v.seat,
        "rules": v.rules,
        "round": v.round_no,
        "cards": v.cards,
        "first": v.first,
        "phase": v.phase,
        "to_move": v.to_move,
        "hand": [] if public else _held_plain(deck, v.hand, v.trump),
        "others": [[] if public else _plain(deck, h) for h in v.others],
        "trump_card": deck.cards[v.trump_card].code,
        "trump": v.trump,
        "bids": list(v.bids),
        "stakes": list(v.stakes),
        "forced": list(v.forced),
        "hooked": None if public else v.hooked,
        "owed": list(v.owed_now()),
        "trick": [[s, deck.cards[c].code] for s, c in v.trick],
        "round_tricks": [[leader, [deck.cards[c].code for c in cards], winner]
                         for leader, cards, winner in v.round_tricks],
        "tricks_won": list(v.tricks_won),
        "totals": list(v.totals),
        "legal": [] if public else list(_legal_texts(v.legal_actions)),
    }


_memo: list[Any] = [None, {}]  # a game state and its views by position


def _view(sitting: Sitting, seat: int) -> Any:
    """``sitting.view(seat)``, computed once per state: the engine states are immutable
    (every action makes a new one), and one event is rendered for every receiver.  Only
    for a seat that plays the running game (never the dealer who sits out)."""
    return _pos_view(sitting, sitting.position_of(seat))


def _pos_view(sitting: Sitting, pos: int) -> Any:
    """The running game's view of place ``pos`` (memoised as :func:`_view`)."""
    st = sitting.state
    assert st is not None and pos >= 0
    if _memo[0] is not st:
        _memo[0], _memo[1] = st, {}
    views: dict[int, Any] = _memo[1]
    v = views.get(pos)
    if v is None:
        v = views[pos] = st.view(pos)
    return v


def _sees_all(sitting: Sitting, receiver: int) -> bool | None:
    """How ``receiver`` watches the running game when it does not play it: True (every
    hand: a spectator at a table that shows every hand, the dealer who sits out at a
    table of four where he sees all), False (the public view), None (a seat that plays
    it)."""
    if receiver == SPECTATOR:
        return sitting.settings.show_hands
    if sitting.sits_out(receiver):
        return sitting.settings.dealer_sees == "all"
    return None


def _deck(sitting: Sitting) -> PlainDeck:
    return plain_deck(sitting.baptisten_rules.deck)


def view_json(sitting: Sitting, receiver: int) -> dict[str, Any] | None:
    """What ``receiver`` (a seat, or :data:`SPECTATOR`) sees of the running game now;
    None before the start."""
    if _sees_all(sitting, receiver):
        return None if sitting.state is None else _all_hands(sitting)
    public = _public_view(sitting)
    return None if public is None else _private_view(sitting, receiver, public)


def _all_hands(sitting: Sitting) -> dict[str, Any]:
    """A spectator's view at a table that shows every hand (each seat's own view merged)."""
    if sitting.skat is not None:  # by position (at four the dealer has no view)
        views = [_pos_view(sitting, p) for p in range(3)]
        out = skat_view_json(views[0], public=True)
        out["hands"] = [_held_skat(v.hand, v) for v in views]
        out["positions"] = list(sitting.positions)
        out["number"] = sitting.game_number
        _add_end(sitting, out)
        return out
    first = _view(sitting, 0)
    deck = _deck(sitting)
    out = baptisten_view_json(first, deck, public=True)
    st = sitting.baptisten
    assert st is not None
    out["hands"] = [_held_plain(deck, st.hands[p], first.trump)
                    for p in range(sitting.n_seats)] \
        if not st.is_over else [[] for _ in range(sitting.n_seats)]
    return out


def known_mask(sitting: Sitting, receiver: int) -> int:
    """The cards the receiver's view knows now (spectators: the public view's)."""
    if sitting.state is None or _sees_all(sitting, receiver) is not None:
        v = _pos_view(sitting, 0) if sitting.state is not None else None
        return 0 if v is None else int(v.played) | _public_extra(v)
    return int(_view(sitting, receiver).known_cards())


def _public_extra(v: Any) -> int:
    if isinstance(v, SkatView):
        m = v.ouvert_hand
        if v.deal is not None:
            m |= v.deal[0][0] | v.deal[0][1] | v.deal[0][2] | v.deal[1]
        return m
    return 0


def _text_visible(sitting: Sitting, text: str, receiver: int) -> str:
    """The action's text, or only its first word when it names a card the receiver's
    view does not know (a Skat discard seen by the others)."""
    if sitting.skat is None or not text.startswith(("discard", "give ")):
        return text
    known = known_mask(sitting, receiver)
    if _sees_all(sitting, receiver):
        st = sitting.skat
        known = known if st is None or not st.is_over else -1
    from stich.cards import parse_cards
    try:
        cards = parse_cards(text.split(None, 1)[1])
    except (ValueError, IndexError):
        return text.split()[0]
    return text if cards & ~known == 0 else text.split()[0]


def public_event_data(sitting: Sitting, ev: Event, receiver: int) -> dict[str, Any]:
    """An event's data as ``receiver`` may see it (after the event was applied)."""
    d = ev.data
    if ev.kind == "act":
        return {"text": _text_visible(sitting, str(d["text"]), receiver), "by": d.get("by")}
    if ev.kind == "seat":
        assert ev.seat is not None
        info = sitting.seats[ev.seat]
        return {"name": info.name if info else d.get("name"), "bot": d.get("bot")}
    if ev.kind == "game_over" and sitting.skat_list is not None:
        line = sitting.skat_list.games[-1].to_dict()
        line["standin"] = sitting.standin_marks[-1] if sitting.standin_marks else []
        return {"number": d.get("number"), "line": line, "wait": bool(d.get("wait"))}
    if ev.kind == "round_over" and sitting.baptisten is not None:
        sheet = sitting.sheet()
        assert sheet is not None
        out: dict[str, Any] = {"round": d.get("round"), "sheet_row": sheet["rounds"][-1],
                               "wait": bool(d.get("wait")), "trick": None}
        if sitting.last_trick is not None:  # every card of it was played openly
            deck = _deck(sitting)
            leader, cards, winner = sitting.last_trick
            out["trick"] = [leader, [deck.cards[c].code for c in cards], winner]
        return out
    if ev.kind == "chat":  # (the author's account stays on the server)
        return {k: v for k, v in d.items() if k != "user"}
    return dict(d)


_OWN_KEYS = frozenset({"seat", "hand", "skat", "discarded", "legal", "declare_values",
                       "partner_hand", "others", "hooked"})
"""The fields of a seat's view that differ from the public view (the rest is the same
for every receiver)."""


def _own_fields(sitting: Sitting, receiver: int) -> dict[str, Any]:
    """A seat's own fields of its view (every key of :data:`_OWN_KEYS` its game has):
    put over the public view they make the seat's view (tests/server/test_wire.py checks
    that over whole games)."""
    v = _view(sitting, receiver)
    out: dict[str, Any]
    if isinstance(v, SkatView):
        out = {"seat": v.seat, "hand": _held_skat(v.hand, v), "skat": _skat_cards(v.skat_seen),
               "discarded": _skat_cards(v.discarded),
               "legal": list(_legal_texts(v.legal_actions))}
        if v.phase == "DECLARE" and v.seat == v.declarer:
            out["declare_values"] = declare_values_json(v)
        if v.partner_hand:  # Revolution: a defender's view of his partner's cards
            out["partner_hand"] = _held_skat(v.partner_hand, v)
    else:
        deck = _deck(sitting)
        out = {"seat": v.seat, "hand": _held_plain(deck, v.hand, v.trump),
               "others": [_plain(deck, h) for h in v.others], "hooked": v.hooked,
               "legal": list(_legal_texts(v.legal_actions))}
    if sitting.over or sitting.between:
        out["legal"] = []
    return out


def _private_view(sitting: Sitting, receiver: int, public: dict[str, Any]) -> dict[str, Any]:
    """``view_json(sitting, receiver)`` from the public view ``public`` (the spectator's,
    rendered once per event): a seat's own fields put over it."""
    if receiver == SPECTATOR or sitting.sits_out(receiver):
        return public
    return public | _own_fields(sitting, receiver)


def _public_view(sitting: Sitting) -> dict[str, Any] | None:
    """The public view (a spectator's at a table that does not show every hand)."""
    st = sitting.state
    if st is None:
        return None
    v = _pos_view(sitting, 0)
    if isinstance(v, SkatView):
        out = skat_view_json(v, public=True)
        out["positions"] = list(sitting.positions)
        out["number"] = sitting.game_number
        _add_end(sitting, out)
    else:
        out = baptisten_view_json(v, _deck(sitting), public=True)
    if sitting.over or sitting.between:
        out["legal"] = []
    return out


_end_memo: list[Any] = [None, None]  # a finished game's state and its ``end`` field


def _add_end(sitting: Sitting, out: dict[str, Any]) -> None:
    """A Skat game that ended early (a claim, giving up, a gift, a shortcut): the view's
    ``end`` says how (``reason``; ``by``, the position that said it; ``rest``, the side
    the rest went to: ``declarer`` or ``defenders``), the cards each position still
    held then (``held``, by position, as held for the game) and the trick that lay open
    (``trick``).  Only once the game is over, when the whole deal is public anyway;
    nothing for a game played out (those views stay as they were)."""
    st = sitting.skat
    if st is None or not st.is_over:
        return
    if _end_memo[0] is not st:  # (every event between games renders the view again)
        _end_memo[0], _end_memo[1] = st, _end_json(st)
    if _end_memo[1] is not None:
        out["end"] = _end_memo[1]


def _end_json(st: Any) -> dict[str, Any] | None:
    e = early_end(st)
    if e is None:
        return None
    game = st.game
    return {"reason": e.reason, "by": e.by,
            "rest": "declarer" if e.rest_to_declarer else "defenders",
            "held": [list(_skat_order(h, game)) for h in e.held],
            "trick": [[p, _SKAT_CODES[c]] for p, c in e.trick]}


def event_texts(sitting: Sitting, ev: Event, receivers: Iterable[int]) -> dict[int, str]:
    """The message announcing ``ev`` (:func:`event_message`) as sent to each of
    ``receivers``, as JSON text: the public part of the view is built and encoded once,
    and each seat's own fields are encoded and put before it.  ``sitting`` must stand
    right after ``ev``."""
    public = _public_view(sitting)
    shared = b""  # the public view's fields that no seat has its own of, as JSON
    if public is not None:
        shared = _dumps({k: v for k, v in public.items() if k not in _OWN_KEYS})[1:-1]
    out: dict[int, str] = {}
    for r in receivers:
        view: Any
        watching = _sees_all(sitting, r)
        if public is None:
            view = None
        elif watching is not None:  # a spectator, or the dealer who sits out
            view = _all_hands(sitting) if watching else public
        else:
            own = _dumps(_own_fields(sitting, r))
            view = orjson.Fragment(own[:-1] + (b"," + shared if shared else b"") + b"}")
        msg = {"type": "event", "seq": ev.seq, "kind": ev.kind, "seat": ev.seat,
               "data": public_event_data(sitting, ev, r), "view": view}
        try:
            out[r] = orjson.dumps(msg, option=orjson.OPT_NON_STR_KEYS).decode()
        except orjson.JSONEncodeError:  # a lone surrogate in the data: json.dumps, which
            if public is not None and watching is None:  # knows no Fragment
                msg["view"] = _private_view(sitting, r, public)
            out[r] = message_text(msg)
    return out


def _dumps(value: dict[str, Any]) -> bytes:
    """A dict as compact JSON (orjson; a lone surrogate as ``json.dumps`` writes it)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)
    except orjson.JSONEncodeError:
        return json.dumps(value, separators=(",", ":")).encode()


def event_message(sitting: Sitting, ev: Event, receiver: int) -> dict[str, Any]:
    """The message announcing ``ev`` to ``receiver``, with the receiver's view after it.
    ``sitting`` must stand right after ``ev``."""
    return {
        "type": "event",
        "seq": ev.seq,
        "kind": ev.kind,
        "seat": ev.seat,
        "data": public_event_data(sitting, ev, receiver),
        "view": view_json(sitting, receiver),
    }


_EVENT_START = '{"type":"event",'


def with_timer(event: str, timer: dict[str, Any]) -> str | None:
    """An event message's text (as :func:`event_texts` makes it) with the ``timer``
    message that follows it in its ``timer`` field (one frame instead of two); None
    when ``event`` is not such a text or ``timer`` not a timer message."""
    if timer.get("type") != "timer" or not event.startswith(_EVENT_START) \
            or not event.endswith("}"):
        return None
    return f'{event[:-1]},"timer":{message_text(timer)}}}'


def message_text(msg: dict[str, Any]) -> str:
    """A message as sent: compact JSON, UTF-8 as it is (orjson: the same text as
    ``json.dumps(msg, ensure_ascii=False, separators=(",", ":"))`` several times faster;
    one message is encoded for every receiver of every event)."""
    try:
        return orjson.dumps(msg, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:  # a lone surrogate (the validation refuses them
        return json.dumps(msg, separators=(",", ":"))  # at the door): ASCII escapes


# --- the table as the lobby and a connection see it (the protocol's models) -------------


def table_status(s: Sitting) -> str:
    return "over" if s.over else "running" if s.started else "waiting"


def table_summary(s: Sitting) -> dict[str, Any]:
    """What the lobby lists (stored with the table row)."""
    seats = []
    for i, info in enumerate(s.seats):
        if info is None:
            seats.append({"seat": i, "kind": "free"})
        else:
            seats.append({"seat": i, "kind": "bot" if info.bot else "person",
                          "name": info.name, "bot": info.bot, "user": info.user,
                          "quit": i in s.quit, "standin": i in s.standins or i in s.quit})
    return {"seats": seats, "games_played": s.play.games_played(s.games_done),
            "paused_by": s.paused_by, "idle": s.idle}


def preset_of(settings: TableSettings) -> str:
    """What the history files a table's rules under (a preset's name, ``custom``)."""
    return games.get(settings.game).preset_of(settings.rules)


def table_info(s: Sitting, table_id: str, receiver: int, *, invite: str | None,
               connected: Collection[int]) -> dict[str, Any]:
    """The table as ``receiver`` sees it (:class:`~stich.server.protocol.TableInfo`):
    the invite only for those who sit at it (never a spectator); ``connected``: the
    seats with a connection."""
    seats = []
    for i, info in enumerate(s.seats):
        if info is None:
            seats.append(protocol.SeatInfo(seat=i, kind="free"))
        else:
            seats.append(protocol.SeatInfo(
                seat=i, kind="bot" if info.bot else "person", name=info.name, bot=info.bot,
                away=i in s.away,
                # (a seat whose person left for good: a bot plays it too)
                standin=i in s.standins or i in s.quit, quit=i in s.quit,
                connected=i in connected))
    st = s.settings
    return protocol.TableInfo(
        id=table_id, game=st.game, rules=st.rules, preset=preset_of(st),  # type: ignore[arg-type]
        games=1 if s.game.one_game_per_table else st.games,
        games_played=s.play.games_played(s.games_done), seats=seats,
        status=table_status(s), public=st.public, grace=st.grace,  # type: ignore[arg-type]
        show_hands=st.show_hands, paused_by=s.paused_by, idle=s.idle,
        end_reason=s.end_reason, seq=s.seq,
        invite=invite if receiver != SPECTATOR else None,
        next_after=st.next_after, clock=st.clock, bank=st.bank,
        on_timeout=st.on_timeout, between=s.between,  # type: ignore[arg-type]
        ready=sorted(s.ready),
        **({"dealer_sees": st.dealer_sees} if st.skat_four else {}),  # type: ignore[arg-type]
        **({"shortcut": True} if st.shortcut else {}),  # type: ignore[arg-type]
        **({"scoring": st.scoring} if st.scoring != "list" else {}),  # type: ignore[arg-type]
    ).model_dump(exclude_unset=True)


def welcome(s: Sitting, table: dict[str, Any], receiver: int, *, creator: bool,
            timer: dict[str, Any]) -> dict[str, Any]:
    """The first message of a connection (:class:`~stich.server.protocol.Welcome`):
    ``table`` from :func:`table_info`, the ``timer`` running now."""
    return protocol.Welcome(
        type="welcome", table=protocol.TableInfo.model_validate(table),
        you=None if receiver == SPECTATOR else receiver, creator=creator, seq=s.seq,
        timer=protocol.Timer.model_validate(timer),
        chat=[protocol.ChatLine.model_validate(line) for line in s.chat_lines()],
    ).model_dump(exclude_unset=True)
