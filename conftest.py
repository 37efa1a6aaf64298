"""pytest: the engine modules that are loaded compiled (mypyc) cannot have their
doctests collected from the ``.py`` beside them; those doctests run in the pure-Python
pass (``STICH_PURE_PYTHON=1``, see ``.ci/run``)."""

from stich._compiled import ENGINE_MODULES, is_compiled, source_path

collect_ignore = [source_path(name) for name in ENGINE_MODULES if is_compiled(name)]
