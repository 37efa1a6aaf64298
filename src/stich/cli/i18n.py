"""The words of the terminal UI in German (``de``, the default) and English (``en``).

A text is a ``str.format`` template; ``{n:plural:Stich|Stiche}`` picks the singular or
the plural by the number, as in :mod:`stich.messages`.  The Skat texts and the shared
ones are here, the Baptistenskat texts in :mod:`stich.cli.i18n_baptisten`.

>>> tr = Translator("en")
>>> tr("trick_to", name="Ann", points=21)
'Ann (21 points)'
>>> Translator("de")("pos", seat=0)
'Vorhand'
>>> Translator("de")("saved", n=1, path="x.jsonl")
'1 Spiel gespeichert in x.jsonl'
"""

from __future__ import annotations

import string
from typing import Any

from stich.cli.i18n_baptisten import BAPTISTEN_TEXTS
from stich.present.languages import LANGS

__all__ = ["TEXTS", "Translator"]

TEXTS: dict[str, dict[str, str]] = {
    "de": {
        "you": "Du",
        "w_pass": "passe", "w_hold": "ja", "w_pickup": "aufnehmen",
        "pos0": "Vorhand", "pos1": "Mittelhand", "pos2": "Hinterhand",
        "rules_lothar": "Lothars Tisch", "rules_isko": "ISkO",
        "game_header": "Spiel {n} von {total} · Geber: {dealer} · {rules}",
        "seats": "Vorhand: {v} · Mittelhand: {m} · Hinterhand: {h}",
        "you_sit": "Du sitzt in {pos}.",
        "col_seat": "Sitz", "col_player": "Spieler", "col_bids": "Reizen",
        "col_tricks": "Stiche (Augen)", "dealer_mark": "gibt",
        "bidding": "Reizen",
        "nobody_bid": "noch niemand",
        "says": "{name}: {value}",
        "holds": "{name}: ja",
        "passes": "{name}: passe",
        "vorhand_plays": "{name}: spielt zu 18 (Vorhandrecht)",
        "won_auction": "{name} wird Alleinspieler, gereizt bis {bid}.",
        "all_passed_ramsch": "Alle passen: es wird Ramsch gespielt.",
        "all_passed_redeal": "Alle passen: die Karten werden neu gegeben.",
        "plays_hand": "{name}: spielt Hand",
        "picks_up": "{name}: nimmt den Skat auf",
        "pushes_skat": "{name}: schiebt den Skat ungesehen weiter (zählt doppelt)",
        "says_kontra": "{name}: Kontra!",
        "says_re": "{name}: Re!",
        "knocks": "{name}: klopft (zählt doppelt)",
        "offers_gift": "{name}: will schenken",
        "agrees_gift": "{name}: schenkt mit",
        "refuses_gift": "{name}: schenkt nicht, es wird weitergespielt",
        "accepts_gift": "{name}: nimmt das Geschenk an",
        "plays_on_gift": "{name}: spielt weiter (zählt jetzt wie {level} angesagt)",
        "gives_cards": "{name}: gibt dem Partner {cards}",
        "gives_none": "{name}: gibt dem Partner keine Karte",
        "gives_hidden": "{name}: gibt dem Partner Karten (Revolution)",
        "partner_cards": "Karten von {name}: {cards}",
        "q_give_first": "Revolution: Welche Karten gibst du {name}? Beliebig viele (Nummern oder "
                        "Namen, z.B. „give 1 4“), „give“ allein für keine; {name} gibt dir "
                        "ebenso viele zurück.",
        "q_give_back": "Revolution: {name} hat dir {n} Karte(n) gegeben. Welche {n} deiner "
                       "Karten gibst du zurück? (z.B. „give 1 4“)",
        "q_gift_partner": "{name} will das Spiel schenken. Schenkst du mit? (schenken / passe) "
                          "Nimmt der Alleinspieler an, gewinnt er {simply}; spielt er weiter, "
                          "muss er euch {level} spielen.",
        "q_gift_accept": "Die Gegenspieler schenken dir das Spiel. Annehmen (accept: gewonnen "
                         "{simply}) oder weiterspielen (passe: du musst sie {level} spielen, "
                         "gewertet wie angesagt)?",
        "help_schenken": "„schenken“: das Spiel schenken (stimmt dein Partner zu, entscheidet "
                         "der Alleinspieler: annehmen, oder weiterspielen und {level} "
                         "spielen müssen).",
        "gift_simply": "einfach",
        "gift_schneider": "mit Schneider",
        "result_gift": "geschenkt",
        "result_played_on": "nach Schenken weitergespielt",
        "claims_rest": "{name} legt die Karten auf und beansprucht den Rest: zu Recht.",
        "claim_wrong": "{name} beansprucht den Rest, doch das stimmt nicht: der Rest wird "
                       "gegen ihn gewertet.",
        "gives_up": "{name} gibt auf.",
        "shortcut_declarer": "Der Rest steht fest: alle übrigen Stiche gehen an {name}. "
                             "Das Spiel ist abgekürzt.",
        "shortcut_declarer_you": "Der Rest steht fest: alle übrigen Stiche gehen an dich. "
                                 "Das Spiel ist abgekürzt.",
        "shortcut_defenders": "Der Rest steht fest: {name} bekommt keinen Stich mehr. "
                              "Das Spiel ist abgekürzt.",
        "shortcut_defenders_you": "Der Rest steht fest: du bekommst keinen Stich mehr. "
                                  "Das Spiel ist abgekürzt.",
        "ramsch_round_game": "Ramschrunde: Statt Ramsch darf jeder der Reihe nach Grand Hand "
                             "ansagen („declare grand hand“) oder passen.",
        "discards_hidden": "{name}: drückt zwei Karten",
        "discards": "{name}: drückt {cards}",
        "declares": "{name} sagt an: {game}",
        "trick_to": "{name} ({points} {points:plural:Auge|Augen})",
        "you_lead": "du spielst aus",
        "your_hand": "Deine Karten",
        "trumps": "Trumpf",
        "skat_seen": "Im Skat lagen: {cards}",
        "current_trick": "Stich {n}",
        "last_trick": "Letzter Stich ({n})",
        "game_line": "{name} spielt {game} (gereizt bis {bid}) · Augen: Spieler {dp}, Gegner {op}",
        "null_line": "{name} spielt {game} (gereizt bis {bid})",
        "null_line_you": "Du spielst {game} (gereizt bis {bid})",
        "ramsch_line": "Ramsch · Augen: {points}",
        "ouvert_cards": "Offen liegen die Karten von {name}: {cards}",
        "q_answer": "{name} sagt {value}. Hältst du? (ja / passe)",
        "q_say": "Du sagst: {value} oder passe",
        "q_vorhand": "Alle haben gepasst. Spielst du zu 18? (18 / passe)",
        "q_skat": "Du hast das Reizen mit {bid} gewonnen. Hand spielen oder den Skat "
                  "aufnehmen? (hand / aufnehmen)",
        "q_discard": "Drücke zwei Karten, z.B. „drücken {a} {b}“ (Nummern oder Namen).",
        "q_declare": "Sag dein Spiel an: {games}",
        "declare_extras": "dazu möglich: {words}",
        "q_play": "Spiel eine Karte: Nummer, Code (z.B. {code}) oder Name (z.B. {name}).",
        "q_play_short": "Deine Karte?",
        "q_also": "Außerdem: {words}.",
        "help_claims": "„claim“: Karten auflegen und den Rest beanspruchen (geprüft; ist es "
                       "falsch, geht der Rest an die Gegenspieler). „giveup“: aufgeben.",
        "help_giveup": "„giveup“: aufgeben (zählt, sobald beide Gegenspieler aufgegeben "
                       "haben).",
        "q_re": "Kontra! Antwortest du mit Re (verdoppelt noch einmal)? (re / passe)",
        "q_schieben": "Schieberamsch: Skat aufnehmen oder ungesehen weiterschieben "
                      "(verdoppelt)? (pickup / schieben)",
        "q_ramsch_round": "Ramschrunde: Grand Hand ansagen oder passen? (grand / passe)",
        "prompt": "Dein Zug (? = Hilfe) > ",
        "help_title": "Erlaubt",
        "help_more": "Karten: Nummer aus der Liste, ISS-Code ({codes}) oder Name ({names}). "
                     "„liste“ zeigt die Skatliste, „quit“ beendet.",
        "help_discard": "drücken <Karte> <Karte>",
        "bad_input": "Das verstehe ich nicht: {text!r}. „?“ zeigt, was erlaubt ist.",
        "not_allowed": "Nicht erlaubt: {reason}",
        "no_number": "Eine Karte mit der Nummer {n} gibt es nicht (1 bis {max}).",
        "discard_two": "Drücke genau zwei verschiedene Karten, z.B. „drücken 3 7“.",
        "what_now": "Jetzt geht nur: {options}",
        "strict_ladder": "An diesem Tisch wird streng die Reizleiter hinauf gereizt: als "
                         "Nächstes {value}.",
        "null_confirm": "{game} ist nur {value} wert, gereizt ist {bid}: das Spiel ist sofort "
                        "verloren ({score}). Trotzdem? (ja/nein)",
        "null_withdrawn": "Gut, dann sag ein anderes Spiel an.",
        "yes_or_no": "Bitte „ja“ oder „nein“.",
        "bye": "Tschüss!",
        "eof": "Eingabe zu Ende: die Sitzung ist beendet.",
        "result_won": "{name} gewinnt {game}: {detail}",
        "result_lost": "{name} verliert {game}: {detail}",
        "detail_game": "{points} Augen, {mit} {m}, Spiel {mult} × {base} = {value}",
        "detail_null": "Wert {value}",
        "detail_null_lost": "Wert {value}, Stich {n} genommen",
        "detail_overbid": "überreizt (gereizt bis {bid}), abgerechnet {value}",
        "mit": "mit", "ohne": "ohne",
        "score_change": "{name}: {score:+d}",
        "ramsch_result": "Ramsch: {points} → {name} {score:+d}",
        "durchmarsch": "Durchmarsch von {name}: +120",
        "passed_result": "Eingepasst: kein Spiel.",
        "skat_was": "Skat: {cards}",
        "skat_discarded": "gedrückt: {cards}",
        "held_at_end": "Noch auf der Hand, als das Spiel endete ({how}):",
        "held_cards": "  {name}: {cards}",
        "held_none": "  {name}: keine Karte",
        "held_trick": "  im offenen Stich: {cards}",
        "end_claimed": "Rest beansprucht, zu Recht",
        "end_claim_wrong": "Rest zu Unrecht beansprucht",
        "end_gave_up": "aufgegeben",
        "end_gift": "Geschenk angenommen",
        "end_shortcut": "abgekürzt",
        "press_enter": "Weiter mit Enter > ",
        "press_enter_end": "Ende mit Enter > ",
        "saved": "{n} {n:plural:Spiel|Spiele} gespeichert in {path}",
        "saved_hint": "Nachspielen: stich replay {path} · Analyse: stich analyze {path}",
        "saved_hint_replay": "Nachspielen: stich replay {path}",
        "save_failed": "Konnte nicht speichern: {reason}",
        # the Skat list
        "list": "Skatliste",
        "list_no": "Nr.", "list_dealer": "Geber", "list_declarer": "Spieler",
        "list_game": "Spiel", "list_value": "Wert", "list_punktestand": "Punktestand",
        "list_bilanz": "Bilanz", "list_wonlost": "gewonnen/verloren",
        "preisskat": "Preisskat (Seeger-Fabian), {n} {n:plural:Spiel|Spiele}",
        "pk_points": "Punkte", "pk_won": "gew. × {k}", "pk_lost": "verl. × {k}",
        "pk_others": "verl. d. Gegner × {k}", "pk_score": "Leistung", "pk_place": "Platz",
        "pk_ties": "Gleiche Leistung: mehr gewonnene Spiele vorn, dann weniger verlorene; "
                   "sonst gleicher Platz.",
        "list_earlier": "… {n} {n:plural:früheres Spiel|"
                                                     "frühere Spiele}",
        # the person addressed
        "vorhand_plays_you": "Du spielst zu 18 (Vorhandrecht)",
        "won_auction_you": "Du wirst Alleinspieler, gereizt bis {bid}.",
        "plays_hand_you": "Du spielst Hand",
        "picks_up_you": "Du nimmst den Skat auf",
        "discards_you": "Du drückst {cards}",
        "declares_you": "Du sagst an: {game}",
        "game_line_you": "Du spielst {game} (gereizt bis {bid}) · Augen: du {dp}, Gegner {op}",
        "ouvert_cards_you": "Deine Karten liegen offen: {cards}",
        "result_won_you": "Du gewinnst {game}: {detail}",
        "result_lost_you": "Du verlierst {game}: {detail}",
        "durchmarsch_you": "Durchmarsch! +120",
        "sits_out": "{name} gibt und setzt dieses Spiel aus.",
        "you_sit_out": "Du gibst und setzt dieses Spiel aus; die anderen drei spielen.",
        "bock_game": "Bock: Dieses Spiel zählt {factor}-fach.",
    },
    "en": {
        "you": "You",
        "w_pass": "pass", "w_hold": "yes", "w_pickup": "pickup",
        "pos0": "Forehand", "pos1": "Middlehand", "pos2": "Rearhand",
        "rules_lothar": "Lothar's table", "rules_isko": "ISkO",
        "game_header": "Game {n} of {total} · dealer: {dealer} · {rules}",
        "seats": "Forehand: {v} · Middlehand: {m} · Rearhand: {h}",
        "you_sit": "You sit in {pos}.",
        "col_seat": "Seat", "col_player": "Player", "col_bids": "Bids",
        "col_tricks": "Tricks (points)", "dealer_mark": "deals",
        "bidding": "Bidding",
        "nobody_bid": "nobody yet",
        "says": "{name}: {value}",
        "holds": "{name}: yes",
        "passes": "{name}: pass",
        "vorhand_plays": "{name}: plays at 18 (forehand's right)",
        "won_auction": "{name} is the declarer, bid {bid}.",
        "all_passed_ramsch": "Everybody passed: Ramsch is played.",
        "all_passed_redeal": "Everybody passed: the cards are dealt again.",
        "plays_hand": "{name}: plays Hand",
        "picks_up": "{name}: picks up the Skat",
        "pushes_skat": "{name}: pushes the Skat on unseen (counts double)",
        "says_kontra": "{name}: Kontra!",
        "says_re": "{name}: Re!",
        "knocks": "{name}: knocks (counts double)",
        "offers_gift": "{name}: offers to give the game away (Schenken)",
        "agrees_gift": "{name}: agrees to give it away",
        "refuses_gift": "{name}: does not agree, the game goes on",
        "accepts_gift": "{name}: accepts the gift",
        "plays_on_gift": "{name}: plays on (now counts as {level} announced)",
        "gives_cards": "{name}: gives the partner {cards}",
        "gives_none": "{name}: gives the partner no card",
        "gives_hidden": "{name}: gives the partner cards (Revolution)",
        "partner_cards": "{name}'s cards: {cards}",
        "q_give_first": "Revolution: which cards do you give {name}? Any number (numbers or "
                        "names, e.g. 'give 1 4'), 'give' alone for none; {name} gives you as "
                        "many back.",
        "q_give_back": "Revolution: {name} gave you {n} card(s). Which {n} of your cards do "
                       "you give back? (e.g. 'give 1 4')",
        "q_gift_partner": "{name} wants to give the game away. Do you agree? (schenken / "
                          "pass) If the declarer accepts, he wins {simply}; if he plays on, he "
                          "must make you {level}.",
        "q_gift_accept": "The defenders give you the game. Accept (accept: won {simply}) or "
                         "play on (pass: you must make them {level}, scored as announced)?",
        "help_schenken": "'schenken': give the game away (when your partner agrees, the "
                         "declarer decides: accept, or play on and have to make {level}).",
        "gift_simply": "simply",
        "gift_schneider": "with Schneider",
        "result_gift": "given away (Schenken)",
        "result_played_on": "played on after Schenken",
        "claims_rest": "{name} shows the cards and claims the rest: rightly.",
        "claim_wrong": "{name} claims the rest, but the claim does not hold: the rest counts "
                       "against the declarer.",
        "gives_up": "{name} gives up.",
        "shortcut_declarer": "The rest is certain: every remaining trick goes to {name}. "
                             "The game is cut short.",
        "shortcut_declarer_you": "The rest is certain: every remaining trick goes to you. "
                                 "The game is cut short.",
        "shortcut_defenders": "The rest is certain: {name} takes no more tricks. The game "
                              "is cut short.",
        "shortcut_defenders_you": "The rest is certain: you take no more tricks. The game "
                                  "is cut short.",
        "ramsch_round_game": "Ramsch round: instead of Ramsch each player in turn may declare "
                             "Grand Hand ('declare grand hand') or pass.",
        "discards_hidden": "{name}: discards two cards",
        "discards": "{name}: discards {cards}",
        "declares": "{name} declares: {game}",
        "trick_to": "{name} ({points} {points:plural:point|points})",
        "you_lead": "your lead",
        "your_hand": "Your cards",
        "trumps": "Trumps",
        "skat_seen": "The Skat held: {cards}",
        "current_trick": "Trick {n}",
        "last_trick": "Last trick ({n})",
        "game_line": "{name} plays {game} (bid {bid}) · points: declarer {dp}, defenders {op}",
        "null_line": "{name} plays {game} (bid {bid})",
        "null_line_you": "You play {game} (bid {bid})",
        "ramsch_line": "Ramsch · points: {points}",
        "ouvert_cards": "{name}'s cards lie open: {cards}",
        "q_answer": "{name} says {value}. Do you hold? (yes / pass)",
        "q_say": "You say: {value} or pass",
        "q_vorhand": "Everybody passed. Do you play at 18? (18 / pass)",
        "q_skat": "You won the auction at {bid}. Play Hand or pick up the Skat? "
                  "(hand / pickup)",
        "q_discard": "Discard two cards, e.g. \"discard {a} {b}\" (numbers or names).",
        "q_declare": "Declare your game: {games}",
        "declare_extras": "may be added: {words}",
        "q_play": "Play a card: number, code (e.g. {code}) or name (e.g. {name}).",
        "q_play_short": "Your card?",
        "q_also": "Also possible: {words}.",
        "help_claims": "'claim': show your cards and claim the rest (checked; if it does not "
                       "hold, the rest goes to the defenders). 'giveup': give up.",
        "help_giveup": "'giveup': give up (counts once both defenders have given up).",
        "q_re": "Kontra! Do you answer Re (doubles again)? (re / pass)",
        "q_schieben": "Schieberamsch: pick up the Skat or push it on unseen (doubles)? "
                      "(pickup / schieben)",
        "q_ramsch_round": "Ramsch round: declare Grand Hand or pass? (grand / pass)",
        "prompt": "Your move (? = help) > ",
        "help_title": "Allowed",
        "help_more": "Cards: number from the list, ISS code ({codes}) or name ({names}). "
                     "\"list\" shows the Skat list, \"quit\" ends.",
        "help_discard": "discard <card> <card>",
        "bad_input": "I do not understand {text!r}. \"?\" shows what is allowed.",
        "not_allowed": "Not allowed: {reason}",
        "no_number": "There is no card number {n} (1 to {max}).",
        "discard_two": "Discard exactly two different cards, e.g. \"discard 3 7\".",
        "what_now": "Allowed now: {options}",
        "strict_ladder": "At this table the bids go strictly up the ladder: next is {value}.",
        "null_confirm": "{game} is worth only {value} and the bid is {bid}: the game is lost "
                        "at once ({score}). Declare it anyway? (yes/no)",
        "null_withdrawn": "Fine: declare another game.",
        "yes_or_no": "Please answer \"yes\" or \"no\".",
        "bye": "Bye!",
        "eof": "End of input: the sitting is over.",
        "result_won": "{name} wins {game}: {detail}",
        "result_lost": "{name} loses {game}: {detail}",
        "detail_game": "{points} points, {mit} {m}, game {mult} × {base} = {value}",
        "detail_null": "value {value}",
        "detail_null_lost": "value {value}, took trick {n}",
        "detail_overbid": "overbid (bid {bid}), settled at {value}",
        "mit": "with", "ohne": "without",
        "score_change": "{name}: {score:+d}",
        "ramsch_result": "Ramsch: {points} → {name} {score:+d}",
        "durchmarsch": "Durchmarsch by {name}: +120",
        "passed_result": "Passed in: no game.",
        "skat_was": "Skat: {cards}",
        "skat_discarded": "discarded: {cards}",
        "held_at_end": "Still in hand when the game ended ({how}):",
        "held_cards": "  {name}: {cards}",
        "held_none": "  {name}: no card",
        "held_trick": "  in the open trick: {cards}",
        "end_claimed": "the rest claimed, rightly",
        "end_claim_wrong": "the rest claimed wrongly",
        "end_gave_up": "given up",
        "end_gift": "the gift accepted",
        "end_shortcut": "shortened",
        "press_enter": "Press Enter to go on > ",
        "press_enter_end": "Press Enter to end > ",
        "saved": "{n} {n:plural:game|games} saved in {path}",
        "saved_hint": "Replay: stich replay {path} · analysis: stich analyze {path}",
        "saved_hint_replay": "Replay: stich replay {path}",
        "save_failed": "Could not save: {reason}",
        "list": "Skat list",
        "list_no": "No.", "list_dealer": "Dealer", "list_declarer": "Declarer",
        "list_game": "Game", "list_value": "Value", "list_punktestand": "Score",
        "list_bilanz": "Bilanz", "list_wonlost": "won/lost",
        "preisskat": "Preisskat (Seeger-Fabian), {n} {n:plural:game|games}",
        "pk_points": "Points", "pk_won": "won × {k}", "pk_lost": "lost × {k}",
        "pk_others": "others lost × {k}", "pk_score": "Score", "pk_place": "Place",
        "pk_ties": "Equal scores: more games won first, then fewer lost; still equal: "
                   "the same place.",
        "list_earlier": "… {n} earlier {n:plural:game|games}",
        "vorhand_plays_you": "You play at 18 (forehand's right)",
        "won_auction_you": "You are the declarer, bid {bid}.",
        "plays_hand_you": "You play Hand",
        "picks_up_you": "You pick up the Skat",
        "discards_you": "You discard {cards}",
        "declares_you": "You declare: {game}",
        "game_line_you": "You play {game} (bid {bid}) · points: you {dp}, defenders {op}",
        "ouvert_cards_you": "Your cards lie open: {cards}",
        "result_won_you": "You win {game}: {detail}",
        "result_lost_you": "You lose {game}: {detail}",
        "durchmarsch_you": "Durchmarsch! +120",
        "sits_out": "{name} deals and sits this game out.",
        "you_sit_out": "You deal and sit this game out; the other three play.",
        "bock_game": "Bock: this game counts {factor} times.",
    },
}
for _lang in LANGS:
    TEXTS[_lang].update(BAPTISTEN_TEXTS[_lang])

