"""Map art: the drawn grid lies under the sheet's transform, terrain is drawn where it is, output is repeatable."""
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageFont

from engine.maps.art import palette
from engine.maps.board import Board, Sheet
from engine.maps.hexes import FLAT, hexside
from engine.maps.art import render_board, render_sheet, sheet_frame, sheet_margins
from engine.maps.art.shapes import joined_sides, printed_rect
from engine.maps.numbering import NumberingScheme

PX = 48


def small_board(sheets="A") -> Board:
    """A 7 x 6 flat-top sheet (or several side by side): a lake, a woods hex, a river hexside, a road."""
    out = []
    for i, sid in enumerate(sheets):
        ns = NumberingScheme(style="tcs", sheet=sid, orientation=FLAT, cols=7, rows=6, origin=(7 * i, -3 * i))
        out.append(Sheet(sid, ns))
    board = Board(name="Small", orientation=FLAT, sheets=out)
    p = board.parse_hex
    board.terrain = {h: "clear" for h in board.hexes()}
    board.terrain[p("A02.02")] = "lake"
    board.terrain[p("A06.02")] = "woods"
    board.elevation = {h: 20.0 for h in board.hexes()}
    board.elevation[p("A04.05")] = 40.0
    board.hexsides = {hexside(p("A04.03"), p("A05.03")): {"river"}}
    board.links = {"road": {hexside(p("A02.05"), p("A03.05")), hexside(p("A03.05"), p("A04.05")),
                            hexside(p("A02.03"), p("A01.03"))}}
    return board


def gray_at(gray: Image.Image, u: float, v: float, reach: int = 1) -> int:
    """The darkest pixel within ``reach`` pixels of the image point (u, v)."""
    i, j = int(u), int(v)
    return min(gray.getpixel((i + di, j + dj)) for di in range(-reach, reach + 1) for dj in range(-reach, reach + 1))


def mean_rgb(img: Image.Image, u: float, v: float, r: int) -> tuple[float, float, float]:
    crop = np.asarray(img.crop((int(u) - r, int(v) - r, int(u) + r + 1, int(v) + r + 1)).convert("RGB"), dtype=float)
    return tuple(float(x) for x in crop.reshape(-1, 3).mean(axis=0))


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    board = small_board()
    out = tmp_path_factory.mktemp("art") / "small.png"
    paths = render_board(board, out, px_per_hex=PX)
    return board, paths[0]


def test_the_sheet_transform_puts_hex_corners_on_drawn_grid_lines(rendered):
    board, path = rendered
    sheet = board.sheets[0]
    with Image.open(path) as img:
        gray = img.convert("L")
        for hid in ("A01.01", "A03.03", "A04.04", "A07.06", "A05.01"):
            h = board.parse_hex(hid)
            for cx, cy in board.layout.polygon_corners(h):
                u, v = sheet.transform.apply(cx, cy)
                assert gray_at(gray, u, v) < 140, (hid, cx, cy)
            # between the centre dot and the id, off every line, the paper is light
            cx, cy = board.center(h)
            u, v = sheet.transform.apply(cx + 0.45, cy + 0.3)
            assert gray_at(gray, u, v, 0) > 170, hid


def test_the_sheet_transform_puts_hex_centres_on_the_centre_dots(rendered):
    board, path = rendered
    sheet = board.sheets[0]
    with Image.open(path) as img:
        gray = img.convert("L")
        for h in board.hexes():
            if board.terrain[h] != "clear":
                continue
            u, v = sheet.transform.apply(*board.center(h))
            assert gray_at(gray, u, v, 0) < 150, board.hex_id(h)


