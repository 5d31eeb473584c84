"""The printed values form offered before play: one row per unit type and terrain, then the tables; typing,
pasting a spreadsheet block, CSV out and in, Start now; and the chart book's banner.  Test values are made up."""
from __future__ import annotations

import csv
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from engine.charts import pending_chart_prompt
from gui.charts.shelf import forget_books
from gui.charts.valuesform import REFUSED
from gui.play.window import MainWindow

ROOT = Path(__file__).resolve().parent.parent
BW4 = ROOT / "scenarios" / "black-wednesday-4-melee-in-krasni-bor.toml"
LEROS1 = ROOT / "scenarios" / "leros-1-curtain-rises.toml"


@pytest.fixture(autouse=True)
def fresh_books():
    forget_books()
    yield
    forget_books()


def open_window(qtbot, tmp_path, monkeypatch, scenario, folder=None):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    win = MainWindow(cache=tmp_path / "cache", autosave=tmp_path / "autosave.toml")
    win.charts.folder = folder or tmp_path / "user"
    qtbot.addWidget(win)
    win.resize(1300, 850)
    win.show()
    qtbot.waitExposed(win)
    assert win.open_file(scenario)
    return win


def made_up(slot):
    """A plausible test value (never a printed one): foot mobility, small numbers, the second result code."""
    d = slot.domain
    if slot.id == "tcs.counter.mobility":
        return "foot"
    if d.is_range:
        return str(max(d.min, min(d.max, (d.min + d.max) // 4 or 1)))
    return d.values[min(1, len(d.values) - 1)]


def test_the_form_is_offered_before_play_and_fills_by_typing_pasting_and_csv(qtbot, tmp_path, monkeypatch):
    win = open_window(qtbot, tmp_path, monkeypatch, BW4)
    qtbot.waitUntil(lambda: win.charts.form is not None and win.charts.form.isVisible())
    form = win.charts.form
    rules = win.session.rules
    c = form.counts()
    assert c.filled == 1 and c.needed > 150          # the published woods height is shown filled
    grid = form.grids["counters"]
    types = [grid.verticalHeaderItem(r).text() for r in range(grid.rowCount())]
    sorties = {a.sortie_type for a in rules.scenario.air}                    # their firepower (TCS 25.0)
    assert set(types) == {u.type for u in rules.scenario.units} | sorties    # one row per unit type
    cols = [grid.horizontalHeaderItem(i).text() for i in range(grid.columnCount())]
    assert cols[:7] == ["movement", "mobility", "range", "firepower", "morale", "steps", "point fire"]
    # typing: a good value is kept in the owner's book, a bad one marked and explained, not dropped
    r = types.index("soviet rifle platoon")
    grid.item(r, cols.index("morale")).setText("4")
    assert form.book.lookup("tcs.counter.morale", ("soviet rifle platoon",)) == 4
    grid.item(r, cols.index("steps")).setText("eleven")
    item = grid.item(r, cols.index("steps"))
    assert item.background().color() == REFUSED and item.text() == "eleven"
    assert "expected a whole number from 1 to 10" in item.toolTip() and "1 refused" in form.count.text()
    # pasting a block copied from a spreadsheet into the selected cell onwards: every counter row
    rows = []
    for t in types[:-len(sorties)]:
        rows.append("\t".join(made_up(rules.charts[s]) for s in
                              ("tcs.counter.movement", "tcs.counter.mobility", "tcs.counter.range",
                               "tcs.counter.firepower", "tcs.counter.morale", "tcs.counter.steps",
                               "tcs.counter.point_fire")))
    form.tabs.setCurrentIndex(0)
    form.grids["counters"].setCurrentCell(0, 0)
    kept, bad = form.paste_text("\n".join(rows) + "\n")
    assert kept == 7 * (len(types) - len(sorties)) and bad == 0 and not form.refused
    assert form.book.lookup("tcs.counter.mobility", (types[-len(sorties) - 1],)) == "foot"
    # the mobility typed makes the foot movement costs needed
    assert any(n.slot == "tcs.terrain.move" and n.before_play for n in form._needs.values())
    # CSV: export, fill the blanks as a spreadsheet would, import
    out = tmp_path / "values.csv"
    n = form.export_csv(out)
    lines = list(csv.reader(out.open()))
    assert lines[0] == ["chart", "cell", "section", "row", "column", "value"] and len(lines) == n + 1
    for line in lines[1:]:
        if not line[5]:
            line[5] = made_up(rules.charts[line[0]])
    with out.open("w", newline="") as f:
        csv.writer(f).writerows(lines)
    kept, bad = form.import_csv(out)
    assert bad == 0, form.refused
    c = form.counts()
    assert c.missing == 0 and c.optional_filled == c.optional and form.start_btn.isEnabled()
    # a fresh owner imports the same file and gets the same values (round trip)
    forget_books()
    other = open_window(qtbot, tmp_path / "b", monkeypatch, BW4, folder=tmp_path / "other")
    qtbot.waitUntil(lambda: other.charts.form is not None)
    other.charts.form.import_csv(out)
    other.charts.form.export_csv(tmp_path / "again.csv")
    assert (tmp_path / "again.csv").read_text() == out.read_text()
    # Start: play reads every value from the book, nothing is asked
    form.start_btn.click()
    qtbot.waitUntil(lambda: win.charts.form is None)
    s = win.session
    assert pending_chart_prompt(s.rules, s.state) is None and not win.charts.dock.isVisible()
    for _ in range(400):                                  # on to the first Action Phase: nothing is asked
        if s.rules.current(s.state)[0] == "action" and not s.state.pending:
            break
        assert pending_chart_prompt(s.rules, s.state) is None
        acts = [a.text() for a in s.game.legal_actions()]
        s.play("end" if "end" in acts else acts[0])
    assert s.rules.current(s.state)[0] == "action" and not win.charts.dock.isVisible()
    assert s.state.memory.get("tcs.counter.morale", ("soviet rifle platoon",)) == 2     # as pasted, from the book


def test_start_now_leaves_the_rest_to_be_asked_in_play(qtbot, tmp_path, monkeypatch):
    win = open_window(qtbot, tmp_path, monkeypatch, BW4)
    qtbot.waitUntil(lambda: win.charts.form is not None)
    form = win.charts.form
    assert form.later_btn.text() == "Start now and ask the rest as play needs them"
    assert not form.start_btn.isEnabled()
    form.later_btn.click()
    qtbot.waitUntil(lambda: win.charts.form is None)
    s = win.session
    for _ in range(400):                              # on until play needs a value: it is asked then
        if pending_chart_prompt(s.rules, s.state) is not None:
            break
        acts = [a.text() for a in s.game.legal_actions()]
        s.play("end" if "end" in acts else acts[0])
    assert win.charts.dock.isVisible() and win.charts.dock.prompt is not None
    win.chart_values_act.trigger()                                                  # and offered again on demand
    assert win.charts.form is not None and win.charts.form.isVisible()


def test_leros_reads_its_own_values_and_a_damaged_cell_is_shown_in_the_banner(qtbot, tmp_path, monkeypatch):
    book = tmp_path / "user" / "charts" / "tcs.toml"
    book.parent.mkdir(parents=True)
    book.write_text('format = 2\n[charts."tcs.spotting_range".open]\nvehicle = 20\n'
                    '[games.black-wednesday.charts."tcs.terrain.combat"]\nclear = "Open"\n'
                    '[games.leros.charts."tcs.terrain.height"]\nvillage = "tall"\nbuilding = 10\n')
    win = open_window(qtbot, tmp_path, monkeypatch, LEROS1)
    banner = win.charts.banner
    assert banner.isVisible() and str(book) in banner.text.text()
    assert "games.leros.charts.tcs.terrain.height['village'] = 'tall'" in banner.text.text()
    qtbot.waitUntil(lambda: win.charts.form is not None)
    b = win.charts.form.book
    assert b.lookup("tcs.terrain.height", ("building",)) == 10                      # the rest is kept and used
    assert b.lookup("tcs.spotting_range", ("open", "vehicle")) == 20                 # the series' shared
    assert b.lookup("tcs.terrain.combat", ("clear",)) == "Partly Protective"         # Leros' own, not BW's
    grid = win.charts.form.grids["terrain"]
    rows = [grid.verticalHeaderItem(r).text() for r in range(grid.rowCount())]
    cols = [grid.horizontalHeaderItem(i).text() for i in range(grid.columnCount())]
    clear = grid.item(rows.index("clear"), cols.index("combat class"))
    assert clear.text() == "Partly Protective" and not clear.flags() & Qt.ItemIsEditable
    assert win.charts.form.aside.count() == 1
    # a paste that changes a value already in the book (the series' spotting range, Black Wednesday's too) says so
    form = win.charts.form
    form.tabs.setCurrentIndex(list(form.grids).index("tables"))
    tables = form.grids["tables"]
    row = [tables.verticalHeaderItem(r).text() for r in range(tables.rowCount())].index(
        "Spotting Range Table [open / vehicle]")
    tables.setCurrentCell(row, 0)
    assert form.paste_text("10\n") == (1, 0)
    assert "1 value already in your chart book changed: Spotting Range Table[open][vehicle]: 20 → 10" in \
        form.last_message


def test_answers_read_from_the_owners_book_redraw_and_autosave_the_window_once_not_once_each(qtbot, tmp_path,
                                                                                            monkeypatch):
    import sys

    sys.path.insert(0, str(ROOT / "tests"))
    from bw_book import write_book

    write_book(tmp_path / "user")
    win = open_window(qtbot, tmp_path, monkeypatch, BW4, folder=tmp_path / "user")
    if win.charts.form is not None and win.charts.form.isVisible():
        win.charts.form.start_now()
    rules = win.session.rules
    for _ in range(12):
        if rules.current(win.session.state)[1:] == ("create", "axis"):
            break
        win.phase_bar.next_act.trigger()
    assert rules.current(win.session.state)[1:] == ("create", "axis")
    redraws, saves = [], []
    win.session.changed.connect(lambda: redraws.append(1))
    write = win.session.write
    monkeypatch.setattr(win.session, "write", lambda path: (saves.append(path), write(path))[1])
    before = len(win.session.game.log)
    win.phase_bar.next_act.trigger()         # battalion morale, weather, reinforcements: each cell read from the book
    read = len(win.session.game.log) - before - 1
    assert read > 100 and pending_chart_prompt(rules, win.session.state) is None
    assert len(redraws) <= 2 and 1 <= len(saves) <= 2          # were one each per answer read (over 100)
    from engine.game import load_game

    assert len(load_game(saves[-1]).log) == len(win.session.game.log)    # the autosave holds every answer read


def test_an_op_sheet_that_may_not_be_implemented_says_why_on_its_greyed_implement_button(qtbot, tmp_path,
                                                                                        monkeypatch):
    import sys

    sys.path.insert(0, str(ROOT / "tests"))
    from bw_book import write_book

    write_book(tmp_path / "user")
    win = open_window(qtbot, tmp_path, monkeypatch, BW4, folder=tmp_path / "user")
    if win.charts.form is not None and win.charts.form.isVisible():
        win.charts.form.start_now()
    rules = win.session.rules
    for _ in range(6):
        if rules.current(win.session.state)[1:] == ("implement", "soviet"):
            break
        win.phase_bar.next_act.trigger()
    assert rules.current(win.session.state)[1:] == ("implement", "soviet")
    panel = win.tcs.sheets
    assert panel.select_sheet("63Gd-follow-on")       # 30 weighted turns, but 63Gd-released is implemented
    button = panel.buttons["implement"]
    assert not button.isEnabled()
    assert button.toolTip() == ("63Gd-follow-on may not be implemented now — TCS 6.7b: 63Gd already has an "
                                "implemented Op Sheet (limit 1)")