# Words the person may type, in either language (lower case).
QUIT_WORDS = frozenset({"quit", "exit", "q", "ende", "beenden", "aufhören", "aufhoeren"})
HELP_WORDS = frozenset({"?", "help", "hilfe"})
LIST_WORDS = frozenset({"liste", "list", "zettel", "sheet", "skatliste", "scoresheet"})
PASS_WORDS = frozenset({"pass", "passe", "p", "nein", "n", "no", "weg"})
HOLD_WORDS = frozenset({"hold", "ja", "j", "y", "yes", "halten", "halte"})
YES_WORDS = frozenset({"ja", "j", "yes", "y"})
NO_WORDS = frozenset({"nein", "n", "no"})
HAND_WORDS = frozenset({"hand", "h"})
PICKUP_WORDS = frozenset({"pickup", "pick", "pick up", "aufnehmen", "skat", "s", "nehmen",
                          "a", "auf"})


class _Fields(string.Formatter):
    """``str.format`` with ``{n:plural:one|many}``."""

    def format_field(self, value: Any, format_spec: str) -> Any:
        if format_spec.startswith("plural:"):
            one, _, many = format_spec[len("plural:"):].partition("|")
            return one if value == 1 else many
        return super().format_field(value, format_spec)


_FIELDS = _Fields()


class Translator:
    """Looks up a UI text by key in one language and fills in its fields."""

    def __init__(self, lang: str) -> None:
        if lang not in TEXTS:
            raise ValueError(f"unknown language {lang!r}: use {' or '.join(LANGS)}")
        self.lang = lang
        self._texts = TEXTS[lang]

    def subject(self, key: str, you: bool, **fields: object) -> str:
        """The text with the person as its subject ("Du spielst") when ``you`` and the
        language has such a form, else the third-person one ("Kurt spielt")."""
        if you and f"{key}_you" in self._texts:
            key = f"{key}_you"
        return self(key, **fields)

    def __call__(self, key: str, **fields: object) -> str:
        if key == "pos":
            return self._texts[f"pos{fields['seat']}"]
        return _FIELDS.format(self._texts[key], **fields)
