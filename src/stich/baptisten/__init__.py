"""The Baptistenskat engine: every variant, the whole game and its scoresheet.

>>> from stich.baptisten import BaptistenRules, BaptistenState
>>> s = BaptistenState.new(BaptistenRules(players=4, max_cards=10), seed=3)
>>> s.round_no, s.cards, str(s.trump_card) != ""
(1, 1, True)
"""

from typing import Final

from stich.baptisten.actions import FOREHEAD_PLAY, BBid, bid_action, parse_bid
from stich.baptisten.deal import Deal, draw_first_player
from stich.baptisten.rules import PRESETS, BaptistenRules
from stich.baptisten.scoring import BaptistenOutcome, ranking, scoresheet
from stich.baptisten.state import BaptistenState, BPhase, RoundResult
from stich.baptisten.view import BaptistenView

__all__ = [
    "BBid",
    "BPhase",
    "BaptistenOutcome",
    "BaptistenRules",
    "BaptistenState",
    "BaptistenView",
    "Deal",
    "FOREHEAD_PLAY",
    "PRESETS",
    "RoundResult",
    "bid_action",
    "draw_first_player",
    "parse_bid",
    "ranking",
    "scoresheet",
]

NAME: Final = "baptisten"
"""The game's name in records, table settings and URLs (:data:`stich.games.BAPTISTEN`)."""
