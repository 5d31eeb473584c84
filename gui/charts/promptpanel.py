"""The chart prompt: the printed chart's result the game waits for, with the working that led to the cell.

Everything shown is the engine's :class:`ChartPrompt`: the chart's title, the cell,
each step of the working with its rule, the purpose, and the chart's results as
the only choices.  The answer goes back as a value; the window plays it.
"""
from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QButtonGroup, QDockWidget, QGridLayout, QLabel, QListWidget, QListWidgetItem,
                               QPushButton, QScrollArea, QVBoxLayout, QWidget)


class ChartPromptDock(QDockWidget):
    """Shown while a chart question is pending; ``answered`` carries the result chosen."""

    answered = Signal(object)
    COLUMNS = 4                 # result buttons a row
    MAX_BUTTONS = 40            # more results than this (a wide number range): a list to pick from

    def __init__(self, parent=None):
        super().__init__("Printed chart", parent)
        self.setObjectName("chartpromptdock")
        self.prompt = None
        self.selected = None
        self.buttons: list[QPushButton] = []
        w = QWidget()
        lay = QVBoxLayout(w)
        self.title = QLabel()
        self.title.setWordWrap(True)
        self.title.setTextFormat(Qt.RichText)
        self.working = QLabel()
        self.working.setWordWrap(True)
        self.working.setTextFormat(Qt.PlainText)
        self.working.setToolTip("How the program worked out the cell: each step with its rule")
        self.grid_box = QWidget()
        self.grid = QGridLayout(self.grid_box)
        self.grid.setContentsMargins(0, 0, 0, 0)
        self.group = QButtonGroup(self)
        self.group.setExclusive(True)
        self.choices = QListWidget()          # only for charts with many results
        self.choices.setToolTip("The results this chart can print: choose the one in the cell of your printed chart")
        self.answer_btn = QPushButton("Enter this result")
        self.answer_btn.setToolTip("Play the chosen result; it is written into your chart so this cell is asked once")
        self.refusal = QLabel()
        self.refusal.setWordWrap(True)
        self.refusal.setStyleSheet("color: #a01010")
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.setStyleSheet("color: #555555")
        lay.addWidget(self.title)
        lay.addWidget(QLabel("<i>Working:</i>"))
        lay.addWidget(self.working)
        lay.addWidget(QLabel("<i>The result printed in that cell:</i>"))
        lay.addWidget(self.grid_box)
        lay.addWidget(self.choices)
        lay.addWidget(self.answer_btn)
        lay.addWidget(self.refusal)
        lay.addWidget(self.note)
        lay.addStretch(1)
        scroll = QScrollArea()              # never squeezed into overlapping lines when the column is short
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        scroll.setWidget(w)
        self.content = w
        self.setWidget(scroll)
        self.setAllowedAreas(Qt.LeftDockWidgetArea | Qt.RightDockWidgetArea | Qt.BottomDockWidgetArea)
        self.answer_btn.clicked.connect(self._answer_selected)
        self.choices.currentItemChanged.connect(
            lambda item, _=None: setattr(self, "selected", item.data(Qt.UserRole) if item is not None else None))
        self.choices.itemDoubleClicked.connect(lambda item: self.answered.emit(item.data(Qt.UserRole)))
        self.show_prompt(None)

    def show_prompt(self, prompt, note: str = "", note_tip: str = "") -> None:
        """Show a pending prompt (and this dock), or hide the dock when there is none."""
        same = prompt is not None and self.prompt is not None and \
            (prompt.slot, prompt.key) == (self.prompt.slot, self.prompt.key)
        self.prompt = prompt
        self.note.setText(note)
        self.note.setToolTip(note_tip)
        if prompt is None:
            self.refusal.clear()
            self.title.clear()
            self.working.clear()
            self._set_choices(())
            self.hide()
            return
        if not same:
            self.refusal.clear()
            self._set_choices(prompt.choices)
        cell = "".join(f"[{k}]" for k in prompt.key)
        why = f"<br>for {escape(prompt.purpose)}" if prompt.purpose else ""
        self.title.setText(f"<b>{escape(prompt.title)}</b> {escape(cell)}{why}<br>"
                           "Read this cell on your printed chart and enter its result.")
        self.working.setText("\n".join(f"• {s.show()}" for s in prompt.steps))
        self._fit_working()
        self.show()
        self.raise_()

    def _fit_working(self) -> None:
        """A wrapped label in a dock is given one line too few: ask it how tall it is at its width."""
        self.working.setMinimumHeight(self.working.heightForWidth(max(self.working.width(), 240)))

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit_working()

    def _set_choices(self, values) -> None:
        for b in self.buttons:
            self.group.removeButton(b)
            b.deleteLater()
        self.buttons = []
        self.selected = None
        self.choices.clear()
        many = len(values) > self.MAX_BUTTONS
        self.choices.setVisible(many)
        self.grid_box.setVisible(not many)
        for i, value in enumerate(values):
            if many:
                item = QListWidgetItem(str(value))
                item.setData(Qt.UserRole, value)
                self.choices.addItem(item)
                continue
            b = QPushButton(str(value))
            b.setMinimumWidth(36)             # four a row fit a narrow dock column
            b.setCheckable(True)
            b.clicked.connect(lambda _=False, v=value: setattr(self, "selected", v))
            self.group.addButton(b)
            self.grid.addWidget(b, i // self.COLUMNS, i % self.COLUMNS)
            self.buttons.append(b)

    def show_refusal(self, text: str) -> None:
        self.refusal.setText(text)

    def choice_texts(self) -> list[str]:
        if self.buttons:
            return [b.text() for b in self.buttons]
        return [self.choices.item(i).text() for i in range(self.choices.count())]

    def choose(self, value) -> None:
        """Select the result ``value`` and enter it (as a click on it and on the button would)."""
        for b in self.buttons:
            if b.text() == str(value):
                b.click()
                self._answer_selected()
                return
        for i in range(self.choices.count()):
            if self.choices.item(i).text() == str(value):
                self.choices.setCurrentRow(i)
                self._answer_selected()
                return
        self.show_refusal(f"{value!r} is not one of this chart's results")

    def _answer_selected(self) -> None:
        if self.selected is None:
            self.show_refusal("Choose the result printed in the cell first")
            return
        self.answered.emit(self.selected)
