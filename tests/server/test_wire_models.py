"""The table as a connection sees it is built from the protocol's models
(:func:`stich.server.wire.table_info`, :func:`~stich.server.wire.welcome`): a key the
model does not declare is refused, not sent."""

from __future__ import annotations

import pydantic
import pytest

from stich.server import protocol
from stich.server.sitting import Sitting, TableSettings
from stich.server.wire import SPECTATOR, table_info, welcome


def _sitting() -> Sitting:
    s = Sitting(TableSettings(game="skat", rules="skat(preset=lothar)", games=3,
                              seats=("person", "person", "bot:easy"), seed=5))
    for ev in s.plan_sit(0, "Anna", 1):
        s.apply(ev)
    for ev in s.plan_chat(0, "Anna", "Hallo", user=1):
        s.apply(ev)
    return s


def test_the_table_and_the_welcome_hold_only_what_the_models_declare() -> None:
    s = _sitting()
    info = table_info(s, "t1", 0, invite="secret", connected={0})
    assert set(info) <= set(protocol.TableInfo.model_fields)
    assert info["invite"] == "secret" and info["seats"][1] == {"seat": 1, "kind": "free"}
    assert info["seats"][0]["connected"] is True
    assert table_info(s, "t1", SPECTATOR, invite="secret", connected=())["invite"] is None
    timer = {"type": "timer", "kind": None, "seat": None, "left": 0, "total": 0, "bank": 0}
    msg = welcome(s, info, 0, creator=True, timer=timer)
    assert list(msg) == ["type", "table", "you", "creator", "seq", "timer", "chat"]
    assert msg["chat"] == [{"seq": s.seq, "seat": 0, "name": "Anna", "text": "Hallo"}]
    assert "user" not in msg["chat"][0]  # the author's account stays on the server


@pytest.mark.parametrize("model", [protocol.TableInfo, protocol.SeatInfo, protocol.Welcome,
                                   protocol.Timer, protocol.ChatLine])
def test_a_key_the_model_does_not_declare_is_refused(model: type[pydantic.BaseModel]) -> None:
    with pytest.raises(pydantic.ValidationError, match="extra"):
        model.model_validate({"secret_hand": ["EA"]})


def test_a_chat_line_with_its_authors_account_cannot_be_sent() -> None:
    s = _sitting()
    s.chat[0]["leak"] = "x"  # a key the chat line does not declare
    info = table_info(s, "t1", 0, invite=None, connected=())
    timer = {"type": "timer", "kind": None, "seat": None, "left": 0, "total": 0, "bank": 0}
    with pytest.raises(pydantic.ValidationError, match="leak"):
        welcome(s, info, 0, creator=False, timer=timer)
