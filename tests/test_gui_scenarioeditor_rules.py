"""The scenario editor's Rules page: the classic rules' TEC, CRT and ZOC edited as grids, written back to the
scenario, and Check explaining a table the rules cannot use."""
from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QTableWidgetItem

from engine.scenario import Deployment, Side, Unit
from engine.scenario import edit as E
from scenarioeditorwindow import scenario_editor

ROOT = Path(__file__).resolve().parent.parent
MAP = ROOT / "maps" / "crossing.toml"


@pytest.fixture
def editor(qtbot, tmp_path_factory):
    ed = scenario_editor(qtbot, tmp_path_factory.mktemp("tiles"))
    ed.new_scenario(MAP, [Side("blue", "Blue", "#4a6fa5"), Side("red", "Red", "#a54a4a")], ruleset="classic",
                    last_turn=4)
    ed.edit(lambda s: E.set_deployment(s, Deployment("b", "blue", 1, "all", ())))
    ed.edit(lambda s: E.add_unit(s, Unit("bl-1", "blue", "rifles", "battalion", 4, 3, 4, hex="A06.06"), "b"))
    ed.refresh()
    return ed


def cell(table, row_name: str, col: int) -> tuple[int, int]:
    rows = [table.verticalHeaderItem(i).text() for i in range(table.rowCount())]
    return rows.index(row_name), col


def test_the_tec_grid_shows_every_terrain_of_the_map_and_writes_back(editor):
    page = editor.rules_page
    assert page.tabs.isEnabled()
    t = page.tec
    assert [t.verticalHeaderItem(i).text() for i in range(t.rowCount())] == ["clear", "rough", "town", "woods"]
    assert t.horizontalHeaderItem(0).text() == "MP foot"
    t.setItem(*cell(t, "woods", 0), QTableWidgetItem("2"))
    t.setItem(*cell(t, "woods", 2), QTableWidgetItem("-1"))
    t.setItem(*cell(t, "rough", 0), QTableWidgetItem("P"))
    assert page.apply()
    chart = editor.scenario.rules["terrain"]
    assert chart["woods"] == {"mp": 2, "shift": -1} and chart["rough"] == {"prohibited": True}
    assert editor.problems_shown == []                      # Check: the rules build


def test_a_crt_cell_the_results_do_not_define_is_explained_by_check(editor):
    page = editor.rules_page
    c = page.crt
    assert c.columnCount() == 7 and c.rowCount() == 6 and c.horizontalHeaderItem(0).text() == "1-2"
    c.setItem(2, 3, QTableWidgetItem("XX"))
    assert page.apply()
    msgs = [f"{p.key}: {p.message}" for p in editor.problems_shown]
    assert any(m.startswith("rules.crt.rows[2]: column 3-1: the result 'XX' is not defined in [results] "
                            "(results: AE, AR, EX, DR, DE)") for m in msgs), msgs


def test_the_zoc_form_writes_locking_zones(editor):
    page = editor.rules_page
    page.z_leave.setCurrentText("banned")
    page.z_rule.setText("5")
    assert page.apply()
    assert editor.scenario.rules["zoc"] == {"leave": "banned", "rule": "5"}


def test_a_bad_number_in_the_grid_is_said_and_nothing_changes(editor):
    page = editor.rules_page
    page.tec.setItem(0, 0, QTableWidgetItem("lots"))
    assert not page.apply()
    assert "clear, MP foot: 'lots' is not a number" in editor.last_message
    assert editor.scenario.rules == {}


def test_choosing_the_classic_rules_for_a_free_play_scenario_leaves_the_free_tables_phases_behind(qtbot,
                                                                                                   tmp_path_factory):
    # an imported VASSAL module's scenario plays the free table with one phase, "Play"; the classic rules read
    # phases as tables, so carrying the free table over made Check refuse it ("rules.phases[0]: expected a table")
    import dataclasses

    ed = scenario_editor(qtbot, tmp_path_factory.mktemp("tiles"))
    ed.new_scenario(MAP, [Side("allies", "Allies", "#3c5aa6"), Side("germans", "Germans", "#b0302a")],
                    ruleset="free", last_turn=4)
    ed.edit(lambda s: dataclasses.replace(s, rules={"phases": ["Play"]}))
    ed.edit(lambda s: E.set_deployment(s, Deployment("a", "allies", 1, "all", ())))
    ed.edit(lambda s: E.add_unit(s, Unit("a-1", "allies", "piece", "battalion", 0, 0, 0, hex="A06.06"), "a"))
    ed.refresh()
    page = ed.page
    page.s_ruleset.setCurrentText("classic")
    page.apply()
    assert ed.scenario.ruleset == "classic" and ed.scenario.rules == {}
    assert not [p for p in ed.problems_shown if p.key.startswith("rules")], ed.problems_shown
    assert ed.rules_page.tabs.isEnabled()
    assert "the free rules' own table (phases) left behind" in ed.statusBar().currentMessage()
    ed.undo()
    assert ed.scenario.ruleset == "free" and ed.scenario.rules == {"phases": ["Play"]}


def test_a_map_with_terrain_gets_no_word_about_painting_it(editor):
    editor.rules_page.refresh()
    assert editor.rules_page.note.text() == "Edit the tables and apply them; Check says what the rules cannot use."
