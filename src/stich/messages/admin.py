"""What ``stich admin`` says (``admin.*``): its refusals, what it did, and the headings
of its lists."""

from stich.messages import define

# Refusals: the database, the files, the tables and accounts asked for.
define({
    "admin.no_database": {
        "en": "there is no database {file}: give the server's with --db, or start "
              "stich serve once to make it",
        "de": "Die Datenbank {file} gibt es nicht: gib die des Servers mit --db an, oder "
              "starte stich serve einmal, damit sie angelegt wird",
    },
    "admin.not_stich": {
        "en": "{db} holds no stich database: check --db (stich serve makes one at its "
              "first start)",
        "de": "{db} enthält keine stich-Datenbank: prüf --db (stich serve legt sie beim "
              "ersten Start an)",
    },
    "admin.old_schema": {
        "en": "the database is at schema revision {found}, this stich needs {head}: start "
              "this version's stich serve once (it migrates), then try again",
        "de": "Die Datenbank hat den Schemastand {found}, dieses stich braucht {head}: "
              "starte einmal stich serve dieser Version (es migriert), dann noch einmal",
    },
    "admin.cannot_open": {
        "en": "the database cannot be opened: {reason}",
        "de": "Die Datenbank lässt sich nicht öffnen: {reason}",
    },
    "admin.same_file": {
        "en": "{file} is the database itself: name another file",
        "de": "{file} ist die Datenbank selbst: nenne eine andere Datei",
    },
    "admin.bad_status": {
        "en": "--status must be waiting, running, over or open, not {status!r}",
        "de": "--status muss waiting, running, over oder open sein, nicht „{status}“",
    },
    "admin.guests_or_registered": {
        "en": "--guests and --registered exclude each other: give one of them, or neither "
              "for every account",
        "de": "--guests und --registered schließen einander aus: gib eines an, oder keines "
              "für alle Konten",
    },
    "admin.bad_reason": {
        "en": "--reason must be closed, abandoned or expired, not {reason!r}",
        "de": "--reason muss closed, abandoned oder expired sein, nicht „{reason}“",
    },
    "admin.file_exists": {
        "en": "{file} exists already: choose another file, or add --force to overwrite it",
        "de": "{file} gibt es schon: wähl eine andere Datei, oder überschreib sie mit --force",
    },
    "admin.no_folder": {
        "en": "there is no folder {folder} to write {file} into",
        "de": "Den Ordner {folder} für {file} gibt es nicht",
    },
    "admin.not_sqlite_backup": {
        "en": "{file} is not a SQLite database: a SQLite database is restored from a "
              "backup that stich admin backup made of a SQLite database",
        "de": "{file} ist keine SQLite-Datenbank: eine SQLite-Datenbank wird aus einer "
              "Sicherung wiederhergestellt, die stich admin backup von einer "
              "SQLite-Datenbank gemacht hat",
    },
    "admin.not_stich_backup": {
        "en": "{file} is a SQLite database, but no stich database (it has no schema "
              "revision)",
        "de": "{file} ist eine SQLite-Datenbank, aber keine stich-Datenbank (sie hat keinen "
              "Schemastand)",
    },
    "admin.not_pg_backup": {
        "en": "{file} is no archive of pg_dump --format=custom: a PostgreSQL database is "
              "restored from a backup that stich admin backup made of a PostgreSQL "
              "database",
        "de": "{file} ist kein Archiv von pg_dump --format=custom: eine "
              "PostgreSQL-Datenbank wird aus einer Sicherung wiederhergestellt, die stich "
              "admin backup von einer PostgreSQL-Datenbank gemacht hat",
    },
    "admin.no_tool": {
        "en": "{tool} was found neither on PATH nor in /usr/lib/postgresql/*/bin: install "
              "PostgreSQL's client programs (Debian: postgresql-client)",
        "de": "{tool} ist weder im PATH noch in /usr/lib/postgresql/*/bin zu finden: "
              "installiere die Client-Programme von PostgreSQL (Debian: postgresql-client)",
    },
    "admin.tool_failed": {
        "en": "{tool} failed (exit code {code}): {detail}",
        "de": "{tool} ist gescheitert (Exit-Code {code}): {detail}",
    },
    "admin.confirm_restore": {
        "en": "this replaces every account, table and game in {db} with those of {file}: "
              "stop the server, then run the command again with --yes",
        "de": "Das ersetzt alle Konten, Tische und Spiele in {db} durch die aus {file}: "
              "halte den Server an, dann gib den Befehl noch einmal mit --yes ein",
    },
    "admin.no_table": {
        "en": "there is no table {table}",
        "de": "Einen Tisch {table} gibt es nicht",
    },
    "admin.table_over": {
        "en": "table {table} is over already",
        "de": "Der Tisch {table} ist schon beendet",
    },
    "admin.close_race": {
        "en": "table {table} moved on at every one of {tries} tries to close it: try again",
        "de": "Der Tisch {table} ist bei allen {tries} Versuchen, ihn zu schließen, "
              "weitergelaufen: versuch es noch einmal",
    },
    "admin.no_user": {
        "en": "there is no account {user} (a name, or an id from stich admin users)",
        "de": "Ein Konto {user} gibt es nicht (ein Name, oder eine Nummer aus stich admin "
              "users)",
    },
    "admin.several_guests": {
        "en": "{n} guests are called {user} (ids {ids}): give the id of the one to remove",
        "de": "{n} Gäste heißen {user} (Nummern {ids}): gib die Nummer dessen an, der "
              "gelöscht werden soll",
    },
    "admin.still_seated": {
        "en": "{name} sits at a table that is not over ({tables}): close it first with "
              "stich admin close",
        "de": "{name} sitzt an einem Tisch, der nicht beendet ist ({tables}): schließ ihn "
              "zuerst mit stich admin close",
    },
    "admin.confirm_remove": {
        "en": "this deletes the account {name} (id {id}, {kind}) and ends its {sessions} "
              "{sessions:plural:session|sessions}; its games stay under the name {neutral}. "
              "Run the command again with --yes to do it",
        "de": "Das löscht das Konto {name} (Nummer {id}, {kind}) und beendet seine "
              "{sessions} {sessions:plural:Sitzung|Sitzungen}; seine Spiele bleiben unter "
              "dem Namen {neutral}. Gib den Befehl mit --yes noch einmal ein, um das zu tun",
    },
})

