"""Our Baptistenskat bots under the ``ohhell`` preset against OpenSpiel's IS-MCTS.

Every deal is played in lockstep in both engines: an OpenSpiel ``oh_hell`` state
(``players=3``, ``num_tricks_fixed=K``; the deal forced by applying its chance outcomes:
the number of tricks, the dealer, the ``3K`` dealt cards, card ``i`` to player ``i % 3``,
then the turned trump card) and our ``BaptistenState`` of the ``ohhell`` preset with
``max_cards=K`` and the same hands, trump card and first player (the one after the
dealer).  Before every decision the player to move and the set of legal actions of the
two engines must agree (after mapping cards and bids, ``tests.baptisten.openspiel_map``),
and at the end OpenSpiel's ``returns()`` must equal our totals; a difference stops the run.

Our bot sees ``state.view(seat)`` only; IS-MCTS sees the OpenSpiel state and searches
from its own information set.  IS-MCTS is OpenSpiel's *Python* implementation
(``open_spiel.python.algorithms.ismcts.ISMCTSBot``: UCT with ``c = 2``, one random
rollout per leaf from the C++ ``pyspiel.RandomRolloutEvaluator``, the final move the most
visited, ``--sims`` simulations per move, unlimited world samples), with one of two
resamplers for the root world of each simulation:

- ``shipped``: OpenSpiel's own ``OhHellState::ResampleFromInfostate`` (what the bot uses
  by default), called with a seeded ``UniformProbabilitySampler`` so runs repeat.  It
  keeps the set of cards the opponents hold and only redistributes them among the
  opponents: it knows which cards are out of play (the undealt rest).  Since OpenSpiel
  2.0 it respects shown voids (with three players always: every card of a suit one
  opponent is void in goes to the other); earlier releases ignored them.
- ``fair``: :func:`fair_resample`, uniform over all deals consistent with what the
  player has seen: its own cards, the trump card, every card played and by whom, and
  the voids shown by not following suit.

The C++ ``pyspiel.ISMCTSBot`` cannot take a resampler from Python (no ``set_resampler``
in the bindings), so both figures come from the same Python implementation and differ
only in the resampler.  ``--resampler shipped-cpp`` (or ``all``) adds the C++ bot with
the same settings and the shipped resampler, as a check on the Python one.

Duplicate deals: deal ``d`` (cards, trump card and dealer from ``--seed`` and ``d``) is
played once with IS-MCTS in every seat and once per seat ``i`` with our bot in seat
``i`` and IS-MCTS in the others.  The figure is, per deal, the mean over seats of (our
points in seat ``i`` − IS-MCTS's points in seat ``i`` on the same deal), with its mean and
95 % interval over the deals (mean ± 1.96 · sd / √n), in points per round.

Run: ``python -m bench.tuning.ohhell_ismcts --bot easy --deals 40 --seed 1 [--sims 100]
[--tricks 7] [--resampler shipped|fair|both|shipped-cpp|all] [--json]``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from tests.baptisten.openspiel_map import os_action, os_to_romme

from stich import worlds
from stich.baptisten import BaptistenRules, BaptistenState, Deal
from stich.bots import BAPTISTEN_BOTS, make_baptisten_bot
from stich.games.played import interval

PLAYERS = 3
UCT_C = 2.0
SUITS = 4  # OpenSpiel card id = rank * 4 + suit

Resampler = Callable[[Any, int], Any]


# --- the deal ---------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class OsDealSpec:
    """One deal in OpenSpiel's card ids: hands by player, the trump card, the dealer."""

    tricks: int
    dealer: int
    hands: tuple[tuple[int, ...], ...]
    trump_card: int

    def chance(self) -> list[int]:
        """OpenSpiel's chance actions that deal it: card ``i`` goes to player ``i % n``."""
        out = [self.tricks, self.dealer]
        for j in range(self.tricks):
            out.extend(hand[j] for hand in self.hands)
        out.append(self.trump_card)
        return out


def make_deal(seed: int, number: int, tricks: int) -> OsDealSpec:
    """Deal ``number`` of a match: a shuffled deck and a dealer from ``(seed, number)``."""
    rng = random.Random(f"ohhell-ismcts:{seed}:{number}")
    deck = list(range(52))
    rng.shuffle(deck)
    hands = tuple(tuple(deck[p * tricks:(p + 1) * tricks]) for p in range(PLAYERS))
    return OsDealSpec(tricks, rng.randrange(PLAYERS), hands, deck[PLAYERS * tricks])


