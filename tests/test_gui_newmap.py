"""The "new map from scans" dialog: a TCS sheet whose rows count up from its bottom edge."""
from __future__ import annotations

from PIL import Image

from engine.maps.mapedit import new_board
from gui.mapeditor.newmap import NewMapDialog


def test_a_tcs_sheet_with_rows_numbered_upward(qtbot, tmp_path):
    scan = tmp_path / "sheet-a.png"
    Image.new("RGB", (40, 30), "white").save(scan)
    dialog = NewMapDialog()
    qtbot.addWidget(dialog)
    dialog.add_image(str(scan), "A", cols=63, rows=36)
    dialog.row_direction.setCurrentIndex(dialog.row_direction.findData("up"))
    (spec,) = dialog.specs()
    assert (spec.id, spec.cols, spec.rows, spec.row_direction) == ("A", 63, 36, "up")
    board = new_board("Stand-in", "flat", [spec])
    ns = board.sheets[0].numbering
    assert ns.top_row == 36 and ns.colrow_to_hex(1, 36) == board.parse_hex("A01.36")
    x, y_low = board.center(board.parse_hex("A05.01"))
    _x, y_high = board.center(board.parse_hex("A05.02"))
    assert y_low > y_high            # row 01 is drawn below row 02
