"""The browser client: Jinja2 pages (lobby, Bestenliste, history, scoresheets) and the
table's ES modules, served by ``stich serve`` from the package itself (nothing is built
at install).  :func:`mount` adds the pages and the static files to the server's app."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fastapi import FastAPI

__all__ = ["mount"]


def mount(app: FastAPI) -> None:
    """The pages and ``/static`` on the server's app."""
    from stich.web import pages

    pages.mount(app)
