"""Builds the optional compiled parts: the core of the Skat double-dummy solver (C) and the
game engines' hot modules, compiled with mypyc from the same typed Python source.

Everything else is configured in pyproject.toml.  Both are optional: without a C
compiler (or with ``STICH_PURE_PYTHON=1`` set while installing) the package installs
as pure Python and gives the same answers (tests check both paths).  With the compiled
modules installed, ``STICH_PURE_PYTHON=1`` at run time still loads the Python source
(see ``stich/__init__.py``)."""

import os
import platform
import runpy

from setuptools import Extension, setup

_compiled = runpy.run_path("src/stich/_compiled.py")
ENGINE_MODULES, source_path = _compiled["ENGINE_MODULES"], _compiled["source_path"]


def _cpu_has(flag: str) -> bool:
    """Whether this (the building) machine's processor lists ``flag`` (Linux only)."""
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as f:
            return any(line.startswith("flags") and flag in line.split() for line in f)
    except OSError:
        return False


# The solver core counts bits often: use the POPCNT instruction where the building
# machine has it (x86-64 processors since about 2008).  A build meant for other machines
# can turn it off with STICH_PORTABLE_BUILD=1; without it the core counts by shifts.
_dds_flags = ["-O3"]
if (platform.machine() in ("x86_64", "AMD64") and os.environ.get("STICH_PORTABLE_BUILD") != "1"
        and _cpu_has("popcnt")):
    _dds_flags.append("-mpopcnt")

ext_modules = [
    Extension(
        "stich.skat._dds",
        ["src/stich/skat/_dds.c"],
        extra_compile_args=_dds_flags,
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
