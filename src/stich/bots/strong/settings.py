"""The tuning of the Skat search bot: one frozen object, given to the bot.

:class:`StrongSettings` holds every figure the bot's decisions depend on besides its
clock (the budget and the worlds are the bot's own arguments).  The defaults are what
``strong`` plays with; where each figure comes from (the runs that chose it, and the ones
that kept it) is in ``docs/bots.md``.  Two bots with different settings can play in one
process, which is how ``bench/tuning/skat_strong_ab.py`` compares two of them.

>>> StrongSettings().plan_top, StrongSettings(plan_top=0).plan_top
(2, 0)
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DEFAULT_SETTINGS", "StrongSettings"]


@dataclass(frozen=True)
class StrongSettings:
    """The settings of :class:`~stich.bots.strong.SkatStrongBot`, by the part of the bot
    they tune."""

    # --- the clock of the solver questions --------------------------------------------
    question_seconds: float = 0.05
    """The most search time one solver question may take.  A question the solver cannot
    answer within it counts as a coin toss in the card play (a close position) and with
    :attr:`gave_up_chance` in the auction, so that no question holds a decision up."""
    min_nodes: int = 500
    """Every question may search this many nodes, however late (well under a
    millisecond)."""
    nodes_per_second_c: int = 8_000_000
    nodes_per_second_py: int = 100_000
    """About how many positions a second the compiled and the pure-Python solver search:
    turns :attr:`question_seconds` into a node limit (measured on the 2-core machine)."""

    # --- what the open-hand answers are worth -------------------------------------------
    optimism: int = 0
    """Card points added to the declarer's open-hand result when estimating a game's
    chance (a knob for the benches; the calibration is in the tables below)."""
    chance_by_points: tuple[tuple[int, float], ...] = ((61, 0.97), (55, 0.85), (49, 0.6))
    chance_below: float = 0.3
    """A suit game's or Grand's chance to be won in play, by the card points the declarer
    reaches against open-handed defenders (the first threshold reached counts;
    :attr:`chance_below` when none is): the defenders cannot see the cards, so a game the
    open-hand search loses by a few points is often won.  Measured on play."""
    gave_up_chance: tuple[float, ...] | None = (0.83, 0.59, 0.43)
    """The chance of a suit game or Grand when the search gives up on the question at the
    threshold of :attr:`chance_by_points` with the same index (measured by solving such
    questions again without a limit); None: half way between that threshold's chance
    and a coin toss."""
    null_chance: tuple[float, float] = (0.15, 0.97)
    """A Null's chance to be won when the open-hand search says lost / won."""
    null_ouvert_chance: tuple[float, float] = (0.05, 0.97)
    """The same for Null Ouvert: the defenders see the declarer's cards, so a Null lost
    with open cards is hardly ever won."""

    # --- the auction ----------------------------------------------------------------------
    min_chance: float = 0.0
    """Bidding: only games whose mean chance over the sampled worlds is at least this are
    bid on (0: any game whose expected score pays)."""
    bid_se: float = 0.0
    """Bidding: a value is said or held only while the best plan's expected score there,
    less this many standard errors of its mean over the worlds, is above what passing is
    worth (the best of several noisy means is too high by about that much)."""
    auction_optimism: int = 0
    """Card points added to the open-hand result in the auction only (bidding, Hand or
    pick-up), where the Skat is not yet seen."""
    null_badness_tried: float = 3.0
    """Null is only asked about for hands at most this bad
    (:func:`stich.bots.skat_eval.null_badness`; two more after picking up)."""
    plan_top: int = 2
    """In the auction, the solver is asked about the suit games and Grand the rule-based
    evaluation rates best for this hand only: this many for picking up and as many for
    Hand (0: all five each), plus in each world the game the rule-based evaluation would
    declare with that Skat.  Fewer questions per world, more worlds in the budget, and
    fewer noisy plans to take the best of."""
    discard_prune: bool = True
    """After picking up, each of the heuristic's best discards (two per game) is asked
    about only for the games it is among the best two for (off: every game for every
    pair, five times the questions and so far fewer worlds in the budget)."""
    ramsch_loss: float = 50.0
    ramsch_share: float = 0.4
    """Passing before anybody bid: the Ramsch that follows when all pass (with this
    share) costs about this many points to the loser."""

    # --- the worlds weighed by the auction ------------------------------------------------
    infer: bool = True
    """Weigh the sampled worlds of the card play by what the auction says."""
    unlikely_bid: float = 0.3
    """The weight of a sampled world in which a player holds cards that would not have
    bid as high as it did."""
    unlikely_pass: float = 0.3
    """The weight of a world where a player who passed holds cards it would have bid on."""
    infer_passes: bool = True
    """Weigh the worlds by the passes too (:attr:`unlikely_pass`)."""

    # --- Ramsch ---------------------------------------------------------------------------
    durchmarsch_try: float = 0.7
    """A player who has taken every trick so far goes on for the Durchmarsch when it goes
    through in at least this share of the sampled worlds."""
    ramsch_rollouts: bool = True
    """Choose the Ramsch card by playing the sampled worlds out (off: the rule-based
    card)."""

    # --- Kontra and Re (house rule kontra_re; :mod:`~stich.bots.strong.doubling`) ------
    kontra_chance: float = 0.55
    """A defender says Kontra only when the declarer's mean chance over the sampled
    worlds is at most this (the break-even is 2/3: the margin is argued in
    :mod:`~stich.bots.strong.doubling`)."""
    kontra_se: float = 1.0
    """... and when that mean plus this many of its standard errors is still below 2/3
    (few worlds, a wide estimate: no Kontra on it)."""
    doubling_candidates: int = 40
    """Kontra and Re: each world the solver is asked about is drawn, by its weight by
    the auction (:mod:`~stich.bots.strong.weights`), from this many sampled worlds
    (1: every sampled world, unweighed)."""
    doubling_power: float = 2.0
    """... by its weight to this power."""
    re_chance: float = 0.8
    """The declarer answers a Kontra with Re when his mean chance over the sampled
    worlds is at least this."""


DEFAULT_SETTINGS = StrongSettings()
"""The settings ``strong`` plays with."""
