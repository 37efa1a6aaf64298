"""Builds the optional compiled parts: the core of the Skat double-dummy solver (C) and the
game engines' hot modules, compiled with mypyc from the same typed Python source.

Everything else is configured in pyproject.toml.  Both are optional: without a C
compiler (or with ``STICH_PURE_PYTHON=1`` set while installing) the package installs
as pure Python and gives the same answers (tests check both paths).  With the compiled
modules installed, ``STICH_PURE_PYTHON=1`` at run time still loads the Python source
(see ``stich/__init__.py``)."""

import os
import runpy

from setuptools import Extension, setup

_compiled = runpy.run_path("src/stich/_compiled.py")
ENGINE_MODULES, source_path = _compiled["ENGINE_MODULES"], _compiled["source_path"]

ext_modules = [
    Extension(
        "stich.skat._dds",
        ["src/stich/skat/_dds.c"],
        extra_compile_args=["-O3"],
        optional=True,
    )
]

if os.environ.get("STICH_PURE_PYTHON") != "1":
    try:
        from mypyc.build import mypycify
    except ImportError:  # no mypy in the build environment: the engines stay Python
        pass
    else:
        engines = mypycify(
            [source_path(m) for m in ENGINE_MODULES],
            opt_level="3",
            group_name="stich_engines",
        )
        for ext in engines:
            ext.optional = True  # no compiler: the pure-Python modules are used
        ext_modules += engines

setup(ext_modules=ext_modules)
