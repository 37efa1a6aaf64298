"""Asking the person at the terminal for an action, for every game.

The loop is the same in each game: read a line, skip blank ones, end the sitting on
``quit``, Ctrl-C or end of input, show help on ``?``, and otherwise let the game's input
reader turn the text into an action; a bad line gets a clear message and a new prompt,
never a traceback.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from rich.markup import escape

from stich.cli.i18n import HELP_WORDS, QUIT_WORDS, Translator

__all__ = ["InputProblem", "Quit", "ask_until_valid"]

T = TypeVar("T")


class InputProblem(ValueError):
    """Input that is not a legal action here; the message says why, for the person."""


class Quit(Exception):
    """The person ended the sitting (``quit``, Ctrl-C or end of input)."""


def ask_until_valid(read: Callable[[str], str], say: Callable[..., None], tr: Translator,
                    show_help: Callable[[], None], parse: Callable[[str], T]) -> T:
    """Prompt until ``parse`` accepts a line; raises Quit when the person stops."""
    while True:
        try:
            text = read(tr("prompt"))
        except (EOFError, KeyboardInterrupt):
            say()
            raise Quit(tr("eof")) from None
        low = text.strip().lower()
        if not low:
            continue
        if low in QUIT_WORDS:
            raise Quit(tr("bye"))
        if low in HELP_WORDS:
            show_help()
            continue
        try:
            return parse(text)
        except InputProblem as e:
            say(f"[red]{escape(str(e))}[/]")
        except ValueError as e:  # never a traceback for the person
            say(f"[red]{escape(tr('not_allowed', reason=str(e)))}[/]")
