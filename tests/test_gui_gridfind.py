"""Find the grid in the map editor: a new map from a scan, the grid found in the background, one id typed, accepted."""
from __future__ import annotations

import math

import pytest

from engine.maps.mapedit import SheetSpec
from engine.maps.scanset import make_scan

pytest.importorskip("pytestqt")

from PySide6.QtCore import Qt  # noqa: E402

from gui.mapeditor import MapEditor  # noqa: E402
from mapeditorwindow import editor_fixture  # noqa: E402


editor = editor_fixture()


def test_find_the_grid_type_one_id_accept_then_undo(qtbot, editor, tmp_path):
    scan = make_scan(21, width=760, height=560, hex_px=52.0, orientation="pointy", rotation=1.8, stretch=0.025)
    path = tmp_path / "scan.png"
    scan.image.save(path)
    # New map says which printed rows are shifted (the scan's own); the size and orientation are left wrong
    editor.new_map("Scan", "flat", [SheetSpec("A", str(path), 10, 10, shifted=scan.sheet.numbering.shifted)])
    before = editor.board.sheets[0].transform
    qtbot.mouseClick(editor.palette.find_grid_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: editor.grid_finder.job is not None and editor.grid_finder.job.finished, timeout=30000)
    prop = editor.grid_finder.proposal
    assert prop is not None and prop.found, editor.palette.grid_label.text()
    assert editor.palette.grid_answer.isVisibleTo(editor.palette)
    assert editor.palette.grid_id_edit.text() == "A01.01"          # the numbering's origin is suggested
    editor.view.grid.blocks_drawn = -1
    editor.view.refresh()
    editor.view.viewport().repaint()
    assert editor.view.grid.blocks_drawn == -1                       # the grid it would replace is not drawn under it
    # the highlighted hex is the found sheet's first hex: name it as the scan prints it (sheet A, TCS style)
    truth_sheet = scan.sheet
    u, v = prop.centre(0, 0)
    x, y = truth_sheet.transform.inverse().apply(u, v)
    col, row = truth_sheet.numbering.hex_to_colrow(scan.board.hex_at(x, y))
    typed = f"A{col:02d}.{row:02d}"
    edit = editor.palette.grid_id_edit
    edit.selectAll()
    qtbot.keyClicks(edit, typed)
    qtbot.mouseClick(editor.palette.grid_accept_button, Qt.LeftButton)
    board, sheet = editor.board, editor.board.sheets[0]
    assert board.orientation == "pointy" and editor.grid_finder.proposal is None
    # the program's ids are now drawn over the scan's: where the user looks, how to hide them
    hint = "If the scan prints its own hex ids, View > The scans print hex ids hides these."
    assert editor.palette.grid_label.text().endswith(hint)
    assert editor.ids_act.toolTip().endswith(hint)
    editor.view.viewport().repaint()
    assert editor.view.grid.blocks_drawn > 0                         # the map's grid is drawn again, the found one
    assert editor.edit.calibrations["A"].fit is not None and len(editor.edit.calibrations["A"].clicks) == 5
    # every hex printed whole on the scan is where the map now puts the hex of the same printed column and row
    checked = 0
    for hid, (tu, tv) in scan.centres().items():
        c, r = truth_sheet.numbering.hex_to_colrow(truth_sheet.numbering.parse(hid))
        mine = f"A{c:02d}.{r:02d}"
        if not sheet.numbering.matches(mine) or not sheet.numbering.contains_colrow(c, r):
            continue
        mu, mv = sheet.transform.apply(*board.center(sheet.numbering.parse(mine)))
        assert math.hypot(mu - tu, mv - tv) <= 2.0, mine
        checked += 1
    assert checked >= 0.8 * len(scan.whole)
    assert "find the grid" in editor.undo_act.text()
    editor.undo()
    assert editor.board.orientation == "flat"
    assert editor.board.sheets[0].transform == before
    assert (editor.board.sheets[0].numbering.cols, editor.board.sheets[0].numbering.rows) == (10, 10)


