"""The analysis under the house rules: Kontra and Re double every worth and cost, a Bock
factor from the list multiplies them, a game played perfectly is worth at the first lead
exactly the list score it gets, a game ended by a claim or by giving up is judged on its
cards, and a Spitze game is refused (the solver does not search its last trick yet)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from stich.bots import make_bot
from stich.cards import Card, card_points, cards_of
from stich.cli import app
from stich.cli.analyze import signed
from stich.messages import Cards
from stich.record import skat_record
from stich.server.workers import analyse_record
from stich.skat import GameType, Phase, SkatRules, SkatState
from stich.skat.actions import KONTRA, PASS, RE
from stich.skat.analysis import AnalysisError, GameAnalysis, analyze, game_worth
from stich.skat.rules import spitze_card
from stich.skat.solver import Position, null_won, solve

from ..refusals import refused
from .helpers import LOTHAR, act, deal, play

runner = CliRunner()
KONTRA_RULES = SkatRules.parse("skat(preset=lothar,kontra_re=yes)")
HOUSE = SkatRules.parse("skat(preset=lothar,kontra_re=yes,spitze=yes)")


# --- helpers -------------------------------------------------------------------------------


def position(s: SkatState) -> Position:
    assert s.game is not None
    return Position(s.game, s.hands, s.declarer, s.to_move, s.trick)


def value_of(s: SkatState) -> int:
    """The declarer's card points at the end (Skat included) with perfect play from a
    card-play state, by the solver (Null: 1 while he can avoid every trick)."""
    d = s.declarer
    if s.game is GameType.NULL:
        if s.tricks_won[d]:
            return 0
        return 1 if s.is_over else int(null_won(position(s)))
    banked = s.points[d] + card_points(s.skat)
    return banked if s.is_over else banked + solve(position(s))


def perfect_card(s: SkatState, worst: bool = False) -> Card:
    """A card keeping what the game is worth on the list (then the card points): the
    declarer's best, a defender's best for the defenders; ``worst``: the opposite."""
    maximise = (s.to_move == s.declarer) != worst
    scored = []
    for c in cards_of(s.legal_cards()):
        child = s.apply(c)
        scored.append(((game_worth(child), value_of(child)), c))
    key = max if maximise else min
    return key(scored, key=lambda x: x[0])[1]


def play_perfect(s: SkatState, blunder_at: int = -1) -> SkatState:
    """Play the cards to the end, each a perfect one; card number ``blunder_at`` (counted
    from this state) the worst one."""
    i = 0
    while not s.is_over:
        s = s.apply(perfect_card(s, worst=i == blunder_at))
        i += 1
    return s


def grand_hand(rules: SkatRules) -> SkatState:
    """Seed 5: Vorhand plays Grand Hand; Mittelhand may say Kontra before his first card."""
    return act(SkatState.new(rules, seed=5), "pass", "pass", "18", "hand", "declare grand hand")


def doubled(kontra: bool, re: bool, blunder_at: int = -1) -> SkatState:
    """The Grand Hand of seed 5 played perfectly (one blunder at ``blunder_at``), with
    Kontra (and Re) said by Mittelhand before his first card, or under Lothar's rules."""
    s = grand_hand(KONTRA_RULES if kontra else LOTHAR)
    s = s.apply(perfect_card(s, worst=blunder_at == 0))
    if kontra:
        s = act(s, "kontra", "re" if re else "pass")
    return play_perfect(s, blunder_at - 1)


def declarer_score(s: SkatState) -> int:
    o = s.outcome()
    assert o.declarer is not None
    return o.scores[o.declarer]


# --- Kontra and Re -------------------------------------------------------------------------


@pytest.mark.parametrize("blunder_at", [-1, 3])
def test_kontra_and_re_double_every_worth_and_cost(blunder_at: int) -> None:
    games = [doubled(False, False, blunder_at), doubled(True, False, blunder_at),
             doubled(True, True, blunder_at)]
    plain, kontra, re = (analyze(g) for g in games)
    assert [m.card for m in kontra.moves] == [m.card for m in plain.moves]
    assert (kontra.kontra, kontra.re, kontra.factor, re.re, re.factor) == (True, False, 2,
                                                                           True, 4)
    assert plain.factor == 1 and not plain.kontra
    for a, factor in ((plain, 1), (kontra, 2), (re, 4)):
        assert [m.value for m in a.moves] == [m.value for m in plain.moves]  # card points
        assert a.start_worth == factor * plain.start_worth
        assert [m.worth_after for m in a.moves] == [factor * m.worth_after
                                                    for m in plain.moves]
        assert [m.cost for m in a.moves] == [factor * m.cost for m in plain.moves]
    for a, g in zip((plain, kontra, re), games, strict=True):
        # the worth after the last card is what the game got on the list
        assert a.moves[-1].worth_after == a.score == declarer_score(g)
        if blunder_at < 0:  # played perfectly: worth at the first lead = the list score
            assert a.start_worth == a.score and not a.mistakes
    if blunder_at >= 0:  # the declarer's blunder lost the game: 72 became -144
        m = plain.moves[blunder_at]
        assert m.by_declarer and (m.worth_before, m.worth_after, m.cost) == (72, -144, 216)
        assert re.moves[blunder_at].cost == 4 * m.cost
        d = re.to_dict()
        assert (d["kontra"], d["re"], d["bock"], d["factor"]) == (True, True, 1, 4)
        assert d["moves"][blunder_at]["cost"] == 4 * m.cost
        assert d["start_worth"] == re.start_worth and d["score"] == declarer_score(games[2])


