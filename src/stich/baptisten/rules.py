"""Baptistenskat rule sets.

A rule set is a frozen dataclass with a canonical string that names the preset and every
field that differs from it:

>>> str(BaptistenRules())
'baptisten(preset=default)'
>>> r = BaptistenRules.parse("baptisten(deck=romme,max_cards=7,variants=2+5)")
>>> r.deck, r.max_cards, r.forehead, r.must_overtrump, r.variants
('romme', 7, True, True, (2, 5))
>>> str(r)
'baptisten(preset=default,deck=romme,max_cards=7,variants=2+5)'
>>> BaptistenRules().schedule()[:4], len(BaptistenRules().schedule())
((1, 2, 3, 4), 19)
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, fields
from typing import Literal

from stich.cards import PLAIN_DECKS, PlainDeck, plain_deck
from stich.core import RulesError, kept_text

__all__ = ["BaptistenRules", "PRESETS"]

Schedule = Literal["updown", "single"]
TrumpCard = Literal["baptisten", "after_deal"]


@dataclass(frozen=True)
class BaptistenRules:
    """Every option of a Baptistenskat game.  The defaults are the seed text's table.

    - ``players``: 3 up to deck size ÷ 7; ``max_cards`` (N): cards in the middle round.
    - ``deck``: ``elferraus`` (default), ``skat``, ``romme``, each ``-double``, or
      ``romme-double-joker`` (variant 1).
    - ``forehead`` (variant 2): in rounds with one card every player sees all cards but
      their own.
    - ``trick_scoring`` (variant 3): ``points_per_trick`` per trick, ``exact_bonus`` for an
      exact bid, ``exact_zero_bonus`` for an exact bid of 0; no stakes, no 40s.
    - ``hook_always`` (variant 4): the hook rule in every round, not only with 3+ cards.
    - ``must_overtrump`` (variant 5).
    - ``rounds``: ``updown`` (rounds 1, 2, …, N, …, 2, 1) or ``single`` (one round of N).
    - ``trump_card``: ``baptisten`` (turned after the deal, or drawn before it when the
      round uses the whole deck) or ``after_deal`` (always turned after the deal).
    """

    deck: str = "elferraus"
    players: int = 4
    max_cards: int = 10
    forehead: bool = False
    trick_scoring: bool = False
    hook_always: bool = False
    must_overtrump: bool = False
    points_per_trick: int = 2
    exact_bonus: int = 10
    exact_zero_bonus: int = 20
    rounds: Schedule = "updown"
    trump_card: TrumpCard = "baptisten"

    def __post_init__(self) -> None:
        d = plain_deck(self.deck)  # raises for an unknown deck
        least = 3 if self.rounds == "updown" else 2
        if self.players < least:
            raise RulesError("baptisten.too_few_players", least=least, players=self.players)
        if self.rounds == "updown" and self.players > d.size // 7:
            raise RulesError("baptisten.too_many_players", most=d.size // 7, deck=self.deck,
                             size=d.size)
        limit = d.size // self.players
        if self.trump_card == "after_deal" and d.size % self.players == 0:
            limit = d.size // self.players - 1
        if not 1 <= self.max_cards <= limit:
            raise RulesError("baptisten.max_cards", limit=limit, players=self.players,
                             deck=self.deck)
        if self.rounds not in ("updown", "single"):
            raise RulesError("rules.option_choice", key="rounds", choices="updown, single",
                             value=self.rounds)
        if self.trump_card not in ("baptisten", "after_deal"):
            raise RulesError("rules.option_choice", key="trump_card",
                             choices="baptisten, after_deal", value=self.trump_card)

    @property
    def card_deck(self) -> PlainDeck:
        return PLAIN_DECKS[self.deck]

    @property
    def variants(self) -> tuple[int, ...]:
        """The variants 2–5 that are on (variant 1 is the deck)."""
        flags = (self.forehead, self.trick_scoring, self.hook_always, self.must_overtrump)
        return tuple(n for n, on in zip((2, 3, 4, 5), flags, strict=True) if on)

    def schedule(self) -> tuple[int, ...]:
        """Cards dealt in each round: 1, 2, …, N, …, 2, 1 (or just N)."""
        n = self.max_cards
        if self.rounds == "single":
            return (n,)
        return (*range(1, n + 1), *range(n - 1, 0, -1))

    @property
    def forties_required(self) -> int:
        """How often each player must stake 40: 3 (4 when N is 11–13), capped at the
        number of rounds with 3 or more cards; none under trick scoring."""
        if self.trick_scoring:
            return 0
        want = 4 if 11 <= self.max_cards <= 13 else 3
        return min(want, sum(1 for k in self.schedule() if k >= 3))

    def hook_applies(self, cards: int) -> bool:
        return self.hook_always or cards >= 3

    @staticmethod
    def preset(name: str) -> BaptistenRules:
        try:
            return PRESETS[name]
        except KeyError:
            raise RulesError("rules.unknown_preset", game="Baptistenskat", name=name,
                             choices=", ".join(PRESETS)) from None

    @property
    def preset_name(self) -> str:
        return min(PRESETS, key=lambda n: (len(_diff(PRESETS[n], self)), n != "default"))

    def __str__(self) -> str:
        """The canonical rule string (kept once made: every view names its rules)."""
        return kept_text(self, self._text)

    def _text(self) -> str:
        base = self.preset_name
        parts = [f"preset={base}"]
        diff = dict(_diff(PRESETS[base], self))
        variant_fields = ("forehead", "trick_scoring", "hook_always", "must_overtrump")
        vdiff = any(f in diff for f in variant_fields)
        for f in fields(BaptistenRules):
            if f.name in diff and f.name not in variant_fields:
                parts.append(f"{f.name}={_fmt(diff[f.name])}")
        if vdiff:
            parts.append("variants=" + ("+".join(map(str, self.variants)) or "none"))
        return f"baptisten({','.join(parts)})"

    @staticmethod
    def parse(text: str) -> BaptistenRules:
        """Read a rule string such as ``baptisten(deck=romme,max_cards=7,variants=2+5)``."""
        t = text.strip()
        if t in PRESETS:
            return PRESETS[t]
        m = re.fullmatch(r"baptisten\((.*)\)", t)
        if not m:
            raise RulesError("rules.not_a_rule_string", game="Baptistenskat", text=text,
                             example="baptisten(preset=...)")
        values: dict[str, str] = {}
        for item in (p.strip() for p in m.group(1).split(",")):
            if not item:
                continue
            key, sep, value = item.partition("=")
            if not sep:
                raise RulesError("rules.option_needs_value", item=item)
            values[key.strip()] = value.strip()
        base = BaptistenRules.preset(values.pop("preset", "default"))
        changes: dict[str, object] = {}
        if "variants" in values:
            changes.update(variant_fields(values.pop("variants")))
        known = {f.name: f for f in fields(BaptistenRules)}
        for key, value in values.items():
            if key not in known:
                raise RulesError("rules.unknown_option", game="Baptistenskat", key=key)
            current = getattr(base, key)
            if isinstance(current, bool):
                if value not in ("yes", "no", "true", "false"):
                    raise RulesError("rules.option_yes_no", key=key, value=value)
                changes[key] = value in ("yes", "true")
            elif isinstance(current, int):
                try:
                    changes[key] = int(value)
                except ValueError:
                    raise RulesError("rules.option_number", key=key, value=value) from None
            else:
                changes[key] = value
        return dataclasses.replace(base, **changes)  # type: ignore[arg-type]


def variant_fields(text: str) -> dict[str, bool]:
    """The variant switches from ``2+5``, ``2,5`` or ``none``."""
    chosen: set[int] = set()
    for word in re.split(r"[+,\s]+", text.strip()):
        if not word or word == "none":
            continue
        if word == "1":
            raise RulesError("baptisten.variant_1")
        if word not in ("2", "3", "4", "5"):
            raise RulesError("baptisten.unknown_variant", word=word)
        chosen.add(int(word))
    return {"forehead": 2 in chosen, "trick_scoring": 3 in chosen,
            "hook_always": 4 in chosen, "must_overtrump": 5 in chosen}


def _diff(a: BaptistenRules, b: BaptistenRules) -> list[tuple[str, object]]:
    return [(f.name, getattr(b, f.name)) for f in fields(BaptistenRules)
            if getattr(a, f.name) != getattr(b, f.name)]


def _fmt(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


PRESETS: dict[str, BaptistenRules] = {
    "default": BaptistenRules(),
    "ohhell": BaptistenRules(
        players=3, max_cards=7, deck="romme", trick_scoring=True, hook_always=True,
        points_per_trick=1, exact_bonus=10, exact_zero_bonus=10, rounds="single",
        trump_card="after_deal",
    ),
}
