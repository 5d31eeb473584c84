"""The TCS set-up phase in the play window, offscreen: the person drags counters within their set-up areas (the
area lit while a counter is held), a drop outside is refused with its rule, and "Finish set-up" ends the side's
set-up, refused with what is still wrong."""
from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt

from playwindow import play_window

SCEN = Path(__file__).resolve().parent.parent / "scenarios"


@pytest.fixture
def win(qtbot, tmp_path, monkeypatch):
    w = play_window(qtbot, tmp_path, size=(1500, 950), monkeypatch=monkeypatch)
    assert w.open_file(SCEN / "leros-3-night-melee.toml")
    return w


def hx(w, hid):
    return w.session.board.parse_hex(hid)


def press_and_hold(qtbot, w, hid):
    view = w.map_view
    view.centre_on_hex(hx(w, hid))
    p = view.mapFromScene(view.hex_centre(hx(w, hid)))
    qtbot.mousePress(view.viewport(), Qt.LeftButton, pos=p)
    qtbot.mouseMove(view.viewport(), p + QPoint(8, 4))
    return p


def drop_on(qtbot, w, hid):
    view = w.map_view
    p = view.mapFromScene(view.hex_centre(hx(w, hid)))
    qtbot.mouseMove(view.viewport(), p)
    qtbot.mouseRelease(view.viewport(), Qt.LeftButton, pos=p)


def test_the_german_drags_a_counter_within_its_lit_area_and_is_refused_outside_it(win, qtbot):
    s = win.session
    assert s.setting_up() and win.phase_bar.next_act.text() == "Finish set-up"
    assert win.tcs.clock.marked_step().startswith("Set-up before play") and "(Germans)" in win.tcs.clock.marked_step()
    start = s.rules.hid(s.state.units["6-II-65-1"].hex)
    press_and_hold(qtbot, win, start)
    moving = win.tcs.selected_unit
    lit = set(win.map_view.overlay.costs)
    assert lit == s.rules.setup_phase.hexes_for(s.state, moving) and len(lit) > 20
    assert "set-up area" in win.statusBar().currentMessage()
    drop_on(qtbot, win, "B42.26")
    assert s.game.log[-1].action.text() == f"place {moving} B42.26"
    press_and_hold(qtbot, win, "B42.26")
    view = win.map_view
    view.set_zoom(0.5)
    drop_on(qtbot, win, "B42.23")                          # 7 hexes from B42.30: outside the company's area
    assert win.last_refusal.startswith("Leros 5.1d: ") and "outside that area" in win.last_refusal
    assert s.rules.hid(s.state.units[moving].hex) == "B42.26"


def test_finish_set_up_ends_each_side_and_says_what_is_wrong(win, qtbot):
    s = win.session
    # the British unit nearest the Germans, put next to a German outside a village: the British set-up is refused
    win.next_phase()                                       # the Germans accept their set-up
    assert s.state.setup == ["british"] and win.phase_bar.next_act.text() == "Finish set-up"
    rules, st = s.rules, s.state
    uid = next(k for k in rules.order if rules.specs[k].side == "british" and k in rules.setup_phase.areas
               and len(rules.setup_phase.areas[k]) > 7 and rules.board.terrain[st.units[k].hex] == "clear")
    german = next(k for k in rules.order if rules.specs[k].side == "german" and st.units[k].hex is not None)
    st.units[german].hex = next(n for n in rules.board.neighbors(st.units[uid].hex)
                                if rules.board.terrain.get(n) not in ("sea", "village", "building"))
    win.next_phase()
    assert win.last_refusal.startswith("Leros 5.1a: British units may not set up next to a German unit")
    assert uid in win.last_refusal and s.state.setup == ["british"]
