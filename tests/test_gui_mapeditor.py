"""The map editor driven with the mouse and keyboard: calibration of a skewed scan, painting, tracing, names, save."""
from __future__ import annotations

import math
import shutil

import pytest
from PIL import Image
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication

from engine.maps.board import Affine, Area
from engine.maps.hexes import hexside
from engine.maps.mapedit import SheetSpec, new_board
from engine.maps.mapfile import load_map

pytest.importorskip("pytestqt")

from mapeditorwindow import click, editor_fixture  # noqa: E402

ANGLE = 1.5       # degrees the scan is rotated by
STRETCH = 1.03    # the scan's y scale over its x scale


def skewed_scan(tmp_path, cols=12, rows=10):
    """A printed-looking map drawn by the map art, then rotated and stretched with Pillow.

    Returns the image path and the true lattice-to-image transform of the skewed scan.
    """
    from engine.maps.art import render_sheet

    board = new_board("Scan", "flat", [SheetSpec("A", "x.png", cols, rows)])
    for h in board.hexes():
        board.terrain[h] = "woods" if (h.q + 2 * h.r) % 7 == 0 else "clear"
    art = render_sheet(board, board.sheets[0], px_per_hex=56, supersample=1)
    w, h = art.image.size
    a = math.radians(ANGLE)
    sx, sy = 1.0, STRETCH
    # M: drawn pixels -> scan pixels (rotate about the centre, then stretch), plus a margin
    m = [[sx * math.cos(a), -sx * math.sin(a)], [sy * math.sin(a), sy * math.cos(a)]]
    cx, cy = w / 2, h / 2
    out_w, out_h = int(w * 1.08), int(h * 1.12)
    tx = out_w / 2 - (m[0][0] * cx + m[0][1] * cy)
    ty = out_h / 2 - (m[1][0] * cx + m[1][1] * cy)
    det = m[0][0] * m[1][1] - m[0][1] * m[1][0]
    inv = [[m[1][1] / det, -m[0][1] / det], [-m[1][0] / det, m[0][0] / det]]
    data = (inv[0][0], inv[0][1], -(inv[0][0] * tx + inv[0][1] * ty),
            inv[1][0], inv[1][1], -(inv[1][0] * tx + inv[1][1] * ty))
    scan = art.image.convert("RGB").transform((out_w, out_h), Image.Transform.AFFINE, data,
                                              resample=Image.Resampling.BICUBIC, fillcolor=(250, 250, 245))
    path = tmp_path / "scan.png"
    scan.save(path)
    t = art.transform
    truth = Affine(m[0][0] * t.a + m[0][1] * t.d, m[0][0] * t.b + m[0][1] * t.e, m[0][0] * t.c + m[0][1] * t.f + tx,
                   m[1][0] * t.a + m[1][1] * t.d, m[1][0] * t.b + m[1][1] * t.e, m[1][0] * t.c + m[1][1] * t.f + ty)
    return path, truth


editor = editor_fixture((1300, 860))


def click_hex(qtbot, ed, hex_id, button=Qt.LeftButton):
    click(qtbot, ed, *ed.board.center(ed.board.parse_hex(hex_id)), button=button)


def hover(qtbot, ed, hex_id):
    """Move the mouse over a hex and let the view see it: the move event is sent to the view itself (a move
    synthesised through the platform is dropped when the pointer is already there, as another test may leave it)."""
    from PySide6.QtCore import QEvent, QPointF
    from PySide6.QtGui import QMouseEvent

    c = ed.view.lattice_to_viewport(*ed.board.center(ed.board.parse_hex(hex_id)))
    p = QPointF(round(c.x()), round(c.y()))
    QApplication.sendEvent(ed.view.viewport(), QMouseEvent(QEvent.MouseMove, p, ed.view.viewport().mapToGlobal(p),
                                                           Qt.NoButton, Qt.NoButton, Qt.NoModifier))
    QApplication.processEvents()


