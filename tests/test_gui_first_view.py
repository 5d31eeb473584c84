"""A scan not yet in the tile cache is shown at once, small, while its pyramid is built; a cancelled build
leaves nothing a later open would trust; a second open reads the cache and builds nothing."""
from __future__ import annotations

import io
import os
import threading

import numpy as np
import pytest
from PIL import Image
from PySide6.QtCore import QRectF
from PySide6.QtGui import QImage, QPainter, QTransform

from engine.maps.mapfile import load_map
from gui.scene import tiles
from gui.bench import huge_map
from gui.scene.hugeimage import write_jpeg, write_png
from gui.scene.mapview import MapView
from gui.scene.pyramidjob import PyramidJob
from gui.scene.sheetlayer import PAPER
from gui.scene.tiles import BuildCancelled, Pyramid, build_pyramid, cached_pyramid, image_digest

W, H = 2600, 1700          # four levels: 2600, 1300, 650, 325 pixels wide

ENGINES = ["vips", "pillow"]


def need(engine: str) -> None:
    """libvips is a dependency of the program (pyproject.toml): its builder must load wherever the tests run."""
    assert engine != "vips" or tiles._vips() is not None, "libvips (pyvips[binary]) does not load"


@pytest.fixture(autouse=True)
def small_scans_are_big(monkeypatch):
    """The scans here are small, so the tests run fast: each is treated as one worth a first view."""
    monkeypatch.setattr(tiles, "QUICK_PIXELS", 0)


@pytest.fixture(scope="module")
def scan_map(tmp_path_factory):
    """A map over a generated JPEG scan (``huge_map`` finds the scan already written)."""
    folder = tmp_path_factory.mktemp("scan")
    write_jpeg(folder / f"scan-{W}x{H}.jpg", W, H)
    return huge_map(folder, W, H, "jpg")


@pytest.fixture(scope="module")
def scan_png(tmp_path_factory):
    return write_png(tmp_path_factory.mktemp("png") / "scan.png", W, H)


def render(layer, size=(260, 170)) -> np.ndarray:
    """The sheet layer painted whole into a small picture, as the map view paints it (RGB array)."""
    img = QImage(size[0], size[1], QImage.Format_RGB32)
    img.fill(0)
    p = QPainter(img)
    rect = layer.scene_rect()
    p.setTransform(QTransform.fromScale(size[0] / rect.width(), size[1] / rect.height()))
    p.translate(-rect.left(), -rect.top())
    layer.paint(p, rect)
    p.end()
    img = img.convertToFormat(QImage.Format_RGB888)
    arr = np.frombuffer(img.constBits(), np.uint8).reshape(size[1], img.bytesPerLine())[:, : size[0] * 3]
    return arr.reshape(size[1], size[0], 3).astype(float)


def shown_view(qtbot, cache, size=(800, 560)) -> MapView:
    """A map view on screen, its tiles cached under ``cache``."""
    view = MapView(cache=cache)
    qtbot.addWidget(view)
    view.resize(*size)
    view.show()
    return view


def scan_small(path, size=(260, 170)) -> np.ndarray:
    with Image.open(path) as im:
        return np.asarray(im.convert("RGB").resize(size, Image.BILINEAR), dtype=float)


