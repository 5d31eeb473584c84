"""How the map view draws fast: opaque tiles, the grid while moving, every grid block prepared, small counters."""
from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QColor, QImage, QPainter, QTransform

from engine.maps.board import Affine, Board, Sheet
from engine.maps.hexes import Hex
from engine.maps.numbering import NumberingScheme
from engine.scenario import Side, Unit
from gui.scene.counterart import CounterArt
from gui.scene.counterlayer import EDGE_STEP, CountersLayer
from gui.scene.gridlayer import FAST_GRID_COLOUR, GRID_COLOUR, GridLayer
from gui.scene.idlework import MAX_QUEUED, IdleQueue
from gui.scene.mapview import MapView
from gui.scene.sheetlayer import PAPER, TileStore, screen_format


def _board(cols: int, rows: int) -> Board:
    sheet = Sheet("A", NumberingScheme(style="classic", cols=cols, rows=rows, col_digits=3, row_digits=3),
                  transform=Affine(64.0, 0.0, 80.0, 0.0, 64.0, 80.0))
    return Board(name="plain", sheets=[sheet])


def test_an_unlimited_idle_queue_keeps_every_job_and_a_limited_one_the_newest(qapp):
    done = []
    every = IdleQueue(limit=None)
    newest = IdleQueue()
    for k in range(MAX_QUEUED + 100):
        every.submit(k, lambda k=k: done.append(k))
        newest.submit(k, lambda: None)
    assert every.pending() == MAX_QUEUED + 100
    assert newest.pending() == MAX_QUEUED and (MAX_QUEUED + 99) in newest and 0 not in newest
    every.run_all()
    assert sorted(done) == list(range(MAX_QUEUED + 100))


def test_every_grid_block_of_a_big_board_is_prepared(qtbot, tmp_path):
    view = MapView(cache=tmp_path)
    qtbot.addWidget(view)
    view.resize(800, 600)
    view.show_board(_board(120, 90))
    blocks = view.grid.blocks()
    assert len(blocks) > MAX_QUEUED                 # more blocks than a view-driven queue keeps
    assert view.wait_until_drawn(60)
    assert set(view.grid._blocks) == set(blocks)


def test_the_blocks_found_by_cell_are_every_block_that_meets_the_rectangle(qapp):
    grid = GridLayer(_board(40, 30), 64.0)
    rects = [QRectF(0, 0, 500, 400), QRectF(-300, -300, 350, 350), QRectF(1234.5, 987.25, 640, 360),
             QRectF(2000, 1500, 3, 3), QRectF(-5000, -5000, 20000, 20000)]
    for r in rects:
        meeting = {k for k, br in grid._block_rects.items() if br.intersects(r)}
        assert meeting <= set(grid._blocks_meeting(r))
    assert set(grid._blocks_meeting(QRectF(-5000, -5000, 20000, 20000))) == set(grid.blocks())


def test_opaque_tiles_are_kept_without_an_alpha_channel(qapp, tmp_path):
    rgb = QImage(8, 8, QImage.Format_RGB888)
    rgb.fill(QColor(10, 120, 200))
    argb = QImage(8, 8, QImage.Format_ARGB32)
    argb.fill(QColor(10, 120, 200, 100))
    assert screen_format(rgb).format() == QImage.Format_RGB32
    assert screen_format(argb).format() == QImage.Format_ARGB32_Premultiplied
    path = tmp_path / "tile.png"
    rgb.save(str(path))
    store = TileStore()
    pm = store.load_now(("t", 0, 0, 0), path.read_bytes)
    assert not pm.hasAlphaChannel()
    assert QColor(pm.toImage().pixel(3, 3)) == QColor(10, 120, 200)


