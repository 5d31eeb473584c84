"""The TCS panels of the play window, offscreen: the real widgets driven, the engine's state checked after each."""
from __future__ import annotations

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt
from PySide6.QtGui import QDropEvent

from engine.maps.hexes import hex_distance
from gui.play.window import MainWindow
from gui.tcs.panels import UNIT_MIME
from gui.tcs.session import TcsSession
from playwindow import play_window
from tcs_fixtures import SCENARIO, filled_memory


def owner_memory():
    """The cells an owner has entered (counter values, terrain, spotting, a few fire and barrage values)."""
    m = filled_memory()
    m.put("tcs.air_sortie", ("11",), 0)
    m.put("tcs.barrage_values", ("122mm", "battery"), 8)
    m.put("tcs.barrage_values", ("105mm", "battalion"), 12)
    m.put("tcs.barrage_values", ("82mm", "battery"), 4)
    return m


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    win = play_window(qtbot, tmp_path, SCENARIO, size=(1500, 950), monkeypatch=monkeypatch)
    game = win.session.game
    # a game started with the owner's chart entries already in it, as a new game reads them
    game.state = game.rules.initial_state(game.seed, memory=owner_memory())
    win.session.changed.emit()
    return win


def state(win):
    return win.session.state


def step(win):
    return win.session.rules.current(state(win))


def hx(win, hid):
    return win.session.board.parse_hex(hid)


def click_hex(qtbot, win, hid):
    view = win.map_view
    p = view.mapFromScene(view.hex_centre(hx(win, hid)))
    qtbot.mouseClick(view.viewport(), Qt.LeftButton, pos=p)


def drag_through(qtbot, win, hids):
    view = win.map_view
    vp = view.viewport()
    pts = [view.mapFromScene(view.hex_centre(hx(win, h))) for h in hids]
    qtbot.mousePress(vp, Qt.LeftButton, pos=pts[0])
    qtbot.mouseMove(vp, pts[0] + QPoint(8, 4))
    for p in pts[1:]:
        qtbot.mouseMove(vp, p)
    qtbot.mouseRelease(vp, Qt.LeftButton, pos=pts[-1])


def answer(win, value):
    """Answer the question pending: a printed result in the window's chart prompt panel, a decision in the TCS
    question panel (its button, or its list of answers and Enter)."""
    p = state(win).pending
    if p and p[0]["kind"] == "chart" and win.tcs.chart_dock_asks():
        assert win.charts.dock.isVisibleTo(win) and str(value) in win.charts.dock.choice_texts()
        win.charts.dock.choose(value)
        return
    dock = win.tcs.pending
    for b in dock.buttons:
        if b.text() == str(value):
            b.click()
            return
    i = dock.many.findText(str(value))
    assert dock.pick_box.isVisibleTo(dock) and i >= 0, (value, [b.text() for b in dock.buttons])
    dock.many.setCurrentIndex(i)
    dock.enter.click()


ANSWERS = {"tcs.bn_morale_reduction": 0, "tcs.area_fire": "-", "tcs.morale": "-", "tcs.area_fire_column": 4,
           "tcs.air_sortie": 0, "tcs.artillery_adjustment": "Good"}


def end_until(win, wanted, side=None, first="red", limit=80):
    """Press Next (and answer questions in the panel) until the game is at ``wanted`` for ``side``."""
    answers = ANSWERS
    for _ in range(limit):
        p = state(win).pending
        if p:
            if p[0]["kind"] == "choice":
                answer(win, win.session.rules.scenario.sides[first].name)
            else:
                answer(win, answers[p[0]["prompt"].slot])
            continue
        _ph, stp, who = step(win)
        if stp == wanted and (side is None or who == side):
            return
        win.phase_bar.next_act.trigger()
    raise AssertionError(f"never reached {wanted}")


# ---------------------------------------------------------------- opening and the clock panel

def test_a_tcs_scenario_opens_on_its_map_with_the_tcs_panels(window):
    assert isinstance(window.session, TcsSession)
    assert len(window.map_view.stacks) == 10 and window.tcs.clock.isVisible() and window.tcs.sheets.isVisible()
    assert not window.combat.isVisible()                      # the battle panel is another ruleset's
    assert window.phase_bar.label.text() == "1700 10 Feb, day turn — Command Phase: Op Sheet review (Red)"
    assert window.phase_bar.next_act.text() == "Next step"


