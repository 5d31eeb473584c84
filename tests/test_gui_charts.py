"""The owner's charts in the program: the chart prompt dock in play, the chart editor, counter values in the OOB."""
from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from engine.charts import ChartBook, parse_slots, ruleset_chart_slots
from gui.charts.editor import PUBLISHED, REFUSED, ChartEditor
from gui.charts.shelf import forget_books
from gui.play.window import MainWindow

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = ROOT / "scenarios" / "demyansk-1-trapped.toml"


@pytest.fixture(autouse=True)
def fresh_books():
    forget_books()
    yield
    forget_books()


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    win = MainWindow(cache=tmp_path / "cache", autosave=tmp_path / "autosave.toml")
    win.charts.folder = tmp_path / "user"
    qtbot.addWidget(win)
    win.resize(1200, 800)
    win.show()
    qtbot.waitExposed(win)
    assert win.open_file(SCENARIO)
    return win


def first_battle_resolved(win):
    """Seed 3: the first German battle announced rolls a 6 at 2:1, a cell the rulebook leaves blank."""
    assert win.start_new_game(3)
    s = win.session
    while s.state.phase != "german-combat":
        win.phase_bar.next_act.trigger()
    declare = next(a for a in s.game.legal_actions() if a.text().startswith("attack "))
    win.declare_battle(declare.defender, list(declare.attackers))
    win.resolve_battle(declare.defender)
    return s, declare


def test_a_blank_cell_is_answered_in_the_dock_and_read_from_the_owners_chart_next_game(window, qtbot, tmp_path):
    s, declare = first_battle_resolved(window)
    dock = window.charts.dock
    assert dock.isVisible()
    assert "Combat Results Table" in dock.title.text() and "[2-1][6]" in dock.title.text()
    assert f"for the battle against {declare.defender}" in dock.title.text()
    working = [line.removeprefix("• ") for line in dock.working.text().splitlines()]
    assert working[-2:] == ["odds column 2-1 (Demyansk 6)", "die rolled 6 (Demyansk 6)"]
    assert working[0].startswith("attack ") and working[0].endswith("ratio 2:1 (Demyansk 6)")
    assert dock.choice_texts() == ["AR1", "AR2", "EX", "NE", "DR1", "DR2", "DR3", "DE"]
    assert window.computer is None and not s.pending_choices()
    dock.choose("DE")
    assert s.game.actions_text()[-1] == "chart demyansk.crt [2-1][6] = DE"
    assert "entered from the printed chart" in window.log_dock.lines()[-1]
    book_path = tmp_path / "user" / "charts" / "demyansk.toml"
    assert ChartBook(ruleset_chart_slots("demyansk"), book_path).load().lookup("demyansk.crt", ("2-1", "6")) == "DE"
    assert not dock.isVisible() and s.pending_choices()[-1] == "advance none"
    # the next game: the same cell is read from the owner's chart, nobody is asked
    forget_books()
    s, declare = first_battle_resolved(window)
    assert not dock.isVisible() and window.charts.last_played
    assert s.game.actions_text()[-1] == "chart demyansk.crt [2-1][6] = DE (owner's chart)"
    last = window.log_dock.lines()[-1]
    assert "[computer]" not in last and "entered from the owner's chart" in last
    qtbot.waitUntil(lambda: "Read from your chart: DE in Combat Results Table[2-1][6]"
                    in window.statusBar().currentMessage())
    # the player's undo takes back the resolution and the answer read for it, and does not answer again
    window.undo()
    assert s.game.actions_text()[-1] == f"attack {declare.defender} by {'+'.join(declare.attackers)}"
    assert not dock.isVisible()
    # the same in the game saved and opened again
    window.redo()
    assert s.game.actions_text()[-1] == "chart demyansk.crt [2-1][6] = DE (owner's chart)"
    saved = tmp_path / "game.toml"
    assert window.save_game(saved) and window.open_file(saved)
    window.undo()
    assert window.session.game.actions_text()[-1].startswith("attack ")


def test_an_answer_contradicting_the_owners_chart_is_refused_with_both_values(window, tmp_path):
    s, _ = first_battle_resolved(window)
    dock = window.charts.dock
    assert dock.isVisible()
    window.charts.keeper.book.record("demyansk.crt", ("2-1", "6"), "DR3")     # entered meanwhile in the editor
    n = len(s.game.log)
    dock.choose("NE")
    assert len(s.game.log) == n and dock.isVisible()
    assert "your chart holds 'DR3' in Combat Results Table[2-1][6]; 'NE' contradicts it" in dock.refusal.text()


