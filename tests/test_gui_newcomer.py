"""What confused a newcomer on the first-time path: a hover message that outlived its hex, units that may act
hard to see at the opening zoom, a new map offered the last map's terrains, a ruleset typed by hand."""
from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image
from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QColor, QMouseEvent
from PySide6.QtWidgets import QApplication, QComboBox

from engine.maps.mapedit import STARTER_TERRAINS, SheetSpec
from engine.maps.mapfile import load_map
from engine.scenario import Side
from engine.scenario import edit as E
from engine.scenario.load import load_scenario
from gui.play.window import MainWindow
from playwindow import play_window

ROOT = Path(__file__).resolve().parent.parent
TRAPPED = ROOT / "scenarios" / "demyansk-1-trapped.toml"
DEMO = ROOT / "maps" / "demo.toml"
CLASSIC_RULES = ROOT / "scenarios" / "rules" / "demyansk-classic.toml"


@pytest.fixture
def window(qtbot, tmp_path):
    win = play_window(qtbot, tmp_path, TRAPPED, size=(1100, 760))
    win.start_new_game(5)
    return win


def to_phase(win, phase):
    while win.session.state.phase != phase:
        win.phase_bar.next_act.trigger()


def hex_of(win, uid):
    return next(h for u, h in win.session.pieces() if u.id == uid)


def hover(view, h):
    """The pointer moved over hex ``h`` (a mouse move event, as the window system sends it)."""
    pos = QPointF(view.mapFromScene(view.hex_centre(h)))
    event = QMouseEvent(QEvent.MouseMove, pos, QPointF(view.viewport().mapToGlobal(pos.toPoint())),
                        Qt.NoButton, Qt.NoButton, Qt.NoModifier)
    QApplication.sendEvent(view.viewport(), event)


# ---------------------------------------------------------------- 1. the hover message
def test_the_hover_message_goes_when_the_pointer_leaves_the_map(window, qtbot):
    view = window.map_view
    h = hex_of(window, "ger-18mot-30")
    hover(view, h)
    assert "ger-18mot-30" in window.hover_label.text()
    QApplication.sendEvent(view, QEvent(QEvent.Leave))
    assert window.hover_label.text() == ""


def test_after_a_move_the_hover_message_describes_the_hex_as_it_now_is(window, qtbot):
    view = window.map_view
    to_phase(window, "german-mechanized-movement")
    frm, to = hex_of(window, "ger-18mot-30"), view.board.parse_hex("1008")
    vp = view.viewport()
    a, b = view.mapFromScene(view.hex_centre(frm)), view.mapFromScene(view.hex_centre(to))
    qtbot.mousePress(vp, Qt.LeftButton, pos=a)
    qtbot.mouseMove(vp, a + QPoint(10, 4))
    qtbot.mouseMove(vp, b)
    assert window.hover_label.text().startswith("1008: legal")          # what a drop here would mean
    qtbot.mouseRelease(vp, Qt.LeftButton, pos=b)
    assert hex_of(window, "ger-18mot-30") == to
    text = window.hover_label.text()
    assert "legal" not in text                                           # the drop is done: that no longer applies
    assert text.startswith("1008") and "1 unit(s): ger-18mot-30" in text


def test_a_new_board_drops_the_last_boards_hover_message(window, qtbot):
    view = window.map_view
    hover(view, hex_of(window, "ger-18mot-30"))
    assert window.hover_label.text()
    view.show_board(load_map(DEMO))
    assert window.hover_label.text() == ""