def test_calibrating_a_rotated_stretched_scan_from_four_clicks(qtbot, editor, tmp_path):
    path, truth = skewed_scan(tmp_path)
    editor.new_map("Scan", "flat", [SheetSpec("A", str(path), 12, 10)])
    assert editor.tool_key == "calibrate"
    view, sheet, board = editor.view, editor.board.sheets[0], editor.board
    view.set_zoom(2.0)
    for hid in ("A01.01", "A12.01", "A01.10", "A11.09"):
        u, v = truth.apply(*board.center(board.parse_hex(hid)))     # where the scan shows that centre
        view.centerOn(view.scene_point(*sheet.transform.inverse().apply(u, v)))
        p = view.image_to_viewport(sheet, u, v)
        qtbot.mouseClick(view.viewport(), Qt.LeftButton, pos=QPoint(round(p.x()), round(p.y())))
        id_edit = editor.palette.id_edit
        assert id_edit.hasFocus()
        id_edit.selectAll()
        qtbot.keyClicks(id_edit, hid)
        qtbot.keyClick(id_edit, Qt.Key_Return)
    fit = editor.edit.calibrations["A"].fit
    assert fit is not None and len(fit.residuals) == 4
    assert editor.palette.click_table.rowCount() == 4
    assert "residual" in editor.palette.rms_label.text()
    errors = [math.dist(sheet.transform.apply(*board.center(h)), truth.apply(*board.center(h)))
              for h in board.hexes()]
    assert max(errors) < 2.0
    # the fit now suggests the right id for a fifth click
    u, v = truth.apply(*board.center(board.parse_hex("A06.05")))
    p = view.image_to_viewport(sheet, u, v)
    view.centerOn(view.scene_point(*sheet.transform.inverse().apply(u, v)))
    p = view.image_to_viewport(sheet, u, v)
    qtbot.mouseClick(view.viewport(), Qt.LeftButton, pos=QPoint(round(p.x()), round(p.y())))
    assert editor.palette.id_edit.text() == "A06.05"


def test_a_bad_id_is_refused_in_words(qtbot, editor, tmp_path):
    path, _truth = skewed_scan(tmp_path, 6, 5)
    editor.new_map("Scan", "flat", [SheetSpec("A", str(path), 6, 5)])
    click_hex(qtbot, editor, "A02.02")
    editor.palette.id_edit.setText("A44.02")
    qtbot.keyClick(editor.palette.id_edit, Qt.Key_Return)
    assert "off the sheet" in editor.last_message
    assert editor.edit.calibrations["A"].clicks == []


def test_paint_trace_a_river_name_an_area_and_save(qtbot, editor, tmp_path):
    Image.new("RGB", (700, 560), (240, 236, 220)).save(tmp_path / "plain.png")
    editor.new_map("Painted", "flat", [SheetSpec("A", str(tmp_path / "plain.png"), 8, 6)])
    b = editor.board
    # fill the whole map with clear, then paint woods with a brush of radius 1 and one rough hex
    qtbot.keyClick(editor.view, Qt.Key_F)
    assert editor.tool_key == "fill"
    editor.palette.terrain_list.setCurrentRow(0)
    click_hex(qtbot, editor, "A01.01")
    assert set(b.terrain.values()) == {"clear"} and len(b.terrain) == 48
    qtbot.keyClick(editor.view, Qt.Key_P)
    editor.palette.radius_spin.setValue(1)
    editor.palette.terrain_list.setCurrentRow(editor.palette.terrain_list.findItems("woods", Qt.MatchExactly)[0]
                                              .listWidget().row(editor.palette.terrain_list.findItems(
                                                  "woods", Qt.MatchExactly)[0]))
    click_hex(qtbot, editor, "A06.03")
    editor.palette.radius_spin.setValue(0)
    editor.palette.new_terrain.setText("rough")
    qtbot.keyClick(editor.palette.new_terrain, Qt.Key_Return)
    click_hex(qtbot, editor, "A02.05")
    # trace a river down the hexsides between columns 3 and 4: three clicks, Enter to see it, Enter to keep it
    qtbot.keyClick(editor.view, Qt.Key_R)
    editor.palette.hexside_combo.setCurrentText("river")
    top = b.layout.hexside_segment(hexside(b.parse_hex("A03.01"), b.parse_hex("A04.01")))[0]
    mid = b.layout.hexside_midpoint(hexside(b.parse_hex("A03.03"), b.parse_hex("A04.02")))
    low = max(b.layout.hexside_segment(hexside(b.parse_hex("A03.04"), b.parse_hex("A04.04"))), key=lambda p: p[1])
    for pt in (top, mid, low):
        click(qtbot, editor, *pt)
    editor.view.setFocus()
    qtbot.keyClick(editor.view, Qt.Key_Return)
    shown = list(editor.tool.preview)
    assert shown and not b.hexsides            # shown, not kept yet
    qtbot.keyClick(editor.view, Qt.Key_Return)
    # select three hexes and name them
    qtbot.keyClick(editor.view, Qt.Key_N)
    click_hex(qtbot, editor, "A07.05")
    for hid in ("A07.06", "A08.05"):
        p = editor.view.lattice_to_viewport(*b.center(b.parse_hex(hid)))
        qtbot.mouseClick(editor.view.viewport(), Qt.LeftButton, Qt.ControlModifier, QPoint(round(p.x()), round(p.y())))
    editor.palette.area_name.setText("Krasni Bor")
    editor.palette.area_kind.setCurrentText("town")
    qtbot.mouseClick(editor.palette.name_area_button, Qt.LeftButton)
    out = tmp_path / "maps" / "painted.toml"
    out.parent.mkdir()
    assert editor.save(out), editor.last_message

    again = load_map(out)
    ids = lambda hs: {again.hex_id(h) for h in hs}
    woods = {"A06.03", "A06.02", "A06.04", "A05.03", "A05.04", "A07.03", "A07.04"}
    assert ids(h for h, t in again.terrain.items() if t == "woods") == woods
    assert ids(h for h, t in again.terrain.items() if t == "rough") == {"A02.05"}
    assert len([t for t in again.terrain.values() if t == "clear"]) == 48 - 8
    river = {s for s, f in again.hexsides.items() if "river" in f}
    expected = {hexside(again.parse_hex(a), again.parse_hex(c)) for a, c in (
        ("A03.01", "A04.01"), ("A03.02", "A04.01"), ("A03.02", "A04.02"), ("A03.03", "A04.02"),
        ("A03.03", "A04.03"), ("A03.04", "A04.03"), ("A03.04", "A04.04"))}   # top corner to bottom corner
    assert river == expected == set(shown)
    assert again.areas == {"Krasni Bor": Area("Krasni Bor", "town",
                                              {again.parse_hex(x) for x in ("A07.05", "A07.06", "A08.05")})}
    assert again.sheets[0].image == "../plain.png"
    # undo goes back through the edits
    editor.undo()
    assert "Krasni Bor" not in editor.board.areas
    editor.undo()
    assert not editor.board.hexsides


