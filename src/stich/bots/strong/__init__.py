"""A Skat search bot (``strong``): sampled worlds solved by the exact solver.

Every decision samples *worlds* — deals of the cards this seat cannot see that agree with
its view — and asks the double-dummy solver (:mod:`stich.skat.solver`) about each.  The
parts, one module each:

- :mod:`~stich.bots.strong.sampler`: the worlds, exact and uniform under the shown voids;
- :mod:`~stich.bots.strong.weights`: each world weighed by how well it fits the auction;
- :mod:`~stich.bots.strong.questions`: the solver questions, each limited by the clock,
  and the chance of a game from the open-hand answers;
- :mod:`~stich.bots.strong.scores`: a game's value and expected list score at a bid;
- :mod:`~stich.bots.strong.auction`: bidding, Hand or pick up, the discard, the game;
- :mod:`~stich.bots.strong.cardplay`: the card play in suit games, Grand and Null;
- :mod:`~stich.bots.strong.ramsch`: Ramsch, the Durchmarsch searched, the rest played out;
- :mod:`~stich.bots.strong.claim`: when the declarer claims the rest (never wrongly);
- :mod:`~stich.bots.strong.doubling`: Kontra and Re (house rule), the declarer's chance
  and expected score on sampled worlds;
- :mod:`~stich.bots.strong.bot`: :class:`SkatStrongBot`, its clock and its dispatch;
- :mod:`~stich.bots.strong.settings`: :class:`StrongSettings`, the tuning, one frozen
  object given to the bot (so bots of two settings can play in one process).

Known weaknesses (plain determinized sampling): *strategy fusion* — in each world the
solver plays as if it knew that world, so guesses look free; and an *over-hopeful
defence* — the defenders are solved as a team that sees all cards.  ``docs/bots.md`` has
the measurements behind the settings and these choices.
"""

from __future__ import annotations

from stich.bots.clock import HARD_CAP
from stich.bots.strong.bot import SkatStrongBot
from stich.bots.strong.sampler import World, all_worlds, count_worlds, sample_world
from stich.bots.strong.settings import DEFAULT_SETTINGS, StrongSettings
from stich.bots.strong.weights import world_weigher

__all__ = ["DEFAULT_SETTINGS", "HARD_CAP", "SkatStrongBot", "StrongSettings", "World",
           "all_worlds", "count_worlds", "sample_world", "world_weigher"]