def house_game(seed: int) -> SkatState | None:
    """A game under Kontra, Re and Spitze: three heuristic bots bid and declare (they never
    declare Spitze); every card is a perfect one.  In odd seeds the first defender who
    may says Kontra, in seeds 1, 5, 9, … the declarer answers Re.  None for Ramsch."""
    rng = random.Random(seed)
    bots = [make_bot("heuristic") for _ in range(3)]
    s = SkatState.new(HOUSE, seed=seed)
    while not s.is_over:
        if s.game is GameType.RAMSCH:
            return None
        if s.phase is not Phase.PLAY:
            s = s.apply(bots[s.to_move].choose(s.view(s.to_move), rng))
        elif RE in s.legal_actions():
            s = s.apply(RE if seed % 4 == 1 else PASS)
        elif KONTRA in s.legal_actions() and seed % 2:
            s = s.apply(KONTRA)
        else:
            s = s.apply(perfect_card(s))
    return s if s.game is not None and s.end_reason != "null_overbid" else None


def test_a_perfectly_played_game_is_worth_its_list_score_from_the_first_lead() -> None:
    """Under Kontra/Re and Spitze rules: the worth at the first lead of a perfectly played
    game is exactly the list score the engine settles it at, doublings included."""
    seen = {"kontra": 0, "re": 0, "plain": 0, "lost": 0}
    for seed in range(40):
        s = house_game(seed)
        if s is None:
            continue
        a = analyze(s)
        assert a.start_worth == a.score == declarer_score(s), (seed, a.contract)
        assert a.mistakes == () and all(m.worth_after == a.start_worth for m in a.moves)
        assert a.factor == 1 << (a.kontra + a.re)
        seen["re" if a.re else "kontra" if a.kontra else "plain"] += 1
        seen["lost"] += a.score < 0
        if min(seen.values()) >= 2:
            return
    pytest.fail(f"not every case among the games: {seen}")


# --- Bock ----------------------------------------------------------------------------------


def test_a_bock_factor_multiplies_worth_cost_and_score() -> None:
    game = doubled(True, False, blunder_at=3)
    once, bock = analyze(game), analyze(game, bock=2)
    assert (bock.bock, bock.factor, once.factor) == (2, 4, 2)
    assert bock.start_worth == 2 * once.start_worth and bock.score == 2 * declarer_score(game)
    assert [m.cost for m in bock.moves] == [2 * m.cost for m in once.moves]
    assert [m.value for m in bock.moves] == [m.value for m in once.moves]
    assert bock.to_dict()["bock"] == 2 and bock.to_dict()["factor"] == 4
    assert game_worth(game, bock=4) == 4 * declarer_score(game)
    for bad in (0, -2, True):
        with refused("analysis.bock", AnalysisError, value=repr(bad)):
            analyze(game, bock=bad)
    assert AnalysisError("analysis.bock", value="0").text("de") == \
        "Der Bock-Faktor muss eine ganze Zahl ab 1 sein, nicht 0"