def test_the_chart_editor_refuses_a_bad_value_pastes_a_block_and_saves_for_the_next_time(qtbot, tmp_path):
    ed = ChartEditor(folder=tmp_path)
    qtbot.addWidget(ed)
    ed.show()
    assert ed.set_name == "demyansk" and ed.slot().id == "demyansk.crt"
    grid = ed.grid
    assert grid.columnCount() == 6 and grid.rowCount() == 6
    assert [grid.horizontalHeaderItem(c).text() for c in range(6)] == ["1-1", "2-1", "3-1", "4-1", "5-1", "6-1"]
    # published cells: shown, shaded, read-only
    assert grid.item(0, 0).text() == "AR2" and grid.item(0, 0).background().color() == PUBLISHED
    assert not grid.item(0, 0).flags() & Qt.ItemIsEditable
    assert ed.chart_list.item(0).text() == "Combat Results Table (15 blank)"
    # a value outside the chart's results: marked, allowed values in the tooltip and on the status line
    grid.item(4, 1).setText("XX")                               # die 5, 2-1
    assert grid.item(4, 1).background().color() == REFUSED
    assert "'XX' is not a result of this chart (expected one of 'AR1', 'AR2', 'EX', 'NE', 'DR1', 'DR2', 'DR3', " \
           "'DE')" in grid.item(4, 1).toolTip()
    assert "Refused" in ed.last_message and ed.book.lookup("demyansk.crt", ("2-1", "5")) is None
    assert not (tmp_path / "charts" / "demyansk.toml").exists()
    # a block copied from a spreadsheet, pasted at die 5, 1-1: two rows of six
    grid.setCurrentCell(4, 0)
    kept, refused = ed.paste_text("NE\tDR1\tDR2\tDR3\tDE\tDE\r\nAR1\tEX\tDR1\tDR2\tdr3\tDE\r\n")
    assert (kept, refused) == (11, 1)                          # "dr3" is not a printed result
    assert grid.item(4, 1).text() == "DR1" and grid.item(4, 1).background().color() != REFUSED
    assert grid.item(5, 4).background().color() == REFUSED and "'dr3'" in grid.item(5, 4).toolTip()
    assert "pasted 11 cell(s), 1 refused" in ed.last_message
    assert ed.chart_list.item(0).text() == "Combat Results Table (4 blank)"
    # one published cell pasted over is left alone
    grid.setCurrentCell(3, 2)
    assert ed.paste_text("NE\tDR2") == (1, 0) and grid.item(3, 2).text() == "DR1"
    # saved at once; another editor reads the file back
    forget_books()
    again = ChartEditor(folder=tmp_path)
    qtbot.addWidget(again)
    assert again.book.lookup("demyansk.crt", ("2-1", "5")) == "DR1"
    assert again.book.lookup("demyansk.crt", ("6-1", "6")) == "DE"
    assert again.book.lookup("demyansk.crt", ("5-1", "6")) is None
    assert again.grid.item(5, 5).text() == "DE"
    # clearing a cell removes the entry
    again.grid.item(5, 5).setText("")
    forget_books()
    assert ChartBook(ruleset_chart_slots("demyansk"), tmp_path / "charts" / "demyansk.toml").load() \
        .lookup("demyansk.crt", ("6-1", "6")) is None


def test_an_import_with_problems_lists_them_and_changes_nothing(qtbot, tmp_path):
    ed = ChartEditor(folder=tmp_path)
    qtbot.addWidget(ed)
    bad = tmp_path / "theirs.toml"
    bad.write_text('format = 1\n[charts."demyansk.crt"]\n"2-1" = { "6" = "XX", "5" = "NE" }\n'
                   '[charts."demyansk.weather"]\n"1" = "mud"\n')
    assert not ed.import_file(bad)
    text = ed.dialog.text.toPlainText()
    assert f"{bad}: charts.demyansk.crt['2-1']['6']: 'XX' is not a result of Combat Results Table (expected one of " \
           "'AR1'" in text
    assert f"{bad}: charts.demyansk.weather: there is no chart 'demyansk.weather'" in text
    assert ed.book.lookup("demyansk.crt", ("2-1", "5")) is None
    good = tmp_path / "good.toml"
    good.write_text('format = 1\n[charts."demyansk.crt"]\n"2-1" = { "5" = "NE", "6" = "DE" }\n')
    assert ed.import_file(good) and "imported 2 cell(s)" in ed.last_message
    assert ed.grid.item(5, 1).text() == "DE"
    out = tmp_path / "export.toml"
    assert ed.export_file(out)
    assert ChartBook(ruleset_chart_slots("demyansk"), out).load().entries == ed.book.entries