def test_clock_panel_shows_the_clock_weather_visibility_and_marks_the_step_next_plays_end(window):
    c = window.tcs.clock
    assert c.clock.text() == "1700 10 Feb"
    assert c.turn.text() == "Turn 1 of 5 · day turn · full hour"
    assert c.weather.text() == "Weather: clear · visibility 20 hexes"     # day 20, clear 60: the lesser
    assert c.marked_step() == "Command Phase: Op Sheet review (Red)"
    assert c.sequence.count() == len(window.session.rules.sequence(0))
    window.phase_bar.next_act.trigger()                  # the window's one Next button ends the step
    assert step(window) == ("command", "review", "blue")
    assert c.marked_step() == "Command Phase: Op Sheet review (Blue)"
    assert window.session.log_lines()[-1] == "1. end — red ends review"


def test_clock_panel_offers_the_other_legal_actions_like_a_change_of_mode(window):
    end_until(window, "action", "red")
    c = window.tcs.clock
    texts = [c.others.itemData(i) for i in range(c.others.count())]     # each shown in words, its action the data
    assert "mode 1-1 fire" in texts and not any(t.startswith("move ") for t in texts)
    c.others.setCurrentIndex(texts.index("mode 1-1 fire"))
    c.play_other.click()
    assert state(window).units["1-1"].mode == "fire"
    assert window.tcs.state_marks.states[hx(window, "B02.04")][0] == "fire"     # the counter's flag follows


# ---------------------------------------------------------------- Op Sheets

def test_op_sheet_list_per_side_and_the_review_buttons_play_complete_and_cancel(window):
    d = window.tcs.sheets
    rows = {d.tree.topLevelItem(i).text(0): [d.tree.topLevelItem(i).text(c) for c in range(6)]
            for i in range(d.tree.topLevelItemCount())}
    assert rows == {"R1": ["R1", "attack", "1-Bn", "1-1, 1-2, T-1", "implemented", "0"],
                    "R2": ["R2", "hasty defense", "1-Bn", "1-3", "not implemented", "5"]}
    d.side.setCurrentIndex(d.side.findData("blue"))
    assert sorted(d.tree.topLevelItem(i).text(0) for i in range(d.tree.topLevelItemCount())) == ["B1", "B2"]
    d.side.setCurrentIndex(d.side.findData("red"))
    d.select_sheet("R2")
    assert d.buttons["cancel"].isEnabled() and not d.buttons["complete"].isEnabled()
    d.buttons["cancel"].click()
    assert "R2" not in state(window).sheets and state(window).units["1-3"].sheet == ""
    d.select_sheet("R1")
    d.buttons["complete"].click()
    assert "R1" not in state(window).sheets and state(window).units["1-1"].sheet == ""


def test_implement_button_rolls_on_the_command_prep_table(window):
    end_until(window, "implement", "red")
    d = window.tcs.sheets
    d.select_sheet("R2")
    assert d.buttons["implement"].isEnabled() and not d.buttons["reserve"].isEnabled()
    state(window).preset_dice = [6, 3]
    d.buttons["implement"].click()
    assert state(window).sheets["R2"].implemented and state(window).units["1-3"].sheet == "R2"
    assert d.tree.currentItem().text(4) == "implemented"
    assert "63" in window.session.log_lines()[-1]
    assert not d.buttons["implement"].isEnabled()


def test_implement_leaves_the_op_sheets_panel_at_its_left_edge(window, qtbot):
    """Implement disables itself when it is clicked, and the focus went on to the unit list: the panel, wider than
    its dock, slid sideways to show it and the sheet list's left part was out of view."""
    end_until(window, "implement", "red")
    d = window.tcs.sheets
    window.resizeDocks([d], [300], Qt.Horizontal)
    qtbot.wait(10)
    assert d._body.minimumSizeHint().width() <= 300           # the column fits a dock of 300 pixels
    window.resizeDocks([d], [200], Qt.Horizontal)             # narrower still: a sideways scroll bar to use
    qtbot.wait(10)
    bar = d.scroll.horizontalScrollBar()
    assert bar.maximum() > bar.minimum() == bar.value()
    d.select_sheet("R2")
    d.buttons["implement"].setFocus()
    state(window).preset_dice = [6, 3]
    d.buttons["implement"].click()
    qtbot.wait(10)
    assert state(window).sheets["R2"].implemented and not d.buttons["implement"].hasFocus()
    assert bar.value() == bar.minimum()