def os_state_for(game: Any, deal: OsDealSpec, check: bool = True) -> Any:
    """OpenSpiel's state after dealing ``deal`` (``check``: each chance action is one of
    the node's outcomes)."""
    state = game.new_initial_state()
    for a in deal.chance():
        assert state.is_chance_node()
        if check and a not in {o for o, _ in state.chance_outcomes()}:
            raise AssertionError(f"chance action {a} is not an outcome here")
        state.apply_action(a)
    assert not state.is_chance_node()
    return state


def our_state_for(rules: BaptistenRules, deal: OsDealSpec) -> BaptistenState:
    hands = tuple(sum(1 << os_to_romme(c) for c in hand) for hand in deal.hands)
    return BaptistenState.new(rules, deals=[Deal(hands, os_to_romme(deal.trump_card))],
                              first=(deal.dealer + 1) % PLAYERS)


# --- the fair resampler -----------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class PublicInfo:
    """What ``player`` knows in an ``oh_hell`` state: its dealt cards, the trump card, the
    public actions (bids and cards, with who made them) and the voids shown."""

    tricks: int
    dealer: int
    own: tuple[int, ...]
    trump_card: int
    actions: tuple[int, ...]  # every player action in order (bids, then cards)
    played: tuple[tuple[int, ...], ...]  # per player, cards played
    voids: tuple[frozenset[int], ...]  # per player, suits shown void


def public_info(state: Any, player: int) -> PublicInfo:
    """Read ``player``'s information from ``state``; nothing of the other hands is read
    but the cards they played (public)."""
    hist = state.full_history()
    n = state.num_players()
    tricks = hist[0].action
    dealer = hist[1].action
    dealt = [pa.action for pa in hist[2:2 + tricks * n]]
    own = tuple(dealt[i] for i in range(len(dealt)) if i % n == player)
    trump_card = hist[2 + tricks * n].action
    actions: list[int] = []
    played: list[list[int]] = [[] for _ in range(n)]
    voids: list[set[int]] = [set() for _ in range(n)]
    trick: list[int] = []
    for pa in hist[3 + tricks * n:]:
        assert pa.player >= 0, "chance after the deal"
        actions.append(pa.action)
        if pa.action >= 52:  # a bid
            continue
        played[pa.player].append(pa.action)
        if trick and pa.action % SUITS != trick[0] % SUITS:
            voids[pa.player].add(trick[0] % SUITS)
        trick.append(pa.action)
        if len(trick) == n:
            trick = []
    return PublicInfo(tricks, dealer, own, trump_card, tuple(actions),
                      tuple(tuple(p) for p in played), tuple(frozenset(v) for v in voids))


def sample_hidden(pool_by_suit: Sequence[Sequence[int]], needs: Sequence[int],
                  voids: Sequence[frozenset[int]], rng: random.Random) -> list[list[int]]:
    """Cards for each hidden hand, uniform over all ways to give ``needs[j]`` cards of
    ``pool_by_suit`` to hand ``j`` with no card of a suit in ``voids[j]`` (the pool's
    other cards stay out of play): :class:`stich.worlds.Deal`, the cards out of play one
    more slot."""
    pool = 0
    for cards in pool_by_suit:
        for c in cards:
            pool |= 1 << c
    out_of_play = pool.bit_count() - sum(needs)
    allowed = [sum(1 << c for s, cards in enumerate(pool_by_suit) if s not in void
                   for c in cards) for void in voids]
    try:
        if out_of_play < 0:
            raise worlds.NoDeal("more cards needed than the pool has")
        hands = worlds.Deal(pool, [*needs, out_of_play], [*allowed, pool]).draw(rng)
    except worlds.NoDeal:
        raise ValueError("no deal is consistent with this information") from None
    return [[c for c in range(pool.bit_length()) if h >> c & 1] for h in hands[:len(needs)]]


def fair_deal(info: PublicInfo, player: int, n: int, rng: random.Random) -> OsDealSpec:
    """A deal drawn uniformly among those consistent with ``info`` (``player``'s view)."""
    seen = set(info.own) | {info.trump_card}
    for cards in info.played:
        seen.update(cards)
    pool_by_suit: list[list[int]] = [[] for _ in range(SUITS)]
    for c in range(52):
        if c not in seen:
            pool_by_suit[c % SUITS].append(c)
    others = [p for p in range(n) if p != player]
    needs = [info.tricks - len(info.played[p]) for p in others]
    hidden = sample_hidden(pool_by_suit, needs, [info.voids[p] for p in others], rng)
    hands: list[tuple[int, ...]] = [()] * n
    hands[player] = info.own
    for p, cards in zip(others, hidden, strict=True):
        hands[p] = tuple(info.played[p]) + tuple(cards)
    return OsDealSpec(info.tricks, info.dealer, tuple(hands), info.trump_card)


