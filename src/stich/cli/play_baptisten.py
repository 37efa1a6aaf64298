"""`stich play baptisten`: a whole game of Baptistenskat in the terminal, with bots.

The person sits at seat 0 with ``players − 1`` bots (or bots play alone with
``--bots P``).  Seat order is fixed; the seat that starts round 1 is drawn from the seed.
On a real terminal each question redraws one table fitted to the terminal (see
:mod:`stich.cli.baptisten_screen`); the end of every round stays until Enter is pressed,
and the scoresheet is paged.  With piped input the same pieces are printed as a log, and
the scoresheet follows every round.  Everything the person is shown is drawn from their
view, never from the state.  The finished game is saved as a stich record.  With
``--bots P --json`` only the scoresheet JSON of :func:`stich.baptisten.scoring.scoresheet`
is printed, nothing else.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console, RenderableType
from rich.markup import escape
from rich.rule import Rule
from rich.text import Text

from stich.baptisten import (
    BaptistenRules,
    BaptistenState,
    draw_first_player,
    ranking,
    scoresheet,
)
from stich.baptisten.actions import BAction, ForeheadPlay
from stich.baptisten.rules import variant_fields
from stich.baptisten.view import BaptistenView
from stich.bots.baptisten import BaptistenBot
from stich.cards import PLAIN_DECKS, PlainCard
from stich.cli.app import check_lang, lang_option, play_app
from stich.cli.baptisten_input import interpret
from stich.cli.baptisten_render import PlainStyle, ranking_table, sheet_pages
from stich.cli.baptisten_render import scoresheet as sheet_renderable
from stich.cli.baptisten_screen import WIDE, BaptistenScreen
from stich.cli.bot_choice import bot_kinds, make_bots
from stich.cli.i18n import HELP_WORDS, LIST_WORDS, Translator
from stich.cli.namer import TerminalNamer
from stich.cli.play_skat import unique_bot_names
from stich.cli.prompt import Notice, Quit, ask_until_valid, problem, wait_for_enter
from stich.cli.saving import RecordSaver, saver_for
from stich.cli.screen import Event, Screen, wants_live
from stich.games import BAPTISTEN
from stich.messages import StichError
from stich.record import baptisten_record

__all__ = ["BaptistenOptions", "BaptistenSession", "play_baptisten", "table_size"]

# Sixteen names with sixteen different initials (the joker deck seats fifteen; one more
# for when the person takes a bot's name).
BOT_NAMES = ("Kurt", "Helga", "Otto", "Erna", "Paul", "Grete", "Fritz", "Lotte", "Mia",
             "Bernd", "Ida", "Susi", "Rudi", "Anna", "Willi", "Vera")


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
    """One whole game at one table, shown on a Rich console.

    ``live``: redraw a fixed table (default: when stdin and stdout are a terminal);
    ``saver``: where the finished game goes (default: nowhere)."""

    def __init__(self, opts: BaptistenOptions, console: Console,
                 read: Callable[[str], str] | None = None, *, live: bool | None = None,
                 saver: RecordSaver | None = None) -> None:
        self.opts = opts
        self.console = console
        self.read = read if read is not None else self._read_line
        self.screen = Screen(console, live=wants_live(console) if live is None else live,
                             quiet=opts.json)
        self.saver = saver or RecordSaver(None)
        self.tr = Translator(opts.lang)
        rules = opts.rules
        self.style = PlainStyle(rules.card_deck, self.tr)
        n = rules.players
        self.person = -1 if opts.bots_only else 0
        if opts.bots_only:
            self.names = list(BOT_NAMES[:n])
        else:
            me = opts.name or self.tr("you")
            self.names = [me, *unique_bot_names(BOT_NAMES, me, n - 1)]
        self.you = self.person if not opts.name else -1
        self.view_seat = max(self.person, 0)
        master = random.Random(opts.seed)
        first, _ = draw_first_player(rules, master)  # highest card starts; ties draw again
        self.seed = master.getrandbits(32)
        self.state = self.new_state(first)
        self.bot_rng = random.Random(master.getrandbits(64))
        seats = [p for p in range(n) if p != self.person]
        self.bots: dict[int, BaptistenBot] = dict(zip(
            seats, make_bots(bot_kinds(opts.bot, BAPTISTEN.name, len(seats)),
                             BAPTISTEN.name), strict=True))
        self.bs = BaptistenScreen(self.tr, self.style, rules, console, self.names,
                                  you=self.you, person=self.person)
        self.namer = TerminalNamer(cards=self.bs.describe, suit=self._suit_name,
                                   names=self.names, deck=rules.deck)
        self.events: list[Event] = []
        self.asking: BaptistenState | None = None

    # --- input and output ----------------------------------------------------------------

    def _read_line(self, prompt: str) -> str:
        """A line from stdin; piped input is echoed so that the log reads like a dialogue."""
        self.console.print(prompt, end="", highlight=False)
        line = input()
        if not sys.stdin.isatty():
            self.console.print(escape(line), highlight=False)
        return line

    def _suit_name(self, suit: int) -> str:
        return self.style.suit(suit, colour=False)

    def new_state(self, first: int) -> BaptistenState:
        """The game with all its deals (a test may give others)."""
        return BaptistenState.new(self.opts.rules, seed=self.seed, first=first)

    def bot_action(self, state: BaptistenState, seat: int) -> BAction:
        """A bot's choice: it sees its own view only."""
        return self.bots[seat].choose(state.view(seat), self.bot_rng)

    def view(self, state: BaptistenState) -> BaptistenView:
        """The view the screen is drawn from: the person's (seat 0 when bots play)."""
        view: BaptistenView = state.view(self.view_seat)
        return view

    def tell(self, events: list[Event]) -> None:
        """Add to the table's log; print in the plain log (finished tricks where the person
        plays or bots play with -v)."""
        self.events += events
        for e in events:
            if not e.trick or not self.opts.bots_only or self.opts.verbose:
                self.screen.say(e.text)

    # --- the game ------------------------------------------------------------------------

    def run(self) -> None:
        try:
            self._play()
        except (Quit, KeyboardInterrupt) as q:  # Ctrl-C while the bots play, too
            self.screen.leave()
            self.screen.say("")
            self.screen.say(str(q) if isinstance(q, Quit) else self.tr("bye"))
            if self.state.sheet:
                self.show_sheet()
            return
        finally:
            self.screen.leave()
        if self.opts.json:
            typer.echo(json.dumps(scoresheet(self.state, self.names), ensure_ascii=False))
            return
        self.screen.say(f"[bold]{self.tr('b_game_over')}[/]")
        self.show_sheet()
        self.screen.out(self.ranking())
        path = self.saver.path
        if self.saver.count and path is not None:
            self.screen.out(self.tr("saved", n=self.saver.count, path=escape(str(path))))
            # stich analyze reads Skat games only: no hint to it here
            self.screen.out(f"[dim]{self.tr('saved_hint_replay', path=escape(str(path)))}[/]")

    def ranking(self) -> RenderableType:
        return ranking_table(ranking(self.view(self.state).totals), self.names, self.tr)

    def _play(self) -> None:
        self.show_intro()
        round_shown = -1
        while not self.state.is_over:
            state = self.state
            if state.round_index != round_shown:
                round_shown = state.round_index
                self.show_round_header(self.view(state))
            seat = state.to_move
            action = self.ask(state) if seat == self.person else self.bot_action(state, seat)
            new = state.apply(action)
            self.tell(self.bs.narrate(self.view(state), self.view(new), seat,
                                      self.played(state, seat, action)))
            self.state = new
            if new.round_index != state.round_index or new.is_over:
                self.round_over(self.view(new))
        self.save()

    @staticmethod
    def played(state: BaptistenState, seat: int, action: BAction) -> PlainCard | None:
        """The card an action puts on the table (public from then on); in a forehead
        round ``play`` plays the only card, which everybody but its holder saw."""
        if isinstance(action, PlainCard):
            return action
        if isinstance(action, ForeheadPlay):
            return state.deck.cards[state.hands[seat].bit_length() - 1]
        return None

    def save(self) -> None:
        try:
            self.saver.save(baptisten_record(self.state, self.names, seed=self.seed))
        except OSError as e:
            self.screen.say(problem(self.tr("save_failed", reason=str(e))))

    # --- telling what happens ------------------------------------------------------------

    def show_intro(self) -> None:
        self.screen.show(Rule(Text.from_markup(f"[bold]{self.bs.title()}[/]")))
        self.screen.say(self.bs.deck_line())
        seats = " · ".join(f"{p + 1}. {self.bs.name(p)}" for p in range(len(self.names)))
        first = self.view(self.state).first
        self.screen.say(self.tr("b_seating", names=seats, first=self.bs.name(first)))

    def show_round_header(self, view: BaptistenView) -> None:
        self.screen.say("")
        self.screen.show(Rule(Text.from_markup(self.bs.round_header(view))))
        self.screen.say(self.bs.trump_line(view))
        self.events.append(Event(f"[bold]{self.bs.round_header(view)}[/]"))

    def round_over(self, view: BaptistenView) -> None:
        """After a round: the scoresheet in the log; on the table the round's result until
        Enter (``zettel`` pages through the scoresheet)."""
        if not self.screen.live:
            if not self.opts.bots_only and view.phase != "OVER":
                self.show_sheet()
            return
        rr = view.sheet[-1]
        last = view.phase == "OVER"
        done = self.tr("b_round_over", r=rr.round)
        extra: list[RenderableType] = [f"[bold]{done}[/]", f"[dim]{self.tr('b_sheet_hint')}[/]"]
        if last:
            line = self.bs.ranking_line(ranking(view.totals))
            extra = [f"[bold]{self.tr('b_game_over')}[/]", line, extra[1]]
        prompt = self.tr("press_enter_end" if last else "press_enter")
        while True:
            self.screen.draw(self.bs.table(view, self.events, [], result=rr, extra=extra,
                                           aside=self.aside(view), width=self.screen.width,
                                           rows=self.screen.height))
            low = wait_for_enter(self.read, self.tr, prompt)
            if low not in LIST_WORDS:
                return
            self.page_sheet()

    def show_sheet(self) -> None:
        self.screen.say("")
        self.screen.out(sheet_renderable(self.view(self.state).sheet, self.names, self.style,
                                         stakes=not self.opts.rules.trick_scoring,
                                         width=self.console.width))

    def page_sheet(self) -> None:
        """The scoresheet page by page on the table."""
        pages = sheet_pages(self.view(self.state).sheet, self.names, self.style,
                            stakes=not self.opts.rules.trick_scoring, width=self.screen.width,
                            rows=self.screen.height, console=self.console)
        for page in pages:
            self.screen.draw([page])
            wait_for_enter(self.read, self.tr, self.tr("press_enter"))

    # --- the person's turn ---------------------------------------------------------------

    def ask(self, state: BaptistenState) -> BAction:
        self.asking = state
        view = state.view(state.to_move)
        first = [True]

        def show(notice: Notice) -> None:
            self.show(view, notice, first)

        def accept(text: str) -> BAction:
            action = interpret(text, view, self.bs.numbers, self.tr)
            state.apply(action)  # the engine's judgement: its refusal is shown
            return action

        return ask_until_valid(self.read, self.tr, show, lambda low: self.command(low, view),
                               accept, self.refusal)

    def show(self, view: BaptistenView, notice: Notice, first: list[bool]) -> None:
        bottom = [*notice, f"[cyan]{self.bs.question(view)}[/]"]
        if self.screen.live:
            self.screen.draw(self.bs.table(view, self.events, bottom, aside=self.aside(view),
                                           width=self.screen.width, rows=self.screen.height))
            return
        if first[0]:
            first[0] = False
            for part in self.bs.panel(view):
                self.screen.show(part)
        for part in notice:
            self.screen.show(part)

    def aside(self, view: BaptistenView) -> RenderableType | None:
        """The scoresheet beside the wide table (when it fits there)."""
        if not view.sheet or self.screen.width < WIDE:
            return None
        return sheet_renderable(view.sheet, self.names, self.style,
                                stakes=not self.opts.rules.trick_scoring,
                                width=min(100, self.screen.width // 2 + 10))

    def command(self, low: str, view: BaptistenView) -> Notice | None:
        if low in HELP_WORDS:
            return self.bs.help_lines(view)
        if low in LIST_WORDS:
            if self.screen.live:
                self.page_sheet()
                return []
            return [sheet_renderable(view.sheet, self.names, self.style,
                                     stakes=not self.opts.rules.trick_scoring,
                                     width=self.console.width)]
        return None

    def refusal(self, e: StichError) -> Notice:
        you = self.person if self.you >= 0 else None
        return [problem(self.tr("not_allowed", reason=e.text(self.opts.lang, self.namer,
                                                               you=you)))]


def table_size(players: int | None, bots: int) -> tuple[int, bool]:
    """The number of players and whether bots play alone, from ``--players`` and
    ``--bots``: without ``--players`` the bots make the table (``--bots 3``: three bots),
    or it is you and three bots; with it, ``--bots`` is 0 or players − 1 (you play) or
    players (bots only).  Anything else is a usage error saying why.

    >>> table_size(None, 0), table_size(None, 3), table_size(5, 4), table_size(5, 5)
    ((4, False), (3, True), (5, False), (5, True))
    """
    if players is None:
        if bots == 0:
            return 4, False
        if bots < 3:
            raise typer.BadParameter(
                f"{bots} bots alone are too few: Baptistenskat needs 3 players (to play "
                f"with {bots} bots yourself: --players {bots + 1})", param_hint="--bots")
        return bots, True
    if bots not in (0, players - 1, players):
        raise typer.BadParameter(
            f"with --players {players}: 0 or {players - 1} (you play with {players - 1} "
            f"bots) or {players} (bots only), not {bots}", param_hint="--bots")
    return players, bots == players


@play_app.command(BAPTISTEN.name)
def play_baptisten(
    players: int | None = typer.Option(None, "--players",
                                       help="Players at the table, 3 or more (default: 4, "
                                            "or as many as --bots when bots play alone)."),
    max_cards: int = typer.Option(10, "--max-cards",
                                  help="Cards in the middle round: rounds deal 1, 2 … N … "
                                       "2, 1 cards."),
    deck: str = typer.Option("elferraus", "--deck", metavar="DECK",
                             help="The deck: " + ", ".join(PLAIN_DECKS) + "."),
    variants: str = typer.Option("", "--variants", metavar="LIST",
                                 help="Variants 2–5, e.g. 2,5: 2 forehead rounds, 3 trick "
                                      "scoring, 4 hook rule always, 5 must overtrump."),
    seed: int | None = typer.Option(None, "--seed",
                                    help="Seed for the draw, the deals and the bots."),
    lang: str = lang_option(),
    bots: int = typer.Option(0, "--bots",
                             help="0: you play with the others as bots; as many as the "
                                  "players (or alone, K): K bots play alone."),
    bot: str = typer.Option("heuristic", "--bot", metavar="KIND",
                            help="How the bots play: easy (rule-based; also called "
                                 "heuristic), strong (search), random, or "
                                 "file:POLICY.npz (a policy trained for these rules, "
                                 "examples/train_baptisten.py); KIND,KIND,...: one per "
                                 "bot seat."),
    as_json: bool = typer.Option(False, "--json",
                                 help="Bots only: print the scoresheet JSON, nothing else."),
    name: str | None = typer.Option(None, "--name",
                                    help="Your name on the scoresheet (default: Du / You)."),
    verbose: bool = typer.Option(False, "--verbose", "-v",
                                 help="Bots only: show every trick."),
    save: Annotated[Path | None, typer.Option(
        "--save", metavar="FILE",
        help="Append the finished game to FILE as a stich record (JSON Lines). "
             "Default: a new file in the user data folder (not with --json).")] = None,
    no_save: bool = typer.Option(False, "--no-save", help="Do not save the game."),
) -> None:
    """Play a game of Baptistenskat against bots, or watch bots play.

    Bid tricks and stake as "2 5" (2 tricks, stake 5), "2/5" or "bid 2 stake 5"; play
    cards by their number in the listing, by code (R20, HA) or by name ("rot 20");
    "play" in a forehead round. "?" shows what is allowed, "quit" ends.
    """
    check_lang(lang)
    n, bots_only = table_size(players, bots)
    try:
        flags = variant_fields(variants)
        rules = BaptistenRules(players=n, max_cards=max_cards, deck=deck,
                               forehead=flags["forehead"],
                               trick_scoring=flags["trick_scoring"],
                               hook_always=flags["hook_always"],
                               must_overtrump=flags["must_overtrump"])
    except ValueError as e:
        raise typer.BadParameter(str(e)) from None
    bot_kinds(bot, BAPTISTEN.name, n if bots_only else n - 1)
    if as_json and not bots_only:
        raise typer.BadParameter(f"--json needs --bots {n} (bots only)", param_hint="--json")
    if save is not None and no_save:
        raise typer.BadParameter("--save FILE or --no-save, not both", param_hint="--no-save")
    opts = BaptistenOptions(rules=rules, seed=seed, lang=lang, bots_only=bots_only,
                            bot=bot, json=as_json, name=name or "", verbose=verbose)
    saver = saver_for(BAPTISTEN.name, save, no_save, default=not as_json)
    console = Console()
    live = wants_live(console) and not bots_only  # bots alone: a log to watch
    BaptistenSession(opts, console, live=live, saver=saver).run()
