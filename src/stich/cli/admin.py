"""`stich admin`: look after the site of `stich serve` from the shell, on its database
(the same ``--db`` as the server's), while the server runs.

``backup`` and ``restore`` copy the whole database (SQLite's backup API, or pg_dump and
pg_restore); ``tables`` and ``users`` list; ``close`` ends a table with an ``end``
event as the server does, ``remove-user`` deletes an account as its owner can, ``purge``
deletes expired sessions and old guests.  A running server notices closed tables and
ended sessions in its housekeeping round (every 30 seconds) and tells the people
concerned.  The database libraries load only when a command runs.

Exit codes: 0 done, 1 refused or failed (the message says why), 2 a mistake in the
command line, or a confirmation (``--yes``) missing.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from stich.cli.app import HELP_OPTIONS, app, check_lang, lang_option, print_error
from stich.cli.serve import default_db
from stich.messages import Msg, StichError, render

if TYPE_CHECKING:
    from stich.server.store.db import Store

__all__ = ["admin_app"]

T = TypeVar("T")

admin_app = typer.Typer(
    help="Back up the site's database, close tables, remove accounts.\n\n"
         "Backup and restore, lists of the tables and accounts, closing a table, removing "
         "an account, purging old sessions and guests. Works on the database of stich "
         "serve (--db, the same default), also while the server runs; a running server "
         "picks up closed tables and ended sessions within its housekeeping round (30 "
         "seconds). Exit code 0 when done, 1 when refused or failed, 2 for a mistake in "
         "the command line or a missing --yes.",
    no_args_is_help=True, context_settings=HELP_OPTIONS)
app.add_typer(admin_app, name="admin")

STATUSES = {"waiting": ("waiting",), "running": ("running",), "over": ("over",),
            "open": ("waiting", "running")}
REASONS = ("operator", "closed", "abandoned", "expired")


def db_option() -> Any:
    return typer.Option(
        None, "--db", metavar="URL",
        help="The server's database: sqlite:///FILE or postgresql://USER@HOST:PORT/DB "
             "(default: stich.db in the data folder, as for stich serve).")


def json_option() -> Any:
    return typer.Option(False, "--json",
                        help="Print the list as one JSON object (times in ISO 8601, UTC).")


class Usage(Exception):
    """A mistake in the command line (exit code 2), with its message."""

    def __init__(self, error: StichError) -> None:
        super().__init__(str(error))
        self.error = error


@contextmanager
def reporting(lang: str) -> Iterator[None]:
    """Refusals and failures as an error line in ``lang`` and their exit code."""
    from sqlalchemy.exc import DBAPIError

    try:
        yield
    except Usage as e:
        print_error(e.error, lang)
        raise typer.Exit(2) from None
    except DBAPIError as e:
        print_error(StichError("admin.cannot_open", reason=_reason(e)), lang)
        raise typer.Exit(1) from None
    except (StichError, OSError) as e:
        print_error(e, lang)
        raise typer.Exit(1) from None


def _reason(e: Any) -> str:
    """The first line of the driver's own message."""
    text = str(getattr(e, "orig", None) or e).strip()
    return text.splitlines()[0] if text else type(e).__name__


def _url(db: str | None) -> str:
    """The database URL (the default one without ``--db``), refused when malformed."""
    from stich.server.store.db import sync_url

    url = db or default_db()
    try:
        sync_url(url)
        if _is_sqlite(url) and _sqlite_path(url) is None:
            raise StichError("server.bad_db", url=url)
    except StichError as e:
        raise Usage(e) from None
    except Exception:  # not a URL at all
        raise Usage(StichError("server.bad_db", url=url)) from None
    return url


def _is_sqlite(url: str) -> bool:
    from sqlalchemy.engine import make_url

    return bool(make_url(url).get_backend_name() == "sqlite")


def _sqlite_path(url: str) -> Path | None:
    from sqlalchemy.engine import make_url

    name = make_url(url).database
    if not name or name == ":memory:" or name.startswith("file:"):
        return None
    return Path(name)