def test_check_map_findings_go_to_their_hex(qtbot, editor):
    assert editor.open_file("maps/demo.toml")
    b = editor.board
    del b.terrain[b.parse_hex("A05.05")]
    found = editor.check()
    assert [f.kind for f in found] == ["no terrain"]
    editor.palette.findings.setCurrentRow(0)
    assert editor.marked == [b.parse_hex("A05.05")]
    centre = editor.view.mapToScene(editor.view.viewport().rect().center())
    assert editor.view.hex_at_scene(centre) == b.parse_hex("A05.05")


def test_live_los_thread_and_traced_obstacle(qtbot, editor):
    assert editor.open_file("maps/demo.toml")
    b = editor.board
    QApplication.processEvents()                # the view laid out and fitted before the first click
    qtbot.keyClick(editor.view, Qt.Key_V)
    click_hex(qtbot, editor, "A10.15")
    assert editor.tool_key == "los" and editor.tool.observer == b.parse_hex("A10.15")
    hover(qtbot, editor, "A13.13")              # Qt drops a move to where the mouse last moved to (another test's)
    hover(qtbot, editor, "A14.15")
    assert editor.tool.result is not None and editor.tool.result.clear
    # a traced building between them, 30 m high, blocks the thread
    before = len(b.obstacles)
    qtbot.keyClick(editor.view, Qt.Key_O)
    editor.palette.obstacle_combo.setCurrentText("building")
    editor.palette.obstacle_height_spin.setValue(30)
    cx, cy = b.center(b.parse_hex("A12.15"))
    for dx, dy in ((-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)):
        click(qtbot, editor, cx + dx, cy + dy)
    qtbot.keyClick(editor.view, Qt.Key_Return)
    qtbot.keyClick(editor.view, Qt.Key_Return)
    assert len(b.obstacles) == before + 1 and b.obstacles[-1].kind == "building"
    qtbot.keyClick(editor.view, Qt.Key_V)
    click_hex(qtbot, editor, "A10.15")
    hover(qtbot, editor, "A13.13")              # Qt drops a move to where the mouse last moved to
    hover(qtbot, editor, "A14.15")
    r = editor.tool.result
    assert r.blocked and r.blocker.kind == "building" and r.blocker.traced
    assert "building" in editor.last_message