# ---------------------------------------------------------------- 2. the units that may act, seen at the opening zoom
def test_units_that_may_act_are_framed_boldly_and_never_smaller_than_a_readable_square(window, qtbot):
    view = window.map_view
    to_phase(window, "german-mechanized-movement")
    assert view._fitted and view.zoom() < 0.6                            # the whole map: counters are small
    ready = view.ready_hexes()
    assert ready
    view.ready_marks.update()
    QApplication.processEvents()
    image = view.viewport().grab().toImage()
    marks = view.ready_marks
    for h in sorted(ready)[:3]:
        counter = view.mapFromScene(view.counters.counter_rect(h)).boundingRect()
        assert counter.width() < marks.min_px                            # the counter alone is smaller than that
        centre = counter.center()
        # the frame's bright line, found walking out from the counter's centre along its row and its column
        found = []
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            for step in range(1, 40):
                c = QColor(image.pixel(centre.x() + dx * step, centre.y() + dy * step))
                if c.blue() > 200 and c.green() > 180 and c.red() < 80:
                    found.append(step)
                    break
        assert len(found) == 4, (h, found)                                # framed on all four sides
        assert min(found) >= marks.min_px / 2 - 3                         # at least min_px across on the screen


# ---------------------------------------------------------------- 3. a new map's palette
def test_a_new_map_offers_the_starter_terrains_not_the_last_maps(qtbot, tmp_path):
    from gui.mapeditor import MapEditor

    ed = MapEditor(cache=tmp_path / "tiles")
    qtbot.addWidget(ed)
    ed.resize(1100, 760)
    ed.show()
    ed.open_board(load_map(DEMO))
    listed = lambda: [ed.palette.terrain_list.item(i).text() for i in range(ed.palette.terrain_list.count())]
    assert "bog" in listed()                                             # the open map's own terrain
    Image.new("RGB", (600, 500), (240, 236, 220)).save(tmp_path / "scan.png")
    ed.new_map("Mine", "flat", [SheetSpec("A", str(tmp_path / "scan.png"), 8, 6)])
    assert listed() == list(STARTER_TERRAINS)
    assert ed.palette.terrain() == "clear"


# ---------------------------------------------------------------- 5. the ruleset: a list, and a rules file by a dialog
@pytest.fixture
def editor(qtbot, tmp_path):
    from scenarioeditorwindow import scenario_editor

    return scenario_editor(qtbot, tmp_path / "tiles", (1300, 900))


def test_the_ruleset_is_chosen_from_the_installed_ones_not_typed(editor):
    editor.new_scenario(DEMO, [Side("blue", "Blue", "#3050c0"), Side("red", "Red", "#c03030")])
    box = editor.page.s_ruleset
    assert isinstance(box, QComboBox) and not box.isEditable()
    assert [box.itemText(i) for i in range(box.count())] == [r.name for r in E.installed_rulesets()]


def test_a_rules_file_is_chosen_for_the_classic_ruleset_and_saved_relative_to_the_scenario(editor, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    editor.new_scenario(ROOT / "maps" / "demyansk.toml", [Side("german", "German", "#607080"), Side("soviet", "Soviet", "#a04020")])
    p = editor.page
    p.s_ruleset.setCurrentText("demyansk")
    assert not p.rules_file_button.isEnabled()                           # its rules are code: no file to choose
    assert not p.choose_rules_file(str(CLASSIC_RULES))
    assert "takes no rules file" in editor.last_message
    p.s_ruleset.setCurrentText("classic")
    assert p.rules_file_button.isEnabled() and not p.own_rules_button.isEnabled()
    asked = []
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        lambda *a, **k: asked.append(a) or (str(CLASSIC_RULES), "Rules (*.toml)"))
    p.rules_file_button.click()
    assert Path(asked[0][2]) == CLASSIC_RULES.parent                      # starts among the shipped rules files
    s = editor.scenario
    assert s.ruleset == "classic" and E.rules_file(s) == CLASSIC_RULES.resolve()
    assert "demyansk-classic.toml" in p.rules_file_label.text() and p.own_rules_button.isEnabled()
    assert editor.check() == [], editor.check()
    out = tmp_path / "mine" / "scenario.toml"
    out.parent.mkdir()
    assert editor.save(out), editor.last_message
    again = load_scenario(out)
    assert again.rules == Path(__import__("os").path.relpath(CLASSIC_RULES, out.parent)).as_posix()
    assert E.rules_file(again) == CLASSIC_RULES.resolve()
    p.own_rules_button.click()
    assert E.rules_file(editor.scenario) is None and not p.own_rules_button.isEnabled()


