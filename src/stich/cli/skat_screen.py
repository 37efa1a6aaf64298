"""What the person at the Skat table is shown, drawn from their :class:`SkatView` only.

Every function here takes a view (what one seat may know), never a state, so a screen
cannot show a card the seat may not see.  The same pieces make the plain log (printed
one after another) and the fixed table of a real terminal (:meth:`SkatScreen.table`):
who sits where and what each said in the auction, the game and the points taken so far,
the current trick in front of the players, the last trick, the latest events, the hand
sorted for the game with numbers, and the question.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich import box
from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.markup import escape
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from stich.cards import CARDS, Card, card_points
from stich.cli import skat_house
from stich.cli.i18n import Translator
from stich.cli.screen import Event, fit_lines, height, side_by_side
from stich.cli.skat_input import options_text
from stich.cli.skat_render import CardStyle, game_title, group_hand, result_lines, sort_hand
from stich.skat import HOLD, PASS, Bid, Declare, GameType
from stich.skat.actions import GRAND_HAND, RE, SCHIEBEN, Simple
from stich.skat.ending import EarlyEnd
from stich.skat.outcome import SkatOutcome
from stich.skat.view import SkatView
from stich.skat_list import words

__all__ = ["Seating", "SkatScreen"]

WIDE = 120  # from this many columns the log of events stands beside the table


@dataclass(frozen=True)
class Seating:
    """The table of one game: names by position (0 Vorhand … 2 Hinterhand, the dealer),
    the person's position when the texts address them as "Du" (else -1), the person's
    position in any case (-1: bots only, or the person sits this game out), the game's
    number and the rules' name; at a table of four the ``dealer`` who sits the game out
    (empty at three: the dealer is Hinterhand)."""

    names: tuple[str, str, str]
    you: int = -1
    person: int = -1
    number: int = 1
    total: int = 1
    rules: str = ""
    dealer: str = ""


class SkatScreen:
    """The person's screen pieces for one game; ``numbers`` are the cards as numbered in
    the hand last drawn (the input reads numbers by them)."""

    def __init__(self, tr: Translator, style: CardStyle, console: Console) -> None:
        self.tr = tr
        self.style = style
        self.console = console
        self.seating = Seating(("", "", ""))
        self.numbers: list[Card] = []

    # --- small pieces ------------------------------------------------------------------

    def name(self, seat: int) -> str:
        return escape(self.seating.names[seat])

    def header(self) -> str:
        s = self.seating
        dealer = escape(s.dealer) if s.dealer else self.name(2)
        return self.tr("game_header", n=s.number, total=s.total, dealer=dealer,
                       rules=s.rules)

    def card(self, index: int, *, colour: bool = True) -> str:
        return self.style.name(CARDS[index], colour=colour)

    def bid_word(self, word: str) -> str:
        return {"pass": self.tr("w_pass"), "hold": self.tr("w_hold")}.get(word, word)

    def describe(self, mask: int, game: GameType | None = None) -> str:
        """Cards for a message: with their number in the listing, by name and code."""
        out = []
        for c in sort_hand(mask, game):
            name = f"{self.style.name(c, colour=False)} ({c})"
            out.append(f"{self.numbers.index(c) + 1} {name}" if c in self.numbers else name)
        return ", ".join(out)

    def title(self, view: SkatView) -> str:
        c = view.contract
        assert c is not None
        title = game_title(self.style, c.game, hand=c.hand, ouvert=c.ouvert,
                           schneider=c.schneider, schwarz=c.schwarz)
        return title + " Revolution" if c.revolution else title

    def trick_text(self, leader: int, cards: Sequence[int], label: str) -> str:
        played = " · ".join(f"{self.name((leader + i) % 3)} {self.card(c)}"
                            for i, c in enumerate(cards))
        return f"{label}: {played}"

    def finished_trick(self, view: SkatView, k: int, label_key: str) -> str:
        """The trick ``k`` (negative from the end) with who took it."""
        leader, cards, winner = view.tricks[k]
        n = len(view.tricks) + k + 1 if k < 0 else k + 1
        points = card_points(sum(1 << c for c in cards))
        took = self.tr("trick_to", name=self.name(winner), points=points)
        return f"{self.trick_text(leader, cards, self.tr(label_key, n=n))} → {took}"

    # --- the parts of a screen ---------------------------------------------------------

    def bidding_line(self, view: SkatView) -> str:
        said = ", ".join(f"{self.name(s)} {self.bid_word(w)}" for s, w in view.bidding)
        return f"[bold]{self.tr('bidding')}:[/] {said or self.tr('nobody_bid')}"

    def game_line(self, view: SkatView) -> str | None:
        """The game and the card points taken so far (as this seat knows them)."""
        if view.game is None:
            return None
        points = view.points_taken()
        if view.game is GameType.RAMSCH:
            pts = ", ".join(f"{self.name(s)} {points[s]}" for s in range(3))
            return f"[bold]{self.tr('ramsch_line', points=pts)}[/]"
        d = view.declarer
        if view.game is GameType.NULL:  # no points in Null: the tricks are in the table
            line = self.tr.subject("null_line", d == self.seating.you, name=self.name(d),
                                   game=self.title(view), bid=view.bid)
            return f"[bold]{line}[/]"
        line = self.tr.subject("game_line", d == self.seating.you, name=self.name(d),
                               game=self.title(view), bid=view.bid,
                               dp=view.declarer_points(), op=sum(points) - points[d])
        return f"[bold]{line}[/]"

    def ouvert_line(self, view: SkatView) -> str | None:
        if not view.ouvert_hand or view.declarer == view.seat:
            return None
        return self.tr("ouvert_cards", name=self.name(view.declarer),
                       cards=self.style.cards(view.ouvert_hand, view.game))

    def partner_line(self, view: SkatView) -> str | None:
        """A Revolution: the partner's cards, which a defender sees."""
        if not view.partner_hand or view.seat is None or view.declarer < 0:
            return None
        return self.tr("partner_cards", name=self.name(self.partner(view)),
                       cards=self.style.cards(view.partner_hand, view.game))

    @staticmethod
    def partner(view: SkatView) -> int:
        """The other defender's position (the seat must be a defender)."""
        return 3 - view.seat - view.declarer

    def last_trick_line(self, view: SkatView) -> str | None:
        return self.finished_trick(view, -1, "last_trick") if view.tricks else None

    def current_trick_line(self, view: SkatView) -> str:
        n = len(view.tricks) + 1
        played = " · ".join(f"{self.name(s)} {self.card(c)}" for s, c in view.trick)
        return f"[bold]{self.tr('current_trick', n=n)}:[/] {played or self.tr('you_lead')}"

    def skat_seen_line(self, view: SkatView) -> str | None:
        if view.phase != "DISCARD" or not view.skat_seen:
            return None
        return self.tr("skat_seen", cards=self.style.cards(view.skat_seen))

    def seats_table(self, view: SkatView) -> Table:
        """A row per player: position (the dealer marked), name (the one to move with an
        arrow), what they said in the auction, and once the cards are played their tricks
        (points) and their card in the current trick."""
        tr = self.tr
        playing = view.game is not None
        table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1))
        for head in (tr("col_seat"), tr("col_player"), tr("col_bids")):
            table.add_column(head)
        if playing:
            table.add_column(tr("col_tricks"), justify="right")
            if view.phase == "PLAY":
                table.add_column(tr("current_trick", n=len(view.tricks) + 1))
        said: dict[int, list[str]] = {0: [], 1: [], 2: []}
        for s, word in view.bidding:
            said[s].append(self.bid_word(word))
        in_trick = dict(view.trick)
        points = view.points_taken()
        out = self.seating.dealer  # at a table of four: the dealer who sits out
        for seat in range(3):
            marked = seat == 2 and not out
            pos = tr("pos", seat=seat) + (f" ({tr('dealer_mark')})" if marked else "")
            name = self.name(seat)
            name = f"[bold]→ {name}[/]" if seat == view.to_move else f"  {name}"
            row = [pos, name, " ".join(said[seat]) or "–"]
            if playing:
                row.append(f"{view.tricks_won[seat]} ({points[seat]})")
                if view.phase == "PLAY":
                    row.append(self.card(in_trick[seat]) if seat in in_trick else "")
            table.add_row(*row)
        if out:
            table.add_row(f"({tr('dealer_mark')})", f"  {escape(out)}",
                          words(tr.lang)["sat_out"])
        return table

    def hand(self, view: SkatView) -> RenderableType:
        """The hand in groups (trumps, then the side suits), every card numbered; the
        cards that may not be played now dimmed."""
        tr = self.tr
        game = view.game
        playable = view.hand
        if view.phase == "PLAY":
            playable = sum(a.bit for a in view.legal_actions if isinstance(a, Card))
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="bold", no_wrap=True)
        grid.add_column()
        self.numbers = []
        trump_label = self.style.jacks() if game in (None, GameType.GRAND, GameType.RAMSCH) \
            else tr("trumps")
        for label, cards in group_hand(view.hand, game):
            shown: list[Text] = []
            for c in cards:
                self.numbers.append(c)
                n = len(self.numbers)
                name = self.style.name(c) if label is None else self.style.rank(c)
                shown.append(Text.from_markup(f"[bold]{n}[/] {name}" if playable & c.bit
                                              else f"[dim]{n} {name}[/]"))
            head = trump_label if label is None else self.style.suit(label)
            grid.add_row(head, Columns(shown, padding=(0, 3)))
        return Group(f"[bold]{tr('your_hand')}[/]", grid)

    def declare_options(self, view: SkatView) -> str:
        """The games that may be declared, and the words that may follow them."""
        games: list[str] = []
        flags: list[str] = []
        for a in view.legal_actions:
            if not isinstance(a, Declare):
                continue
            word = self.game_word(a.game)
            if a.game is GameType.NULL and a.ouvert:
                word += " ouvert revolution" if a.revolution else " ouvert"
            elif a.schneider or a.schwarz or a.ouvert or a.spitze:
                flags += [f for f in ("schneider", "schwarz", "ouvert", "spitze")
                          if getattr(a, f) and f not in flags]
                continue
            if word not in games:
                games.append(word)
        text = ", ".join(games)
        if flags:
            text += " · " + self.tr("declare_extras", words=", ".join(flags))
        return text

    def game_word(self, game: GameType) -> str:
        return self.style.game(game).lower()

    def question(self, view: SkatView) -> str:
        tr = self.tr
        legal = view.legal_actions
        phase = view.phase
        if phase == "BIDDING" and GRAND_HAND in legal:
            return tr("q_ramsch_round")
        if phase == "SKAT" and SCHIEBEN in legal:
            return tr("q_schieben")
        if phase == "PLAY" and RE in legal:
            return tr("q_re")
        if phase == "PLAY" and view.declarer >= 0:  # Schenken's answers, a Revolution's give
            house = skat_house.question(view, tr, self.name(
                self.partner(view) if view.seat != view.declarer else view.declarer))
            if house is not None:
                return house
        if phase == "PLAY":
            extra = [str(a) for a in legal if a.__class__ is Simple]  # kontra, klopfen
            question = self._card_question(view)
            return question + (" " + tr("q_also", words=" / ".join(extra)) if extra else "")
        if phase == "BIDDING":
            if HOLD in legal:
                return tr("q_answer", name=self.name(view.bidding[-1][0]), value=view.bid)
            values = [a.value for a in legal if isinstance(a, Bid)]
            if view.to_move == 0 and view.bid == 0 and values == [18] and PASS in legal \
                    and len(view.bidding) >= 2:
                return tr("q_vorhand")
            shown = str(values[0]) if len(values) == 1 else f"{values[0]} … {values[-1]}"
            return tr("q_say", value=shown)
        if phase == "SKAT":
            return tr("q_skat", bid=view.bid)
        if phase == "DISCARD":
            return tr("q_discard", a=len(self.numbers) - 1, b=len(self.numbers))
        return tr("q_declare", games=escape(self.declare_options(view)))

    def _card_question(self, view: SkatView) -> str:
        tr = self.tr
        if view.tricks or view.trick:
            return tr("q_play_short")
        example = next(c for c in view.legal_actions if isinstance(c, Card))
        return tr("q_play", code=str(example), name=self.style.name(example, colour=False))

    def help_lines(self, view: SkatView) -> list[str]:
        if view.phase == "PLAY":
            opts = self.describe(sum(a.bit for a in view.legal_actions if isinstance(a, Card)),
                                 view.game)
        elif view.phase == "DECLARE":
            opts = self.declare_options(view)
        else:
            opts = options_text(view.legal_actions, self.tr, self.game_word)
        more = self.tr("help_more", codes="CJ, SA, HT = H10, D7", names=self.style.examples())
        lines = [f"{self.tr('help_title')}: {escape(opts)}", f"[dim]{escape(more)}[/]"]
        if view.claims:
            key = "help_claims" if len(view.claims) == 2 else "help_giveup"
            lines.append(f"[dim]{escape(self.tr(key))}[/]")
        gift = skat_house.help_line(view, self.tr)
        if gift:
            lines.append(f"[dim]{escape(gift)}[/]")
        return lines

    # --- whole screens -----------------------------------------------------------------

    def panel(self, view: SkatView) -> list[RenderableType]:
        """What the log prints at the person's turn."""
        out: list[RenderableType] = [""]
        if view.phase == "BIDDING":
            out.append(self.bidding_line(view))
        if view.phase == "PLAY":
            out += [x for x in (self.game_line(view), self.ouvert_line(view),
                                self.partner_line(view), self.last_trick_line(view)) if x]
            out.append(self.current_trick_line(view))
        out += [x for x in (self.skat_seen_line(view),) if x]
        out.append(self.hand(view))
        out.append(f"[cyan]{self.question(view)}[/]")
        return out

    def info_lines(self, view: SkatView) -> list[str]:
        """The lines between the seats and the hand on the table."""
        return [x for x in (self.game_line(view), self.ouvert_line(view),
                            self.partner_line(view), self.last_trick_line(view),
                            self.skat_seen_line(view)) if x]

    def table(self, view: SkatView, events: Sequence[Event], bottom: Sequence[RenderableType],
              *, result: Sequence[RenderableType] = (), aside: RenderableType | None = None,
              width: int, rows: int) -> list[RenderableType]:
        """The whole table fitted to ``width`` × ``rows`` (one line left for the prompt):
        the header, the seats, the game, the latest events as far as they fit, the hand
        (while the seat holds cards) or the ``result``, and ``bottom`` (messages and the
        question).  On a wide terminal the events stand beside the table, and ``aside``
        (the Skat list) goes under the hand when there is room."""
        head: RenderableType = Rule(Text.from_markup(f"[bold]{self.header()}[/]"))
        main: list[RenderableType] = [self.seats_table(view), *self.info_lines(view)]
        main += list(result) if result else ([self.hand(view)] if view.hand else [])
        shown = [e for e in events if e.trick]
        last = shown[-1] if shown and view.tricks else None  # in the info lines
        lines = [e.text for e in events if e is not last]
        if width >= WIDE:
            left_width = min(100, width // 2 + 10)
            room = rows - 1 - height(self.console, Group(head, *bottom), width)
            log = fit_lines(self.console, lines, width - left_width - 4, room)
            if aside is not None and not result:
                used = height(self.console, Group(*main, "", aside), left_width)
                if used <= room + 1:
                    main += ["", aside]
            left = Group(*main)
            body = side_by_side([_sized(left, left_width), Group(*log)])
            return [head, body, *bottom]
        fixed = [head, *main, *bottom]
        room = rows - 1 - sum(height(self.console, part, width) for part in fixed)
        log = fit_lines(self.console, lines, width, max(room, 0)) if room > 0 else []
        events_part: list[RenderableType] = [f"[dim]{line}[/]" for line in log]
        return [head, main[0], *events_part, *main[1:], *bottom]

    def result_lines(self, view: SkatView, outcome: SkatOutcome,
                     end: EarlyEnd | None = None) -> list[str]:
        """The result of a finished game, and the Skat (the view holds the whole deal
        once the game is over); for a game that ended early (``end``: a claim, giving
        up, a gift, a shortcut) the cards each player still held then."""
        names = (self.name(0), self.name(1), self.name(2))
        lines = result_lines(outcome, names, self.style, self.seating.you)
        house = skat_house.result_words(outcome, self.tr)  # Revolution, given away
        if house:
            lines.insert(1, f"[bold]{' · '.join(house)}[/]")
        if outcome.kind != "passed" and view.deal is not None:
            skat = self.tr("skat_was", cards=self.style.cards(view.deal[1], outcome.game))
            if view.discarded:
                skat += " · " + self.tr("skat_discarded",
                                        cards=self.style.cards(view.discarded, outcome.game))
            lines.append(skat)
        if end is not None:
            lines += self.held_lines(end, view)
        return lines

    def held_lines(self, end: EarlyEnd, view: SkatView) -> list[str]:
        """The cards each player still held when the game ended early, and those of the
        trick that lay open (all public: the game is over)."""
        tr = self.tr
        lines = [tr("held_at_end", how=tr(f"end_{end.reason}"))]
        for pos, held in enumerate(end.held):
            name = self.name(pos)
            lines.append(tr("held_cards", name=name, cards=self.style.cards(held, view.game))
                         if held else tr("held_none", name=name))
        if end.trick:
            cards = ", ".join(f"{self.name(p)} {self.style.name(CARDS[c])}" for p, c in end.trick)
            lines.append(tr("held_trick", cards=cards))
        return lines

    # --- telling what happened ---------------------------------------------------------

    def narrate(self, old: SkatView, new: SkatView, actor: int,
                action: str = "") -> list[Event]:
        """What ``actor``'s action did, told from two views of the same seat: before and
        after (a discard shows its cards only to the one who discarded); ``action``, the
        action's text, tells a claim and giving up apart (and the table's ``shortcut``:
        then ``actor`` is the seat that was to move)."""
        tr = self.tr
        you = self.seating.you
        name = self.name(actor)
        if action == "claim":
            key = "claims_rest" if new.phase == "OVER" and _claim_held(new) else "claim_wrong"
            return [Event(f"[bold]{tr(key, name=name)}[/]")]
        if action == "giveup":
            return [Event(f"[bold]{tr('gives_up', name=name)}[/]")]
        if action == "shortcut":  # the table ended the game: the rest was certain
            d = new.declarer
            to_declarer = new.tricks_won[d] > sum(1 for t in new.tricks if t[2] == d)
            key = "shortcut_declarer" if to_declarer else "shortcut_defenders"
            return [Event(f"[bold]{tr.subject(key, d == you, name=self.name(d))}[/]")]
        house = skat_house.narrate(old, new, name, action, tr, self._given(new, action))
        if house is not None:
            return [Event(f"[bold]{house}[/]")]
        if new.kontra >= 0 and old.kontra < 0:
            return [Event(f"[bold]{tr('says_kontra', name=name)}[/]")]
        if new.re and not old.re:
            return [Event(f"[bold]{tr('says_re', name=name)}[/]")]
        if new.knocks > old.knocks:
            return [Event(f"[bold]{tr('knocks', name=name)}[/]")]
        if old.phase == "BIDDING" and new.contract is not None:  # Grand Hand, Ramsch round
            line = tr.subject("declares", actor == you, name=name, game=self.title(new))
            return [Event(f"[bold]{line}[/]")]
        if old.phase == "BIDDING":
            return self._narrate_bid(old, new, actor)
        if old.phase == "SKAT" and new.pushes > old.pushes:
            return [Event(tr("pushes_skat", name=name))]
        if old.phase == "SKAT":
            key = "plays_hand" if new.phase == "DECLARE" else "picks_up"
            return [Event(tr.subject(key, actor == you, name=name))]
        if old.phase == "DISCARD":
            if actor == self.seating.person and actor == new.seat:
                return [Event(tr.subject("discards", True, name=name,
                                         cards=self.style.cards(new.discarded)))]
            return [Event(tr("discards_hidden", name=name))]
        if old.phase == "DECLARE" and new.contract is not None:
            line = tr.subject("declares", actor == you, name=name, game=self.title(new))
            out = [Event(f"[bold]{line}[/]")]
            if new.ouvert_hand and new.phase == "PLAY" and actor != new.seat:
                out.append(Event(tr("ouvert_cards", name=name, cards=self.style.cards(
                    new.ouvert_hand, new.game))))
            return out
        if old.phase == "PLAY" and len(new.tricks) > len(old.tricks):
            return [Event(self.finished_trick(new, -1, "current_trick"), trick=True)]
        return []

    def _given(self, view: SkatView, action: str) -> str | None:
        """A give's cards in words, when this seat may know them (a defender: they are
        in his hand or his partner's now); None for the declarer."""
        if not action.startswith("give") or view.seat == view.declarer:
            return None
        mask = 0
        for code in action.split()[1:]:
            mask |= Card.parse(code).bit
        if mask & ~(view.hand | view.partner_hand):
            return None
        return self.style.cards(mask, view.game) if mask else ""

    def _narrate_bid(self, old: SkatView, new: SkatView, actor: int) -> list[Event]:
        tr = self.tr
        you = self.seating.you
        name = self.name(actor)
        word = new.bidding[-1][1]
        if word == "hold":
            out = [Event(tr("holds", name=name))]
        elif word == "pass":
            out = [Event(tr("passes", name=name))]
        else:
            key = "vorhand_plays" if actor == 0 and old.bid == 0 else "says"
            out = [Event(tr.subject(key, actor == you, name=name, value=word))]
        if new.phase == "SKAT":
            won = tr.subject("won_auction", new.declarer == you,
                             name=self.name(new.declarer), bid=new.bid)
            out.append(Event(f"[bold]{won}[/]"))
        elif new.game is GameType.RAMSCH:
            out.append(Event(f"[bold]{tr('all_passed_ramsch')}[/]"))
        elif new.phase == "OVER":
            out.append(Event(f"[bold]{tr('all_passed_redeal')}[/]"))
        return out


def _claim_held(view: SkatView) -> bool:
    """Whether a claim that ended the game was right: the cards still in play went to
    the declarer (Null: to the defenders)."""
    d = view.declarer
    if d < 0:
        return False
    played = sum(1 for _, _, winner in view.tricks if winner == d)
    got_rest = view.tricks_won[d] > played
    return not got_rest if view.game is GameType.NULL else got_rest


def _sized(renderable: RenderableType, width: int) -> Table:
    """A renderable held to ``width`` columns."""
    grid = Table.grid()
    grid.add_column(width=width)
    grid.add_row(renderable)
    return grid