def test_a_fast_drag_paints_every_hex_it_crossed_and_elevation_fills_the_rest(qtbot, editor, tmp_path):
    from PySide6.QtCore import QEvent, QPointF
    from PySide6.QtGui import QMouseEvent

    Image.new("RGB", (700, 560), (240, 236, 220)).save(tmp_path / "plain.png")
    editor.new_map("Drag", "flat", [SheetSpec("A", str(tmp_path / "plain.png"), 8, 6)])
    b = editor.board
    qtbot.keyClick(editor.view, Qt.Key_P)
    editor.palette.terrain_list.setCurrentRow(1)                       # woods
    vp = editor.view.viewport()

    def send(kind, hid, buttons):
        p = QPointF(editor.view.lattice_to_viewport(*b.center(b.parse_hex(hid))))
        button = Qt.LeftButton if kind != QEvent.MouseMove else Qt.NoButton
        QApplication.sendEvent(vp, QMouseEvent(kind, p, p, button, buttons, Qt.NoModifier))

    send(QEvent.MouseButtonPress, "A02.01", Qt.LeftButton)
    send(QEvent.MouseMove, "A02.05", Qt.LeftButton)                    # one event four rows further down
    send(QEvent.MouseButtonRelease, "A02.05", Qt.NoButton)
    assert {b.hex_id(h) for h, t in b.terrain.items() if t == "woods"} == {f"A02.0{r}" for r in range(1, 6)}
    assert len(editor.edit.undo_stack) == 1                             # the whole drag is one step
    qtbot.keyClick(editor.view, Qt.Key_E)
    editor.palette.elevation_spin.setValue(60)
    send(QEvent.MouseButtonPress, "A05.03", Qt.LeftButton)
    send(QEvent.MouseButtonRelease, "A05.03", Qt.NoButton)
    editor.palette.elevation_spin.setValue(20)
    qtbot.mouseClick(editor.palette.fill_elevation_button, Qt.LeftButton)
    assert b.elevation[b.parse_hex("A05.03")] == 60
    assert sorted(set(b.elevation.values())) == [20.0, 60.0] and len(b.elevation) == 48


def test_save_refuses_a_map_the_loader_would_refuse_and_keeps_the_old_file(qtbot, editor, tmp_path):
    Image.new("RGB", (300, 260), (240, 236, 220)).save(tmp_path / "gone.png")
    editor.new_map("Gone", "flat", [SheetSpec("A", str(tmp_path / "gone.png"), 4, 3)])
    out = tmp_path / "gone.toml"
    out.write_text("# the old file\n")
    (tmp_path / "gone.png").unlink()
    assert not editor.save(out)
    assert "gone.png" in editor.last_message and "not found" in editor.last_message
    assert out.read_text() == "# the old file\n"


def test_a_river_traced_by_dragging_snaps_like_a_clicked_one(qtbot, editor, tmp_path):
    from PySide6.QtCore import QEvent, QPointF
    from PySide6.QtGui import QMouseEvent

    Image.new("RGB", (700, 560), (240, 236, 220)).save(tmp_path / "plain.png")
    editor.new_map("Drag", "flat", [SheetSpec("A", str(tmp_path / "plain.png"), 8, 6)])
    b = editor.board
    qtbot.keyClick(editor.view, Qt.Key_R)
    top = b.layout.hexside_segment(hexside(b.parse_hex("A03.01"), b.parse_hex("A04.01")))[0]
    low = max(b.layout.hexside_segment(hexside(b.parse_hex("A03.04"), b.parse_hex("A04.04"))), key=lambda p: p[1])
    vp = editor.view.viewport()
    steps = 30
    for i in range(steps + 1):
        t = i / steps
        # a hand-drawn wobble round the straight line between the two corners
        x = top[0] + t * (low[0] - top[0]) + 0.12 * math.sin(9 * t)
        y = top[1] + t * (low[1] - top[1])
        p = QPointF(editor.view.lattice_to_viewport(x, y))
        kind = QEvent.MouseButtonPress if i == 0 else QEvent.MouseMove
        QApplication.sendEvent(vp, QMouseEvent(kind, p, p, Qt.LeftButton if i == 0 else Qt.NoButton,
                                               Qt.LeftButton, Qt.NoModifier))
    QApplication.sendEvent(vp, QMouseEvent(QEvent.MouseButtonRelease, p, p, Qt.LeftButton, Qt.NoButton,
                                           Qt.NoModifier))
    assert len(editor.tool.points) > 5
    qtbot.keyClick(editor.view, Qt.Key_Return)
    qtbot.keyClick(editor.view, Qt.Key_Return)
    river = {s for s, f in b.hexsides.items() if "river" in f}
    expected = {hexside(b.parse_hex(a), b.parse_hex(c)) for a, c in (
        ("A03.01", "A04.01"), ("A03.02", "A04.01"), ("A03.02", "A04.02"), ("A03.03", "A04.02"),
        ("A03.03", "A04.03"), ("A03.04", "A04.03"), ("A03.04", "A04.04"))}
    assert river == expected


