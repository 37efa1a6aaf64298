"""Every game played in the terminal is saved as a stich record that `stich replay` and
`stich analyze` read: to --save FILE, or by default to a file in the data folder."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

from stich.baptisten import BaptistenRules
from stich.bots import BaptistenHeuristicBot
from stich.cli import app
from stich.cli.play_baptisten import BaptistenOptions, BaptistenSession
from stich.cli.saving import RecordSaver
from stich.record import load_records, replay

runner = CliRunner()

# Passes in every auction, then tries every card number in turn: a whole sitting.
PERSON = "\n".join(["pass", *map(str, range(1, 11))] * 400) + "\n"


def invoke(*args: str, input: str | None = None) -> tuple[int, str]:
    result = runner.invoke(app, list(args), input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        result.output, result.exception)
    return result.exit_code, result.output


def test_a_skat_sitting_is_saved_and_replay_and_analyze_read_it(tmp_path: Path) -> None:
    path = tmp_path / "sitting.jsonl"
    code, out = invoke("play", "skat", "--seed", "5", "--games", "4", "--save", str(path),
                       input=PERSON)
    assert code == 0
    records = load_records(path)
    assert len(records) == 4
    assert "4 Spiele gespeichert in" in " ".join(out.split())
    for rec in records:
        assert rec["game"] == "skat" and rec["result"] is not None
        replay(rec)
    code, out = invoke("replay", str(path))
    assert code == 0
    assert [json.loads(line) for line in out.splitlines()] == [r["result"] for r in records]
    played = [i for i, r in enumerate(records)
              if r["result"]["kind"] == "game" and r["result"]["game"] != "ramsch"]
    assert played, "the sitting has a declared game to analyse"
    code, out = invoke("analyze", str(path), "--index", str(played[0]), "--json")
    assert code == 0
    assert json.loads(out)["index"] == played[0]
    # a second sitting appends to the same file
    invoke("play", "skat", "--seed", "6", "--save", str(path), input=PERSON)
    assert len(load_records(path)) == 5


def test_by_default_each_sitting_gets_a_file_in_the_data_folder(data_dir: Path) -> None:
    code, out = invoke("play", "skat", "--seed", "5", "--games", "2", input=PERSON)
    assert code == 0
    files = sorted((data_dir / "games").glob("skat-*.jsonl"))
    assert len(files) == 1
    assert len(load_records(files[0])) == 2
    assert str(files[0]) in "".join(out.split())
    invoke("play", "skat", "--seed", "7", input=PERSON)
    assert len(list((data_dir / "games").glob("skat-*.jsonl"))) == 2


def test_no_save_and_json_write_nothing_unless_asked(data_dir: Path, tmp_path: Path) -> None:
    invoke("play", "skat", "--seed", "5", "--no-save", input=PERSON)
    code, out = invoke("play", "skat", "--bots", "3", "--json", "--games", "3", "--seed", "2")
    assert code == 0
    assert not data_dir.exists() or not any(data_dir.rglob("*.jsonl"))
    path = tmp_path / "bots.jsonl"
    code, out2 = invoke("play", "skat", "--bots", "3", "--json", "--games", "3", "--seed", "2",
                        "--save", str(path))
    assert out2 == out  # stdout holds the records and nothing else
    assert [json.loads(line) for line in out.splitlines()] == load_records(path)


def test_a_baptisten_game_is_saved_and_replays(tmp_path: Path) -> None:
    path = tmp_path / "b.jsonl"
    code, out = invoke("play", "baptisten", "--bots", "3", "--max-cards", "3", "--seed", "4",
                       "--save", str(path))
    assert code == 0
    # the screen points to what reads the file: replay, not analyze (Skat only)
    assert f"stich replay {path}" in " ".join(out.split())
    assert "stich analyze" not in out
    (rec,) = load_records(path)
    assert rec["game"] == "baptisten"
    state = replay(rec)
    assert state.is_over
    code, out = invoke("replay", str(path))
    assert code == 0 and json.loads(out) == rec["result"]


def test_a_persons_baptisten_game_is_saved_with_its_names(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    bot = BaptistenHeuristicBot()
    rng = random.Random(3)
    holder: list[BaptistenSession] = []

    def read(prompt: str) -> str:
        state = holder[0].asking
        assert state is not None
        action = bot.choose(state.view(state.to_move), rng)
        return str(action)

    opts = BaptistenOptions(rules=BaptistenRules(players=4, max_cards=3), seed=3,
                            name="Ann")
    s = BaptistenSession(opts, Console(file=io.StringIO()), read, saver=RecordSaver(path))
    holder.append(s)
    s.run()
    (rec,) = load_records(path)
    assert rec["players"] == ["Ann", "Kurt", "Helga", "Otto"]
    assert replay(rec).totals == s.state.totals
