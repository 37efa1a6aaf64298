"""The bots the pages offer for a seat (the lobby's choice of a new table's seats, a free
seat at the table) come from one list in the browser, ``botLevels`` in
``web/static/js/site.js``, and it names the server's levels of each game
(:func:`stich.bots.levels`: Skat's ``learned`` at Skat tables only), each with its words;
the defaults the pages choose are levels too.  Without a browser:
the scripts are read, and ``botLevels`` is run by Node when there is one."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest

from stich import games
from stich.bots import known_level
from stich.web.i18n import HERE

JS = HERE / "static" / "js"
WORDS = {"strong": ("Bot: strong (search)", "bot: strong (search)"),
         "easy": ("Bot: rule-based", "bot: rule-based"),
         "learned": ("Bot: learned (trained network)", "bot: learned (trained network)"),
         "random": ("Bot: random", "bot: random")}
ORDER = ("strong", "easy", "learned", "random")  # strongest first
ONLY = {"learned": "skat"}  # a level of one game only


def _body() -> str:
    text = (JS / "site.js").read_text(encoding="utf-8")
    m = re.search(r"export function botLevels\(game\) \{\n(.*?)\n\}\n", text, re.S)
    assert m, "botLevels(game) is gone from site.js"
    return m.group(1)


def test_the_one_list_names_the_servers_levels_with_their_words() -> None:
    entries = re.findall(r'\{ level: "(\w+)", seat: _\("([^"]+)"\), choice: _\("([^"]+)"\)'
                         r'(?:, game: "(\w+)")? \}', _body())
    assert [level for level, *_ in entries] == list(ORDER)
    for game in games.GAMES.values():
        offered = [level for level, _s, _c, only in entries if only in ("", game.name)]
        assert sorted(offered) == sorted(game.bot_levels)
        assert all(known_level(level, game.bots) for level in offered)
    assert {level: (seat, choice) for level, seat, choice, _g in entries} == WORDS
    assert {level: only for level, _s, _c, only in entries if only} == ONLY


def test_the_pages_keep_no_list_of_their_own_and_choose_levels_by_default() -> None:
    for path in sorted(JS.glob("*.js")):
        text = path.read_text(encoding="utf-8")
        if path.name != "site.js":
            assert "level: \"" not in text, path.name
            for words in WORDS.values():
                for w in words:
                    assert f'_("{w}")' not in text, (path.name, w)
        for level in re.findall(r'"bot:(\w+)"', text):  # the seats a new table starts with
            assert known_level(level), (path.name, level)
    table = (JS / "table.js").read_text(encoding="utf-8")
    (default,) = re.findall(r'selected: b\.level === "(\w+)"', table)
    assert default == "easy" and known_level(default)
    assert "botLevels(t.game)" in table
    assert "botLevels(game)" in (JS / "lobby.js").read_text(encoding="utf-8")


def test_node_runs_the_list() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("no Node: the list is read above")
    script = ("globalThis.document = {getElementById: () => null, querySelector: () => null,"
              " documentElement: {lang: 'en'}};"
              f"const m = await import({json.dumps((JS / 'site.js').as_uri())});"
              "console.log(JSON.stringify([m.botLevels('skat'), m.botLevels('baptisten')]));")
    out = subprocess.run([node, "--input-type=module", "-e", script], capture_output=True,
                         text=True, timeout=60, check=True)
    skat, baptisten = json.loads(out.stdout)
    for game, got in (("skat", skat), ("baptisten", baptisten)):
        assert got == [{"level": level, "seat": WORDS[level][0], "choice": WORDS[level][1],
                        **({"game": ONLY[level]} if level in ONLY else {})}
                       for level in ORDER if ONLY.get(level, game) == game]
