"""The Typer applications the subcommand modules attach to."""

from __future__ import annotations

from importlib import metadata
from typing import Any

import typer

from stich.messages import Msg, Namer, render
from stich.present.languages import DEFAULT_LANG, LANGS

HELP_OPTIONS = {"help_option_names": ["-h", "--help"]}

app = typer.Typer(
    name="stich",
    no_args_is_help=True,
    add_completion=False,
    context_settings=HELP_OPTIONS,
)
play_app = typer.Typer(help="Play Skat or Baptistenskat in the terminal.",
                       no_args_is_help=True, context_settings=HELP_OPTIONS)
iss_app = typer.Typer(help="Read and write records of the International Skat Server.",
                      no_args_is_help=True, context_settings=HELP_OPTIONS)
app.add_typer(play_app, name="play")
app.add_typer(iss_app, name="iss")


def _version(value: bool) -> None:
    if value:
        typer.echo(f"stich {version()}")
        raise typer.Exit()


def version() -> str:
    """The installed package's version."""
    try:
        return metadata.version("stich")
    except metadata.PackageNotFoundError:  # running from a source tree
        from stich import __version__

        return __version__


@app.callback()
def _root(
    show_version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                      help="Print the version and exit."),
) -> None:
    """Skat and Baptistenskat: the site for the browser (serve), play in the terminal,
    replay, verify and analyse game records, let bots play each other (arena)."""


def lang_option() -> Any:
    """The ``--lang`` option every command shares: German by default, or English."""
    return typer.Option(DEFAULT_LANG, "--lang", metavar="LANG", show_default=False,
                        help="Language of the output: de (German, the default) or en.")


def check_lang(lang: str) -> str:
    """``lang`` if it is a known language, else a usage error naming the choices."""
    if lang not in LANGS:
        raise typer.BadParameter(f"use {' or '.join(LANGS)}", param_hint="--lang")
    return lang


def error_text(e: BaseException, lang: str, *, where: str | None = None,
               namer: Namer | None = None) -> str:
    """An error for the person, in ``lang``: ``Fehler: <where>: <message>``; a
    :class:`~stich.messages.StichError` by its code, any other exception as its text."""
    msg = Msg.of(e)
    inner = render(msg.code, msg.params, lang, namer)
    if where:
        inner = f"{where}: {inner}"
    return render("cli.error", {"text": inner}, lang)


def print_error(e: BaseException, lang: str, *, where: str | None = None,
                namer: Namer | None = None) -> None:
    """Write :func:`error_text` to stderr."""
    typer.echo(error_text(e, lang, where=where, namer=namer), err=True)
