"""`stich arena skat|baptisten`: bots play duplicate deals against each other.

The match itself (duplicate deals, seeding, the estimator) is :mod:`stich.arena`; here
are the options, the progress bar on stderr, and the table (or ``--json``) at the end.
Refusals (an unknown bot, a wrong number of bots, deals or jobs, rules that do not
exist) are printed as ``Fehler: …`` / ``error: …`` with exit status 2.

The arena speaks English unless the locale is German (:func:`locale_lang`; ``--lang``
chooses): its figures are read by people who train and compare bots anywhere, where the
rest of the command line, made for playing at a German table, speaks German by default.
Its tables are as wide as they need to be when the output is not a terminal (a file, a
pipe), unless ``COLUMNS`` says otherwise; in a terminal they fit the terminal.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from stich.arena import DEFAULT_JOBS, Match, run_match
from stich.baptisten import BaptistenRules
from stich.baptisten.rules import variant_fields
from stich.cards import PLAIN_DECKS
from stich.cli.app import HELP_OPTIONS, app, check_lang, print_error
from stich.core import ArgumentError
from stich.games import BAPTISTEN, SKAT
from stich.games import get as game_named
from stich.messages import StichError

__all__ = ["arena_app", "arena_baptisten", "arena_skat", "locale_lang", "render_report"]

arena_app = typer.Typer(help="Bots against bots on duplicate deals, with the figures.",
                        no_args_is_help=True, context_settings=HELP_OPTIONS)
app.add_typer(arena_app, name="arena")

WORDS = {
    "en": {
        "progress": "deals", "bot": "Bot", "games": "Games", "skat_score": "List pts/game",
        "baptisten_score": "Points/game", "ci": "95 %", "declared": "Decl.",
        "win_rate": "Won", "bid_accuracy": "Bid exact", "median": "ms median",
        "p99": "ms p99",
        "difference": "{a} − {b} on the same deals in the same seat: {mean} per game "
                      "(95 %: {low} … {high}, {n} deals)",
        "title": "{game}, {rules}: {deals} deals × {rot} rotations = {games} games, seed {seed}",
        "calibration": "{bot}: the chance it gave its game against how often it won",
        "bid_calibration": "{bot}: the chance it gave its bid of being exact against how "
                           "often it was", "rounds": "Rounds",
        "cal_phase": "At", "cal_bid": "last bid", "cal_declare": "declaration",
        "cal_bucket": "Chance", "cal_mean": "Mean chance",
        "by_game": "Declared games by kind", "kind": "Game", "share": "Share",
        "bid_inference": "strong's belief in the true cards from the bids said: {gain} nats "
                         "a card decision over its plain sampler ({n} decisions)",
        "inference": "strong's belief in the true cards: {gain} nats a decision over "
                     "uniform sampling (first trick {first}, {n} decisions)",
    },
    "de": {
        "progress": "Austeilungen", "bot": "Bot", "games": "Spiele",
        "skat_score": "Liste/Spiel", "baptisten_score": "Punkte/Spiel",
        "ci": "95 %", "declared": "Gesp.", "win_rate": "Gew.",
        "bid_accuracy": "Ansage genau", "median": "ms Median", "p99": "ms p99",
        "difference": "{a} − {b} auf denselben Austeilungen am selben Platz: {mean} pro "
                      "Spiel (95 %: {low} … {high}, {n} Austeilungen)",
        "title": "{game}, {rules}: {deals} Austeilungen × {rot} Drehungen = {games} Spiele, "
                 "Seed {seed}",
        "bid_calibration": "{bot}: die Chance, die er seiner Ansage gab, genau zu sein, "
                           "und wie oft sie es war", "rounds": "Runden",
        "calibration": "{bot}: die Gewinnchance, die er seinem Spiel gab, und wie oft er "
                       "es gewann",
        "cal_phase": "Bei", "cal_bid": "letztem Gebot", "cal_declare": "Ansage",
        "cal_bucket": "Chance", "cal_mean": "Mittlere Chance",
        "by_game": "Gespielte Spiele nach Art", "kind": "Spiel", "share": "Anteil",
        "bid_inference": "Was strong aus den Ansagen über die wahren Karten weiß: {gain} "
                         "nats je Kartenentscheidung über seinen ungewichteten Welten "
                         "({n} Entscheidungen)",
        "inference": "Was strong über die wahren Karten glaubt: {gain} nats je Entscheidung "
                     "über gleichverteilten Welten (erster Stich {first}, {n} Entscheidungen)",
    },
}

KIND_WORDS = {
    "en": {"suit": "suit", "grand": "Grand", "null": "Null", "ouvert": "Ouvert",
           "hand": "Hand"},
    "de": {"suit": "Farbe", "grand": "Grand", "null": "Null", "ouvert": "Ouvert",
           "hand": "Hand"},
}

_BOTS_HELP = ("The bots by seat, separated by commas: random, easy (rule-based; also "
              "heuristic), strong; a policy trained with stich.env: file:policy.npz "
              "(played greedily; needs the rl extra); or a bot from Python code: "
              "py:package.module:factory (factory() returns an object with "
              "choose(view, rng)).")

WIDE = 10_000
"""The console's width when the output is not a terminal: tables take the width they
need (Rich fits them to 80 columns otherwise, squeezing columns to nothing)."""


def locale_lang(environ: Mapping[str, str] | None = None) -> str:
    """``de`` when the locale is German, else ``en``: the first of ``LC_ALL``,
    ``LC_MESSAGES`` and ``LANG`` that is set decides, as POSIX reads them.

    >>> locale_lang({"LANG": "de_DE.UTF-8"}), locale_lang({"LANG": "en_GB.UTF-8"})
    ('de', 'en')
    >>> locale_lang({"LC_ALL": "C", "LANG": "de_AT"}), locale_lang({})
    ('en', 'en')
    """
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            return "de" if value.lower().startswith("de") else "en"
    return "en"


def _lang_option() -> Any:
    return typer.Option(None, "--lang", metavar="LANG", show_default=False,
                        help="Language of the output: en or de (default: de when the "
                             "locale, LC_ALL, LC_MESSAGES or LANG, is German, else en).")


def _console() -> Console:
    """The console of the figures: a terminal's width, else as wide as they need (or
    ``COLUMNS``)."""
    console = Console()
    if not console.is_terminal and not os.environ.get("COLUMNS"):
        console = Console(width=WIDE)
    return console


def _num(x: float, lang: str, digits: int = 2) -> str:
    text = f"{x:+.{digits}f}".replace("-", "−")
    return text.replace(".", ",") if lang == "de" else text


def _plain(x: float, lang: str, digits: int = 1) -> str:
    text = f"{x:.{digits}f}"
    return text.replace(".", ",") if lang == "de" else text


def _pct(x: float | None, lang: str) -> str:
    return "–" if x is None else _plain(100 * x, lang) + " %"


def render_report(report: dict[str, Any], lang: str) -> list[Any]:
    """The figures as a Rich table (per bot name, then per entry) and the difference,
    with the columns and tables of what the game's figures count (its ``arena_kind``)."""
    w = WORDS[lang]
    declarer = game_named(report["game"]).arena_kind == "declarer"
    table = Table(title=w["title"].format(game=report["game"], rules=report["rules"],
                                          deals=report["deals"], rot=report["rotations"],
                                          games=report["games"], seed=report["seed"]))
    table.add_column(w["bot"], no_wrap=True)
    table.add_column(w["games"], justify="right")
    table.add_column(w["skat_score" if declarer else "baptisten_score"], justify="right",
                     no_wrap=True)
    table.add_column(w["ci"], justify="right", no_wrap=True)
    if declarer:
        table.add_column(w["declared"], justify="right")
        table.add_column(w["win_rate"], justify="right", no_wrap=True)
    else:
        table.add_column(w["bid_accuracy"], justify="right", no_wrap=True)
    table.add_column(w["median"], justify="right")
    table.add_column(w["p99"], justify="right")

    def row(label: str, f: dict[str, Any]) -> None:
        pg = f["per_game"]
        cells = [label, str(f["games"]), _num(pg["mean"], lang, 1),
                 f"{_num(pg['low'], lang, 1)}…{_num(pg['high'], lang, 1)}"]
        if declarer:
            cells += [str(f["declared"]), _pct(f["declarer_win_rate"], lang)]
        else:
            cells.append(_pct(f["bid_accuracy"], lang))
        cells += [_plain(f["time_ms"]["median"], lang, 2),
                  _plain(f["time_ms"]["p99"], lang, 2)]
        table.add_row(*cells)

    for name, f in report["by_name"].items():
        row(f"[bold]{name}[/]", f)
    if len(report["by_name"]) < len(report["by_entry"]):
        for e in report["by_entry"]:
            row(f"  {e['name']} #{e['entry'] + 1}", e)
    out: list[Any] = [table]
    d = report["difference"]
    if d is not None:
        out.append(w["difference"].format(a=d["a"], b=d["b"], mean=_num(d["mean"], lang),
                                          low=_num(d["low"], lang),
                                          high=_num(d["high"], lang), n=d["n"]))
    if declarer:
        out.append(_by_game_table(report, w, lang))
    for bot, cal in report.get("calibration", {}).items():
        if declarer:
            t = Table(title=w["calibration"].format(bot=bot))
            cols: tuple[str, ...] = ("cal_phase", "cal_bucket", "games", "cal_mean", "win_rate")
        else:
            t = Table(title=w["bid_calibration"].format(bot=bot))
            cols = ("cal_bucket", "rounds", "cal_mean", "bid_accuracy")
        for col in cols:
            t.add_column(w[col], justify="left" if col == "cal_phase" else "right")
        for phase in ("bid", "declare"):
            for r in cal.get(phase, ()):
                label = [w["cal_" + phase]] if declarer else []
                t.add_row(*label, f"{_plain(r['low'], lang)}–{_plain(r['high'], lang)}",
                          str(r["games"]), _plain(r["mean_chance"], lang, 2),
                          _pct(r["win_rate"], lang))
        out.append(t)
    inf = report.get("inference")
    if inf and inf["decisions"] and not declarer:
        out.append(w["bid_inference"].format(gain=_num(inf["mean_gain"], lang, 3),
                                             n=inf["decisions"]))
    elif inf and inf["decisions"]:
        first = inf["by_trick"][0]["gain"] if inf["by_trick"][0]["trick"] == 0 else 0.0
        out.append(w["inference"].format(gain=_num(inf["mean_gain"], lang, 3),
                                         first=_num(first, lang, 3), n=inf["decisions"]))
    return out


