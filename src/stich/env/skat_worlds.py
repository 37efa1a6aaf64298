"""The hidden cards of a Schieberamsch and of a Revolution dealt anew, for OpenSpiel's
resampling (:meth:`stich.env.openspiel.SkatOSState.resample`).

In a Schieberamsch each seat from Vorhand picks the Skat up and puts two cards back (no
Unter), or pushes it on unseen; so the cards a seat holds are no longer the cards it was
dealt, and what a player knows of the Skat's way is what he found and what he put back.
:func:`pushed_deal` draws a deal and the cards every other seat put back that the player
cannot tell from the real ones.

In a Revolution (house rule ``revolution``) the declarer's cards lie open and the two
defenders see each other's: a defender knows every card but which two the declarer found
in a Skat he picked up (and the cards his partner is choosing to give); the declarer
knows neither defender's cards nor what they gave each other, only how many.
:func:`revolution_deal` draws what the player cannot see.
"""

from __future__ import annotations

import random
from typing import Final

from stich import worlds
from stich.cards import CARDS, Rank
from stich.skat.state import Phase, SkatState

__all__ = ["is_revolution", "pushed_deal", "revolution_deal"]

_ALL: Final = (1 << 32) - 1
_UNTER: Final = sum(1 << c.index for c in CARDS if c.rank == Rank.UNTER)


def _bits(mask: int) -> list[int]:
    return [i for i in range(32) if mask >> i & 1]


def pushed_deal(st: SkatState, player: int, pending: int, rng: random.Random
                ) -> tuple[list[int], dict[int, int]]:
    """A deal (the three hands by position; the Skat is the rest) and the discard steps
    (step number → card, the player's own steps left out) that give ``player`` the
    information state of ``st``, a Schieberamsch in which somebody picked the Skat up.
    ``pending`` is the first card chosen of a discard under way (-1: none).

    First the cards each other seat holds now, and the Skat left unless the player put
    it there, are drawn under the voids: the cards the player put back go only where
    they can have gone (to a seat that picked up after him, or the Skat left), and the
    Skat left holds no Unter.  Then, from the last pick-up back to the first, the two
    cards each seat found: the ones the player knows (he found them, or put them back
    just before), else two of the seat's twelve, with the player's cards that reached
    that seat, and no Unter where another seat had put them back.  (Uniform over the
    cards held now; the ways back are drawn uniformly given those, not weighted by how
    many there are.)  Raises ValueError when no deal fits (it always does for a real
    state)."""
    info = st.game_info
    assert info is not None
    v = st.view(player)
    played = v.played_by()
    voids = v.voids()
    pickers = [(s, seen) for s, seen, _ in info.schieben if seen]
    mid = st.phase is Phase.DISCARD  # the last of them is putting two cards back
    mine = next((k for k, (s, _) in enumerate(pickers) if s == player), -1)
    put_mine = v.discarded if mine >= 0 else 0
    later = {s for s, _ in pickers[mine + 1:]} if mine >= 0 else set()
    rest_known = not mid and pickers[-1][0] == player  # he put the Skat left there
    pool = _ALL & ~st.hands[player] & ~(played[0] | played[1] | played[2])
    if rest_known:
        pool &= ~put_mine
    wandering = put_mine & pool
    sizes: list[int] = []
    allowed: list[int] = []
    names: list[int] = []
    for q in range(3):
        if q != player:
            sizes.append(st.hands[q].bit_count())
            allowed.append(pool & ~voids[q] & ~(0 if q in later else wandering))
            names.append(q)
    if not mid and not rest_known:
        sizes.append(2)
        allowed.append(pool & ~_UNTER)
        names.append(-1)
    try:
        drawn = worlds.Deal(pool, sizes, allowed).draw(rng)
    except worlds.NoDeal:
        raise ValueError("no deal fits what the player knows") from None
    got = dict(zip(names, drawn, strict=True))
    after = put_mine if rest_known else got.get(-1, 0)  # the Skat after a pick-up
    deal = [(st.hands[q] if q == player else got[q]) | played[q] for q in range(3)]
    steps: list[list[int]] = []  # the discard steps of each pick-up, last first
    for k in range(len(pickers) - 1, -1, -1):
        q, seen_true = pickers[k]
        ongoing = mid and k == len(pickers) - 1
        twelve = deal[q] | (0 if ongoing else after)
        away = [-1, -1]  # the player's own steps stay
        if q == player:
            seen = seen_true
        else:
            if mine >= 0 and k - 1 == mine:
                seen = put_mine
            else:
                need = put_mine & twelve if 0 <= mine < k else 0
                free = twelve & ~need & (~_UNTER if k > 0 else _ALL)
                seen = need | sum(1 << c for c in rng.sample(_bits(free),
                                                             2 - need.bit_count()))
            if ongoing:
                away = [rng.choice(_bits(twelve & ~_UNTER))] if pending >= 0 else []
            else:
                away = _bits(after)
                rng.shuffle(away)
        deal[q] = twelve & ~seen
        steps.append(away)
        after = seen
    steps.reverse()
    cards = [c for step in steps for c in step]
    return deal, {i: c for i, c in enumerate(cards) if c >= 0}


