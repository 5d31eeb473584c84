"""The scenario editor keeps what was typed, maps sides onto the ruleset's, colours counters by side, shows and
places units that are not placed, and hands the scenario to the play window in front."""
from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QApplication, QPushButton

from engine.scenario import Deployment, Side, Unit
from engine.scenario import edit as E
from gui.scenarioeditor.orderofbattle import NOT_PLACED, UNIT_MIME
from scenarioeditorwindow import scenario_editor

ROOT = Path(__file__).resolve().parent.parent
MAP = ROOT / "maps" / "demyansk.toml"


@pytest.fixture
def editor(qtbot, tmp_path_factory):
    return scenario_editor(qtbot, tmp_path_factory.mktemp("tiles"), (1300, 900))


def button(widget, text):
    return next(b for b in widget.findChildren(QPushButton) if b.text() == text)


def click(b):
    b.click()
    QApplication.processEvents()


def test_add_side_keeps_the_unapplied_id_name_and_turns(editor):
    editor.new_scenario(MAP, [Side("german", "German", "#7d8ea3")])
    p = editor.page
    p.s_id.setText("hold-the-line")
    p.s_name.setText("Hold the line")
    p.last.setValue(6)
    p.names.setPlainText("day 1")
    for w, text in zip(p.new_side, ("soviet", "Soviet", "#9a6a3c")):
        w.setText(text)
    click(button(p, "Add side"))
    assert list(editor.scenario.sides) == ["german", "soviet"]
    assert (p.s_id.text(), p.s_name.text(), p.last.value(), p.names.toPlainText()) == \
        ("hold-the-line", "Hold the line", 6, "day 1")                   # nothing typed is lost
    assert [p.first_side.itemText(i) for i in range(p.first_side.count())] == ["german", "soviet"]
    p.names.setPlainText("")
    click(button(p, "Apply"))
    s = editor.scenario
    assert (s.id, s.name, s.last_turn) == ("hold-the-line", "Hold the line", 6)
    editor.undo()                                                         # applied fields follow the scenario
    assert (p.s_id.text(), p.last.value()) == ("new", 10)


def blue_red(editor):
    editor.new_scenario(MAP, [Side("blue", "Blue", "#3050c0"), Side("red", "Red", "#f0d040")], id="br")
    editor.edit(lambda s: E.set_deployment(s, Deployment("b", "blue", 1, E.within(2, "0707"), ())))
    editor.edit(lambda s: E.set_deployment(s, Deployment("r", "red", 2, E.within(2, "1210"), ())))
    for uid, side, hid, group in (("b-1", "blue", "0707", "b"), ("r-1", "red", "1210", "r")):
        unit = Unit(id=uid, side=side, type="infantry", size="regiment", attack=3, defense=4, movement=5, hex=hid)
        editor.edit(lambda s, u=unit, g=group: E.add_unit(s, u, g))


def test_sides_that_are_not_the_rulesets_are_refused_and_mapped_onto_them(editor):
    blue_red(editor)
    p = editor.page
    rulesets = [p.s_ruleset.itemText(i) for i in range(p.s_ruleset.count())]
    assert "demyansk" in rulesets and "scw" not in rulesets              # the installed rulesets, as a list
    assert "plays the sides: german (German), soviet (Soviet)" in p.ruleset_sides.text()
    assert not p.side_problem.isHidden() and "do not match" in p.side_problem.text()
    assert [x.key for x in editor.check()] == ["sides"]                  # Check refuses the scenario
    assert not editor.play_headless()
    assert not p.side_map_box.isHidden()
    assert {k: c.currentText() for k, c in p.side_map.items()} == {"blue": "german", "red": "soviet"}
    p.side_map["red"].setCurrentText("german")
    assert not p.map_sides()                                             # refused, with the reason
    assert "two sides would both become 'german'" in editor.last_message and "blue" in editor.scenario.sides
    p.side_map["red"].setCurrentText("soviet")
    click(p.map_sides_button)
    s = editor.scenario
    assert list(s.sides) == ["german", "soviet"] and s.units["b-1"].side == "german"
    assert editor.check() == [] and p.side_problem.isHidden() and p.side_map_box.isHidden()


def test_the_side_colour_chosen_colours_that_sides_counters(editor):
    editor.new_scenario(MAP, [])
    p = editor.page
    for sid, colour in (("blue", "#3050c0"), ("red", "#f0d040")):        # sides added in the editor
        for w, text in zip(p.new_side, (sid, sid.title(), colour)):
            w.setText(text)
        click(button(p, "Add side"))
    for uid, side in (("b-1", "blue"), ("r-1", "red")):
        unit = Unit(id=uid, side=side, type="infantry", size="regiment", attack=3, defense=4, movement=5)
        editor.edit(lambda s, u=unit: E.add_unit(s, u))
    art = editor.map_view.art
    colours = [art.colours(editor.scenario.units[u])[0].name() for u in ("b-1", "r-1")]
    assert colours == ["#3050c0", "#f0d040"]
    click(p.map_sides_button)                                            # renamed german and soviet: same colours
    art = editor.map_view.art
    assert [art.colours(editor.scenario.units[u])[0].name() for u in ("b-1", "r-1")] == colours
    assert editor.scenario.units["b-1"].side == "german"