def blocks(a: np.ndarray, n: int = 10) -> np.ndarray:
    """The green channel in means of ``n`` x ``n`` blocks: the terrain's patches, not its ruled lines."""
    h, w = a.shape[0] // n * n, a.shape[1] // n * n
    return a[:h, :w, 1].reshape(h // n, n, w // n, n).mean(axis=(1, 3))


def correlation(a: np.ndarray, b: np.ndarray) -> float:
    a, b = blocks(a).ravel(), blocks(b).ravel()
    a, b = a - a.mean(), b - b.mean()
    return float((a @ b) / (np.linalg.norm(a) * np.linalg.norm(b) + 1e-9))


@pytest.mark.parametrize("engine", ENGINES)
def test_the_whole_scan_is_shown_before_its_pyramid_is_built(qtbot, tmp_path, scan_map, engine, monkeypatch):
    need(engine)
    monkeypatch.setenv("SANDTABLE_TILER", engine)
    board = load_map(scan_map)
    image = board.image_path(board.sheets[0])
    final = tmp_path / "tiles" / image_digest(image)
    # the build waits, after its preview, until the view has drawn it: so what is asserted below is seen
    # while the pyramid is certainly not finished, however fast the machine
    shown = threading.Event()
    original = PyramidJob._preview

    def preview_then_wait(job, small):
        original(job, small)
        assert shown.wait(60)

    monkeypatch.setattr(PyramidJob, "_preview", preview_then_wait)
    view = shown_view(qtbot, tmp_path)
    seen = []
    view.show_board(board)
    layer, job = view.images[0], view.jobs[0]
    job.preview.connect(lambda _: seen.append(("preview", Pyramid.load(final) is not None, render(layer))))
    job.ready.connect(lambda _: seen.append(("ready", Pyramid.load(final) is not None, None)))
    qtbot.waitUntil(lambda: bool(seen), timeout=60_000)
    kind, built, first = seen[0]
    assert kind == "preview" and not built and layer.pyramid is None and layer.preview is not None
    # the first view is a pyramid of the coarse levels only, on disk in the build's private folder
    partial = layer.preview
    assert partial.first == min(tiles.PREVIEW_LEVEL, len(partial.levels) - 1) > 0
    assert partial.level_for(1.0) == partial.first
    assert all(partial.tile_bytes(k, 0, 0) for k in range(partial.first, len(partial.levels)))
    assert partial.tile_bytes(0, 0, 0) is None and final not in partial.folder.parents
    # the first view is the scan itself, small (not the placeholder's flat paper and words)
    expected = scan_small(image)
    assert correlation(first, expected) > 0.9
    assert np.abs(first - expected).mean() < 12
    # the view pans and zooms meanwhile
    view.set_zoom(view.zoom() * 2)
    view.horizontalScrollBar().setValue(view.horizontalScrollBar().value() + 100)
    view.viewport().repaint()
    shown.set()
    qtbot.waitUntil(lambda: job.finished, timeout=120_000)
    assert [k for k, _, _ in seen] == ["preview", "ready"] and seen[1][1]
    assert layer.pyramid is not None and layer.preview is None
    sharp = render(layer)
    assert correlation(sharp, expected) > 0.95


@pytest.mark.parametrize("engine", ENGINES)
def test_a_cancelled_build_leaves_no_cache_a_later_open_would_trust(tmp_path, scan_png, engine):
    need(engine)
    steps = []

    def progress(f: float) -> None:
        steps.append(f)

    # stopped part way: some tiles were written in its private folder by then
    with pytest.raises(BuildCancelled):
        build_pyramid(scan_png, tmp_path, progress=progress, cancelled=lambda: bool(steps) and steps[-1] > 0.2,
                      engine=engine)
    assert steps and steps[-1] < 1.0
    assert list((tmp_path / "tiles").glob("*")) == []
    assert cached_pyramid(scan_png, tmp_path) is None
    # a later open builds it whole
    pyramid = build_pyramid(scan_png, tmp_path, engine=engine)
    for k, lv in enumerate(pyramid.levels):
        assert len(os.listdir(pyramid.folder / str(k))) == lv.rows          # a file a row of tiles
        assert all(pyramid.tile_bytes(k, c, r) for c in range(lv.cols) for r in range(lv.rows))
    full = pyramid.levels[0]
    with Image.open(io.BytesIO(pyramid.tile_bytes(0, full.cols - 1, full.rows - 1))) as t:
        assert t.size == (W - (full.cols - 1) * 512, H - (full.rows - 1) * 512)


def test_a_build_cut_off_before_its_end_is_not_taken_for_a_pyramid(tmp_path, scan_png):
    """A program killed while tiling leaves its private folder, with tiles and even a description: never
    read as the cache; the next open builds the pyramid again and removes it."""
    digest = image_digest(scan_png)
    stale = tmp_path / "tiles" / f".{digest}.{2 ** 22 + 7}.1.partial"      # above any process number in use
    (stale / "0").mkdir(parents=True)
    (stale / "0" / "0_0.jpg").write_bytes(b"\xff\xd8 half a tile")
    (stale / "pyramid.toml").write_text('format = 1\nwidth = 1\nheight = 1\ntile = 512\next = "jpg"\nlevels = []\n')
    assert cached_pyramid(scan_png, tmp_path) is None
    pyramid = build_pyramid(scan_png, tmp_path)
    assert pyramid.folder == tmp_path / "tiles" / digest and (pyramid.width, pyramid.height) == (W, H)
    assert not stale.exists()


def test_a_job_cancelled_while_it_builds_leaves_nothing(qtbot, tmp_path, scan_map, monkeypatch):
    image = load_map(scan_map).image_path(load_map(scan_map).sheets[0])
    shown = threading.Event()
    original = PyramidJob._preview

    def preview_then_wait(job, small):      # the build goes on only once the GUI has had the preview
        original(job, small)
        assert shown.wait(60)

    monkeypatch.setattr(PyramidJob, "_preview", preview_then_wait)
    job = PyramidJob(image, tmp_path)
    job.preview.connect(lambda _: (job.cancel(), shown.set()))   # the window closed as soon as the scan was shown
    job.start()
    qtbot.waitUntil(lambda: job.wait(0), timeout=120_000)
    qtbot.wait(50)
    assert job.first_view is not None and job.pyramid is None and job.error is None
    assert list((tmp_path / "tiles").glob("*")) == []


def test_a_second_open_reads_the_cache_and_builds_nothing(qtbot, tmp_path, scan_map, monkeypatch):
    board = load_map(scan_map)
    first = shown_view(qtbot, tmp_path)
    first.show_board(board)
    assert first.wait_until_drawn(120)
    folder = first.images[0].pyramid.folder
    files = {p: p.stat().st_mtime_ns for p in folder.rglob("*")}

    def refuse(*a, **k):
        raise AssertionError("the pyramid was built again")

    monkeypatch.setattr(tiles, "_vips_bands", refuse)
    monkeypatch.setattr(tiles, "_write_levels", refuse)
    monkeypatch.setattr(tiles, "open_map_image", refuse)
    again = shown_view(qtbot, tmp_path)
    previews = []
    again.show_board(board)
    again.jobs[0].preview.connect(previews.append)
    assert again.wait_until_drawn(120)
    layer = again.images[0]
    assert layer.pyramid.folder == folder and again.jobs[0].error is None
    assert previews == [] and again.jobs[0].first_view is None
    assert {p: p.stat().st_mtime_ns for p in folder.rglob("*")} == files
    # and what it shows is read from those tiles: the scan
    assert correlation(render(layer), scan_small(board.image_path(board.sheets[0]))) > 0.95
    assert again.store.reads > 0


@pytest.mark.parametrize("engine", ENGINES)
def test_a_png_is_shown_growing_from_the_top_before_its_pyramid_is_built(qtbot, tmp_path, scan_png, engine,
                                                                         monkeypatch):
    """A PNG cannot be read small: the rows decoded so far are shown, small, from the top down, while the
    pyramid is built from the same decode; the pyramid then replaces them."""
    need(engine)
    monkeypatch.setenv("SANDTABLE_TILER", engine)
    final = tmp_path / "tiles" / image_digest(scan_png)
    # the build waits, after its first rows, until the view has drawn them: what is asserted below is seen
    # while the pyramid is certainly not finished, however fast the machine
    shown = threading.Event()
    original = PyramidJob._rows

    def rows_then_wait(job, level, top, strip):
        original(job, level, top, strip)
        if top == 0:
            assert shown.wait(60)

    monkeypatch.setattr(PyramidJob, "_rows", rows_then_wait)
    from gui.scene.sheetlayer import SheetLayer, TileStore

    layer = SheetLayer(W, H, TileStore())
    job = PyramidJob(scan_png, tmp_path)
    seen = []
    job.rows.connect(lambda level, top, image: (layer.add_rows(level, top, image),
                                                seen.append((level, top, image.height(),
                                                             Pyramid.load(final) is not None))))
    job.ready.connect(layer.set_pyramid)
    job.start()
    qtbot.waitUntil(lambda: bool(seen), timeout=60_000)
    level, top, height, built = seen[0]
    assert (level, top) == (min(tiles.PREVIEW_LEVEL, 3), 0) and not built and layer.pyramid is None
    first = render(layer)
    expected = scan_small(scan_png)
    # the top rows are the scan, small; below them the paper, until the decoder gets there
    grown = int(170 * height / layer.growing.height())
    assert 0 < grown < 170
    assert correlation(first[:grown], expected[:grown]) > 0.9
    assert np.abs(first[:grown] - expected[:grown]).mean() < 12
    paper = np.array([PAPER.red(), PAPER.green(), PAPER.blue()], dtype=float)
    assert np.abs(first[grown + 2:] - paper).max() <= 2
    shown.set()
    qtbot.waitUntil(lambda: job.finished, timeout=120_000)
    assert job.error is None and layer.pyramid is not None and layer.growing is None
    # the rows came in order, each band where the last one ended, down to the foot of the scan
    tops = [t for _, t, _, _ in seen]
    assert tops == sorted(tops) and all(t + h == n for (_, t, h, _), n in zip(seen, tops[1:]))
    assert seen[-1][1] + seen[-1][2] == -(-H // (1 << level))
    assert correlation(render(layer), expected) > 0.95


def test_with_progressive_off_a_png_shows_its_placeholder_until_the_pyramid_is_built(qtbot, tmp_path, scan_png,
                                                                                    monkeypatch):
    """``SANDTABLE_PROGRESSIVE=0``: the build before the growing first view, kept for the benchmark."""
    monkeypatch.setenv("SANDTABLE_PROGRESSIVE", "0")
    job = PyramidJob(scan_png, tmp_path)
    rows = []
    job.rows.connect(lambda *a: rows.append(a))
    job.start()
    qtbot.waitUntil(lambda: job.finished, timeout=120_000)
    assert job.pyramid is not None and rows == []


def test_a_png_from_the_cache_grows_nothing(qtbot, tmp_path, scan_png):
    build_pyramid(scan_png, tmp_path)
    job = PyramidJob(scan_png, tmp_path)
    rows = []
    job.rows.connect(lambda *a: rows.append(a))
    job.start()
    qtbot.waitUntil(lambda: job.finished, timeout=60_000)
    assert job.pyramid is not None and rows == [] and job.rows_shown == 0


def test_progress_is_handed_on_a_percent_at_a_time(qtbot, tmp_path, scan_png):
    """The builders report far more often than the status line's bar can be repainted for."""
    job = PyramidJob(scan_png, tmp_path)
    steps = []
    job.progress.connect(steps.append)
    for i in range(5001):
        job._progress(i / 5000)
    qtbot.waitUntil(lambda: len(steps) == 101, timeout=5_000)
    assert steps[0] == 0.0 and steps[-1] == 1.0


@pytest.mark.parametrize("engine", ENGINES)
def test_a_transparent_scan_grows_on_the_sheets_paper(tmp_path, engine):
    """A scan with an alpha channel (tiles kept as PNG) grows too: where it is transparent, the paper shows."""
    need(engine)
    rgb = np.zeros((H, W, 4), dtype=np.uint8)
    rgb[..., 0], rgb[..., 1], rgb[..., 2] = 40, 120, 60
    rgb[:, W // 2:, 3] = 255                      # the left half transparent
    path = tmp_path / "clear.png"
    Image.fromarray(rgb, "RGBA").save(path, compress_level=1)
    strips = []
    build_pyramid(path, tmp_path / "cache", rows=lambda level, top, im: strips.append((level, top, im)),
                  engine=engine)
    assert strips and [t for _, t, _ in strips] == sorted(t for _, t, _ in strips)
    level, top, strip = strips[0]
    a = np.asarray(strip, dtype=int)
    w = a.shape[1]
    assert np.abs(a[:, : w // 2 - 2] - tiles.PAPER_RGB).max() <= 2
    assert np.abs(a[:, w // 2 + 2:] - (40, 120, 60)).max() <= 3


def test_a_png_job_cancelled_while_it_grows_leaves_nothing(qtbot, tmp_path, scan_png, monkeypatch):
    shown = threading.Event()
    original = PyramidJob._rows

    def rows_then_wait(job, level, top, strip):     # the build goes on only once the GUI has had the rows
        original(job, level, top, strip)
        assert shown.wait(60)

    monkeypatch.setattr(PyramidJob, "_rows", rows_then_wait)
    job = PyramidJob(scan_png, tmp_path)
    job.rows.connect(lambda *a: (job.cancel(), shown.set()))   # the window closed as soon as the scan showed
    job.start()
    qtbot.waitUntil(lambda: job.wait(0), timeout=120_000)
    qtbot.wait(50)
    assert job.rows_shown > 0 and job.pyramid is None and job.error is None
    assert list((tmp_path / "tiles").glob("*")) == []


def test_a_first_view_that_fails_never_stops_the_build_nor_its_progress(tmp_path, scan_png, monkeypatch):
    """The growing picture is made in the thread that builds the pyramid: if it fails, the build goes on."""
    need("vips")

    failures = []

    def broken(band):
        failures.append(band)
        raise RuntimeError("rows that cannot be shown")

    monkeypatch.setattr(tiles, "on_paper", broken)
    steps, strips = [], []
    pyramid = build_pyramid(scan_png, tmp_path, progress=steps.append, engine="vips",
                            rows=lambda *a: strips.append(a))
    assert failures and strips == [] and steps and pyramid.levels[0].width == W
    assert list((tmp_path / "tiles").iterdir()) == [pyramid.folder]
    # and a cancel asked after the failure still stops the build and leaves nothing
    failures.clear()
    with pytest.raises(BuildCancelled):
        build_pyramid(scan_png, tmp_path / "again", engine="vips", rows=lambda *a: strips.append(a),
                      cancelled=lambda: bool(failures))
    assert failures and list((tmp_path / "again" / "tiles").glob("*")) == []


def test_a_cache_of_the_earlier_layout_is_built_again_in_the_new_one(tmp_path, scan_png):
    """A pyramid cached by the version before tile rows (a file per tile, format 1) is not read: the open
    builds the pyramid again, in its place, and every tile is the scan's."""
    digest = image_digest(scan_png)
    old = tmp_path / "tiles" / digest
    (old / "0").mkdir(parents=True)
    (old / "0" / "0_0.jpg").write_bytes(b"\xff\xd8 a tile of the old layout")
    (old / "pyramid.toml").write_text('format = 1\nwidth = 1\nheight = 1\ntile = 512\next = "jpg"\nlevels = []\n')
    assert cached_pyramid(scan_png, tmp_path) is None
    pyramid = build_pyramid(scan_png, tmp_path)
    assert pyramid.folder == old and (pyramid.width, pyramid.height) == (W, H)
    assert not (old / "0" / "0_0.jpg").exists() and list((tmp_path / "tiles").iterdir()) == [old]
    assert cached_pyramid(scan_png, tmp_path) == pyramid


def test_a_damaged_row_of_tiles_reads_as_no_tile(tmp_path, scan_png):
    """A row file cut short or overwritten gives no tile (the view draws the coarser level), never an error."""
    pyramid = build_pyramid(scan_png, tmp_path)
    row = pyramid.row_path(0, 0)
    whole = row.read_bytes()
    row.write_bytes(whole[: len(whole) // 2])
    assert pyramid.tile_bytes(0, 0, 0) is not None and pyramid.tile_bytes(0, pyramid.levels[0].cols - 1, 0) is None
    row.write_bytes(b"not a row of tiles")
    assert pyramid.tile_bytes(0, 0, 0) is None and pyramid.tile_bytes(0, 99, 0) is None
    row.unlink()
    assert pyramid.tile_bytes(0, 0, 0) is None


def test_a_jpeg_small_enough_is_built_whole_without_a_first_view(tmp_path, scan_map, monkeypatch):
    """A JPEG the pyramid of which takes about a second is not read small first: the sharp view comes sooner."""
    monkeypatch.setattr(tiles, "QUICK_PIXELS", W * H)
    image = load_map(scan_map).image_path(load_map(scan_map).sheets[0])
    previews = []
    pyramid = build_pyramid(image, tmp_path, preview=previews.append)
    assert previews == [] and pyramid.first == 0 and pyramid.tile_bytes(0, 0, 0)
    monkeypatch.setattr(tiles, "QUICK_PIXELS", W * H - 1)
    pyramid = build_pyramid(image, tmp_path / "again", preview=previews.append)
    assert len(previews) == 1 and previews[0].first > 0 and pyramid.first == 0


def test_when_the_pyramid_is_ready_a_zoomed_view_reads_the_finest_tiles_it_shows_and_no_others(
        qtbot, tmp_path, scan_map):
    """A view zoomed in while the first view is shown turns sharp when the pyramid is ready, without being
    moved: the tiles on screen are read, and not every tile of the sheet (a 32,000 x 20,000 scan at 130 %
    stayed blurred until panned, its 2,520 finest tiles all asked for and the ones on screen dropped)."""
    board = load_map(scan_map)
    view = shown_view(qtbot, tmp_path, size=(420, 300))
    view.show_board(board)
    layer, job = view.images[0], view.jobs[0]
    view.set_zoom(1.3)
    view.centerOn(layer.scene_rect().center())
    qtbot.waitUntil(lambda: job.finished, timeout=120_000)
    folder = str(layer.pyramid.folder)
    on_screen = layer.to_scene.inverted()[0].mapRect(
        view.mapToScene(view.viewport().rect()).boundingRect()).intersected(layer.rect())
    wanted = {(folder, 0, c, r) for c, r in layer.visible_tiles(on_screen, 0)}
    qtbot.waitUntil(lambda: wanted <= set(layer.store._pixmaps), timeout=20_000)
    qtbot.wait(200)
    read = {k for k in layer.store._pixmaps if k[0] == folder and k[1] == 0}
    all_tiles = layer.pyramid.levels[0].cols * layer.pyramid.levels[0].rows
    assert len(wanted) < all_tiles / 2
    assert read == wanted
    assert layer.last_level == 0