def _some(cards: int, n: int, rng: random.Random) -> list[int]:
    """``n`` of ``cards`` at random, in a random order."""
    return rng.sample(_bits(cards), n)


def revolution_deal(st: SkatState, player: int, giving: int, rng: random.Random
                    ) -> tuple[list[int], dict[int, int], dict[int, int]]:
    """A deal (the three hands by position; the Skat is the rest), the declarer's discard
    steps (step number → card) and the give steps (number → card, counting the give
    steps of both defenders in order) to change, that give ``player`` the information
    state of ``st``, a Revolution in card play; ``giving`` is the cards the defender to
    move has chosen so far of his give.

    A defender keeps the deal but for the declarer's: which two of his twelve cards were
    the Skat he found (and the order of his two discard steps) is drawn; so are the
    cards the other defender has chosen so far.  For the declarer the defenders' cards
    held now are drawn under the voids (and the Skat of a Hand game), then an exchange of
    as many cards that leads to them: the first defender's gift from his partner's
    cards after it, what came back from his own.  (Uniform over the cards held now; the
    exchange uniform given those.)  Raises ValueError when no deal fits."""
    info = st.game_info
    assert info is not None
    d = st.declarer
    a, b = (d + 1) % 3, (d + 2) % 3  # the first defender gives, his partner gives back
    stage = info.exchange  # 1: the first defender chooses, 2: his partner, 0: over
    n1 = 0 if stage == 1 else info.given.bit_count()
    k = giving.bit_count()
    hands = list(st.deal[0])
    picked = st.picked_up
    if player != d:
        discards: dict[int, int] = {}
        if picked:
            twelve = st.deal[0][d] | st.deal[1]
            found = _some(twelve, 2, rng)
            hands[d] = twelve & ~(1 << found[0] | 1 << found[1])
            discards = dict(enumerate(_some(st.skat, 2, rng)))
        gives: dict[int, int] = {}
        mover = st.to_move
        if stage and mover != player and k:
            own = st.hands[mover] & ~(info.given if stage == 2 else 0)
            gives = {n1 * (stage == 2) + i: c for i, c in enumerate(_some(own, k, rng))}
        return hands, discards, gives
    v = st.view(player)
    played = v.played_by()
    voids = v.voids()
    pool = _ALL & ~st.hands[d] & ~(played[0] | played[1] | played[2])
    if picked:
        pool &= ~st.skat
    sizes = [st.hands[a].bit_count(), st.hands[b].bit_count()]
    allowed = [pool & ~voids[a], pool & ~voids[b]]
    if not picked:
        sizes.append(2)
        allowed.append(pool)
    try:
        drawn = worlds.Deal(pool, sizes, allowed).draw(rng)
    except worlds.NoDeal:
        raise ValueError("no deal fits what the player knows") from None
    now_a, now_b = drawn[0] | played[a], drawn[1] | played[b]
    if stage == 1:
        hands[a], hands[b] = now_a, now_b
        steps = _some(now_a, k, rng)
    else:
        g1 = _some(now_b, n1, rng)
        gift = sum(1 << c for c in g1)
        if stage == 2:
            hands[a], hands[b] = now_a | gift, now_b & ~gift
            steps = g1 + _some(hands[b], k, rng)
        else:
            g2 = _some(now_a, n1, rng)
            back = sum(1 << c for c in g2)
            hands[a], hands[b] = now_a & ~back | gift, now_b & ~gift | back
            steps = g1 + g2
    return hands, {}, dict(enumerate(steps))


def is_revolution(st: SkatState) -> bool:
    """Whether ``st`` is a Revolution's card play (its exchange included)."""
    con = st.contract
    return con is not None and con.revolution and st.phase is Phase.PLAY