def test_a_new_op_sheet_is_drawn_on_the_map_and_created_and_its_geometry_shown(window, qtbot):
    end_until(window, "create", "red")
    d = window.tcs.sheets
    d.tick("1-3")
    d.tick("M-1")
    d.new_type.setCurrentIndex(d.new_type.findData("attack"))
    d.draw_objective.click()
    for hid in ("B06.06", "B06.07", "B06.06", "B07.06"):    # a second click on B06.06 takes it out
        click_hex(qtbot, window, hid)
    assert [window.session.board.hex_id(h) for h in d.objective] == ["B06.07", "B07.06"]
    d.draw_route.click()
    assert not d.draw_objective.isChecked()
    for hid in ("B03.05", "B04.05", "B05.06", "B09.09", "B09.09", "B06.06"):   # B09.09 clicked twice: taken back
        click_hex(qtbot, window, hid)
    assert not window.tcs.sheet_marks.draft_route.isEmpty()
    assert d.new_sheet_text() == ("opsheet OS1 attack 1-Bn units 1-3+M-1 objective B06.07,B07.06 "
                                  "route B03.05-B04.05-B05.06-B06.06")
    d.create_button.click()
    s = state(window).sheets["OS1"]
    assert (s.type, s.units, s.implemented) == ("attack", ["1-3", "M-1"], False)
    assert [window.session.board.hex_id(h) for h in s.route] == ["B03.05", "B04.05", "B05.06", "B06.06"]
    assert d.current_sheet() == "OS1" and d.objective == [] and not d.draw_route.isChecked()
    marks = window.tcs.sheet_marks
    objective, route = window.session.rules.op_sheet_geometry(state(window), "OS1")
    assert marks.objective.boundingRect().width() == pytest.approx(
        (objective.bounds[2] - objective.bounds[0]) * window.map_view.scale_, rel=1e-6)
    assert marks.route.elementCount() == len(route.coords)
    assert window.map_view.click_targets == set()             # clicks open stacks again


def test_drawing_a_sheets_objective_scrolls_the_panel_to_its_create_button(window, qtbot):
    """On a screen 1000 pixels tall the Op Sheets panel is taller than its dock: Create Op Sheet was below the edge
    while the objective was clicked on the map; the panel now scrolls it into view."""
    end_until(window, "create", "red")
    d = window.tcs.sheets
    window.resizeDocks([d], [260], Qt.Vertical)
    d.scroll.verticalScrollBar().setValue(0)
    qtbot.wait(10)
    d.tick("1-3")
    d.draw_objective.click()
    click_hex(qtbot, window, "B06.06")
    qtbot.wait(10)
    top = d.create_button.mapTo(d.scroll.viewport(), QPoint(0, 0)).y()
    assert d.scroll.verticalScrollBar().value() > 0
    assert 0 <= top and top + d.create_button.height() <= d.scroll.viewport().height()


def test_a_new_sheets_units_are_listed_on_it_not_as_unassigned(window, qtbot):
    end_until(window, "create", "red")
    d = window.tcs.sheets
    d.tick("1-3")
    d.draw_objective.click()
    click_hex(qtbot, window, "B06.06")
    d.create_button.click()
    assert state(window).sheets["OS1"].units == ["1-3"] and state(window).units["1-3"].sheet == ""
    label = {d.units.item(i).data(Qt.UserRole): d.units.item(i).text() for i in range(d.units.count())}
    assert label["1-3"].endswith("(on OS1, R2, not yet implemented)")         # R2 was written before play
    assert label["M-1"].endswith("(unassigned)") and label["1-1"].endswith("(on R1)")


def test_a_refused_op_sheet_names_its_rule(window, qtbot):
    end_until(window, "create", "red")
    d = window.tcs.sheets
    d.tick("1-3")
    d.draw_objective.click()
    click_hex(qtbot, window, "B06.06")
    d.new_id.setText("R1")
    d.create_button.click()
    assert "R1" in state(window).sheets and "OS1" not in state(window).sheets
    assert window.last_refusal.startswith("TCS 6.8: 'R1' is taken")


