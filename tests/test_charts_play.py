"""Charts in play: the ruleset contract, Demyansk's CRT as a slot, the owner's chart at the table, old saves,
and the command line (play --charts, validate on chart files)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.charts import (BadChartValue, ChartBook, ChartConflict, ChartKeeper, book_file, chart_scope, chart_slots_of,
                           counter_slots, parse_slots, pending_chart_prompt, ruleset_chart_slots, rulesets_with_charts)
from engine.cli import main
from engine.errors import IllegalAction
from engine.game import Game, load_game, load_rules
from engine.rulesets.demyansk.actions import Declare, Resolve
from engine.rulesets.demyansk.tables import load_tables
from test_demyansk_fixtures import rules, state_in, unit

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = ROOT / "scenarios" / "demyansk-1-trapped.toml"
OLD_SAVE = ROOT / "tests" / "data" / "demyansk-save-result-actions.toml"
HQ = unit("hq", "soviet", "0-1-4", "1001", type="headquarters", command_radius=20)


def test_demyansk_offers_its_crt_as_a_slot_with_the_21_printed_cells_and_15_blank():
    slots = ruleset_chart_slots("demyansk")
    crt = slots["demyansk.crt"]
    assert [a.name for a in crt.axes] == ["odds", "die"] and crt.axes[0].labels == ("1-1", "2-1", "3-1", "4-1",
                                                                                    "5-1", "6-1")
    assert crt.domain.values == ("AR1", "AR2", "EX", "NE", "DR1", "DR2", "DR3", "DE")
    t = load_tables()
    assert {k: v for k, v in crt.known.items()} == {(t.crt_columns[c - 1], str(d)): t.crt(d, c)
                                                    for d in range(1, 7) for c in range(1, 7) if t.crt(d, c)}
    assert len(crt.known) == 21 and len([k for k in crt.cells() if k not in crt.known]) == 15
    assert crt.known[("1-1", "1")] == "AR2" and crt.known[("6-1", "3")] == "DR3"
    assert "demyansk" in rulesets_with_charts() and ruleset_chart_slots("scw") is None
    assert ruleset_chart_slots("no_such_game") is None
    assert book_file("/data", "demyansk") == Path("/data/charts/demyansk.toml")


def test_rules_without_charts_never_have_a_pending_prompt():
    scw = load_rules(str(ROOT / "scenarios" / "scw-platoon-attack.toml"))
    assert pending_chart_prompt(scw, scw.initial_state(1)) is None and chart_slots_of(scw) is None


def two_blank_battles():
    """Two Soviet battles at 4:1 with the die 5 each (a blank cell of the CRT), announced; a Game on them."""
    r = rules([HQ, unit("d", "german", "1-2-6", "0505"), unit("a", "soviet", "8-4-4", "0504"),
               unit("e", "german", "1-2-6", "0908"), unit("b", "soviet", "8-4-4", "0907")])
    game = Game(r, 1)
    st = state_in(r, "soviet-combat", dice=[5, 5])
    st, _ = r.apply(st, Declare("d", ("a",)))
    st, _ = r.apply(st, Declare("e", ("b",)))
    game.state = st
    return game


def test_the_keeper_writes_a_typed_answer_into_the_owners_chart_and_refuses_a_contradiction(tmp_path):
    game = two_blank_battles()
    book = ChartBook(chart_slots_of(game.rules), tmp_path / "charts" / "demyansk.toml")
    keeper = ChartKeeper(book)
    game.play(Resolve("d"))
    prompt = pending_chart_prompt(game.rules, game.state)
    assert prompt.text() == ("Combat Results Table[4-1][5] for the battle against d: attack 8 (a) against "
                             "defence 2, ratio 4:1 (Demyansk 6), odds column 4-1 (Demyansk 6), die rolled 5 (Demyansk 6): "
                             "enter the printed result")
    assert keeper.play_known(game) == []                          # the owner's chart is blank there
    with pytest.raises(BadChartValue, match=r"'XX' is not a result of this chart \(expected one of 'AR1'"):
        keeper.answer(game, "XX")
    assert len(game.log) == 1
    keeper.answer(game, "DR1")
    assert game.log[-1].action.text() == "chart demyansk.crt [4-1][5] = DR1"
    assert ChartBook(book.slots, book.path).load().lookup("demyansk.crt", ("4-1", "5")) == "DR1"   # saved
    # another owner's book holding a different value for the same cell: refused with both, nothing played
    other = ChartKeeper(ChartBook(book.slots))
    other.book.record("demyansk.crt", ("4-1", "5"), "DE")
    game2 = two_blank_battles()
    game2.play(Resolve("d"))
    with pytest.raises(ChartConflict) as e:
        other.answer(game2, "DR1")
    assert "'DE'" in str(e.value) and "'DR1'" in str(e.value) and len(game2.log) == 1
    with pytest.raises(IllegalAction, match="no printed chart's result is asked for now"):
        keeper.answer(two_blank_battles(), "NE")


def test_the_keeper_plays_the_owners_chart_without_asking_and_marks_it_in_the_log(tmp_path):
    game = two_blank_battles()
    book = ChartBook(chart_slots_of(game.rules))
    book.record("demyansk.crt", ("4-1", "5"), "NE")
    keeper = ChartKeeper(book)
    game.play(Resolve("d"))
    played = keeper.play_known(game)
    assert [a.text() for a in played] == ["chart demyansk.crt [4-1][5] = NE (owner's chart)"]
    assert keeper.from_book == 1 and pending_chart_prompt(game.rules, game.state) is None
    assert any("entered from the owner's chart" in e.text for e in game.log[-1].events)
    # the log replays without the owner's chart: the answer is in the log and remembered in the game
    again = two_blank_battles()
    for text in game.actions_text():
        again.play(text)
    assert again.hash() == game.hash()


def test_a_save_made_before_the_crt_was_a_slot_replays_to_its_recorded_state():
    doc_actions = OLD_SAVE.read_text().count('"result NE"')
    assert doc_actions == 15            # blank cells answered the old way, the same cell asked again each time
    game = load_game(OLD_SAVE)                                        # checks the recorded state hash
    assert game.is_over() and len(game.log) == 383
    assert game.hash() == "cfc9654764b4a54ccdc66b8e1293bef1160e8709b47f136f01497dd90972a408"


def test_play_with_the_owners_chart_answers_from_it_and_reports_how_many_were_asked(tmp_path, capsys):
    book = ChartBook(ruleset_chart_slots("demyansk"), tmp_path / "demyansk.toml")
    book.record("demyansk.crt", ("5-1", "5"), "DE")      # seed 3's bots meet this cell first
    book.record("demyansk.crt", ("4-1", "4"), "DR2")
    book.save()
    assert main([ "play", str(SCENARIO), "--seed", "3", "--bot", "german,soviet", "--json"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert main(["play", str(SCENARIO), "--seed", "3", "--bot", "german,soviet", "--json",
                 "--charts", str(book.path)]) == 0
    with_book = json.loads(capsys.readouterr().out)
    assert plain["blank_cells_answered"] == 7 and "chart_prompts" not in plain
    assert with_book["chart_prompts"]["from_owners_chart"] >= 2
    assert with_book["chart_prompts"]["asked"] == with_book["blank_cells_answered"] < 7
    assert with_book["state_sha256"] != plain["state_sha256"]
    assert ChartBook(book.slots, book.path).load().entries == book.entries     # the bots' answers are not written
    assert main(["play", str(SCENARIO), "--seed", "3", "--bot", "german,soviet", "--charts",
                 str(tmp_path / "missing.toml")]) == 1
    assert "missing.toml: there is no such chart file" in capsys.readouterr().err


def test_validate_checks_chart_books_and_slot_files_naming_file_cell_and_allowed_values(tmp_path, capsys):
    bad = tmp_path / "book.toml"
    bad.write_text('format = 1\n[charts."demyansk.crt"]\n"2-1" = { "6" = "XX", "7" = "DE" }\n'
                   '"1-1" = { "1" = "NE" }\n[charts."demyansk.nope"]\n"1" = 1\n')
    good = tmp_path / "good.toml"
    good.write_text('format = 1\n[charts."demyansk.crt"]\n"2-1" = { "6" = "DE" }\n')
    assert main(["validate", str(bad), str(good)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == [
        f"{bad}: charts.demyansk.crt['2-1']['6']: 'XX' is not a result of Combat Results Table (expected one of "
        "'AR1', 'AR2', 'EX', 'NE', 'DR1', 'DR2', 'DR3', 'DE')",
        f"{bad}: charts.demyansk.crt['2-1']['7']: Combat Results Table: die '7' is not on the chart "
        "(expected a 1d6 roll (1..6))",
        f"{bad}: charts.demyansk.crt['1-1']['1']: the published value is 'AR2', not 'NE'",
        f"{bad}: charts.demyansk.nope: there is no chart 'demyansk.nope' (expected one of demyansk.crt)",
        f"{good}: ok (chart book)"]
    slots = tmp_path / "slots.toml"
    slots.write_text('[[chart]]\nid = "t.morale"\ntitle = "Morale"\nrule = "T 12"\n'
                     '[[chart.axes]]\nname = "unit type"\nopen = true\n[chart.domain]\nmin = 0\nmax = 9\n')
    book = tmp_path / "t.toml"
    book.write_text('format = 1\n[charts."t.morale"]\n"rifle platoon" = 12\n')
    assert main(["validate", str(slots)]) == 0 and capsys.readouterr().out == f"{slots}: ok (chart slots)\n"
    assert main(["validate", str(book)]) == 1
    assert "charts.t.morale: there is no chart 't.morale': no ruleset offers it" in capsys.readouterr().out
    assert main(["validate", "--slots", str(slots), str(book)]) == 1
    assert capsys.readouterr().out == (f"{book}: charts.t.morale['rifle platoon']: 12 is not a result of Morale "
                                       "(expected a whole number from 0 to 9)\n")
    wrong = tmp_path / "wrong.toml"
    wrong.write_text('[[chart]]\nid = "t.x"\ntitle = "X"\n[[chart.axes]]\nname = "roll"\ndice = "2q"\n'
                     '[chart.domain]\nvalues = ["A"]\n')
    assert main(["validate", str(wrong)]) == 1
    assert f"{wrong}: chart[0].axes[0].dice: expected dice like" in capsys.readouterr().out


def test_counter_slots_are_those_with_one_open_unit_type_axis():
    s = parse_slots({"chart": [
        {"id": "t.counter.morale", "title": "Morale", "rule": "T 1", "axes": [{"name": "unit type", "open": True}],
         "domain": {"min": 0, "max": 9}},
        {"id": "t.fire", "title": "Fire", "rule": "T 2", "axes": [{"name": "column", "labels": ["1"]}],
         "domain": {"values": ["-"]}}]}, "s.toml")
    assert [c.id for c in counter_slots(s)] == ["t.counter.morale"] and counter_slots(None) == []


def test_the_tcs_offers_its_charts_and_prompts_through_the_same_contract(tmp_path, capsys):
    from engine.charts import ChartAnswer

    tcs = ROOT / "scenarios" / "tcs-test.toml"
    slots = ruleset_chart_slots("tcs")
    assert "tcs.counter.morale" in [s.id for s in counter_slots(slots)]
    rules = load_rules(str(tcs))
    assert chart_slots_of(rules) is rules.charts
    # a random game's first chart prompts, answered into an owner's book
    saved = tmp_path / "random.toml"
    assert main(["play", str(tcs), "--seed", "2", "--bot", "random", "--save", str(saved), "--json"]) == 0
    plain = json.loads(capsys.readouterr().out)
    game = Game(rules, 2, str(tcs))
    book = ChartBook(slots, tmp_path / "tcs.toml", chart_scope(rules))     # the test game's own counters and terrain
    from engine.fileio import read_toml

    for text in read_toml(saved)["actions"]:
        prompt = pending_chart_prompt(rules, game.state)
        if prompt is not None:
            answer = ChartAnswer.parse(text)
            assert (answer.slot, answer.key) == (prompt.slot, prompt.key)
            book.record(answer.slot, answer.key, answer.value)
        game.play(text)
    book.save()
    assert main(["play", str(tcs), "--seed", "2", "--bot", "random", "--json", "--charts", str(book.path)]) == 0
    with_book = json.loads(capsys.readouterr().out)
    assert with_book["chart_prompts"]["from_owners_chart"] > 0
    assert with_book["chart_prompts"]["asked"] == with_book["chart_prompts_answered"]
    assert plain["chart_prompts_answered"] > 0 and "chart_prompts" not in plain