# ---------------------------------------------------------------- leaving the scenario editor
def test_closing_the_scenario_editor_with_unsaved_changes_asks_and_never_loses_them(qtbot, tmp_path):
    from PySide6.QtWidgets import QMessageBox

    win = MainWindow(cache=tmp_path / "cache", autosave=tmp_path / "autosave.toml")
    qtbot.addWidget(win)
    win.show()
    ed = win.open_scenario_editor()
    close = next(a for a in ed.menuBar().actions()[0].menu().actions() if a.text() == "&Close the editor")
    ed.new_scenario(DEMO, [Side("blue", "Blue", "#3050c0"), Side("red", "Red", "#c03030")], id="mine", ruleset="classic")
    assert ed.edit(lambda s: E.set_turns(s, 1, 4, []), "turns")
    asked = []
    ed.ask_to_save = lambda: asked.append(1) or QMessageBox.Cancel
    close.trigger()
    assert asked and ed.isVisible() and ed.scenario.last_turn == 4          # Cancel: the editor stays, edits kept
    out = tmp_path / "mine.toml"
    ed.path = out
    ed.ask_to_save = lambda: QMessageBox.Save
    close.trigger()
    assert not ed.isVisible(), ed.last_message
    assert load_scenario(out).last_turn == 4                                 # Save: written, then closed
    ed = win.open_scenario_editor()
    ed.new_scenario(DEMO, [Side("blue", "Blue", "#3050c0")], id="other")
    assert ed.edit(lambda s: E.set_turns(s, 1, 3, []), "turns")
    ed.ask_to_save = lambda: QMessageBox.Discard
    ed.close()
    assert not ed.isVisible()


def test_a_new_scenario_from_the_menu_starts_with_the_classic_rules_that_play_any_sides(editor, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(DEMO), "Maps (*.toml)"))
    new = next(a for a in editor.menuBar().actions()[0].menu().actions() if a.text() == "&New on a map…")
    new.trigger()
    assert editor.scenario.ruleset == "classic" and editor.page.s_ruleset.currentText() == "classic"
    assert editor.page.side_problem.isHidden()                             # no "add the sides german, soviet"


# ---------------------------------------------------------------- calibration: only a click that disagrees is marked
def test_only_a_calibration_click_that_disagrees_with_the_fit_is_marked(qtbot, tmp_path):
    from gui.mapeditor import MapEditor

    ed = MapEditor(cache=tmp_path / "tiles")
    qtbot.addWidget(ed)
    ed.show()
    Image.new("RGB", (600, 500), (240, 236, 220)).save(tmp_path / "scan.png")
    board = ed.new_map("Mine", "flat", [SheetSpec("A", str(tmp_path / "scan.png"), 8, 6)])
    sheet = board.sheets[0]
    ids = ["A01.01", "A08.01", "A01.06", "A08.06"]
    exact = [(hid, sheet.transform.apply(*board.center(board.parse_hex(hid)))) for hid in ids]
    fit = board.fit_sheet(sheet, exact)
    assert fit.suspect() is None                                           # every click where its hex is
    ed.palette.show_clicks(exact, fit)
    table = ed.palette.click_table
    marked = lambda: [r for r in range(table.rowCount()) if table.item(r, 0).background().color() == QColor(255, 190, 190)]
    assert marked() == []                                                  # was: a row in red at 0.00 px
    u, v = exact[2][1]
    off = exact[:2] + [(ids[2], (u + sheet.transform.scale * 0.6, v))] + exact[3:]
    fit = board.fit_sheet(sheet, off)
    assert fit.suspect() == 2
    ed.palette.show_clicks(off, fit)
    assert marked() == [2]


def test_a_status_message_too_long_for_the_bar_can_be_read_whole_on_hovering(window):
    long = "Computer: attack 1412 with sov-7gd, sov-rb-14 and sov-rb-127 at 3:1 — " + "a result that goes on " * 12
    window.statusBar().showMessage(long, 8000)
    assert window.statusBar().toolTip() == long
    window.statusBar().clearMessage()
    assert window.statusBar().toolTip() == ""
