"""The environments and the command line install without the site (issue 44, point 8):
``pip install 'stich[rl]'`` brings PettingZoo, Gymnasium and NumPy, not the web server's
packages (``stich[server]``).

Checked two ways: the package's declared requirements (pyproject.toml) put every
package of the site in the ``server`` extra, and a Python that cannot import any of the
site's packages (an import hook refuses them, as on a machine where they were never
installed) runs the environments, the arena and the command line's help, while
``stich serve`` says in words what to install instead of a traceback."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

from stich.cli import SERVER_PACKAGES

ROOT = Path(__file__).resolve().parents[1]

BLOCK = f"""
import importlib.abc, sys
class _Refuse(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in {sorted(SERVER_PACKAGES)!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None
sys.meta_path.insert(0, _Refuse())
"""


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", BLOCK + code], capture_output=True,
                          text=True, timeout=300, cwd=ROOT)


def _names(requirements: list[str]) -> set[str]:
    return {re.split(r"[\[<>=; ]", r, maxsplit=1)[0].lower() for r in requirements}


def test_the_site_is_an_extra() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    base = _names(project["dependencies"])
    extras = project["optional-dependencies"]
    assert base == {"typer", "rich", "platformdirs"}, base
    server = _names(extras["server"])
    assert {"fastapi", "uvicorn", "sqlalchemy", "jinja2", "psycopg"} <= server
    assert _names(extras["rl"]) == {"pettingzoo", "gymnasium", "numpy"}
    assert not server & _names(extras["rl"])
    # every module the hook refuses is one of the site's packages (import names)
    pip_names = {"argon2-cffi": "argon2", "confusable-homoglyphs": "confusable_homoglyphs",
                 "prometheus-client": "prometheus_client"}
    assert {pip_names.get(n, n) for n in server} - {"pydantic"} <= SERVER_PACKAGES | {
        "starlette"}


def test_environments_and_the_command_line_without_the_site() -> None:
    done = _run("""
import numpy as np
from stich.env import skat_v0, baptisten_v0
from stich.env.gym import SingleSeat
for env in (skat_v0(), baptisten_v0(players=4)):
    env.reset(seed=1)
    for agent in env.agent_iter(max_iter=200):
        obs, reward, terminated, truncated, info = env.last()
        env.step(None if terminated or truncated
                 else int(np.flatnonzero(obs["action_mask"])[0]))
s = SingleSeat("skat", bots="easy")
s.reset(seed=1)
from typer.testing import CliRunner
from stich.cli import app
out = CliRunner().invoke(app, ["arena", "skat", "--bots", "random,easy,random", "--deals",
                               "1", "-j", "1", "--lang", "en"])
assert out.exit_code == 0, (out.output, out.exception)
for args in (["--help"], ["play", "skat", "--help"], ["serve", "--help"]):
    out = CliRunner().invoke(app, args)
    assert out.exit_code == 0, (args, out.output, out.exception)
import sys
print("site modules loaded:", sorted(m for m in sys.modules if m.split(".")[0] in
      ("fastapi", "sqlalchemy", "uvicorn", "jinja2")))
""")
    assert done.returncode == 0, done.stderr[-3000:]
    assert "site modules loaded: []" in done.stdout


def test_serve_without_the_site_says_what_to_install() -> None:
    for lang, words in (("en", "this command needs the site's packages"),
                        ("de", "dieser Befehl braucht die Pakete der Seite")):
        done = _run(f"""
import sys
sys.argv = ["stich", "serve", "--lang", "{lang}", "--db", "sqlite:///:memory:"]
from stich.cli import main
main()
""")
        assert done.returncode == 1, (done.stdout, done.stderr[-2000:])
        assert words in done.stderr and "pip install 'stich[server]'" in done.stderr, \
            done.stderr[-2000:]
        assert "Traceback" not in done.stderr
