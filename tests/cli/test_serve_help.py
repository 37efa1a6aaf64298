"""``stich serve --help`` says where the data folder is: the environment variable
``STICH_DATA_DIR`` and the platform's default folder (docs/server.md)."""

from __future__ import annotations

import platformdirs
from typer.testing import CliRunner

from stich.cli import app

runner = CliRunner()


def test_serve_help_says_where_the_data_folder_is() -> None:
    result = runner.invoke(app, ["serve", "--help"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "$STICH_DATA_DIR" in text, result.output
    assert platformdirs.user_data_dir("stich", appauthor=False) in text, result.output
    assert "stich.db" in text.split("Options:")[0], result.output