def fair_resample(state: Any, player: int, rng: random.Random) -> Any:
    """An OpenSpiel state with ``player``'s information set, the hidden cards drawn
    uniformly among the deals consistent with it (see :func:`fair_deal`)."""
    info = public_info(state, player)
    deal = fair_deal(info, player, state.num_players(), rng)
    out = os_state_for(state.get_game(), deal, check=False)
    for a in info.actions:
        out.apply_action(a)
    return out


def shipped_resample(state: Any, player: int, rng: random.Random) -> Any:
    """OpenSpiel's own resampler, seeded from ``rng`` so that a run repeats."""
    import pyspiel  # type: ignore[import-not-found]

    sampler = pyspiel.UniformProbabilitySampler(rng.getrandbits(31), 0.0, 1.0)
    return state.resample_from_infostate(player, sampler)


RESAMPLERS: dict[str, Callable[[Any, int, random.Random], Any]] = {
    "shipped": shipped_resample,
    "fair": fair_resample,
}


# --- the bots and the lockstep game -----------------------------------------------------


def make_ismcts(game: Any, sims: int, resampler: str, seed: int) -> Any:
    """OpenSpiel's Python IS-MCTS with the named resampler, seeded; for ``shipped-cpp``
    the C++ ``pyspiel.ISMCTSBot`` (same settings) with the game's own resampler."""
    if resampler == "shipped-cpp":
        import pyspiel

        return pyspiel.ISMCTSBot(seed, pyspiel.RandomRolloutEvaluator(1, seed), UCT_C, sims,
                                 -1, pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
                                 False, False)
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    bot = ismcts.ISMCTSBot(
        game=game, evaluator=evaluator, uct_c=UCT_C,
        max_simulations=sims, random_state=np.random.RandomState(seed),
        final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)
    rng = random.Random(seed)
    fn = RESAMPLERS[resampler]
    bot.set_resampler(lambda state, player: fn(state, player, rng))
    return bot


def play_lockstep(game: Any, rules: BaptistenRules, deal: OsDealSpec,
                  choose: Callable[[int, Any, BaptistenState], int]) -> BaptistenState:
    """Play one deal in both engines at once; ``choose(player, os_state, ours)`` returns
    OpenSpiel's action id for the player to move.  Checks the mover and the legal sets
    at every step and the scores at the end; returns our final state (seat = player)."""
    os_state = os_state_for(game, deal)
    ours = our_state_for(rules, deal)
    while not os_state.is_terminal():
        player = os_state.current_player()
        if ours.is_over or ours.to_move != player:
            raise AssertionError(f"player to move differs: OpenSpiel {player}, ours "
                                 f"{None if ours.is_over else ours.to_move}; {deal}")
        by_id = {os_action(a): a for a in ours.legal_actions()}
        os_legal = sorted(os_state.legal_actions())
        if sorted(by_id) != os_legal:
            raise AssertionError(f"legal actions differ: ours {sorted(by_id)}, OpenSpiel "
                                 f"{os_legal}; {deal}, history {ours.history}")
        a = choose(player, os_state, ours)
        if a not in by_id:
            raise AssertionError(f"illegal action {a} chosen")
        os_state.apply_action(a)
        ours = ours.apply(by_id[a])
    returns = os_state.returns()
    if not ours.is_over or ours.totals != tuple(int(r) for r in returns):
        raise AssertionError(f"scores differ: ours {ours.totals}, OpenSpiel {returns}; "
                             f"{deal}, history {ours.history}")
    return ours


def play_deal(game: Any, rules: BaptistenRules, deal: OsDealSpec, number: int, seed: int,
              bot_name: str, sims: int, resampler: str,
              times: list[float]) -> tuple[list[tuple[int, bool]], list[tuple[int, bool]]]:
    """The deal with IS-MCTS in every seat, then with our bot in each seat in turn.
    Returns (IS-MCTS's, our bot's) (points, exact bid) by seat."""
    def run(ours_at: int | None) -> list[tuple[int, bool]]:
        tag = f"{seed}:{number}:{ours_at}:{resampler}"
        bots = [make_ismcts(game, sims, resampler, random.Random(f"{tag}:{p}").getrandbits(31))
                for p in range(PLAYERS)]
        ours_bot = make_baptisten_bot(bot_name)
        ours_rng = random.Random(f"{tag}:ours")

        def choose(player: int, os_state: Any, ours: BaptistenState) -> int:
            t0 = time.perf_counter()
            try:
                if player == ours_at:
                    return os_action(ours_bot.choose(ours.view(player), ours_rng))
                return int(bots[player].step(os_state))
            finally:
                if player != ours_at:
                    times.append(time.perf_counter() - t0)

        row = play_lockstep(game, rules, deal, choose).sheet[0]
        return [(row.scores[p], row.bids[p] == row.tricks[p]) for p in range(PLAYERS)]

    base = run(None)
    mine = [run(i)[i] for i in range(PLAYERS)]
    return base, mine


