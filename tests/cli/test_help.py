"""The ``--help`` pages read like a well-kept CLI's: ``-h`` and ``--version`` work, no
Python types after the options, metavars such as ``FILE`` and ``N``, one-line command
summaries with ``play`` first."""

from __future__ import annotations

import re
from typing import Any

import pytest
import typer.main
from typer.testing import CliRunner

from stich.cli import app
from stich.cli.app import version

runner = CliRunner()


def _commands(group: Any, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every command path of the application: (), ("play",), ("play", "skat") …"""
    out = [prefix]
    for name, cmd in getattr(group, "commands", {}).items():
        out += _commands(cmd, (*prefix, name))
    return out


COMMANDS = _commands(typer.main.get_command(app))


def help_page(*path: str, flag: str = "--help") -> str:
    result = runner.invoke(app, [*path, flag], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    return result.output


def test_every_command_is_reached() -> None:
    assert {("play", "skat"), ("play", "baptisten"), ("replay",), ("iss", "verify"),
            ("admin", "backup"), ("admin", "remove-user")} <= set(COMMANDS)


@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: " ".join(p) or "stich")
def test_h_is_help(path: tuple[str, ...]) -> None:
    assert help_page(*path, flag="-h") == help_page(*path)


@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: " ".join(p) or "stich")
def test_no_python_types_on_the_help_pages(path: tuple[str, ...]) -> None:
    page = help_page(*path)
    for junk in ("<bool>", "<int", "<str>", "<path>", "list[", "x>=", "range>", "{file}",
                 "╭", "Path]"):
        assert junk not in page, f"{junk!r} on the help page of {path}:\n{page}"


@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: " ".join(p) or "stich")
def test_every_option_has_a_help_text_and_values_a_metavar(path: tuple[str, ...]) -> None:
    page = help_page(*path)
    options = page.split("Options:", 1)[1].split("Commands:", 1)[0]
    for line in options.splitlines():
        m = re.match(r"  (-\S+(?:, -\S+)*)( [A-Z][A-Z_.]*)?  +(\S.*)$", line)
        if line.startswith("  -"):
            assert m, f"option line without a help text: {line!r}"


@pytest.mark.parametrize("path", [p for p in COMMANDS
                                  if p in ((), ("play",), ("iss",), ("admin",))],
                         ids=lambda p: " ".join(p) or "stich")
def test_command_lists_have_one_line_summaries(path: tuple[str, ...]) -> None:
    page = help_page(*path)
    listing = page.split("Commands:", 1)[1].strip("\n").splitlines()
    for line in listing:
        assert re.match(r"  [a-z][a-z-]* +\S", line), f"a summary wraps: {line!r}\n{page}"


def test_play_is_the_first_command() -> None:
    listing = help_page().split("Commands:", 1)[1].split()
    assert listing[0] == "play"


def test_metavars_name_what_is_given() -> None:
    assert "-n, --games N " in help_page("play", "skat")
    assert "--seed N " in help_page("play", "skat")
    assert "Usage: stich replay [OPTIONS] FILE" in help_page("replay")


def test_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.output == f"stich {version()}\n"
    assert re.fullmatch(r"\d+\.\d+\.\d+\S*", version())