def test_units_are_added_to_a_sheet_by_dropping_them_on_it_or_with_the_button(window):
    end_until(window, "add", "red")
    d = window.tcs.sheets
    tree = d.tree
    mime = QMimeData()
    mime.setData(UNIT_MIME, b"M-1")
    r1 = next(tree.topLevelItem(i) for i in range(tree.topLevelItemCount()) if tree.topLevelItem(i).text(0) == "R1")
    pos = QPointF(tree.visualItemRect(r1).center())
    tree.dropEvent(QDropEvent(pos, Qt.CopyAction, mime, Qt.LeftButton, Qt.NoModifier))
    assert "M-1" in state(window).sheets["R1"].units and state(window).units["M-1"].sheet == "R1"
    d.select_sheet("R2")
    for i in range(d.units.count()):
        d.units.item(i).setSelected(d.units.item(i).data(Qt.UserRole) == "FO-R")
    d.assign_button.click()
    assert "FO-R" in state(window).sheets["R2"].units


# ---------------------------------------------------------------- artillery

def to_missions(win):
    state(win).preset_dice = [4, 5, 3, 1, 1, 3, 4]      # bn morale; initiative; sortie roll; pre-plotted barrage
    end_until(win, "missions", "red")


def test_artillery_panel_places_a_mission_on_a_target_picked_on_the_map(window, qtbot):
    to_missions(window)
    a = window.tcs.artillery
    bats = [a.batteries.topLevelItem(i).text(0) for i in range(a.batteries.topLevelItemCount())]
    assert bats == ["Bty-1", "Mor-1"]
    pools = {a.ammo.topLevelItem(i).text(0): [a.ammo.topLevelItem(i).text(c) for c in (1, 2, 3)]
             for i in range(a.ammo.topLevelItemCount())}
    assert pools == {"122mm": ["3", "1", "1"], "82mm": ["6", "2", "0"]}     # the pre-plotted barrage took one HE
    assert [a.markers.item(i).text() for i in range(a.markers.count())] == ["M1: he on B09.06 by Bty-1 — red"]
    a.battery.setCurrentIndex(a.battery.findData("Bty-1"))
    every = [a.spotter.itemData(i) for i in range(a.spotter.count())]
    assert "FO-R" in every and "1-1" in every             # any red unit on the map may spot (the series)
    a.pick_target.click()
    click_hex(qtbot, window, "B09.06")                   # AT-1's hex: the click picks it, no stack viewer
    assert a.target == hx(window, "B09.06") and not a.pick_target.isChecked()
    seeing = [a.spotter.itemData(i) for i in range(a.spotter.count())]
    assert seeing == ["1-3", "1-1", "T-1", "FO-R"]       # only those who see B09.06, nearest first
    st = window.session.state
    dist = [hex_distance(st.units[u].hex, a.target) for u in seeing]
    assert dist == sorted(dist) and len(seeing) < len(every)
    a.spotter.setCurrentIndex(a.spotter.findData("FO-R"))
    assert a.why.text() == "Legal now"
    a.ammo_kind.setCurrentIndex(a.ammo_kind.findData("he"))
    a.continuous.setChecked(True)
    a.place.click()
    st = state(window)
    assert [(m.battery, window.session.board.hex_id(m.hex), m.spotter, m.ammo, m.continuous) for m in st.missions] \
        == [("Bty-1", "B09.06", "FO-R", "he", True)]
    assert st.ammo["red|122mm|he"] == 2
    assert a.ammo.topLevelItem(0).text(1) == "2"
    assert window.tcs.barrage_marks.missions == [("Bty-1 he", hx(window, "B09.06"))]
    assert a.batteries.topLevelItem(0).text(3) == "fired this phase"


def test_a_refused_mission_says_why_before_and_after_placing(window, qtbot):
    to_missions(window)
    a = window.tcs.artillery
    a.battery.setCurrentIndex(a.battery.findData("Mor-1"))
    a.spotter.setCurrentIndex(a.spotter.findData("FO-R"))
    a.ammo_kind.setCurrentIndex(a.ammo_kind.findData("illum"))
    a.pick_target.click()
    click_hex(qtbot, window, "B09.06")
    assert a.why.text() == "Refused now — TCS 18.0: red has no 82mm illum rounds left"
    a.place.click()
    assert state(window).missions == [] and window.last_refusal == "TCS 18.0: red has no 82mm illum rounds left"


