"""Printed hex ids to lattice hexes and back, for every numbering scheme."""
import pytest
from hypothesis import given, strategies as st

from engine.errors import BadHexId
from engine.maps.hexes import FLAT, POINTY, Layout, hex_distance, hex_neighbors
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