def test_typing_a_number_over_the_map_sets_the_elevation_to_paint(qtbot, editor, tmp_path):
    Image.new("RGB", (500, 420), (240, 236, 220)).save(tmp_path / "plain.png")
    editor.new_map("Typed", "flat", [SheetSpec("A", str(tmp_path / "plain.png"), 6, 5)])
    b = editor.board
    qtbot.keyClick(editor.view, Qt.Key_E)
    qtbot.keyClicks(editor.view, "60")
    click_hex(qtbot, editor, "A02.02")
    qtbot.keyClicks(editor.view, "0")                      # a new number after a click, not 600
    click_hex(qtbot, editor, "A03.02")
    assert b.elevation == {b.parse_hex("A02.02"): 60.0, b.parse_hex("A03.02"): 0.0}


def test_after_a_palette_button_the_keys_still_go_to_the_map(qtbot, editor, tmp_path):
    Image.new("RGB", (500, 420), (240, 236, 220)).save(tmp_path / "plain.png")
    editor.new_map("Keys", "flat", [SheetSpec("A", str(tmp_path / "plain.png"), 6, 5)])
    b = editor.board
    qtbot.keyClick(editor.view, Qt.Key_N)
    editor.palette.box_id.setFocus()
    qtbot.keyClicks(editor.palette.box_id, "dead")
    qtbot.mouseClick(editor.palette.add_box_button, Qt.LeftButton)
    assert editor.view.hasFocus() and "dead" in b.boxes
    qtbot.keyClick(editor.view, Qt.Key_E)
    qtbot.mouseClick(editor.palette.fill_elevation_button, Qt.LeftButton)
    assert editor.view.hasFocus()
    qtbot.keyClicks(editor.view, "40")
    click_hex(qtbot, editor, "A03.03")
    assert b.elevation[b.parse_hex("A03.03")] == 40


def test_a_new_map_not_saved_yet_counts_as_unsaved_until_it_is_saved(qtbot, editor, tmp_path):
    """Leaving the editor right after New map threw the map away without a question: it was not 'dirty'."""
    Image.new("RGB", (700, 560), (240, 236, 220)).save(tmp_path / "plain.png")
    editor.new_map("Fresh", "flat", [SheetSpec("A", str(tmp_path / "plain.png"), 8, 6)])
    assert editor.edit.dirty and editor.windowTitle().endswith("*")
    assert editor.save(tmp_path / "fresh.toml")
    assert not editor.edit.dirty and not editor.windowTitle().endswith("*")


def test_the_hex_id_placeholder_follows_the_sheets_numbering(qtbot, editor):
    """A classic-numbered map is asked for ids like 0506, a TCS sheet for ids like A05.06."""
    assert editor.open_file("maps/demyansk.toml")
    assert editor.palette.id_edit.placeholderText() == "id of the clicked hex, like 0506"
    assert editor.open_file("maps/crossing.toml")
    assert editor.palette.id_edit.placeholderText() == "id of the clicked hex, like A05.06"


def test_a_scan_that_prints_its_own_ids_is_not_printed_over(qtbot, editor, tmp_path):
    """View > The scans print hex ids hides the program's ids, is one undoable step, is saved with the map and
    starts the play window with its ids hidden too."""
    from playwindow import play_window

    shutil.copy("maps/crossing.png", tmp_path / "crossing.png")
    shutil.copy("maps/crossing.toml", tmp_path / "crossing.toml")
    assert editor.open_file(tmp_path / "crossing.toml")
    assert editor.ids_act.isChecked() and not editor.printed_ids_act.isChecked()
    editor.printed_ids_act.trigger()
    assert editor.board.printed_ids and not editor.ids_act.isChecked() and not editor.view.grid.show_ids
    editor.undo()
    assert not editor.board.printed_ids and editor.ids_act.isChecked() and editor.view.grid.show_ids
    editor.redo()
    assert editor.board.printed_ids and editor.printed_ids_act.isChecked()
    assert editor.save()
    assert load_map(tmp_path / "crossing.toml").printed_ids is True
    assert "printed_ids = true" in (tmp_path / "crossing.toml").read_text()
    play = play_window(qtbot, tmp_path / "play")
    assert play.open_file(tmp_path / "crossing.toml")
    assert not play.ids_act.isChecked() and not play.map_view.grid.show_ids
    assert play.open_file("maps/demo.toml")
    assert play.ids_act.isChecked() and play.map_view.grid.show_ids
