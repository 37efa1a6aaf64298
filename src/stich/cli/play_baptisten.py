"""`stich play baptisten`: a whole game of Baptistenskat in the terminal, with bots.

The person sits at seat 0 with ``players − 1`` bots (or bots play alone with
``--bots P``).  Seat order is fixed; the seat that starts round 1 is drawn from the seed.
At the person's turn the panel shows the trump, the bids and stakes so far, the bid the
hook rule refuses, the 40s each player still owes, the current trick and the hand sorted
with trump first.  After every round the scoresheet (Anschreibezettel) is printed as a
table.  With ``--bots P --json`` only the scoresheet JSON of
:func:`stich.baptisten.scoring.scoresheet` is printed, nothing else.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from stich.baptisten import BaptistenRules, BaptistenState, BPhase, draw_first_player, scoresheet
from stich.baptisten.actions import BAction, BBid
from stich.baptisten.rules import variant_fields
from stich.bots.baptisten import BAPTISTEN_BOTS, BaptistenBot, make_baptisten_bot, trick_winner
from stich.cards import PLAIN_DECKS, PlainCard, bits
from stich.cli.app import play_app
from stich.cli.baptisten_input import interpret, ranges
from stich.cli.baptisten_render import (
    PlainStyle,
    group_hand,
    ranking_table,
    scoresheet_table,
)
from stich.cli.i18n import LANGS, Translator
from stich.cli.prompt import Quit, ask_until_valid

__all__ = ["BaptistenOptions", "BaptistenSession", "play_baptisten"]

# Fifteen names with fifteen different initials (the joker deck seats fifteen).
BOT_NAMES = ("Kurt", "Helga", "Otto", "Erna", "Paul", "Grete", "Fritz", "Lotte", "Mia",
             "Bernd", "Ida", "Susi", "Rudi", "Anna", "Willi")


@dataclass(frozen=True)
class BaptistenOptions:
    rules: BaptistenRules
    seed: int | None = None
    lang: str = "de"
    bots_only: bool = False
    bot: str = "heuristic"
    json: bool = False
    name: str = ""
    verbose: bool = False


class BaptistenSession:
    """One whole game at one table, shown on a Rich console."""

    def __init__(self, opts: BaptistenOptions, console: Console,
                 read: Callable[[str], str] | None = None) -> None:
        self.opts = opts
        self.console = console
        self.read = read if read is not None else self._read_line
        self.tr = Translator(opts.lang)
        rules = opts.rules
        self.style = PlainStyle(rules.card_deck, self.tr)
        n = rules.players
        self.person = -1 if opts.bots_only else 0
        if opts.bots_only:
            self.names = list(BOT_NAMES[:n])
        else:
            self.names = [opts.name or self.tr("you"), *BOT_NAMES[:n - 1]]
        master = random.Random(opts.seed)
        first, _ = draw_first_player(rules, master)  # highest card starts; ties draw again
        self.state = BaptistenState.new(rules, seed=master.getrandbits(32), first=first)
        self.bot_rng = random.Random(master.getrandbits(64))
        self.bots: dict[int, BaptistenBot] = {
            p: make_baptisten_bot(opts.bot) for p in range(n) if p != self.person
        }
        self.numbers: list[PlainCard] = []
        self.asking: BaptistenState | None = None

    # --- input and output ----------------------------------------------------------------

    def _read_line(self, prompt: str) -> str:
        """A line from stdin; piped input is echoed so that the log reads like a dialogue."""
        self.console.print(prompt, end="", highlight=False)
        line = input()
        if not sys.stdin.isatty():
            self.console.print(escape(line), highlight=False)
        return line

    @property
    def quiet(self) -> bool:
        return self.opts.json

    def say(self, text: str = "") -> None:
        if not self.quiet:
            self.console.print(text, highlight=False)

    def name(self, seat: int) -> str:
        return escape(self.names[seat])

    # --- the game ------------------------------------------------------------------------

    def run(self) -> None:
        try:
            self._play()
        except (Quit, KeyboardInterrupt) as q:  # Ctrl-C while the bots play, too
            self.say(str(q) if isinstance(q, Quit) else self.tr("bye"))
            if self.state.sheet:
                self.show_sheet()
            return
        if self.opts.json:
            typer.echo(json.dumps(scoresheet(self.state, self.names), ensure_ascii=False))
            return
        self.say(f"[bold]{self.tr('b_game_over')}[/]")
        self.show_sheet()
        self.console.print(ranking_table(self.state.outcome().ranking, self.names, self.tr))

    def _play(self) -> None:
        self.show_intro()
        round_shown = -1
        while not self.state.is_over:
            state = self.state
            if state.round_index != round_shown:
                round_shown = state.round_index
                self.show_round_header(state)
            seat = state.to_move
            bot = self.bots.get(seat)
            action = (self.ask(state) if bot is None
                      else bot.choose(state.view(seat), self.bot_rng))
            new = state.apply(action)
            self.narrate(state, new, seat, action)
            self.state = new

    # --- telling what happens ------------------------------------------------------------

    def show_intro(self) -> None:
        if self.quiet:
            return
        tr, rules = self.tr, self.opts.rules
        sched = rules.schedule()
        self.console.rule(Text(tr("b_title", players=rules.players, rounds=len(sched),
                                  max=rules.max_cards, deck=rules.deck), style="bold"))
        variants = ", ".join(str(v) for v in rules.variants) or tr("b_no_variants")
        self.say(tr("b_variants", list=variants))
        seats = " · ".join(f"{i + 1}. {self.name(p)}" for i, p in enumerate(range(rules.players)))
        self.say(tr("b_seating", names=seats, first=self.name(self.state.first)))

    def show_round_header(self, state: BaptistenState) -> None:
        if self.quiet:
            return
        tr = self.tr
        k = state.cards
        self.say()
        self.console.rule(Text(tr("b_round_header", r=state.round_no,
                                  total=len(state.rules.schedule()), k=k,
                                  cards=tr("b_card_one" if k == 1 else "b_card_many"),
                                  first=self.names[state.first])))
        self.say(self.trump_line(state))

    def trump_line(self, state: BaptistenState) -> str:
        tr = self.tr
        card = state.trump_card
        if state.trump < 0:
            return f"[bold]{tr('b_no_trump')}[/]"
        whole = (state.cards * state.players >= state.deck.size
                 and state.rules.trump_card == "baptisten")
        key = "b_trump_drawn" if whole else "b_trump"
        return "[bold]" + tr(key, suit=self.style.suit(state.trump),
                             card=self.style.name(card)) + "[/]"

    def bid_text(self, state: BaptistenState, seat: int) -> str:
        tr = self.tr
        tricks, stake = state.bids[seat], state.stakes[seat]
        if stake is None:
            return tr("b_bid_ts", tricks=tricks)
        text = tr("b_bid", tricks=tricks, stake=stake)
        if state.forced[seat]:
            text += f" ([red]{tr('b_bid_forced')}[/])"
        return text

    def narrate(self, old: BaptistenState, new: BaptistenState, seat: int,
                action: BAction) -> None:
        if self.quiet:
            return
        tr = self.tr
        if old.phase is BPhase.BIDDING and isinstance(action, BBid):
            self.say(tr("b_says", name=self.name(seat), bid=self.bid_text(new, seat)))
            return
        n = old.players
        if old.phase is not BPhase.PLAY or len(old.trick) != n - 1:
            return
        card = action if isinstance(action, PlainCard) else \
            old.deck.cards[old.hands[seat].bit_length() - 1]
        cards = (*old.trick, card.index)
        winner = (old.leader + trick_winner(old.deck, cards, old.trump)) % n
        if not self.opts.bots_only or self.opts.verbose:
            label = tr("b_trick", n=len(old.round_tricks) + 1)
            self.say(self.trick_line(label, old.leader, cards, winner))
        if new.round_index != old.round_index or new.is_over:
            self.show_round_result(new)

    def trick_line(self, label: str, leader: int, cards: tuple[int, ...], winner: int) -> str:
        n = len(self.names)
        played = " · ".join(f"{self.name((leader + i) % n)} "
                            f"{self.style.name(self.opts.rules.card_deck.cards[c])}"
                            for i, c in enumerate(cards))
        return self.tr("b_trick_line", label=label, cards=played, name=self.name(winner))

    def show_round_result(self, state: BaptistenState) -> None:
        rr = state.sheet[-1]
        for p in range(len(self.names)):
            colour = "green" if rr.bids[p] == rr.tricks[p] else "red"
            self.say(f"[{colour}]" + self.tr("b_result", name=self.name(p), bid=rr.bids[p],
                                             tricks=rr.tricks[p], score=rr.scores[p]) + "[/]")
        if not self.opts.bots_only and not state.is_over:
            self.show_sheet(state)

    def show_sheet(self, state: BaptistenState | None = None) -> None:
        if self.quiet:
            return
        self.say()
        sheet = (state or self.state).sheet
        self.console.print(scoresheet_table(sheet, self.names, self.style,
                                            stakes=not self.opts.rules.trick_scoring,
                                            width=self.console.width))

    # --- the person's turn ---------------------------------------------------------------

    def ask(self, state: BaptistenState) -> BAction:
        self.asking = state
        self.show_panel(state)
        return ask_until_valid(
            self.read, self.say, self.tr, lambda: self.show_help(state),
            lambda text: interpret(text, state, self.numbers, self.tr, self.describe))

    def describe(self, mask: int) -> str:
        """Cards for a message: with their number in the listing, by name and code."""
        out = []
        for c in sorted((self.opts.rules.card_deck.cards[i] for i in bits(mask)),
                        key=lambda c: self.numbers.index(c) if c in self.numbers else 99):
            name = f"{self.style.name(c, colour=False)} ({c})"
            out.append(f"{self.numbers.index(c) + 1} {name}" if c in self.numbers else name)
        return ", ".join(out)

    def show_help(self, state: BaptistenState) -> None:
        tr = self.tr
        if state.phase is BPhase.BIDDING:
            bids = [a for a in state.legal_actions() if isinstance(a, BBid)]
            tricks = ranges(sorted({b.tricks for b in bids}))
            stakes = sorted({b.stake for b in bids if b.stake is not None})
            stake_text = ranges([s for s in stakes if s != 40])
            if 40 in stakes:
                stake_text = f"{stake_text}, 40" if stake_text else "40"
            opts = tr("b_help_bids", tricks=tricks, stakes=stake_text or "–")
        elif state.is_forehead_round:
            opts = "play"
        else:
            opts = self.describe(state.legal_cards())
        self.say(f"{tr('help_title')}: {escape(opts)}")
        deck = self.opts.rules.card_deck
        codes = ", ".join(c.code for c in (deck.cards[0], deck.cards[-1]))
        example = self.style.name(deck.cards[-1], colour=False)
        self.say(f"[dim]{escape(tr('b_help_more', codes=codes, name=example))}[/]")

    def show_panel(self, state: BaptistenState) -> None:
        tr = self.tr
        seat = state.to_move
        view = state.view(seat)
        n = state.players
        self.say()
        if state.phase is BPhase.PLAY or any(b >= 0 for b in state.bids):
            self.say(self.trump_line(state))  # else the round header just showed it
        order = [(state.first + i) % n for i in range(n)]
        if state.phase is BPhase.BIDDING:
            said = [f"{self.name(p)} {self.bid_text(state, p)}" for p in order
                    if state.bids[p] >= 0]
            self.say(f"[bold]{tr('b_bids')}:[/] {' · '.join(said) or tr('b_nobody')}")
            if view.hooked is not None:
                self.say(f"[yellow]{tr('b_hooked', bid=view.hooked, k=state.cards)}[/]")
        else:
            standing = " · ".join(f"{self.name(p)} {state.bids[p]}/{state.tricks_won[p]}"
                                  for p in order)
            self.say(f"[bold]{tr('b_standing')}:[/] {standing}")
        if state.rules.forties_required and any(state.owed):
            owed = " · ".join(f"{self.name(p)} {state.owed[p]}" for p in range(n))
            self.say(f"{tr('b_owed')}: {owed}")
        if state.phase is BPhase.PLAY:
            current = " · ".join(
                f"{self.name((state.leader + i) % n)} "
                f"{self.style.name(state.deck.cards[c])}" for i, c in enumerate(state.trick)
            ) or tr("b_you_lead")
            label = tr("b_trick", n=len(state.round_tricks) + 1)
            self.say(f"[bold]{label}:[/] {current}")
        if view.hand == 0 and state.is_forehead_round:
            self.numbers = []
            self.say(f"[bold]{tr('b_forehead')}[/]")
            others = " · ".join(f"{self.name(p)} {self.style.name(state.deck.cards[c])}"
                                for p in order if p != seat for c in bits(view.others[p]))
            self.say(f"{tr('b_others_cards')}: {others}")
        else:
            playable = state.legal_cards() if state.phase is BPhase.PLAY else view.hand
            self._show_hand(view.hand, state.trump, playable)
        self.say(f"[cyan]{self._question(state)}[/]")

    def _show_hand(self, hand: int, trump: int, playable: int) -> None:
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="bold")
        grid.add_column()
        self.numbers = []
        for suit, cards in group_hand(hand, self.opts.rules.card_deck, trump):
            shown = []
            for c in cards:
                self.numbers.append(c)
                k = len(self.numbers)
                cell = f"[bold]{k})[/] {self.style.rank(c)}" if playable & c.bit \
                    else f"[dim]{k}) {self.style.rank(c)}[/]"
                shown.append(cell)
            head = self.style.suit(suit)
            if suit == trump and suit >= 0:
                head += f" ({self.tr('trumps')})"
            grid.add_row(head, "   ".join(shown))
        if not self.quiet:
            self.console.print(f"[bold]{self.tr('b_your_hand')}[/]")
            self.console.print(grid)

    def _question(self, state: BaptistenState) -> str:
        tr = self.tr
        k = state.cards
        if state.phase is BPhase.BIDDING:
            seat = state.to_move
            hooked = state.hooked_bid()
            t = next(x for x in (1, 0, 2) if x <= k and x != hooked)
            if state.rules.trick_scoring:
                return tr("b_q_bid_ts", k=k, ex=str(t))
            if state.must_stake_40(seat):
                left = sum(1 for c in state.rules.schedule()[state.round_index:] if c >= 3)
                forced = tr("b_forced_now", owed=state.owed[seat], left=left)
                return f"[bold red]{forced}[/]\n" + tr("b_q_bid_forced", k=k, ex=f"{t} 40")
            forty = tr("b_or40") if state.owed[seat] and k >= 3 else ""
            return tr("b_q_bid", k=k, forty=forty, ex=f"{t} 5", t=t, s=5)
        if state.is_forehead_round:
            return tr("b_q_forehead")
        legal = [c for c in state.legal_actions() if isinstance(c, PlainCard)]
        example = legal[0]
        return tr("b_q_play", code=example.code, name=self.style.name(example, colour=False))


@play_app.command("baptisten")
def play_baptisten(
    players: int = typer.Option(4, "--players", help="Players at the table (3 or more)."),
    max_cards: int = typer.Option(10, "--max-cards",
                                  help="N: cards in the middle round (rounds 1…N…1)."),
    deck: str = typer.Option("elferraus", "--deck",
                             help="Deck: " + ", ".join(PLAIN_DECKS) + "."),
    variants: str = typer.Option("", "--variants",
                                 help="Variants 2–5, e.g. 2,5: 2 forehead rounds, 3 trick "
                                      "scoring, 4 hook rule always, 5 must overtrump."),
    seed: int | None = typer.Option(None, "--seed",
                                    help="Seed for the draw, the deals and the bots."),
    lang: str = typer.Option("de", "--lang", help="UI language: de or en."),
    bots: int = typer.Option(0, "--bots",
                             help="0: you play with players−1 bots; equal to --players: "
                                  "bots only."),
    bot: str = typer.Option("heuristic", "--bot", help="Bot kind: heuristic or random."),
    as_json: bool = typer.Option(False, "--json",
                                 help="Bots only: print the scoresheet JSON, nothing else."),
    name: str | None = typer.Option(None, "--name", help="Your name on the scoresheet."),
    verbose: bool = typer.Option(False, "--verbose", "-v",
                                 help="Bots only: show every trick."),
) -> None:
    """Play a whole game of Baptistenskat against bots (or watch bots) in the terminal.

    Bid tricks and stake as "2 5" (2 tricks, stake 5), "2/5" or "bid 2 stake 5"; play
    cards by their number in the listing, by code (R20, HA) or by name ("rot 20");
    "play" in a forehead round. "?" shows what is allowed, "quit" ends.
    """
    try:
        flags = variant_fields(variants)
        rules = BaptistenRules(players=players, max_cards=max_cards, deck=deck,
                               forehead=flags["forehead"],
                               trick_scoring=flags["trick_scoring"],
                               hook_always=flags["hook_always"],
                               must_overtrump=flags["must_overtrump"])
    except ValueError as e:
        raise typer.BadParameter(str(e)) from None
    if lang not in LANGS:
        raise typer.BadParameter(f"use {' or '.join(LANGS)}", param_hint="--lang")
    if bots not in (0, players - 1, players):
        raise typer.BadParameter(f"0 (you play with {players - 1} bots) or {players} "
                                 "(bots only)", param_hint="--bots")
    if bot not in BAPTISTEN_BOTS:
        raise typer.BadParameter(f"use {' or '.join(sorted(BAPTISTEN_BOTS))}",
                                 param_hint="--bot")
    if as_json and bots != players:
        raise typer.BadParameter(f"--json needs --bots {players} (bots only)",
                                 param_hint="--json")
    opts = BaptistenOptions(rules=rules, seed=seed, lang=lang, bots_only=bots == players,
                            bot=bot, json=as_json, name=name or "", verbose=verbose)
    BaptistenSession(opts, Console()).run()
