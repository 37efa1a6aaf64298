"""`stich serve`: the online table (the HTTP and WebSocket API of docs/server.md)."""

from __future__ import annotations

from typing import Annotated

import typer

from stich.cli.app import app, check_lang, lang_option, print_error
from stich.cli.saving import data_dir
from stich.messages import StichError

__all__ = ["serve_cmd"]

TEXTS = {
    "de": {"ready": "stich läuft: öffne {url} im Browser  (API: {url}/docs, Ende mit Strg-C)",
           "multi": "mehrere Worker brauchen PostgreSQL (--db postgresql://…) und Redis "
                    "(--redis redis://…)"},
    "en": {"ready": "stich is running: open {url} in your browser  "
                    "(API: {url}/docs, stop with Ctrl-C)",
           "multi": "several workers need PostgreSQL (--db postgresql://…) and Redis "
                    "(--redis redis://…)"},
}


@app.command("serve")
def serve_cmd(
    host: Annotated[str, typer.Option("--host", metavar="HOST",
                                      help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", metavar="PORT", min=0, max=65535,
                                      help="Port (0: any free port).")] = 8000,
    db: Annotated[str | None, typer.Option(
        "--db", metavar="URL",
        help="Database: sqlite:///FILE or postgresql://USER@HOST:PORT/DB "
             "(default: stich.db in the data folder).")] = None,
    redis: Annotated[str | None, typer.Option(
        "--redis", metavar="URL",
        help="Redis for several workers or servers on one PostgreSQL "
             "(redis://HOST:PORT).")] = None,
    workers: Annotated[int, typer.Option("--workers", metavar="N", min=1, max=64,
                                         help="Worker processes (needs --redis).")] = 1,
    bot_delay: Annotated[float, typer.Option(
        "--bot-delay", metavar="SECONDS", min=0.0, max=10.0,
        help="How long a bot waits before it acts when a person sits at the table.")] = 0.5,
    bot_time: Annotated[float, typer.Option(
        "--bot-time", metavar="SECONDS", min=0.1, max=600.0,
        help="A bot's time per move; after it a random legal move is played.")] = 5.0,
    lang: str = lang_option(),
) -> None:
    """Start the site: lobby, tables in the browser with bots, Bestenliste, history."""
    lang = check_lang(lang)
    words = TEXTS[lang]
    if db is None:
        folder = data_dir()
        folder.mkdir(parents=True, exist_ok=True)
        db = f"sqlite:///{folder / 'stich.db'}"
    if (workers > 1 or redis) and (redis is None or not db.startswith("postgres")):
        print_error(StichError("text", text=words["multi"]), lang)
        raise typer.Exit(2)
    from stich.server.main import run  # the web libraries load only for this command

    try:
        run(db=db, redis=redis, host=host, port=port, workers=workers, bot_delay=bot_delay,
            bot_time=bot_time,
            announce=lambda url: typer.echo(words["ready"].format(url=url)))
    except (StichError, OSError) as e:
        print_error(e, lang)
        raise typer.Exit(1) from None