def _shown(url: str) -> str:
    """The URL without its password, for messages."""
    from sqlalchemy.engine import make_url

    if _is_sqlite(url):
        return str(_sqlite_path(url))
    return str(make_url(url).render_as_string(hide_password=True))


def _check(url: str, *, current: bool = True) -> None:
    """The database exists and holds stich's schema (``current``: the newest revision,
    which the queries of this version expect)."""
    from stich.server.store.db import revisions

    if _is_sqlite(url):
        path = _sqlite_path(url)
        assert path is not None
        if not path.is_file():
            raise StichError("admin.no_database", file=str(path))
    found, head = revisions(url)
    if found is None:
        raise StichError("admin.not_stich", db=_shown(url))
    if current and head is not None and found != head:
        raise StichError("admin.old_schema", found=found, head=head)


def _with_store(url: str, work: Callable[[Store], Awaitable[T]]) -> T:
    """Run ``work`` with a :class:`Store` of the database (checked first)."""
    _check(url)
    from stich.server.store.db import Store

    async def go() -> T:
        store = Store(url)
        try:
            return await work(store)
        finally:
            await store.close()

    return asyncio.run(go())


def _time(t: datetime | None) -> str:
    if t is None:
        return "-"
    return (t if t.tzinfo else t.replace(tzinfo=UTC)).astimezone(UTC).strftime(
        "%Y-%m-%d %H:%M")


def _iso(t: datetime | None) -> str | None:
    if t is None:
        return None
    return (t if t.tzinfo else t.replace(tzinfo=UTC)).astimezone(UTC).isoformat()


def _columns(head: list[str], rows: list[list[str]]) -> list[str]:
    """Rows under a heading, each column as wide as its widest cell."""
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    return ["  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip()
            for r in [head, *rows]]


def _say(code: str, lang: str, **params: Any) -> str:
    return render(code, params, lang)


def _shown_of(n: int, total: int, lang: str) -> list[str]:
    return [_say("admin.shown", lang, shown=n, total=total)] if n < total else []


# --- backup and restore ----------------------------------------------------------------


@admin_app.command("backup")
def backup_cmd(
    file: Annotated[Path, typer.Argument(
        metavar="FILE", help="Where the backup goes: a SQLite database file, or for "
                             "PostgreSQL an archive of pg_dump --format=custom.")],
    force: Annotated[bool, typer.Option(
        "--force", help="Overwrite FILE if it exists.")] = False,
    db: str | None = db_option(),
    lang: str = lang_option(),
) -> None:
    """Back up the database while the server runs.

    SQLite: a consistent copy made with SQLite's backup API, one file that the server
    can open as it is. PostgreSQL: pg_dump --format=custom (found on PATH or in
    /usr/lib/postgresql/*/bin). Restore either with stich admin restore. FILE is not
    overwritten unless --force is given."""
    lang = check_lang(lang)
    with reporting(lang):
        url = _url(db)
        from stich.server.store.backup import pg_dump, sqlite_backup

        if file.exists() and not force:
            raise StichError("admin.file_exists", file=str(file))
        if not file.parent.is_dir():
            raise StichError("admin.no_folder", folder=str(file.parent), file=str(file))
        _check(url, current=False)
        if _is_sqlite(url):
            path = _sqlite_path(url)
            assert path is not None
            if file.resolve() == path.resolve():
                raise StichError("admin.same_file", file=str(file))
            sqlite_backup(path, file, force)
        else:
            pg_dump(url, file, force)
        typer.echo(_say("admin.backup_done", lang, file=str(file), size=file.stat().st_size))


