"""The printed values a scenario needs, in one form before play: counters, terrain, then the tables.

Everything listed is the engine's (:func:`engine.charts.needs_of`): the form only
shows it.  Counters are one row per unit type with a column per value, terrain one
row per terrain, the tables one row per cell; a value is typed once per game, never
once per unit.  Values already in the owner's book (or answered in this game) are
shown filled, published ones shaded and fixed.  Each cell is checked as typed
against its chart's results; a refused cell stays as typed, marked red with the
reason, and is not kept.  A block copied from a spreadsheet (tab and newline
separated) is pasted into the selected cell onwards; the whole list goes to and
from CSV.  "Start" closes the form once every value needed before play is filled;
"Start now and ask the rest as play needs them" closes it at any time.
"""
from __future__ import annotations

import csv
import io
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor, QGuiApplication, QKeySequence, QShortcut
from PySide6.QtWidgets import (QDialog, QFileDialog, QHBoxLayout, QLabel, QListWidget, QListWidgetItem, QPushButton,
                               QTableWidget, QTableWidgetItem, QTabWidget, QVBoxLayout)

from engine.charts import BadChartValue, ChartConflict, count_filled, needs_of, value_reader

PUBLISHED = QColor("#e4e4dc")
REFUSED = QColor("#f4b8b0")
LATER = QColor("#eef3fa")          # read only when play comes to it: filling it now means it is never asked
NONE = QColor("#c8c8c8")           # no such value for this row (armour of a foot unit)
TITLES = {"counters": "Counters", "terrain": "Terrain", "tables": "Tables"}
CSV_HEAD = ["chart", "cell", "section", "row", "column", "value"]