def test_the_command_and_the_server_count_the_records_bock(tmp_path: Path) -> None:
    game = doubled(True, False, blunder_at=3)
    rec = skat_record(game, extra={"bock": 2})
    path = tmp_path / "bock.json"
    path.write_text(json.dumps(rec), encoding="utf-8")
    result = runner.invoke(app, ["analyze", str(path), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    expected = analyze(game, bock=2)
    assert data["factor"] == 4 and data["score"] == 2 * declarer_score(game)
    assert data["start_worth"] == expected.start_worth
    assert [m["cost"] for m in data["moves"]] == [m.cost for m in expected.moves]
    server = analyse_record(rec)
    assert server == {"players": rec["players"], **expected.to_dict()}
    table = runner.invoke(app, ["analyze", str(path)])
    assert table.exit_code == 0
    assert "Kontra und Bock: in der Liste zählt das Spiel ×4" in " ".join(table.stdout.split())
    english = " ".join(runner.invoke(app, ["analyze", str(path), "--lang", "en"]).stdout.split())
    assert "Kontra and Bock: the list counts the game ×4" in english
    assert (f"Worth with perfect play from the first lead: {signed(expected.start_worth)} "
            "on the list") in english
    assert f"Result: 45 points, lost, {signed(expected.score or 0)} on the list" in english
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(rec | {"bock": 0}), encoding="utf-8")
    result = runner.invoke(app, ["analyze", str(bad), "--lang", "en"])
    assert result.exit_code == 1
    assert "'bock' is the factor the list counted a Bock game with" in result.stderr


# --- claims and giving up ------------------------------------------------------------------


def claimed_game(*, wrong: bool = False) -> SkatState:
    """Mittelhand's Eichel ended by his claim with a trick open (the example of the
    replay's tests), or, ``wrong``, by a claim after the first trick, when Vorhand still
    holds the Eichel-Unter."""
    hands = ("D7 DQ DK DA H8 S9 SQ ST CK CJ", "D8 DJ HK HJ S7 SJ C7 C8 C9 CT",
             "D9 DT H7 HQ HT HA S8 SA CQ CA")
    s = act(deal(LOTHAR, *hands, "H9 SK"), "18", "pass", "pass", "pickup", "discard D8 HK",
            "declare eichel")
    if wrong:
        return act(play(s, "DA C7 D9"), "claim")
    s = play(s, "DA C7 D9 C8 CQ CK H8 H9 HA SA ST S7 HT DK C9 CT CA CJ D7")
    return act(s, "claim")


def check_judged_on_cards(s: SkatState, end: str) -> GameAnalysis:
    a = analyze(s)
    cards = [x for x in s.history if isinstance(x, Card)]
    assert a.end == s.end_reason == end and len(a.moves) == len(cards)
    after = next(x for x in reversed(list(s.replay_states())) if not x.is_over)
    assert sum(h.bit_count() for h in after.hands) + len(after.trick) > 0  # cards left
    assert a.moves[-1].value == value_of(after)  # the position after the last card
    assert a.moves[-1].worth_after == game_worth(after)
    o = s.outcome()
    assert a.final_value == o.declarer_points and a.won == o.won  # what really happened
    assert a.score == declarer_score(s)
    return a


def test_a_game_ended_by_a_claim_is_judged_on_its_cards() -> None:
    right = check_judged_on_cards(claimed_game(), "claimed")
    # a right claim of the last tricks, and still 58 points: lost
    assert len(right.moves) == 19 and right.final_value == 58 and not right.won
    wrong = check_judged_on_cards(claimed_game(wrong=True), "claim_wrong")
    assert len(wrong.moves) == 3 and not wrong.won
    # the cards were good, the claim was not: the game's worth fell with the claim alone
    assert wrong.moves[-1].worth_after > wrong.score  # type: ignore[operator]


def test_a_game_given_up_is_judged_on_its_cards() -> None:
    s = grand_hand(LOTHAR)
    while len(s.tricks) < 2 or s.to_move != s.declarer:
        s = s.apply(perfect_card(s))
    played = sum(isinstance(x, Card) for x in s.history)
    a = check_judged_on_cards(act(s, "giveup"), "gave_up")  # the declarer gives up
    assert len(a.moves) == played >= 6 and not a.won and a.start_worth == 72
    # both defenders give up: the declarer takes the rest
    s = grand_hand(LOTHAR)
    s = s.apply(perfect_card(s))
    s = act(s, "giveup")  # Mittelhand gives up and still plays his card
    s = s.apply(perfect_card(s))
    b = check_judged_on_cards(act(s, "giveup"), "gave_up")
    assert len(b.moves) == 2 and b.won


def test_the_command_says_a_claimed_game_was_judged_on_its_cards(tmp_path: Path) -> None:
    path = tmp_path / "claim.json"
    path.write_text(json.dumps(skat_record(claimed_game(wrong=True))), encoding="utf-8")
    out = " ".join(runner.invoke(app, ["analyze", str(path), "--lang", "en"]).stdout.split())
    assert "The cards played are judged: the game ended before the last trick (the rest " \
           "claimed wrongly)." in out
    out = " ".join(runner.invoke(app, ["analyze", str(path)]).stdout.split())
    assert "das Spiel endete vor dem letzten Stich (Rest zu Unrecht beansprucht)" in out


# --- Schenken and Revolution ----------------------------------------------------------------

GIFTS = SkatRules.parse("skat(preset=lothar,kontra_re=yes,schenken=yes,revolution=yes)")


def test_a_schenken_played_on_counts_as_schneider_announced(tmp_path: Path) -> None:
    """The defenders give the Grand Hand away after its first card; the declarer plays on
    and must make them Schneider: the goal and every worth count as Schneider announced,
    and with perfect play he gets what the analysis said from the first lead."""
    s = grand_hand(GIFTS)
    s = act(s.apply(perfect_card(s)), "schenken", "schenken", "pass")
    game = play_perfect(s)
    a = analyze(game)
    assert a.gift == 1 and a.to_dict()["gift"] == 1
    assert (a.goal.kind, a.goal.points, a.goal.value) == ("points", 90, 120)  # mit 1, Spiel 5
    assert a.start_worth == a.score == declarer_score(game) == -240 and not a.mistakes
    path = tmp_path / "gift.json"
    path.write_text(json.dumps(skat_record(game)), encoding="utf-8")
    out = " ".join(runner.invoke(app, ["analyze", str(path)]).stdout.split())
    assert "Schenken ausgeschlagen: das Spiel zählt wie mit Schneider angesagt" in out


def test_a_schenken_accepted_is_judged_on_its_one_card() -> None:
    s = grand_hand(GIFTS)
    s = act(s.apply(perfect_card(s)), "schenken", "schenken", "accept")
    a = analyze(s)
    assert a.end == "gift" and len(a.moves) == 1 and a.gift == 0
    assert a.won and a.score == declarer_score(s) == 72  # won simply, as given
    assert a.final_value == s.outcome().declarer_points
    # the card is judged as any: the worth of its position with perfect play
    after = next(x for x in s.replay_states() if len(x.trick) == 1)
    assert a.moves[-1].worth_after == game_worth(after) == a.start_worth


def test_a_revolution_is_judged_after_the_exchange() -> None:
    s = act(SkatState.new(GIFTS, seed=5), "pass", "pass", "18", "hand",
            "declare null hand ouvert revolution", "give D7 DT", "give H7 SK")
    assert s.legal_cards()  # the exchange is over: Vorhand leads
    game = play_perfect(s)
    a = analyze(game)
    assert a.goal.value == 92 and a.start_worth == a.score == declarer_score(game)
    assert a.moves[0].position.hands == s.hands  # the hands as exchanged
    assert a.final_value == int(game.outcome().won)


# --- Spitze --------------------------------------------------------------------------------


def spitze_game() -> SkatState:
    """Vorhand declares Herz Hand with Spitze (he holds the Herz 7) and the cards are
    played to the end."""
    s = deal(HOUSE, "HJ DJ HA HT HK HQ H9 H7 CA SA", "CJ SJ CT CK CQ C9 ST SK SQ H8",
             "C8 C7 S9 S8 S7 DA DT DK DQ D9", "D8 D7")
    s = act(s, "pass", "pass", "18", "hand", "declare herz hand spitze")
    assert s.contract is not None and s.contract.spitze
    while not s.is_over:
        s = s.apply(cards_of(s.legal_cards())[0])
    return s


def test_a_spitze_game_is_refused_not_judged_wrongly(tmp_path: Path) -> None:
    s = spitze_game()
    card = Cards(1 << spitze_card(GameType.HERZ))
    with refused("analysis.spitze", AnalysisError, card=card) as e:
        analyze(s)
    assert str(e.value) == ("Spitze: the game is won only if the declarer takes the last "
                            "trick with H7, which the open-card analysis cannot search yet; "
                            "a Spitze game is not analysed")
    assert e.value.text("de").startswith("Spitze: gewonnen ist das Spiel nur, wenn der "
                                         "Alleinspieler den letzten Stich mit H7 macht")
    with refused("analysis.spitze", AnalysisError):
        game_worth(s)
    path = tmp_path / "spitze.json"
    path.write_text(json.dumps(skat_record(s)), encoding="utf-8")
    result = runner.invoke(app, ["analyze", str(path), "--lang", "en"])
    assert result.exit_code == 1 and "Spitze: the game is won only if" in result.stderr


def test_the_worth_is_judged_where_a_card_is_to_be_played() -> None:
    first = perfect_card(grand_hand(LOTHAR))
    s = act(grand_hand(KONTRA_RULES).apply(first), "kontra")
    with refused("analysis.no_card_now", AnalysisError):
        game_worth(s)  # the declarer answers Re or pass first
    assert game_worth(act(s, "re")) == 4 * game_worth(grand_hand(LOTHAR).apply(first)) == 288
