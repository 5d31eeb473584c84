"""Cutting a scanned counter sheet: click two corners, set the counts and gutter, preview, assign, save."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPointF, Qt, Signal
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import (
    QComboBox, QDialog, QDoubleSpinBox, QFileDialog, QFormLayout, QGraphicsPixmapItem, QGraphicsScene,
    QGraphicsView, QHBoxLayout, QLabel, QPushButton, QSpinBox, QVBoxLayout,
)

from engine.counters.sheet import CounterGrid, assign, cut, open_sheet, preview, save_counters
from engine.errors import BadFile

from gui.scene.counterart import pil_to_qimage


class SheetView(QGraphicsView):
    """The scan; a click reports the image pixel under it."""

    clicked = Signal(QPointF)

    def __init__(self):
        super().__init__()
        self.setScene(QGraphicsScene(self))
        self.item = QGraphicsPixmapItem()
        self.scene().addItem(self.item)

    def show_image(self, img) -> None:
        self.item.setPixmap(QPixmap.fromImage(pil_to_qimage(img)))
        self.scene().setSceneRect(self.item.boundingRect())

    def mousePressEvent(self, event):
        if event.button() == Qt.LeftButton:
            self.clicked.emit(self.mapToScene(event.position().toPoint()))
            return
        super().mousePressEvent(event)


class CounterSheetDialog(QDialog):
    """Cut a scan into counters and save fronts and backs for the scenario's units under its assets."""

    def __init__(self, window, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Cut a counter sheet")
        self.window = window
        self.sheet = None
        self.images = []
        self.corners: list[tuple[float, float]] = []
        self.view = SheetView()
        self.view.clicked.connect(self.corner_clicked)
        self.cols = QSpinBox(minimum=1, maximum=100, value=10)
        self.rows = QSpinBox(minimum=1, maximum=100, value=7)
        self.gx = QDoubleSpinBox(maximum=500)
        self.gy = QDoubleSpinBox(maximum=500)
        self.status = QLabel("Open a scan, then click the top-left corner of the first counter and the "
                             "bottom-right corner of the last one")
        self.status.setWordWrap(True)
        self.unit = QComboBox()
        self.index = QSpinBox(minimum=1, maximum=10000)
        self.face = QComboBox()
        self.face.addItems(["front", "back"])
        self.fronts: dict[str, int] = {}
        self.backs: dict[str, int] = {}
        self.reverse_images = []                 # the sheet's reverse side, cut (backs of stepped units)
        self.reverse_backs: dict[str, int] = {}
        form = QFormLayout()
        counts = QHBoxLayout()
        counts.addWidget(self.cols)
        counts.addWidget(QLabel("x"))
        counts.addWidget(self.rows)
        gutter = QHBoxLayout()
        gutter.addWidget(self.gx)
        gutter.addWidget(self.gy)
        form.addRow("columns x rows", counts)
        form.addRow("gutter (px)", gutter)
        assign_row = QHBoxLayout()
        for w in (self.unit, self.face, QLabel("is counter"), self.index,
                  QPushButton("Assign", clicked=self.assign_current)):
            assign_row.addWidget(w)
        form.addRow("assign", assign_row)
        buttons = QHBoxLayout()
        buttons.addWidget(QPushButton("Open scan…", clicked=self._choose))
        buttons.addWidget(QPushButton("Preview", clicked=self.show_preview))
        buttons.addWidget(QPushButton("Cut", clicked=self.cut))
        buttons.addWidget(QPushButton("Backs from the reverse…", clicked=self._choose_reverse))
        buttons.addWidget(QPushButton("Save images", clicked=self.save))
        lay = QVBoxLayout(self)
        lay.addWidget(self.view, 1)
        lay.addLayout(form)
        lay.addWidget(self.status)
        lay.addLayout(buttons)
        self.unit.addItems(list(window.scenario.units))

    def _choose(self):
        path, _ = QFileDialog.getOpenFileName(self, "Open a counter sheet scan", "", "Images (*.png *.jpg *.tif)")
        if path:
            self.load(path)

    def load(self, path) -> bool:
        try:
            self.sheet = open_sheet(path)
        except BadFile as e:
            self.status.setText(str(e))
            return False
        self.corners = []
        self.view.show_image(self.sheet)
        self.status.setText(f"{Path(path).name}: {self.sheet.width} x {self.sheet.height} pixels")
        return True

    def corner_clicked(self, p: QPointF) -> None:
        """The first click is the top-left corner, the second the bottom-right one; a third starts again."""
        if len(self.corners) == 2:
            self.corners = []
        self.corners.append((p.x(), p.y()))
        self.status.setText(f"corner {len(self.corners)}: ({p.x():.0f}, {p.y():.0f})")
        if len(self.corners) == 2:
            self.show_preview()

    def grid(self) -> CounterGrid | None:
        if len(self.corners) != 2:
            self.status.setText("Click two corners first")
            return None
        try:
            return CounterGrid(self.corners[0], self.corners[1], self.cols.value(), self.rows.value(),
                               (self.gx.value(), self.gy.value()))
        except ValueError as e:
            self.status.setText(str(e))
            return None

    def show_preview(self) -> None:
        g = self.grid()
        if g is not None and self.sheet is not None:
            self.view.show_image(preview(self.sheet, g))
            w, h = g.cell
            self.status.setText(f"{g.columns * g.rows} counters of {w:.1f} x {h:.1f} pixels")

    def cut(self) -> list:
        g = self.grid()
        if g is None or self.sheet is None:
            return []
        try:
            self.images = cut(self.sheet, g)
        except BadFile as e:
            self.status.setText(str(e))
            return []
        self.index.setMaximum(len(self.images))
        self.status.setText(f"cut into {len(self.images)} counters")
        return self.images

    def _choose_reverse(self):
        path, _ = QFileDialog.getOpenFileName(self, "Open the scan of the sheet's reverse side", "",
                                              "Images (*.png *.jpg *.tif)")
        if path:
            self.backs_from_reverse(path)

    def backs_from_reverse(self, path) -> dict[str, int]:
        """Cut the reverse side (scanned turned over) with the front's grid mirrored, and give every unit
        with steps whose front is assigned the back behind it."""
        from engine.scenario import edit as E

        g = self.grid()
        if g is None or not self.fronts:
            self.status.setText("Set the grid and assign the fronts first: the backs lie behind them")
            return {}
        try:
            reverse = open_sheet(path)
            self.reverse_images = cut(reverse, E.reverse_grid(g, reverse.width))
        except (BadFile, ValueError) as e:
            self.status.setText(str(e))
            return {}
        self.reverse_backs = E.backs_on_reverse(self.window.scenario, self.fronts, g.columns)
        self.status.setText(f"{len(self.reverse_backs)} back(s) from the reverse side "
                            f"(units with steps whose front is assigned)")
        return self.reverse_backs

    def assign_current(self) -> None:
        table = self.fronts if self.face.currentText() == "front" else self.backs
        table[self.unit.currentText()] = self.index.value() - 1
        self.status.setText(f"{len(self.fronts)} front(s), {len(self.backs)} back(s) assigned")

    def save(self) -> dict[str, str]:
        """Write the assigned images to ``assets/counters`` beside the scenario file."""
        folder = self.window.assets_folder()
        if folder is None:
            self.status.setText("Save the scenario first: its images go beside it")
            return {}
        try:
            images = assign(self.images, self.fronts, self.backs)
            images.update({f"{uid}-back": self.reverse_images[i] for uid, i in self.reverse_backs.items()
                           if uid not in self.backs})
            files = save_counters(images, folder)
        except BadFile as e:
            self.status.setText(str(e))
            return {}
        self.status.setText(f"saved {len(files)} image(s) in {folder}")
        return files