def match(bot_name: str, deals: int, seed: int, sims: int, tricks: int,
          resampler: str, progress: bool) -> dict[str, Any]:
    import pyspiel

    game = pyspiel.load_game("oh_hell", {"players": PLAYERS, "num_tricks_fixed": tricks})
    rules = dataclasses.replace(BaptistenRules.preset("ohhell"), max_cards=tricks)
    diffs: list[float] = []
    mine_pr: list[float] = []
    base_pr: list[float] = []
    exact_mine = exact_base = 0
    times: list[float] = []
    t0 = time.perf_counter()
    for d in range(deals):
        deal = make_deal(seed, d, tricks)
        base, mine = play_deal(game, rules, deal, d, seed, bot_name, sims, resampler, times)
        diffs.append(statistics.fmean(m[0] - b[0] for m, b in zip(mine, base, strict=True)))
        mine_pr.append(statistics.fmean(m[0] for m in mine))
        base_pr.append(statistics.fmean(b[0] for b in base))
        exact_mine += sum(1 for m in mine if m[1])
        exact_base += sum(1 for b in base if b[1])
        if progress:
            print(f"\r{resampler}: deal {d + 1}/{deals}, difference so far "
                  f"{statistics.fmean(diffs):+.2f}", end="", file=sys.stderr, flush=True)
    if progress:
        print(file=sys.stderr)
    times.sort()
    return {
        "resampler": resampler,
        "ismcts": ("pyspiel.ISMCTSBot (C++)" if resampler == "shipped-cpp"
                   else "open_spiel.python.algorithms.ismcts.ISMCTSBot"),
        "ours": interval(mine_pr).to_dict(), "ismcts_points": interval(base_pr).to_dict(),
        "difference": interval(diffs).to_dict(),
        "exact_rate": {"ours": round(exact_mine / (PLAYERS * deals), 4),
                       "ismcts": round(exact_base / (PLAYERS * deals), 4)},
        "ismcts_ms_per_move": {"median": round(1000 * times[len(times) // 2], 2),
                               "decisions": len(times)},
        "seconds": round(time.perf_counter() - t0, 1),
    }


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bot", default="easy", help=f"our bot: {', '.join(sorted(BAPTISTEN_BOTS))}")
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--sims", type=int, default=100, help="IS-MCTS simulations per move")
    ap.add_argument("--tricks", type=int, default=7,
                    help="cards per hand (the preset's max_cards, 7; 1 … 17)")
    ap.add_argument("--resampler", default="both",
                    choices=("shipped", "fair", "both", "shipped-cpp", "all"),
                    help="both: shipped and fair (Python IS-MCTS); shipped-cpp: the C++ bot "
                         "with the shipped resampler; all: the three")
    ap.add_argument("--json", action="store_true", help="one JSON object on stdout")
    args = ap.parse_args(argv)
    if args.bot not in BAPTISTEN_BOTS:
        ap.error(f"unknown bot {args.bot!r}; choose from {', '.join(sorted(BAPTISTEN_BOTS))}")
    if not 1 <= args.tricks <= (52 - 1) // PLAYERS:
        ap.error("--tricks must be 1 … 17 (one card is left to turn for trump)")
    kinds = {"both": ("shipped", "fair"), "all": ("shipped", "fair", "shipped-cpp")}.get(
        args.resampler, (args.resampler,))
    results = [match(args.bot, args.deals, args.seed, args.sims, args.tricks, k, not args.json)
               for k in kinds]
    out = {"bot": args.bot, "rules": str(dataclasses.replace(
        BaptistenRules.preset("ohhell"), max_cards=args.tricks)), "deals": args.deals,
        "seed": args.seed, "sims": args.sims, "tricks": args.tricks,
        "score": "points per round", "results": results}
    if args.json:
        print(json.dumps(out))
        return
    print(f"{args.bot} vs OpenSpiel IS-MCTS ({args.sims} simulations), ohhell with "
          f"{args.tricks} tricks, {args.deals} deals, seed {args.seed}; points per round, "
          f"95 % intervals over deals")
    for r in results:
        d, o, b = r["difference"], r["ours"], r["ismcts_points"]
        print(f"  resampler {r['resampler']:11} {args.bot} {o['mean']:.2f}  IS-MCTS "
              f"{b['mean']:.2f}  difference {d['mean']:+.2f} [{d['low']:+.2f}, "
              f"{d['high']:+.2f}]  exact {r['exact_rate']['ours']:.0%} vs "
              f"{r['exact_rate']['ismcts']:.0%}  IS-MCTS {r['ismcts_ms_per_move']['median']} "
              f"ms/move  {r['seconds']} s")


if __name__ == "__main__":
    main()