def _by_game_table(report: dict[str, Any], w: dict[str, str], lang: str) -> Table:
    """Per bot name and kind of game: how many it declared, their share of its games,
    and how many of them it won."""
    t = Table(title=w["by_game"])
    for col in ("bot", "kind", "declared", "share", "win_rate"):
        t.add_column(w[col], justify="left" if col in ("bot", "kind") else "right")
    for name, f in report["by_name"].items():
        for kind, g in f["by_game"].items():
            label = " ".join(KIND_WORDS[lang][part] for part in kind.split())
            t.add_row(name, label, str(g["declared"]), _pct(g["share"], lang),
                      _pct(g["win_rate"], lang))
    return t


def _bots(text: str) -> tuple[str, ...]:
    return tuple(b.strip() for b in text.split(",") if b.strip())


def _run(build: Any, jobs: int, as_json: bool, given_lang: str | None) -> None:
    """Build the match (refusals: exit status 2), play it, print the figures."""
    lang = check_lang(locale_lang() if given_lang is None else given_lang)
    try:
        match: Match = build()
        n_jobs = jobs
        if n_jobs < 1:
            raise ArgumentError("arena.jobs", n=n_jobs)
    except StichError as e:
        print_error(e, lang)
        raise typer.Exit(2) from None
    if as_json:
        report = run_match(match, n_jobs)
        typer.echo(json.dumps(report, ensure_ascii=False))
        return
    err = Console(stderr=True)
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), console=err, transient=True) as bar:
        task = bar.add_task(WORDS[lang]["progress"], total=match.deals)
        report = run_match(match, n_jobs, lambda done: bar.update(task, completed=done))
    console = _console()
    for part in render_report(report, lang):
        console.print(part)


