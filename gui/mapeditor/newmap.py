"""The "new map from scans" dialog: the images, each sheet's id and size, orientation and numbering."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QComboBox, QDialog, QDialogButtonBox, QFileDialog, QFormLayout, QHBoxLayout,
                               QLabel, QLineEdit, QPushButton, QSpinBox, QTableWidget, QTableWidgetItem,
                               QVBoxLayout)

from engine.maps.mapedit import DEFAULT_TERRAIN, SheetSpec

IMAGE_FILTER = "Scans (*.png *.jpg *.jpeg *.tif *.tiff);;All files (*)"
COLUMNS = ("image", "sheet id", "columns", "rows", "first column", "first row")
NO_TERRAIN = "(none: every hex to paint)"


class NewMapDialog(QDialog):
    """Asks what a new map is made of; ``specs()`` gives one SheetSpec per scan."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setWindowTitle("New map from scans")
        self.resize(760, 380)
        lay = QVBoxLayout(self)
        form = QFormLayout()
        self.name_edit = QLineEdit("New map")
        self.orientation = QComboBox()
        self.orientation.addItems(["flat", "pointy"])
        self.numbering = QComboBox()
        self.numbering.addItems(["tcs", "classic"])
        self.shifted = QComboBox()
        self.shifted.addItems(["even", "odd"])
        self.row_direction = QComboBox()
        self.row_direction.addItem("from the top edge down", "down")
        self.row_direction.addItem("from the bottom edge up (TCS sheets)", "up")
        form.addRow("Map name", self.name_edit)
        form.addRow("Hexes (flat-top or pointy-top)", self.orientation)
        form.addRow("Numbering (TCS A12.34 or classic 0512)", self.numbering)
        form.addRow("Shifted columns (rows when pointy)", self.shifted)
        form.addRow("Row numbers count", self.row_direction)
        self.terrain = QComboBox(editable=True)
        self.terrain.addItems([DEFAULT_TERRAIN, "open", "woods", NO_TERRAIN])
        self.terrain.setCurrentText(DEFAULT_TERRAIN)
        self.terrain.setToolTip("Every hex starts with this terrain; paint the others over it")
        form.addRow("Terrain of every hex to start with", self.terrain)
        lay.addLayout(form)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(list(COLUMNS))
        self.table.horizontalHeader().setStretchLastSection(True)
        lay.addWidget(self.table, 1)
        row = QHBoxLayout()
        add = QPushButton("Add scans…")
        add.clicked.connect(self._pick)
        self.path_edit = QLineEdit()
        self.path_edit.setPlaceholderText("or type an image path and press Enter")
        self.path_edit.returnPressed.connect(self._typed)
        row.addWidget(add)
        row.addWidget(self.path_edit, 1)
        lay.addLayout(row)
        self.message = QLabel("")
        lay.addWidget(self.message)
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        buttons.accepted.connect(self._ok)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)

    def keyPressEvent(self, event) -> None:
        """Enter in a field (the path, a size) does that field's job; only the OK button closes the dialog."""
        if event.key() in (Qt.Key_Return, Qt.Key_Enter) and not isinstance(self.focusWidget(), QPushButton):
            event.accept()
            return
        super().keyPressEvent(event)

    def _pick(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self, "Scans of the map's sheets", "", IMAGE_FILTER)
        for p in paths:
            self.add_image(p)

    def _typed(self) -> None:
        p = self.path_edit.text().strip()
        if p:
            if Path(p).is_file():
                self.add_image(p)
                self.path_edit.clear()
            else:
                self.message.setText(f"{p}: no such file")

    def add_image(self, path: str, sheet_id: str | None = None, cols: int = 10, rows: int = 10,
                  first_col: int = 1, first_row: int = 1) -> None:
        """Add a scan as a new sheet row (the id defaults to the next letter)."""
        r = self.table.rowCount()
        self.table.insertRow(r)
        self.table.setItem(r, 0, QTableWidgetItem(str(path)))
        self.table.setItem(r, 1, QTableWidgetItem(sheet_id or chr(ord("A") + r)))
        for c, v in zip(range(2, 6), (cols, rows, first_col, first_row)):
            spin = QSpinBox(minimum=0 if c >= 4 else 1, maximum=999, value=v)
            self.table.setCellWidget(r, c, spin)

    def _ok(self) -> None:
        try:
            specs = self.specs()
        except ValueError as e:
            self.message.setText(str(e))
            return
        if not specs:
            self.message.setText("Add at least one scan")
            return
        self.accept()

    def default_terrain(self) -> str | None:
        """The terrain every hex starts with (None: none, every hex to be painted)."""
        text = self.terrain.currentText().strip()
        return None if not text or text == NO_TERRAIN else text

    def specs(self) -> list[SheetSpec]:
        """One SheetSpec per row; raises ValueError naming a missing image or an empty id."""
        out = []
        for r in range(self.table.rowCount()):
            image = self.table.item(r, 0).text().strip()
            sid = (self.table.item(r, 1).text() if self.table.item(r, 1) else "").strip()
            if not Path(image).is_file():
                raise ValueError(f"{image}: the image does not exist")
            if not sid:
                raise ValueError(f"row {r + 1}: a sheet needs an id")
            cols, rows, fc, fr = (self.table.cellWidget(r, c).value() for c in range(2, 6))
            out.append(SheetSpec(sid, str(Path(image).resolve()), cols, rows, numbering=self.numbering.currentText(),
                                 first_col=fc, first_row=fr, shifted=self.shifted.currentText(),
                                 row_direction=self.row_direction.currentData()))
        return out
