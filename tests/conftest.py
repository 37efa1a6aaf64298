"""The outside services of the tests (``tests/services.py``): a test marked
``@pytest.mark.needs("postgresql", "redis")``, or using a fixture of ``FIXTURE_NEEDS``,
gets them found (or started) before it runs, or is skipped with one line per missing
service; under ``STICH_TEST_REQUIRE_ALL=1`` it fails instead.  Throwaway servers stop
with the session."""

from __future__ import annotations

import pytest

from tests import services

# fixtures that stand for a service: a test that uses one (directly or not) needs it
FIXTURE_NEEDS = {"browser": "chromium"}


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "needs(*services): the outside services the test needs "
        f"({', '.join(services.SERVICES)}); see tests/services.py")


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    names = [n for mark in item.iter_markers("needs") for n in mark.args]
    names += [need for fixture, need in FIXTURE_NEEDS.items()
              if fixture in getattr(item, "fixturenames", ())]
    missing = []
    for name in dict.fromkeys(names):  # look for each, so that the summary names them all
        try:
            services.resolve(name)
        except services.ServiceMissing as exc:
            missing.append(exc)
    if missing:
        services.missing(missing[0])


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    for line in services.summary():
        terminalreporter.write_line(f"test services: {line}")


def pytest_unconfigure(config: pytest.Config) -> None:
    services.stop_all()
