"""The house rules Revolution and Schenken at the terminal's Skat table: the questions,
the partner's cards a defender sees, the narration, from the seat's view only.

Revolution: from the declaration on, a defender's view shows his partner's cards
(``partner_hand``); before the first card the first defender after the declarer gives
his partner any cards (``give 1 4``, ``give`` alone for none), the partner gives back as
many.  The declarer never learns which cards went over: his narration says only that
cards were given.

Schenken: a defender at his turn in the first trick may say ``schenken``; his partner
agrees (``schenken``) or not (``passe``); then the declarer accepts (``accept``,
``annehmen``) or plays on (``passe``, ``weiter``): Schneider then counts as announced, a
second time Schwarz.
"""

from __future__ import annotations

from stich.cli.i18n import Translator
from stich.skat.actions import ACCEPT, SCHENKEN, Give
from stich.skat.outcome import SkatOutcome
from stich.skat.view import SkatView

__all__ = ["gift_level", "give_count", "help_line", "narrate", "question", "result_words"]


def gift_level(view: SkatView) -> str:
    """What the declarer must make when he plays on after the gift now offered."""
    return "Schwarz" if view.gift >= 1 else "Schneider"


def give_count(view: SkatView) -> int | None:
    """How many cards the seat must give back (None: the first defender, any number; -1:
    the seat has no give now)."""
    sizes = {a.cards.bit_count() for a in view.legal_actions if isinstance(a, Give)}
    if not sizes:
        return -1
    return sizes.pop() if len(sizes) == 1 else None  # (the first: every size, 0 to 10)


def question(view: SkatView, tr: Translator, name: str) -> str | None:
    """The question at the seat's turn for these house rules, else None; ``name`` names
    the other defender (the partner) of a defender."""
    legal = view.legal_actions
    simply = tr("gift_schneider") if view.gift else tr("gift_simply")
    if ACCEPT in legal:
        return tr("q_gift_accept", simply=simply, level=gift_level(view))
    if view.gift_pending == 1 and SCHENKEN in legal:
        return tr("q_gift_partner", name=name, simply=simply, level=gift_level(view))
    n = give_count(view)
    if n is None:
        return tr("q_give_first", name=name)
    if n >= 0:
        return tr("q_give_back", name=name, n=n)
    return None


def help_line(view: SkatView, tr: Translator) -> str | None:
    """A line of help when the seat may offer Schenken."""
    if SCHENKEN in view.legal_actions and not view.gift_pending:
        return tr("help_schenken", level=gift_level(view))
    return None


def narrate(old: SkatView, new: SkatView, name: str, action: str, tr: Translator,
            cards: str | None) -> str | None:
    """The line telling a Schenken step or a give, else None.  ``cards``: the given
    cards in words, when this seat may know them (a defender); None for the declarer."""
    if action == "schenken":
        return tr("agrees_gift" if old.gift_pending == 1 else "offers_gift", name=name)
    if action == "accept":
        return tr("accepts_gift", name=name)
    if action == "pass" and old.gift_pending == 1:
        return tr("refuses_gift", name=name)
    if action == "pass" and old.gift_pending == 2:
        return tr("plays_on_gift", name=name, level="Schwarz" if new.gift >= 2 else "Schneider")
    if action == "give" or action.startswith("give "):
        if cards is None:
            return tr("gives_hidden", name=name)
        return tr("gives_cards", name=name, cards=cards) if cards else tr("gives_none", name=name)
    return None


def result_words(o: SkatOutcome, tr: Translator) -> list[str]:
    """The house rules' words of a result: Revolution, given away, played on."""
    out = ["Revolution"] if o.revolution else []
    if o.gift_accepted:
        out.append(tr("result_gift") + (f" ({tr('gift_schneider')})" if o.gift else ""))
    elif o.gift:
        out.append(f"{tr('result_played_on')} ({'Schwarz' if o.gift >= 2 else 'Schneider'})")
    return out