def test_a_continuous_barrage_is_drawn_with_its_zone_and_lifted_from_the_panel(window, qtbot):
    to_missions(window)
    a = window.tcs.artillery
    a.battery.setCurrentIndex(a.battery.findData("Bty-1"))
    a.pick_target.click()
    click_hex(qtbot, window, "B09.06")
    a.continuous.setChecked(True)
    a.place.click()
    state(window).preset_dice = [2, 5, 2, 3, 3]
    window.phase_bar.next_act.trigger()
    answer(window, "Good")                                # the adjustment roll's printed result
    st = state(window)
    m2 = next(m for m in st.markers if m.continuous)
    drawn = {label: (h, zone) for label, _k, h, zone in window.tcs.barrage_marks.markers}
    assert drawn[f"{m2.id} he"] == (m2.hex, m2.zone)
    # the next turn's missions step of Red: the barrage may be lifted there
    end_until(window, "missions", "red")
    assert state(window).turn == 1
    row = next(i for i in range(a.markers.count()) if a.markers.item(i).data(Qt.UserRole) == m2.id)
    a.markers.setCurrentRow(row)
    assert a.lift.isEnabled()
    a.lift.click()
    assert m2.id not in [m.id for m in state(window).markers]


# ---------------------------------------------------------------- questions and the Action phase

def test_initiative_is_chosen_in_the_question_panel_and_a_printed_result_in_the_chart_panel(window):
    end_until(window, "create", "blue")
    state(window).preset_dice = [4, 5, 3]
    window.phase_bar.next_act.trigger()
    p = window.tcs.pending
    assert p.title.text() == "Printed result needed: Battalion Morale Reduction"
    assert p.text.text() == "Asked in the chart prompt panel." and p.buttons == []
    chart = window.charts.dock
    assert chart.isVisibleTo(window) and chart.choice_texts() == ["0", "1", "2"]
    assert "roll 4" in chart.working.text()
    chart.choose(0)
    assert state(window).memory.get("tcs.bn_morale_reduction", ("1", "4")) == 0
    # the log says what was read off which chart, not the action's text (chart tcs.bn_morale_reduction [1][4] = 0)
    n = len(window.session.game.log)
    line = window.log_dock.lines()[n - 1]
    assert line.split(" — ")[0] == f"{n}. Battalion Morale Reduction, bn morale 1, roll 4: 0"
    assert "[1][4]" not in line and "chart tcs." not in line                  # the cell is not said again
    assert p.title.text() == "Decision: initiative (Red)"
    assert [b.text() for b in p.buttons] == ["Red", "Blue"]
    n = len(window.session.game.log)
    window.phase_bar.next_act.trigger()          # Next while the question waits: where to answer it, in words
    assert len(window.session.game.log) == n
    assert window.last_refusal.startswith("answer the question first, in the Question panel: Red won the ")
    assert p.text.text().startswith("Red won the ") and p.text.text().endswith(" initiative: who goes first?")
    assert "choose initiative" not in window.last_refusal
    answer(window, "Blue")
    assert state(window).order == ["blue", "red"]


def test_a_unit_dragged_hex_by_hex_plays_one_move_a_hex_and_overwatch_asks_in_the_panel(window, qtbot):
    end_until(window, "action", "red")
    drag_through(qtbot, window, ["B02.04", "B03.04", "B04.03"])
    st = state(window)
    assert window.session.board.hex_id(st.units["1-1"].hex) == "B03.04"    # stopped: overwatch asks first
    assert window.session.game.log[-1].action.text() == "move 1-1 B03.04"
    p = window.tcs.pending
    assert p.title.text() == "Decision: overwatch (Blue)"
    assert sorted(b.text() for b in p.buttons) == ["AT-1", "pass"]
    st.preset_dice = [3, 4, 1, 1]
    answer(window, "AT-1")
    assert p.title.text() == "Printed result needed: Area Fire Table: column heading"
    answer(window, 1)
    answer(window, "1")
    assert "Morale Table" in window.charts.dock.title.text()
    assert "+1 steps lost (TCS 13.0)" in window.charts.dock.working.text()       # the whole working, with rules
    answer(window, "S")
    us = window.session.rules.unit_status(state(window), "1-1")
    assert (us["morale"], us["steps_lost"]) == ("suppressed", 1)
    assert window.tcs.state_marks.states[hx(window, "B03.04")] == ("move", "suppressed", 1, 5)