@admin_app.command("restore")
def restore_cmd(
    file: Annotated[Path, typer.Argument(
        metavar="FILE", help="A backup made by stich admin backup, of the same kind of "
                             "database as --db.")],
    yes: Annotated[bool, typer.Option(
        "--yes", help="Really replace the data of --db (refused without it).")] = False,
    db: str | None = db_option(),
    lang: str = lang_option(),
) -> None:
    """Restore a backup into the database, replacing its data.

    SQLite: FILE is copied into the --db file with SQLite's backup API (the file is made
    if it does not exist). PostgreSQL: pg_restore --clean --if-exists --no-owner in one
    transaction, into an existing database (it may be empty). Stop the server first and
    start it again afterwards: a running server keeps its live tables in memory. Refused
    without --yes."""
    lang = check_lang(lang)
    with reporting(lang):
        url = _url(db)
        from stich.server.store.backup import (
            pg_check,
            pg_restore,
            sqlite_restore,
            sqlite_revision,
        )

        if file.is_dir():
            raise StichError("file.folder", file=str(file))
        if not file.is_file():
            raise StichError("file.missing", file=str(file))
        sqlite = _is_sqlite(url)
        path = _sqlite_path(url) if sqlite else None
        if path is not None:
            sqlite_revision(file)
            if not path.parent.is_dir():
                raise StichError("admin.no_folder", folder=str(path.parent), file=str(path))
            if path.exists() and file.resolve() == path.resolve():
                raise StichError("admin.same_file", file=str(file))
        else:
            pg_check(file)
        if not yes:
            raise Usage(StichError("admin.confirm_restore", db=_shown(url), file=str(file)))
        if path is not None:
            sqlite_restore(file, path)
        else:
            from stich.server.store.db import revisions

            revisions(url)  # reachable (pg_restore's own message would be longer)
            pg_restore(file, url)
        typer.echo(_say("admin.restore_done", lang, file=str(file), db=_shown(url)))


# --- tables --------------------------------------------------------------------------------


@admin_app.command("tables")
def tables_cmd(
    status: Annotated[str | None, typer.Option(
        "--status", metavar="STATUS",
        help="Only tables that are waiting (for players), running, over, or open "
             "(waiting or running).")] = None,
    limit: Annotated[int, typer.Option(
        "--limit", metavar="N", min=1, help="At most N tables, the newest first.")] = 100,
    as_json: bool = json_option(),
    db: str | None = db_option(),
    lang: str = lang_option(),
) -> None:
    """List the tables: id, game, status, seats, creator, created, last change, games.

    Seats show the players' names and the bots' levels; games counts the finished games
    (Skat) or rounds (Baptistenskat)."""
    lang = check_lang(lang)
    with reporting(lang):
        url = _url(db)
        if status is not None and status not in STATUSES:
            raise Usage(StichError("admin.bad_status", status=status))
        from stich.server.store.admin import table_lines

        lines, total = _with_store(
            url, lambda s: table_lines(s, STATUSES[status] if status else None, limit))
        if as_json:
            typer.echo(json.dumps({"tables": [_table_json(t) for t in lines],
                                   "total": total}, ensure_ascii=False))
            return
        if not lines:
            typer.echo(_say("admin.no_tables", lang))
            return
        head = [_say(f"admin.col.{c}", lang) for c in
                ("table", "game", "status", "seats", "creator", "created", "changed",
                 "games")]
        rows = [[t.row.id, t.row.game, _say(f"admin.status.{t.row.status}", lang),
                 _seats_text(t.row.summary, lang), t.creator or "-",
                 _time(t.row.created_at), _time(t.row.updated_at),
                 str(t.row.summary.get("games_played", 0))] for t in lines]
        for line in [*_columns(head, rows), *_shown_of(len(lines), total, lang)]:
            typer.echo(line)


def _seats_text(summary: dict[str, Any], lang: str) -> str:
    out = []
    for seat in summary.get("seats", []):
        if seat.get("kind") == "free":
            out.append(_say("admin.free_seat", lang))
        elif seat.get("bot"):
            out.append(_say("admin.bot", lang, name=seat.get("name") or "?",
                            level=seat["bot"]))
        else:
            out.append(str(seat.get("name") or "?"))
    return ", ".join(out)


