"""Asking the person at the terminal for an action, for every game.

The loop is the same in each game: show the screen (with the messages of the last
attempt), read a line, skip blank ones, end the sitting on ``quit``, Ctrl-C or end of
input, let the game answer commands such as ``?`` (help) or ``liste``, and otherwise let
the game turn the text into an action.  A bad line gets a clear message and a new
prompt, never a traceback: the reader's own :class:`InputProblem`, or the engine's
refusal (a :class:`~stich.messages.StichError`) in the person's language.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from rich.console import RenderableType
from rich.markup import escape

from stich.cli.i18n import QUIT_WORDS, Translator
from stich.messages import StichError

__all__ = ["InputProblem", "Quit", "ask_until_valid", "problem", "read_or_quit",
           "wait_for_enter"]

T = TypeVar("T")

Notice = Sequence[RenderableType]


class InputProblem(ValueError):
    """Input that is not a legal action here; the message says why, for the person."""


class Quit(Exception):
    """The person ended the sitting (``quit``, Ctrl-C or end of input)."""


def problem(text: str) -> str:
    """A message about the last input, in the colour of problems."""
    return f"[red]{escape(text)}[/]"


def read_or_quit(read: Callable[[str], str], tr: Translator, prompt: str) -> str:
    """A line, or Quit at the end of input or Ctrl-C."""
    try:
        return read(prompt)
    except (EOFError, KeyboardInterrupt):
        raise Quit(tr("eof")) from None


def wait_for_enter(read: Callable[[str], str], tr: Translator, prompt: str) -> str:
    """A line after a result (its text, lower case); Quit on ``quit`` as anywhere."""
    low = " ".join(read_or_quit(read, tr, prompt).strip().lower().split())
    if low in QUIT_WORDS:
        raise Quit(tr("bye"))
    return low


def ask_until_valid(read: Callable[[str], str], tr: Translator,
                    show: Callable[[Notice], None],
                    command: Callable[[str], Notice | None],
                    accept: Callable[[str], T],
                    refusal: Callable[[StichError], Notice]) -> T:
    """Prompt until ``accept`` takes a line; raises Quit when the person stops.

    ``show(notice)`` draws the screen with the messages of the last attempt (none the
    first time); ``command(low)`` answers a command word with messages, or None when
    the line is not a command; ``refusal(e)`` the messages for an engine's refusal."""
    notice: Notice = []
    while True:
        show(notice)
        text = read_or_quit(read, tr, tr("prompt"))
        low = " ".join(text.strip().lower().split())
        notice = []
        if not low:
            continue
        if low in QUIT_WORDS:
            raise Quit(tr("bye"))
        answer = command(low)
        if answer is not None:
            notice = answer
            continue
        try:
            return accept(text)
        except InputProblem as e:
            notice = [problem(str(e))]
        except StichError as e:
            notice = refusal(e)
        except ValueError as e:  # never a traceback for the person
            notice = [problem(tr("not_allowed", reason=str(e)))]