def test_a_refused_drag_snaps_back_with_its_rule(window, qtbot):
    end_until(window, "action", "red")
    drag_through(qtbot, window, ["B03.05", "B04.05"])          # 1-3 is in Fire mode
    assert window.session.board.hex_id(state(window).units["1-3"].hex) == "B03.05"
    assert window.last_refusal == "TCS 5.0: 1-3 is in Fire mode; only units in Move mode move"
    drag_through(qtbot, window, ["B01.05", "B02.05", "B03.05", "B04.04"])    # T-1 moves three hexes
    assert window.session.board.hex_id(state(window).units["T-1"].hex) in ("B02.05", "B03.05", "B04.04")
    moves = [e.action.text() for e in window.session.game.log if e.action.text().startswith("move T-1")]
    assert moves[0] == "move T-1 B02.05" and all(len(m.split()) == 3 for m in moves)


def test_a_drag_along_a_dearer_path_goes_by_the_cheapest_legal_path_to_the_lit_hex(window, qtbot):
    """TCS 5.0: T-1 (tracked) with 1 MP left; the hex two away is lit (the road costs 1/2 + 1/2); the drag traced
    across the clear (1 + 1) would stop halfway, so the unit goes by the road and the status line says so."""
    from fractions import Fraction

    end_until(window, "action", "red")
    state(window).units["T-1"].mp_used = Fraction(11)
    lit, _blocked = window.session.destinations("T-1")
    assert lit[hx(window, "B03.05")] == Fraction(1) and hx(window, "B04.05") not in lit
    drag_through(qtbot, window, ["B01.05", "B02.04", "B03.05"])
    moves = [e.action.text() for e in window.session.game.log if e.action.text().startswith("move T-1")]
    assert moves == ["move T-1 B02.05", "move T-1 B03.05"][:len(moves)] and moves     # by the road
    if not state(window).pending:                            # no overwatch on the way: it is there
        assert window.session.board.hex_id(state(window).units["T-1"].hex) == "B03.05"
    assert window.statusBar().currentMessage().startswith(
        "The path traced is refused (TCS 5.0: T-1 has 0 MPs left; B03.05 costs 1 (after 1 of 2 hexes)); "
        "moved by the cheapest path instead")


# ---------------------------------------------------------------- the panels keep their place; files

def test_a_selected_sheet_stays_selected_for_its_side_and_is_drawn_again(window):
    d = window.tcs.sheets
    d.select_sheet("R1")
    assert not window.tcs.sheet_marks.objective.isEmpty()
    window.phase_bar.next_act.trigger()                       # Blue's review: the list shows Blue's sheets
    assert d.side_id() == "blue" and d.current_sheet() == ""
    assert window.tcs.sheet_marks.objective.isEmpty()
    window.phase_bar.next_act.trigger()                       # the weighted turns, then Red's implementation rolls
    assert step(window) == ("command", "implement", "red")
    assert d.side_id() == "red" and d.current_sheet() == "R1" and not window.tcs.sheet_marks.objective.isEmpty()


def test_a_target_picked_is_dropped_when_the_missions_step_has_passed(window, qtbot):
    to_missions(window)
    a = window.tcs.artillery
    a.pick_target.click()
    click_hex(qtbot, window, "B09.06")
    assert a.target is not None and window.tcs.barrage_marks.picked == hx(window, "B09.06")
    window.phase_bar.next_act.trigger()
    assert step(window)[1] != "missions" and a.target is None and a.target_label.text() == "—"


