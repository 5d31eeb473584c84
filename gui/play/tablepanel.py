"""The table's tools in the play window: dice, flip, step and text markers, notes, face down/up, off-map boxes.

Shown only when the game's ruleset offers them (``rules.table_tools``: the
free-play table).  Every button plays one action in its text form through the
play session, so each is logged, undone, saved and replayed like a move; the
ruleset refuses what the file forbids and the refusal shows with its reason.
"""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox, QDockWidget, QFormLayout, QGroupBox, QHBoxLayout, QLabel, QLineEdit, QPushButton, QSpinBox,
    QVBoxLayout, QWidget,
)

from gui.play.session import Refusal


class TablePanel(QDockWidget):
    """The counter picked last, the hex clicked or picked last, and the dice."""

    def __init__(self, window):
        super().__init__("Table", window)
        self.setObjectName("table-tools")
        self.window = window
        self.unit_id = ""
        self.hex = None
        body = QWidget()
        col = QVBoxLayout(body)

        counter = QGroupBox("Counter")
        form = QFormLayout(counter)
        self.unit_label = QLabel("pick a counter on the map")
        form.addRow(self.unit_label)
        row = QHBoxLayout()
        self.flip_btn = QPushButton("Flip")
        self.flip_btn.setToolTip("Turn the counter over to its other face")
        self.reveal_btn = QPushButton("Reveal")
        self.reveal_btn.setToolTip("Show a face-down counter (or turn it face down again)")
        row.addWidget(self.flip_btn)
        row.addWidget(self.reveal_btn)
        form.addRow(row)
        self.steps = QSpinBox()
        self.steps.setRange(0, 20)
        self.steps.setToolTip("The step-loss marker on the counter (0: none)")
        self.steps_btn = QPushButton("Set steps lost")
        row = QHBoxLayout()
        row.addWidget(self.steps)
        row.addWidget(self.steps_btn)
        form.addRow(row)
        self.marker = QComboBox()
        self.marker.setEditable(True)
        self.marker.setToolTip("A marker from the scenario's list, or any text")
        self.mark_btn = QPushButton("Add marker")
        self.unmark_btn = QPushButton("Remove")
        form.addRow(self.marker)
        row = QHBoxLayout()
        row.addWidget(self.mark_btn)
        row.addWidget(self.unmark_btn)
        form.addRow(row)
        self.box = QComboBox()
        self.box_btn = QPushButton("Put in box")
        row = QHBoxLayout()
        row.addWidget(self.box, 1)
        row.addWidget(self.box_btn)
        form.addRow(row)
        col.addWidget(counter)

        note = QGroupBox("Note on the map")
        form = QFormLayout(note)
        self.hex_label = QLabel("click a hex")
        self.note_text = QLineEdit()
        self.note_text.setPlaceholderText("note (empty rubs it out)")
        self.note_btn = QPushButton("Write")
        form.addRow(self.hex_label)
        row = QHBoxLayout()
        row.addWidget(self.note_text, 1)
        row.addWidget(self.note_btn)
        form.addRow(row)
        self.notes_label = QLabel()
        self.notes_label.setWordWrap(True)
        form.addRow(self.notes_label)
        col.addWidget(note)

        dice = QGroupBox("Dice")
        form = QFormLayout(dice)
        self.count = QSpinBox()
        self.count.setRange(1, 100)
        self.sides = QSpinBox()
        self.sides.setRange(2, 1000)
        self.sides.setValue(6)
        self.purpose = QLineEdit()
        self.purpose.setPlaceholderText("for … (optional)")
        row = QHBoxLayout()
        row.addWidget(self.count)
        row.addWidget(QLabel("d"))
        row.addWidget(self.sides)
        self.roll_btn = QPushButton("Roll")
        row.addWidget(self.roll_btn)
        form.addRow(row)
        form.addRow(self.purpose)
        self.roll_label = QLabel("")
        self.roll_label.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.roll_label.setWordWrap(True)
        form.addRow(self.roll_label)
        col.addWidget(dice)
        col.addStretch(1)
        self.setWidget(body)

        self.flip_btn.clicked.connect(lambda: self._unit_action("flip"))
        self.reveal_btn.clicked.connect(self._reveal)
        self.steps_btn.clicked.connect(lambda: self._unit_action("steps", str(self.steps.value())))
        self.mark_btn.clicked.connect(lambda: self._unit_action("mark", self.marker.currentText().strip()))
        self.unmark_btn.clicked.connect(lambda: self._unit_action("unmark", self.marker.currentText().strip()))
        self.box_btn.clicked.connect(lambda: self._unit_action("move", f"box:{self.box.currentData()}"))
        self.note_btn.clicked.connect(self._note)
        self.roll_btn.clicked.connect(self.roll)
        window.map_view.picked.connect(self._picked)
        window.map_view.hex_clicked.connect(self._hex)
        window.map_view.stack_clicked.connect(self._stack)
        self.hide()

    # ------------------------------------------------------------ following the game
    def show_session(self, session) -> None:
        """Shown for a ruleset with table tools; the lists follow the scenario and the state."""
        rules = getattr(session, "rules", None)
        on = bool(getattr(rules, "table_tools", False))
        self.setVisible(on)
        if not on:
            return
        if self.marker.count() == 0:
            self.marker.addItems(list(getattr(rules, "markers", ())))
        if self.box.count() == 0:
            for bid, box in session.board.boxes.items():
                self.box.addItem(box.name, bid)
        self.box_btn.setEnabled(self.box.count() > 0)
        notes = getattr(session.state, "notes", {}) or {}
        self.notes_label.setText("\n".join(f"{h}: {t}" for h, t in sorted(notes.items())) or "no notes")
        self._show_unit(session)

    def _session(self):
        s = self.window.session
        return s if s is not None and getattr(s.rules, "table_tools", False) else None

    def _picked(self, unit, h) -> None:
        self.unit_id = unit.id
        self.hex = h
        s = self._session()
        if s is not None:
            self._show_unit(s)
            self._show_hex(s)

    def _stack(self, h) -> None:
        """A click on a stack picks its top counter (the stack viewer shows the others)."""
        units = self.window.map_view.stacks.get(h) or []
        if units:
            self._picked(units[-1], h)

    def _hex(self, h) -> None:
        self.hex = h
        s = self._session()
        if s is not None:
            self._show_hex(s)

    def _show_unit(self, s) -> None:
        p = getattr(s.state, "units", {}).get(self.unit_id)
        if p is None:
            self.unit_label.setText("pick a counter on the map")
            for b in (self.flip_btn, self.reveal_btn, self.steps_btn, self.mark_btn, self.unmark_btn, self.box_btn):
                b.setEnabled(False)
            return
        for b in (self.flip_btn, self.reveal_btn, self.steps_btn, self.mark_btn, self.unmark_btn):
            b.setEnabled(True)
        self.box_btn.setEnabled(self.box.count() > 0)
        face = "face down" if p.hidden else "back" if p.flipped else "front"
        marks = ", ".join(p.markers)
        self.unit_label.setText(f"{self.unit_id}: {face}" + (f", {p.steps_lost} step(s) lost" if p.steps_lost else "")
                                + (f"; markers: {marks}" if marks else ""))
        self.reveal_btn.setText("Turn face down" if not p.hidden else "Reveal")
        self.steps.setValue(p.steps_lost)

    def _show_hex(self, s) -> None:
        if self.hex is None:
            return
        hid = s.board.hex_id(self.hex)
        self.hex_label.setText(f"hex {hid}")
        self.note_text.setText((getattr(s.state, "notes", {}) or {}).get(hid, ""))

    # ------------------------------------------------------------ playing
    def _play(self, text: str):
        s = self._session()
        if s is None:
            return None
        result = s.play(text)
        if isinstance(result, Refusal):
            self.window.refused(result)
            return None
        self.window.statusBar().showMessage(s.log_lines()[-1], 10000)
        return result

    def _unit_action(self, verb: str, arg: str = "") -> None:
        if not self.unit_id or (verb in ("mark", "unmark") and not arg):
            return
        self._play(f"{verb} {self.unit_id} {arg}".rstrip())

    def _reveal(self) -> None:
        s = self._session()
        p = getattr(s.state, "units", {}).get(self.unit_id) if s is not None else None
        if p is not None:
            self._play(f"{'reveal' if p.hidden else 'hide'} {self.unit_id}")

    def _note(self) -> None:
        s = self._session()
        if s is None or self.hex is None:
            return
        self._play(f"note {s.board.hex_id(self.hex)} {self.note_text.text().strip()}".rstrip())

    def roll(self) -> None:
        purpose = self.purpose.text().strip()
        events = self._play(f"roll {self.count.value()}d{self.sides.value()}" + (f" for {purpose}" if purpose else ""))
        if events:
            self.roll_label.setText(events[0].text)


def attach_table_panel(window) -> TablePanel:
    """Add the table's tools to a main window (shown while a game under a ruleset with table tools is open)."""
    window.table_panel = TablePanel(window)
    window.addDockWidget(Qt.RightDockWidgetArea, window.table_panel)
    return window.table_panel
