"""Dependencies point one way: cards <- core <- games <- record/table <- bots <- server/cli.

Each layer is imported in a fresh interpreter and must not pull in a higher layer or a
library outside the standard library (the engines run on the standard library alone)."""

from __future__ import annotations

import subprocess
import sys

import pytest

WEB = ("fastapi", "starlette", "uvicorn", "sqlalchemy", "alembic", "pydantic", "redis",
       "psycopg", "argon2", "jinja2", "babel", "stich.server", "stich.web")
FORBIDDEN_FOR_ENGINES = ("typer", "rich", "click", "stich.cli", "stich.bots",
                         "stich.table", *WEB)

LAYERS = {
    "stich.cards": FORBIDDEN_FOR_ENGINES + ("stich.skat", "stich.record"),
    "stich.core": FORBIDDEN_FOR_ENGINES + ("stich.skat", "stich.record"),
    "stich.skat": FORBIDDEN_FOR_ENGINES + ("stich.record",),
    "stich.record": FORBIDDEN_FOR_ENGINES,
    "stich.record_file": FORBIDDEN_FOR_ENGINES + ("stich.skat", "stich.baptisten"),
    "stich.record_header": FORBIDDEN_FOR_ENGINES + ("stich.skat",),
    "stich.messages": FORBIDDEN_FOR_ENGINES + ("stich.skat", "stich.baptisten",
                                               "stich.record"),
    "stich.textfile": FORBIDDEN_FOR_ENGINES + ("stich.skat", "stich.baptisten",
                                               "stich.record"),
    "stich.table": ("typer", "rich", "click", "stich.cli", "stich.bots"),
    "stich.bots": ("typer", "rich", "click", "stich.cli", *WEB),
    # the command line loads the web libraries only when `stich serve` runs
    "stich.cli": WEB,
    "stich.server.app": ("typer", "rich", "click", "stich.cli"),
}


@pytest.mark.parametrize("module", sorted(LAYERS))
def test_layer_imports_nothing_above_it(module: str) -> None:
    forbidden = LAYERS[module]
    code = (
        f"import sys, importlib; importlib.import_module({module!r}); "
        f"bad = [m for m in sys.modules if m.split('.')[0] in {forbidden!r} "
        f"or any(m == f or m.startswith(f + '.') for f in {forbidden!r})]; "
        "print(','.join(sorted(bad)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"{module} imports {out.stdout.strip()}"
