"""The chart editor: the owner types the cells of their printed charts, a grid per chart, checked as typed.

A chart with two closed axes is a grid: its first axis across (the columns of
the printed chart), its second down.  With more axes, one grid per label of the
leading axes (chosen above the grid).  A chart with one axis, or an open axis
(a counter manifest's unit types), is a list.  Published cells are read-only
and shaded; a refused entry is marked red with the allowed values in its tooltip
and on the status line, and is not kept.  Every accepted change is written to
the owner's book at once (atomically); import and export go through the
engine's :class:`ChartBook` (an import is all or nothing, its problems listed).
"""
from __future__ import annotations

from itertools import product
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QGuiApplication, QKeySequence, QShortcut
from PySide6.QtWidgets import (QComboBox, QDialog, QDialogButtonBox, QFileDialog, QHBoxLayout, QLabel, QListWidget,
                               QMainWindow, QPlainTextEdit, QPushButton, QSplitter, QTableWidget, QTableWidgetItem,
                               QVBoxLayout, QWidget)

from engine.charts import BadChartValue, ChartConflict, ChartSlot, chart_set_of_file, rulesets_with_charts
from engine.errors import BadFile

from .shelf import owner_book, problems_text

PUBLISHED = QColor("#e4e4dc")
REFUSED = QColor("#f4b8b0")


class ProblemsDialog(QDialog):
    """Every problem of a file that was refused, one a line (never a traceback)."""

    def __init__(self, title: str, intro: str, text: str, parent=None):
        super().__init__(parent)
        self.setWindowTitle(title)
        lay = QVBoxLayout(self)
        lay.addWidget(QLabel(intro))
        self.text = QPlainTextEdit(text)
        self.text.setReadOnly(True)
        lay.addWidget(self.text)
        buttons = QDialogButtonBox(QDialogButtonBox.Close)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
        self.resize(720, 320)


class ChartGrid(QTableWidget):
    """One chart (or one leading label of it) as a table of cells."""

    def __init__(self, editor):
        super().__init__()
        self.editor = editor
        self.slot: ChartSlot | None = None
        self.lead: tuple[str, ...] = ()
        self.is_list = False
        self.open_keys: list[tuple[str, ...]] = []
        self.refused: dict[tuple[int, int], str] = {}

    # ------------------------------------------------------------ shape
    def show_chart(self, slot: ChartSlot, lead: tuple[str, ...] = ()) -> None:
        self.slot, self.lead, self.refused = slot, lead, {}
        book = self.editor.book
        self.blockSignals(True)
        self.clear()
        axes = slot.axes
        self.is_list = len(axes) == 1 or any(a.open for a in axes)
        if self.is_list:
            self.setColumnCount(len(axes) + 1)
            self.setHorizontalHeaderLabels([a.name for a in axes] + ["result"])
            if any(a.open for a in axes):
                self.open_keys = sorted(book.filled(slot.id))
                keys = self.open_keys + [()]                       # a last row for a new entry
            else:
                self.open_keys = []
                keys = [(label,) for label in axes[0].labels]
            self.setRowCount(len(keys))
            self.setVerticalHeaderLabels([""] * len(keys))
            for r, key in enumerate(keys):
                for c in range(len(axes)):
                    item = QTableWidgetItem(key[c] if key else "")
                    if key:
                        item.setFlags(item.flags() & ~Qt.ItemIsEditable)
                    self.setItem(r, c, item)
                self._fill(r, len(axes), key if key else None)
        else:
            cols, rows = axes[-2].labels, axes[-1].labels
            self.setColumnCount(len(cols))
            self.setRowCount(len(rows))
            self.setHorizontalHeaderLabels(list(cols))
            self.setVerticalHeaderLabels(list(rows))
            for r, c in product(range(len(rows)), range(len(cols))):
                self._fill(r, c, lead + (cols[c], rows[r]))
        self.resizeColumnsToContents()
        for c in range(self.columnCount()):             # room to type a result, however short the labels
            self.setColumnWidth(c, max(self.columnWidth(c), 64))
        self.blockSignals(False)

    def _fill(self, r: int, c: int, key) -> None:
        book, slot = self.editor.book, self.slot
        value = book.lookup(slot.id, key) if key is not None else None
        item = QTableWidgetItem("" if value is None else str(value))
        item.setTextAlignment(Qt.AlignCenter)
        if key is not None and key in slot.known:
            item.setFlags(item.flags() & ~Qt.ItemIsEditable)
            item.setBackground(QBrush(PUBLISHED))
            font = QFont(item.font())
            font.setItalic(True)
            item.setFont(font)
            item.setToolTip(f"{slot.cell_text(key)}: published value, shipped with the program")
        else:
            item.setToolTip(f"expected {slot.domain.describe()}; empty for a blank cell")
        self.setItem(r, c, item)

    def key_at(self, r: int, c: int):
        """The chart cell of a table cell, or None (a label cell, or a new list row not named yet)."""
        slot = self.slot
        if self.is_list:
            n = len(slot.axes)
            if c != n:
                return None
            if self.open_keys or any(a.open for a in slot.axes):
                if r < len(self.open_keys):
                    return self.open_keys[r]
                parts = tuple((self.item(r, i).text() if self.item(r, i) else "").strip() for i in range(n))
                return parts if all(parts) else None
            return (slot.axes[0].labels[r],)
        return self.lead + (slot.axes[-2].labels[c], slot.axes[-1].labels[r])

    def is_published(self, r: int, c: int) -> bool:
        key = self.key_at(r, c)
        return key is not None and key in self.slot.known