def test_a_unit_without_a_hex_shows_as_not_placed_and_a_drop_places_it(editor):
    blue_red(editor)
    unit = Unit(id="b-2", side="blue", type="infantry", size="regiment", attack=3, defense=4, movement=5)
    editor.edit(lambda s: E.add_unit(s, unit))                             # in no set-up group, no hex
    tree = editor.oob.tree
    items = {tree.topLevelItem(0).child(i).text(0): tree.topLevelItem(0).child(i)
             for i in range(tree.topLevelItem(0).childCount())}
    row = items.get("b-2") or next(it.child(j) for it in items.values() for j in range(it.childCount())
                                   if it.child(j).text(0) == "b-2")
    assert row.text(2) == NOT_PLACED and "1 not placed" in tree.topLevelItem(0).text(0)
    view = editor.map_view
    target = editor.board.parse_hex("0708")
    data = QMimeData()
    data.setData(UNIT_MIME, b"b-2")
    drop = QDropEvent(QPointF(view.mapFromScene(view.hex_centre(target))), Qt.MoveAction, data, Qt.LeftButton,
                      Qt.NoModifier)
    assert editor._drop.eventFilter(view.viewport(), drop) is True
    s = editor.scenario
    assert s.units["b-2"].hex == "0708" and s.deployment_of()["b-2"] == "b"
    assert E.not_placed(s) == []


def test_open_in_the_play_window_brings_the_play_window_to_the_front(qtbot, tmp_path):
    from gui.play.window import MainWindow

    win = MainWindow(cache=tmp_path / "tiles", autosave=tmp_path / "autosave.toml")
    qtbot.addWidget(win)
    win.show()
    assert win.open_file(ROOT / "scenarios" / "demyansk-1-trapped.toml")
    ed = win.open_scenario_editor()
    ed.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is ed)
    ed.path = tmp_path / "copy.toml"
    ed.dirty = True
    ed._open_in_play()
    assert Path(win.scenario.path) == tmp_path / "copy.toml"
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win)
    ed.close()


@pytest.mark.parametrize("ruleset", ["classic", "free"])
def test_a_ruleset_for_any_sides_is_described_in_words_not_markup(editor, ruleset):
    editor.new_scenario(MAP, [])
    p = editor.page
    p.s_ruleset.setCurrentText(ruleset)
    QApplication.processEvents()
    shown = p.ruleset_sides.text()
    assert shown.endswith("— plays any sides")
    assert "`" not in shown and "ruleset =" not in shown                 # was: ``ruleset = "classic"`` — plays any sides
    assert E.installed_rulesets() and all("`" not in r.title for r in E.installed_rulesets())



def test_saving_a_new_scenario_suggests_its_id_in_the_users_folder_never_the_programs(editor, tmp_path, monkeypatch):
    """A new scenario on a shipped map is offered the user's Sandtable folder (beside the map would be the
    program's own maps folder); a shipped scenario opened and changed is saved as the user's own."""
    from PySide6.QtWidgets import QFileDialog

    from gui.common.settings import last_folder
    from gui.common.userfolders import games_folder
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "home").mkdir()
    editor.new_scenario(MAP, [Side("reds", "Red Band", "#c03030")], id="valley-raid")
    offered = []

    def answer(parent, title, start, filter):
        offered.append(start)
        return str(tmp_path / "raid.toml"), filter             # the user picks another place
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(answer))
    editor.save()                                               # no file yet: the dialog asks where
    assert offered == [str(games_folder() / "valley-raid.toml")]      # not beside the shipped map
    assert (tmp_path / "raid.toml").is_file() and last_folder() == tmp_path
    assert editor.save_suggestion() == tmp_path / "raid.toml"  # once saved, Save as offers its own file
    shipped = MAP.parent.parent / "scenarios" / "demyansk-1-trapped.toml"
    before = shipped.read_bytes()
    assert editor.open_scenario(shipped) is not False
    editor.dirty = True
    offered.clear()
    editor.save()                                               # Ctrl+S on a shipped scenario: Save as, the user's
    assert offered == [str(games_folder() / "demyansk-1-trapped.toml")] and shipped.read_bytes() == before
    assert editor.path == tmp_path / "raid.toml"               # where the user chose in the dialog