class ValuesForm(QDialog):
    """Every printed value a scenario reads, filled into the owner's book; ``changed`` after each kept change."""

    changed = Signal()

    def __init__(self, rules, state, book, parent=None, title: str = ""):
        super().__init__(parent)
        self.rules, self.state, self.book = rules, state, book
        self.setWindowTitle(f"Printed values — {title}" if title else "Printed values")
        self.refused: dict[tuple[str, tuple], str] = {}
        self.grids: dict[str, QTableWidget] = {}
        self.cells: dict[tuple[str, tuple], tuple[str, int, int]] = {}    # (slot, key) -> (section, row, column)
        self.last_message = ""
        self.started_now = False
        self.changed_cells: list[str] = []     # values already in the book that a paste or an import changed
        lay = QVBoxLayout(self)
        self.intro = QLabel()
        self.intro.setWordWrap(True)
        lay.addWidget(self.intro)
        self.count = QLabel()
        self.count.setStyleSheet("font-weight: bold")
        lay.addWidget(self.count)
        self.tabs = QTabWidget()
        lay.addWidget(self.tabs, 1)
        self.aside_label = QLabel()
        self.aside_label.setWordWrap(True)
        self.aside = QListWidget()
        self.aside.setMaximumHeight(90)
        self.use_aside = QPushButton("Use for this game")
        self.use_aside.setToolTip("Take the chosen set-aside value into this game's chart, if it fits")
        self.drop_aside = QPushButton("Discard")
        self.drop_aside.setToolTip("Forget the chosen set-aside value")
        arow = QHBoxLayout()
        arow.addWidget(self.aside, 1)
        abtn = QVBoxLayout()
        abtn.addWidget(self.use_aside)
        abtn.addWidget(self.drop_aside)
        abtn.addStretch(1)
        arow.addLayout(abtn)
        lay.addWidget(self.aside_label)
        lay.addLayout(arow)
        self.message = QLabel()
        self.message.setWordWrap(True)
        lay.addWidget(self.message)
        row = QHBoxLayout()
        self.paste_btn = QPushButton("Paste")
        self.paste_btn.setToolTip("Paste a block copied from a spreadsheet (tabs and new lines) into the selected "
                                  "cell onwards (Ctrl+V)")
        self.import_btn = QPushButton("Import CSV…")
        self.export_btn = QPushButton("Export CSV…")
        self.later_btn = QPushButton("Start now and ask the rest as play needs them")
        self.start_btn = QPushButton("Start")
        for b in (self.paste_btn, self.import_btn, self.export_btn, self.later_btn, self.start_btn):
            b.setAutoDefault(False)         # Return commits a cell; it never closes the form
        for b in (self.paste_btn, self.import_btn, self.export_btn):
            row.addWidget(b)
        row.addStretch(1)
        row.addWidget(self.later_btn)
        row.addWidget(self.start_btn)
        lay.addLayout(row)
        self.paste_btn.clicked.connect(self.paste_clipboard)
        self.import_btn.clicked.connect(self.import_dialog)
        self.export_btn.clicked.connect(self.export_dialog)
        self.later_btn.clicked.connect(self.start_now)
        self.start_btn.clicked.connect(self.accept)
        self.use_aside.clicked.connect(lambda: self._aside_action(True))
        self.drop_aside.clicked.connect(lambda: self._aside_action(False))
        QShortcut(QKeySequence.Paste, self, activated=self.paste_clipboard)
        self.intro.setText(
            "Your printed game's values, typed once for this game and kept in your chart book "
            f"({book.path}). Counters: one row per unit type; terrain: one row per terrain; then the tables. "
            "Blue cells are read only when play comes to them (fill them now and they are never asked). "
            "You may paste a block from a spreadsheet into the selected cell onwards.")
        self.resize(1100, 700)
        self.build()

    # ------------------------------------------------------------ what is shown
    def value(self):
        return value_reader(self.rules.charts, self.state, self.book)

    def needs(self):
        return needs_of(self.rules, self.state, self.value())

    def build(self) -> None:
        """Lay the needs out as grids (again: a mobility typed may add movement costs)."""
        current = self.tabs.currentIndex()
        self.tabs.clear()
        self.grids, self.cells = {}, {}
        needs = self.needs()
        value = self.value()
        for section in ("counters", "terrain", "tables"):
            mine = [n for n in needs if n.section == section]
            if not mine:
                continue
            if section == "tables":
                rows = [f"{n.row} [{n.column}]" for n in mine]
                cols = ["value"]
                place = {(n.slot, n.key): (i, 0) for i, n in enumerate(mine)}
            else:
                rows = list(dict.fromkeys(n.row for n in mine))
                cols = list(dict.fromkeys(n.column for n in mine))
                place = {(n.slot, n.key): (rows.index(n.row), cols.index(n.column)) for n in mine}
            grid = QTableWidget(len(rows), len(cols))
            grid.setHorizontalHeaderLabels(cols)
            grid.setVerticalHeaderLabels(rows)
            grid.blockSignals(True)
            for r in range(len(rows)):
                for c in range(len(cols)):
                    item = QTableWidgetItem("")
                    item.setFlags(Qt.ItemIsEnabled)
                    item.setBackground(QBrush(NONE))
                    item.setToolTip("no such value for this row")
                    grid.setItem(r, c, item)
            for n in mine:
                r, c = place[n.slot, n.key]
                self.cells[n.slot, n.key] = (section, r, c)
                self._show_cell(grid.item(r, c), n, value)
            grid.blockSignals(False)
            grid.resizeColumnsToContents()
            for c in range(grid.columnCount()):
                grid.setColumnWidth(c, max(grid.columnWidth(c), 72))
            grid.itemChanged.connect(lambda item, s=section: self._edited(s, item))
            self.grids[section] = grid
            self.tabs.addTab(grid, TITLES[section])
        self._needs = {(n.slot, n.key): n for n in needs}
        if 0 <= current < self.tabs.count():
            self.tabs.setCurrentIndex(current)
        self.show_counts()
        self.show_aside()

    def _show_cell(self, item: QTableWidgetItem, n, value) -> None:
        slot = self.rules.charts[n.slot]
        v = value(n.slot, n.key)
        refused = self.refused.get((n.slot, n.key))
        item.setData(Qt.UserRole, (n.slot, n.key))
        item.setTextAlignment(Qt.AlignCenter)
        tip = f"{slot.cell_text(n.key)} — {n.why}; expected {slot.domain.describe()}"
        if n.key in slot.known:
            item.setText(str(v))
            item.setFlags(Qt.ItemIsEnabled | Qt.ItemIsSelectable)
            item.setBackground(QBrush(PUBLISHED))
            item.setToolTip(f"{slot.cell_text(n.key)}: published value, shipped with the program")
            return
        held = self.state is not None and self.state.memory.get(n.slot, n.key) is not None \
            and self.book.lookup(n.slot, n.key) is None
        item.setFlags(Qt.ItemIsEnabled | Qt.ItemIsSelectable | (Qt.NoItemFlags if held else Qt.ItemIsEditable))
        if refused is not None:
            item.setText(refused[0])
            item.setBackground(QBrush(REFUSED))
            item.setToolTip(f"Refused: {refused[1]}\n{tip}" + (f"\nYour chart keeps {v}" if v is not None else ""))
            return
        item.setText("" if v is None else str(v))
        item.setBackground(QBrush(PUBLISHED if held else QColor("white") if n.before_play else LATER))
        item.setToolTip((f"answered earlier in this game: {v}\n" if held else "")
                        + tip + ("" if n.before_play else "\nread only when play comes to it"))

    def show_counts(self) -> None:
        c = count_filled(list(self._needs.values()), self.value())
        bad = f" · {len(self.refused)} refused (marked red)" if self.refused else ""
        self.count.setText(f"Needed before play: {c.filled} of {c.needed} filled · read in play: "
                           f"{c.optional_filled} of {c.optional} filled{bad}")
        self.start_btn.setEnabled(c.missing == 0)
        self.start_btn.setToolTip("Every value needed before play is filled" if c.missing == 0 else
                                  f"{c.missing} values needed before play are blank")
        for i, section in enumerate(self.grids):
            mine = [n for n in self._needs.values() if n.section == section]
            k = count_filled(mine, self.value())
            self.tabs.setTabText(i, f"{TITLES[section]} ({k.filled + k.optional_filled}/{k.needed + k.optional})")

    def counts(self):
        return count_filled(list(self._needs.values()), self.value())

    def show_aside(self) -> None:
        items = [s for s in self.book.set_aside if s.scope in ("", self.book.game)]     # this game's and unscoped
        self.aside.clear()
        for s in items:
            it = QListWidgetItem(f"{s.where()} = {s.value!r}: {s.problem}")
            it.setData(Qt.UserRole, s)
            self.aside.addItem(it)
        self.aside_label.setText(f"Set aside in your chart book ({len(items)}): kept, not used. Choose one to use it "
                                 "for this game or to discard it." if items else "")
        for w in (self.aside, self.aside_label, self.use_aside, self.drop_aside):
            w.setVisible(bool(items))

    def say(self, text: str) -> None:
        self.last_message = text
        self.message.setText(text)
        self.message.setStyleSheet("color: #a01010" if text.startswith("Refused") else "")

    # ------------------------------------------------------------ entering values
    def _edited(self, section: str, item: QTableWidgetItem) -> None:
        cell = item.data(Qt.UserRole)
        if cell is None:
            return
        self.enter_cell(cell[0], cell[1], item.text(), save=True)

    def enter_cell(self, slot_id: str, key, text: str, save: bool = True) -> bool:
        """Enter one value (typed, pasted or imported); False and the cell marked when refused."""
        key = tuple(key)
        text = text.strip()
        n = self._needs.get((slot_id, key))
        if n is None:
            self.say(f"Refused: {slot_id} {list(key)} is not a value this scenario reads")
            return False
        ok = True
        slot = self.rules.charts[slot_id]
        if key in slot.known and slot.domain.normalise(text) == slot.known[key]:
            return True                     # the published value, as shipped (a CSV written by the export)
        old = self.book.lookup(slot_id, key)
        try:
            self.book.correct(slot_id, key, text or None)
            self.refused.pop((slot_id, key), None)
            new = self.book.lookup(slot_id, key)
            if old is not None and new != old:      # a value already in the book changed (shared with other games
                self.changed_cells.append(f"{slot.cell_text(key)}: {old} → {'(blank)' if new is None else new}")
        except (BadChartValue, ChartConflict) as e:
            self.refused[slot_id, key] = (text, str(e))
            self.say(f"Refused: {e}")
            ok = False
        self._redraw(slot_id, key)
        if save:
            was = f" (was {old})" if ok and old is not None and self.book.lookup(slot_id, key) != old else ""
            self._save(f"{slot.cell_text(key)} = {text or '(blank)'}{was}" if ok else "")
            if ok and slot_id == "tcs.counter.mobility":
                self.build()                # the movement costs this mobility needs
        return ok

    def _redraw(self, slot_id: str, key) -> None:
        where = self.cells.get((slot_id, tuple(key)))
        if where is None:
            return
        grid = self.grids[where[0]]
        grid.blockSignals(True)
        self._show_cell(grid.item(where[1], where[2]), self._needs[slot_id, tuple(key)], self.value())
        grid.blockSignals(False)

    def _save(self, what: str) -> None:
        try:
            self.book.save()
        except OSError as e:
            self.say(f"Cannot write {self.book.path}: {e.strerror or e}")
            return
        if what:
            self.say(f"{what} — kept in {self.book.path}")
        self.show_counts()
        self.changed.emit()

    def paste_text(self, text: str) -> tuple[int, int]:
        """Paste a spreadsheet block into the current tab from its selected cell onwards: ``(kept, refused)``."""
        section = list(self.grids)[self.tabs.currentIndex()] if self.grids else None
        if section is None:
            return 0, 0
        grid = self.grids[section]
        r0, c0 = max(grid.currentRow(), 0), max(grid.currentColumn(), 0)
        kept = bad = 0
        self.changed_cells = []
        rows = [line.split("\t") for line in text.replace("\r\n", "\n").rstrip("\n").split("\n")]
        mobility = False
        for i, vals in enumerate(rows):
            for j, v in enumerate(vals):
                r, c = r0 + i, c0 + j
                if r >= grid.rowCount() or c >= grid.columnCount():
                    continue
                item = grid.item(r, c)
                cell = item.data(Qt.UserRole)
                if cell is None or not (item.flags() & Qt.ItemIsEditable):
                    continue
                ok = self.enter_cell(cell[0], cell[1], v, save=False)
                kept, bad = kept + ok, bad + (not ok)
                mobility = mobility or cell[0] == "tcs.counter.mobility"
        self._save("")
        if mobility:
            self.build()
        self.say(f"Pasted {kept} values" + (f"; {bad} refused (marked red, the reason in each cell's tip)"
                                            if bad else "") + f" — kept in {self.book.path}" + self._changed_text())
        return kept, bad

    def _changed_text(self) -> str:
        c = self.changed_cells
        if not c:
            return ""
        return f"\n{len(c)} value{'s' if len(c) > 1 else ''} already in your chart book changed: " + "; ".join(c[:3]) \
            + ("; …" if len(c) > 3 else "")

    def paste_clipboard(self) -> None:
        self.paste_text(QGuiApplication.clipboard().text())

    # ------------------------------------------------------------ CSV
    def export_csv(self, path: str | Path) -> int:
        value = self.value()
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        w.writerow(CSV_HEAD)
        n = 0
        for need in self._needs.values():
            v = value(need.slot, need.key)
            w.writerow([need.slot, "|".join(need.key), need.section, need.row, need.column, "" if v is None else v])
            n += 1
        from engine.fileio import atomic_write_text

        atomic_write_text(path, out.getvalue())
        return n

    def import_csv(self, path: str | Path) -> tuple[int, int]:
        """Enter the values of a CSV file (the export's columns; blank values are skipped): ``(kept, refused)``."""
        try:
            text = Path(path).read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as e:
            self.say(f"Refused: cannot read {path}: {getattr(e, 'strerror', None) or e}")
            return 0, 0
        rows = list(csv.reader(io.StringIO(text)))
        if not rows or [h.strip().lower() for h in rows[0][:2]] != CSV_HEAD[:2] or "value" not in \
                [h.strip().lower() for h in rows[0]]:
            self.say(f"Refused: {path}: expected a first line with the columns {', '.join(CSV_HEAD)}")
            return 0, 0
        vcol = [h.strip().lower() for h in rows[0]].index("value")
        kept = bad = 0
        problems = []
        self.changed_cells = []
        for i, row in enumerate(rows[1:], start=2):
            if len(row) <= vcol or not row[vcol].strip():
                continue
            ok = self.enter_cell(row[0], tuple(row[1].split("|")), row[vcol], save=False)
            kept, bad = kept + ok, bad + (not ok)
            if not ok:
                problems.append(f"line {i}: {self.last_message}")
        self._save("")
        self.build()
        self.say(f"Imported {kept} values from {path}" + (f"; {bad} refused:\n" + "\n".join(problems[:5])
                                                           if bad else "") + self._changed_text())
        return kept, bad

    def import_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Import printed values", "", "CSV files (*.csv);;All files (*)")
        if path:
            self.import_csv(path)

    def export_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export printed values", "printed-values.csv",
                                              "CSV files (*.csv)")
        if path:
            try:
                n = self.export_csv(path)
            except OSError as e:
                self.say(f"Cannot write {path}: {e.strerror or e}")
                return
            self.say(f"Exported {n} values to {path}")

    # ------------------------------------------------------------ set-aside cells and closing
    def _aside_action(self, use: bool) -> None:
        item = self.aside.currentItem()
        if item is None:
            self.say("Choose a set-aside value first")
            return
        s = item.data(Qt.UserRole)
        try:
            if use:
                self.book.restore(s)
            else:
                self.book.discard(s)
        except (BadChartValue, ChartConflict) as e:
            self.say(f"Refused: {e}")
            return
        self._save(f"{s.where()}: {'used for this game' if use else 'discarded'}")
        self.build()

    def start_now(self) -> None:
        self.started_now = True
        self.accept()