def test_no_grid_on_a_blank_scan_is_said_plainly(qtbot, editor, tmp_path):
    from PIL import Image

    path = tmp_path / "blank.png"
    Image.new("RGB", (500, 400), (245, 240, 230)).save(path)
    editor.new_map("Blank", "flat", [SheetSpec("A", str(path), 6, 5)])
    editor.find_grid_act.trigger()
    qtbot.waitUntil(lambda: editor.grid_finder.job.finished, timeout=10000)
    assert editor.grid_finder.proposal is None
    assert editor.palette.grid_label.text().startswith("No grid found: the image is blank")
    assert not editor.edit.can_undo()


def test_closing_the_editor_while_the_search_runs_is_quiet(qtbot, tmp_path):
    import threading

    import shiboken6
    from PySide6.QtWidgets import QApplication

    scan = make_scan(2, width=700, height=520)
    path = tmp_path / "scan.png"
    scan.image.save(path)
    ed = MapEditor(cache=tmp_path / "tiles")
    ed.show()
    ed.new_map("Scan", "flat", [SheetSpec("A", str(path), 10, 10)])
    ed.find_grid_act.trigger()
    job = ed.grid_finder.job
    thread = job._thread
    errors = []
    old_hook = threading.excepthook
    threading.excepthook = lambda args: errors.append(args.exc_value)
    try:
        ed.edit = None
        ed.close()
        shiboken6.delete(ed)               # the window and its job go at once, the search still running
        del job
        thread.join(30)
        QApplication.processEvents()
    finally:
        threading.excepthook = old_hook
    assert not thread.is_alive() and errors == []


def test_a_refused_search_asks_for_two_hex_centres_and_they_decide_the_grid(qtbot, editor, tmp_path):
    from PIL import Image, ImageDraw
    from PySide6.QtCore import QPoint

    from engine.maps.hexes import Hex, Layout

    # a clean grid of big flat hexes (140 px across the corners) on a page that holds only four of them whole:
    # too few for the search to be sure of, but the lines are there
    lay = Layout("flat", 70.0, (0.0, 0.0))
    im = Image.new("L", (420, 330), 255)
    d = ImageDraw.Draw(im)
    for q in range(-2, 6):
        for r in range(-4, 6):
            pts = lay.polygon_corners(Hex(q, r))
            d.line(pts + [pts[0]], fill=0, width=2)
    path = tmp_path / "big-hexes.png"
    im.convert("RGB").save(path)
    editor.new_map("Big hexes", "pointy", [SheetSpec("A", str(path), 10, 10)])
    qtbot.mouseClick(editor.palette.find_grid_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: editor.grid_finder.job is not None and editor.grid_finder.job.finished, timeout=30000)
    assert editor.grid_finder.proposal is None
    said = editor.palette.grid_label.text()
    assert "No sure grid" in said and "px" in said and "Click the centre of a hex" in said
    assert editor.grid_finder.wants_clicks
    # two neighbouring centres, clicked on the scan a pixel or so off: hexes (1, 0) and (2, 0) of the drawing
    sheet = editor.board.sheets[0]
    first_job = editor.grid_finder.job
    for (x, y) in ((105.5, 61.1 + 1), (210.5 - 1, 121.7)):
        p = editor.view.image_to_viewport(sheet, x, y)
        qtbot.mouseClick(editor.view.viewport(), Qt.LeftButton, pos=QPoint(round(p.x()), round(p.y())))
    qtbot.waitUntil(lambda: editor.grid_finder.job is not first_job and editor.grid_finder.job.finished,
                    timeout=30000)
    prop = editor.grid_finder.proposal
    assert prop is not None and prop.found, editor.palette.grid_label.text()
    assert prop.orientation == "flat" and abs(prop.hex_px - 70 * 3 ** 0.5) < 0.5
    assert editor.palette.grid_answer.isVisibleTo(editor.palette)
    first = editor.palette.grid_id_edit.text()                       # the numbering's first hex, suggested
    qtbot.mouseClick(editor.palette.grid_accept_button, Qt.LeftButton)
    assert editor.board.orientation == "flat" and editor.grid_finder.proposal is None, editor.palette.grid_label.text()
    # the map's first hex sits on the first column's top hex printed whole: (1, 1) of the drawing (the top of
    # (1, 0) is cut by the page)
    b = editor.board
    u, v = b.sheets[0].transform.apply(*b.center(b.sheets[0].numbering.parse(first)))
    assert abs(u - 105.5) < 1.5 and abs(v - 182.4) < 1.5
