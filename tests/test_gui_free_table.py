"""The free-play table in the window, offscreen: drag anywhere, the table's tools, blanks for hidden counters."""
from __future__ import annotations

from pathlib import Path

import pytest

from playwindow import play_window
from gui.scene.tablelook import DressedUnit
from test_gui_play import drag

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = ROOT / "scenarios" / "free-demo.toml"


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    win = play_window(qtbot, tmp_path, SCENARIO, size=(1200, 800), monkeypatch=monkeypatch)
    return win


def test_a_counter_dragged_far_across_the_map_lands_there_and_the_table_tools_show(window, qtbot):
    s, b = window.session, window.board
    assert window.table_panel.isVisible()
    frm, to = b.parse_hex("A02.08"), b.parse_hex("A20.15")
    drag(qtbot, window.map_view, frm, to)
    assert s.state.units["b-1"].hex == to, window.last_refusal
    assert s.log_lines()[-1] == "1. move b-1 A02.08-A20.15 — b-1 A02.08 to A20.15"


def test_the_panel_rolls_dice_flips_marks_and_writes_notes_through_the_log(window, qtbot):
    s, b, panel = window.session, window.board, window.table_panel
    panel.count.setValue(2)
    panel.sides.setValue(10)
    panel.purpose.setText("barrage")
    panel.roll_btn.click()
    assert panel.roll_label.text().startswith("rolled 2d10 for barrage: ")
    window.map_view.picked.emit(s.scenario.units["b-2"], b.parse_hex("A03.09"))
    panel.flip_btn.click()
    panel.marker.setCurrentText("Dug in")
    panel.mark_btn.click()
    panel.steps.setValue(1)
    panel.steps_btn.click()
    panel.note_text.setText("ford")
    panel.note_btn.click()
    assert [e.action.text() for e in s.game.log] == ["roll 2d10 for barrage", "flip b-2", "mark b-2 Dug in",
                                                      "steps b-2 1", "note A03.09 ford"]
    shown = {u.id: u for u, _ in s.pieces()}["b-2"]
    assert isinstance(shown, DressedUnit) and (shown.attack, shown.defense) == (2, 2)      # its back: 2-2-4
    assert shown.art_key == "b-2|back|-1|Dug in"
    assert "A03.09: ford" in panel.notes_label.text()
    picture = window.map_view.art.render(shown, 64)
    assert picture.pixelColor(50, 8).red() > 150 and picture.pixelColor(50, 8).green() < 80   # the red -1 corner


def test_hidden_counters_show_as_blanks_until_revealed(window):
    s = window.session
    shown = {u.id: u for u, _ in s.pieces()}
    assert shown["r-1"].blank and shown["r-1"].art_key == "r-1|down" and not getattr(shown["b-1"], "blank", False)
    window.map_view.picked.emit(s.scenario.units["r-1"], window.board.parse_hex("A11.09"))
    window.table_panel.reveal_btn.click()
    shown = {u.id: u for u, _ in s.pieces()}
    assert not isinstance(shown["r-1"], DressedUnit)          # face up, no marker: the scenario's own counter
    assert "r-1" not in s.rules.hidden_units(s.state)


def test_a_click_on_a_stack_picks_its_top_counter_for_the_tools(window, qtbot):
    from PySide6.QtCore import Qt

    view = window.map_view
    h = window.board.parse_hex("A11.09")
    qtbot.mouseClick(view.viewport(), Qt.LeftButton, pos=view.mapFromScene(view.hex_centre(h)))
    assert window.table_panel.unit_id == "r-1"
    assert window.table_panel.unit_label.text() == "r-1: face down"
