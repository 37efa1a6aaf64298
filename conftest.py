"""pytest: the engine modules that are loaded compiled (mypyc) cannot have their
doctests collected from the ``.py`` beside them; those doctests run in the pure-Python
pass (``STICH_PURE_PYTHON=1``, see ``.ci/run``)."""

import importlib

from stich._compiled import ENGINE_MODULES

collect_ignore = [
    "src/" + name.replace(".", "/") + ".py"
    for name in ENGINE_MODULES
    if not (importlib.import_module(name).__file__ or "").endswith(".py")
]
