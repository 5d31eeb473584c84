"""Counter values in the order of battle: the owner's counter manifest, one row per unit type of the scenario.

The columns are the counter slots (one open ``unit type`` axis each: firepower,
range, morale, movement, steps …) of the chart set of the scenario's ruleset;
the cells are the owner's entries, checked against each slot's domain as typed
and written to the owner's chart file at once.  Nothing here knows a ruleset:
any chart set with counter slots is shown the same way.
"""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QLabel, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget

from engine.charts import BadChartValue, ChartConflict, counter_slots, game_scope, ruleset_chart_slots
from engine.errors import BadFile

from .shelf import owner_book, problems_text

REFUSED = QColor("#f4b8b0")


class CounterValuesPanel(QWidget):
    """The counter manifest of a scenario's unit types; hidden when the ruleset has no counter slots."""

    changed = Signal()

    def __init__(self, folder: Path | None = None, slots_for=ruleset_chart_slots, parent=None):
        super().__init__(parent)
        self.folder = folder
        self.slots_for = slots_for          # ruleset name -> its ChartSet (or None)
        self.book = None
        self.slots: list = []
        self.types: list[str] = []
        self.last_message = ""
        self.title = QLabel()
        self.title.setWordWrap(True)
        self.table = QTableWidget()
        self.message = QLabel()
        self.message.setWordWrap(True)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.title)
        lay.addWidget(self.table)
        lay.addWidget(self.message)
        self.table.itemChanged.connect(self._changed)
        self.hide()

    def show_scenario(self, scenario) -> None:
        """The counter values of the unit types a scenario uses, from the owner's chart of its ruleset."""
        name = getattr(scenario, "ruleset", "") if scenario is not None else ""
        slots = self.slots_for(name) if name else None
        types = []
        for u in (scenario.units.values() if scenario is not None else ()):
            if u.type not in types:
                types.append(u.type)
        game = game_scope(getattr(scenario, "game", "") or "", getattr(scenario, "id", "") or "") \
            if scenario is not None else ""
        self.show_types(name, slots, types, game)

    def show_types(self, name: str, slots, types: list[str], game: str = "") -> None:
        """``game``: the game whose own counters these are (kept under it in the owner's book)."""
        self.slots = counter_slots(slots)
        self.types = list(types)
        if not self.slots:
            self.book = None
            self.hide()
            return
        try:
            self.book = owner_book(name, slots, self.folder, game)
        except BadFile as e:
            self.book = None
            self.title.setText("Counter values: your chart file cannot be read")
            self.say(problems_text(e, 5))
            self.table.clear()
            self.show()
            return
        self.title.setText(f"Counter values by unit type, from your charts ({self.book.path}); "
                           "blank ones are asked in play")
        self.table.blockSignals(True)
        self.table.clear()
        self.table.setColumnCount(len(self.slots))
        self.table.setRowCount(len(self.types))
        self.table.setHorizontalHeaderLabels([s.title for s in self.slots])
        self.table.setVerticalHeaderLabels(self.types)
        for r, t in enumerate(self.types):
            for c, slot in enumerate(self.slots):
                v = self.book.lookup(slot.id, (t,))
                item = QTableWidgetItem("" if v is None else str(v))
                item.setTextAlignment(Qt.AlignCenter)
                item.setToolTip(f"{slot.title} ({slot.rule}) of {t}: expected {slot.domain.describe()}")
                self.table.setItem(r, c, item)
        self.table.resizeColumnsToContents()
        self.table.blockSignals(False)
        self.show()

    def value(self, unit_type: str, slot_id: str):
        return self.book.lookup(slot_id, (unit_type,)) if self.book is not None else None

    def say(self, text: str) -> None:
        self.last_message = text
        self.message.setText(text)

    def enter(self, unit_type: str, slot_id: str, text: str) -> bool:
        """Type a value for a unit type (as a cell edit does); False and the cell marked when refused."""
        r, c = self.types.index(unit_type), [s.id for s in self.slots].index(slot_id)
        self.table.item(r, c).setText(text)          # through itemChanged
        return (r, c) not in self._refused_cells()

    def _refused_cells(self) -> set:
        return {(r, c) for r in range(self.table.rowCount()) for c in range(self.table.columnCount())
                if self.table.item(r, c) is not None and self.table.item(r, c).background().color() == REFUSED}

    def _changed(self, item: QTableWidgetItem) -> None:
        if self.book is None:
            return
        slot, t = self.slots[item.column()], self.types[item.row()]
        text = item.text().strip()
        self.table.blockSignals(True)
        try:
            self.book.correct(slot.id, (t,), text or None)
        except (BadChartValue, ChartConflict) as e:
            item.setBackground(QBrush(REFUSED))
            item.setToolTip(f"Refused: {e}")
            self.say(f"Refused: {e}")
            return
        finally:
            self.table.blockSignals(False)
        self.table.blockSignals(True)
        item.setBackground(QBrush())
        item.setToolTip(f"{slot.title} ({slot.rule}) of {t}: expected {slot.domain.describe()}")
        stored = self.book.lookup(slot.id, (t,))
        item.setText("" if stored is None else str(stored))
        self.table.blockSignals(False)
        try:
            self.book.save()
        except OSError as e:
            self.say(f"Cannot write {self.book.path}: {e.strerror or e}")
            return
        self.say(f"{slot.title} of {t} = {text or '(blank)'} — saved to {self.book.path}")
        self.changed.emit()