def _jobs_option() -> Any:
    return typer.Option(DEFAULT_JOBS, "--jobs", "-j", metavar="J",
                        help="Processes to play in. The deals and the bots' random numbers "
                             "are the same for any number; strong thinks for a set time, so "
                             "more processes than free CPUs make it weaker.")


@arena_app.command(SKAT.name)
def arena_skat(
    bots: str = typer.Option(..., "--bots", metavar="LIST", help=_BOTS_HELP + " Three for Skat."),
    deals: int = typer.Option(100, "--deals", metavar="N",
                              help="Deals; each is played once per seat rotation (3)."),
    seed: int = typer.Option(0, "--seed", metavar="S", help="Seed for the deals and bots."),
    jobs: int = _jobs_option(),
    rules: str = typer.Option("lothar", "--rules", metavar="RULES",
                              help="The rule set: lothar (Lothar's table), isko, or a rule string "
                                   "with house rules (skat(preset=lothar,kontra_re=yes))."),
    as_json: bool = typer.Option(False, "--json",
                                 help="Print the figures as one JSON object, nothing else."),
    inference: bool = typer.Option(
        False, "--inference",
        help="Also measure, at every card-play decision of a strong seat, the "
             "log-likelihood its world weights give the true cards against uniform "
             "sampling (by trick; about 100 sampled worlds a decision)."),
    lang: str | None = _lang_option(),
) -> None:
    """Three bots play Skat on duplicate deals: list points per game with a 95 %
    interval, declarer win rate, decision times."""
    def build() -> Match:
        return Match(SKAT.name, _bots(bots), deals, seed, rules=SKAT.parse_rules(rules),
                     inference=inference)
    _run(build, jobs, as_json, lang)


