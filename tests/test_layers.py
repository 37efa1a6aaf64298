"""Dependencies point one way: notation <- messages <- cards <- core <- games <- records and
the Skat list <- bots and what the front ends share (``present``) <- the environments
<- the arena <- server and pages <- command line.

Two checks:

- **The contracts** (``[tool.importlinter]`` in ``pyproject.toml``, run by
  ``lint-imports``): every import of every module of the package, those inside functions
  and under ``TYPE_CHECKING`` too, against the layers and the libraries each may use.
  A function-level import against them is shown to fail the run on a copy of the package.
- **What an import loads**: each layer is imported in a fresh interpreter and must not
  pull in a higher layer or a library it does not need at once (the engines run on the
  standard library alone; the command line loads the web libraries only when `stich
  serve` runs, the arena NumPy only for a trained policy).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[1]
LINT = Path(sys.executable).with_name("lint-imports")

WEB = ("fastapi", "starlette", "uvicorn", "sqlalchemy", "alembic", "pydantic", "redis",
       "psycopg", "argon2", "jinja2", "babel", "stich.server", "stich.web")
TERMINAL = ("typer", "rich", "click", "stich.cli")
RL = ("numpy", "gymnasium", "pettingzoo", "pyspiel", "stich.env")
FORBIDDEN_FOR_ENGINES = (*TERMINAL, *RL, "stich.bots", "stich.skat_list", "stich.present",
                         "stich.arena", *WEB)

LAYERS = {
    "stich.notation": FORBIDDEN_FOR_ENGINES + ("stich.messages", "stich.cards", "stich.core",
                                               "stich.skat", "stich.baptisten",
                                               "stich.record"),
    "stich.messages": FORBIDDEN_FOR_ENGINES + ("stich.cards", "stich.core", "stich.skat",
                                               "stich.baptisten", "stich.record"),
    "stich.cards": FORBIDDEN_FOR_ENGINES + ("stich.skat", "stich.baptisten", "stich.record"),
    "stich.core": FORBIDDEN_FOR_ENGINES + ("stich.skat", "stich.baptisten", "stich.record"),
    "stich.skat": FORBIDDEN_FOR_ENGINES + ("stich.baptisten", "stich.record"),
    "stich.baptisten": FORBIDDEN_FOR_ENGINES + ("stich.skat", "stich.record"),
    "stich.textfile": FORBIDDEN_FOR_ENGINES + ("stich.skat", "stich.baptisten",
                                               "stich.record"),
    "stich.record": FORBIDDEN_FOR_ENGINES,
    "stich.record_file": FORBIDDEN_FOR_ENGINES + ("stich.skat", "stich.baptisten"),
    "stich.record_header": FORBIDDEN_FOR_ENGINES + ("stich.skat",),
    "stich.skat_list": (*TERMINAL, *RL, "stich.bots", "stich.present", "stich.arena", *WEB),
    "stich.bots": (*TERMINAL, *RL, "stich.present", "stich.arena", *WEB),
    "stich.present.languages": (*TERMINAL, *RL, "stich.bots", "stich.arena", *WEB),
    "stich.present.initials": (*TERMINAL, *RL, "stich.bots", "stich.arena", *WEB),
    "stich.present.styles": (*TERMINAL, *RL, "stich.bots", "stich.arena", *WEB),
    "stich.env": (*TERMINAL, "stich.arena", *WEB),
    # a trained policy (NumPy, stich.env) is loaded when the arena is asked for one
    "stich.arena": (*TERMINAL, *RL, *WEB),
    "stich.server": TERMINAL,
    "stich.server.app": TERMINAL,
    "stich.server.main": ("typer", "rich", "stich.cli"),  # (uvicorn loads click)
    "stich.web": TERMINAL,
    "stich.web.pages": TERMINAL,
    "stich.web.standings": TERMINAL,
    # the command line loads the web libraries only when `stich serve` runs
    "stich.cli": WEB,
}

# what runs after the import (a message naming cards loads no card module either)
EXERCISE = {
    "stich.messages": "m = importlib.import_module('stich.messages'); "
                      "m.StichError('cards.given_twice', card=m.Cards(3)).text('de'); "
                      "m.PLAIN.suit(m.SuitName(1, 'romme'), 'en')",
}


@pytest.mark.parametrize("module", sorted(LAYERS))
def test_layer_imports_nothing_above_it(module: str) -> None:
    forbidden = LAYERS[module]
    code = (
        f"import sys, importlib; importlib.import_module({module!r}); "
        f"{EXERCISE.get(module, 'pass')}; "
        f"bad = [m for m in sys.modules if m.split('.')[0] in {forbidden!r} "
        f"or any(m == f or m.startswith(f + '.') for f in {forbidden!r})]; "
        "print(','.join(sorted(bad)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"{module} imports {out.stdout.strip()}"


# --- the contracts ----------------------------------------------------------------------

def lint(config: Path, src: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` as CI runs it (``src``: a copy of the package to check instead)."""
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(src), env.get("PYTHONPATH", "")])
    return subprocess.run([str(LINT), "--config", str(config), "--no-cache"],
                          capture_output=True, text=True, env=env, cwd=config.parent)


