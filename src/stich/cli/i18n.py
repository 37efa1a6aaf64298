"""The words of the terminal UI in German (``de``, the default) and English (``en``).

>>> tr = Translator("en")
>>> tr("trick_to", name="Ann", points=21)
'Ann (21 points)'
>>> Translator("de")("pos", seat=0)
'Vorhand'
"""

from __future__ import annotations

LANGS = ("de", "en")

TEXTS: dict[str, dict[str, str]] = {
    "de": {
        "you": "Du",
        "w_pass": "passe", "w_hold": "ja", "w_pickup": "aufnehmen",
        "pos0": "Vorhand", "pos1": "Mittelhand", "pos2": "Hinterhand",
        "game_header": "Spiel {n} von {total} · Geber: {dealer}",
        "seats": "Vorhand: {v} · Mittelhand: {m} · Hinterhand: {h}",
        "you_sit": "Du sitzt in {pos}.",
        "rules": "Regeln: {rules}",
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
        "discards_hidden": "{name}: drückt zwei Karten",
        "discards": "{name}: drückt {cards}",
        "declares": "{name} sagt an: {game}",
        "plays_card": "{name}: {card}",
        "trick_to": "{name} ({points} Augen)",
        "you_lead": "du spielst aus",
        "your_hand": "Deine Karten",
        "trumps": "Trumpf",
        "jacks": "Unter",
        "skat_seen": "Im Skat lagen: {cards}",
        "current_trick": "Stich {n}",
        "last_trick": "Letzter Stich ({n})",
        "to": "an",
        "game_line": "{name} spielt {game} (gereizt {bid}) · Augen: Spieler {dp}, Gegner {op}",
        "ramsch_line": "Ramsch · Augen: {points}",
        "ouvert_cards": "Offene Karten von {name}: {cards}",
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
        "prompt": "Dein Zug (? = Hilfe) > ",
        "help_title": "Erlaubt",
        "help_more": "Karten: Nummer aus der Liste, ISS-Code (CJ, SA, HT, D7) oder Name "
                     "(„Eichel Unter“, „Pik Ass“). „quit“ beendet.",
        "help_discard": "drücken <Karte> <Karte>",
        "bad_input": "Das verstehe ich nicht: {text!r}. „?“ zeigt, was erlaubt ist.",
        "not_allowed": "Nicht erlaubt: {reason}",
        "not_in_hand": "{card} hast du nicht auf der Hand.",
        "must_follow": "Du musst bedienen: {cards}",
        "no_number": "Eine Karte mit der Nummer {n} gibt es nicht (1 bis {max}).",
        "discard_two": "Drücke genau zwei verschiedene Karten, z.B. „drücken 3 7“.",
        "bid_next": "Jetzt geht nur: {options}",
        "what_now": "Jetzt geht nur: {options}",
        "bye": "Tschüss!",
        "eof": "Eingabe zu Ende: die Sitzung ist beendet.",
        "result_won": "{name} gewinnt {game}: {detail}",
        "result_lost": "{name} verliert {game}: {detail}",
        "detail_game": "{points} Augen, {mit} {m}, Spiel {mult} × {base} = {value}",
        "detail_null": "Wert {value}",
        "detail_null_lost": "Wert {value}, Stich {n} genommen",
        "detail_overbid": "überreizt (gereizt {bid}), abgerechnet {value}",
        "mit": "mit", "ohne": "ohne",
        "score_change": "{name}: {score:+d}",
        "ramsch_result": "Ramsch: {points} → {name} {score:+d}",
        "durchmarsch": "Durchmarsch von {name}: +120",
        "passed_result": "Eingepasst: kein Spiel.",
        "skat_was": "Skat: {cards}",
        "skat_discarded": "gedrückt: {cards}",
        "list": "Skatliste",
        "sitting_over": "Sitzung beendet nach {n} Spielen.",
        "bad_option": "{option}: {message}",
        "vorhand_plays_you": "Du spielst zu 18 (Vorhandrecht)",
        "won_auction_you": "Du wirst Alleinspieler, gereizt bis {bid}.",
        "plays_hand_you": "Du spielst Hand",
        "picks_up_you": "Du nimmst den Skat auf",
        "discards_you": "Du drückst {cards}",
        "declares_you": "Du sagst an: {game}",
        "game_line_you": "Du spielst {game} (gereizt {bid}) · Augen: du {dp}, Gegner {op}",
        "result_won_you": "Du gewinnst {game}: {detail}",
        "result_lost_you": "Du verlierst {game}: {detail}",
        "durchmarsch_you": "Durchmarsch! +120",
        # --- Baptistenskat ---
        "b_title": "Baptistenskat · {players} Spieler · {rounds} Runden (bis {max} Karten) · "
                   "Blatt: {deck}",
        "b_variants": "Varianten: {list}",
        "b_no_variants": "keine",
        "b_seating": "Sitzordnung: {names} · es beginnt {first} (gezogen)",
        "b_round_header": "Runde {r} von {total} · {k} {cards} · beginnt: {first}",
        "b_card_one": "Karte", "b_card_many": "Karten",
        "b_trump": "Trumpf: {suit} (aufgedeckt: {card})",
        "b_trump_drawn": "Trumpf: {suit} (vor dem Geben gezogen: {card})",
        "b_no_trump": "Kein Trumpf (der Joker wurde aufgedeckt)",
        "b_bids": "Ansagen",
        "b_nobody": "noch keine",
        "b_bid": "{tricks} Stich(e), Einsatz {stake}",
        "b_bid_ts": "{tricks} Stich(e)",
        "b_bid_forced": "Pflicht-40",
        "b_says": "{name}: {bid}",
        "b_hooked": "Haken-Regel: du darfst nicht {bid} ansagen (die Ansagen dürfen nicht {k} "
                    "ergeben).",
        "b_owed": "Noch zu setzende 40er",
        "b_forced_now": "Du schuldest noch {owed}× 40 und es bleiben nur {left} Runde(n) mit 3 "
                        "oder mehr Karten: dein Einsatz ist 40.",
        "b_your_hand": "Deine Karten",
        "b_forehead": "Stirnrunde: deine eigene Karte siehst du nicht.",
        "b_others_cards": "Die Karten der anderen",
        "b_joker": "Joker",
        "b_standing": "Angesagt / Stiche",
        "b_trick": "Stich {n}",
        "b_you_lead": "du spielst aus",
        "b_trick_line": "{label}: {cards} → {name}",
        "b_q_bid": "Wie viele Stiche machst du (0–{k}) und was setzt du (1–20{forty})? "
                   "z.B. „{ex}“ = {t} Stich(e), Einsatz {s}.",
        "b_q_bid_forced": "Wie viele Stiche machst du (0–{k})? Dein Einsatz ist 40, z.B. „{ex}“.",
        "b_q_bid_ts": "Wie viele Stiche machst du (0–{k})? z.B. „{ex}“.",
        "b_or40": " oder 40",
        "b_q_play": "Spiel eine Karte: Nummer, Code (z.B. {code}) oder Name (z.B. {name}).",
        "b_q_forehead": "Spiel deine Karte, ohne sie zu kennen: „play“ (oder „spielen“).",
        "b_e_bid_words": "Eine Ansage ist „Stiche Einsatz“, z.B. „2 5“ oder „2/5“.",
        "b_e_range": "Ansagen gehen von 0 bis {k} Stichen (in dieser Runde hat jeder {k} {cards}).",
        "b_e_hooked": "Haken-Regel: die Ansagen dürfen zusammen nicht {k} ergeben, {bid} geht "
                      "nicht. Erlaubt: {allowed}.",
        "b_e_need_stake": "Sag auch deinen Einsatz (1–20{forty}), z.B. „{bid} 5“.",
        "b_e_forced": "Du schuldest noch {owed}× 40 und es bleiben nur {left} Runde(n) mit 3 "
                      "oder mehr Karten: dein Einsatz ist 40, z.B. „{bid} 40“.",
        "b_e_no40_small": "In Runden mit 1 oder 2 Karten darf nicht 40 gesetzt werden.",
        "b_e_no40_done": "Du hast schon so oft 40 gesetzt wie vorgeschrieben: setze 1 bis 20.",
        "b_e_stake_range": "Der Einsatz ist 1 bis 20 Punkte{forty}.",
        "b_e_no_stake": "Ohne Einsätze (Variante 3): sag nur die Zahl der Stiche, z.B. „{bid}“.",
        "b_e_overtrump": "Du musst übertrumpfen: {cards}",
        "b_e_forehead": "Stirnrunde: du kennst deine Karte nicht, tippe „play“.",
        "b_e_card_now": "Jetzt wird eine Karte gespielt, nicht angesagt.",
        "b_help_bids": "Ansagen: {tricks} Stiche · Einsatz: {stakes}",
        "b_help_more": "Ansage: „2 5“, „2/5“, „bid 2 stake 5“ (Stiche, Einsatz). Karten: Nummer "
                       "aus der Liste, Code ({codes}) oder Name („{name}“). „quit“ beendet.",
        "b_result": "{name}: angesagt {bid}, gemacht {tricks} → {score:+d}",
        "b_sheet": "Anschreibezettel",
        "b_col_round": "Rd", "b_col_cards": "K", "b_col_first": "B", "b_col_trump": "T",
        "b_col_bid": "A", "b_col_stake": "E", "b_col_tricks": "S", "b_col_total": "Σ",
        "b_legend": "K = Karten, B = wer beginnt, T = Trumpf, A = Ansage, E = Einsatz "
                    "(40! = Pflicht-40 eingetragen), S = Stiche, Σ = Stand",
        "b_legend_ts": "K = Karten, B = wer beginnt, T = Trumpf, A = Ansage, S = Stiche, "
                       "Σ = Stand",
        "b_ranking": "Endstand",
        "b_col_place": "Platz", "b_col_player": "Spieler", "b_col_points": "Punkte",
        "b_game_over": "Das Spiel ist aus.",
    },
    "en": {
        "you": "You",
        "w_pass": "pass", "w_hold": "yes", "w_pickup": "pickup",
        "pos0": "Forehand", "pos1": "Middlehand", "pos2": "Rearhand",
        "game_header": "Game {n} of {total} · dealer: {dealer}",
        "seats": "Forehand: {v} · Middlehand: {m} · Rearhand: {h}",
        "you_sit": "You sit in {pos}.",
        "rules": "Rules: {rules}",
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
        "discards_hidden": "{name}: discards two cards",
        "discards": "{name}: discards {cards}",
        "declares": "{name} declares: {game}",
        "plays_card": "{name}: {card}",
        "trick_to": "{name} ({points} points)",
        "you_lead": "your lead",
        "your_hand": "Your cards",
        "trumps": "Trumps",
        "jacks": "Jacks",
        "skat_seen": "The Skat held: {cards}",
        "current_trick": "Trick {n}",
        "last_trick": "Last trick ({n})",
        "to": "to",
        "game_line": "{name} plays {game} (bid {bid}) · points: declarer {dp}, defenders {op}",
        "ramsch_line": "Ramsch · points: {points}",
        "ouvert_cards": "Open cards of {name}: {cards}",
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
        "prompt": "Your move (? = help) > ",
        "help_title": "Allowed",
        "help_more": "Cards: number from the list, ISS code (CJ, SA, HT, D7) or name "
                     "(\"Jack of Clubs\", \"Kreuz Bube\"). \"quit\" ends.",
        "help_discard": "discard <card> <card>",
        "bad_input": "I do not understand {text!r}. \"?\" shows what is allowed.",
        "not_allowed": "Not allowed: {reason}",
        "not_in_hand": "You do not hold {card}.",
        "must_follow": "You must follow suit: {cards}",
        "no_number": "There is no card number {n} (1 to {max}).",
        "discard_two": "Discard exactly two different cards, e.g. \"discard 3 7\".",
        "bid_next": "Allowed now: {options}",
        "what_now": "Allowed now: {options}",
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
        "list": "Skat list",
        "sitting_over": "Sitting over after {n} games.",
        "bad_option": "{option}: {message}",
        "vorhand_plays_you": "You play at 18 (forehand's right)",
        "won_auction_you": "You are the declarer, bid {bid}.",
        "plays_hand_you": "You play Hand",
        "picks_up_you": "You pick up the Skat",
        "discards_you": "You discard {cards}",
        "declares_you": "You declare: {game}",
        "game_line_you": "You play {game} (bid {bid}) · points: you {dp}, defenders {op}",
        "result_won_you": "You win {game}: {detail}",
        "result_lost_you": "You lose {game}: {detail}",
        "durchmarsch_you": "Durchmarsch! +120",
        # --- Baptistenskat ---
        "b_title": "Baptistenskat · {players} players · {rounds} rounds (up to {max} cards) · "
                   "deck: {deck}",
        "b_variants": "Variants: {list}",
        "b_no_variants": "none",
        "b_seating": "Seating: {names} · {first} starts (by the draw)",
        "b_round_header": "Round {r} of {total} · {k} {cards} · first: {first}",
        "b_card_one": "card", "b_card_many": "cards",
        "b_trump": "Trump: {suit} (turned: {card})",
        "b_trump_drawn": "Trump: {suit} (drawn before the deal: {card})",
        "b_no_trump": "No trump (the joker was turned)",
        "b_bids": "Bids",
        "b_nobody": "none yet",
        "b_bid": "{tricks} trick(s), stake {stake}",
        "b_bid_ts": "{tricks} trick(s)",
        "b_bid_forced": "forced 40",
        "b_says": "{name}: {bid}",
        "b_hooked": "Hook rule: you may not bid {bid} (the bids must not add up to {k}).",
        "b_owed": "40s still owed",
        "b_forced_now": "You still owe {owed}× 40 and only {left} round(s) with 3 or more "
                        "cards are left: your stake is 40.",
        "b_your_hand": "Your cards",
        "b_forehead": "Forehead round: you do not see your own card.",
        "b_others_cards": "The others' cards",
        "b_joker": "Joker",
        "b_standing": "Bid / tricks",
        "b_trick": "Trick {n}",
        "b_you_lead": "your lead",
        "b_trick_line": "{label}: {cards} → {name}",
        "b_q_bid": "How many tricks will you take (0–{k}), and what do you stake (1–20{forty})? "
                   "E.g. \"{ex}\" = {t} trick(s), stake {s}.",
        "b_q_bid_forced": "How many tricks will you take (0–{k})? Your stake is 40, "
                          "e.g. \"{ex}\".",
        "b_q_bid_ts": "How many tricks will you take (0–{k})? E.g. \"{ex}\".",
        "b_or40": " or 40",
        "b_q_play": "Play a card: number, code (e.g. {code}) or name (e.g. {name}).",
        "b_q_forehead": "Play your card without knowing it: \"play\".",
        "b_e_bid_words": "A bid is \"tricks stake\", e.g. \"2 5\" or \"2/5\".",
        "b_e_range": "Bids go from 0 to {k} tricks (everybody holds {k} {cards} this round).",
        "b_e_hooked": "Hook rule: the bids must not add up to {k}, so {bid} is not allowed. "
                      "Allowed: {allowed}.",
        "b_e_need_stake": "Say your stake too (1–20{forty}), e.g. \"{bid} 5\".",
        "b_e_forced": "You still owe {owed}× 40 and only {left} round(s) with 3 or more cards "
                      "are left: your stake is 40, e.g. \"{bid} 40\".",
        "b_e_no40_small": "No 40 in a round with 1 or 2 cards.",
        "b_e_no40_done": "You have staked 40 as often as required: stake 1 to 20.",
        "b_e_stake_range": "A stake is 1 to 20 points{forty}.",
        "b_e_no_stake": "No stakes (variant 3): bid just a number of tricks, e.g. \"{bid}\".",
        "b_e_overtrump": "You must overtrump: {cards}",
        "b_e_forehead": "Forehead round: you do not know your card, type \"play\".",
        "b_e_card_now": "Now a card is played, not a bid.",
        "b_help_bids": "Bids: {tricks} tricks · stake: {stakes}",
        "b_help_more": "Bid: \"2 5\", \"2/5\", \"bid 2 stake 5\" (tricks, stake). Cards: number "
                       "from the list, code ({codes}) or name (\"{name}\"). \"quit\" ends.",
        "b_result": "{name}: bid {bid}, took {tricks} → {score:+d}",
        "b_sheet": "Scoresheet",
        "b_col_round": "Rd", "b_col_cards": "C", "b_col_first": "F", "b_col_trump": "Tr",
        "b_col_bid": "B", "b_col_stake": "S", "b_col_tricks": "T", "b_col_total": "Σ",
        "b_legend": "C = cards, F = first player, Tr = trump, B = bid, S = stake "
                    "(40! = forced 40), T = tricks, Σ = running total",
        "b_legend_ts": "C = cards, F = first player, Tr = trump, B = bid, T = tricks, "
                       "Σ = running total",
        "b_ranking": "Final ranking",
        "b_col_place": "Place", "b_col_player": "Player", "b_col_points": "Points",
        "b_game_over": "The game is over.",
    },
}

# Words the person may type, in either language (lower case).
QUIT_WORDS = frozenset({"quit", "exit", "q", "ende", "beenden", "aufhören", "aufhoeren"})
HELP_WORDS = frozenset({"?", "help", "hilfe"})
PASS_WORDS = frozenset({"pass", "passe", "p", "nein", "n", "no", "weg"})
HOLD_WORDS = frozenset({"hold", "ja", "j", "y", "yes", "halten", "halte"})
HAND_WORDS = frozenset({"hand", "h"})
PICKUP_WORDS = frozenset({"pickup", "pick", "pick up", "aufnehmen", "skat", "s", "nehmen",
                          "a", "auf"})


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
        return self._texts[key].format(**fields)