@arena_app.command(BAPTISTEN.name)
def arena_baptisten(
    bots: str = typer.Option(..., "--bots", metavar="LIST",
                             help=_BOTS_HELP + " One per player."),
    deals: int = typer.Option(100, "--deals", metavar="N",
                              help="Deals (whole games); each is played once per seat "
                                   "rotation (one per player)."),
    seed: int = typer.Option(0, "--seed", metavar="S", help="Seed for the deals and bots."),
    jobs: int = _jobs_option(),
    players: int | None = typer.Option(None, "--players", metavar="P",
                                       help="Players (default: as many as bots)."),
    max_cards: int = typer.Option(10, "--max-cards", metavar="N",
                                  help="Cards in the middle round: rounds deal 1, 2 … N "
                                       "… 2, 1 cards."),
    deck: str = typer.Option("elferraus", "--deck", metavar="DECK",
                             help="The deck: " + ", ".join(PLAIN_DECKS) + "."),
    variants: str = typer.Option("", "--variants", metavar="LIST",
                                 help="Variants 2–5, e.g. 2,5: 2 forehead rounds, 3 trick "
                                      "scoring, 4 hook rule always, 5 must overtrump."),
    as_json: bool = typer.Option(False, "--json",
                                 help="Print the figures as one JSON object, nothing else."),
    inference: bool = typer.Option(
        False, "--inference",
        help="Also measure, at every card decision of a strong seat, the log-likelihood "
             "its bid-weighted worlds give the true cards over its plain sampler (by "
             "round size; about 100 sampled worlds a decision)."),
    lang: str | None = _lang_option(),
) -> None:
    """Bots play whole games of Baptistenskat on duplicate deals: points per game with a
    95 % interval, bid accuracy, decision times."""
    def build() -> Match:
        names = _bots(bots)
        flags = variant_fields(variants)
        rules = BaptistenRules(players=players if players is not None else max(len(names), 3),
                               max_cards=max_cards, deck=deck, forehead=flags["forehead"],
                               trick_scoring=flags["trick_scoring"],
                               hook_always=flags["hook_always"],
                               must_overtrump=flags["must_overtrump"])
        return Match(BAPTISTEN.name, names, deals, seed, rules=rules, inference=inference)
    _run(build, jobs, as_json, lang)
