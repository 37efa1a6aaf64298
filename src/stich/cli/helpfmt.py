"""The ``--help`` pages of the ``stich`` command, written like a well-kept CLI's.

Typer's own pages print a type after every option (``<bool>``, ``<list[Path]>``,
``<int range> [x>=1]``) and re-wrap docstrings into ragged lines.  These command and
group classes keep Typer's parsing and write the pages from the parameters' public
attributes instead: one usage line, the command's text as paragraphs, then every
argument and option with a metavar such as ``FILE`` or ``N`` (flags have none), its help
and its default; a group lists its commands in a fixed order with one-line summaries.

:func:`install` gives every command of a Typer application these classes; it runs once,
before the application builds its commands.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from typer.core import TyperCommand, TyperGroup

__all__ = ["COMMAND_ORDER", "StichCommand", "StichGroup", "install", "summary"]

# The order of the top-level command list: what most people want first.
COMMAND_ORDER = ("play", "serve", "admin", "replay", "analyze", "solve", "arena", "iss")


def summary(text: str | None) -> str:
    """The first clause of a help text, on one line (a command's entry in a list).

    >>> summary("Play Skat against two bots.  Type bids as numbers, ...")
    'Play Skat against two bots.'
    >>> summary("Replay game records and print each result; exit 1 on ...")
    'Replay game records and print each result.'
    """
    if not text:
        return ""
    first = " ".join(text.strip().split("\n\n")[0].split())
    cuts = [i for i in (first.find(". "), first.find("; "), first.find(": ")) if i >= 0]
    if cuts:
        first = first[:min(cuts)]
    return first.rstrip(".") + "."


def _metavar(param: Any) -> str:
    """``FILE``, ``N``, ``LANG`` …: the metavar set on the parameter, else ``N`` for a
    number, ``FILE`` for a path, else the parameter's name in capitals; flags take no
    value."""
    if getattr(param, "is_flag", False) or getattr(param, "count", False):
        return ""
    name: str = param.metavar or _by_type(param) or (param.name or "").upper()
    if param.param_type_name == "argument" and param.nargs != 1 and not name.endswith("..."):
        name += "..."
    return name


def _by_type(param: Any) -> str:
    """The metavar a parameter's annotated type suggests (Typer keeps the annotation)."""
    desc = getattr(param, "type_descriptor", None)
    annotation = getattr(desc, "annotation", None)
    words = {int: "N", float: "X", Path: "FILE"}
    if annotation in words:
        return words[annotation]
    for arg in getattr(annotation, "__args__", ()):  # list[Path], int | None
        if arg in words:
            return words[arg]
    return ""


def _default(param: Any) -> str:
    show = getattr(param, "show_default", True)
    value = param.default
    if not show or value is None or value is False or value == () or value == []:
        return ""
    if param.param_type_name == "argument" or getattr(param, "is_flag", False):
        return ""
    if isinstance(show, str):
        return show
    return str(value.value if hasattr(value, "value") else value)


def _option_record(param: Any) -> tuple[str, str]:
    names = sorted(param.opts, key=lambda o: (o.startswith("--"), o))
    names += list(param.secondary_opts)
    left = ", ".join(names)
    meta = _metavar(param)
    if meta:
        left += " " + meta
    help_text = " ".join((param.help or "").split())
    default = _default(param)
    if default:
        help_text += f" [default: {default}]"
    return left, help_text


def _argument_record(param: Any) -> tuple[str, str]:
    return _metavar(param), " ".join((param.help or "").split())


def _format_params(cmd: Any, ctx: Any, formatter: Any) -> None:
    params = [p for p in cmd.get_params(ctx) if not getattr(p, "hidden", False)]
    arguments = [_argument_record(p) for p in params if p.param_type_name == "argument"]
    options = [_option_record(p) for p in params if p.param_type_name == "option"]
    if arguments:
        with formatter.section("Arguments"):
            formatter.write_dl(arguments)
    if options:
        with formatter.section("Options"):
            formatter.write_dl(options)


def _usage_pieces(cmd: Any, ctx: Any) -> list[str]:
    pieces = [cmd.options_metavar] if cmd.options_metavar else []
    for p in cmd.get_params(ctx):
        if p.param_type_name == "argument":
            meta = _metavar(p)
            pieces.append(meta if p.required else f"[{meta}]")
    return pieces


class StichCommand(TyperCommand):
    """A command whose help page is written by :mod:`stich.cli.helpfmt`."""

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        return _usage_pieces(self, ctx)

    def format_options(self, ctx: Any, formatter: Any) -> None:
        _format_params(self, ctx, formatter)


class StichGroup(TyperGroup):
    """A group (``stich``, ``stich play``, ``stich iss``) with its commands in a fixed
    order, each with a one-line summary."""

    def list_commands(self, ctx: Any) -> list[str]:
        names = list(self.commands)
        rank = {n: i for i, n in enumerate(COMMAND_ORDER)}
        return sorted(names, key=lambda n: (rank.get(n, len(rank)), names.index(n)))

    def format_options(self, ctx: Any, formatter: Any) -> None:
        _format_params(self, ctx, formatter)
        rows = []
        for name in self.list_commands(ctx):
            cmd = self.get_command(ctx, name)
            if cmd is None or cmd.hidden:
                continue
            rows.append((name, cmd.short_help or summary(cmd.help)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


def install(app: typer.Typer) -> None:
    """Give every command and group of ``app`` (and of its sub-applications) the classes
    above, and plain (not Rich-panelled) help pages."""
    app.rich_markup_mode = None
    app.info.cls = StichGroup
    for info in app.registered_commands:
        info.cls = StichCommand
    for group in app.registered_groups:
        group.cls = StichGroup
        if group.typer_instance is not None:
            install(group.typer_instance)
