"""The site's settings and their defaults agree wherever they are read: ``stich serve``'s
options (and its help page), :func:`stich.server.main.run`, the worker processes'
environment (:func:`stich.server.main.app_from_env`), the app's
:class:`~stich.server.app.ServeConfig` and the hub's :class:`~stich.server.hub.HubConfig`
(issue 41: each default is written once, in :mod:`stich.server_settings`)."""

from __future__ import annotations

import dataclasses
import inspect
import re
from typing import Any

import pytest
import typer.main
from typer.testing import CliRunner

from stich.cli import app

DEFAULTS: dict[str, Any] = {
    "host": "127.0.0.1", "port": 8000, "workers": 1, "bot_delay": 0.5, "bot_time": 5.0,
    "bot_processes": 2, "presence_check": 10.0, "housekeeping": 30.0, "guest_days": 30.0,
    "ws_compression": False, "log_level": "warning",
}
"""Today's defaults, written down by hand (a change of one of them is a change of
behaviour: this test is to be told)."""

ENV = ("STICH_REDIS", "STICH_BOT_DELAY", "STICH_BOT_TIME", "STICH_BOT_PROCESSES",
       "STICH_PRESENCE_CHECK", "STICH_PUBLIC_URL", "STICH_LIMITS", "STICH_METRICS_TOKEN",
       "STICH_HOUSEKEEPING")


def _options(page: str) -> dict[str, str]:
    """The options of a help page, each with its text (continuation lines joined)."""
    options: dict[str, str] = {}
    name = None
    for line in page.split("Options:", 1)[1].splitlines():
        m = re.match(r"  (?:-\w, )?(--[\w-]+)(.*)$", line)
        if m:
            name = m.group(1)
            options[name] = m.group(2).strip()
        elif name is not None and line.strip():
            options[name] += " " + line.strip()
    return options


def test_serve_options_and_help_page_show_the_defaults() -> None:
    result = CliRunner().invoke(app, ["serve", "--help"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    shown = {name: m.group(1) for name, text in _options(result.output).items()
             if (m := re.search(r"\[default: ([^\]]+)\]", text))}
    assert shown == {"--host": "127.0.0.1", "--port": "8000", "--workers": "1",
                     "--bot-delay": "0.5", "--bot-time": "5.0"}
    command: Any = typer.main.get_command(app)
    params = {p.name: p.default for p in command.commands["serve"].params}
    want = {k: DEFAULTS[k] for k in ("host", "port", "workers", "bot_delay", "bot_time",
                                     "ws_compression")}
    assert {k: params[k] for k in want} == want
    assert all(type(params[k]) is type(v) for k, v in want.items())
    for name in ("db", "redis", "public_url", "forwarded_allow_ips", "limits",
                 "metrics_token"):
        assert params[name] is None, name


def test_run_defaults() -> None:
    from stich.server.main import run

    sig = inspect.signature(run)
    got = {name: sig.parameters[name].default
           for name in ("bot_time", "log_level", "ws_compression")}
    assert got == {k: DEFAULTS[k] for k in got}


def test_a_worker_without_settings_in_its_environment_takes_the_defaults(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from stich.server import main

    for name in ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("STICH_DB", "sqlite://")
    seen: list[Any] = []
    monkeypatch.setattr(main, "create_app", seen.append)
    main.app_from_env()
    (config,) = seen
    assert config.db == "sqlite://" and config.redis is None and config.migrate is False
    assert config.public_url is None and config.metrics_token is None
    got = {k: getattr(config, k) for k in ("bot_delay", "bot_time", "bot_processes",
                                           "presence_check", "housekeeping")}
    assert got == {k: DEFAULTS[k] for k in got}
    from stich.server.limits import Limits

    assert config.limits == Limits()


def test_a_worker_reads_its_settings_from_the_environment(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from stich.server import main

    for name, value in (("STICH_DB", "sqlite://"), ("STICH_REDIS", "redis://x:1"),
                        ("STICH_BOT_DELAY", "0.25"), ("STICH_BOT_TIME", "3"),
                        ("STICH_BOT_PROCESSES", "4"), ("STICH_PRESENCE_CHECK", "2.5"),
                        ("STICH_HOUSEKEEPING", "7"),
                        ("STICH_PUBLIC_URL", "https://skat.example.org"),
                        ("STICH_METRICS_TOKEN", "t")):
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("STICH_LIMITS", raising=False)
    seen: list[Any] = []
    monkeypatch.setattr(main, "create_app", seen.append)
    main.app_from_env()
    (c,) = seen
    assert (c.redis, c.bot_delay, c.bot_time, c.bot_processes, c.presence_check,
            c.housekeeping, c.public_url, c.metrics_token) == (
        "redis://x:1", 0.25, 3.0, 4, 2.5, 7.0, "https://skat.example.org", "t")


def test_serve_config_defaults() -> None:
    from stich.server.app import ServeConfig
    from stich.server.limits import Limits

    config = ServeConfig(db="sqlite://")
    got = {k: getattr(config, k) for k in ("bot_delay", "bot_time", "bot_processes",
                                           "presence_check", "housekeeping")}
    assert got == {k: DEFAULTS[k] for k in got}
    assert (config.redis, config.migrate, config.public_url, config.metrics_token) == (
        None, True, None, None)
    assert config.limits == Limits()
    assert {f.name for f in dataclasses.fields(ServeConfig)} >= {
        "db", "redis", "bot_delay", "bot_processes", "bot_time", "presence_check",
        "migrate", "public_url", "limits", "metrics_token", "housekeeping"}


def test_hub_config_defaults() -> None:
    from stich.server.hub import HubConfig
    from stich.server.limits import Limits

    config = HubConfig()
    got = {k: getattr(config, k) for k in ("bot_delay", "presence_check", "housekeeping",
                                           "guest_days")}
    assert got == {k: DEFAULTS[k] for k in got}
    assert config.multi is False and config.limits == Limits()
