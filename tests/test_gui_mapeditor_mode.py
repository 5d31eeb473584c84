"""The map editor's contour and sheet-alignment tools (its window from the play window: test_gui_mapeditor_window)."""
from __future__ import annotations

import pytest
from PIL import Image
from PySide6.QtCore import Qt

from engine.maps.mapedit import SheetSpec

pytest.importorskip("pytestqt")

from mapeditorwindow import blank_map, editor_fixture, trace_ring  # noqa: E402


editor = editor_fixture()


def test_traced_contours_give_the_hexes_their_elevations(qtbot, editor, tmp_path):
    b = blank_map(editor, tmp_path)
    top = b.center(b.parse_hex("A05.04"))
    qtbot.keyClick(editor.view, Qt.Key_K)
    for level, radius in ((40, 2.6), (60, 0.9)):
        trace_ring(qtbot, editor, top, radius, level)
    p = editor.palette
    assert [c.elevation for c in editor.edit.contours] == [40, 60]
    p.base_spin.setValue(20)
    qtbot.mouseClick(p.derive_button, Qt.LeftButton)
    assert b.elevation[b.parse_hex("A05.04")] == 60
    assert b.elevation[b.parse_hex("A05.03")] == 40 and b.elevation[b.parse_hex("A06.04")] == 40
    assert b.elevation[b.parse_hex("A01.01")] == 20 and b.elevation[b.parse_hex("A10.08")] == 20
    editor.undo()
    assert not b.elevation


def test_a_second_sheet_is_aligned_on_a_hex_it_shares_with_the_first(qtbot, editor, tmp_path):
    for name in ("a.png", "b.png"):
        Image.new("RGB", (400, 330), (240, 236, 220)).save(tmp_path / name)
    editor.new_map("Two", "flat", [SheetSpec("A", str(tmp_path / "a.png"), 6, 4),
                                   SheetSpec("B", str(tmp_path / "b.png"), 6, 4)])
    p = editor.palette
    p.sheet_combo.setCurrentIndex(1)
    p.align_here.setText("B01.01")
    p.align_there.setText("A06.01")
    qtbot.mouseClick(p.align_button, Qt.LeftButton)
    b = editor.board
    assert b.parse_hex("B01.03") == b.parse_hex("A06.03")
    assert len(b.hexes()) == 6 * 4 * 2 - 4
    editor.undo()
    assert len(b.hexes()) == 24                      # both sheets on one spot again
    assert b.parse_hex("B01.01") == b.parse_hex("A01.01")
