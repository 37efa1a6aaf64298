"""What the person at the Baptistenskat table is shown, drawn from their
:class:`BaptistenView` only.

Every function here takes a view (what one seat may know), never a state.  The same
pieces make the plain log and the fixed table of a real terminal
(:meth:`BaptistenScreen.table`): the round, the trump, the deck and the variants; a row
per player in seat order with their bid and stake, tricks, card in the current trick,
total and the 40s still owed; the latest events; the hand sorted with the trump first;
the question.  From seven players on a narrow terminal the rows stand in two columns.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.markup import escape
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from stich.baptisten import BaptistenRules
from stich.baptisten.actions import BBid
from stich.baptisten.state import RoundResult
from stich.baptisten.view import BaptistenView
from stich.bots.baptisten import trick_winner
from stich.cards import PlainCard, bits
from stich.cli.baptisten_input import ranges
from stich.cli.baptisten_render import PlainStyle, deck_title, group_hand, variants_title
from stich.cli.i18n import Translator
from stich.cli.screen import Event, fit_lines, height, side_by_side

__all__ = ["BaptistenScreen"]

WIDE = 120  # from this many columns the log of events stands beside the table


class BaptistenScreen:
    """The person's screen pieces for one game; ``numbers`` are the cards as numbered in
    the hand last drawn (the input reads numbers by them)."""

    def __init__(self, tr: Translator, style: PlainStyle, rules: BaptistenRules,
                 console: Console, names: Sequence[str], *, you: int = -1,
                 person: int = -1) -> None:
        self.tr = tr
        self.style = style
        self.rules = rules
        self.console = console
        self.names = list(names)
        self.you = you
        self.person = person
        self.deck = rules.card_deck
        self.schedule = rules.schedule()
        self.numbers: list[PlainCard] = []

    # --- small pieces ------------------------------------------------------------------

    def name(self, seat: int) -> str:
        return escape(self.names[seat])

    def card(self, index: int, *, colour: bool = True) -> str:
        return self.style.name(self.deck.cards[index], colour=colour)

    def describe(self, mask: int) -> str:
        """Cards for a message: with their number in the listing, by name and code."""
        out = []
        for c in sorted((self.deck.cards[i] for i in bits(mask)),
                        key=lambda c: self.numbers.index(c) if c in self.numbers else 99):
            name = f"{self.style.name(c, colour=False)} ({c})"
            out.append(f"{self.numbers.index(c) + 1} {name}" if c in self.numbers else name)
        return ", ".join(out)

    def title(self) -> str:
        r = self.rules
        return self.tr("b_title", players=r.players, rounds=len(self.schedule),
                       max=r.max_cards)

    def deck_line(self) -> str:
        return self.tr("b_deck_line", deck=deck_title(self.deck, self.tr),
                       variants=variants_title(self.rules.variants, self.tr))

    def round_header(self, view: BaptistenView | RoundResult) -> str:
        """``Runde 3 von 19 · 3 Karten · beginnt: Kurt`` (of a view's round or of a
        finished one)."""
        if isinstance(view, RoundResult):
            r, k = view.round, view.cards
        else:
            r, k = view.round_no, view.cards
        return self.tr("b_round_header", r=r, total=len(self.schedule), k=k,
                       first=self.name(view.first))

    def trump_line(self, view: BaptistenView) -> str:
        if view.trump < 0:
            return f"[bold]{self.tr('b_no_trump')}[/]"
        whole = (view.cards * self.rules.players >= self.deck.size
                 and self.rules.trump_card == "baptisten")
        key = "b_trump_drawn" if whole else "b_trump"
        return "[bold]" + self.tr(key, suit=self.style.suit(view.trump),
                                  card=self.card(view.trump_card)) + "[/]"

    def trump_suit_line(self, rr: RoundResult) -> str:
        """The trump of a finished round (its suit)."""
        if rr.trump < 0:
            return f"[bold]{self.tr('b_no_trump')}[/]"
        return f"[bold]{self.tr('b_trump_suit', suit=self.style.suit(rr.trump))}[/]"

    def bid_text(self, view: BaptistenView, seat: int) -> str:
        tricks, stake = view.bids[seat], view.stakes[seat]
        if stake is None:
            return self.tr("b_bid_ts", tricks=tricks)
        text = self.tr("b_bid", tricks=tricks, stake=stake)
        if view.forced[seat]:
            text += f" ([red]{self.tr('b_bid_forced')}[/])"
        return text

    def bid_short(self, view: BaptistenView, seat: int) -> str:
        """``2/5``, ``2/40!`` (forced), ``2`` (no stakes), ``–`` (not yet)."""
        tricks, stake = view.bids[seat], view.stakes[seat]
        if tricks < 0:
            return "–"
        if stake is None:
            return str(tricks)
        return f"{tricks}/[bold red]40![/]" if view.forced[seat] else f"{tricks}/{stake}"

    def order(self, view: BaptistenView) -> list[int]:
        """The seats in the round's order, from the first player."""
        n = len(self.names)
        return [(view.first + i) % n for i in range(n)]

    def trick_text(self, label: str, leader: int, cards: Sequence[int], winner: int) -> str:
        n = len(self.names)
        played = " · ".join(f"{self.name((leader + i) % n)} {self.card(c)}"
                            for i, c in enumerate(cards))
        return self.tr("b_trick_line", label=label, cards=played, name=self.name(winner))

    def owes_forties(self, view: BaptistenView) -> bool:
        return self.rules.forties_required > 0 and any(view.owed_now())

    # --- the parts of a screen ---------------------------------------------------------

    def bids_line(self, view: BaptistenView) -> str:
        said = [f"{self.name(p)} {self.bid_text(view, p)}" for p in self.order(view)
                if view.bids[p] >= 0]
        return f"[bold]{self.tr('b_bids')}:[/] {' · '.join(said) or self.tr('b_nobody')}"

    def standing_line(self, view: BaptistenView) -> str:
        standing = " · ".join(f"{self.name(p)} {view.bids[p]}/{view.tricks_won[p]}"
                              for p in self.order(view))
        return f"[bold]{self.tr('b_standing')}:[/] {standing}"

    def owed_line(self, view: BaptistenView) -> str | None:
        """The 40s each player still owes, counting those staked in this round."""
        if not self.owes_forties(view):
            return None
        owed = " · ".join(f"{self.name(p)} {o}" for p, o in enumerate(view.owed_now()))
        return f"{self.tr('b_owed')}: {owed}"

    def hooked_line(self, view: BaptistenView) -> str | None:
        if view.phase != "BIDDING" or view.hooked is None:
            return None
        return f"[yellow]{self.tr('b_hooked', bid=view.hooked, k=view.cards)}[/]"

    def current_trick_line(self, view: BaptistenView) -> str:
        current = " · ".join(f"{self.name(s)} {self.card(c)}" for s, c in view.trick)
        label = self.tr("b_trick", n=len(view.round_tricks) + 1)
        return f"[bold]{label}:[/] {current or self.tr('b_you_lead')}"

    def forehead_lines(self, view: BaptistenView) -> list[str]:
        others = " · ".join(f"{self.name(p)} {self.card(c)}" for p in self.order(view)
                            if p != view.seat for c in bits(view.others[p]))
        head = f"[bold]{self.tr('b_forehead')}[/]"
        return [head, f"{self.tr('b_others_cards')}: {others}"] if others else [head]

    def hand(self, view: BaptistenView) -> RenderableType:
        """The hand by suit with the trump first, every card numbered; the cards that may
        not be played now dimmed."""
        playable = view.hand
        if view.phase == "PLAY":
            playable = sum(a.bit for a in view.legal_actions if isinstance(a, PlainCard))
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="bold", no_wrap=True)
        grid.add_column()
        self.numbers = []
        for suit, cards in group_hand(view.hand, self.deck, view.trump):
            shown: list[Text] = []
            for c in cards:
                self.numbers.append(c)
                k = len(self.numbers)
                cell = f"[bold]{k})[/] {self.style.rank(c)}" if playable & c.bit \
                    else f"[dim]{k}) {self.style.rank(c)}[/]"
                shown.append(Text.from_markup(cell))
            head = self.style.suit(suit)
            if suit == view.trump and suit >= 0:
                head += f" ({self.tr('trumps')})"
            grid.add_row(head, Columns(shown, padding=(0, 3)))
        return Group(f"[bold]{self.tr('b_your_hand')}[/]", grid)

    def seats(self, view: BaptistenView, *, result: RoundResult | None = None,
              split: bool = False) -> RenderableType:
        """A row per player in seat order: number, name (the one to move with an arrow),
        bid, tricks, card in the current trick, total, 40s owed; with ``result`` the
        round's score instead of the card.  ``split``: the rows in two columns, with the
        scoresheet's short column names."""
        n = len(self.names)
        if not split:
            return self._seats_table(view, range(n), result, short=False)
        half = -(-n // 2)
        return side_by_side([self._seats_table(view, range(half), result, short=True),
                             self._seats_table(view, range(half, n), result, short=True)],
                            gap=2)

    def _seats_table(self, view: BaptistenView, seats: Sequence[int],
                     result: RoundResult | None, *, short: bool) -> Table:
        """The rows of ``seats``; ``short``: the scoresheet's column names, the cards by
        their codes and one space between the columns (for two tables side by side)."""
        tr = self.tr
        owed = self.owes_forties(view) and result is None
        padding = (0, 1, 0, 0) if short else (0, 1)
        table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=padding)
        table.add_column(tr("b_seat_no"), justify="right", no_wrap=True)
        table.add_column(tr("b_seat_name"), no_wrap=True, max_width=8 if short else 14)
        table.add_column(tr("b_col_bid" if short else "b_seat_bid"), justify="right",
                         no_wrap=True)
        table.add_column(tr("b_col_tricks" if short else "b_seat_tricks"), justify="right",
                         no_wrap=True)
        if result is not None:
            table.add_column(tr("b_seat_score"), justify="right", no_wrap=True)
        elif view.phase == "PLAY":
            head = tr("b_seat_card_short") if short \
                else tr("b_seat_card", n=len(view.round_tricks) + 1)
            table.add_column(head, no_wrap=True)
        table.add_column(tr("b_col_total" if short else "b_seat_total"), justify="right",
                         no_wrap=True)
        if owed:
            table.add_column(tr("b_seat_owed"), justify="right", no_wrap=True)
        in_trick = dict(view.trick)
        for p in seats:
            name = self.name(p)
            moving = p == view.to_move and result is None
            name = f"[bold]→ {name}[/]" if moving else f"  {name}"
            if result is not None:
                exact = result.bids[p] == result.tricks[p]
                colour = "green" if exact else "red"
                row = [str(p + 1), name, str(result.bids[p]),
                       f"[{colour}]{result.tricks[p]}[/]",
                       f"[{colour}]{result.scores[p]:+d}[/]", str(result.totals[p])]
            else:
                row = [str(p + 1), name, self.bid_short(view, p)]
                row.append(str(view.tricks_won[p]) if view.phase == "PLAY" else "")
                if view.phase == "PLAY":
                    row.append(self._trick_card(in_trick.get(p), short))
                row.append(str(view.totals[p]))
                if owed:
                    row.append(str(view.owed_now()[p]))
            table.add_row(*row)
        return table

    def _trick_card(self, index: int | None, short: bool) -> str:
        if index is None:
            return ""
        if not short:
            return self.card(index)
        c = self.deck.cards[index]
        return f"[{self.style.colour(c.suit)}]{c.code}[/]"

    def question(self, view: BaptistenView) -> str:
        tr = self.tr
        k = view.cards
        if view.phase == "BIDDING":
            bids = [a for a in view.legal_actions if isinstance(a, BBid)]
            t = next(x for x in (1, 0, 2, *range(k + 1)) if x <= k and x != view.hooked)
            if self.rules.trick_scoring:
                return tr("b_q_bid_ts", k=k, ex=str(t))
            if bids and all(b.stake == 40 for b in bids):
                left = sum(1 for c in self.schedule[view.round_no - 1:] if c >= 3)
                forced = tr("b_forced_now", owed=view.owed[view.seat], left=left)
                return f"[bold red]{forced}[/]\n" + tr("b_q_bid_forced", k=k, ex=f"{t} 40")
            forty = tr("b_or40") if any(b.stake == 40 for b in bids) else ""
            return tr("b_q_bid", k=k, forty=forty, ex=f"{t} 5", t=t, s=5)
        if not view.hand:
            return tr("b_q_forehead")
        example = next(c for c in view.legal_actions if isinstance(c, PlainCard))
        return tr("b_q_play", code=example.code, name=self.style.name(example, colour=False))

    def help_lines(self, view: BaptistenView) -> list[str]:
        tr = self.tr
        if view.phase == "BIDDING":
            bids = [a for a in view.legal_actions if isinstance(a, BBid)]
            tricks = ranges(sorted({b.tricks for b in bids}))
            stakes = sorted({b.stake for b in bids if b.stake is not None})
            if self.rules.trick_scoring:
                opts = tr("b_help_bids_ts", tricks=tricks)
            else:
                stake_text = ranges([s for s in stakes if s != 40])
                if 40 in stakes:
                    stake_text = f"{stake_text}, 40" if stake_text else "40"
                opts = tr("b_help_bids", tricks=tricks, stakes=stake_text or "–")
        elif not view.hand:
            opts = "play"
        else:
            opts = self.describe(sum(a.bit for a in view.legal_actions
                                     if isinstance(a, PlainCard)))
        codes = ", ".join(c.code for c in (self.deck.cards[0], self.deck.cards[-1]))
        example = self.style.name(self.deck.cards[-1], colour=False)
        key = "b_help_more_ts" if self.rules.trick_scoring else "b_help_more"
        return [f"{tr('help_title')}: {escape(opts)}",
                f"[dim]{escape(tr(key, codes=codes, name=example))}[/]"]

    # --- whole screens -----------------------------------------------------------------

    def panel(self, view: BaptistenView) -> list[RenderableType]:
        """What the log prints at the person's turn."""
        out: list[RenderableType] = [""]
        if view.phase == "PLAY" or any(b >= 0 for b in view.bids):
            out.append(self.trump_line(view))  # else the round header just showed it
        if view.phase == "BIDDING":
            out.append(self.bids_line(view))
            out += [x for x in (self.hooked_line(view),) if x]
        else:
            out.append(self.standing_line(view))
        out += [x for x in (self.owed_line(view),) if x]
        if view.phase == "PLAY":
            out.append(self.current_trick_line(view))
        if view.forehead:
            out += self.forehead_lines(view)
        else:
            out.append(self.hand(view))
        out.append(f"[cyan]{self.question(view)}[/]")
        return out

    def table(self, view: BaptistenView, events: Sequence[Event],
              bottom: Sequence[RenderableType], *, result: RoundResult | None = None,
              extra: Sequence[RenderableType] = (), aside: RenderableType | None = None,
              width: int, rows: int) -> list[RenderableType]:
        """The whole table fitted to ``width`` × ``rows`` (one line left for the prompt):
        the round and trump, the players, the latest events as far as they fit, the hand
        (or, at the end of a round, its ``result`` and ``extra`` lines), and ``bottom``.
        On a wide terminal the events stand beside the table, and ``aside`` (the
        scoresheet) goes under the hand when there is room."""
        head: list[RenderableType] = [
            Rule(Text.from_markup(f"[bold]{self.round_header(result or view)}[/]")),
            self.trump_line(view) if result is None else self.trump_suit_line(result),
            f"[dim]{self.deck_line()}[/]"]
        notes: list[RenderableType] = []
        if result is None:
            notes += [x for x in (self.hooked_line(view),) if x]
            if view.forehead:
                notes += self.forehead_lines(view)
            elif view.hand:
                notes.append(self.hand(view))
        notes += list(extra)
        lines = [e.text for e in events]
        wide = width >= WIDE
        for split in (False, True):
            seats = self.seats(view, result=result, split=split)
            fixed = [*head, seats, *notes, *bottom]
            used = sum(height(self.console, part, width if not wide else width // 2 + 10)
                       for part in fixed)
            if used < rows or len(self.names) < 7 or wide:
                break
        if wide:
            left_width = min(100, width // 2 + 10)
            room = rows - 1 - height(self.console, Group(*head, *bottom), width)
            log = fit_lines(self.console, lines, width - left_width - 4, room)
            main: list[RenderableType] = [seats, *notes]
            if aside is not None:
                used = height(self.console, Group(*main, "", aside), left_width)
                if used <= room + 1:
                    main += ["", aside]
            left = Table.grid()
            left.add_column(width=left_width)
            left.add_row(Group(*main))
            return [*head, side_by_side([left, Group(*log)]), *bottom]
        room = rows - 1 - used
        log = fit_lines(self.console, lines, width, room) if room > 0 else []
        return [*head, seats, *[f"[dim]{line}[/]" for line in log], *notes, *bottom]

    def ranking_line(self, ranking: Sequence[tuple[int, int, int]]) -> str:
        """The final ranking in a line: ``Endstand: 1. Otto 86 · 2. Helga 25 …``."""
        ranks = " · ".join(f"{place}. {self.name(p)} {total}" for p, total, place in ranking)
        return f"[bold]{self.tr('b_ranking')}:[/] {ranks}"

    def result_lines(self, rr: RoundResult) -> list[str]:
        out = []
        for p in range(len(self.names)):
            colour = "green" if rr.bids[p] == rr.tricks[p] else "red"
            out.append(f"[{colour}]" + self.tr("b_result", name=self.name(p), bid=rr.bids[p],
                                              tricks=rr.tricks[p], score=rr.scores[p]) + "[/]")
        return out

    # --- telling what happened ---------------------------------------------------------

    def narrate(self, old: BaptistenView, new: BaptistenView, actor: int,
                played: PlainCard | None) -> list[Event]:
        """What ``actor``'s action did, told from two views of the same seat; ``played``
        is the card the action put on the table (public from then on)."""
        if old.phase == "BIDDING":
            return [Event(self.tr("b_says", name=self.name(actor),
                                   bid=self.bid_text(new, actor)))]
        n = len(self.names)
        if old.phase != "PLAY" or played is None or len(old.trick) != n - 1:
            return []
        leader = old.trick[0][0] if old.trick else actor
        cards = (*(c for _, c in old.trick), played.index)
        winner = (leader + trick_winner(self.deck, cards, old.trump)) % n
        label = self.tr("b_trick", n=len(old.round_tricks) + 1)
        out = [Event(self.trick_text(label, leader, cards, winner), trick=True)]
        if new.round_no != old.round_no or new.phase == "OVER":
            out += [Event(line) for line in self.result_lines(new.sheet[-1])]
        return out
