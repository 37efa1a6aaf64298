"""`stich play skat`: play Skat in the terminal against two bots, or watch three bots.

The person is one of three players at the table; the dealer moves on after every game
(Ramsch and redeals included), so the person's seat rotates.  With ``--players 4`` four
sit at the table and the dealer sits each game out: when it is the person's turn to
deal, a line says so and the three bots play that game.  On a real terminal each
question redraws one table fitted to the terminal (see :mod:`stich.cli.skat_screen`),
and a game's result stays until Enter is pressed; with piped input the same pieces are
printed as a log (``printf '18\\npass\\n' | stich play skat --seed 1``), and the end of
input ends the sitting cleanly.  Everything the person is shown is drawn from their
view of the game, never from the state.  Every finished game is saved as a stich record
(see :mod:`stich.cli.saving`).  With ``--bots 3 --json`` every finished game is written
to stdout as one stich record per line and nothing else (``--bots 4 --json`` likewise;
at four a record names the dealer who sat out, ``sat_out``, and a game under Bock its
factor, ``bock``).  With ``--shortcut`` a game ends as soon as its remaining tricks all
go to one side whatever anyone plays (the table applies ``shortcut``, as a site's table
with that setting does).
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

from stich.bots import Bot
from stich.cards import Suit
from stich.cli.app import check_lang, lang_option, play_app
from stich.cli.bot_choice import bot_kinds, make_bots
from stich.cli.i18n import HELP_WORDS, LIST_WORDS, NO_WORDS, YES_WORDS, Translator
from stich.cli.namer import TerminalNamer
from stich.cli.prompt import (
    InputProblem,
    Notice,
    Quit,
    ask_until_valid,
    problem,
    read_or_quit,
    wait_for_enter,
)
from stich.cli.saving import RecordSaver, saver_for
from stich.cli.screen import Event, Screen, height, wants_live
from stich.cli.skat_input import interpret, options_text
from stich.cli.skat_render import CardStyle, preisskat_json, preisskat_table, skat_list
from stich.cli.skat_screen import Seating, SkatScreen
from stich.games import SKAT
from stich.messages import StichError
from stich.record import skat_record
from stich.skat import Action, Declare, GameType, SkatRules, SkatState
from stich.skat.actions import SHORTCUT
from stich.skat.declaring import certain_loss
from stich.skat.ending import early_end
from stich.skat.view import SkatView
from stich.skat_list import SkatList, series_games

__all__ = ["PlayOptions", "SkatSession", "play_skat", "table_size",
           "unique_bot_names"]

BOT_NAMES = ("Kurt", "Helga", "Otto", "Erna", "Paul")
CARD_STYLES = ("german", "french", "english")
DEFAULT_STYLE = {"de": "german", "en": "english"}


@dataclass(frozen=True)
class PlayOptions:
    rules: SkatRules
    seed: int | None = None
    games: int = 1
    lang: str = "de"
    cards: str = "german"
    bots_only: bool = False
    bot: str = "heuristic"
    json: bool = False
    name: str = ""
    verbose: bool = False
    players: int = 3
    shortcut: bool = False  # end a game once its remaining tricks all go to one side
    scoring: str = "list"  # "seeger": the Preisskat lines at the end (Seeger-Fabian)


def unique_bot_names(pool: tuple[str, ...], taken: str, n: int) -> list[str]:
    """``n`` bot names from ``pool`` that differ from the person's name (case aside).

    >>> unique_bot_names(("Kurt", "Helga", "Otto"), "kurt", 2)
    ['Helga', 'Otto']
    """
    return [b for b in pool if b.casefold() != taken.strip().casefold()][:n]


class SkatSession:
    """A sitting of several games at one table, shown on a Rich console.

    ``live``: redraw a fixed table (default: when stdin and stdout are a terminal);
    ``saver``: where the finished games go (default: nowhere)."""

    def __init__(self, opts: PlayOptions, console: Console,
                 read: Callable[[str], str] | None = None, *, live: bool | None = None,
                 saver: RecordSaver | None = None) -> None:
        self.opts = opts
        self.console = console
        self.read = read if read is not None else self._read_line
        self.screen = Screen(console, live=wants_live(console) if live is None else live,
                             quiet=opts.json)
        self.saver = saver or RecordSaver(None)
        self.tr = Translator(opts.lang)
        self.style = CardStyle(opts.cards, self.tr)
        self.sk = SkatScreen(self.tr, self.style, console)
        n = opts.players
        if opts.bots_only:
            players = list(BOT_NAMES[:n])
            self.person = -1
        else:
            me = opts.name or self.tr("you")
            players = [me, *unique_bot_names(BOT_NAMES, me, n - 1)]
            self.person = 0
        self.players = players
        self.master = random.Random(opts.seed)
        self.bot_rng = random.Random(self.master.getrandbits(64))
        seats = [p for p in range(n) if p != self.person]
        self.bots: dict[int, Bot] = dict(zip(
            seats, make_bots(bot_kinds(opts.bot, SKAT.name, len(seats)), SKAT.name),
            strict=True))
        self.table = SkatList(players, opts.rules, first_dealer=self.master.randrange(n))
        self.namer = TerminalNamer(cards=self.sk.describe, suit=self._suit_name,
                                   game=self._game_name, names=players)
        self.games_done = 0
        self.events: list[Event] = []
        self.asking: tuple[SkatState, int] | None = None  # (state, seat) at the prompt
        self.you = -1  # the person's seat this game, when addressed as "Du"/"You"
        self.view_seat = 0  # the seat whose view the narration is told from

    # --- input and output ----------------------------------------------------------------

    def _read_line(self, prompt: str) -> str:
        """A line from stdin; piped input is echoed so that the log reads like a dialogue."""
        self.console.print(prompt, end="", highlight=False)
        line = input()
        if not sys.stdin.isatty():
            self.console.print(escape(line), highlight=False)
        return line

    def say4(self, key: str, **fields: object) -> None:
        """A line of a table of four or of Bock, in the log and among the table's latest
        events."""
        self.tell([Event(self.tr(key, **fields))])

    def _suit_name(self, suit: int) -> str:
        return Suit(suit).name_in(self.style.style)

    def _game_name(self, game: str) -> str:
        return self.style.game(GameType(game))

    def tell(self, events: list[Event]) -> None:
        """Add to the table's log; print in the plain log (finished tricks only where
        the person sees them no other way: bots alone with -v, or the game's last)."""
        self.events += events
        for e in events:
            if not e.trick or (self.opts.verbose if self.opts.bots_only else False):
                self.screen.say(e.text)

    # --- the sitting ---------------------------------------------------------------------

    def run(self) -> None:
        live = self.screen.live
        try:
            for n in range(1, self.opts.games + 1):
                self.play_one(n)
        except (Quit, KeyboardInterrupt) as q:  # Ctrl-C while the bots play, too
            self.screen.leave()
            self.screen.say("")
            self.screen.say(str(q) if isinstance(q, Quit) else self.tr("bye"))
            if self.games_done:
                self.screen.out(skat_list(self.table, self.style))
                self.preisskat()
        else:
            self.screen.leave()
            if self.opts.bots_only or live:
                self.screen.out(skat_list(self.table, self.style))
            self.preisskat()
        finally:
            self.screen.leave()
        self.tell_saved()

    def preisskat(self) -> None:
        """With ``--scoring seeger``: the Preisskat lines of the games played (with
        ``--json``: one more line, ``{"preisskat": ...}``)."""
        if self.opts.scoring != "seeger" or not self.table.games:
            return
        if self.opts.json:
            typer.echo(json.dumps(preisskat_json(self.table), ensure_ascii=False))
        else:
            self.screen.out(preisskat_table(self.table, self.tr))

    def tell_saved(self) -> None:
        path = self.saver.path
        if self.saver.count and path is not None and not self.screen.quiet:
            self.screen.out(self.tr("saved", n=self.saver.count, path=escape(str(path))))
            self.screen.out(f"[dim]{self.tr('saved_hint', path=escape(str(path)))}[/]")

    def new_state(self, seed: int) -> SkatState:
        """The deal of a game (a test may give another)."""
        return SkatState.new(self.opts.rules, seed=seed,
                             ramsch_round=self.table.next_ramsch_round())

    def bot_action(self, state: SkatState, seat: int, player: int) -> Action:
        """A bot's choice: it sees its own view only."""
        return self.bots[player].choose(state.view(seat), self.bot_rng)

    def play_one(self, n: int) -> None:
        positions = self.table.positions()
        names = (self.players[positions[0]], self.players[positions[1]],
                 self.players[positions[2]])
        seed = self.master.getrandbits(32)
        state = self.new_state(seed)
        person = positions.index(self.person) if self.person in positions else -1
        self.you = person if not self.opts.name else -1
        self.view_seat = max(person, 0)
        self.namer.names = list(names)
        preset = self.opts.rules.preset_name
        rules = self.tr(f"rules_{preset}") if str(self.opts.rules) == f"skat(preset={preset})" \
            else str(self.opts.rules)
        out = self.table.sits_out()  # at a table of four: the dealer
        dealer = "" if out is None else self.players[out]
        self.sk.seating = Seating(names, self.you, person, n, self.opts.games, rules, dealer)
        self.events = []
        self.screen.show(Rule(Text.from_markup(f"[bold]{escape(self.sk.header())}[/]")))
        self.screen.say(self.tr("seats", v=self.sk.name(0), m=self.sk.name(1),
                                h=self.sk.name(2)))
        if out is not None and out == self.person:
            self.say4("you_sit_out")
        elif out is not None:
            self.say4("sits_out", name=escape(dealer))
        if person >= 0:
            self.screen.say(self.tr("you_sit", pos=self.tr("pos", seat=person)))
        factor = self.table.next_bock()
        if factor > 1:
            self.say4("bock_game", factor=factor)
        if state.ramsch_round:
            self.say4("ramsch_round_game")
        while not state.is_over:
            seat = state.to_move
            player = positions[seat]
            if player == self.person:
                action = self.ask(state, seat)
            else:
                action = self.bot_action(state, seat, player)
            new = state.apply(action)
            self.tell(self.sk.narrate(state.view(self.view_seat), new.view(self.view_seat),
                                      seat, str(action)))
            state = new
            if self.opts.shortcut and not state.is_over and state.forced_rest() >= 0:
                new = state.apply(SHORTCUT)  # the table's, for the seat to move
                self.tell(self.sk.narrate(state.view(self.view_seat),
                                          new.view(self.view_seat), state.to_move,
                                          str(SHORTCUT)))
                state = new
        entry = self.table.record_game(state.outcome(), positions, state.ramsch_round)
        self.games_done += 1
        extra: dict[str, object] = {}
        if out is not None:
            extra["sat_out"] = dealer
        if entry.bock != 1:
            extra["bock"] = entry.bock
        record = skat_record(state, names, seed=seed, extra=extra or None)
        self.save(record)
        if self.opts.json:
            typer.echo(json.dumps(record, ensure_ascii=False))
            return
        self.show_result(state.view(self.view_seat), state)

    def save(self, record: dict[str, object]) -> None:
        try:
            self.saver.save(record)
        except OSError as e:
            self.screen.say(problem(self.tr("save_failed", reason=str(e))))

    def show_result(self, view: SkatView, state: SkatState) -> None:
        """The game's result: the last trick, the result and the Skat, the Skat list;
        on the table until Enter is pressed."""
        outcome = state.outcome()  # public: the game is over and the view holds the deal
        lines = self.sk.result_lines(view, outcome, early_end(state))  # (over: public)
        if not self.screen.live:
            if view.tricks and not self.opts.bots_only:
                self.screen.say(self.sk.finished_trick(view, -1, "current_trick"))
            self.screen.say("")
            for line in lines:
                self.screen.say(line)
            if not self.opts.bots_only:
                self.screen.show(skat_list(self.table, self.style))
            return
        last = self.opts.games == self.games_done
        prompt = self.tr("press_enter_end" if last else "press_enter")
        self.screen.draw(self.result_screen(view, lines))
        wait_for_enter(self.read, self.tr, prompt)

    def result_screen(self, view: SkatView, lines: list[str]) -> list[RenderableType]:
        """The table at the end of a game, with as many games of the list as fit."""
        width, rows = self.screen.width, self.screen.height
        games = len(self.table.games)
        parts: list[RenderableType] = []
        for last in range(games, -1, -1):
            result: list[RenderableType] = [*lines, skat_list(self.table, self.style,
                                                              last=last)]
            parts = self.sk.table(view, self.events, [], result=result, width=width,
                                  rows=rows)
            if sum(height(self.console, p, width) for p in parts) < rows:
                break
        return parts

    # --- the person's turn ---------------------------------------------------------------

    def ask(self, state: SkatState, seat: int) -> Action:
        self.asking = (state, seat)
        view = state.view(seat)
        first = [True]

        def show(notice: Notice) -> None:
            self.show(view, notice, first)

        def accept(text: str) -> Action:
            action = interpret(text, view, self.sk.numbers, self.tr)
            state.apply(action)  # the engine's judgement: its refusal is shown
            self.confirm_null(view, action, show)
            return action

        return ask_until_valid(self.read, self.tr, show, lambda low: self.command(low, view),
                               accept, lambda e: self.refusal(e, view))

    def show(self, view: SkatView, notice: Notice, first: list[bool]) -> None:
        """The screen at the person's turn: the whole table (live), or in the log the
        panel once and then the messages."""
        bottom = [*notice, f"[cyan]{self.sk.question(view)}[/]"]
        if self.screen.live:
            aside = skat_list(self.table, self.style) if self.table.games else None
            self.screen.draw(self.sk.table(view, self.events, bottom, aside=aside,
                                           width=self.screen.width, rows=self.screen.height))
            return
        if first[0]:
            first[0] = False
            for part in self.sk.panel(view):
                self.screen.show(part)
        for part in notice:
            self.screen.show(part)

    def command(self, low: str, view: SkatView) -> Notice | None:
        if low in HELP_WORDS:
            return self.sk.help_lines(view)
        if low in LIST_WORDS:
            if not self.screen.live:
                return [skat_list(self.table, self.style)]
            self.screen.draw([self.fitted_list(self.screen.height - 1)])
            wait_for_enter(self.read, self.tr, self.tr("press_enter"))
            return []
        return None

    def fitted_list(self, rows: int) -> RenderableType:
        """The Skat list with as many of the latest games as fit into ``rows`` lines."""
        width = self.screen.width
        for last in range(len(self.table.games), -1, -1):
            table = skat_list(self.table, self.style, last=last)
            if height(self.console, table, width) <= rows:
                break
        return table

    def refusal(self, e: StichError, view: SkatView) -> Notice:
        """The engine's refusal in the person's language, and in the auction what may be
        said now."""
        reason = e.text(self.opts.lang, self.namer, you=view.seat if self.you >= 0 else None)
        out = [problem(self.tr("not_allowed", reason=reason))]
        if view.phase == "BIDDING":
            out.append(problem(self.tr("what_now",
                                       options=options_text(view.legal_actions, self.tr))))
        return out

    def confirm_null(self, view: SkatView, action: Action,
                     show: Callable[[Notice], None]) -> None:
        """A Null worth less than the bid, where the rules lose it at once: ask first."""
        if not (isinstance(action, Declare) and action.game is GameType.NULL):
            return
        score = certain_loss(SkatRules.parse(view.rules), action, bid=view.bid, matadors=0)
        if score is None:
            return
        title = self.sk.style.game(GameType.NULL) + "".join(
            f" {w}" for w, on in (("Hand", action.hand), ("Ouvert", action.ouvert)) if on)
        question = self.tr("null_confirm", game=title, value=action.null_value, bid=view.bid,
                           score=f"{score:+d}".replace("-", "−"))
        notice: Notice = [f"[yellow]{question}[/]"]
        while True:
            show(notice)
            low = read_or_quit(self.read, self.tr, "> ").strip().lower()
            if low in YES_WORDS:
                return
            if low in NO_WORDS:
                raise InputProblem(self.tr("null_withdrawn"))
            notice = [f"[yellow]{question}[/]", problem(self.tr("yes_or_no"))]