def test_the_image_size_and_transform_are_the_frame_of_the_sheet(rendered):
    board, path = rendered
    sheet = board.sheets[0]
    transform, size = sheet_frame(board, sheet, PX)
    assert sheet.transform == transform and sheet.image == "small.png"
    with Image.open(path) as img:
        assert img.size == size
    # neighbouring hex centres are px_per_hex pixels apart
    a = sheet.transform.apply(*board.center(board.parse_hex("A03.03")))
    b = sheet.transform.apply(*board.center(board.parse_hex("A03.04")))
    assert abs(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5 - PX) < 1e-9


def test_terrain_rivers_and_roads_are_drawn_where_the_board_has_them(rendered):
    board, path = rendered
    sheet = board.sheets[0]
    p = board.parse_hex
    with Image.open(path) as img:
        img = img.convert("RGB")
        u, v = sheet.transform.apply(*board.center(p("A02.02")))
        r, g, b = mean_rgb(img, u + 8, v + 6, 3)
        assert b > r + 40, "the lake is blue"
        u, v = sheet.transform.apply(*board.center(p("A06.02")))
        r, g, b = mean_rgb(img, u, v, 12)
        assert g > r + 10 and g > b + 30, "the woods are green"
        (ax, ay), (bx, by) = board.center(p("A04.03")), board.center(p("A05.03"))
        r, g, b = mean_rgb(img, *sheet.transform.apply((ax + bx) / 2, (ay + by) / 2), 1)
        assert b > r + 40, "the river runs along the hexside"
        (ax, ay), (bx, by) = board.center(p("A02.05")), board.center(p("A03.05"))
        r, g, b = mean_rgb(img, *sheet.transform.apply(0.7 * ax + 0.3 * bx, 0.7 * ay + 0.3 * by), 0)
        assert r > b + 60, "the road runs from centre to centre (off the grid line between them)"
        r0, g0, b0 = mean_rgb(img, *sheet.transform.apply(*board.center(p("A04.05"))), 10)
        r1, g1, b1 = mean_rgb(img, *sheet.transform.apply(*board.center(p("A06.05"))), 10)
        assert r0 + g0 + b0 < r1 + g1 + b1 - 15, "the hill is tinted darker than the ground"


def test_a_road_heading_off_the_board_runs_to_the_frame_and_stops_there(rendered):
    board, path = rendered
    sheet = board.sheets[0]
    (ax, ay), (bx, by) = board.center(board.parse_hex("A02.03")), board.center(board.parse_hex("A01.03"))
    x0 = board.layout.polygon_corners(board.parse_hex("A01.03"))[3][0]   # the west edge of the printed map
    assert abs(x0 - (bx - 1.0)) < 1e-9
    with Image.open(path) as img:
        img = img.convert("RGB")
        t = 0.58   # past A01.03's hexside, short of the frame
        r, g, b = mean_rgb(img, *sheet.transform.apply(bx + t * (bx - ax), by + t * (by - ay)), 0)
        assert r > b + 50, "the road is drawn on beyond its last hex"
        t = 0.95   # in the margin outside the frame
        r, g, b = mean_rgb(img, *sheet.transform.apply(bx + t * (bx - ax), by + t * (by - ay)), 0)
        assert r - b < 45 and r > 190, "the margin is plain paper"


def test_rendering_is_deterministic(tmp_path):
    one = render_board(small_board(), tmp_path / "one.png", px_per_hex=PX)[0]
    two = render_board(small_board(), tmp_path / "two.png", px_per_hex=PX)[0]
    assert one.read_bytes() == two.read_bytes()
    three = render_board(small_board(), tmp_path / "three.png", px_per_hex=PX, seed=2)[0]
    assert three.read_bytes() != one.read_bytes()


def test_each_sheet_of_a_multi_sheet_board_gets_its_own_image_and_transform(tmp_path):
    board = small_board("AB")
    paths = render_board(board, tmp_path / "two.png", px_per_hex=PX)
    assert [p.name for p in paths] == ["two-A.png", "two-B.png"]
    assert [s.image for s in board.sheets] == ["two-A.png", "two-B.png"]
    sheet = board.sheet("B")
    with Image.open(paths[1]) as img:
        gray = img.convert("L")
        for hid in ("B01.01", "B04.03", "B07.06"):
            for cx, cy in board.layout.polygon_corners(board.parse_hex(hid)):
                assert gray_at(gray, *sheet.transform.apply(cx, cy)) < 140, hid
    assert board.sheet("A").transform != sheet.transform


