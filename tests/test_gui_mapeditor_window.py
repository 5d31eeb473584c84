"""The map editor opened from the play window: a window of its own, left back to playing; calibration clicks
land where aimed; a new map's default terrain; Check map's problems and warnings."""
from __future__ import annotations

import pytest
from PIL import Image, ImageDraw
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QDockWidget

from engine.maps.mapedit import SheetSpec

pytest.importorskip("pytestqt")

from gui.play.window import MainWindow  # noqa: E402
from gui.mapeditor import MapEditor  # noqa: E402
from mapeditorwindow import editor_fixture  # noqa: E402
from gui.mapeditor.newmap import NewMapDialog  # noqa: E402


@pytest.fixture
def play(qtbot, tmp_path):
    win = MainWindow(cache=tmp_path / "tiles", autosave=tmp_path / "autosave.toml")
    qtbot.addWidget(win)
    win.resize(1200, 800)
    win.show()
    assert win.open_file("scenarios/demyansk-1-trapped.toml")
    yield win
    if win.map_editor is not None:
        win.map_editor.edit = None
        win.map_editor.close()


def test_the_map_editor_from_the_play_window_gets_a_whole_window_of_its_own(qtbot, play):
    view = play.map_view
    docks_shown = [d.isVisible() for d in (play.log_dock, play.tray, play.combat, play.victory)]
    play.edit_map_act.trigger()
    ed = play.map_editor
    assert isinstance(ed, MapEditor) and ed.isWindow() and ed.isVisible()
    room = ed.screen().availableGeometry()                           # its first size, on the screen
    assert ed.width() >= min(1500, int(room.width() * 0.9)) and ed.width() <= room.width()
    assert ed.height() >= min(950, int(room.height() * 0.9)) and ed.height() <= room.height()
    tools = ed.findChild(QDockWidget, "tools")                       # only its own tools beside its map
    assert ed.view.width() + tools.width() >= ed.width() - 20
    assert play.centralWidget() is view                              # the play window is left as it was
    assert [d.isVisible() for d in (play.log_dock, play.tray, play.combat, play.victory)] == docks_shown
    assert ed.board is not play.board and ed.board.terrain == play.board.terrain
    ed.board.terrain.clear()                                         # editing never touches the game's map
    assert play.board.terrain


def test_map_leave_the_editor_goes_back_to_playing(qtbot, play):
    play.edit_map_act.trigger()
    ed = play.map_editor
    ed.leave_act.trigger()                # the menu's action, emitting triggered(bool)
    assert play.map_editor is None and not ed.isVisible()
    file_acts = {a.text().replace("&", ""): a for a in play.menuBar().actions()[0].menu().actions()}
    assert file_acts["Open…"].isEnabled() and file_acts["New game…"].isEnabled()
    assert file_acts["Save game"].isEnabled()
    assert play.session is not None and play.centralWidget() is play.map_view
    play.edit_map_act.trigger()           # and in again
    assert play.map_editor is not None and play.map_editor is not ed


def test_the_editor_window_remembers_its_size_and_fits_on_the_screen(qtbot, play):
    play.edit_map_act.trigger()
    ed = play.map_editor
    ed.resize(760, ed.height())
    ed.close()
    play.edit_map_act.trigger()
    again = play.map_editor
    assert again.width() == 760
    room = again.screen().availableGeometry()
    assert again.width() <= room.width() and again.height() <= room.height()


def test_a_saved_map_is_opened_in_the_play_window_when_no_scenario_is_played(qtbot, tmp_path):
    win = MainWindow(cache=tmp_path / "tiles", autosave=tmp_path / "autosave.toml")
    qtbot.addWidget(win)
    win.show()
    assert win.open_file("maps/demo.toml")
    win.edit_map_act.trigger()
    ed = win.map_editor
    ed.edit.paint(ed.board.hexes()[0], "woods")
    assert ed.save(tmp_path / "edited.toml")
    ed.leave_act.trigger()
    assert win.map_editor is None and win.board.source == str(tmp_path / "edited.toml")
    assert win.board.terrain[win.board.hexes()[0]] == "woods"


# ---------------------------------------------------------------- calibration

editor = editor_fixture()


def scan_with_dots(path, dots):
    """A blank scan with a black dot at each printed hex centre (image pixels)."""
    im = Image.new("RGB", (900, 700), (240, 236, 220))
    d = ImageDraw.Draw(im)
    for u, v in dots:
        d.ellipse((u - 4, v - 4, u + 4, v + 4), fill=(0, 0, 0))
    im.save(path)


# The printed grid of the scan: turned a little and smaller than the first guess.
PRINTED = {"A02.02": (180.0, 190.0), "A07.02": (520.0, 215.0), "A04.06": (300.0, 470.0), "A07.06": (505.0, 480.0)}