class ChartEditor(QMainWindow):
    """Chart sets (one per ruleset that offers charts), their charts, and a grid per chart."""

    changed = Signal()            # the owner's book was changed and saved

    def __init__(self, folder: Path | None = None, sets: dict | None = None, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Sandtable — chart editor")
        self.folder = folder
        self.sets = dict(sets) if sets is not None else rulesets_with_charts()
        self.book = None
        self.game = ""                # the game whose own charts (scope "game") are shown
        self.set_name = ""
        self.last_message = ""
        self.dialog = None
        self.set_box = QComboBox()
        self.set_box.addItems(sorted(self.sets))
        self.chart_list = QListWidget()
        self.info = QLabel()
        self.info.setWordWrap(True)
        self.lead_box = QComboBox()
        self.lead_label = QLabel()
        self.grid = ChartGrid(self)
        left = QWidget()
        left.setMinimumWidth(230)
        ll = QVBoxLayout(left)
        ll.addWidget(QLabel("Chart set:"))
        ll.addWidget(self.set_box)
        ll.addWidget(QLabel("Charts:"))
        ll.addWidget(self.chart_list)
        self.import_btn = QPushButton("Import…", clicked=self.import_dialog)
        self.export_btn = QPushButton("Export…", clicked=self.export_dialog)
        row = QHBoxLayout()
        row.addWidget(self.import_btn)
        row.addWidget(self.export_btn)
        ll.addLayout(row)
        right = QWidget()
        rl = QVBoxLayout(right)
        rl.addWidget(self.info)
        lead = QHBoxLayout()
        lead.addWidget(self.lead_label)
        lead.addWidget(self.lead_box, 1)
        rl.addLayout(lead)
        rl.addWidget(self.grid, 1)
        rl.addWidget(QLabel("Type a result in a cell, or paste a block copied from a spreadsheet (Ctrl+V) at the "
                            "current cell. Shaded cells are published values. Every change is saved at once."))
        split = QSplitter()
        split.addWidget(left)
        split.addWidget(right)
        split.setStretchFactor(1, 3)
        split.setSizes([260, 640])
        self.setCentralWidget(split)
        self.set_box.currentTextChanged.connect(self.show_set)
        self.chart_list.currentRowChanged.connect(lambda _: self._show_chart())
        self.lead_box.currentIndexChanged.connect(lambda _: self._show_grid())
        self.grid.itemChanged.connect(self._cell_changed)
        QShortcut(QKeySequence.Paste, self.grid, activated=self.paste_clipboard)
        if self.sets:
            self.show_set(sorted(self.sets)[0])
        else:
            self.say("No ruleset offers charts to fill in")

    # ------------------------------------------------------------ showing
    def say(self, text: str) -> None:
        self.last_message = text
        self.statusBar().showMessage(text, 15000)

    def show_set(self, name: str, game: str | None = None) -> bool:
        """Show a chart set's charts; ``game``: the game whose own charts and counters are shown (the series'
        charts are the same for every game)."""
        if game is not None:
            self.game = game
            self.setWindowTitle("Sandtable — chart editor" + (f" ({game})" if game else ""))
        if name not in self.sets:
            return False
        if self.set_box.currentText() != name:
            self.set_box.setCurrentText(name)        # comes back here through the signal
            return True
        try:
            self.book = owner_book(name, self.sets[name], self.folder, self.game)
        except BadFile as e:
            self.book = None
            self.chart_list.clear()
            self.grid.clear()
            self._problems("Your chart file cannot be read",
                           "Correct or remove the file; nothing was changed:", problems_text(e))
            return False
        self.set_name = name
        self.chart_list.blockSignals(True)
        self.chart_list.clear()
        for slot in self.sets[name]:
            blank = sum(1 for k in slot.cells() if self.book.lookup(slot.id, k) is None)
            self.chart_list.addItem(f"{slot.title}" + (f" ({blank} blank)" if blank else ""))
        self.chart_list.blockSignals(False)
        self.chart_list.setCurrentRow(0)
        self._show_chart()
        return True

    def slot(self) -> ChartSlot | None:
        row = self.chart_list.currentRow()
        slots = list(self.sets.get(self.set_name, ()))
        return slots[row] if 0 <= row < len(slots) else None

    def select_chart(self, slot_id: str) -> None:
        for i, s in enumerate(self.sets.get(self.set_name, ())):
            if s.id == slot_id:
                self.chart_list.setCurrentRow(i)

    def _show_chart(self) -> None:
        slot = self.slot()
        if slot is None or self.book is None:
            return
        closed = [a for a in slot.axes if not a.open]
        shape = f"{closed[-2].name} across, {closed[-1].name} down" if len(closed) == len(slot.axes) >= 2 else \
            "one entry a line"
        self.info.setText(f"<b>{slot.title}</b> ({slot.rule}) — <code>{slot.id}</code> — {shape}<br>"
                          f"Results: {slot.domain.describe()}" + (f"<br>{slot.notes}" if slot.notes else ""))
        leads = [a for a in slot.axes[:-2]] if len(slot.axes) >= 3 and not any(a.open for a in slot.axes) else []
        self.lead_box.blockSignals(True)
        self.lead_box.clear()
        for key in product(*(a.labels for a in leads)):
            self.lead_box.addItem(" / ".join(key), key)
        self.lead_box.blockSignals(False)
        self.lead_box.setVisible(bool(leads))
        self.lead_label.setVisible(bool(leads))
        self.lead_label.setText(", ".join(a.name for a in leads) + ":")
        self._show_grid()

    def _show_grid(self) -> None:
        slot = self.slot()
        if slot is None:
            return
        lead = self.lead_box.currentData() if self.lead_box.isVisible() or self.lead_box.count() else ()
        self.grid.show_chart(slot, tuple(lead or ()))

    # ------------------------------------------------------------ typing and pasting
    def _cell_changed(self, item: QTableWidgetItem) -> None:
        grid = self.grid
        key = grid.key_at(item.row(), item.column())
        if self.enter(item.row(), item.column(), item.text()):
            self._saved(f"{grid.slot.cell_text(key)} = {item.text()}" if item.text().strip() else "cell cleared")
            if grid.is_list and key not in grid.open_keys and any(a.open for a in grid.slot.axes):
                self._show_grid()                   # the new entry takes its place; a fresh row for the next

    def enter(self, r: int, c: int, text: str) -> bool:
        """Check one typed cell against the chart and keep it in the book (not yet written); False if refused."""
        grid, slot = self.grid, self.grid.slot
        key = grid.key_at(r, c)
        if key is None:
            return False
        item = grid.item(r, c)
        value = text.strip()
        grid.blockSignals(True)
        try:
            if key in slot.known:
                raise BadChartValue(f"{slot.cell_text(key)} is a published value ({slot.known[key]!r})")
            self.book.correct(slot.id, key, value or None)
        except (BadChartValue, ChartConflict) as e:
            grid.refused[(r, c)] = str(e)
            if item is not None:
                item.setBackground(QBrush(REFUSED))
                item.setToolTip(f"Refused: {e}")
            self.say(f"Refused: {e}")
            return False
        finally:
            grid.blockSignals(False)
        grid.refused.pop((r, c), None)
        grid.blockSignals(True)
        if item is not None:
            item.setBackground(QBrush())
            item.setToolTip(f"expected {slot.domain.describe()}; empty for a blank cell")
            stored = self.book.lookup(slot.id, key)
            item.setText("" if stored is None else str(stored))
        grid.blockSignals(False)
        return True

    def paste_text(self, text: str) -> tuple[int, int]:
        """Paste a tab-separated block (rows on lines) at the current cell: ``(cells kept, cells refused)``."""
        grid = self.grid
        r0, c0 = max(grid.currentRow(), 0), max(grid.currentColumn(), 0)
        if grid.is_list:
            c0 = len(grid.slot.axes)
        lines = text.replace("\r\n", "\n").replace("\r", "\n").rstrip("\n").split("\n")
        kept = refused = 0
        for i, line in enumerate(lines):
            for j, cell in enumerate(line.split("\t")):
                r, c = r0 + i, c0 + j
                if r >= grid.rowCount() or c >= grid.columnCount():
                    refused += 1
                    continue
                if grid.is_published(r, c):
                    continue
                item = grid.item(r, c)
                if item is None:
                    continue
                grid.blockSignals(True)
                item.setText(cell.strip())
                grid.blockSignals(False)
                if self.enter(r, c, cell):
                    kept += 1
                else:
                    refused += 1
        if kept:
            self._saved(f"pasted {kept} cell(s)" + (f", {refused} refused (marked red)" if refused else ""))
        elif refused:
            self.say(f"nothing pasted: {refused} cell(s) refused (marked red; see their tooltips)")
        return kept, refused

    def paste_clipboard(self) -> None:
        self.paste_text(QGuiApplication.clipboard().text())

    def _saved(self, what: str) -> None:
        try:
            self.book.save()
        except OSError as e:
            self._problems("Cannot write your chart", "Your entries are kept in the editor:",
                           f"{self.book.path}: {e.strerror or e}")
            return
        self.say(f"{what} — saved to {self.book.path}")
        self._refresh_counts()
        self.changed.emit()

    def _refresh_counts(self) -> None:
        for i, slot in enumerate(self.sets.get(self.set_name, ())):
            blank = sum(1 for k in slot.cells() if self.book.lookup(slot.id, k) is None)
            self.chart_list.item(i).setText(f"{slot.title}" + (f" ({blank} blank)" if blank else ""))

    # ------------------------------------------------------------ import and export
    def import_file(self, path: str | Path) -> bool:
        """Merge another owner's chart file, all or nothing; its problems listed in a dialog when refused."""
        other = chart_set_of_file(path, self.sets)
        switched = ""
        if other is not None and other != self.set_name and self.show_set(other):
            switched = f" (the file holds the {other} charts: shown now)"     # not refused against the set shown
        if self.book is None:
            return False
        try:
            added = self.book.import_file(path)
        except BadFile as e:
            self._problems("Cannot import these charts", f"Nothing was imported from {path}:", problems_text(e))
            return False
        except OSError as e:
            self._problems("Cannot import these charts", f"Nothing was imported from {path}:", e.strerror or str(e))
            return False
        self._show_grid()
        self._saved(f"imported {added} cell(s) from {path}{switched}")
        return True

    def export_file(self, path: str | Path) -> bool:
        if self.book is None:
            return False
        try:
            self.book.export(path)
        except OSError as e:
            self._problems("Cannot export the charts", "", f"{path}: {e.strerror or e}")
            return False
        self.say(f"exported your entries to {path}")
        return True

    def import_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Import charts", "", "Chart files (*.toml)")
        if path:
            self.import_file(path)

    def export_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export charts", f"{self.set_name}-charts.toml",
                                              "Chart files (*.toml)")
        if path:
            self.export_file(path)

    def _problems(self, title: str, intro: str, text: str) -> None:
        self.say(f"{title}: {text.splitlines()[0] if text else ''}")
        self.dialog = ProblemsDialog(title, intro, text, self)
        self.dialog.open()
