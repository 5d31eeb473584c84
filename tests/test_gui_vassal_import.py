"""File > Import VASSAL module… in the play window, offscreen: a synthetic module imported with progress,
its at-start scenario opened with the counters at their hexes and drawn from the module's images."""
from __future__ import annotations

import pytest

from engine.importers.vassal import synthetic as S
from playwindow import play_window
from test_vassal_import import label, module_with_setups


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    win = play_window(qtbot, tmp_path, size=(1200, 800), monkeypatch=monkeypatch)
    return win


def test_import_opens_the_scenario_with_counters_at_their_hexes(window, tmp_path, monkeypatch):
    import gui.play.vassalimport as vi

    monkeypatch.setattr(vi, "data_root", lambda: tmp_path / "user")
    assert "&Import VASSAL module…" in [a.text() for a in window.menus.file_menu.actions()]
    assert window.import_vassal(module_with_setups(tmp_path))
    s, b = window.session, window.board
    assert s.scenario.ruleset == "free"
    at = {u.name: b.hex_id(h) for u, h in s.pieces()}
    assert at == {"Inf A": label(3, 4), "Inf B": "0708", "Inf C": "0708"}
    assert (tmp_path / "user" / "imports" / "s" / "import-report.txt").is_file()
    unit = next(u for u, _ in s.pieces() if u.name == "Inf A")
    picture = window.map_view.art.render(unit, 64)
    c = picture.pixelColor(6, 6)
    assert (c.red(), c.green(), c.blue()) == (40, 60, 200)        # the module's counter image, not generated art
    assert "Imported s.vmod" in window.statusBar().currentMessage()


def test_a_broken_module_is_reported_in_words(window, tmp_path, monkeypatch):
    import gui.play.vassalimport as vi
    from PySide6.QtWidgets import QMessageBox

    shown = []
    monkeypatch.setattr(vi, "data_root", lambda: tmp_path / "user")
    monkeypatch.setattr(QMessageBox, "warning", lambda *a: shown.append(a[2]))
    bad = tmp_path / "bad.vmod"
    S.Module(boards=[("North", "missing.png", 900, 700, S.Grid())]).write(bad)
    assert not window.import_vassal(bad)
    assert "images/missing.png: missing: the image of Map 'Main Map' > Board 'North'" in shown[0]


def test_an_svg_module_opens_with_its_sides_and_the_svg_art_drawn(window, tmp_path, monkeypatch):
    import gui.play.vassalimport as vi
    from test_vassal_import import COUNTER_SVG, GRID, SYMBOLS, centre, images

    monkeypatch.setattr(vi, "data_root", lambda: tmp_path / "user")
    m = S.Module(boards=[("North", "board.png", 900, 700, S.Grid(**GRID))], sides=["Allies", "Germans"])
    images(m, 900, 700)
    m.images["symbols.svg"] = SYMBOLS
    m.images["unit.svg"] = COUNTER_SVG
    m.prototypes = {"Unit (German)": S.definition([S.basic("", "")], [""])}
    unit = S.definition(["prototype;Unit (German)", S.basic("unit.svg", "Panzer")], ["", "null;0;0;1;0"])
    x, y = centre(3, 4)
    m.slots = [("Panzer", unit)]
    m.stacks = [S.setup_stack("s", "North", [("Panzer", unit)], x, y)]
    path = tmp_path / "svg.vmod"
    m.write(path)
    assert window.import_vassal(path)
    s, b = window.session, window.board
    ((u, h),) = list(s.pieces())
    assert (u.name, u.side, b.hex_id(h)) == ("Panzer", "germans", label(3, 4))
    assert [side.name for side in s.scenario.sides.values()] == ["Allies", "Germans"]
    picture = window.map_view.art.render(u, 64)
    c = picture.pixelColor(8, 8)
    assert (c.red(), c.green(), c.blue()) == (0x28, 0x50, 0xC8)      # the SVG's borrowed square, drawn


def test_an_import_switched_to_the_classic_rules_is_told_where_to_type_its_units_values(qtbot, tmp_path):
    # the scenario editor's Check listed the import's 0-0-0 units in one line cut at the list's edge: the words
    # saying what to do were out of sight
    from engine.importers.vassal.importer import import_module
    from scenarioeditorwindow import scenario_editor

    (path,) = import_module(module_with_setups(tmp_path), tmp_path / "out").scenarios
    ed = scenario_editor(qtbot, tmp_path / "tiles", size=(900, 700))
    ed.open_scenario(str(path))
    ed.page.s_ruleset.setCurrentText("classic")
    ed.page.apply()
    assert ed.scenario.ruleset == "classic"
    ed.check()
    (item,) = [ed.problems.item(i) for i in range(ed.problems.count()) if ed.problems.item(i).text().startswith("units:")]
    assert item.text().startswith("units: 4 units have attack, defence and movement 0: type each unit's printed "
                                  "values on the Order of battle page")
    rect = ed.problems.visualItemRect(item)
    assert rect.right() <= ed.problems.viewport().width() and rect.height() >= 2 * ed.problems.fontMetrics().height()
    # the Rules page's terrain chart had the one row "clear", with nothing saying why: the imported map has no terrain
    ed.rules_page.refresh()
    assert "This map has no terrain painted, so every hex plays as clear" in ed.rules_page.note.text()
    assert [ed.rules_page.tec.verticalHeaderItem(i).text() for i in range(ed.rules_page.tec.rowCount())] == ["clear"]
