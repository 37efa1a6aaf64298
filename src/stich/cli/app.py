"""The Typer applications the subcommand modules attach to."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="stich",
    help="Skat and Baptistenskat: play in the terminal, replay and verify game records.",
    no_args_is_help=True,
    add_completion=False,
)
play_app = typer.Typer(help="Play a game in the terminal (against bots, or bots only).",
                       no_args_is_help=True)
iss_app = typer.Typer(help="Read and write game records of the International Skat Server.",
                      no_args_is_help=True)
app.add_typer(play_app, name="play")
app.add_typer(iss_app, name="iss")
