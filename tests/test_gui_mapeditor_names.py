"""The map editor's palette: contours kept across save and reopen, named things deleted and renamed, legend letters."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from engine.maps.mapfile import load_map

pytest.importorskip("pytestqt")

from gui.mapeditor import MapEditor  # noqa: E402
from mapeditorwindow import blank_map, click, editor_fixture, trace_ring  # noqa: E402


editor = editor_fixture()


def listed(editor) -> list[str]:
    lst = editor.palette.names_list
    return [lst.item(i).text() for i in range(lst.count())]


def test_traced_contours_are_saved_and_come_back_when_the_map_is_reopened(qtbot, editor, tmp_path):
    b = blank_map(editor, tmp_path)
    top = b.center(b.parse_hex("A05.04"))
    qtbot.keyClick(editor.view, Qt.Key_K)
    trace_ring(qtbot, editor, top, 2.6, 40)
    trace_ring(qtbot, editor, top, 0.9, 60)
    traced = [(c.elevation, [tuple(pt) for pt in c.points]) for c in b.contours]
    out = tmp_path / "hill.toml"
    assert editor.save(out), editor.last_message
    assert "[[contours]]" in out.read_text()

    again = MapEditor(cache=tmp_path / "tiles2")
    qtbot.addWidget(again)
    assert again.open_file(out)
    got = again.board.contours
    assert [c.elevation for c in got] == [40.0, 60.0] and all(c.closed for c in got)
    scale = b.sheets[0].transform.scale              # points are saved to a thousandth of a scan pixel
    for (level, pts), c in zip(traced, got):
        assert c.points == [pytest.approx(pt, abs=1e-3 / scale) for pt in pts]
    assert listed(again)[-2:] == ["contour 1: 40 m (closed ring)", "contour 2: 60 m (closed ring)"]
    again.palette.base_spin.setValue(20)
    qtbot.mouseClick(again.palette.derive_button, Qt.LeftButton)
    rb = again.board
    assert rb.elevation[rb.parse_hex("A05.04")] == 60 and rb.elevation[rb.parse_hex("A05.03")] == 40
    assert rb.elevation[rb.parse_hex("A01.01")] == 20
    again.edit = None


def test_named_things_are_renamed_and_deleted_from_the_palette_with_undo(qtbot, editor, tmp_path):
    b = blank_map(editor, tmp_path)
    ed = editor.edit
    ed.name_area("Krasni Bor", "town", [b.parse_hex("A03.03"), b.parse_hex("A03.04")])
    ed.name_line("start line", "start", [])
    ed.add_box("dead", "Dead pile", "dead")
    ed.add_obstacle("woods", 20, [(1.0, 1.0), (3.0, 1.0), (3.0, 3.0)])
    editor.changed()
    qtbot.keyClick(editor.view, Qt.Key_N)
    p = editor.palette
    assert listed(editor) == ["area: Krasni Bor (town, 2 hexes)", "line: start line (start, 0 hexsides)",
                              "box: dead — Dead pile (dead)", "obstacle 1: woods 20 m (3 points)"]
    assert editor.choose_named("area", "Krasni Bor")
    assert p.rename_edit.text() == "Krasni Bor" and not p.rename_id_edit.isEnabled()
    assert sorted(editor.marked) == sorted([b.parse_hex("A03.03"), b.parse_hex("A03.04")])
    p.rename_edit.setText("Krasny Bor")
    qtbot.mouseClick(p.rename_button, Qt.LeftButton)
    assert list(b.areas) == ["Krasny Bor"] and editor.chosen_named() == ("area", "Krasny Bor")

    assert editor.choose_named("box", "dead")
    assert (p.rename_edit.text(), p.rename_id_edit.text()) == ("Dead pile", "dead")
    p.rename_id_edit.setText("eliminated")
    p.rename_edit.setText("Eliminated units")
    qtbot.mouseClick(p.rename_button, Qt.LeftButton)
    assert list(b.boxes) == ["eliminated"] and b.boxes["eliminated"].name == "Eliminated units"

    assert editor.choose_named("line", "start line")
    p.rename_edit.setText("Krasny Bor")                 # a line may share a name with an area
    qtbot.mouseClick(p.rename_button, Qt.LeftButton)
    assert list(b.lines) == ["Krasny Bor"]
    ed.name_line("perimeter", "perimeter", [])
    editor.changed()
    assert editor.choose_named("line", "perimeter")
    p.rename_edit.setText("Krasny Bor")
    qtbot.mouseClick(p.rename_button, Qt.LeftButton)
    assert editor.last_message == "another line is already called 'Krasny Bor'"
    assert sorted(b.lines) == ["Krasny Bor", "perimeter"]

    for what, key in (("obstacle", 0), ("area", "Krasny Bor"), ("box", "eliminated"), ("line", "perimeter")):
        assert editor.choose_named(what, key)
        qtbot.mouseClick(p.delete_named_button, Qt.LeftButton)
    assert not b.obstacles and not b.areas and not b.boxes and list(b.lines) == ["Krasny Bor"]
    assert listed(editor) == ["line: Krasny Bor (start, 0 hexsides)"]
    assert editor.undo_act.text() == "&Undo delete line perimeter"
    for _ in range(4):
        editor.undo()
    assert b.obstacles and list(b.areas) == ["Krasny Bor"] and list(b.boxes) == ["eliminated"]
    assert "obstacle 1: woods 20 m (3 points)" in listed(editor)


def test_a_contour_is_deleted_from_the_palette_and_the_file_no_longer_has_it(qtbot, editor, tmp_path):
    b = blank_map(editor, tmp_path)
    qtbot.keyClick(editor.view, Qt.Key_K)
    trace_ring(qtbot, editor, b.center(b.parse_hex("A05.04")), 2.6, 40)
    trace_ring(qtbot, editor, b.center(b.parse_hex("A05.04")), 0.9, 60)
    assert editor.choose_named("contour", 0)
    qtbot.mouseClick(editor.palette.delete_named_button, Qt.LeftButton)
    assert [c.elevation for c in b.contours] == [60.0]
    assert editor.choose_named("contour", 0)
    editor.palette.names_list.setFocus()
    qtbot.keyClick(editor.palette.names_list, Qt.Key_Delete)      # the Delete key in the list does the same
    assert not b.contours
    editor.undo()
    out = tmp_path / "one.toml"
    assert editor.save(out), editor.last_message
    assert [c.elevation for c in load_map(out).contours] == [60.0]


def test_a_terrain_letter_is_shown_and_changed_unless_another_terrain_has_it(qtbot, editor, tmp_path):
    b = blank_map(editor, tmp_path)
    p = editor.palette
    qtbot.keyClick(editor.view, Qt.Key_P)
    for name in ("clear", "woods"):
        p.terrain_list.setCurrentItem(p.terrain_list.findItems(name, Qt.MatchExactly)[0])
        click(qtbot, editor, *b.center(b.parse_hex("A01.01" if name == "clear" else "A02.01")))
    assert b.legend == {"c": "clear", "w": "woods"}
    assert p.legend_letter.text() == "w"
    p.legend_letter.setText("c")
    qtbot.mouseClick(p.legend_letter_button, Qt.LeftButton)
    assert editor.last_message == "the letter 'c' already codes 'clear': give that terrain another letter first"
    assert b.legend == {"c": "clear", "w": "woods"} and p.legend_letter.text() == "w"
    p.legend_letter.setText("f")
    qtbot.keyClick(p.legend_letter, Qt.Key_Return)
    assert b.legend == {"c": "clear", "f": "woods"}
    p.terrain_list.setCurrentItem(p.terrain_list.findItems("clear", Qt.MatchExactly)[0])
    assert p.legend_letter.text() == "c"
    out = tmp_path / "letters.toml"
    assert editor.save(out), editor.last_message
    assert 'f = "woods"' in out.read_text()
    assert load_map(out).terrain[b.parse_hex("A02.01")] == "woods"
    editor.undo()
    assert b.legend == {"c": "clear", "w": "woods"}
