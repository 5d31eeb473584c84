"""The scenario editor, driven through its widgets: a custom scenario built, saved, played; Demyansk round trips."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QApplication

from engine.scenario import Side, load_scenario
from gui.scenarioeditor.orderofbattle import UNIT_MIME
from scenarioeditorwindow import scenario_editor

ROOT = Path(__file__).resolve().parent.parent
MAP = ROOT / "maps" / "demyansk.toml"


@pytest.fixture
def editor(qtbot, tmp_path_factory):
    return scenario_editor(qtbot, tmp_path_factory.mktemp("tiles"))


def click(button):
    button.click()
    QApplication.processEvents()


def button(widget, text):
    from PySide6.QtWidgets import QPushButton

    return next(b for b in widget.findChildren(QPushButton) if b.text() == text)


def add_unit(ed, uid, side, division="", regiment="", values=(3, 4, 5), size="battalion", group=""):
    p = ed.oob
    p.f_id.setText(uid)
    p.f_side.setCurrentText(side)
    p.f_type.setCurrentText("infantry")
    p.f_size.setCurrentText(size)
    p.f_division.setText(division)
    p.f_regiment.setText(regiment)
    for w, v in zip(p.f_values, values):
        w.setValue(v)
    p.f_group.setCurrentText(group)
    click(button(p, "Add unit"))


def set_up_group(ed, gid, side, n, hex_id):
    p = ed.setup
    p.g_id.setText(gid)
    p.g_side.setCurrentText(side)
    p.w_n.setValue(n)
    p.w_hex.setText(hex_id)
    click(button(p, "within N of hex"))
    click(button(p, "Save group"))


def build_custom(ed):
    """Two sides, an organisation tree, "within 2 of" set-up areas, a reinforcement, occupy three hexes."""
    ed.new_scenario(MAP, [Side("german", "German", "#7d8ea3"), Side("soviet", "Soviet", "#9a6a3c")],
                    id="custom-hold", name="Hold the crossroads", last_turn=2)
    page = ed.page
    page.last.setValue(2)
    page.names.setPlainText("0600 Feb 10\n0600 Feb 11")
    click(button(page, "Apply"))
    set_up_group(ed, "ger", "german", 2, "0707")
    set_up_group(ed, "sov", "soviet", 2, "1210")
    # the German 12th division: regiment 27 with a battalion, copied into regiment 48, then "3 x"
    add_unit(ed, "g-12-27", "german", "12", "27", group="ger")
    ed.oob.select(["g-12-27"])
    click(button(ed.oob, "Copy"))
    pasted = ed.oob.paste(division="12", regiment="48")
    ed.oob.select(pasted)
    ed.oob.n_times.setValue(3)
    click(button(ed.oob, "N x"))
    add_unit(ed, "s-1", "soviet", values=(4, 4, 5), size="division", group="sov")
    add_unit(ed, "s-2", "soviet", values=(4, 4, 5), size="division", group="sov")
    click(button(ed.setup, "Set up by areas"))
    # s-2 arrives on turn 2 by the east edge
    ed.oob.select(["s-2"])
    ed.setup.r_turn.setValue(2)
    ed.setup.r_side.setCurrentText("soviet")
    ed.setup.r_entry.setText("edge east")
    click(button(ed.setup, "Selected units arrive"))
    # victory: the German holds three hexes within 2 of 0707 at the end, else the Soviet wins
    v = ed.victory
    v.c_id.setText("hold")
    v.c_kind.setCurrentText("occupy")
    v.c_side.setCurrentText("german")
    v.c_area.setText("within 2 of 0707")
    v.c_count.setValue(3)
    v.c_level.setCurrentText("major")
    v.c_text.setText("the German holds three hexes around 0707")
    click(button(v, "Save condition"))
    v.otherwise.setCurrentText("soviet")
    v.otherwise_level.setCurrentText("minor")
    click(button(v, "Set"))


def test_a_custom_scenario_built_in_the_editor_saves_and_plays_to_the_end(editor, qtbot, tmp_path):
    ed = editor
    build_custom(ed)
    s = ed.scenario
    tree = ed.oob.tree
    assert tree.topLevelItem(0).text(0) == "German"
    div = tree.topLevelItem(0).child(0)
    assert div.text(0) == "division 12"
    assert [div.child(i).text(0) for i in range(div.childCount())] == ["regiment 27", "regiment 48"]
    assert sorted(s.deployment("ger").units) == ["g-12-27", "g-12-48", "g-12-48-2", "g-12-48-3"]
    assert s.units["g-12-48-3"].regiment == "48"
    assert s.deployment("ger").area == "within 2 of 0707"
    assert [(r.turn, r.units, r.entry) for r in s.reinforcements] == [(2, ("s-2",), "edge east")]
    assert s.turn_names == ("0600 Feb 10", "0600 Feb 11")
    assert "setup:ger" in ed.areas.items and len(ed.areas.hexes["setup:ger"]) == 19
    assert len(ed.map_view.stacks) == 5
    assert ed.check() == []

    out = tmp_path / "custom-hold.toml"
    assert ed.save(out)
    again = load_scenario(out)
    assert again.units == s.units and again.victory == s.victory and again.deployments == s.deployments

    with qtbot.waitSignal(ed.runner.finished, timeout=120_000) as got:
        assert ed.play_headless(seed=1)
    report = got.args[0]
    assert report["over"] is True and report["turns"] == 2
    assert report["winner"] == "german"
    assert "the German holds three hexes around 0707" in report["reason"]
    assert ed.result.headline_text().startswith("Winner: german — major victory by the German holds three hexes")
    rows = {ed.result.detail.topLevelItem(i).text(0): ed.result.detail.topLevelItem(i).text(1)
            for i in range(ed.result.detail.topLevelItemCount())}
    assert rows["hold"] == "yes"


def test_a_unit_dropped_on_the_map_sets_up_there_and_outside_its_area_is_named(editor):
    ed = editor
    build_custom(ed)
    view = ed.map_view
    target = ed.board.parse_hex("0608")
    pos = view.mapFromScene(view.hex_centre(target))
    data = QMimeData()
    data.setData(UNIT_MIME, b"g-12-27")
    ev = QDropEvent(QPointF(pos), Qt.MoveAction, data, Qt.LeftButton, Qt.NoModifier)
    # Qt hands a drop only to the target of a drag in progress, so the drop is given to the map's drop handler
    assert ed._drop.eventFilter(view.viewport(), ev) is True
    assert ed.scenario.units["g-12-27"].hex == "0608"
    assert ed.check() == []
    ed.drop_unit("g-12-27", ed.board.parse_hex("2020"))
    assert ed.scenario.units["g-12-27"].hex == "2020"
    assert "within 2 of 0707" in ed.last_message
    assert [p.key for p in ed.check()] == ["units.g-12-27.hex"]
    ed.undo()
    assert ed.scenario.units["g-12-27"].hex == "0608"


@pytest.mark.parametrize("name", ["demyansk-1-trapped.toml", "demyansk-2-campaign.toml"])
def test_the_demyansk_scenarios_open_and_save_back_with_the_same_meaning(editor, tmp_path, name):
    ed = editor
    assert ed.open_scenario(ROOT / "scenarios" / name)
    before = load_scenario(ROOT / "scenarios" / name)
    assert ed.oob.tree.topLevelItemCount() == 2
    assert ed.check() == []
    assert ed.save(tmp_path / name)
    after = load_scenario(tmp_path / name)
    for f in ("id", "name", "ruleset", "first_turn", "last_turn", "turn_names", "first_side", "sides", "units",
              "deployments", "setup_rules", "reinforcements", "withdrawals", "options", "special_rules", "variants",
              "victory", "stacking_limit", "stacking_rule", "rule", "text"):
        assert getattr(after, f) == getattr(before, f), f
    assert after.map_path == before.map_path


def test_a_bad_file_is_reported_in_words(editor, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[scenario]\nid = "x"\n')
    assert not editor.open_scenario(bad)
    assert "bad.toml" in editor.last_message and "missing" in editor.last_message
    assert not editor.open_scenario(ROOT / "scenarios" / "scw-platoon-attack.toml")
    assert "own scenario format" in editor.last_message


def test_a_refused_edit_leaves_the_scenario_as_it_was(editor):
    build_custom(editor)
    before = editor.scenario
    add_unit(editor, "s-1", "soviet", group="sov")
    assert editor.scenario is before
    assert "already a unit" in editor.last_message


def test_the_counter_sheet_dialog_cuts_and_saves_fronts_and_backs(editor, tmp_path):
    from engine.counters.art import counter_image

    ed = editor
    build_custom(ed)
    ed.save(tmp_path / "custom.toml")
    units = list(ed.scenario.units.values())
    size, gap, margin = 40, 6, 12
    sheet_w = margin * 2 + 3 * size + 2 * gap
    from PIL import Image

    sheet = Image.new("RGBA", (sheet_w, margin * 2 + 2 * size + gap), (200, 190, 160, 255))
    fronts = [counter_image(u, size) for u in units[:6]]
    for i, img in enumerate(fronts):
        sheet.paste(img, (margin + (i % 3) * (size + gap), margin + (i // 3) * (size + gap)))
    sheet.save(tmp_path / "scan.png")
    dlg = ed.counter_sheet()
    assert dlg.load(tmp_path / "scan.png")
    dlg.cols.setValue(3)
    dlg.rows.setValue(2)
    dlg.gx.setValue(gap)
    dlg.gy.setValue(gap)
    dlg.corner_clicked(QPointF(margin, margin))
    dlg.corner_clicked(QPointF(sheet.width - margin, sheet.height - margin))
    images = dlg.cut()
    assert len(images) == 6
    dlg.unit.setCurrentText(units[0].id)
    dlg.index.setValue(1)
    click(button(dlg, "Assign"))
    dlg.face.setCurrentText("back")
    dlg.index.setValue(4)
    click(button(dlg, "Assign"))
    files = dlg.save()
    folder = tmp_path / "assets" / "custom-hold" / "counters"
    assert sorted(Path(f).name for f in files.values()) == [f"{units[0].id}-back.png", f"{units[0].id}-front.png"]
    front = Image.open(folder / f"{units[0].id}-front.png").convert("RGBA")
    assert np.array_equal(np.asarray(front), np.asarray(fronts[0]))
    back = Image.open(folder / f"{units[0].id}-back.png").convert("RGBA")
    assert np.array_equal(np.asarray(back), np.asarray(fronts[3]))


def test_the_main_window_opens_the_editor_on_its_scenario_and_plays_what_it_saves(qtbot, tmp_path):
    from gui.play.window import MainWindow

    win = MainWindow(cache=tmp_path / "tiles")
    qtbot.addWidget(win)
    assert win.open_file(ROOT / "scenarios" / "demyansk-1-trapped.toml")
    ed = win.open_scenario_editor()
    assert ed.scenario.id == "demyansk-1-trapped" and len(ed.scenario.units) == len(win.scenario.units)
    ed.path = tmp_path / "copy.toml"
    ed.dirty = True
    ed._open_in_play()
    assert (tmp_path / "copy.toml").is_file()
    assert Path(win.scenario.path) == tmp_path / "copy.toml"


def test_a_unit_changed_in_the_form_keeps_its_step_losses_and_morale(editor):
    ed = editor
    build_custom(ed)
    ed.oob.select(["g-12-48"])
    assert ed.oob.f_id.text() == "g-12-48" and ed.oob.f_regiment.text() == "48"
    ed.oob.f_steps.setValue(2)
    ed.oob.f_losses.setValue(1)
    ed.oob.f_morale.setValue(4)
    ed.oob.f_values[0].setValue(6)
    click(button(ed.oob, "Apply"))
    u = ed.scenario.units["g-12-48"]
    assert (u.steps, u.losses, u.morale, u.attack) == (2, 1, 4, 6)
    assert ed.check() == []


def test_every_button_of_an_empty_editor_answers_in_words(editor):
    from PySide6.QtWidgets import QPushButton

    for b in editor.findChildren(QPushButton):
        if b.text() in ("Open scan…",):
            continue
        b.click()                      # pytest-qt fails the test on any exception raised in a slot
    assert editor.scenario is None
    for act in editor.findChildren(type(editor.menuBar().actions()[0])):
        if act.text().replace("&", "") in ("Undo", "Copy units", "Paste units", "Check", "Play with bots",
                                           "Open in the play window", "Cut a counter sheet…", "Save"):
            act.trigger()
    assert editor.scenario is None
    click(button(editor, "Play this scenario with bots"))
    assert editor.last_message == "Open a scenario or start a new one on a map first"
    assert editor.edit(lambda s: s) is False
    assert editor.last_message == "Open a scenario or start a new one on a map first"


def test_the_counter_sheet_dialog_takes_backs_from_the_sheets_reverse(editor, tmp_path):
    from PIL import Image

    from engine.scenario import edit as E
    from engine.counters.art import counter_image, counter_sheet

    ed = editor
    build_custom(ed)
    for uid, back in (("g-12-27", "2-2-5"), ("s-1", "2-2-5")):
        ed.edit(lambda s, uid=uid, back=back: E.update_unit(s, uid, steps=2, reduced=back), f"{uid} has a back")
    ed.save(tmp_path / "custom.toml")
    units = list(ed.scenario.units.values())
    size, gap, columns = 40, 6, 3
    front = counter_sheet(units, size, ed.scenario.sides, columns=columns, gap=gap)
    reverse = counter_sheet(units, size, ed.scenario.sides, columns=columns, gap=gap, face="back", mirrored=True)
    front.save(tmp_path / "front.png")
    reverse.save(tmp_path / "reverse.png")
    dlg = ed.counter_sheet()
    assert dlg.load(tmp_path / "front.png")
    dlg.cols.setValue(columns)
    dlg.rows.setValue(2)
    dlg.gx.setValue(gap)
    dlg.gy.setValue(gap)
    dlg.corner_clicked(QPointF(gap, gap))
    dlg.corner_clicked(QPointF(front.width - gap, front.height - gap))
    assert len(dlg.cut()) == 6
    assert dlg.backs_from_reverse(tmp_path / "reverse.png") == {}          # no front assigned yet: said in words
    assert "assign the fronts first" in dlg.status.text()
    for i, u in enumerate(units):
        dlg.unit.setCurrentText(u.id)
        dlg.index.setValue(i + 1)
        click(button(dlg, "Assign"))
    backs = dlg.backs_from_reverse(tmp_path / "reverse.png")
    assert sorted(backs) == ["g-12-27", "s-1"]
    dlg.save()
    folder = tmp_path / "assets" / "custom-hold" / "counters"
    for u in units:
        card = Image.new("RGBA", (size, size), (214, 206, 188, 255))
        card.alpha_composite(counter_image(u, size, ed.scenario.sides[u.side], face="back" if u.steps > 1 else "front"))
        name = f"{u.id}-back.png" if u.steps > 1 else f"{u.id}-front.png"
        assert np.array_equal(np.asarray(Image.open(folder / name).convert("RGBA")), np.asarray(card)), name
    assert not (folder / "g-12-48-back.png").exists()


def test_the_editor_writes_a_variable_reinforcement_and_a_side_set_up_by_the_player(editor, qtbot, tmp_path):
    from PySide6.QtCore import Qt

    ed = editor
    build_custom(ed)
    add_unit(ed, "g-res", "german", group="")
    ed.oob.select(["g-res"])
    p = ed.setup
    p.r_side.setCurrentText("german")
    p.r_entry.setText("edge west")
    p.r_id.setText("reserve")
    p.r_release.setText("turn 2")
    p.r_dice.setCurrentText("1d6")
    p.r_table.setPlainText("1-6 1")                      # no ':' : refused in words, nothing changes
    before = ed.scenario
    click(button(p, "Selected units arrive"))
    assert ed.scenario is before and "line 1" in ed.last_message
    p.r_table.setPlainText("4-6: 1\n+1 from turn 2")
    p.r_rule.setText("Black Wednesday 3.5")
    click(button(p, "Selected units arrive"))
    r = ed.scenario.reinforcements[-1]
    assert (r.id, r.units, r.release.event, r.release.turn, r.roll.dice, r.rule) == (
        "reserve", ("g-res",), "turn", 2, "1d6", "Black Wednesday 3.5")
    assert r.roll.results[0].count == 1 and r.roll.modifiers[0].add == 1
    assert "reserve turn 2, german: g-res at edge west, released: from turn 2, rolls 1d6 (1 rows)" in [
        p.r_list.item(i).text() for i in range(p.r_list.count())]
    # the Soviet side is set up by the player: ticked on the scenario page
    page = ed.page
    item = next(page.sides.item(i) for i in range(page.sides.count()) if page.sides.item(i).data(Qt.UserRole) == "soviet")
    item.setCheckState(Qt.Checked)
    click(button(page, "Apply"))
    assert ed.scenario.sides["soviet"].player_setup and not ed.scenario.sides["german"].player_setup
    assert ed.check() == []
    out = tmp_path / "variable.toml"
    assert ed.save(out)
    again = load_scenario(out)
    assert again.reinforcements == ed.scenario.reinforcements and again.sides["soviet"].player_setup
    with qtbot.waitSignal(ed.runner.finished, timeout=120_000) as got:
        assert ed.play_headless(seed=2)
    assert got.args[0]["over"] is True


def test_a_victory_area_written_as_a_comma_list_is_taken_and_a_bad_one_shows_an_example(editor):
    """A comma list of hexes is a union; a wrong expression is answered with the syntax's examples."""
    build_custom(editor)
    v = editor.victory
    v.c_id.setText("three")
    v.c_kind.setCurrentText("occupy")
    v.c_side.setCurrentText("german")
    v.c_area.setText("0606, 0706, 0607")
    v.c_count.setValue(2)
    click(button(v, "Save condition"))
    cond = next(c for c in editor.scenario.victory.conditions if c.id == "three")
    assert cond.area == "0606, 0706, 0607"
    assert sorted(editor.board.hex_id(h) for h in editor.area_hexes(cond.area)) == ["0606", "0607", "0706"]
    assert editor.area_hexes("0606 ; 0706") is None
    said = editor.statusBar().currentMessage()
    assert "unexpected '; 0706'" in said and "'0606, 0706, 0607'" in said and "within 2 of B16.29" in said


def test_a_victory_condition_with_an_area_that_does_not_read_is_not_saved(editor):
    """Save condition with a wrong area says why and keeps the conditions as they were (the wrong one was added)."""
    build_custom(editor)
    v = editor.victory
    before = editor.scenario.victory
    v.c_id.setText("bad")
    v.c_kind.setCurrentText("occupy")
    v.c_side.setCurrentText("german")
    v.c_area.setText("0606; 07x6")
    click(button(v, "Save condition"))
    assert editor.scenario.victory == before
    said = editor.statusBar().currentMessage()
    assert said.startswith("Victory condition bad not saved: '0606; 07x6'") and "'0606, 0706, 0607'" in said
    v.c_area.setText("0606, 0706")                      # put right, it is saved
    click(button(v, "Save condition"))
    assert next(c for c in editor.scenario.victory.conditions if c.id == "bad").area == "0606, 0706"
