"""The map editor: the map view, the tool palette, undo/redo, checks, the LOS thread, open and save.

Every change goes through :class:`engine.maps.mapedit.MapEdit`; this module only
turns clicks and keys into its calls and shows the result.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QFileDialog, QLabel, QListWidgetItem, QMainWindow, QMessageBox

from engine.maps.board import Board
from engine.errors import BadFile
from engine.maps.mapedit import (DEFAULT_TERRAIN, MapEdit, check_map, guess_transform, jump_limit, new_board,
                                 palette_terrains)

from gui.common.settings import last_folder, remember_folder
from gui.common.userfolders import games_folder, is_program_folder
from gui.scene.tiles import MapImageError, open_map_image
from .gridfinder import PRINTED_IDS_HINT, GridFinder
from .palette import TOOLS, Palette
from .suggestions import SuggestionPanel, paint_suggestions
from .tools import CalibrateTool, FillTool, HexsideTool, LosTool, PaintTool, SelectTool, TraceTool
from .view import EditorView

GO_TO_HEX_PX = 90     # screen pixels across a hex after "go to" a finding


def make_tool(editor, key: str):
    """The tool object for a palette key."""
    if key == "calibrate":
        return CalibrateTool(editor)
    if key in ("terrain", "feature", "elevation"):
        return PaintTool(editor, key)
    if key == "fill":
        return FillTool(editor)
    if key == "hexside":
        return HexsideTool(editor)
    if key == "select":
        return SelectTool(editor)
    if key == "los":
        return LosTool(editor)
    if key.startswith("trace "):
        return TraceTool(editor, key.split(" ", 1)[1])
    raise KeyError(key)


class MapEditor(QMainWindow):
    """Turn scans into a map: calibrate, paint, trace, name, check, save."""

    saved = Signal(str)
    leave = Signal()         # Map > Leave the editor: the owner closes it (a window of its own closes itself)
    closed = Signal()        # the window has closed (its changes saved or given up)

    def __init__(self, parent=None, cache: Path | None = None):
        super().__init__(parent)
        self.setWindowTitle("Sandtable map editor")
        self.board: Board | None = None
        self.edit: MapEdit | None = None
        self.path: Path | None = None
        self.tool = None
        self.tool_key = ""
        self.selection: set = set()
        self.marked: list = []
        self.findings: list = []
        self.show_terrain = True
        self.show_elevation = True
        self.show_lines = True
        self.show_names = True
        self.show_obstacles = True
        self.last_message = ""
        self._centres = None
        self._sight = None
        self.overlay_cache: dict = {}
        self.grid_finder = GridFinder(self)
        self.view = EditorView(self, self, cache=cache)
        self.setCentralWidget(self.view)
        self.palette = Palette()
        dock = QDockWidget("Tools", self)
        dock.setObjectName("tools")
        dock.setFeatures(QDockWidget.DockWidgetMovable | QDockWidget.DockWidgetFloatable)
        dock.setWidget(self.palette)
        self.addDockWidget(Qt.LeftDockWidgetArea, dock)
        self.suggestions = SuggestionPanel(self)
        self.suggestions_dock = QDockWidget("Suggestions", self)
        self.suggestions_dock.setObjectName("suggestions")
        self.suggestions_dock.setFeatures(QDockWidget.DockWidgetMovable | QDockWidget.DockWidgetFloatable
                                          | QDockWidget.DockWidgetClosable)
        self.suggestions_dock.setWidget(self.suggestions)
        self.addDockWidget(Qt.RightDockWidgetArea, self.suggestions_dock)
        self.suggestions_dock.hide()              # shown when suggestions are asked for (Tools menu)
        self.overlay_hooks = [paint_suggestions]
        self.hover_label = QLabel()
        self.statusBar().addWidget(self.hover_label, 1)
        self.view.hovered.connect(self.hover_label.setText)
        self._connect_palette()
        self._make_menus()
        self._enable(False)
        self.status("Start with Map > New map from scans (Ctrl+N) or Map > Open map (Ctrl+O)")

    # ------------------------------------------------------------ wiring
    def _connect_palette(self) -> None:
        p = self.palette
        p.tool_chosen.connect(self.set_tool)
        p.acted.connect(lambda: self.tool_key != "calibrate" and self.view.setFocus())
        p.id_entered.connect(self.enter_click_id)
        p.finding_chosen.connect(self.go_to_finding)
        p.click_chosen.connect(self._go_to_click)
        p.remove_click_button.clicked.connect(self._remove_click)
        p.find_grid_button.clicked.connect(self.find_grid)
        p.grid_accepted.connect(self.grid_finder.accept)
        p.grid_discard_button.clicked.connect(self.grid_finder.discard)
        p.grid_id_edit.textChanged.connect(lambda _t: self.view.viewport().update())    # the id shown on the hex
        p.align_button.clicked.connect(self._align)
        p.fit_view_button.clicked.connect(self.fit_view)
        p.sheet_combo.currentIndexChanged.connect(lambda _i: self._sheet_chosen())
        p.name_area_button.clicked.connect(self.name_selection)
        p.set_elevation_button.clicked.connect(self.set_selection_elevation)
        p.add_box_button.clicked.connect(self._add_box)
        p.names_list.currentItemChanged.connect(lambda item, _old: self._named_chosen(item))
        p.rename_button.clicked.connect(self.rename_named)
        p.rename_edit.returnPressed.connect(self.rename_named)
        p.rename_id_edit.returnPressed.connect(self.rename_named)
        p.delete_named_button.clicked.connect(self.delete_named)
        p.names_list.delete_pressed.connect(self.delete_named)
        p.terrain_list.currentTextChanged.connect(lambda _t: self._show_letter())
        p.legend_letter_button.clicked.connect(self.set_legend_letter)
        p.legend_letter.returnPressed.connect(self.set_legend_letter)
        p.derive_button.clicked.connect(self.derive_elevations)
        p.fill_elevation_button.clicked.connect(self.fill_elevation)
        p.check_button.clicked.connect(self.check)
        p.codes_check.toggled.connect(lambda on: self._toggle("show_terrain", on))
        p.elevation_check.toggled.connect(lambda on: self._toggle("show_elevation", on))

    def _make_menus(self) -> None:
        m = self.menuBar().addMenu("&Map")
        self.new_act = QAction("&New map from scans…", self, shortcut=QKeySequence.New, triggered=self.new_map_dialog)
        self.open_act = QAction("&Open map…", self, shortcut=QKeySequence.Open, triggered=self._choose_open)
        self.save_act = QAction("&Save", self, shortcut=QKeySequence.Save, triggered=lambda: self.save())
        self.save_as_act = QAction("Save &as…", self, shortcut=QKeySequence.SaveAs, triggered=self._choose_save)
        self.check_act = QAction("&Check map", self, shortcut="Ctrl+K", triggered=self.check)
        self.leave_act = QAction("&Leave the editor", self, triggered=lambda: self.leave.emit())
        m.addActions([self.new_act, self.open_act, self.save_act, self.save_as_act])
        m.addSeparator()
        m.addAction(self.check_act)
        m.addSeparator()
        m.addAction(self.leave_act)
        self.quit_act = QAction("&Quit", self, shortcut=QKeySequence("Ctrl+Q"), triggered=self.quit_program)
        self.quit_act.setToolTip("Quit Sandtable: every window closes (a map or a game not saved is asked about first)")
        m.addAction(self.quit_act)
        e = self.menuBar().addMenu("&Edit")
        self.undo_act = QAction("&Undo", self, shortcut=QKeySequence.Undo, triggered=self.undo)
        self.redo_act = QAction("&Redo", self, shortcut=QKeySequence("Ctrl+Shift+Z"), triggered=self.redo)
        self.redo_act.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        e.addActions([self.undo_act, self.redo_act])
        t = self.menuBar().addMenu("&Tools")
        self.tool_acts = {}
        for key, text, shortcut, _page in TOOLS:
            act = QAction(text, self, shortcut=shortcut, triggered=lambda _=False, k=key: self.set_tool(k))
            act.setShortcutContext(Qt.WindowShortcut)
            t.addAction(act)
            self.tool_acts[key] = act
        t.addSeparator()
        self.find_grid_act = QAction("&Find the grid", self, shortcut="Ctrl+Shift+G", triggered=self.find_grid)
        self.find_grid_act.setToolTip("Look for the printed hex lines on the current sheet's scan and propose "
                                      "the calibration")
        t.addAction(self.find_grid_act)
        self.suggest_act = QAction("Suggest &terrain", self, shortcut="Ctrl+Shift+T",
                                   triggered=lambda: self.suggestions.suggest_terrain())
        self.suggest_sides_act = QAction("Suggest &hexsides like the marked ones", self,
                                         triggered=lambda: self.suggestions.suggest_hexsides())
        t.addActions([self.suggest_act, self.suggest_sides_act, self.suggestions_dock.toggleViewAction()])
        v = self.menuBar().addMenu("&View")
        self.codes_act = QAction("&Terrain codes", self, checkable=True, checked=True, shortcut="T",
                                 toggled=lambda on: self.palette.codes_check.setChecked(on))
        self.lines_act = QAction("Hexsides, roads and &lines", self, checkable=True, checked=True,
                                 toggled=lambda on: self._toggle("show_lines", on))
        self.names_act = QAction("&Areas", self, checkable=True, checked=True,
                                 toggled=lambda on: self._toggle("show_names", on))
        self.obst_act = QAction("&Obstacles and contours", self, checkable=True, checked=True,
                                toggled=lambda on: self._toggle("show_obstacles", on))
        self.grid_act = QAction("Hex &grid", self, checkable=True, checked=True, shortcut="G",
                                toggled=self.view.set_grid_visible)
        self.ids_act = QAction("Hex &ids", self, checkable=True, checked=True, shortcut="I",
                               toggled=self.view.set_ids_visible)
        self.ids_act.setToolTip("The program's hex ids over the map. " + PRINTED_IDS_HINT)
        self.printed_ids_act = QAction("The scans print hex &ids", self, checkable=True,
                                       triggered=self.set_printed_ids)
        self.printed_ids_act.setToolTip("Saved with the map: the program's hex ids start hidden here and in play, "
                                        "so they do not print over the scan's own")
        fit = QAction("&Fit view", self, shortcut="Ctrl+0", triggered=lambda: self.fit_view())
        fit.setToolTip("The grid square to the screen and the whole map in the window")
        zin = QAction("Zoom &in", self, shortcut=QKeySequence("+"), triggered=lambda: self.view.zoom_by(1.25))
        zin.setShortcuts([QKeySequence("+"), QKeySequence("="), QKeySequence.ZoomIn])
        zout = QAction("Zoom &out", self, shortcut=QKeySequence("-"), triggered=lambda: self.view.zoom_by(0.8))
        v.addActions([self.codes_act, self.lines_act, self.names_act, self.obst_act, self.grid_act, self.ids_act,
                      self.printed_ids_act])
        v.addSeparator()
        v.addActions([fit, zin, zout])

    def _enable(self, on: bool) -> None:
        for a in (self.save_act, self.save_as_act, self.check_act, self.find_grid_act, *self.tool_acts.values(),
                  self.suggest_act, self.suggest_sides_act, self.printed_ids_act):
            a.setEnabled(on)
        self.palette.setEnabled(on)
        self.suggestions.setEnabled(on)
        self._update_undo()

    def _toggle(self, name: str, on: bool) -> None:
        setattr(self, name, on)
        self.view.viewport().update()

    # ------------------------------------------------------------ boards in and out
    def open_board(self, board: Board, path: Path | None = None) -> None:
        """Edit a board (a loaded map or a new one)."""
        self.grid_finder.discard()
        self.board = board
        self.edit = MapEdit(board)
        self.path = Path(path) if path else None
        self.selection.clear()
        self.marked = []
        self.findings = []
        self._centres = None
        self._sight = None
        self.overlay_cache.clear()
        self.view.show_board(board)
        p = self.palette
        p.sheet_combo.blockSignals(True)
        p.sheet_combo.clear()
        p.sheet_combo.addItems([sh.id for sh in board.sheets])
        p.sheet_combo.blockSignals(False)
        p.set_terrains(palette_terrains(board))      # this map's terrains, not the last map's
        p.show_findings([])
        p.findings.clear()
        p.jump_spin.setValue(jump_limit(board))
        self._enable(True)
        self._sheet_chosen()
        self._show_printed_ids()
        self._refresh_names()
        self._named_chosen(None)
        self._show_letter()
        calibrated = board.source is not None and all(sh.transform.scale > 1.5 for sh in board.sheets)
        self.set_tool("terrain" if calibrated else "calibrate")
        self.suggestions.images.clear()           # another map: its own scans
        self.suggestions.forget_asked()           # ... and its own hexes to paint
        self.suggestions.refresh()
        self._title()

    def new_map(self, name: str, orientation: str, specs, terrain: str | None = DEFAULT_TERRAIN) -> Board:
        """Start a map from scans: every hex of ``terrain``, each sheet's grid guessed to fill its image."""
        board = new_board(name, orientation, specs, terrain)
        for sh in board.sheets:
            try:
                with open_map_image(sh.image) as im:
                    size = im.size
            except MapImageError as e:
                self.show_error("Cannot open the scan", str(e))
                raise
            sh.transform = guess_transform(board, sh, size)
        self.open_board(board)
        self.edit.dirty = True            # a map no file holds yet: leaving asks before it is thrown away
        self._title()
        return board

    def new_map_dialog(self) -> None:
        from .newmap import NewMapDialog

        dlg = NewMapDialog(self)
        if dlg.exec():
            try:
                self.new_map(dlg.name_edit.text().strip() or "New map", dlg.orientation.currentText(), dlg.specs(),
                             dlg.default_terrain())
            except (ValueError, MapImageError) as e:
                self.show_error("Cannot start the map", str(e))
        self._back_to_map()

    def _back_to_map(self) -> None:
        """After a dialog, keys go to the map again (tool shortcuts, Enter for traces)."""
        self.activateWindow()
        if self.tool_key == "calibrate" and self.board is not None:
            self.palette.id_edit.setFocus()
        else:
            self.view.setFocus()

    def open_file(self, path) -> bool:
        """Open a map file to edit; a bad file is reported in words."""
        from engine.maps.mapfile import load_map

        try:
            board = load_map(path)
        except BadFile as e:
            self.show_error(f"Cannot open {path}", "\n".join(str(p) for p in e.problems[:20]))
            return False
        self.open_board(board, Path(path))
        return True

    def _choose_open(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open a map", "", "Map files (*.toml)")
        if path:
            self.open_file(path)
        self._back_to_map()

    def _choose_save(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Save the map", str(self.save_suggestion()),
                                              "Map files (*.toml)")
        if path:
            self.save(Path(path))
        self._back_to_map()

    def save_suggestion(self) -> Path:
        """Where Save as starts: the map's own file, else beside its first scan and named after the map
        ("My valley" gives my-valley.toml), never the folder the program happened to start in, and never one of the
        program's own folders (a shipped map or its scans): the user's Sandtable folder instead."""
        if self.path is not None and not is_program_folder(self.path.parent):
            return self.path
        folder = None
        if self.board is not None and self.board.sheets:
            image = self.board.image_path(self.board.sheets[0])
            if image is not None:
                folder = image.absolute().parent
        folder = folder or last_folder() or Path.home()
        if is_program_folder(folder):       # the copy goes to the user's Sandtable folder; its scans stay referenced
            folder = games_folder()
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError:
                folder = Path.home()
        if self.path is not None:           # a shipped map: the user's copy keeps its file's name
            return folder / self.path.name
        stem = re.sub(r"[^a-z0-9]+", "-", (self.board.name if self.board else "").lower()).strip("-")
        return folder / f"{stem or 'new-map'}.toml"

    def save(self, path: Path | None = None) -> bool:
        """Write the map atomically and read it back through the loader; False (with the problems) if refused."""
        import tomli

        from engine.fileio import atomic_write_text
        from engine.maps.mapfile import dumps_map, load_map_doc

        if path is None and (self.path is None or is_program_folder(self.path.parent)):
            self._choose_save()             # a shipped map is saved as the user's own copy, never over the program's
            return self.path is not None and not self.edit.dirty and not is_program_folder(self.path.parent)
        path = Path(path or self.path).resolve()
        b = self.board
        old = [(sh, sh.image) for sh in b.sheets]
        for sh in b.sheets:
            img = b.image_path(sh)
            if img is not None:
                try:
                    sh.image = os.path.relpath(img.resolve(), path.parent)
                except ValueError:            # another drive: keep it absolute
                    sh.image = str(img.resolve())
        try:
            text = dumps_map(b)
            load_map_doc(tomli.loads(text), path)     # the loader must accept it before the old file goes
            atomic_write_text(path, text)
        except (OSError, ValueError, BadFile, tomli.TOMLDecodeError) as e:
            for sh, image in old:
                sh.image = image
            text = "\n".join(str(p) for p in e.problems[:20]) if isinstance(e, BadFile) else str(e)
            self.show_error(f"Cannot save {path}", text)
            return False
        b.source = str(path)
        self.path = path
        remember_folder(path)
        self.edit.dirty = False
        self._title()
        self.status(f"Saved {path.name}: {len(b.hexes())} hexes, {len(b.terrain)} with terrain")
        self.saved.emit(str(path))
        return True

    def _title(self) -> None:
        if self.board is None:
            return
        star = "*" if self.edit.dirty else ""
        where = self.path.name if self.path else "not saved yet"
        self.setWindowTitle(f"Sandtable map editor — {self.board.name} ({where}){star}")

    # ------------------------------------------------------------ tools
    def set_tool(self, key: str) -> None:
        if self.board is None:
            return
        if self.tool is not None:
            self.tool.cancel()
        self.tool = make_tool(self, key)
        self.tool_key = key
        self.palette.show_tool(key)
        self.status(self.tool.hint)
        if key != "calibrate":
            self.view.setFocus()
        self.view.viewport().update()

    def current_sheet(self):
        i = max(0, self.palette.sheet_combo.currentIndex())
        return self.board.sheets[i]

    def _sheet_chosen(self) -> None:
        if self.board is None:
            return
        sh = self.current_sheet()
        ns = sh.numbering
        example = ns.format_colrow(ns.first_col + min(4, ns.cols - 1), ns.top_row + min(5, ns.rows - 1))
        self.palette.id_edit.setPlaceholderText(f"id of the clicked hex, like {example}")   # this sheet's numbering
        cal = self.edit.calibrations.get(sh.id)
        self.palette.show_clicks(cal.clicks if cal else [], cal.fit if cal else None)
        self.view.viewport().update()

    def centres(self):
        """Every hex of the board and an array of their lattice centres (cached until the sheets change)."""
        if self._centres is None:
            import numpy as np

            hexes = self.board.hexes()
            xy = np.array([self.board.center(h) for h in hexes], dtype=float).reshape(-1, 2)
            self._centres = (hexes, xy)
        return self._centres

    def status(self, text: str) -> None:
        self.last_message = text
        self.statusBar().showMessage(text, 20000)
        if self.tool_key == "los":
            self.palette.los_label.setText(text)

    def show_error(self, title: str, text: str) -> None:
        self.status(f"{title}: {text.splitlines()[0] if text else ''}")
        self.last_message = f"{title}\n{text}"
        from PySide6.QtGui import QGuiApplication

        if self.isVisible() and QGuiApplication.platformName() not in ("offscreen", "minimal"):
            QMessageBox.warning(self, title, text)

    # ------------------------------------------------------------ calibration
    def find_grid(self) -> None:
        """Look for the hex grid on the current sheet's scan in the background, then show it to be accepted."""
        self.grid_finder.start()

    def ask_click_id(self, suggestion: str) -> None:
        e = self.palette.id_edit
        e.setText(suggestion)
        e.selectAll()
        e.setFocus()
        self.status(f"Type the id of the clicked hex (suggested: {suggestion or 'none'}) and press Enter")
        self.view.viewport().update()

    def enter_click_id(self, text: str) -> None:
        if isinstance(self.tool, CalibrateTool) and self.tool.accept(text):
            self.palette.id_edit.clear()
            self.view.setFocus()

    def calibrated(self, sheet) -> None:
        """A new fit (a point added or removed): the grid moves over the scan, which stays still on the screen."""
        cal = self.edit.calibrations[sheet.id]
        self.view.sheet_moved(sheet)
        self.palette.show_clicks(cal.clicks, cal.fit)
        if cal.fit is not None:
            self.status(self.palette.rms_label.text())
        self.changed()

    def _remove_click(self) -> None:
        rows = sorted({i.row() for i in self.palette.click_table.selectedIndexes()}, reverse=True)
        sh = self.current_sheet()
        for r in rows:
            self.edit.remove_click(sh.id, r)
        if rows:
            self.calibrated(sh)

    def fit_view(self) -> None:
        """Show the grid square to the screen again and the whole map (the view moves only when asked)."""
        self.view.straighten()

    def _go_to_click(self, row: int) -> None:
        sh = self.current_sheet()
        cal = self.edit.calibrations[sh.id]
        if 0 <= row < len(cal.clicks):
            u, v = cal.clicks[row][1]
            self.view.centerOn(self.view.scene_point(*sh.transform.inverse().apply(u, v)))

    def _align(self) -> None:
        p = self.palette
        try:
            self.edit.place_sheet(self.current_sheet().id, p.align_here.text().strip(), p.align_there.text().strip())
        except ValueError as e:
            self.status(str(e))
            return
        self._centres = None
        self.view.show_board(self.board)
        self.changed()
        self.status(f"Sheet {self.current_sheet().id} placed: {p.align_here.text()} is {p.align_there.text()}")

    # ------------------------------------------------------------ after every change
    def changed(self, repaint_only: bool = False) -> None:
        self.view.viewport().update()
        if repaint_only:
            return
        self._sight = None
        self.overlay_cache.clear()
        self._update_undo()
        self._refresh_names()
        self._show_letter()
        self.suggestions.refresh()
        self._title()

    def _update_undo(self) -> None:
        ed = self.edit
        self.undo_act.setEnabled(bool(ed and ed.can_undo()))
        self.redo_act.setEnabled(bool(ed and ed.can_redo()))
        if ed and ed.undo_stack:
            self.undo_act.setText(f"&Undo {ed.undo_stack[-1].label}")
        else:
            self.undo_act.setText("&Undo")

    def _after_history(self, label: str | None, verb: str) -> None:
        if label is None:
            self.status(f"Nothing to {verb.lower()}")
            return
        self.board.invalidate()
        self._centres = None
        grid = self.view.grid
        if grid is not None and len(grid._ids) != len(self.board.hexes()):     # a sheet moved on the lattice
            self.view.show_board(self.board)
        for sh in self.board.sheets:
            self.view.sheet_moved(sh)
        self._sheet_chosen()
        self._show_printed_ids()
        self.changed()
        self.status(f"{verb}: {label}")

    def set_printed_ids(self, on: bool) -> None:
        """Say the scans print their own hex ids (saved with the map): the program's are hidden, and shown again
        when they do not."""
        if self.edit is None:
            return
        self.edit.set_printed_ids(on)
        self._show_printed_ids()
        self.changed()

    def _show_printed_ids(self) -> None:
        on = bool(self.board is not None and self.board.printed_ids)
        self.printed_ids_act.setChecked(on)
        self.ids_act.setChecked(not on)

    def undo(self) -> None:
        if self.edit is not None:
            self._after_history(self.edit.undo(), "Undone")

    def redo(self) -> None:
        if self.edit is not None:
            self._after_history(self.edit.redo(), "Redone")

    # ------------------------------------------------------------ names, elevation, boxes, contours
    def selection_changed(self) -> None:
        self.palette.selection_label.setText(f"{len(self.selection)} hexes selected")
        self.view.viewport().update()

    def name_selection(self) -> None:
        p = self.palette
        try:
            area = self.edit.name_area(p.area_name.text(), p.area_kind.currentText(), sorted(self.selection))
        except ValueError as e:
            self.status(str(e))
            return
        self.status(f"Area {area.name!r} ({area.kind}): {len(area.hexes)} hexes")
        self.selection.clear()
        self.selection_changed()
        self.changed()

    def set_selection_elevation(self) -> None:
        value = float(self.palette.set_elevation_spin.value())
        done = self.edit.elevation(sorted(self.selection), value)
        self.status(f"{len(done)} hexes set to {value:g} {self.board.elevation_unit}")
        self.changed()

    def _add_box(self) -> None:
        p = self.palette
        try:
            box = self.edit.add_box(p.box_id.text(), p.box_name.text(), p.box_kind.currentText())
        except ValueError as e:
            self.status(str(e))
            return
        self.status(f"Box {box.id!r} ({box.kind})")
        self.changed()

    def _refresh_names(self) -> None:
        """List every named thing, traced obstacle and contour; the one chosen before stays chosen."""
        lst = self.palette.names_list
        chosen = self.chosen_named()
        lst.blockSignals(True)
        lst.clear()
        if self.board is None:
            lst.blockSignals(False)
            return
        b, unit = self.board, self.board.elevation_unit
        rows = []
        for a in sorted(b.areas.values(), key=lambda a: a.name):
            rows.append((("area", a.name), f"area: {a.name} ({a.kind}, {len(a.hexes)} hexes)"))
        for ln in sorted(b.lines.values(), key=lambda x: x.name):
            rows.append((("line", ln.name), f"line: {ln.name} ({ln.kind}, {len(ln.hexsides)} hexsides)"))
        for bx in sorted(b.boxes.values(), key=lambda x: x.id):
            rows.append((("box", bx.id), f"box: {bx.id} — {bx.name} ({bx.kind})"))
        for i, ob in enumerate(b.obstacles):
            rows.append((("obstacle", i), f"obstacle {i + 1}: {ob.kind} {ob.height:g} {unit} ({len(ob.points)} points)"))
        for i, c in enumerate(b.contours):
            shape = "closed ring" if c.closed else f"open, higher ground on the {c.uphill}"
            rows.append((("contour", i), f"contour {i + 1}: {c.elevation:g} {unit} ({shape})"))
        for key, text in rows:
            item = QListWidgetItem(text)
            item.setData(Qt.UserRole, key)
            lst.addItem(item)
            if key == chosen:
                lst.setCurrentItem(item)
        lst.blockSignals(False)

    def chosen_named(self):
        """The named thing chosen in the palette's list, as (what, name or index), or None."""
        item = self.palette.names_list.currentItem()
        return item.data(Qt.UserRole) if item is not None else None

    def choose_named(self, what: str, key) -> bool:
        """Choose an entry of the palette's list (as a click on it would); False if it is not there."""
        lst = self.palette.names_list
        for i in range(lst.count()):
            if lst.item(i).data(Qt.UserRole) == (what, key):
                lst.setCurrentRow(i)
                return True
        return False

    def _named_chosen(self, item) -> None:
        p = self.palette
        key = item.data(Qt.UserRole) if item is not None else None
        what, name = key if key else (None, None)
        b = self.board
        p.rename_edit.setText(b.boxes[name].name if what == "box" else name if what in ("area", "line") else "")
        p.rename_id_edit.setText(name if what == "box" else "")
        p.rename_edit.setEnabled(what in ("area", "line", "box"))
        p.rename_id_edit.setEnabled(what == "box")
        p.rename_button.setEnabled(what in ("area", "line", "box"))
        p.delete_named_button.setEnabled(what is not None)
        hexes = []
        if what == "area":
            hexes = sorted(h for h in b.areas[name].hexes if h in b)
        elif what == "line":
            hexes = sorted({h for s in b.lines[name].hexsides for h in s.hexes() if h in b})
        elif what in ("obstacle", "contour"):
            pts = (b.obstacles if what == "obstacle" else b.contours)[name].points
            hexes = sorted({b.hex_at(x, y) for x, y in pts} & set(b.hexes()))
        self.marked = hexes
        if hexes:
            self.go_to_hex(hexes[0])
        self.view.viewport().update()

    def delete_named(self) -> None:
        """Delete the thing chosen in the palette's list (one undoable step)."""
        key = self.chosen_named()
        if key is None:
            self.status("Choose an area, line, box, obstacle or contour in the list first")
            return
        what, name = key
        ed = self.edit
        try:
            {"area": ed.remove_area, "line": ed.remove_line, "box": ed.remove_box,
             "obstacle": ed.remove_obstacle, "contour": ed.remove_contour}[what](name)
        except ValueError as e:
            self.status(str(e))
            return
        self.palette.names_list.setCurrentRow(-1)        # nothing chosen: the next Delete deletes nothing by chance
        self.marked = []
        self.status(f"Deleted {what} {name + 1 if isinstance(name, int) else repr(name)}")
        self.changed()

    def rename_named(self) -> None:
        """Rename the area, line or box chosen in the palette's list (a box may get another id too)."""
        key = self.chosen_named()
        p = self.palette
        if key is None or key[0] not in ("area", "line", "box"):
            self.status("Choose an area, line or box in the list to rename it")
            return
        what, name = key
        ed = self.edit
        try:
            if what == "area":
                new = ed.rename_area(name, p.rename_edit.text()).name
            elif what == "line":
                new = ed.rename_line(name, p.rename_edit.text()).name
            else:
                new = ed.rename_box(name, p.rename_id_edit.text() or name, p.rename_edit.text()).id
        except ValueError as e:
            self.status(str(e))
            return
        self.changed()
        self.choose_named(what, new)
        self.status(f"Renamed {what} {name!r} to {new!r}")

    # ------------------------------------------------------------ legend letters
    def letter_of(self, terrain: str) -> str:
        """The legend letter that codes a terrain ('' when it has none yet)."""
        return next((c for c, name in sorted(self.board.legend.items()) if name == terrain), "")

    def _show_letter(self) -> None:
        if self.board is not None:
            self.palette.legend_letter.setText(self.letter_of(self.palette.terrain()))

    def set_legend_letter(self) -> None:
        """Code the palette's terrain with the letter typed beside it; refused in words when it is taken."""
        p = self.palette
        terrain, code = p.terrain(), p.legend_letter.text()
        try:
            self.edit.recode_terrain(terrain, code)
        except ValueError as e:
            self.status(str(e))
            self._show_letter()
            return
        self.status(f"{terrain} is coded {code!r} in the legend")
        self.changed()

    def fill_elevation(self) -> None:
        """Every hex without an elevation gets the palette's value (the map's base level)."""
        value = self.palette.elevation_value()
        done = self.edit.elevation([h for h in self.board.hexes() if h not in self.board.elevation], value)
        self.status(f"{len(done)} hexes without an elevation set to {value:g} {self.board.elevation_unit}")
        self.changed()

    def derive_elevations(self) -> None:
        try:
            got = self.edit.derive_elevations(float(self.palette.base_spin.value()))
        except ValueError as e:
            self.status(str(e))
            return
        self.status(f"Elevations of {len(got)} hexes derived from {len(self.edit.contours)} contour lines")
        self.changed()

    # ------------------------------------------------------------ checks and LOS
    def check(self) -> list:
        if self.board is None:
            return []
        self.findings = check_map(self.board, float(self.palette.jump_spin.value()))
        self.palette.show_findings(self.findings)
        problems = sum(f.severity == "problem" for f in self.findings)
        self.status(f"Check map: {problems} problem(s), {len(self.findings) - problems} warning(s)"
                    + (" — the map can be played" if not problems else ""))
        return self.findings

    def go_to_finding(self, i: int) -> None:
        if not 0 <= i < len(self.findings):
            return
        f = self.findings[i]
        self.marked = list(f.hexes)
        if f.hexes:
            self.go_to_hex(f.hexes[0])
        self.status(f.message)
        self.view.viewport().update()

    def go_to_hex(self, h) -> None:
        """Centre the view on a hex, zooming in until hexes are big enough to work on."""
        px = 2 * self.view.scale_ * self.view.zoom()
        if px < GO_TO_HEX_PX:
            self.view.set_zoom(self.view.zoom() * GO_TO_HEX_PX / px)
        self.view.centre_on_hex(h)

    def line_of_sight(self, a, b):
        from engine.los.query import line_of_sight, sight_map

        if self._sight is None:
            self._sight = sight_map(self.board)
        return line_of_sight(self._sight, a, b)

    def quit_program(self) -> bool:
        """Map > Quit: the program ends, every window asked first (gui/common/menus.py)."""
        from gui.common.menus import quit_program

        return quit_program(self.window() if not self.isWindow() else self)

    def closeEvent(self, event):
        if self.edit is not None and self.edit.dirty and self.isWindow():
            from PySide6.QtGui import QGuiApplication

            if QGuiApplication.platformName() not in ("offscreen", "minimal"):
                answer = QMessageBox.question(self, "Unsaved changes", "Save the map before closing?",
                                              QMessageBox.Save | QMessageBox.Discard | QMessageBox.Cancel)
                if answer == QMessageBox.Cancel or (answer == QMessageBox.Save and not self.save()):
                    event.ignore()
                    return
        super().closeEvent(event)
        if event.isAccepted():
            for job in self.view.jobs:          # the scans' tiles are not needed any more
                job.cancel()
            self.closed.emit()