def click_scan(qtbot, ed, sheet, uv):
    p = ed.view.image_to_viewport(sheet, *uv)
    qtbot.mouseClick(ed.view.viewport(), Qt.LeftButton, pos=QPoint(round(p.x()), round(p.y())))
    return p


def test_calibration_clicks_land_where_aimed_and_the_scan_stays_still(qtbot, editor, tmp_path):
    scan_with_dots(tmp_path / "scan.png", PRINTED.values())
    editor.new_map("Dots", "flat", [SheetSpec("A", str(tmp_path / "scan.png"), 8, 7)])
    sh = editor.board.sheets[0]
    assert editor.tool_key == "calibrate"
    corners = [(0.0, 0.0), (900.0, 700.0)]
    for hid, uv in PRINTED.items():
        on_screen = [editor.view.image_to_viewport(sh, *c) for c in corners]
        aimed = click_scan(qtbot, editor, sh, uv)          # aimed at the dot as it is on the screen now
        editor.enter_click_id(hid)
        after = [editor.view.image_to_viewport(sh, *c) for c in corners]
        for a, b in zip(on_screen, after):                 # the scan did not move under the cursor
            assert (a - b).manhattanLength() < 1.0
        assert (editor.view.image_to_viewport(sh, *uv) - aimed).manhattanLength() < 1.0
    fit = editor.edit.calibrations["A"].fit
    assert fit is not None and fit.rms < 12
    for hid, uv in PRINTED.items():                        # the grid moved onto the dots
        centre = editor.view.lattice_to_viewport(*editor.board.center(editor.board.parse_hex(hid)))
        assert (centre - editor.view.image_to_viewport(sh, *uv)).manhattanLength() < 25
    editor.palette.fit_view_button.click()                 # the view moves only when asked
    assert editor.view.correction.isIdentity()
    centre = editor.view.lattice_to_viewport(*editor.board.center(editor.board.parse_hex("A02.02")))
    assert (centre - editor.view.image_to_viewport(sh, *PRINTED["A02.02"])).manhattanLength() < 25


def test_removing_a_calibration_point_refits_and_the_grid_follows(qtbot, editor, tmp_path):
    scan_with_dots(tmp_path / "scan.png", PRINTED.values())
    editor.new_map("Dots", "flat", [SheetSpec("A", str(tmp_path / "scan.png"), 8, 7)])
    sh = editor.board.sheets[0]
    start = sh.transform
    for hid, uv in list(PRINTED.items())[:3]:
        click_scan(qtbot, editor, sh, uv)
        editor.enter_click_id(hid)
    assert editor.edit.calibrations["A"].fit is not None
    p = editor.palette
    p.click_table.selectRow(2)
    p.remove_click_button.click()
    cal = editor.edit.calibrations["A"]
    assert len(cal.clicks) == 2 and cal.fit is None and "no fit yet" in p.rms_label.text()
    for hid, uv in cal.clicks:                             # the grid drawn follows the two points left
        centre = editor.view.lattice_to_viewport(*editor.board.center(editor.board.parse_hex(hid)))
        assert (centre - editor.view.image_to_viewport(sh, *uv)).manhattanLength() < 1.0
    for _ in range(2):
        p.click_table.selectRow(0)
        p.remove_click_button.click()
    assert not cal.clicks and sh.transform == start        # no point left: the first guess again


# ---------------------------------------------------------------- a new map, Check map

def test_a_new_map_gets_the_terrain_chosen_in_the_dialog_and_checks_clean(qtbot, editor, tmp_path):
    Image.new("RGB", (500, 400), (240, 236, 220)).save(tmp_path / "scan.png")
    dlg = NewMapDialog(editor)
    qtbot.addWidget(dlg)
    assert dlg.default_terrain() == "clear"
    dlg.add_image(str(tmp_path / "scan.png"), cols=12, rows=24)
    editor.new_map("Mine", dlg.orientation.currentText(), dlg.specs(), dlg.default_terrain())
    b = editor.board
    assert len(b.terrain) == len(b.hexes()) == 288 and set(b.terrain.values()) == {"clear"}
    assert editor.check() == []
    assert "0 problem(s), 0 warning(s)" in editor.last_message
    dlg.terrain.setCurrentText("woods")
    editor.new_map("Mine", "flat", dlg.specs(), dlg.default_terrain())
    assert set(editor.board.terrain.values()) == {"woods"}
    editor.edit.paint(editor.board.parse_hex("A01.01"), None)
    found = editor.check()
    assert [(f.severity, f.message) for f in found] == [("warning", "A01.01 has no terrain")]
    assert editor.palette.findings.item(0).text() == "warning: no terrain: A01.01 has no terrain"


def test_closing_the_play_window_asks_the_editor_first(qtbot, play, monkeypatch):
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtWidgets import QMessageBox

    play.edit_map_act.trigger()
    ed = play.map_editor
    ed.edit.paint(ed.board.hexes()[0], "woods")                      # unsaved work in the editor
    monkeypatch.setattr(QGuiApplication, "platformName", staticmethod(lambda: "xcb"))   # the question is asked
    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.Cancel))
    assert not play.close()                                          # the user cancels: both stay open
    assert play.isVisible() and ed.isVisible() and play.map_editor is ed
    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.Discard))
    assert play.close() and play.map_editor is None