SLOTS = {"chart": [
    {"id": "t.counter.morale", "title": "Morale", "rule": "T 1.1", "axes": [{"name": "unit type", "open": True}],
     "domain": {"min": 2, "max": 9}},
    {"id": "t.counter.range", "title": "Range", "rule": "T 1.2", "axes": [{"name": "unit type", "open": True}],
     "domain": {"min": 0, "max": 40}},
    {"id": "t.fire", "title": "Fire Table", "rule": "T 2", "axes": [{"name": "column", "labels": ["1", "2"]},
                                                                  {"name": "roll", "dice": "2d6"}],
     "domain": {"values": ["-", "S"]}},
    {"id": "t.terrain", "title": "Terrain", "rule": "T 3", "axes": [{"name": "mobility", "labels": ["foot", "track"]},
                                                                    {"name": "terrain", "labels": ["open", "woods"]},
                                                                    {"name": "season", "labels": ["dry", "mud"]}],
     "domain": {"min": 1, "max": 9}}]}


def test_open_and_three_axis_charts_in_the_editor(qtbot, tmp_path):
    ed = ChartEditor(folder=tmp_path, sets={"t": parse_slots(SLOTS, "t.toml")})
    qtbot.addWidget(ed)
    ed.select_chart("t.counter.morale")
    g = ed.grid
    assert g.is_list and g.rowCount() == 1 and g.columnCount() == 2       # one empty row for a new unit type
    g.item(0, 0).setText("rifle platoon")
    g.item(0, 1).setText("12")
    assert "expected a whole number from 2 to 9" in g.item(0, 1).toolTip()
    g.item(0, 1).setText("5")
    assert ed.book.lookup("t.counter.morale", ("rifle platoon",)) == 5
    assert ed.grid.rowCount() == 2 and ed.grid.item(0, 0).text() == "rifle platoon"
    ed.select_chart("t.terrain")
    assert ed.lead_box.count() == 2 and ed.lead_box.itemText(1) == "track"
    assert g.columnCount() == 2 and g.rowCount() == 2                    # terrain across, season down
    ed.lead_box.setCurrentIndex(1)
    g.setCurrentCell(0, 0)
    assert ed.paste_text("2\t4\n3\t9") == (4, 0)
    assert ed.book.lookup("t.terrain", ("track", "woods", "dry")) == 4
    assert ed.book.lookup("t.terrain", ("foot", "woods", "dry")) is None


def test_the_order_of_battle_shows_and_keeps_counter_values_by_unit_type(qtbot, tmp_path):
    from gui.scenarioeditor import ScenarioEditor

    slots = parse_slots(SLOTS, "t.toml")
    book = ChartBook(slots, tmp_path / "charts" / "demyansk.toml")
    book.record("t.counter.morale", ("infantry",), 4)
    book.save()
    ed = ScenarioEditor(cache=tmp_path / "tiles")
    qtbot.addWidget(ed)
    panel = ed.oob.counters
    panel.folder, panel.slots_for = tmp_path, (lambda name: slots if name == "demyansk" else None)
    assert ed.open_scenario(SCENARIO)
    assert not panel.isHidden()
    assert [panel.table.horizontalHeaderItem(c).text() for c in range(2)] == ["Morale", "Range"]
    types = [panel.table.verticalHeaderItem(r).text() for r in range(panel.table.rowCount())]
    assert "infantry" in types and "headquarters" in types and len(types) == len(set(types))
    assert panel.table.item(types.index("infantry"), 0).text() == "4"
    assert not panel.enter("infantry", "t.counter.range", "41")
    assert "41 is not a result" not in panel.last_message and "expected a whole number from 0 to 40" in \
        panel.last_message
    assert panel.enter("headquarters", "t.counter.range", "6")
    forget_books()
    assert ChartBook(slots, book.path).load().lookup("t.counter.range", ("headquarters",)) == 6
    # a ruleset with no counter slots shows nothing
    panel.slots_for = ruleset_chart_slots
    ed.oob.refresh()
    assert panel.isHidden()


