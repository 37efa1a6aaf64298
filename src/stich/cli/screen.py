"""Where a game session shows itself: a fixed table redrawn on a real terminal, or a
plain log that reads like a dialogue.

On a terminal (stdin and stdout both a TTY) the session draws one table per question,
fitted to the terminal's size, on the alternate screen, and the terminal's own contents
come back when the sitting ends.  Anywhere else (a pipe, a test, ``--json``) the same
render functions print one after another and nothing is cleared, so piped play still
reads as a dialogue.

The fitting is by lines: :func:`height` measures a renderable at a width, and a table
gives the flexible part (the log of recent events) whatever lines the fixed parts leave.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

__all__ = ["Event", "Screen", "fit_lines", "height", "side_by_side", "wants_live"]


def wants_live(console: Console) -> bool:
    """Whether a session should redraw a fixed table: output and input on a terminal."""
    return console.is_terminal and not console.is_dumb_terminal and sys.stdin.isatty()


def height(console: Console, renderable: RenderableType, width: int) -> int:
    """How many lines ``renderable`` takes at ``width`` columns."""
    options = console.options.update(width=width, height=None)
    return len(console.render_lines(renderable, options, pad=False))


def fit_lines(console: Console, lines: Sequence[str], width: int, room: int) -> list[str]:
    """The newest of ``lines`` (Rich markup) that fit into ``room`` terminal lines at
    ``width`` columns (a long line may wrap and take two)."""
    out: list[str] = []
    used = 0
    for line in reversed(lines):
        h = height(console, Text.from_markup(line), width)
        if used + h > room:
            break
        out.append(line)
        used += h
    out.reverse()
    return out


def side_by_side(parts: Sequence[RenderableType], gap: int = 2) -> Table:
    """Renderables next to each other in one row, each in its own column."""
    grid = Table.grid(padding=(0, gap))
    for _ in parts:
        grid.add_column(vertical="top")
    grid.add_row(*parts)
    return grid

@dataclass(frozen=True)
class Event:
    """A line of what happened; ``trick``: a finished trick (the log prints those only
    when asked to, the table always keeps them)."""

    text: str
    trick: bool = False


class Screen:
    """The console of one session, live (a redrawn table) or as a log.

    ``quiet``: print nothing at all (``--json`` writes its records itself)."""

    def __init__(self, console: Console, *, live: bool, quiet: bool = False) -> None:
        self.console = console
        self.live = live and not quiet
        self.quiet = quiet
        self._alt = False

    @property
    def width(self) -> int:
        return self.console.size.width

    @property
    def height(self) -> int:
        return self.console.size.height

    def say(self, text: str = "") -> None:
        """A line of the log (Rich markup); nothing on the live table, which shows the
        latest events itself."""
        if not self.quiet and not self.live:
            self.console.print(text, highlight=False)

    def show(self, renderable: RenderableType) -> None:
        """Print in the log; nothing on the live table."""
        if not self.quiet and not self.live:
            self.console.print(renderable, highlight=False)

    def draw(self, parts: Sequence[RenderableType]) -> None:
        """The whole table, from the top of a cleared screen (live only)."""
        if not self.live:
            return
        if not self._alt:
            self.console.set_alt_screen(True)
            self._alt = True
        self.console.clear()
        self.console.print(Group(*parts), highlight=False)

    def leave(self) -> None:
        """Back to the terminal's normal screen; what follows is printed as a log and
        stays in the scrollback."""
        if self._alt:
            self.console.set_alt_screen(False)
            self._alt = False
        self.live = False

    def out(self, renderable: RenderableType = "") -> None:
        """Print whatever the mode (the end of a sitting, after :meth:`leave`)."""
        if not self.quiet:
            self.console.print(renderable, highlight=False)
