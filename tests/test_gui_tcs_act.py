"""Acting on a TCS counter in the play window, offscreen: its right-click menu, dragging it onto an enemy to fire
(the fire panel before the roll), hovering an enemy, and why a counter picked up can do nothing."""
from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import QApplication

from test_gui_tcs import click_hex, drag_through, end_until, hx, state, window  # noqa: F401 - the window fixture


def put(win, uid, hid, **kw):
    u = state(win).units[uid]
    u.hex = hx(win, hid)
    for k, v in kw.items():
        setattr(u, k, v)
    win.session.changed.emit()


def right_click(win, hid):
    view = win.map_view
    p = view.mapFromScene(view.hex_centre(hx(win, hid)))
    ev = QContextMenuEvent(QContextMenuEvent.Mouse, p, view.viewport().mapToGlobal(p))
    QApplication.sendEvent(view.viewport(), ev)
    menu = win.tcs.unit_menu
    assert menu is not None and menu.isVisible()
    return menu


def hover(win, hid):
    view = win.map_view
    return view.hover_at(view.hex_centre(hx(win, hid)))


def test_right_click_lists_a_counters_actions_in_words_and_the_refused_ones_greyed_with_the_reason(window):
    end_until(window, "action", "red")
    put(window, "B-1", "B04.05")                 # next to 1-3 (Fire mode, at B03.05)
    menu = right_click(window, "B03.05")
    entries = menu.entries()
    assert entries[0] == ("1-3 (rifle platoon): fire mode", False)
    assert ("Change to Move mode (costs half its movement allowance: 3 of 6 MPs)", True) in entries
    assert ("Area fire at B04.05 (B-1)", True) in entries
    assert ("Move — TCS 5.0: 1-3 is in Fire mode; only units in Move mode move", False) in entries
    assert ("Suppressive fire (SFA) at B04.05 (B-1) — TCS 6.0: 1-3 is unassigned: unassigned units may not fire SFAs",
            False) in entries
    assert ("Area fire at B09.06 (AT-1) — TCS 8.0: B09.06 is 6 hexes from 1-3, beyond its range of 4 (6 > 4)",
            False) in entries
    assert not any(t.startswith("mode 1-3") for t, _on in entries)          # no raw action strings
    menu.find("Change to Move mode").trigger()
    assert state(window).units["1-3"].mode == "move"
    assert window.session.log_lines()[-1].startswith(f"{len(window.session.game.log)}. mode 1-3 move")
    menu.close()


def test_a_unit_with_many_choices_keeps_point_fire_sfa_and_the_refused_in_submenus(window, monkeypatch):
    """A Spanish infantry gun among the Soviet attack had 65 entries, two screens tall: past MANY entries its point
    fire, SFA and what it may not do go in submenus of their own (fewer here: MANY is lowered for the test)."""
    import gui.tcs.unitmenu as unitmenu

    monkeypatch.setattr(unitmenu, "MANY", 3)
    end_until(window, "action", "red")
    put(window, "B-1", "B04.05")
    menu = right_click(window, "B03.05")
    top = [a.text() for a in menu.actions() if not a.isSeparator()]
    assert "Change to Move mode (costs half its movement allowance: 3 of 6 MPs)" in top
    assert "Area fire at B04.05 (B-1)" in top
    refused = next(a.menu() for a in menu.actions() if a.menu() is not None and a.text().startswith("Not possible now ("))
    inside = [a.text() for a in refused.actions()]
    assert any(t.startswith("Area fire at B09.06 (AT-1) — TCS 8.0") for t in inside)
    assert not any(a.isEnabled() for a in refused.actions())
    assert not menu.find("Suppressive fire (SFA) at B04.05").isEnabled()       # found in its submenu
    menu.close()


def test_a_stack_menu_has_a_submenu_a_unit_and_an_idle_unit_says_why(window):
    end_until(window, "action", "red")
    put(window, "1-2", "B03.05")
    state(window).units["1-3"].morale_state = "paralyzed"
    window.session.changed.emit()
    menu = right_click(window, "B03.05")
    titles = [a.text() for a in menu.actions()]
    assert len(titles) == 2 and any(t.startswith("1-3 (rifle platoon): fire mode, paralyzed") for t in titles)
    idle = menu.find("Nothing to do now")
    assert not idle.isEnabled() and "TCS 13.0: 1-3 is paralyzed and cannot fire" in idle.toolTip()
    menu.close()