def test_a_bad_cell_of_the_chart_file_is_shown_in_the_banner_and_set_aside_while_play_goes_on(window, tmp_path):
    book = tmp_path / "user" / "charts" / "demyansk.toml"
    book.parent.mkdir(parents=True)
    book.write_text('format = 1\n[charts."demyansk.crt"]\n"2-1" = { "6" = "ZZ" }\n"3-1" = { "6" = "DR1" }\n')
    forget_books()                                   # as a program started with this file would read it
    s, _ = first_battle_resolved(window)
    dock, banner = window.charts.dock, window.charts.banner
    assert dock.isVisible() and "see the banner above the map" in dock.note.text()
    assert banner.isVisible() and str(book) in banner.text.text()          # where the player looks: file and cell
    assert "charts.demyansk.crt['2-1']['6'] = 'ZZ'" in banner.text.text()
    assert "'ZZ' is not a result of Combat Results Table" in banner.full
    assert window.charts.keeper.book.lookup("demyansk.crt", ("3-1", "6")) == "DR1"     # the rest is used
    dock.choose("NE")
    assert s.game.actions_text()[-1] == "chart demyansk.crt [2-1][6] = NE"
    from engine.fileio import read_toml

    doc = read_toml(book)                            # the answer is kept, and so is the bad cell, set aside
    assert doc["charts"]["demyansk.crt"] == {"2-1": {"6": "NE"}, "3-1": {"6": "DR1"}}
    assert doc["set_aside"][0]["value"] == "ZZ" and doc["set_aside"][0]["key"] == ["2-1", "6"]
    banner.hide_btn.click()
    assert not banner.isVisible()


def test_a_book_edited_on_disk_while_the_program_runs_is_read_again_when_the_window_is_activated(window, tmp_path):
    """The owner types the missing cell into the book's file with a text editor, then comes back to the window:
    the file is read again (it changed on disk) and the question pending is answered from it."""
    from PySide6.QtCore import QEvent
    from PySide6.QtWidgets import QApplication

    s, _declare = first_battle_resolved(window)
    assert window.charts.dock.isVisible()
    book_path = tmp_path / "user" / "charts" / "demyansk.toml"
    other = ChartBook(ruleset_chart_slots("demyansk"), book_path).load()      # another program's copy of the file
    other.record("demyansk.crt", ("2-1", "6"), "DE")
    other.save()
    assert s.game.actions_text()[-1] != "chart demyansk.crt [2-1][6] = DE (owner's chart)"
    QApplication.sendEvent(window, QEvent(QEvent.WindowActivate))
    assert s.game.actions_text()[-1] == "chart demyansk.crt [2-1][6] = DE (owner's chart)"
    assert not window.charts.dock.isVisible() and window.charts.last_played


def test_a_book_read_again_keeps_the_cells_entered_here_and_not_yet_saved(tmp_path):
    slots = ruleset_chart_slots("demyansk")
    path = tmp_path / "demyansk.toml"
    mine = ChartBook(slots, path).load()
    mine.record("demyansk.crt", ("2-1", "6"), "DE")
    mine.save()
    mine.record("demyansk.crt", ("2-1", "5"), "EX")          # entered here, not saved yet
    assert not mine.reread_if_changed()                       # nothing changed on disk
    other = ChartBook(slots, path).load()
    other.record("demyansk.crt", ("3-1", "6"), "DR2")
    other.save()
    assert mine.reread_if_changed()
    assert [mine.lookup("demyansk.crt", k) for k in (("2-1", "6"), ("2-1", "5"), ("3-1", "6"))] == ["DE", "EX", "DR2"]
    mine.save()
    assert ChartBook(slots, path).load().lookup("demyansk.crt", ("2-1", "5")) == "EX"


def test_importing_a_book_of_another_chart_set_shows_that_set_and_imports_it(qtbot, tmp_path):
    """Charts > Import charts… opens the editor on its first set (demyansk); a TCS book was refused cell by cell
    ('there is no chart tcs.area_fire (expected one of demyansk.crt)'): the file's own set is shown and filled."""
    from bw_book import write_book

    book = write_book(tmp_path / "theirs")
    ed = ChartEditor(folder=tmp_path / "mine")
    qtbot.addWidget(ed)
    assert ed.set_name == "demyansk"
    assert ed.import_file(book), ed.last_message
    assert ed.set_name == "tcs" and ed.set_box.currentText() == "tcs"
    assert "imported" in ed.last_message and "the file holds the tcs charts" in ed.last_message
    assert ed.dialog is None