@play_app.command(SKAT.name)
def play_skat(
    rules: str = typer.Option("lothar", "--rules", metavar="RULES",
                              help="The rule set: lothar (Lothar's table), isko, or a rule "
                                   "string with house rules, e.g. skat(preset=lothar,"
                                   "kontra_re=yes,schieberamsch=yes) (docs/skat.md)."),
    seed: int | None = typer.Option(None, "--seed",
                                    help="Seed for the deals and the bots (the same seed "
                                         "plays the same games)."),
    games: int | None = typer.Option(
        None, "--games", "-n", min=1,
        help="How many games to play (the list of the sitting). Default: 1; with "
             "--scoring seeger a Preisskat series, 36 at three players, 48 at four."),
    lang: str = lang_option(),
    cards: str | None = typer.Option(
        None, "--cards", metavar="STYLE",
        help="Card names: german (Eichel, Grün, Herz, Schellen; Unter, Ober), french "
             "(Kreuz, Pik, Herz, Karo; Bube, Dame) or english. Default: german with "
             "--lang de, english with --lang en."),
    players: int | None = typer.Option(
        None, "--players", metavar="N",
        help="Players at the table: 3, or 4 (the dealer sits each game out). Default: 3, "
             "or as many as --bots when bots play alone."),
    bots: int = typer.Option(0, "--bots",
                             help="0: you play with the others as bots; as many as the "
                                  "players (3 or 4): bots play alone."),
    bot: str = typer.Option("heuristic", "--bot", metavar="KIND",
                            help="How the bots play: easy (rule-based; also called "
                                 "heuristic), strong (search), random, learned (a "
                                 "trained network), or file:POLICY.npz (a policy of "
                                 "examples/train_skat.py); KIND,KIND,...: one per bot "
                                 "seat."),
    as_json: bool = typer.Option(False, "--json",
                                 help="With bots only (--bots 3 or 4): print one game "
                                      "record (JSON) per line, nothing else."),
    name: str | None = typer.Option(None, "--name",
                                    help="Your name on the list (default: Du / You)."),
    verbose: bool = typer.Option(False, "--verbose", "-v",
                                 help="With bots only: show every trick."),
    save: Annotated[Path | None, typer.Option(
        "--save", metavar="FILE",
        help="Append every finished game to FILE as a stich record (JSON Lines). "
             "Default: a new file per sitting in the user data folder (not with --json).")] = None,
    no_save: bool = typer.Option(False, "--no-save", help="Do not save the games."),
    shortcut: bool = typer.Option(
        False, "--shortcut",
        help="End a game as soon as its remaining tricks all go to one side whatever "
             "anyone plays (German: Abkürzen, wenn der Rest feststeht); the record says "
             "shortcut."),
    scoring: str = typer.Option(
        "list", "--scoring", metavar="HOW",
        help="list (the Skat list) or seeger: also the Preisskat list (Seeger-Fabian: "
             "points + 50 per game won − 50 per game lost + 40, at four 30, per game "
             "another player lost; docs/skat.md) at the end; --games a multiple of the "
             "players."),
) -> None:
    """Play Skat against two bots, or watch three bots play.

    With --players 4 four sit at the table and the dealer sits each game out (--bots 4:
    four bots). Type bids as numbers, "passe"/"pass", "ja"/"hold"; "hand" or "aufnehmen"/"pickup";
    "drücken 3 7" or "discard CJ HA"; "grand", "herz hand", "null ouvert"; cards by the
    number in the listing, by code (SA) or by name ("Grün Ass", "Pik Ass"). "?" shows the
    legal moves, "quit" ends.
    """
    try:
        rule_set = SkatRules.parse(rules)
    except ValueError as e:
        raise typer.BadParameter(str(e), param_hint="--rules") from None
    check_lang(lang)
    style = cards if cards is not None else DEFAULT_STYLE[lang]
    if style not in CARD_STYLES:
        raise typer.BadParameter(f"use {', '.join(CARD_STYLES)}", param_hint="--cards")
    n, bots_only = table_size(players, bots)
    bot_kinds(bot, SKAT.name, n if bots_only else n - 1)
    if as_json and not bots_only:
        raise typer.BadParameter(f"--json needs --bots {n}", param_hint="--json")
    if scoring not in ("list", "seeger"):
        raise typer.BadParameter("use list or seeger", param_hint="--scoring")
    if scoring == "seeger":
        try:
            n_games = series_games(scoring, n, games)
        except StichError as e:
            raise typer.BadParameter(str(e), param_hint="--games") from None
    else:
        n_games = 1 if games is None else games
    if save is not None and no_save:
        raise typer.BadParameter("--save FILE or --no-save, not both", param_hint="--no-save")
    opts = PlayOptions(rules=rule_set, seed=seed, games=n_games, lang=lang, cards=style,
                       bots_only=bots_only, bot=bot, json=as_json, name=name or "",
                       verbose=verbose, players=n, shortcut=shortcut, scoring=scoring)
    saver = saver_for(SKAT.name, save, no_save, default=not as_json)
    console = Console()
    live = wants_live(console) and not bots_only  # bots alone: a log to watch
    SkatSession(opts, console, live=live, saver=saver).run()


def table_size(players: int | None, bots: int) -> tuple[int, bool]:
    """The players at the table and whether bots play alone, from ``--players`` and
    ``--bots``: without ``--players`` it is you and two bots (``--bots 0``) or the bots
    alone (``--bots 3`` or ``4``); with it, ``--bots`` is 0 or players − 1 (you play) or
    players (bots only).  Anything else is a usage error saying why.

    >>> table_size(None, 0), table_size(None, 4), table_size(4, 3), table_size(4, 4)
    ((3, False), (4, True), (4, False), (4, True))
    """
    if players is None:
        if bots == 0:
            return 3, False
        if bots not in (3, 4):
            raise typer.BadParameter("0 (you play with two bots) or 3 or 4 (bots only)",
                                     param_hint="--bots")
        return bots, True
    if players not in (3, 4):
        raise typer.BadParameter(f"3 or 4, not {players}", param_hint="--players")
    if bots not in (0, players - 1, players):
        raise typer.BadParameter(
            f"with --players {players}: 0 or {players - 1} (you play with {players - 1} "
            f"bots) or {players} (bots only), not {bots}", param_hint="--bots")
    return players, bots == players
