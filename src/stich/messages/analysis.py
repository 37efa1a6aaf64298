"""Messages of the analysis (:mod:`stich.skat.analysis`, ``stich analyze``; see
:mod:`stich.messages`)."""

from stich.messages import define

define({
    "analysis.all_passed": {
        "en": "everybody passed: no declarer to analyse",
        "de": "Alle haben gepasst: kein Alleinspieler, nichts zu analysieren",
    },
    "analysis.not_declared": {
        "en": "the game is not declared yet: nothing to analyse",
        "de": "Das Spiel ist noch nicht angesagt: nichts zu analysieren",
    },
    "analysis.ramsch": {
        "en": "Ramsch: no declarer to analyse",
        "de": "Ramsch: kein Alleinspieler zu analysieren",
    },
    "analysis.null_overbid": {
        "en": "Null overbid: {game} is worth {value}, the bid was {bid}; the game was lost "
              "at the declaration, no card was played",
        "de": "Null überreizt: {game} ist {value} wert, gereizt wurde bis {bid}; das Spiel "
              "war mit der Ansage verloren, keine Karte wurde gespielt",
    },
    "analysis.spitze": {
        "en": "Spitze: the game is won only if the declarer takes the last trick with "
              "{card}, which the open-card analysis cannot search yet; a Spitze game is "
              "not analysed",
        "de": "Spitze: gewonnen ist das Spiel nur, wenn der Alleinspieler den letzten Stich "
              "mit {card} macht; das kann die Analyse mit offenen Karten noch nicht "
              "durchsuchen, ein Spiel mit Spitze wird nicht analysiert",
    },
    "analysis.no_card_now": {
        "en": "no card is to be played now (an answer to Kontra or Schenken, or a "
              "Revolution's exchange, is awaited): a game's worth is judged where a card "
              "is to be played",
        "de": "Jetzt ist keine Karte zu spielen (eine Antwort auf Kontra oder Schenken oder "
              "der Tausch einer Revolution steht aus): der Wert eines Spiels wird dort "
              "bestimmt, wo eine Karte zu spielen ist",
    },
    "analysis.bock": {
        "en": "the Bock factor must be a whole number of at least 1, not {value}",
        "de": "Der Bock-Faktor muss eine ganze Zahl ab 1 sein, nicht {value}",
    },
    # stich analyze: which record of a file, and why it is not analysed
    "analysis.record_at": {
        "en": "{path} record {index}",
        "de": "{path}, Protokoll {index}",
    },
    "analysis.no_such_record": {
        "en": "{path} holds {n} {n:plural:record|records}: use --index 0 to {last}",
        "de": "{path} enthält {n} {n:plural:Protokoll|Protokolle}: wähle --index 0 bis "
              "{last}",
    },
    "analysis.not_skat": {
        "en": "a {game} record; stich analyze reads Skat records only",
        "de": "ein {game}-Protokoll; stich analyze liest nur Skat-Protokolle",
    },
    "analysis.not_finished": {
        "en": "the game is not finished ({n} {n:plural:action|actions}, phase {phase}): "
              "only finished games are analysed",
        "de": "Die Partie ist nicht zu Ende ({n} {n:plural:Aktion|Aktionen}, Phase "
              "{phase}): nur beendete Partien werden analysiert",
    },
})
