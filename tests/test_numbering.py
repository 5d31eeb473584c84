"""Printed hex ids to lattice hexes and back, for every numbering scheme."""
import pytest
from hypothesis import given, strategies as st

from engine.errors import BadHexId
from engine.maps.hexes import FLAT, POINTY, Hex, Layout, hex_distance, hex_neighbors
from engine.maps.numbering import NumberingScheme

schemes = st.builds(
    NumberingScheme,
    style=st.sampled_from(["tcs", "classic"]),
    sheet=st.sampled_from(["A", "B", "C"]),
    orientation=st.sampled_from([FLAT, POINTY]),
    first_col=st.integers(0, 20),
    first_row=st.integers(0, 20),
    cols=st.integers(1, 40),
    rows=st.integers(1, 40),
    shifted=st.sampled_from(["even", "odd"]),
    origin=st.tuples(st.integers(-30, 30), st.integers(-30, 30)),
    row_direction=st.sampled_from(["down", "up"]),
)


@given(schemes, st.data())
def test_id_to_hex_to_id_round_trips(scheme, data):
    col = data.draw(st.integers(scheme.first_col, scheme.first_col + scheme.cols - 1))
    row = data.draw(st.integers(scheme.first_row, scheme.first_row + scheme.rows - 1))
    text = scheme.format_colrow(col, row)
    h = scheme.parse(text)
    assert scheme.format(h) == text
    assert scheme.hex_to_colrow(h) == (col, row)


@given(schemes)
def test_every_sheet_hex_is_distinct(scheme):
    hexes = scheme.hexes()
    assert len(set(hexes)) == scheme.cols * scheme.rows


def test_tcs_ids_and_classic_ids():
    tcs = NumberingScheme(style="tcs", sheet="B", cols=40, rows=40)
    assert tcs.format(tcs.parse("B34.16")) == "B34.16"
    classic = NumberingScheme(style="classic", cols=30, rows=20)
    assert classic.format(classic.parse("0512")) == "0512"
    with pytest.raises(BadHexId, match="expected CCRR"):
        classic.parse("B05.12")
    with pytest.raises(BadHexId, match="off the sheet"):
        classic.parse("3105")


def test_flat_top_shifted_columns_lie_half_a_hex_lower():
    lay = Layout(FLAT)
    even = NumberingScheme(style="classic", orientation=FLAT, cols=10, rows=10, shifted="even")
    y1 = lay.hex_to_pixel(even.parse("0105"))[1]
    y2 = lay.hex_to_pixel(even.parse("0205"))[1]
    assert y2 - y1 == pytest.approx(3 ** 0.5 / 2)
    odd = NumberingScheme(style="classic", orientation=FLAT, cols=10, rows=10, shifted="odd")
    y1 = lay.hex_to_pixel(odd.parse("0105"))[1]
    y2 = lay.hex_to_pixel(odd.parse("0205"))[1]
    assert y1 - y2 == pytest.approx(3 ** 0.5 / 2)


def test_flat_top_neighbours_of_a_printed_hex():
    # Even columns shifted down: 0505 (odd column) touches 0404, 0405, 0604, 0605, 0504, 0506.
    s = NumberingScheme(style="classic", orientation=FLAT, cols=10, rows=10, shifted="even")
    names = {s.format(n) for n in hex_neighbors(s.parse("0505"))}
    assert names == {"0404", "0405", "0604", "0605", "0504", "0506"}
    # and 0605 (even column, shifted down) touches 0505, 0506, 0705, 0706, 0604, 0606.
    names = {s.format(n) for n in hex_neighbors(s.parse("0605"))}
    assert names == {"0505", "0506", "0705", "0706", "0604", "0606"}


def test_pointy_top_shifted_rows_lie_half_a_hex_right():
    lay = Layout(POINTY)
    s = NumberingScheme(style="classic", orientation=POINTY, cols=10, rows=10, shifted="even")
    x1 = lay.hex_to_pixel(s.parse("0301"))[0]
    x2 = lay.hex_to_pixel(s.parse("0302"))[0]
    assert x2 - x1 == pytest.approx(3 ** 0.5 / 2)
    assert hex_distance(s.parse("0301"), s.parse("0302")) == 1


def test_rows_numbered_up_put_row_01_on_the_bottom_edge():
    """TCS sheets count rows from the bottom edge: A05.01 is below A05.02, and the top row is the last."""
    ns = NumberingScheme(style="tcs", sheet="A", orientation=FLAT, cols=10, rows=8, row_direction="up")
    lay = Layout(FLAT)
    assert (ns.top_row, ns.bottom_row) == (8, 1)
    assert ns.colrow_to_hex(1, 8) == Hex(0, 0)          # the origin is the top-left hex, A01.08
    below, above = lay.hex_to_pixel(ns.parse("A05.01")), lay.hex_to_pixel(ns.parse("A05.02"))
    assert below[0] == above[0] and below[1] > above[1]
    assert hex_distance(ns.parse("A05.01"), ns.parse("A05.02")) == 1
    assert ns.printed_rows() == [8, 7, 6, 5, 4, 3, 2, 1]
    assert ns.hexes()[0] == ns.parse("A01.08") and ns.hexes()[-1] == ns.parse("A10.01")


def test_rows_up_sheets_join_by_sharing_a_row():
    a = NumberingScheme(style="tcs", sheet="A", cols=5, rows=6, row_direction="up", origin=(0, 0))
    b = NumberingScheme(style="tcs", sheet="B", cols=5, rows=6, row_direction="up", origin=(0, -5))
    for col in range(1, 6):
        assert a.parse(f"A{col:02d}.06") == b.parse(f"B{col:02d}.01")
    assert hex_distance(a.parse("A03.05"), b.parse("B03.02")) == 2


def test_bad_row_direction_is_refused():
    with pytest.raises(ValueError, match="row_direction must be one of"):
        NumberingScheme(style="tcs", sheet="A", row_direction="sideways")