def test_a_tcs_game_saved_and_opened_again_plays_on_from_the_same_state(qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    win = MainWindow(cache=tmp_path / "cache", autosave=tmp_path / "autosave.toml")
    qtbot.addWidget(win)
    assert win.open_file(SCENARIO)
    for _ in range(8):
        win.phase_bar.next_act.trigger()
    assert step(win) == ("command", "create", "red")
    d = win.tcs.sheets
    d.tick("M-1")
    d.objective = [hx(win, "B06.06")]
    win.tcs.play(d.new_sheet_text())
    assert "OS1" in state(win).sheets
    saved = tmp_path / "game.toml"
    assert win.save_game(saved)
    other = MainWindow(cache=tmp_path / "cache2", autosave=tmp_path / "autosave2.toml")
    qtbot.addWidget(other)
    assert other.open_file(saved)
    assert isinstance(other.session, TcsSession) and other.session.game.hash() == win.session.game.hash()
    assert other.tcs.clock.marked_step() == "Command Phase: new Op Sheets (Red)"
    assert "OS1" in [other.tcs.sheets.tree.topLevelItem(i).text(0)
                     for i in range(other.tcs.sheets.tree.topLevelItemCount())]


def test_a_new_game_of_a_tcs_scenario_is_a_tcs_game_again(window):
    window.phase_bar.next_act.trigger()
    assert window.start_new_game(seed=7)
    assert isinstance(window.session, TcsSession) and window.session.game.seed == 7
    assert step(window) == ("command", "review", "red") and window.tcs.clock.isVisible()


def test_a_map_or_another_scenario_opened_after_a_tcs_game_hides_the_tcs_panels(window):
    from tcs_fixtures import ROOT

    assert window.open_file(ROOT / "scenarios" / "demyansk-1-trapped.toml")
    assert not window.tcs.clock.isVisible() and not window.tcs.sheets.isVisible()
    assert window.combat.isVisible() and window.map_view.click_targets == set()


def test_fire_from_the_clock_panel_and_a_retreat_chosen_by_clicking_a_lit_hex(window, qtbot):
    end_until(window, "action", "red")
    st = state(window)
    st.units["B-1"].hex = hx(window, "B04.07")          # the position of the engine's own SYR test
    st.units["1-3"].hex = hx(window, "B04.06")
    window.session.changed.emit()
    c = window.tcs.clock
    texts = [c.others.itemData(i) for i in range(c.others.count())]
    c.others.setCurrentIndex(texts.index("fire 1-3 at B04.07"))
    st.preset_dice = [6, 6, 3, 3]
    c.play_other.click()
    answer(window, 9)
    answer(window, "1")
    answer(window, "SYR")
    prompt = state(window).pending[0]["prompt"]
    assert prompt.slot == "tcs.syr_retreat"
    assert window.tcs.pending.title.text() == f"Printed result needed: {prompt.title}"
    answer(window, 2)
    p = state(window).pending[0]
    assert p["what"] == "retreat" and "B06.07" in p["options"]
    assert window.tcs.pending.title.text() == "Decision: retreat (Blue)"
    assert hx(window, "B06.07") in window.map_view.click_targets
    assert hx(window, "B06.07") in window.map_view.overlay.costs          # lit on the map
    click_hex(qtbot, window, "B06.07")
    b1 = state(window).units["B-1"]
    assert window.session.board.hex_id(b1.hex) == "B06.07" and b1.morale_state == "suppressed"
    assert not state(window).pending and window.map_view.click_targets == set()
    assert window.tcs.state_marks.states[hx(window, "B06.07")] == ("fire", "suppressed", 1, 5)


def test_the_question_panel_leaves_chart_prompts_to_a_chart_prompt_panel_when_the_window_has_one(window):
    end_until(window, "create", "blue")
    state(window).preset_dice = [4, 5, 3]
    window.phase_bar.next_act.trigger()
    pending, legal = window.session.pending(), window.tcs.legal
    sides = window.session.rules.scenario.sides
    assert window.tcs.chart_dock_asks()                      # the window's chart prompt panel asks
    assert window.tcs.pending.buttons == [] and window.tcs.pending.text.text() == "Asked in the chart prompt panel."
    assert window.charts.dock.prompt == window.session.rules.chart_prompt(state(window)) == pending["prompt"]
    window.tcs.pending.show_pending(pending, legal, sides, charts_elsewhere=False)     # a window without one
    assert [b.text() for b in window.tcs.pending.buttons] == ["0", "1", "2"]
    assert window.tcs.pending.text.text() == pending["prompt"].text()


def test_units_for_a_new_sheet_are_picked_by_clicking_their_counters(window, qtbot):
    end_until(window, "create", "red")
    d = window.tcs.sheets
    d.pick_units.click()
    click_hex(qtbot, window, "B03.05")                    # 1-3
    click_hex(qtbot, window, "A14.06")                    # M-1
    click_hex(qtbot, window, "B08.07")                    # Blue's B-1: not a unit of Red, nothing ticked
    assert d.ticked_units() == ["1-3", "M-1"]
    click_hex(qtbot, window, "B03.05")                    # again: unticked
    assert d.ticked_units() == ["M-1"]
    d.draw_objective.click()
    assert not d.pick_units.isChecked()
    click_hex(qtbot, window, "B06.06")
    d.create_button.click()
    assert state(window).sheets["OS1"].units == ["M-1"]


def test_the_mission_form_is_checked_again_as_it_changes(window, qtbot):
    to_missions(window)
    a = window.tcs.artillery
    a.battery.setCurrentIndex(a.battery.findData("Mor-1"))
    a.spotter.setCurrentIndex(a.spotter.findData("FO-R"))
    a.pick_target.click()
    click_hex(qtbot, window, "B09.06")
    assert a.why.text() == "Legal now"
    a.ammo_kind.setCurrentIndex(a.ammo_kind.findData("illum"))
    assert a.why.text() == "Refused now — TCS 18.0: red has no 82mm illum rounds left"
    a.ammo_kind.setCurrentIndex(a.ammo_kind.findData("smoke"))
    assert a.why.text() == "Legal now"


def test_the_stack_viewer_shows_each_counters_state_too(window):
    from PySide6.QtGui import QColor, QImage, QPainter
    from PySide6.QtWidgets import QStyleOptionGraphicsItem

    from gui.tcs.mapmarks import MODE_FIRE, MODE_MOVE

    viewer = window.map_view.viewer
    assert viewer.decorate is not None
    units = [window.session.scenario.units["1-3"], window.session.scenario.units["1-1"]]   # Fire mode, Move mode

    def colours_drawn():
        r = viewer.boundingRect()
        img = QImage(int(r.width()) + 1, int(r.height()) + 1, QImage.Format_ARGB32)
        img.fill(QColor(255, 255, 255))
        p = QPainter(img)
        p.translate(-r.left(), -r.top())
        viewer.paint(p, QStyleOptionGraphicsItem(), None)
        p.end()
        return {img.pixelColor(x, y).rgb() for x in range(0, img.width(), 2) for y in range(0, img.height(), 2)}

    viewer.show_stack(hx(window, "B03.05"), units, QPointF(0, 0))
    seen = colours_drawn()
    assert MODE_MOVE.rgb() in seen and MODE_FIRE.rgb() in seen
    assert window.open_file(SCENARIO.parent / "demyansk-1-trapped.toml")
    assert viewer.decorate is None                        # another ruleset's counters carry no TCS flags


def test_a_new_tcs_game_with_a_computer_side_has_the_computer_play_it(window):
    window.last_error = ""
    assert window.start_new_game(seed=3, computer=("blue",))
    assert isinstance(window.session, TcsSession) and window.computer is not None
    assert window.computer.sides == frozenset({"blue"}) and not window.last_error
    assert window.session.computer.sides == ("blue",)


def test_the_battery_list_says_why_an_on_map_mortar_cannot_fire_and_which_rounds_are_not_counted(window, qtbot):
    import dataclasses
    to_missions(window)
    a = window.tcs.artillery
    rows = {a.batteries.topLevelItem(i).text(0): a.batteries.topLevelItem(i) for i in range(a.batteries.topLevelItemCount())}
    assert rows["Mor-1"].text(2) == "battery (M-1)" and rows["Mor-1"].text(3) == "ready"
    state(window).units["M-1"].mode = "move"
    rules = window.session.rules
    rules.batteries["Mor-1"] = dataclasses.replace(rules.batteries["Mor-1"], calibre="60mm")   # a calibre with no pool
    rules.scenario.batteries[[b.id for b in rules.scenario.batteries].index("Mor-1")] = rules.batteries["Mor-1"]
    window.tcs.update()
    rows = {a.batteries.topLevelItem(i).text(0): a.batteries.topLevelItem(i) for i in range(a.batteries.topLevelItemCount())}
    assert rows["Mor-1"].text(3) == "TCS 5.0: M-1 is in Move mode: it fires only in Fire mode"
    pools = {a.ammo.topLevelItem(i).text(0): a.ammo.topLevelItem(i).text(1) for i in range(a.ammo.topLevelItemCount())}
    assert pools["60mm"] == "not counted" and pools["122mm"] == "3"
