"""The map editor as the GUI tests open it: its own tile cache, shown at a set size; a click at a lattice point;
a blank one-sheet map to work on."""
from __future__ import annotations

import math

import pytest
from PIL import Image
from PySide6.QtCore import QPoint, Qt

from engine.maps.mapedit import SheetSpec
from gui.mapeditor import MapEditor


def editor_fixture(size=(1200, 800)):
    """A fixture ``editor``: a shown ``MapEditor`` of ``size`` whose tile cache lies in ``tmp_path``, left with
    nothing to ask about on close."""

    @pytest.fixture
    def editor(qtbot, tmp_path):
        ed = MapEditor(cache=tmp_path / "tiles")
        qtbot.addWidget(ed)
        ed.resize(*size)
        ed.show()
        qtbot.waitExposed(ed)             # on a loaded machine the window may come up after the first clicks
        yield ed
        ed.edit = None

    return editor


def click(qtbot, ed, x, y, button=Qt.LeftButton):
    """Click the editor's view at a lattice point."""
    p = ed.view.lattice_to_viewport(x, y)
    qtbot.mouseClick(ed.view.viewport(), button, pos=QPoint(round(p.x()), round(p.y())))


def blank_map(editor, tmp_path, name="hill.png"):
    """A new map "Hill" of one 10 x 8 flat-top sheet over a plain 700 x 560 scan; returns its board."""
    Image.new("RGB", (700, 560), (240, 236, 220)).save(tmp_path / name)
    editor.new_map("Hill", "flat", [SheetSpec("A", str(tmp_path / name), 10, 8)])
    return editor.board


def trace_ring(qtbot, editor, centre, radius, level):
    """Trace a closed contour of ``level`` with the Contour tool: eight clicks round ``centre``, then Enter twice."""
    p = editor.palette
    p.contour_spin.setValue(level)
    p.contour_closed_check.setChecked(True)
    for k in range(8):
        a = 2 * math.pi * k / 8
        click(qtbot, editor, centre[0] + radius * math.cos(a), centre[1] + radius * math.sin(a))
    qtbot.keyClick(editor.view, Qt.Key_Return)
    qtbot.keyClick(editor.view, Qt.Key_Return)