def _table_json(t: Any) -> dict[str, Any]:
    r = t.row
    return {"id": r.id, "game": r.game, "rules": r.rules, "status": r.status,
            "public": r.public, "games": r.settings.get("games"),
            "games_played": r.summary.get("games_played", 0),
            "seats": [{"seat": s.get("seat"), "kind": s.get("kind"), "name": s.get("name"),
                       "bot": s.get("bot"), "user": s.get("user")}
                      for s in r.summary.get("seats", [])],
            "creator": None if r.created_by is None else {"id": r.created_by,
                                                          "name": t.creator},
            "created_at": _iso(r.created_at), "updated_at": _iso(r.updated_at)}


@admin_app.command("close")
def close_cmd(
    table_id: Annotated[str, typer.Argument(
        metavar="TABLE_ID", help="The table's id (stich admin tables lists them; it is "
                                 "also in the table's address /t/ID).")],
    reason: Annotated[str, typer.Option(
        "--reason", metavar="REASON",
        help="What the players are told: operator (the site's operator closed it), "
             "closed (its creator did), abandoned (nobody came back) or expired (it "
             "never started).")] = "operator",
    db: str | None = db_option(),
    lang: str = lang_option(),
) -> None:
    """End a table that is not over, as its creator can.

    A running game is not counted; finished games stay in the history. The end is
    written to the database as the server writes it; a running server sends it to the
    table's players within its housekeeping round."""
    lang = check_lang(lang)
    with reporting(lang):
        url = _url(db)
        if reason not in REASONS:
            raise Usage(StichError("admin.bad_reason", reason=reason))
        from stich.server.store.admin import close_table

        sitting = _with_store(url, lambda s: close_table(s, table_id, reason))
        typer.echo(_say("admin.closed", lang, table=table_id, seq=sitting.seq))


@admin_app.command("recount")
def recount_cmd(
    db: str | None = db_option(),
    lang: str = lang_option(),
) -> None:
    """Recount whose each finished game was, from the tables' events.

    A game a bot played for a person (after she left the table, or while she was away for
    the whole game) counts for nobody in the Bestenliste, the player pages and the
    ratings (docs/server.md, "Whose game was it"). Games stored before that rule count
    for the person; this marks them as the server marks new games. Safe to run again."""
    lang = check_lang(lang)
    with reporting(lang):
        url = _url(db)
        from stich.server.store.admin import recount

        games, absent = _with_store(url, recount)
        typer.echo(_say("admin.recounted", lang, games=games, absent=absent))


@admin_app.command("ratings")
def ratings_cmd(
    rebuild: bool = typer.Option(False, "--rebuild",
                                 help="Work out every rating again from the stored games."),
    db: str | None = db_option(),
    lang: str = lang_option(),
) -> None:
    """Rebuild the ratings from the stored games (docs/ratings.md).

    Every finished game updates the ratings when it is stored; this works them out again
    from all stored games, oldest first, and gives the same figures. Safe to run again,
    also while the server runs."""
    lang = check_lang(lang)
    with reporting(lang):
        if not rebuild:
            raise Usage(StichError("admin.ratings_what"))
        url = _url(db)
        from stich.server.store.admin import rebuild_ratings

        games, ratings = _with_store(url, rebuild_ratings)
        typer.echo(_say("admin.ratings_rebuilt", lang, games=games, ratings=ratings))


# --- accounts ------------------------------------------------------------------------------