def test_a_fire_mode_unit_dragged_onto_an_enemy_opens_the_fire_panel_and_fire_plays_it(window, qtbot):
    end_until(window, "action", "red")
    put(window, "B-1", "B04.05")
    put(window, "1-2", "B03.04", mode="fire")     # another Fire-mode unit in range: it may join the fire
    drag_through(qtbot, window, ["B03.05", "B04.05"])
    panel = window.tcs.fire_panel
    assert panel is not None and panel.isVisible()
    assert state(window).units["1-3"].hex == hx(window, "B03.05")        # nothing moved
    assert panel.title.text() == "Area fire by 1-3 at B04.05"
    lines = panel.lines()
    assert lines[:3] == ["1-3: 1 hex to B04.05, range 4 (1 ≤ 4) (TCS 8.0)",
                         "1-3 spots the enemy in B04.05: line of sight clear (TCS 11.0)",
                         "1-3: firepower 3 (counter)"]
    assert panel.fire_btn.isEnabled()
    panel.choose("sfa")
    assert not panel.fire_btn.isEnabled()
    assert panel.verdict.text() == "Refused — TCS 6.0: 1-3 is unassigned: unassigned units may not fire SFAs"
    panel.choose("area")
    panel.join("1-2")
    assert "1-2: firepower 3 (counter)" in panel.lines() and "fire value 6 (the firers together) (TCS 8.0)" in panel.lines()
    n = len(window.session.game.log)
    panel.fire_btn.click()
    assert not panel.isVisible()
    assert window.session.game.log[n].action.text() == "fire 1-3+1-2 at B04.05"
    prompt = state(window).pending[0]["prompt"]                 # the fire goes on: its first printed value asked
    assert prompt.slot == "tcs.area_fire_column" and "1-3+1-2: firepower 6" in prompt.text()


def test_a_dragged_unit_refused_is_unticked_and_the_others_fire_without_it(window, qtbot):
    end_until(window, "action", "red")
    put(window, "B-1", "B08.05")                 # 5 hexes from 1-3 (range 4): 1-3 may not fire at it
    put(window, "1-2", "B07.05", mode="fire")     # 1 hex from it: 1-2 may
    drag_through(qtbot, window, ["B03.05", "B08.05"])
    panel = window.tcs.fire_panel
    assert panel is not None and panel.isVisible() and panel.together.isVisible()
    rows = [panel.together.item(i) for i in range(panel.together.count())]
    assert rows[0].text() == ("1-3 (rifle platoon) — the unit picked; refused: TCS 8.0: B08.05 is 5 hexes from 1-3, "
                              "beyond its range of 4 (5 > 4)")
    assert [r.checkState() for r in rows[:2]] == [Qt.Unchecked, Qt.Unchecked]
    assert not panel.fire_btn.isEnabled() and panel.verdict.text().endswith(
        "(5 > 4). Tick the other units below to fire without it.")
    assert panel.kinds.buttons()[0].text().startswith("Area fire  (refused: TCS 8.0: B08.05 is 5 hexes from 1-3")
    panel.join("1-2")
    assert panel.fire_btn.isEnabled() and panel.title.text() == "Area fire by 1-2 at B08.05"
    assert panel.kinds.buttons()[0].text() == "Area fire"           # said of the units ticked now
    n = len(window.session.game.log)
    panel.fire_btn.click()
    assert window.session.game.log[n].action.text() == "fire 1-2 at B08.05"


def test_the_dragged_unit_may_be_unticked_to_leave_it_out_of_the_fire(window, qtbot):
    end_until(window, "action", "red")
    put(window, "B-1", "B04.05")
    put(window, "1-2", "B03.04", mode="fire")
    drag_through(qtbot, window, ["B03.05", "B04.05"])
    panel = window.tcs.fire_panel
    assert panel.together.item(0).checkState() == Qt.Checked and panel.fire_btn.isEnabled()
    panel.join("1-3", False)
    panel.join("1-2")
    n = len(window.session.game.log)
    panel.fire_btn.click()
    assert window.session.game.log[n].action.text() == "fire 1-2 at B04.05"


def test_the_fire_panel_shows_the_column_and_shifts_and_cancel_leaves_the_game_as_it_was(window, qtbot):
    end_until(window, "action", "red")
    st = state(window)
    st.memory.put("tcs.area_fire_column", ("3",), 9)
    put(window, "B-1", "B04.07")                 # woods: Partly Protective
    put(window, "1-3", "B04.06")
    before = window.session.rules.state_to_dict(state(window))
    n = len(window.session.game.log)
    drag_through(qtbot, window, ["B04.06", "B04.07"])
    panel = window.tcs.fire_panel
    assert panel.lines()[3:6] == ["column 9 (firepower 3, Area Fire Column Table) (TCS 8.0)",
                                  "-1 Partly Protective target (TCS 8.0)",
                                  "column 8 on the Area Fire Table, roll 2d6 (TCS 8.0)"]
    panel.cancel_btn.click()
    assert not panel.isVisible()
    assert len(window.session.game.log) == n and window.session.rules.state_to_dict(state(window)) == before


def test_hovering_an_enemy_with_a_unit_selected_says_whether_it_may_fire_and_why_not(window, qtbot):
    end_until(window, "action", "red")
    put(window, "B-1", "B08.05")                 # 5 hexes from 1-3
    click_hex(qtbot, window, "B03.05")                     # a click on 1-3 selects it
    assert window.tcs.selected_unit == "1-3"
    text = hover(window, "B08.05")
    assert text.endswith("1-3 cannot fire at B08.05: TCS 8.0: B08.05 is 5 hexes from 1-3, beyond its range of 4 "
                         "(5 > 4)")
    assert window.hover_label.text() == text
    put(window, "B-1", "B05.05")
    assert hover(window, "B05.05").endswith("1-3 may fire at B05.05 (drag it there)")
    assert "cannot fire" not in hover(window, "B03.05")                  # an own stack: nothing to say


