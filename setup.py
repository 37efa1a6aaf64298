"""Builds the optional compiled core of the Skat double-dummy solver.

Everything else is configured in pyproject.toml.  The extension is optional: without a C
compiler the package installs and the solver runs its pure-Python search, which gives
the same answers (tests check both)."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "stich.skat._dds",
            ["src/stich/skat/_dds.c"],
            extra_compile_args=["-O3"],
            optional=True,
        )
    ]
)