def _grid_edge_pixel(fast: bool) -> QColor:
    """The colour of the grid in the middle of one hex edge, drawn over the map's paper."""
    board = _board(6, 6)
    grid = GridLayer(board, 64.0)
    img = QImage(600, 600, QImage.Format_RGB32)
    img.fill(PAPER)
    p = QPainter(img)
    p.setTransform(QTransform.fromScale(1.0, 1.0))
    grid.show_ids = False
    grid.paint(p, QRectF(0, 0, 600, 600), fast)
    p.end()
    h = Hex(2, 2)
    (x0, y0), (x1, y1) = board.layout.polygon_corners(h)[:2]
    mx, my = (x0 + x1) / 2 * 64, (y0 + y1) / 2 * 64
    # the darkest pixel next to the edge's middle is the line itself
    near = [QColor(img.pixel(round(mx) + dx, round(my) + dy)) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
    return min(near, key=lambda c: c.lightness())


def test_the_grid_drawn_while_moving_has_the_still_grids_colour_on_paper(qapp):
    still, moving = _grid_edge_pixel(False), _grid_edge_pixel(True)
    assert moving == FAST_GRID_COLOUR                # opaque: written, not blended
    a = GRID_COLOUR.alphaF()
    for got, g, paper in zip((still.red(), still.green(), still.blue()),
                             (GRID_COLOUR.red(), GRID_COLOUR.green(), GRID_COLOUR.blue()),
                             (PAPER.red(), PAPER.green(), PAPER.blue())):
        assert abs(got - (g * a + paper * (1 - a))) <= 2          # the still grid is blended over paper
    assert max(abs(still.red() - moving.red()), abs(still.green() - moving.green()),
               abs(still.blue() - moving.blue())) <= 3             # ... to the colour drawn while moving


def test_small_counters_are_squares_in_their_colours_with_edges_beneath(qapp):
    sides = {"german": Side("german", "German", "#8fa2b6"), "soviet": Side("soviet", "Soviet", "#a5764a")}
    units = [Unit("g1", "german", "infantry", "division", 5, 4, 4), Unit("g2", "german", "armor", "division", 7, 5, 6),
             Unit("s1", "soviet", "infantry", "brigade", 3, 3, 4), Unit("s2", "soviet", "armor", "brigade", 4, 3, 5)]
    art = CounterArt(sides)
    board = _board(10, 10)
    scale = 64.0

    def centre(h):
        x, y = board.center(h)
        return QPointF(x * scale, y * scale)

    layer = CountersLayer(art, scale, centre)
    a, b, c = Hex(2, 2), Hex(5, 1), Hex(6, 3)
    layer.set_stacks({a: [units[0], units[2]], b: [units[3]], c: [units[1]]})
    layer.lifted = c                                  # its only counter is being moved: nothing drawn there
    zoom = 0.125                                      # counters 9 px across: too small for art
    img = QImage(200, 200, QImage.Format_RGB32)
    img.fill(QColor(0, 0, 0))
    p = QPainter(img)
    p.setTransform(QTransform.fromScale(zoom, zoom))
    layer.paint(p, QRectF(0, 0, 200 / zoom, 200 / zoom), 1.0, fast=True)
    p.end()
    assert layer.drawn == 3

    def px(h, dx=0, dy=0):
        q = centre(h)
        return QColor(img.pixel(round(q.x() * zoom) + dx, round(q.y() * zoom) + dy))

    # at this size the edge beneath lies exactly under the top counter: the top one is drawn last
    assert round(EDGE_STEP * scale * zoom) == 0
    assert px(a) == art.colours(units[2])[0]          # the top counter's fill, not the edge under it
    assert px(b) == art.colours(units[3])[0]
    assert px(c) == QColor(0, 0, 0)


def test_the_viewport_shows_the_background_around_the_board_and_plain_scroll_bars(qtbot, tmp_path):
    view = MapView(cache=tmp_path)
    qtbot.addWidget(view)
    view.resize(400, 300)
    view.show()
    qtbot.waitExposed(view)
    vp = view.viewport()
    empty = vp.grab().toImage()
    assert {QColor(empty.pixel(x, y)).name() for x in (0, 199, vp.width() - 1)
            for y in (0, 149, vp.height() - 1)} == {QColor(58, 58, 62).name()}
    view.show_board(_board(4, 3))
    assert view.wait_until_drawn(30)
    view.set_zoom(0.05)                               # the board a speck in the middle: the rest is background
    assert view.wait_until_drawn(30)
    img = vp.grab().toImage()
    assert QColor(img.pixel(1, 1)) == QColor(58, 58, 62)
    assert QColor(img.pixel(vp.width() - 2, vp.height() - 2)) == QColor(58, 58, 62)
    # both scroll bars are drawn in the plain style, a fraction of the cost of the default one
    assert view.horizontalScrollBar().style().name().lower() == "windows"


def test_the_layered_still_grid_is_the_grid_stroked_translucent(qapp, monkeypatch):
    """The still grid is stroked opaque into a layer laid on at the grid colour's opacity (a third of the time):
    the same picture as stroking it in the translucent colour, but where lines meet (blended once there)."""
    import numpy as np

    from gui.scene import gridlayer

    def draw(layered: bool) -> np.ndarray:
        monkeypatch.setattr(gridlayer, "LAYERED", layered)
        grid = GridLayer(_board(8, 6), 64.0)
        grid.show_ids = False
        img = QImage(500, 400, QImage.Format_RGB32)
        img.fill(PAPER)
        p = QPainter(img)
        p.setTransform(QTransform(0.75, 0, 0, 0.75, 13, 7))     # hexes 96 px across: smooth, 1.5 px lines
        grid.paint(p, QRectF(-20, -10, 700, 560))             # the whole picture
        p.end()
        assert grid.blocks_drawn > 0
        img = img.convertToFormat(QImage.Format_RGB888)
        return np.frombuffer(img.constBits(), np.uint8).reshape(400, img.bytesPerLine())[:, :1500].astype(int)

    layered, direct = draw(True), draw(False)
    lines = np.abs(direct[:, 1::3] - PAPER.green()) > 8
    assert lines.sum() > 2000                                  # the grid is there
    darker = layered - direct                                  # > 0 where the direct stroke is darker
    assert darker.min() >= -6                                  # the layer is never darker than the grid stroked
    apart = (np.abs(darker) > 6).reshape(400, 500, 3).any(axis=2)
    assert apart.sum() < 0.05 * lines.sum()                    # ... and apart only where lines meet
