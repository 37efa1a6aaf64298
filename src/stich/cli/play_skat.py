"""`stich play skat`: play Skat in the terminal against two bots, or watch three bots.

The person is one of three players at the table; the dealer moves on after every game
(Ramsch and redeals included), so the person's seat rotates.  Input comes line by line
from the terminal or a pipe (``printf '18\\npass\\n' | stich play skat --seed 1``); end of
input ends the sitting cleanly.  With ``--bots 3 --json`` every finished game is written
to stdout as one stich record per line and nothing else.
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

from stich.bots import BOTS, Bot, make_bot
from stich.cards import CARDS, Card, card_points
from stich.cli.app import play_app
from stich.cli.i18n import LANGS, Translator
from stich.cli.prompt import Quit, ask_until_valid
from stich.cli.skat_input import interpret, options_text
from stich.cli.skat_render import CardStyle, game_title, group_hand, result_lines, sort_hand
from stich.record import skat_record
from stich.skat import HOLD, PASS, Action, Bid, Declare, GameType, Phase, SkatRules, SkatState
from stich.table import SkatTable

__all__ = ["PlayOptions", "SkatSession", "play_skat"]

BOT_NAMES = ("Kurt", "Helga", "Otto")
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


class SkatSession:
    """A sitting of several games at one table, shown on a Rich console."""

    def __init__(self, opts: PlayOptions, console: Console,
                 read: Callable[[str], str] | None = None) -> None:
        self.opts = opts
        self.console = console
        self.read = read if read is not None else self._read_line
        self.tr = Translator(opts.lang)
        self.style = CardStyle(opts.cards, self.tr)
        if opts.bots_only:
            players = list(BOT_NAMES)
            self.person = -1
        else:
            players = [opts.name or self.tr("you"), BOT_NAMES[0], BOT_NAMES[1]]
            self.person = 0
        self.players = players
        self.master = random.Random(opts.seed)
        self.bot_rng = random.Random(self.master.getrandbits(64))
        self.bots: dict[int, Bot] = {
            p: make_bot(opts.bot) for p in range(3) if p != self.person
        }
        self.table = SkatTable(players, opts.rules, first_dealer=self.master.randrange(3))
        self.numbers: list[Card] = []
        self.games_done = 0
        self.asking: tuple[SkatState, int] | None = None  # (state, seat) at the prompt
        self.you = -1  # the person's seat this game, when addressed as "Du"/"You"
        self.hand_shown = False

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

    # --- the sitting ---------------------------------------------------------------------

    def run(self) -> None:
        try:
            for n in range(1, self.opts.games + 1):
                self.play_one(n)
        except (Quit, KeyboardInterrupt) as q:  # Ctrl-C while the bots play, too
            self.say(str(q) if isinstance(q, Quit) else self.tr("bye"))
            if self.games_done and not self.quiet:
                self.console.print(self.table.render(self.opts.lang))
            return
        if not self.quiet and self.opts.bots_only:
            self.console.print(self.table.render(self.opts.lang))

    def play_one(self, n: int) -> None:
        positions = self.table.positions()
        names = (self.players[positions[0]], self.players[positions[1]],
                 self.players[positions[2]])
        seed = self.master.getrandbits(32)
        state = SkatState.new(self.opts.rules, seed=seed)
        in_game = self.person in positions and not self.opts.name
        self.you = positions.index(self.person) if in_game else -1
        self.hand_shown = False
        if not self.quiet:
            self.console.rule(Text(self.tr("game_header", n=n, total=self.opts.games,
                                           dealer=names[2]), style="bold"))
            self.say(self.tr("seats", v=escape(names[0]), m=escape(names[1]),
                             h=escape(names[2])))
            if self.person in positions:
                self.say(self.tr("you_sit", pos=self.tr("pos", seat=positions.index(
                    self.person))))
        while not state.is_over:
            seat = state.to_move
            bot = self.bots.get(positions[seat])
            if bot is None:
                action = self.ask(state, seat, names)
            else:
                action = bot.choose(state.view(seat), self.bot_rng)
            new = state.apply(action)
            self.narrate(state, new, seat, action, names, person=bot is None)
            state = new
        outcome = state.outcome()
        self.table.record_game(outcome, positions)
        self.games_done += 1
        if self.opts.json:
            rec = skat_record(state, names, seed=seed)
            typer.echo(json.dumps(rec, ensure_ascii=False))
            return
        self.show_result(state, names)

    # --- telling what happens ------------------------------------------------------------

    def narrate(self, old: SkatState, new: SkatState, seat: int, action: Action,
                names: tuple[str, str, str], *, person: bool) -> None:
        if self.quiet:
            return
        tr = self.tr
        name = escape(names[seat])
        phase = old.phase
        if phase is Phase.BIDDING:
            if isinstance(action, Bid):
                key = "vorhand_plays" if seat == 0 and old.bid_value == 0 else "says"
                self.say(tr.subject(key, seat == self.you, name=name, value=action.value))
            else:
                self.say(tr("holds" if action is HOLD else "passes", name=name))
            if new.phase is Phase.SKAT:
                won = tr.subject("won_auction", new.declarer == self.you,
                                 name=escape(names[new.declarer]), bid=new.bid_value)
                self.say(f"[bold]{won}[/]")
            elif new.game is GameType.RAMSCH:
                self.say(f"[bold]{tr('all_passed_ramsch')}[/]")
            elif new.is_over:
                self.say(f"[bold]{tr('all_passed_redeal')}[/]")
        elif phase is Phase.SKAT:
            key = "plays_hand" if str(action) == "hand" else "picks_up"
            self.say(tr.subject(key, seat == self.you, name=name))
        elif phase is Phase.DISCARD:
            if person:
                self.say(tr.subject("discards", seat == self.you, name=name,
                                    cards=self.style.cards(new.skat)))
            else:
                self.say(tr("discards_hidden", name=name))
        elif phase is Phase.DECLARE and isinstance(action, Declare):
            title = game_title(self.style, action.game, hand=action.hand,
                               ouvert=action.ouvert, schneider=action.schneider,
                               schwarz=action.schwarz)
            line = tr.subject("declares", seat == self.you, name=name, game=title)
            self.say(f"[bold]{line}[/]")
            if action.ouvert and not new.is_over:
                self.say(tr("ouvert_cards", name=name,
                            cards=self.style.cards(new.hands[seat], action.game)))
        elif (phase is Phase.PLAY and len(old.trick) == 2
              and (self.opts.verbose if self.opts.bots_only else new.is_over)):
            # The person sees each trick at the next prompt, the last one here; bots
            # alone show their tricks with -v only.
            self.say(self.trick_line(new, -1, names, label="current_trick"))

    def trick_line(self, state: SkatState, k: int, names: tuple[str, str, str], *,
                   label: str) -> str:
        """A completed trick in one line: who played what, and who took it."""
        leader, cards, winner = state.tricks[k]
        played = " · ".join(
            f"{escape(names[(leader + i) % 3])} {self.style.name(CARDS[c])}"
            for i, c in enumerate(cards))
        points = sum(CARDS[c].points for c in cards)
        n = len(state.tricks) + k + 1 if k < 0 else k + 1
        took = self.tr("trick_to", name=escape(names[winner]), points=points)
        return f"{self.tr(label, n=n)}: {played} → {took}"

    def show_result(self, state: SkatState, names: tuple[str, str, str]) -> None:
        o = state.outcome()
        self.say()
        for line in result_lines(o, (escape(names[0]), escape(names[1]),
                                     escape(names[2])), self.style, self.you):
            self.say(line)
        if o.kind != "passed":
            skat = self.tr("skat_was", cards=self.style.cards(state.deal[1], o.game))
            if state.picked_up:
                skat += " · " + self.tr("skat_discarded",
                                        cards=self.style.cards(state.skat, o.game))
            self.say(skat)
        if not self.opts.bots_only:
            self.console.print(self.table.render(self.opts.lang))

    # --- the person's turn ---------------------------------------------------------------

    def ask(self, state: SkatState, seat: int, names: tuple[str, str, str]) -> Action:
        self.asking = (state, seat)
        self.show_panel(state, seat, names)
        return ask_until_valid(
            self.read, self.say, self.tr, lambda: self.show_help(state),
            lambda text: interpret(text, state, self.numbers, self.tr, self.describe))

    def describe(self, mask: int) -> str:
        """Cards for a message: with their number in the listing, by name and code."""
        out = []
        for c in sort_hand(mask, self.asking[0].game if self.asking else None):
            n = self.numbers.index(c) + 1 if c in self.numbers else None
            name = f"{self.style.name(c, colour=False)} ({c})"
            out.append(f"{n} {name}" if n is not None else name)
        return ", ".join(out)

    def declare_options(self, state: SkatState) -> str:
        """The games that may be declared, and the words that may follow them."""
        games: list[str] = []
        flags: list[str] = []
        for a in state.legal_actions():
            if not isinstance(a, Declare):
                continue
            word = self.game_word(a.game)
            if a.game is GameType.NULL and a.ouvert:
                word += " ouvert"
            elif a.schneider or a.schwarz or a.ouvert:
                flags += [f for f in ("schneider", "schwarz", "ouvert")
                          if getattr(a, f) and f not in flags]
                continue
            if word not in games:
                games.append(word)
        text = ", ".join(games)
        if flags:
            text += " · " + self.tr("declare_extras", words=", ".join(flags))
        return text

    def show_help(self, state: SkatState) -> None:
        if state.phase is Phase.PLAY:
            opts = self.describe(state.legal_cards())
        elif state.phase is Phase.DECLARE:
            opts = self.declare_options(state)
        else:
            opts = options_text(state, self.tr, self.game_word)
        self.say(f"{self.tr('help_title')}: {escape(opts)}")
        self.say(f"[dim]{escape(self.tr('help_more'))}[/]")

    def game_word(self, game: GameType) -> str:
        return self.style.game(game).lower()

    def show_panel(self, state: SkatState, seat: int, names: tuple[str, str, str]) -> None:
        tr = self.tr
        view = state.view(seat)
        game = view.game
        self.say()
        if state.phase is Phase.BIDDING:
            said = ", ".join(f"{escape(names[s])} {self._bid_word(a)}" for s, a in view.bidding)
            self.say(f"[bold]{tr('bidding')}:[/] {said or tr('nobody_bid')}")
        if state.phase is Phase.PLAY:
            self._show_play_state(state, view.seat, names)
        if state.phase is Phase.DISCARD:
            self.say(tr("skat_seen", cards=self.style.cards(view.skat_seen)))
        early = state.phase in (Phase.BIDDING, Phase.SKAT)
        if not (early and self.hand_shown):
            self._show_hand(view.hand, game, state.legal_cards()
                            if state.phase is Phase.PLAY else view.hand)
            self.hand_shown = early
        self.say(f"[cyan]{self._question(state, view.bid, names)}[/]")

    def _bid_word(self, action: str) -> str:
        if action == "pass":
            return self.tr("w_pass")
        if action == "hold":
            return self.tr("w_hold")
        return action

    def _show_play_state(self, state: SkatState, seat: int, names: tuple[str, str, str]
                         ) -> None:
        tr = self.tr
        game = state.game
        assert game is not None
        if game is GameType.RAMSCH:
            pts = ", ".join(f"{escape(names[s])} {state.points[s]}" for s in range(3))
            self.say(f"[bold]{tr('ramsch_line', points=pts)}[/]")
        else:
            c = state.contract
            assert c is not None
            d = state.declarer
            title = game_title(self.style, game, hand=c.hand, ouvert=c.ouvert,
                               schneider=c.schneider, schwarz=c.schwarz)
            dp = state.points[d] + (card_points(state.skat) if d == seat else 0)
            op = sum(state.points) - state.points[d]
            line = tr.subject("game_line", d == self.you, name=escape(names[d]), game=title,
                              bid=state.bid_value, dp=dp, op=op)
            self.say(f"[bold]{line}[/]")
            view = state.view(seat)
            if view.ouvert_hand and d != seat:
                self.say(tr("ouvert_cards", name=escape(names[d]),
                            cards=self.style.cards(view.ouvert_hand, game)))
        if state.tricks:
            self.say(self.trick_line(state, -1, names, label="last_trick"))
        current = " · ".join(
            f"{escape(names[(state.leader + i) % 3])} {self.style.name(CARDS[c])}"
            for i, c in enumerate(state.trick)) or tr("you_lead")
        self.say(f"[bold]{tr('current_trick', n=len(state.tricks) + 1)}:[/] {current}")

    def _show_hand(self, hand: int, game: GameType | None, playable: int) -> None:
        tr = self.tr
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="bold")
        grid.add_column()
        self.numbers = []
        trump_label = tr("jacks") if game in (None, GameType.GRAND, GameType.RAMSCH) \
            else tr("trumps")
        for label, cards in group_hand(hand, game):
            shown = []
            for c in cards:
                self.numbers.append(c)
                n = len(self.numbers)
                name = self.style.name(c) if label is None else self.style.rank(c)
                cell = f"[bold]{n}[/] {name}" if playable & c.bit else f"[dim]{n} {name}[/]"
                shown.append(cell)
            head = trump_label if label is None else self.style.suit(label)
            grid.add_row(head, "   ".join(shown))
        if not self.quiet:
            self.console.print(f"[bold]{tr('your_hand')}[/]")
            self.console.print(grid)

    def _question(self, state: SkatState, bid: int, names: tuple[str, str, str]) -> str:
        tr = self.tr
        phase = state.phase
        legal = state.legal_actions()
        if phase is Phase.BIDDING:
            if HOLD in legal:
                bidder = state.bidding_history()[-1][0]
                return tr("q_answer", name=escape(names[bidder]), value=bid)
            values = [a.value for a in legal if isinstance(a, Bid)]
            if state.to_move == 0 and bid == 0 and values == [18] and PASS in legal \
                    and len(state.bidding_history()) >= 2:
                return tr("q_vorhand")
            shown = str(values[0]) if len(values) == 1 else f"{values[0]} … {values[-1]}"
            return tr("q_say", value=shown)
        if phase is Phase.SKAT:
            return tr("q_skat", bid=bid)
        if phase is Phase.DISCARD:
            return tr("q_discard", a=len(self.numbers) - 1, b=len(self.numbers))
        if phase is Phase.DECLARE:
            return tr("q_declare", games=escape(self.declare_options(state)))
        if state.tricks:
            return tr("q_play_short")
        example = next(c for c in legal if isinstance(c, Card))
        return tr("q_play", code=str(example), name=example.name_in(self.opts.cards))


@play_app.command("skat")
def play_skat(
    rules: str = typer.Option("lothar", "--rules", help="Rule set: lothar or isko."),
    seed: int | None = typer.Option(None, "--seed", help="Seed for the deals and the bots."),
    games: int = typer.Option(1, "--games", "-n", min=1, help="Number of games."),
    lang: str = typer.Option("de", "--lang", help="UI language: de or en."),
    cards: str | None = typer.Option(
        None, "--cards",
        help="Card names: german (Eichel, Grün, Herz, Schellen; Unter, Ober), french "
             "(Kreuz, Pik, Herz, Karo; Bube, Dame) or english. Default: german for de, "
             "english for en."),
    bots: int = typer.Option(0, "--bots",
                             help="0: you play with two bots; 3: three bots play."),
    bot: str = typer.Option("heuristic", "--bot", help="Bot kind: heuristic or random."),
    as_json: bool = typer.Option(False, "--json",
                                 help="With --bots 3: one stich record per line on stdout."),
    name: str | None = typer.Option(None, "--name", help="Your name on the list."),
    verbose: bool = typer.Option(False, "--verbose", "-v",
                                 help="With --bots 3: show every trick."),
) -> None:
    """Play Skat against two bots (or watch three bots) in the terminal.

    Type bids as numbers, "passe"/"pass", "ja"/"hold"; "hand" or "aufnehmen"/"pickup";
    "drücken 3 7" or "discard CJ HA"; "grand", "herz hand", "null ouvert"; cards by the
    number in the listing, by code (SA) or by name ("Grün Ass", "Pik Ass"). "?" shows the
    legal moves, "quit" ends.
    """
    try:
        rule_set = SkatRules.parse(rules)
    except ValueError as e:
        raise typer.BadParameter(str(e), param_hint="--rules") from None
    if lang not in LANGS:
        raise typer.BadParameter(f"use {' or '.join(LANGS)}", param_hint="--lang")
    style = cards if cards is not None else DEFAULT_STYLE[lang]
    if style not in CARD_STYLES:
        raise typer.BadParameter(f"use {', '.join(CARD_STYLES)}", param_hint="--cards")
    if bots not in (0, 3):
        raise typer.BadParameter("0 (you play with two bots) or 3 (bots only)",
                                 param_hint="--bots")
    if bot not in BOTS:
        raise typer.BadParameter(f"use {' or '.join(sorted(BOTS))}", param_hint="--bot")
    if as_json and bots != 3:
        raise typer.BadParameter("--json needs --bots 3", param_hint="--json")
    opts = PlayOptions(rules=rule_set, seed=seed, games=games, lang=lang, cards=style,
                       bots_only=bots == 3, bot=bot, json=as_json, name=name or "",
                       verbose=verbose)
    SkatSession(opts, Console()).run()