def test_a_counter_picked_up_with_nothing_to_move_to_or_fire_at_says_why(window, qtbot):
    end_until(window, "action", "red")
    put(window, "B-1", "B08.05")
    view = window.map_view
    view.picked.emit(view.stacks[hx(window, "B03.05")][-1], hx(window, "B03.05"))
    msg = window.statusBar().currentMessage()
    assert msg.startswith("1-3 may not move: TCS 5.0: 1-3 is in Fire mode; only units in Move mode move; nor fire at "
                          "B08.05, the nearest enemy: TCS 8.0: B08.05 is 5 hexes from 1-3, beyond its range of 4 (5 > 4)")
    view.end_drag()
    put(window, "B-1", "B05.05")
    view.picked.emit(view.stacks[hx(window, "B03.05")][-1], hx(window, "B03.05"))
    assert window.statusBar().currentMessage() == "1-3: 1 enemy hex(es) to fire at: drop it on one to see the fire"
    assert view.describe_target(hx(window, "B05.05")) == "B05.05: drop 1-3 here to fire (Area fire at B05.05 (B-1))"
    view.end_drag()


def test_the_clock_panels_list_of_other_actions_is_in_words_with_the_action_as_its_data(window):
    end_until(window, "action", "red")
    c = window.tcs.clock
    words = {c.others.itemText(i): c.others.itemData(i) for i in range(c.others.count())}
    assert words["1-1: change to Fire mode"] == "mode 1-1 fire"
    assert not any(t.startswith("mode ") for t in words)


def test_a_move_mode_unit_dropped_on_an_adjacent_enemy_is_refused_fire_and_may_assault_instead(window, qtbot):
    end_until(window, "action", "red")
    put(window, "B-1", "B03.04")                 # next to 1-1 (Move mode, carrying out R1)
    drag_through(qtbot, window, ["B02.04", "B03.04"])
    panel = window.tcs.fire_panel
    assert panel.isVisible() and not panel.fire_btn.isEnabled()
    assert panel.verdict.text().startswith("Refused — TCS 5.0: 1-1 is in Move mode; only units in Fire mode fire")
    assert panel.assault_btn.isVisibleTo(panel) and panel.assault == "assault 1-1 B03.04"
    n = len(window.session.game.log)
    panel.assault_btn.click()
    assert window.session.game.log[n].action.text() == "assault 1-1 B03.04" and not panel.isVisible()


def test_overwatch_is_chosen_from_the_overwatchers_own_menu(window):
    end_until(window, "action", "red")
    window.session.play("move 1-1 B03.04")        # AT-1 (Blue, at B09.06) may fire overwatch at it
    menu = right_click(window, "B09.06")
    entry = menu.find("Fire overwatch: 1-1 entered B03.04")
    assert entry.isEnabled()
    n = len(window.session.game.log)
    entry.trigger()
    assert window.session.game.log[n].action.text() == "choose overwatch AT-1"
    menu.close()


def test_move_chosen_for_a_unit_under_the_top_of_a_stack_makes_the_next_drag_move_that_unit(window, qtbot):
    end_until(window, "action", "red")
    put(window, "1-3", "B02.04")                 # on top of 1-1 (Move mode, carrying out R1); 1-3 is in Fire mode
    h = hx(window, "B02.04")
    assert [u.id for u in window.map_view.stacks[h]][-1] == "1-3"
    menu = right_click(window, "B02.04")
    menu.find("Move: drag the counter").trigger()     # 1-1's entry (1-3's Move is greyed: Fire mode)
    menu.close()
    drag_through(qtbot, window, ["B02.04", "B03.04"])
    assert state(window).units["1-1"].hex == hx(window, "B03.04")      # the top unit was lifted, and refused
    assert state(window).units["1-3"].hex == h


def test_while_the_computer_plays_a_side_its_counters_menus_and_the_panels_offer_nothing(window):
    """The computer's turn: a right-click on its counter says so instead of listing actions the person would play
    behind its back, and the panels' buttons wait; paused, the person may play for it."""
    end_until(window, "action", "red")
    window.computer_step_ms = 60000              # the computer's first action is due in a minute
    window._start_computer({"red"})
    name = window.session.scenario.sides["red"].name
    assert window.session.computer_holding() == name
    window.session.changed.emit()
    assert window.tcs.legal == []
    menu = right_click(window, "B03.05")         # 1-3, red
    entries = menu.entries()
    assert entries[0] == ("1-3 (rifle platoon): fire mode", False)
    assert entries[1:] == [(f"Nothing to do now — the computer is playing {name} (Pause the computer, "
                            "Ctrl+Shift+P, to play for it yourself)", False)]
    menu.close()
    window.pause_act.setChecked(True)
    assert window.session.computer_holding() == "" and window.tcs.legal
    menu = right_click(window, "B03.05")
    assert ("Change to Move mode (costs half its movement allowance: 3 of 6 MPs)", True) in menu.entries()
    menu.close()
