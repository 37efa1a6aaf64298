"""Which modules of the game engines may be compiled, and the switch back to Python.

The modules below are compiled with mypyc when the package is installed with a C
compiler at hand (``setup.py``); the ``.py`` files stay beside them as the reference and
the fallback, and give the same answers (the tests run both).  Setting
``STICH_PURE_PYTHON=1`` before ``stich`` is imported loads the Python source even where
the compiled modules are installed; it also turns off the solver's compiled core.

This file uses the standard library only: ``setup.py`` reads it before the package is
built.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType

ENGINE_MODULES: tuple[str, ...] = (
    "stich.skat.state",
    "stich.skat.view",
    "stich.skat.lookup",
    "stich.skat.options",
    "stich.skat.outcome",
    "stich.skat.scoring",
    "stich.baptisten.state",
    "stich.baptisten.lookup",
    "stich.baptisten.scoring",
    "stich.baptisten.deal",
    "stich.baptisten.view",
    "stich.skat.observation",
    "stich.skat.batch",
)
"""The hot modules of both engines (states, tables, legal actions, views, outcomes,
deals) and the Skat view's observation encoder and batch loop for the environments
(standard library only too)."""


def pure_python() -> bool:
    """Whether ``STICH_PURE_PYTHON=1`` asks for the Python source everywhere."""
    return os.environ.get("STICH_PURE_PYTHON") == "1"


def source_path(name: str) -> str:
    """A module's source file, relative to the repository (``src/stich/…/x.py``)."""
    return "src/" + name.replace(".", "/") + ".py"


def is_compiled(name: str) -> bool:
    """Whether the module in use was loaded compiled (imports it)."""
    return not (importlib.import_module(name).__file__ or "").endswith(".py")


def engines_compiled() -> bool:
    """Whether every engine module in use was loaded compiled (imports them)."""
    return all(is_compiled(name) for name in ENGINE_MODULES)


class SourceFinder:
    """Finds the engine modules' ``.py`` files, ahead of the compiled ones beside them."""

    def find_spec(self, name: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if name not in ENGINE_MODULES or not path:
            return None
        base = name.rpartition(".")[2] + ".py"
        for entry in path:
            file = os.path.join(entry, base)
            if os.path.isfile(file):
                return importlib.util.spec_from_file_location(name, file)
        return None


def install_switch() -> None:
    """With ``STICH_PURE_PYTHON=1``: load the engines from their Python source."""
    if pure_python() and not any(isinstance(f, SourceFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, SourceFinder())
