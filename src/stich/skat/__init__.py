"""The Skat engine: ISkO rules and Lothar's table.

>>> from stich.skat import SkatState, SkatRules
>>> s = SkatState.new(SkatRules.preset("isko"), seed=1)
>>> s.phase.name
'BIDDING'
"""

from typing import Final

from stich.core import IllegalActionError
from stich.skat.actions import (
    HAND,
    HOLD,
    PASS,
    PICKUP,
    Action,
    Bid,
    Declare,
    Discard,
    parse_action,
)
from stich.skat.outcome import SkatOutcome
from stich.skat.rules import GameType, SkatRules, bidding_ladder
from stich.skat.state import POSITION_NAMES, Phase, SkatState
from stich.skat.view import SkatView

__all__ = [
    "Action",
    "Bid",
    "Declare",
    "Discard",
    "GameType",
    "HAND",
    "HOLD",
    "IllegalActionError",
    "PASS",
    "PICKUP",
    "POSITION_NAMES",
    "Phase",
    "SkatOutcome",
    "SkatRules",
    "SkatState",
    "SkatView",
    "bidding_ladder",
    "parse_action",
]

NAME: Final = "skat"
"""The game's name in records, table settings and URLs (:data:`stich.games.SKAT`)."""