@admin_app.command("users")
def users_cmd(
    guests: Annotated[bool, typer.Option("--guests", help="Only guests.")] = False,
    registered: Annotated[bool, typer.Option(
        "--registered", help="Only registered players.")] = False,
    limit: Annotated[int, typer.Option(
        "--limit", metavar="N", min=1, help="At most N accounts, the newest first.")] = 100,
    as_json: bool = json_option(),
    db: str | None = db_option(),
    lang: str = lang_option(),
) -> None:
    """List the accounts: id, name, guest or registered, created, sessions.

    Sessions counts the logins that have not expired (each browser that is logged in)."""
    lang = check_lang(lang)
    with reporting(lang):
        url = _url(db)
        if guests and registered:
            raise Usage(StichError("admin.guests_or_registered"))
        from stich.server.store.admin import user_lines

        which = True if guests else False if registered else None
        lines, total = _with_store(url, lambda s: user_lines(s, which, limit))
        if as_json:
            typer.echo(json.dumps({"users": [
                {"id": u.user.id, "name": u.user.name, "guest": u.user.guest,
                 "created_at": _iso(u.user.created_at), "sessions": u.sessions}
                for u in lines], "total": total}, ensure_ascii=False))
            return
        if not lines:
            typer.echo(_say("admin.no_users", lang))
            return
        head = [_say(f"admin.col.{c}", lang)
                for c in ("id", "name", "kind", "created", "sessions")]
        rows = [[str(u.user.id), u.user.name,
                 _say("admin.guest" if u.user.guest else "admin.registered", lang),
                 _time(u.user.created_at), str(u.sessions)] for u in lines]
        for line in [*_columns(head, rows), *_shown_of(len(lines), total, lang)]:
            typer.echo(line)


@admin_app.command("remove-user")
def remove_user_cmd(
    name_or_id: Annotated[str, typer.Argument(
        metavar="NAME_OR_ID", help="The account's name, or its id from stich admin users "
                                   "(a number is taken as an id first).")],
    yes: Annotated[bool, typer.Option(
        "--yes", help="Really delete it (without it: only say what would happen).")] = False,
    db: str | None = db_option(),
    lang: str = lang_option(),
) -> None:
    """Delete an account as its owner can; its finished games stay, under a neutral name.

    Its sessions end (a running server closes their sockets within its housekeeping
    round). Refused while the account sits at a table that is not over: close that table
    first. Without --yes it only says what it would delete (exit code 2)."""
    lang = check_lang(lang)
    with reporting(lang):
        url = _url(db)
        from stich.server.auth import DELETED_NAME

        async def work(store: Store) -> tuple[Any, int]:
            from stich.server.store.admin import find_users, live_tables_of

            found = await find_users(store, name_or_id)
            if not found:
                raise StichError("admin.no_user", user=name_or_id)
            if len(found) > 1:
                raise StichError("admin.several_guests", n=len(found), user=name_or_id,
                                 ids=", ".join(str(u.id) for u in found))
            user = found[0]
            tables = await live_tables_of(store, user.id)
            if tables:
                raise StichError("admin.still_seated", name=user.name,
                                 tables=", ".join(tables))
            sessions = len(await store.session_hashes(user.id))
            if not yes:
                raise Usage(StichError(
                    "admin.confirm_remove", name=user.name, id=user.id,
                    kind=Msg("admin.guest" if user.guest else "admin.registered", {}),
                    sessions=sessions, neutral=DELETED_NAME))
            try:
                await store.delete_user(user.id, DELETED_NAME)
            except StichError as e:  # sat down meanwhile
                if e.code != "auth.still_seated":
                    raise
                raise StichError("admin.still_seated", name=user.name, tables=", ".join(
                    await live_tables_of(store, user.id)) or "?") from None
            return user, sessions

        user, sessions = _with_store(url, work)
        typer.echo(_say("admin.removed", lang, name=user.name, id=user.id, sessions=sessions,
                        neutral=DELETED_NAME))


@admin_app.command("purge")
def purge_cmd(
    guest_days: Annotated[float, typer.Option(
        "--guest-days", metavar="DAYS", min=0.0,
        help="Delete guests older than this who have no session left and sit at no "
             "table that is not over (their games stay under their name).")] = 30.0,
    db: str | None = db_option(),
    lang: str = lang_option(),
) -> None:
    """Delete expired sessions and old guests, and print how many.

    A running server does the same once an hour."""
    lang = check_lang(lang)
    with reporting(lang):
        url = _url(db)
        sessions, guests = _with_store(url, lambda s: s.purge(guest_days))
        typer.echo(_say("admin.purged", lang, sessions=sessions, guests=guests,
                        days=f"{guest_days:g}"))
