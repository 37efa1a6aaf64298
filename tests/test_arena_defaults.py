"""The arena command's defaults (issue 44, second pass): English unless the locale is
German, one process unless asked, tables as wide as they need when the output is not a
terminal, and ``--help`` naming every kind of bot."""

from __future__ import annotations

from typing import Any

import pytest
from typer.testing import CliRunner

import stich.cli.arena as cli_arena
from stich.cli import app
from stich.cli.arena import locale_lang

runner = CliRunner()

SKAT = ["arena", "skat", "--bots", "easy,random,random", "--deals", "1", "--seed", "1"]
NO_LOCALE: dict[str, str | None] = {"LC_ALL": None, "LC_MESSAGES": None, "LANG": None,
                                    "COLUMNS": None}


@pytest.mark.parametrize(("env", "lang"), [
    ({}, "en"), ({"LANG": "en_US.UTF-8"}, "en"), ({"LANG": "fr_FR.UTF-8"}, "en"),
    ({"LANG": "de_DE.UTF-8"}, "de"), ({"LC_MESSAGES": "de_AT", "LANG": "en_GB"}, "de"),
    ({"LC_ALL": "C", "LANG": "de_DE.UTF-8"}, "en"), ({"LC_ALL": "de_CH.UTF-8"}, "de"),
])
def test_the_output_is_english_unless_the_locale_is_german(env: dict[str, str],
                                                           lang: str) -> None:
    assert locale_lang(env) == lang
    result = runner.invoke(app, SKAT, env={**NO_LOCALE, **env})
    assert result.exit_code == 0, result.output
    words = {"en": ("Games", "List pts/game"), "de": ("Spiele", "Liste/Spiel")}[lang]
    assert all(w in result.stdout for w in words), result.stdout
    refused = runner.invoke(app, ["arena", "skat", "--bots", "easy"], env={**NO_LOCALE, **env})
    assert refused.stderr.startswith("error: " if lang == "en" else "Fehler: ")


def test_lang_chooses_whatever_the_locale() -> None:
    de = runner.invoke(app, [*SKAT, "--lang", "de"], env={**NO_LOCALE, "LANG": "en_US"})
    en = runner.invoke(app, [*SKAT, "--lang", "en"], env={**NO_LOCALE, "LANG": "de_DE"})
    assert "Spiele" in de.stdout and "Games" in en.stdout


def test_one_process_unless_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[int] = []
    real = cli_arena.run_match

    def spy(match: Any, jobs: int = 1, progress: Any = None) -> dict[str, Any]:
        asked.append(jobs)
        return real(match, jobs, progress)

    monkeypatch.setattr(cli_arena, "run_match", spy)
    assert runner.invoke(app, [*SKAT, "--json"]).exit_code == 0
    assert runner.invoke(app, [*SKAT, "--json", "-j", "2"]).exit_code == 0
    assert asked == [1, 2]


def test_the_table_is_not_cut_when_the_output_is_not_a_terminal() -> None:
    long_name = "py:stich.bots:RandomBot"  # a wide first column: past 80 columns
    result = runner.invoke(app, ["arena", "skat", "--bots", f"{long_name},easy,random",
                                 "--deals", "1", "--lang", "en"], env=NO_LOCALE)
    assert result.exit_code == 0, result.output
    header = next(line for line in result.stdout.splitlines() if "Bot" in line)
    for column in ("Games", "List pts/game", "95 %", "Decl.", "Won", "ms median", "ms p99"):
        assert column in header, header  # Rich squeezed these to nothing at 80 columns
    assert len(header) > 80 and f"│ {long_name} │" in result.stdout
    assert f"{long_name} − easy on the same deals in the same seat:" in result.stdout
    narrow = runner.invoke(app, ["arena", "skat", "--bots", f"{long_name},easy,random",
                                 "--deals", "1", "--lang", "en"], env={"COLUMNS": "60"})
    assert max(len(line) for line in narrow.stdout.splitlines()) <= 60  # COLUMNS rules


@pytest.mark.parametrize("game", ["skat", "baptisten"])
def test_help_names_every_kind_of_bot_and_the_defaults(game: str) -> None:
    text = " ".join(runner.invoke(app, ["arena", game, "--help"],
                                  env={"COLUMNS": "200"}).stdout.split())
    assert "file:policy.npz" in text and "py:package.module:factory" in text
    assert "strong" in text and "random" in text
    assert "default: 1" in text.replace("[default: 1]", "default: 1")
    assert "de when the locale" in text
