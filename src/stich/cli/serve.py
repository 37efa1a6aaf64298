"""`stich serve`: the online table (the HTTP and WebSocket API of docs/server.md)."""

from __future__ import annotations

from typing import Annotated

import typer

from stich.cli.app import app, check_lang, lang_option, print_error
from stich.cli.saving import ENV_DATA_DIR, data_dir, default_data_dir
from stich.messages import StichError
from stich.server_settings import DEFAULTS

__all__ = ["default_db", "serve_cmd"]

TEXTS = {
    "de": {"ready": "stich läuft: öffne {url} im Browser  (Ende mit Strg-C)",
           "db": "Datenbank: {db}",
           "multi": "mehrere Worker brauchen PostgreSQL (--db postgresql://…) und Redis "
                    "(--redis redis://…)"},
    "en": {"ready": "stich is running: open {url} in your browser  (stop with Ctrl-C)",
           "db": "database: {db}",
           "multi": "several workers need PostgreSQL (--db postgresql://…) and Redis "
                    "(--redis redis://…)"},
}


def default_db() -> str:
    """The database of ``stich serve`` without ``--db`` (and of ``stich admin``):
    ``stich.db`` in the data folder."""
    return f"sqlite:///{data_dir() / 'stich.db'}"


SERVE_HELP = (
    "Start the site: lobby, tables in the browser with bots, Bestenliste, history.\n\n"
    f"The data folder (the database stich.db, unless --db says otherwise) is "
    f"${ENV_DATA_DIR} when that variable is set, else {default_data_dir()}.")
"""The help page's text: where the data folder is (docs/server.md)."""


@app.command("serve", help=SERVE_HELP)
def serve_cmd(
    host: Annotated[str, typer.Option("--host", metavar="HOST",
                                      help="Address to listen on.")] = DEFAULTS.host,
    port: Annotated[int, typer.Option("--port", metavar="PORT", min=0, max=65535,
                                      help="Port (0: any free port).")] = DEFAULTS.port,
    db: Annotated[str | None, typer.Option(
        "--db", metavar="URL", envvar="STICH_DB",
        help="Database: sqlite:///FILE or postgresql://USER@HOST:PORT/DB "
             "(default: stich.db in the data folder).")] = None,
    redis: Annotated[str | None, typer.Option(
        "--redis", metavar="URL", envvar="STICH_REDIS",
        help="Redis for several workers or servers on one PostgreSQL "
             "(redis://HOST:PORT).")] = None,
    workers: Annotated[int, typer.Option(
        "--workers", metavar="N", min=1, max=64,
        help="Worker processes (needs --redis).")] = DEFAULTS.workers,
    bot_delay: Annotated[float, typer.Option(
        "--bot-delay", metavar="SECONDS", min=0.0, max=10.0,
        help="How long a bot waits before each move (at tables of bots alone too).")] = \
        DEFAULTS.bot_delay,
    bot_time: Annotated[float, typer.Option(
        "--bot-time", metavar="SECONDS", min=0.1, max=600.0,
        help="A bot's time per move; after it a random legal move is played.")] = \
        DEFAULTS.bot_time,
    public_url: Annotated[str | None, typer.Option(
        "--public-url", metavar="URL", envvar="STICH_PUBLIC_URL",
        help="Where people reach the site (https://skat.example.org): the only origin "
             "whose pages may open tables and change things; with https, cookies are "
             "Secure and HSTS is sent.")] = None,
    forwarded_allow_ips: Annotated[str | None, typer.Option(
        "--forwarded-allow-ips", metavar="IPS", envvar="STICH_FORWARDED_ALLOW_IPS",
        help="Addresses of the proxy in front (e.g. 127.0.0.1): only from them the "
             "X-Forwarded-For/-Proto headers count.")] = None,
    limits: Annotated[str | None, typer.Option(
        "--limits", metavar="LIMITS", envvar="STICH_LIMITS",
        help="Change the site's limits and quotas: name=number,… (docs/security.md "
             "lists them).")] = None,
    metrics_token: Annotated[str | None, typer.Option(
        "--metrics-token", metavar="TOKEN", envvar="STICH_METRICS_TOKEN",
        help="Serve Prometheus metrics at /metrics to requests with 'Authorization: "
             "Bearer TOKEN' (off without it).")] = None,
    ws_compression: Annotated[bool, typer.Option(
        "--ws-compression", envvar="STICH_WS_COMPRESSION",
        help="Compress the table messages (WebSocket permessage-deflate): a tenth of "
             "the bytes (a seat gets about 15 KB a Skat game without), for more CPU and "
             "about 50 KB of memory per connection.")] = DEFAULTS.ws_compression,
    lang: str = lang_option(),
) -> None:
    """Start the site: lobby, tables in the browser with bots, Bestenliste, history."""
    lang = check_lang(lang)
    words = TEXTS[lang]
    if db is None:
        data_dir().mkdir(parents=True, exist_ok=True)
        db = default_db()
    if (workers > 1 or redis) and (redis is None or not db.startswith("postgres")):
        print_error(StichError("text", text=words["multi"]), lang)
        raise typer.Exit(2)
    from stich.server.main import run  # the web libraries load only for this command

    try:
        run(db=db, redis=redis, host=host, port=port, workers=workers, bot_delay=bot_delay,
            bot_time=bot_time, public_url=public_url, forwarded_allow_ips=forwarded_allow_ips,
            limits=limits, metrics_token=metrics_token, ws_compression=ws_compression,
            announce=lambda url: typer.echo(words["ready"].format(url=url)),
            announce_db=lambda where: typer.echo(words["db"].format(db=where)))
    except (StichError, OSError, ValueError) as e:
        print_error(e, lang)
        raise typer.Exit(1) from None
