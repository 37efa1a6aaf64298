"""Messages of the game records: reading a record file and replaying its records (see
:mod:`stich.messages` and ``docs/records.md``).

Record numbers count from 0 (as ``stich analyze --index`` does), lines and columns from 1
(as editors do), action numbers from 0 (the index in ``actions``).  Values quoted from a
record (``{value}``) are written as JSON, the same in both languages."""

from stich.messages import define

_HEADER_EN = "bad record header: "
_HEADER_DE = "fehlerhafter Protokollkopf: "
_NOT_A_RECORD_EN = "; stich replay reads game records (docs/records.md)"
_NOT_A_RECORD_DE = "; stich replay liest Spielprotokolle (docs/records.md)"

define({
    # --- the file (reading it at all: file.* in general.py) -----------------------------
    "records.empty": {
        "en": "the file {file} is empty",
        "de": "die Datei {file} ist leer",
    },
    "records.not_json": {
        "en": "{file} is not JSON: {reason} in line {line}, column {column}",
        "de": "{file} ist kein JSON: {reason} in Zeile {line}, Spalte {column}",
    },
    "records.truncated": {
        "en": "{file} is cut off: it ends in the middle of record {n} (line {line})",
        "de": "{file} ist abgeschnitten: die Datei endet mitten in Protokoll {n} "
              "(Zeile {line})",
    },
    "records.truncated_single": {
        "en": "{file} is cut off: it ends in the middle of its record, which begins in "
              "line {line}",
        "de": "{file} ist abgeschnitten: die Datei endet mitten in ihrem Protokoll, das in "
              "Zeile {line} beginnt",
    },
    "records.truncated_list": {
        "en": "{file} is cut off: it ends in line {line}, before the list of records is "
              "closed",
        "de": "{file} ist abgeschnitten: die Datei endet in Zeile {line}, bevor die Liste "
              "der Protokolle geschlossen ist",
    },
    "records.damaged_line": {
        "en": "record {n} in {file} is not JSON: {reason} in line {line}, column {column}",
        "de": "Protokoll {n} in {file} ist kein JSON: {reason} in Zeile {line}, "
              "Spalte {column}",
    },
    "records.damaged_list": {
        "en": "record {n} in {file} is not JSON: {reason} in line {line}, column {column}; "
              "the records after it are not read",
        "de": "Protokoll {n} in {file} ist kein JSON: {reason} in Zeile {line}, "
              "Spalte {column}; die Protokolle danach werden nicht gelesen",
    },
    "records.after_list": {
        "en": "{file} holds more after its list of records, in line {line}, column {column}",
        "de": "{file} enthält nach der Liste der Protokolle noch mehr, in Zeile {line}, "
              "Spalte {column}",
    },
    # where a record is, before the message about it
    "records.where": {
        "en": "{file}, record {n} (line {line})",
        "de": "{file}, Protokoll {n} (Zeile {line})",
    },
    # --- why a text is not JSON (what Python's JSON reader found) -------------------------
    "records.json_value": {"en": "a JSON value is expected", "de": "ein JSON-Wert wird erwartet"},
    "records.json_comma": {"en": "a comma is expected", "de": "ein Komma wird erwartet"},
    "records.json_colon": {"en": "a colon is expected", "de": "ein Doppelpunkt wird erwartet"},
    "records.json_name": {
        "en": "a field name in double quotes is expected",
        "de": "ein Feldname in doppelten Anführungszeichen wird erwartet",
    },
    "records.json_string": {
        "en": "a string is left open",
        "de": "eine Zeichenkette bleibt offen",
    },
    "records.json_control": {
        "en": "a control character such as a line break stands inside a string",
        "de": "ein Steuerzeichen wie ein Zeilenumbruch steht in einer Zeichenkette",
    },
    "records.json_escape": {
        "en": "a backslash starts no valid escape",
        "de": "ein Backslash beginnt keine gültige Escape-Sequenz",
    },
    "records.json_extra": {
        "en": "more follows after the end of the JSON value",
        "de": "nach dem Ende des JSON-Werts folgt noch mehr",
    },
    "records.json_trailing_comma": {
        "en": "a comma stands before a closing bracket",
        "de": "ein Komma steht vor einer schließenden Klammer",
    },
    # --- files and JSON that are something else -------------------------------------------
    "records.iss_file": {
        "en": "{file} holds game records of the International Skat Server, not stich "
              "records: check them with stich iss verify {file}",
        "de": "{file} enthält Spielprotokolle des International Skat Server, keine "
              "stich-Protokolle: prüfe sie mit stich iss verify {file}",
    },
    "records.positions_file": {
        "en": "{file} holds solver positions (hand1,hand2,hand3,skat,leader,game,points), "
              "not game records: solve them with stich solve {file}",
        "de": "{file} enthält Stellungen für den Löser (hand1,hand2,hand3,skat,leader,game,"
              "points), keine Spielprotokolle: löse sie mit stich solve {file}",
    },
    "records.scoresheet": {
        "en": "this is a Baptistenskat scoresheet (stich play baptisten --json), not a game "
              "record: it holds the scores but neither the deals nor the cards played, so "
              "it cannot be replayed" + _NOT_A_RECORD_EN,
        "de": "das ist ein Baptistenskat-Anschreibezettel (stich play baptisten --json), "
              "kein Spielprotokoll: er enthält die Punkte, aber weder die Karten der Runden "
              "noch die gespielten Karten, und lässt sich daher nicht nachspielen"
              + _NOT_A_RECORD_DE,
    },
    "records.baptisten_result": {
        "en": "this is the result of a Baptistenskat game as stich replay prints it, not a "
              "game record: replay the record it came from" + _NOT_A_RECORD_EN,
        "de": "das ist das Ergebnis eines Baptistenskat-Spiels, wie stich replay es "
              "ausgibt, kein Spielprotokoll: spiele das Protokoll nach, aus dem es stammt"
              + _NOT_A_RECORD_DE,
    },
    "records.baptisten_players": {
        "en": "this Baptistenskat game has {n} players: name {n}, not {given}",
        "de": "dieses Baptistenskat-Spiel hat {n} Spieler: nenne {n}, nicht {given}",
    },
    "records.skat_players": {
        "en": "a Skat record names three players (Vorhand, Mittelhand, Hinterhand), "
              "not {n}",
        "de": "ein Skat-Protokoll nennt drei Spieler (Vorhand, Mittelhand, Hinterhand), "
              "nicht {n}",
    },
    "records.skat_result": {
        "en": "this is the result of a Skat game as stich replay prints it, not a game "
              "record: replay the record it came from" + _NOT_A_RECORD_EN,
        "de": "das ist das Ergebnis eines Skatspiels, wie stich replay es ausgibt, kein "
              "Spielprotokoll: spiele das Protokoll nach, aus dem es stammt"
              + _NOT_A_RECORD_DE,
    },
    "records.analysis": {
        "en": "this is an analysis of a Skat game (stich analyze --json), not a game "
              "record: replay the record it was made from" + _NOT_A_RECORD_EN,
        "de": "das ist eine Analyse eines Skatspiels (stich analyze --json), kein "
              "Spielprotokoll: spiele das Protokoll nach, aus dem sie stammt"
              + _NOT_A_RECORD_DE,
    },
    "records.no_game": {
        "en": "this JSON object is not a game record: it has no field 'game' (skat or "
              "baptisten)" + _NOT_A_RECORD_EN,
        "de": "dieses JSON-Objekt ist kein Spielprotokoll: ihm fehlt das Feld 'game' (skat "
              "oder baptisten)" + _NOT_A_RECORD_DE,
    },
    "records.not_object": {
        "en": "a record is a JSON object, not {kind}",
        "de": "ein Protokoll ist ein JSON-Objekt, das hier ist {kind}",
    },
    "records.kind_number": {"en": "a number", "de": "eine Zahl"},
    "records.kind_string": {"en": "a string", "de": "eine Zeichenkette"},
    "records.kind_list": {
        "en": "a list of {n} {n:plural:item|items}",
        "de": "eine Liste mit {n} {n:plural:Eintrag|Einträgen}",
    },
    "records.kind_object": {"en": "an object", "de": "ein Objekt"},
    "records.kind_boolean": {"en": "true or false", "de": "true oder false"},
    "records.kind_null": {"en": "null", "de": "null"},
    # --- the envelope and the header ------------------------------------------------------
    "records.bad_start": {
        "en": "a Skat record's 'start' is auction or ramsch_round, not {value}",
        "de": "„start“ eines Skat-Protokolls ist auction oder ramsch_round, nicht {value}",
    },
    "records.bad_bock": {
        "en": "a Skat record's 'bock' is the factor the list counted a Bock game with, a "
              "whole number of at least 1, not {value}",
        "de": "„bock“ eines Skat-Protokolls ist der Faktor, mit dem die Liste ein Bockspiel "
              "zählte, eine ganze Zahl ab 1, nicht {value}",
    },
    "records.bad_format": {
        "en": "unknown record format {value} (this version reads {expected})",
        "de": "unbekanntes Protokollformat {value} (diese Version liest {expected})",
    },
    "records.unknown_game": {
        "en": "unknown game {value} in the record: a record's game is skat or baptisten",
        "de": "unbekanntes Spiel {value} im Protokoll: das Spiel eines Protokolls ist skat "
              "oder baptisten",
    },
    "records.wrong_game": {
        "en": "a {game} record, not a {expected} record",
        "de": "ein {game}-Protokoll, kein {expected}-Protokoll",
    },
    "records.missing_field": {
        "en": _HEADER_EN + "missing field '{field}'",
        "de": _HEADER_DE + "das Feld '{field}' fehlt",
    },
    "records.bad_header": {
        "en": _HEADER_EN + "{reason}",
        "de": _HEADER_DE + "{reason}",
    },
    "records.bad_rules": {
        "en": _HEADER_EN + "'rules' is a rule string such as \"{example}\", not {value}",
        "de": _HEADER_DE + "'rules' ist eine Regelangabe wie \"{example}\", nicht {value}",
    },
    "records.bad_players": {
        "en": _HEADER_EN + "'players' is a list of names (strings) by seat, not {value}",
        "de": _HEADER_DE + "'players' ist eine Liste von Namen (Zeichenketten) nach Plätzen, "
              "nicht {value}",
    },
    "records.player_not_text": {
        "en": _HEADER_EN + "player {index} in 'players' is a name (a string), not {value}",
        "de": _HEADER_DE + "Spieler {index} in 'players' ist ein Name (eine Zeichenkette), "
              "nicht {value}",
    },
    "records.players_count": {
        "en": _HEADER_EN + "this game has {n} players, but 'players' names {count}",
        "de": _HEADER_DE + "dieses Spiel hat {n} Spieler, 'players' nennt aber {count}",
    },
    "records.bad_dealer": {
        "en": _HEADER_EN + "'dealer' is 2 (Hinterhand, position 2, deals), not {value}",
        "de": _HEADER_DE + "'dealer' ist 2 (Hinterhand, Position 2, gibt), nicht {value}",
    },
    "records.bad_seed": {
        "en": _HEADER_EN + "'seed' is a whole number, not {value}",
        "de": _HEADER_DE + "'seed' ist eine ganze Zahl, nicht {value}",
    },
    "records.bad_first": {
        "en": _HEADER_EN + "'first' is a seat 0..{last}, not {value}",
        "de": _HEADER_DE + "'first' ist ein Platz 0..{last}, nicht {value}",
    },
    "records.bad_deal": {
        "en": _HEADER_EN + "'deal' is an object with 'hands' (three hands) and 'skat'",
        "de": _HEADER_DE + "'deal' ist ein Objekt mit 'hands' (drei Blättern) und 'skat'",
    },
    "records.bad_hands": {
        "en": _HEADER_EN + "'deal.hands' is a list of three hands, not {value}",
        "de": _HEADER_DE + "'deal.hands' ist eine Liste von drei Blättern, nicht {value}",
    },
    "records.hand_not_text": {
        "en": _HEADER_EN + "the hand of {seat} is written as card codes in one string, "
              "not {value}",
        "de": _HEADER_DE + "das Blatt von {seat} wird als Kartenkürzel in einer "
              "Zeichenkette geschrieben, nicht {value}",
    },
    "records.skat_not_text": {
        "en": _HEADER_EN + "the Skat is written as card codes in one string, not {value}",
        "de": _HEADER_DE + "der Skat wird als Kartenkürzel in einer Zeichenkette "
              "geschrieben, nicht {value}",
    },
    "records.bad_deals": {
        "en": _HEADER_EN + "'deals' is a list with one deal per round",
        "de": _HEADER_DE + "'deals' ist eine Liste mit einer Kartenverteilung je Runde",
    },
    "records.round_not_object": {
        "en": _HEADER_EN + "round {round}: a deal is an object with 'hands' and 'trump'",
        "de": _HEADER_DE + "Runde {round}: eine Kartenverteilung ist ein Objekt mit 'hands' "
              "und 'trump'",
    },
    "records.round_missing": {
        "en": _HEADER_EN + "round {round}: missing field '{field}'",
        "de": _HEADER_DE + "Runde {round}: das Feld '{field}' fehlt",
    },
    "records.round_hands": {
        "en": _HEADER_EN + "round {round}: 'hands' is a list of hands by seat",
        "de": _HEADER_DE + "Runde {round}: 'hands' ist eine Liste der Blätter nach Plätzen",
    },
    "records.round_hand_not_text": {
        "en": _HEADER_EN + "round {round}: the hand of seat {seat} is written as card codes "
              "in one string, not {value}",
        "de": _HEADER_DE + "Runde {round}: das Blatt von Platz {seat} wird als Kartenkürzel "
              "in einer Zeichenkette geschrieben, nicht {value}",
    },
    "records.round_card": {
        "en": _HEADER_EN + "round {round}: {reason}",
        "de": _HEADER_DE + "Runde {round}: {reason}",
    },
    "records.round_card_too_often": {
        "en": _HEADER_EN + "round {round}: {card} is dealt more often than the deck has it",
        "de": _HEADER_DE + "Runde {round}: {card} wird öfter gegeben, als das Spiel die "
              "Karte hat",
    },
    "records.round_trump_not_text": {
        "en": _HEADER_EN + "round {round}: the trump card is a card code, not {value}",
        "de": _HEADER_DE + "Runde {round}: die Trumpfkarte ist ein Kartenkürzel, "
              "nicht {value}",
    },
    # --- the actions and the result -------------------------------------------------------
    "records.actions_not_list": {
        "en": "'actions' must be a list of action texts, not {value}",
        "de": "'actions' muss eine Liste von Aktionstexten sein, nicht {value}",
    },
    "records.action_not_text": {
        "en": "action {index} is written as a text, not {value}",
        "de": "Aktion {index} wird als Text geschrieben, nicht {value}",
    },
    # an action the engine refuses; {reason} is the engine's message, about the seat by name
    "records.action": {
        "en": "action {index} ({action}): {reason}",
        "de": "Aktion {index} ({action}): {reason}",
    },
    "records.result_not_object": {
        "en": "'result' must be a JSON object or null, not {value}",
        "de": "'result' muss ein JSON-Objekt oder null sein, nicht {value}",
    },
    "records.result_not_over": {
        "en": "the record stores a result, but the game is not over after {n} "
              "{n:plural:action|actions}",
        "de": "das Protokoll speichert ein Ergebnis, aber das Spiel ist nach {n} "
              "{n:plural:Aktion|Aktionen} nicht zu Ende",
    },
    "records.wrong_result": {
        "en": "wrong stored result: {diffs}",
        "de": "falsches gespeichertes Ergebnis: {diffs}",
    },
    "records.wrong_result_more": {
        "en": "wrong stored result in {n} fields, the first {shown} of them: {diffs}",
        "de": "falsches gespeichertes Ergebnis in {n} Feldern, die ersten {shown} davon: "
              "{diffs}",
    },
    # one differing field; {stored} and {replayed} are JSON
    "records.diff": {
        "en": "{path}: stored {stored}, replayed {replayed}",
        "de": "{path}: gespeichert {stored}, nachgespielt {replayed}",
    },
    # two or more differing fields, one after the other
    "records.diffs": {"en": "{first}; {rest}", "de": "{first}; {rest}"},
})
