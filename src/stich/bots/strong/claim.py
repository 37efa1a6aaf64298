"""When the Skat search bot claims the rest: only where the claim cannot be wrong.

The engine checks a claim (:data:`~stich.skat.actions.CLAIM`) with all cards open, on the
one real deal; a wrong claim gives the rest to the other side.  So the declarer on move,
with more than one card left (the last trick is simply played), claims only when the rest
is his in *every* world that agrees with his view, the real one among them:

- by his own cards alone (:func:`stich.bots.heuristic.sure_of_the_rest`: he leads and
  holds only trumps above every trump still out), or
- when at most :data:`CLAIM_WORLDS` worlds agree with his view (late in the game; listed
  by :func:`~stich.bots.strong.sampler.all_worlds`), the solver says in each of them that
  he takes every remaining trick (in Null: that he takes none).  The questions share
  :data:`CLAIM_NODES` solver nodes (each world its equal part); one the solver gives up
  on counts as no, so the bot does not claim.

Sampled worlds would not do: a world not drawn could be the real one.  The check does not
read the clock, so a decision is the same on any machine; it costs at most about 0.4 s
with the solver's Python search, a few milliseconds with the compiled one.

>>> from stich.cards import parse_cards
>>> from stich.skat import SkatRules, SkatState
>>> hands = [parse_cards("CJ SJ HJ DJ CA CT CK CQ C9 C8"),
...          parse_cards("HA HT HK HQ H9 H8 H7 DA DT DK"),
...          parse_cards("SK SQ S9 S8 S7 DQ D9 D8 D7 C7")]
>>> s = SkatState.new(SkatRules(), hands=hands, skat=parse_cards("ST SA"))
>>> for a in ("18", "hold", "pass", "pass", "hand", "declare eichel hand"):
...     s = s.apply(s.parse_action(a))
>>> sure_claim(s.view(0))  # ten trumps, the highest but for C7: every trick is his
True
>>> sure_claim(s.view(1))  # a defender does not claim
False
"""

from __future__ import annotations

from stich.bots.heuristic import sure_of_the_rest
from stich.bots.strong.sampler import all_worlds, count_worlds
from stich.skat.actions import CLAIM
from stich.skat.rules import GameType
from stich.skat.solver import Position, SearchLimit, null_won, takes_all
from stich.skat.view import SkatView

__all__ = ["CLAIM_NODES", "CLAIM_WORLDS", "sure_claim"]

CLAIM_WORLDS = 120
"""The most worlds agreeing with the view for which every one is solved."""

CLAIM_NODES = 100_000
"""The solver nodes all worlds' questions may use together, shared out equally (one
world's part reached: no claim)."""


def sure_claim(view: SkatView) -> bool:
    """Whether ``view``'s seat may claim the rest now and the claim is right whatever
    the hidden cards are."""
    if CLAIM not in view.claims or view.game is None or view.hand.bit_count() < 2:
        return False
    if sure_of_the_rest(view):
        return True
    worlds = count_worlds(view)
    if worlds > CLAIM_WORLDS:
        return False
    game, me = view.game, view.seat
    trick = tuple(c for _, c in view.trick)
    ask = null_won if game is GameType.NULL else takes_all
    nodes = CLAIM_NODES // worlds
    for hands, _skat in all_worlds(view):
        try:
            if not ask(Position(game, hands, me, me, trick), nodes=nodes):
                return False
        except SearchLimit:
            return False
    return True