def test_jpeg_output_and_an_unknown_image_type_is_refused_without_writing(tmp_path):
    board = small_board()
    jpg = render_board(board, tmp_path / "small.jpg", px_per_hex=PX)[0]
    with Image.open(jpg) as img:
        assert img.format == "JPEG"
    with pytest.raises(ValueError, match=r"small\.gif: map images are \.png or \.jpg, not \.gif"):
        render_board(board, tmp_path / "small.gif", px_per_hex=PX)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["small.jpg"]


def test_without_dejavu_the_default_font_is_used(monkeypatch):
    real = ImageFont.truetype

    def missing(font=None, *args, **kwargs):
        if isinstance(font, str):  # a font looked up by name is not installed
            raise OSError("cannot open resource")
        return real(font, *args, **kwargs)

    palette.font.cache_clear()
    monkeypatch.setattr(ImageFont, "truetype", missing)
    try:
        board = small_board()
        art = render_sheet(board, board.sheets[0], px_per_hex=PX)
        font = palette.font(12)
        assert not isinstance(font, ImageFont.FreeTypeFont) or "DejaVu" not in str(getattr(font, "path", ""))
        assert art.image.size == sheet_frame(board, board.sheets[0], PX)[1]
    finally:
        palette.font.cache_clear()


def test_a_sheet_too_big_to_supersample_is_drawn_at_its_final_size_on_the_same_grid(monkeypatch, tmp_path):
    import engine.maps.art as art

    board = small_board()
    normal = render_sheet(board, board.sheets[0], px_per_hex=PX)
    monkeypatch.setattr(art, "MAX_DRAWING_PIXELS", 1000)
    plain = render_sheet(board, board.sheets[0], px_per_hex=PX)
    assert plain.image.size == normal.image.size and plain.transform == normal.transform
    assert plain.image.tobytes() != normal.image.tobytes()
    gray = plain.image.convert("L")
    for hid in ("A02.03", "A05.04"):
        for cx, cy in board.layout.polygon_corners(board.parse_hex(hid)):
            assert gray_at(gray, *plain.transform.apply(cx, cy)) < 140, hid


def test_sheets_that_share_a_row_are_printed_without_paper_between_them():
    """TCS sheets overlap by a row: where one carries the map on, the other has no margin, frame or title."""
    def sheet(sid, origin):
        return Sheet(sid, NumberingScheme(style="tcs", sheet=sid, orientation=FLAT, cols=7, rows=6,
                                          row_direction="up", origin=origin))
    board = Board(name="Stacked", orientation=FLAT, sheets=[sheet("A", (0, 0)), sheet("B", (0, -5))])
    board.invalidate()
    assert board.parse_hex("A03.06") == board.parse_hex("B03.01")
    a, b = board.sheet("A"), board.sheet("B")
    assert joined_sides(board, a) == {"top"} and joined_sides(board, b) == {"bottom"}
    (ma, strip_a), (mb, strip_b) = sheet_margins(board, a), sheet_margins(board, b)
    assert ma["top"] == 0.0 and mb["bottom"] == 0.0 and ma["left"] > 0.0
    assert strip_a == "bottom" and strip_b == "top"          # each title goes where no sheet follows
    ta, _ = sheet_frame(board, a, PX)
    tb, _ = sheet_frame(board, b, PX)
    top_of_a = printed_rect(board, a).bounds[1]
    assert abs(ta.apply(0.0, top_of_a)[1]) < 1e-9            # sheet A's image starts at its shared row
    assert joined_sides(small_board(), small_board().sheets[0]) == set()