# What was done.
define({
    "admin.backup_done": {
        "en": "backup written to {file} ({size} bytes)",
        "de": "Sicherung in {file} geschrieben ({size} Bytes)",
    },
    "admin.restore_done": {
        "en": "{file} restored into {db}. Restart stich serve now: a running server keeps "
              "its live tables in memory and does not see the restored data",
        "de": "{file} in {db} wiederhergestellt. Starte stich serve jetzt neu: ein "
              "laufender Server hält seine offenen Tische im Speicher und sieht die "
              "wiederhergestellten Daten nicht",
    },
    "admin.closed": {
        "en": "table {table} closed (event {seq}); a running server tells its players "
              "within its housekeeping round (30 seconds)",
        "de": "Tisch {table} geschlossen (Ereignis {seq}); ein laufender Server sagt es "
              "seinen Spielern innerhalb seiner Aufräumrunde (30 Sekunden)",
    },
    "admin.recounted": {
        "en": "{games} finished {games:plural:game|games} recounted from their tables' "
              "events; {absent} {absent:plural:seat|seats} played by a stand-in "
              "{absent:plural:counts|count} for nobody",
        "de": "{games} beendete {games:plural:Spiel|Spiele} aus den Ereignissen ihrer "
              "Tische neu gezählt; {absent} {absent:plural:Platz|Plätze}, die ein Bot "
              "gespielt hat, {absent:plural:zählt|zählen} für niemanden",
    },
    "admin.ratings_rebuilt": {
        "en": "ratings rebuilt from {games} {games:plural:game|games}: {ratings} "
              "{ratings:plural:rating|ratings}",
        "de": "Wertungen aus {games} {games:plural:Spiel|Spielen} neu berechnet: "
              "{ratings} {ratings:plural:Wertung|Wertungen}",
    },
    "admin.ratings_what": {
        "en": "say what to do: --rebuild",
        "de": "Sag, was zu tun ist: --rebuild",
    },
    "admin.removed": {
        "en": "account {name} (id {id}) deleted, {sessions} "
              "{sessions:plural:session|sessions} ended; its games now show {neutral}",
        "de": "Konto {name} (Nummer {id}) gelöscht, {sessions} "
              "{sessions:plural:Sitzung|Sitzungen} beendet; seine Spiele zeigen jetzt "
              "{neutral}",
    },
    "admin.purged": {
        "en": "deleted: {sessions} expired {sessions:plural:session|sessions}, {guests} "
              "{guests:plural:guest|guests} older than {days} days without a session",
        "de": "Gelöscht: {sessions} {sessions:plural:abgelaufene Sitzung|abgelaufene "
              "Sitzungen}, {guests} {guests:plural:Gast|Gäste} älter als {days} Tage ohne "
              "Sitzung",
    },
    "admin.shown": {
        "en": "{shown} of {total} shown (--limit)",
        "de": "{shown} von {total} gezeigt (--limit)",
    },
})

# The lists: headings and words in them.
define({
    "admin.col.id": {"en": "id", "de": "Nummer"},
    "admin.col.table": {"en": "table", "de": "Tisch"},
    "admin.col.game": {"en": "game", "de": "Spiel"},
    "admin.col.status": {"en": "status", "de": "Stand"},
    "admin.col.seats": {"en": "seats", "de": "Plätze"},
    "admin.col.creator": {"en": "creator", "de": "eröffnet von"},
    "admin.col.created": {"en": "created (UTC)", "de": "angelegt (UTC)"},
    "admin.col.changed": {"en": "last change", "de": "letzte Änderung"},
    "admin.col.games": {"en": "games", "de": "Spiele"},
    "admin.col.name": {"en": "name", "de": "Name"},
    "admin.col.kind": {"en": "kind", "de": "Art"},
    "admin.col.sessions": {"en": "sessions", "de": "Sitzungen"},
    "admin.status.waiting": {"en": "waiting", "de": "wartet"},
    "admin.status.running": {"en": "running", "de": "läuft"},
    "admin.status.over": {"en": "over", "de": "beendet"},
    "admin.free_seat": {"en": "(free)", "de": "(frei)"},
    "admin.bot": {"en": "{name} (bot {level})", "de": "{name} (Bot {level})"},
    "admin.guest": {"en": "guest", "de": "Gast"},
    "admin.registered": {"en": "registered", "de": "registriert"},
    "admin.no_tables": {"en": "no tables", "de": "keine Tische"},
    "admin.no_users": {"en": "no accounts", "de": "keine Konten"},
})
