"""The published protocol: the schema file is current, and what the server sends fits it."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import TypeAdapter

from stich.server.protocol import ServerMessage, websocket_schema

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_the_schema_file_is_current() -> None:
    stored = json.loads((DOCS / "server-protocol.json").read_text(encoding="utf-8"))
    assert stored == websocket_schema(), \
        "run: python -m stich.server.protocol docs/server-protocol.json"


def test_the_schema_names_every_message_type() -> None:
    schema = json.dumps(websocket_schema())
    for t in ("act", "pause", "resume", "end", "sync", "ping",
              "ready", "away", "back", "chat",
              "welcome", "event", "snapshot", "error", "pong", "timer"):
        assert f'"const": "{t}"' in schema, t


def validate_all(messages: list[dict[str, object]]) -> None:
    """Every message as the schema describes it."""
    adapter: TypeAdapter[object] = TypeAdapter(ServerMessage)
    for m in messages:
        adapter.validate_python(m)