def test_saving_a_new_map_suggests_its_name_beside_the_scan(qtbot, editor, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    from gui.common.settings import last_folder
    scans = tmp_path / "my scans"
    scans.mkdir()
    scan_with_dots(scans / "valley.png", [])
    editor.new_map("My valley", "flat", [SheetSpec("A", str(scans / "valley.png"), 8, 6)])
    offered = []

    def accept(parent, title, start, filter):
        offered.append(start)
        return start, filter
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(accept))
    assert editor.save() is True                            # no file yet: the dialog asks where
    assert offered == [str(scans / "my-valley.toml")]       # was: maps/new-map.toml under the program's folder
    assert (scans / "my-valley.toml").is_file() and editor.path == scans / "my-valley.toml"
    assert last_folder() == scans                            # the next Open starts there


def test_the_fitted_editor_view_settles_instead_of_resizing_itself_forever(qtbot, tmp_path):
    """A scroll bar shown "as needed" narrowed the fitted view, the refit on resize shrank the map, the
    bar vanished, the view widened again: Qt's layout loop froze the editor at some window sizes."""
    from PySide6.QtCore import QElapsedTimer, QEvent, QEventLoop, QObject
    from PySide6.QtWidgets import QApplication

    from gui.play.window import MainWindow

    win = MainWindow(cache=tmp_path / "tiles", autosave=tmp_path / "autosave.toml", recent=tmp_path / "recent.toml")
    qtbot.addWidget(win)
    win.show()
    assert win.open_file("scenarios/demyansk-1-trapped.toml")
    win.edit_map_act.trigger()
    ed = win.map_editor
    viewport = ed.view.viewport()

    class Count(QObject):
        resizes = 0

        def eventFilter(self, obj, event):
            if obj is viewport and event.type() == QEvent.Resize:
                Count.resizes += 1
            return False

    counter = Count()
    viewport.installEventFilter(counter)
    clock = QElapsedTimer()
    clock.start()
    while clock.elapsed() < 1500:               # bounded even when the loop is there: 50 ms slices
        QApplication.processEvents(QEventLoop.AllEvents, 50)
    viewport.removeEventFilter(counter)
    assert Count.resizes < 10
    ed.edit = None


def test_saving_a_map_never_offers_the_programs_own_maps_folder(editor, tmp_path, monkeypatch):
    """A new map on a shipped scan is offered the user's Sandtable folder, not beside the scan (the program's
    maps folder); a shipped map opened and changed is saved as the user's own copy, the shipped file untouched."""
    from pathlib import Path

    from PySide6.QtWidgets import QFileDialog

    from gui.common.userfolders import games_folder
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "home").mkdir()
    maps = Path(__file__).resolve().parent.parent / "maps"
    editor.new_map("My Demyansk", "flat", [SheetSpec("A", str(maps / "demyansk.png"), 10, 8)])
    offered = []

    def answer(parent, title, start, filter):
        offered.append(start)
        return str(tmp_path / "mine.toml"), filter             # the user picks another place
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(answer))
    editor.save()                                               # no file yet: the dialog asks where
    assert offered == [str(games_folder() / "my-demyansk.toml")]     # not maps/ beside the shipped scan
    assert (tmp_path / "mine.toml").is_file() and editor.path == tmp_path / "mine.toml"
    shipped = maps / "demyansk.toml"
    before = shipped.read_bytes()
    assert editor.open_file(shipped)
    editor.edit.dirty = True
    offered.clear()
    editor.save()                                               # Ctrl+S on a shipped map: Save as, the user's own
    assert offered == [str(games_folder() / "demyansk.toml")] and shipped.read_bytes() == before
    assert editor.path == tmp_path / "mine.toml"


def test_the_editor_run_on_its_own_never_opens_larger_than_the_screen(qtbot, tmp_path):
    """``python -m gui.mapeditor`` opened a 1500 x 950 window whatever the screen: on a 1400-pixel-wide one the
    suggestions dock lay half off it. It now opens as the editor does from the play window (FIRST_SIZE shrunk
    to the screen), and a size asked for is shrunk too."""
    from gui.mapeditor.__main__ import main, open_window

    room = None
    for size in (None, "3000x2000"):
        win = open_window(size)
        qtbot.addWidget(win)
        room = win.screen().availableGeometry()
        qtbot.waitUntil(lambda: win.frameGeometry().width() <= room.width(), timeout=2000)
        assert win.frameGeometry().height() <= room.height()
        assert room.contains(win.geometry())
        win.close()
    with pytest.raises(SystemExit):
        main(["--size", "wide"])          # a size that is not one: a usage error, not a traceback