def test_the_layer_contracts_hold() -> None:
    out = lint(ROOT / "pyproject.toml")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "0 broken" in out.stdout


def test_a_function_level_import_against_the_layers_fails_the_run(tmp_path: Path) -> None:
    """The same contracts on a copy of the package, first as it is (kept), then with an
    import of the command line inside a function of the Skat rules, one of Rich inside a
    function of the cards, and one of the bots for type checking only in the core (each
    breaks a contract: an import under ``TYPE_CHECKING`` counts as well)."""
    src = tmp_path / "src"
    shutil.copytree(ROOT / "src" / "stich", src / "stich",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.c", "*.h"))
    config = tmp_path / "pyproject.toml"
    shutil.copy(ROOT / "pyproject.toml", config)
    probe = subprocess.run([sys.executable, "-c", "import stich; print(stich.__file__)"],
                           capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONPATH": str(src)})
    assert probe.stdout.strip() == str(src / "stich" / "__init__.py")  # the copy is checked
    kept = lint(config, src)
    assert kept.returncode == 0, kept.stdout + kept.stderr

    rules = src / "stich" / "skat" / "rules.py"
    text = rules.read_text()
    line = text.count("\n") + 4  # the import's line below
    rules.write_text(text + "\n\ndef _layer_probe() -> None:\n"
                            "    from stich.cli import app  # noqa: F401\n")
    cards = src / "stich" / "cards.py"
    cards.write_text(cards.read_text() + "\n\ndef _library_probe() -> None:\n"
                                         "    import rich  # noqa: F401\n")
    core = src / "stich" / "core.py"
    core.write_text(core.read_text() + "\n\nimport typing\n\nif typing.TYPE_CHECKING:\n"
                                       "    from stich.bots import base  # noqa: F401\n")
    broken = lint(config, src)
    assert broken.returncode != 0
    report = broken.stdout
    assert "stich.skat is not allowed to import stich.cli" in report, report
    assert f"stich.skat.rules -> stich.cli.app (l.{line})" in report, report
    assert "stich.cards is not allowed to import rich" in report, report
    assert "stich.core is not allowed to import stich.bots" in report, report


def contract(name: str) -> dict[str, Any]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    found: dict[str, Any] = next(c for c in config["contracts"] if c["id"] == name)
    return found


def test_every_module_is_in_a_layer() -> None:
    """The layers contract stays exhaustive over the package's children (lint-imports
    then refuses a module nobody placed), and names every one of them."""
    layers = contract("layers")
    assert layers["exhaustive"] and layers["containers"] == ["stich"]
    named = {tail.strip().strip("()") for layer in layers["layers"]
             for tail in layer.replace(":", "|").split("|")}
    children = {p.stem for p in (ROOT / "src" / "stich").iterdir()
                if (p.suffix == ".py" and p.stem != "__init__")
                or (p.is_dir() and (p / "__init__.py").exists())}
    assert children <= named, sorted(children - named)


def test_the_engines_use_the_standard_library_alone() -> None:
    """Stronger than the contract's list of the project's libraries: every outside module
    its modules import, anywhere in them, is part of the standard library."""
    sources = contract("standard-library")["source_modules"]
    assert {"stich.cards", "stich.skat", "stich.baptisten", "stich.bots"} <= set(sources)
    graph = grimp.build_graph("stich", include_external_packages=True, cache_dir=None)
    outside = {}
    for module in graph.modules:
        if not any(module == p or module.startswith(p + ".") for p in sources):
            continue
        for imported in graph.find_modules_directly_imported_by(module):
            top = imported.split(".")[0]
            if top != "stich" and top not in sys.stdlib_module_names:
                outside[f"{module} -> {imported}"] = top
    assert outside == {}
