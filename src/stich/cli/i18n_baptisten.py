"""The Baptistenskat words of the terminal UI (merged into :data:`stich.cli.i18n.TEXTS`)."""

from __future__ import annotations

__all__ = ["BAPTISTEN_TEXTS"]

BAPTISTEN_TEXTS: dict[str, dict[str, str]] = {
    "de": {
        "b_title": "Baptistenskat · {players} Spieler · {rounds} Runden (bis {max} Karten)",
        "b_deck_line": "Blatt: {deck} · Varianten: {variants}",
        "b_deck_size": "{name} ({size} Karten)",
        "b_deck_elferraus": "Elfer raus", "b_deck_elferraus-double": "Elfer raus, doppelt",
        "b_deck_skat": "Skatblatt", "b_deck_skat-double": "Skatblatt, doppelt",
        "b_deck_romme": "Rommé", "b_deck_romme-double": "Rommé, doppelt",
        "b_deck_romme-double-joker": "Rommé, doppelt, mit Joker",
        "b_variant_2": "Stirnrunden", "b_variant_3": "Stichwertung ohne Einsätze",
        "b_variant_4": "Haken-Regel in jeder Runde", "b_variant_5": "Übertrumpfen ist Pflicht",
        "b_no_variants": "keine",
        "b_seating": "Sitzordnung: {names} · es beginnt {first} (gezogen)",
        "b_round_header": "Runde {r} von {total} · {k} {k:plural:Karte|Karten} · "
                          "beginnt: {first}",
        "b_trump": "Trumpf: {suit} (aufgedeckt: {card})",
        "b_trump_drawn": "Trumpf: {suit} (vor dem Geben gezogen: {card})",
        "b_no_trump": "Kein Trumpf (der Joker wurde aufgedeckt)",
        "b_bids": "Ansagen",
        "b_nobody": "noch keine",
        "b_bid": "{tricks} {tricks:plural:Stich|Stiche}, Einsatz {stake}",
        "b_bid_ts": "{tricks} {tricks:plural:Stich|Stiche}",
        "b_bid_forced": "Pflicht-40",
        "b_says": "{name}: {bid}",
        "b_hooked": "Haken-Regel: du darfst nicht {bid} ansagen (die Ansagen dürfen nicht {k} "
                    "ergeben).",
        "b_owed": "Noch zu setzende 40er",
        "b_forced_now": "Du schuldest noch {owed}× 40 und es {left:plural:bleibt|bleiben} nur "
                        "{left} {left:plural:Runde|Runden} mit 3 oder mehr Karten: dein "
                        "Einsatz ist 40.",
        "b_your_hand": "Deine Karten",
        "b_forehead": "Stirnrunde: deine eigene Karte siehst du nicht.",
        "b_others_cards": "Die Karten der anderen",
        "b_joker": "Joker",
        "b_standing": "Angesagt / Stiche",
        "b_trick": "Stich {n}",
        "b_you_lead": "du spielst aus",
        "b_trick_line": "{label}: {cards} → {name}",
        "b_q_bid": "Wie viele Stiche machst du (0–{k}) und was setzt du (1–20{forty})? "
                   "z.B. „{ex}“ = {t} {t:plural:Stich|Stiche}, Einsatz {s}.",
        "b_q_bid_forced": "Wie viele Stiche machst du (0–{k})? Dein Einsatz ist 40, z.B. „{ex}“.",
        "b_q_bid_ts": "Wie viele Stiche machst du (0–{k})? z.B. „{ex}“.",
        "b_or40": " oder 40",
        "b_q_play": "Spiel eine Karte: Nummer, Code (z.B. {code}) oder Name (z.B. {name}).",
        "b_q_forehead": "Spiel deine Karte, ohne sie zu kennen: „play“ (oder „spielen“).",
        "b_e_bid_words": "Eine Ansage ist „Stiche Einsatz“, z.B. „2 5“ oder „2/5“.",
        "b_e_bid_words_ts": "Eine Ansage ist die Zahl der Stiche, z.B. „2“.",
        "b_e_forehead": "Stirnrunde: du kennst deine Karte nicht, tippe „play“.",
        "b_e_card_now": "Jetzt wird eine Karte gespielt, nicht angesagt.",
        "b_help_bids": "Ansagen: {tricks} Stiche · Einsatz: {stakes}",
        "b_help_bids_ts": "Ansagen: {tricks} Stiche",
        "b_help_more": "Ansage: „2 5“, „2/5“, „bid 2 stake 5“ (Stiche, Einsatz). Karten: Nummer "
                       "aus der Liste, Code ({codes}) oder Name („{name}“). „zettel“ zeigt "
                       "den Anschreibezettel, „quit“ beendet.",
        "b_help_more_ts": "Ansage: die Zahl der Stiche, z.B. „2“ oder „bid 2“. Karten: Nummer "
                          "aus der Liste, Code ({codes}) oder Name („{name}“). „zettel“ zeigt "
                          "den Anschreibezettel, „quit“ beendet.",
        "b_result": "{name}: angesagt {bid}, gemacht {tricks} → {score:+d}",
        "b_round_over": "Runde {r} ist aus.",
        "b_sheet": "Anschreibezettel",
        "b_sheet_page": "Anschreibezettel (Seite {p} von {n})",
        "b_col_round": "Rd", "b_col_cards": "Kt", "b_col_first": "Beg", "b_col_trump": "Tr",
        "b_col_bid": "Ans", "b_col_stake": "Ein", "b_col_tricks": "St", "b_col_total": "Σ",
        "b_legend": "Rd = Runde, Kt = Karten, Beg = wer beginnt, Tr = Trumpf, Ans = Ansage, "
                    "Ein = Einsatz (40! = Pflicht-40 eingetragen), St = Stiche, Σ = Stand",
        "b_legend_ts": "Rd = Runde, Kt = Karten, Beg = wer beginnt, Tr = Trumpf, Ans = Ansage, "
                       "St = Stiche, Σ = Stand",
        "b_ranking": "Endstand",
        "b_col_place": "Platz", "b_col_player": "Spieler", "b_col_points": "Punkte",
        "b_game_over": "Das Spiel ist aus.",
        "b_seat_no": "Nr", "b_seat_name": "Spieler", "b_seat_bid": "Ansage",
        "b_seat_tricks": "Stiche", "b_seat_card": "Stich {n}", "b_seat_total": "Stand",
        "b_seat_owed": "40er", "b_seat_score": "Runde",
        "b_sheet_hint": "„zettel“ zeigt den Anschreibezettel",
    },
    "en": {
        "b_title": "Baptistenskat · {players} players · {rounds} rounds (up to {max} cards)",
        "b_deck_line": "Deck: {deck} · variants: {variants}",
        "b_deck_size": "{name} ({size} cards)",
        "b_deck_elferraus": "Elfer raus", "b_deck_elferraus-double": "Elfer raus, doubled",
        "b_deck_skat": "Skat deck", "b_deck_skat-double": "Skat deck, doubled",
        "b_deck_romme": "Rummy", "b_deck_romme-double": "Rummy, doubled",
        "b_deck_romme-double-joker": "Rummy, doubled, with a joker",
        "b_variant_2": "forehead rounds", "b_variant_3": "trick scoring without stakes",
        "b_variant_4": "hook rule in every round", "b_variant_5": "must overtrump",
        "b_no_variants": "none",
        "b_seating": "Seating: {names} · {first} starts (by the draw)",
        "b_round_header": "Round {r} of {total} · {k} {k:plural:card|cards} · first: {first}",
        "b_trump": "Trump: {suit} (turned: {card})",
        "b_trump_drawn": "Trump: {suit} (drawn before the deal: {card})",
        "b_no_trump": "No trump (the joker was turned)",
        "b_bids": "Bids",
        "b_nobody": "none yet",
        "b_bid": "{tricks} {tricks:plural:trick|tricks}, stake {stake}",
        "b_bid_ts": "{tricks} {tricks:plural:trick|tricks}",
        "b_bid_forced": "forced 40",
        "b_says": "{name}: {bid}",
        "b_hooked": "Hook rule: you may not bid {bid} (the bids must not add up to {k}).",
        "b_owed": "40s still owed",
        "b_forced_now": "You still owe {owed}× 40 and only {left} {left:plural:round|rounds} "
                        "with 3 or more cards {left:plural:is|are} left: your stake is 40.",
        "b_your_hand": "Your cards",
        "b_forehead": "Forehead round: you do not see your own card.",
        "b_others_cards": "The others' cards",
        "b_joker": "Joker",
        "b_standing": "Bid / tricks",
        "b_trick": "Trick {n}",
        "b_you_lead": "your lead",
        "b_trick_line": "{label}: {cards} → {name}",
        "b_q_bid": "How many tricks will you take (0–{k}), and what do you stake (1–20{forty})? "
                   "E.g. \"{ex}\" = {t} {t:plural:trick|tricks}, stake {s}.",
        "b_q_bid_forced": "How many tricks will you take (0–{k})? Your stake is 40, "
                          "e.g. \"{ex}\".",
        "b_q_bid_ts": "How many tricks will you take (0–{k})? E.g. \"{ex}\".",
        "b_or40": " or 40",
        "b_q_play": "Play a card: number, code (e.g. {code}) or name (e.g. {name}).",
        "b_q_forehead": "Play your card without knowing it: \"play\".",
        "b_e_bid_words": "A bid is \"tricks stake\", e.g. \"2 5\" or \"2/5\".",
        "b_e_bid_words_ts": "A bid is a number of tricks, e.g. \"2\".",
        "b_e_forehead": "Forehead round: you do not know your card, type \"play\".",
        "b_e_card_now": "Now a card is played, not a bid.",
        "b_help_bids": "Bids: {tricks} tricks · stake: {stakes}",
        "b_help_bids_ts": "Bids: {tricks} tricks",
        "b_help_more": "Bid: \"2 5\", \"2/5\", \"bid 2 stake 5\" (tricks, stake). Cards: number "
                       "from the list, code ({codes}) or name (\"{name}\"). \"sheet\" shows "
                       "the scoresheet, \"quit\" ends.",
        "b_help_more_ts": "Bid: a number of tricks, e.g. \"2\" or \"bid 2\". Cards: number "
                          "from the list, code ({codes}) or name (\"{name}\"). \"sheet\" shows "
                          "the scoresheet, \"quit\" ends.",
        "b_result": "{name}: bid {bid}, took {tricks} → {score:+d}",
        "b_round_over": "Round {r} is over.",
        "b_sheet": "Scoresheet",
        "b_sheet_page": "Scoresheet (page {p} of {n})",
        "b_col_round": "Rd", "b_col_cards": "Cd", "b_col_first": "1st", "b_col_trump": "Tr",
        "b_col_bid": "Bid", "b_col_stake": "Stk", "b_col_tricks": "Tk", "b_col_total": "Σ",
        "b_legend": "Rd = round, Cd = cards, 1st = first player, Tr = trump, Bid = bid, "
                    "Stk = stake (40! = forced 40), Tk = tricks, Σ = running total",
        "b_legend_ts": "Rd = round, Cd = cards, 1st = first player, Tr = trump, Bid = bid, "
                       "Tk = tricks, Σ = running total",
        "b_ranking": "Final ranking",
        "b_col_place": "Place", "b_col_player": "Player", "b_col_points": "Points",
        "b_game_over": "The game is over.",
        "b_seat_no": "No", "b_seat_name": "Player", "b_seat_bid": "Bid",
        "b_seat_tricks": "Tricks", "b_seat_card": "Trick {n}", "b_seat_total": "Total",
        "b_seat_owed": "40s", "b_seat_score": "Round",
        "b_sheet_hint": "\"sheet\" shows the scoresheet",
    },
}
