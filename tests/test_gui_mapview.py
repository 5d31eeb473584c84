"""The play window's map view, driven offscreen: tiles, grid, zoom, pan, hover, stacks, bad files."""
from __future__ import annotations

import math
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QColor, QImage, QWheelEvent
from PySide6.QtWidgets import QApplication

from engine.maps.board import Affine, Board, Sheet
from engine.maps.mapfile import load_map, save_map
from engine.maps.numbering import NumberingScheme
from engine.scenario import Side, Unit
from gui.scene.counterart import CounterArt
from gui.scene.hugeimage import write_png
from gui.play.window import MainWindow
from playwindow import play_window

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "maps" / "demo.toml"


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    win = play_window(qtbot, tmp_path, size=(1000, 700), monkeypatch=monkeypatch)
    return win


def grab(view) -> QImage:
    return view.viewport().grab().toImage()


def device_point(view, scene_pt: QPointF) -> QPoint:
    return view.mapFromScene(scene_pt)


def test_demo_map_opens_with_its_image_and_grid(window):
    assert window.open_file(DEMO)
    view = window.map_view
    assert view.wait_until_drawn(60)
    board = view.board
    assert len(board.hexes()) == 600
    pyramid = view.images[0].pyramid
    assert pyramid is not None and (pyramid.folder / "pyramid.toml").is_file()
    assert pyramid.folder.parent.parent == window.map_view.cache

    view.set_zoom(1.0)
    h = board.parse_hex("A10.10")
    view.centre_on_hex(h)
    assert view.wait_until_drawn(120)
    with_grid = grab(view)
    view.set_grid_visible(False)
    assert view.wait_until_drawn(120)
    without = grab(view)

    lay = board.layout
    corners = lay.polygon_corners(h)
    s = view.scale_
    changed = 0
    for i in range(6):
        (x0, y0), (x1, y1) = corners[i], corners[(i + 1) % 6]
        p = device_point(view, QPointF((x0 + x1) / 2 * s, (y0 + y1) / 2 * s))
        near = [p + QPoint(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
        if any(QColor(with_grid.pixel(q)).lightness() < QColor(without.pixel(q)).lightness() for q in near):
            changed += 1
    assert changed == 6                      # the grid darkens the image along every edge of the hex
    c = device_point(view, QPointF(*[v * s for v in lay.hex_to_pixel(h)]))
    assert with_grid.pixel(c) == without.pixel(c)   # and leaves the middle of the hex alone

    # the image under the grid is the sheet's scan, where the sheet's transform puts it
    from PIL import Image

    u, v = board.sheets[0].transform.apply(*lay.hex_to_pixel(h))
    with Image.open(ROOT / "maps" / "demo.png") as im:
        r, g, bl = im.convert("RGB").getpixel((int(u) + 8, int(v) + 8))
    got = QColor(without.pixel(c + QPoint(8, 8)))
    assert abs(got.red() - r) + abs(got.green() - g) + abs(got.blue() - bl) < 40


def test_fit_and_zoom_change_the_transform(window, qtbot):
    window.open_file(DEMO)
    view = window.map_view
    view.wait_until_drawn(60)
    view.fit()
    rect = view.mapFromScene(view.scene().sceneRect()).boundingRect()
    vp = view.viewport().rect()
    assert rect.width() <= vp.width() + 2 and rect.height() <= vp.height() + 2
    assert rect.width() >= vp.width() - 4 or rect.height() >= vp.height() - 4
    view.set_zoom(2.0)
    assert view.transform().m11() == pytest.approx(2.0)
    view.set_zoom(100)
    assert view.zoom() == pytest.approx(8.0)            # clamped

    # the wheel zooms around the cursor: the scene point under it stays under it
    view.set_zoom(0.5)
    anchor = QPointF(300, 200)
    before = view.mapToScene(anchor.toPoint())
    ev = QWheelEvent(anchor, view.viewport().mapToGlobal(anchor), QPoint(0, 0), QPoint(0, 120),
                     Qt.NoButton, Qt.NoModifier, Qt.NoScrollPhase, False)
    QApplication.sendEvent(view.viewport(), ev)
    assert view.zoom() == pytest.approx(0.5 * 1.25)
    after = view.mapToScene(anchor.toPoint())
    assert math.hypot(after.x() - before.x(), after.y() - before.y()) < 2 / view.zoom()

    # presets from the View menu
    act = next(a for a in window.findChildren(type(window.grid_act)) if a.text() == "100%")
    act.trigger()
    assert view.zoom() == pytest.approx(1.0)
    assert window.zoom_label.text() == "100%"


def test_drag_on_empty_map_pans(window, qtbot):
    window.open_file(DEMO)
    view = window.map_view
    view.wait_until_drawn(60)
    view.set_zoom(1.0)
    h0 = view.horizontalScrollBar().value()
    vp = view.viewport()
    qtbot.mousePress(vp, Qt.LeftButton, pos=QPoint(400, 300))
    qtbot.mouseMove(vp, QPoint(300, 300))
    qtbot.mouseRelease(vp, Qt.LeftButton, pos=QPoint(300, 300))
    assert view.horizontalScrollBar().value() == h0 + 100
    qtbot.mousePress(vp, Qt.MiddleButton, pos=QPoint(300, 300))
    qtbot.mouseMove(vp, QPoint(350, 300))
    qtbot.mouseRelease(vp, Qt.MiddleButton, pos=QPoint(350, 300))
    assert view.horizontalScrollBar().value() == h0 + 50


def test_hover_names_hex_terrain_elevation_and_hexsides(window):
    window.open_file(DEMO)
    view = window.map_view
    b = view.board
    side_hex = next(h for h in b.hexes() if any(b.hexside_features(h, n) for n in b.neighbors(h)))
    hid = b.hex_id(side_hex)
    x, y = b.center(side_hex)
    text = view.hover_at(QPointF(x * view.scale_, y * view.scale_))
    assert text.startswith(hid)
    assert (b.terrain_of(side_hex) or "no terrain") in text
    assert f"elevation {b.elevation_of(side_hex):g} m" in text
    feature = sorted(f for n in b.neighbors(side_hex) for f in b.hexside_features(side_hex, n))[0]
    assert "hexsides: " in text and feature in text
    assert window.hover_label.text() == text
    assert view.hover_at(QPointF(-10_000, -10_000)) == ""


def _huge_map(tmp_path: Path, w: int, h: int) -> Path:
    write_png(tmp_path / "big.png", w, h)
    hex_px = 100.0
    sheet = Sheet("A", NumberingScheme(style="classic", cols=int((w / hex_px - 2) / 1.5),
                                       rows=int((h / hex_px - 2) / math.sqrt(3))),
                  image="big.png", transform=Affine(hex_px, 0, hex_px * 1.2, 0, hex_px, hex_px * 1.2))
    path = tmp_path / "big.toml"
    save_map(Board(name="Big", sheets=[sheet]), path)
    return path


def test_a_big_scan_opens_tiled_and_shows_the_right_level(window, tmp_path, monkeypatch):
    from PIL import ImageFile

    load = ImageFile.ImageFile.load

    def refuse(self):           # a tile may be read (the growing first view), never the scan whole
        if self.size == (6000, 4000):
            raise AssertionError("the whole scan was decoded")
        return load(self)

    monkeypatch.setattr(ImageFile.ImageFile, "load", refuse)
    path = _huge_map(tmp_path, 6000, 4000)
    assert window.open_file(path)
    view = window.map_view
    assert view.wait_until_drawn(120)
    layer = view.images[0]
    pyr = layer.pyramid
    assert (pyr.width, pyr.height) == (6000, 4000)
    assert len(pyr.levels) == 5
    for k, lv in enumerate(pyr.levels):
        assert len(list((pyr.folder / str(k)).glob("*.tiles"))) == lv.rows
        assert all(pyr.tile_bytes(k, c, r) for c in range(lv.cols) for r in range(lv.rows))
    view.fit()
    view.wait_until_drawn()
    fit_level = layer.last_level
    assert fit_level == pyr.level_for(view.zoom()) and fit_level >= 2
    view.set_zoom(1.0)
    view.wait_until_drawn()
    assert layer.last_level == 0
    # only the visible full-size tiles were read, not the whole level
    read0 = [k for k in view.store._pixmaps if k[1] == 0]
    assert 0 < len(read0) < pyr.levels[0].cols * pyr.levels[0].rows


def test_missing_image_gives_a_message_not_a_traceback(window, tmp_path):
    board = load_map(DEMO)
    board.sheets[0].image = "gone.png"
    path = tmp_path / "gone.toml"
    save_map(board, path)
    (tmp_path / "gone.png").write_bytes(b"x")
    doc = path.read_text()
    (tmp_path / "gone.png").unlink()
    path.write_text(doc)
    assert not window.open_file(path)
    assert "gone.png" in window.last_error and "gone.toml" in window.last_error


def test_unreadable_image_is_reported_on_the_map(window, tmp_path, qtbot):
    board = load_map(DEMO)
    board.sheets[0].image = "junk.png"
    (tmp_path / "junk.png").write_bytes(b"this is not a png")
    path = tmp_path / "junk.toml"
    save_map(board, path)
    assert window.open_file(path)             # the map itself is fine; its image is not
    assert "junk.png" in window.last_error and "not an image" in window.last_error
    assert window.map_view.problems


def test_bad_map_file_names_file_and_line(window, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[map]\nname = "x"\nformat = 1\norientation = \n')
    assert not window.open_file(bad)
    assert "bad.toml" in window.last_error and ":4" in window.last_error
    wrong = tmp_path / "wrong.toml"
    wrong.write_text('[map]\nformat = 1\nname = "W"\norientation = "sideways"\n[[sheets]]\nid = "A"\n')
    assert not window.open_file(wrong)
    assert "wrong.toml" in window.last_error and "orientation" in window.last_error


def _units():
    sides = {"german": Side("german", "German", "#8fa2b6"), "soviet": Side("soviet", "Soviet", "#a5764a")}
    return sides, [Unit("g1", "german", "infantry", "division", 5, 4, 4),
                   Unit("g2", "german", "armor", "division", 7, 5, 6),
                   Unit("s1", "soviet", "infantry", "brigade", 3, 3, 4)]


def test_stack_shows_a_depth_edge_and_the_viewer_lists_it(window, qtbot):
    window.open_file(DEMO)
    view = window.map_view
    sides, (g1, g2, s1) = _units()
    view.set_art(CounterArt(sides))
    b = view.board
    h, other = b.parse_hex("A10.10"), b.parse_hex("A14.10")
    view.set_pieces([(g1, h), (g2, h), (s1, other)])
    assert view.stacks[h] == [g1, g2] and view.stacks[other] == [s1]
    view.set_zoom(1.0)
    view.centre_on_hex(h)
    assert view.wait_until_drawn(60)
    img = grab(view)
    top = view.counters.counter_rect(h)
    # the counter underneath shows as an edge above and to the right of the top counter
    edge = device_point(view, QPointF(top.right() + 2, top.top() + top.height() / 2))
    assert QColor(img.pixel(edge)).name() != QColor(img.pixel(device_point(view, QPointF(top.right() + 30,
                                                                                          top.center().y())))).name()
    text = view.hover_at(view.hex_centre(h))
    assert "2 unit(s): g2, g1" in text
    vp = view.viewport()
    qtbot.mouseClick(vp, Qt.LeftButton, pos=device_point(view, view.hex_centre(h)))
    assert view.viewer.isVisible() and view.viewer.pinned
    assert [u.id for u in view.viewer.units] == ["g2", "g1"]
    qtbot.mouseClick(vp, Qt.LeftButton, pos=device_point(view, view.hex_centre(h)))
    assert not view.viewer.isVisible()


def test_counter_pictures_follow_the_pixel_ratio(qtbot):
    sides, (g1, _, _) = _units()
    art = CounterArt(sides)
    assert art.picture(g1, 70 * 2, 2.0) is None          # asked of a worker, nothing made yet
    qtbot.waitUntil(lambda: art.pending() == 0, timeout=10_000)
    pm = art.picture(g1, 70 * 2, 2.0)
    assert pm.devicePixelRatio() == 2.0 and pm.width() >= 140     # never scaled up: crisp at 2x
    assert art.picture(g1, 8, 1.0) is None                        # tiny: a plain square


def test_stacks_are_one_across_a_sheet_join(window):
    # two sheets overlapping by one column: the shared hexes have two ids but are one hex
    a = Sheet("A", NumberingScheme(style="tcs", sheet="A", cols=10, rows=8))
    b = Sheet("B", NumberingScheme(style="tcs", sheet="B", cols=10, rows=8, origin=(9, -4)))
    board = Board(name="Two sheets", sheets=[a, b])
    view = window.map_view
    view.show_board(board)
    shared = next(h for h in board.hexes() if len(board.sheets_of(h)) == 2)
    ida, idb = board.hex_ids(shared)
    sides, (g1, g2, _) = _units()
    view.set_pieces([(g1, board.parse_hex(ida)), (g2, board.parse_hex(idb))])
    assert list(view.stacks) == [shared] and view.stacks[shared] == [g1, g2]
    text = view.hover_at(view.hex_centre(shared))
    assert text.startswith(f"{ida} / {idb}")
    # one board: the grid spans both sheets
    assert view.grid.rect.width() > 18 * view.scale_


def test_screenshot_entry_writes_the_window(tmp_path, monkeypatch, qapp):
    from gui.app import main

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    out = tmp_path / "shot.png"
    assert main(["--screenshot", str(out), str(DEMO)]) == 0
    img = QImage(str(out))
    assert img.width() >= 1000 and img.height() >= 700
    colours = {img.pixel(x, y) for x in range(0, img.width(), 37) for y in range(0, img.height(), 29)}
    assert len(colours) > 50                  # a map, not a blank window


def test_line_of_sight_thread_shows_the_engines_answer(window, qtbot):
    from engine.los.query import line_of_sight

    window.open_file(DEMO)
    view = window.map_view
    b = view.board
    window.los_act.setChecked(True)
    assert view.los_mode
    # find a blocked and a clear pair from one observer, asking the engine itself
    frm = b.parse_hex("A05.10")
    blocked = clear = None
    for h in b.hexes():
        r = line_of_sight(b, frm, h)
        if r.blocked and blocked is None and r.range and r.range > 2:
            blocked = h
        if r.clear and clear is None and r.range and r.range > 2:
            clear = h
    assert blocked is not None and clear is not None
    view.fit()
    vp = view.viewport()
    a = view.mapFromScene(view.hex_centre(frm))
    for target, is_clear in ((blocked, False), (clear, True)):
        qtbot.mousePress(vp, Qt.LeftButton, pos=a)
        qtbot.mouseMove(vp, view.mapFromScene(view.hex_centre(target)))
        qtbot.mouseRelease(vp, Qt.LeftButton, pos=view.mapFromScene(view.hex_centre(target)))
        result = window.last_sight
        assert result.clear == is_clear and result.to == b.hex_id(target)
        assert view.thread.isVisible() and (view.thread.block is None) == is_clear
        assert window.hover_label.text() == result.explain()
        if not is_clear:
            p = result.blocker.point
            assert view.thread.block == QPointF(p[0] * view.scale_, p[1] * view.scale_)
    window.los_act.setChecked(False)
    assert not view.thread.isVisible() and not view.los_mode


def test_a_board_opened_before_the_window_is_shown_is_fitted_once_it_is(qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    win = MainWindow(cache=tmp_path / "cache", autosave=tmp_path / "autosave.toml")
    qtbot.addWidget(win)
    assert win.open_file(DEMO)          # as `sandtable FILE` does: open, then show
    win.resize(1200, 800)
    win.show()
    qtbot.waitExposed(win)
    view = win.map_view
    rect = view.mapFromScene(view.scene().sceneRect()).boundingRect()
    vp = view.viewport().rect()
    # the whole board fills the view along one axis, not a thumbnail in the middle
    assert max(rect.width() / vp.width(), rect.height() / vp.height()) > 0.95
    # once the user zooms, a resize no longer re-fits
    view.zoom_by(2.0)
    z = view.zoom()
    win.resize(1100, 760)
    qtbot.wait(50)
    assert view.zoom() == pytest.approx(z)


def test_whole_number_movement_costs_read_as_whole_numbers(window):
    """A terrain chart's 1.0 MP is shown as 1 on the lit hex and in the hover text; 1.5 stays 1.5."""
    from gui.scene.moveoverlay import cost_text

    assert window.open_file(DEMO)
    view = window.map_view
    a, b = view.board.parse_hex("A10.10"), view.board.parse_hex("A10.11")
    view.show_destinations({a: 1.0, b: 1.5})
    assert view.describe_target(a) == "A10.10: legal, costs 1 MP"
    assert view.describe_target(b) == "A10.11: legal, costs 1.5 MP"
    assert [cost_text(c) for c in (1.0, 2, 0.5, None)] == ["1", "2", "0.5", "None"]
