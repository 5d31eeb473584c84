"""The main window: the map view, a status bar, and the menus."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QFileDialog, QLabel, QMainWindow, QMessageBox

from engine.errors import BadFile

from .mapview import MapView


class MainWindow(QMainWindow):
    """Sandtable's window; opens map files and shows them."""

    def __init__(self):
        super().__init__()
        self.setWindowTitle("Sandtable")
        self.map_view = MapView(self)
        self.setCentralWidget(self.map_view)
        self.hover_label = QLabel()
        self.statusBar().addWidget(self.hover_label, 1)
        self.map_view.hovered.connect(self.hover_label.setText)
        self.board = None
        self._make_menus()

    def _make_menus(self):
        file_menu = self.menuBar().addMenu("&File")
        open_act = QAction("&Open…", self, shortcut=QKeySequence.Open, triggered=self._choose_file)
        quit_act = QAction("&Quit", self, shortcut=QKeySequence.Quit, triggered=self.close)
        file_menu.addActions([open_act, quit_act])
        view_menu = self.menuBar().addMenu("&View")
        self.grid_act = QAction("Hex &grid", self, checkable=True, checked=True, shortcut="G",
                                toggled=self.map_view.set_grid_visible)
        fit_act = QAction("&Fit to window", self, shortcut="F", triggered=self.map_view.fit)
        view_menu.addActions([self.grid_act, fit_act])

    def _choose_file(self):
        path, _ = QFileDialog.getOpenFileName(self, "Open a map", "maps", "Map files (*.toml)")
        if path:
            self.open_file(Path(path))

    def open_file(self, path: Path) -> bool:
        """Open a map file; a bad file is reported, never a traceback."""
        from engine.mapfile import load_map

        try:
            board = load_map(path)
        except BadFile as e:
            self.show_error(f"Cannot open {path}", "\n".join(str(p) for p in e.problems[:20]))
            return False
        self.board = board
        self.map_view.show_board(board)
        if self.map_view.problems:
            self.show_error(f"Problems opening {path}", "\n".join(self.map_view.problems))
        self.setWindowTitle(f"Sandtable — {board.name}")
        self.statusBar().showMessage(f"{board.name}: {len(board.hexes())} hexes on {len(board.sheets)} sheet(s)", 5000)
        return True

    def show_error(self, title: str, text: str) -> None:
        self.statusBar().showMessage(title, 10000)
        if self.isVisible():
            QMessageBox.warning(self, title, text)
        else:
            self.last_error = f"{title}\n{text}"
