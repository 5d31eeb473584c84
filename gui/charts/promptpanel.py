"""The chart prompt: the printed chart's result the game waits for, with the working that led to the cell.

Everything shown is the engine's :class:`ChartPrompt`: the chart's title, the cell,
each step of the working with its rule, the purpose, and the chart's results as
the only choices.  The answer goes back as a value; the window plays it.
"""
from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QDockWidget, QLabel, QListWidget, QListWidgetItem, QPushButton, QVBoxLayout, QWidget


class ChartPromptDock(QDockWidget):
    """Shown while a chart question is pending; ``answered`` carries the result chosen."""

    answered = Signal(object)

    def __init__(self, parent=None):
        super().__init__("Printed chart", parent)
        self.setObjectName("chartpromptdock")
        self.prompt = None
        w = QWidget()
        lay = QVBoxLayout(w)
        self.title = QLabel()
        self.title.setWordWrap(True)
        self.title.setTextFormat(Qt.RichText)
        self.working = QListWidget()
        self.working.setWordWrap(True)
        self.working.setToolTip("How the program worked out the cell: each step with its rule")
        self.choices = QListWidget()
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
        lay.addWidget(QLabel("Working:"))
        lay.addWidget(self.working, 1)
        lay.addWidget(QLabel("The printed result:"))
        lay.addWidget(self.choices, 2)
        lay.addWidget(self.answer_btn)
        lay.addWidget(self.refusal)
        lay.addWidget(self.note)
        self.setWidget(w)
        self.setAllowedAreas(Qt.LeftDockWidgetArea | Qt.RightDockWidgetArea | Qt.BottomDockWidgetArea)
        self.answer_btn.clicked.connect(self._answer_selected)
        self.choices.itemDoubleClicked.connect(lambda item: self.answered.emit(item.data(Qt.UserRole)))
        self.show_prompt(None)

    def show_prompt(self, prompt, note: str = "") -> None:
        """Show a pending prompt (and this dock), or hide the dock when there is none."""
        same = prompt is not None and self.prompt is not None and \
            (prompt.slot, prompt.key) == (self.prompt.slot, self.prompt.key)
        self.prompt = prompt
        self.note.setText(note)
        if prompt is None:
            self.refusal.clear()
            self.title.clear()
            self.working.clear()
            self.choices.clear()
            self.hide()
            return
        if not same:
            self.refusal.clear()
        cell = "".join(f"[{k}]" for k in prompt.key)
        why = f"<br>for {escape(prompt.purpose)}" if prompt.purpose else ""
        self.title.setText(f"<b>{escape(prompt.title)}</b> {escape(cell)}{why}<br>"
                           "Read this cell on your printed chart and enter its result.")
        self.working.clear()
        self.working.addItems([s.show() for s in prompt.steps])
        self.choices.clear()
        for value in prompt.choices:
            item = QListWidgetItem(str(value))
            item.setData(Qt.UserRole, value)
            self.choices.addItem(item)
        # the whole working and (up to a dozen) results without scrolling
        row = self.choices.sizeHintForRow(0) if self.choices.count() else 18
        self.choices.setMinimumHeight(row * min(self.choices.count(), 12) + 6)
        self.working.setMinimumHeight(self.working.sizeHintForRow(0) * min(max(len(prompt.steps), 2), 8) + 6
                                      if prompt.steps else 0)
        self.show()
        self.raise_()

    def show_refusal(self, text: str) -> None:
        self.refusal.setText(text)

    def choice_texts(self) -> list[str]:
        return [self.choices.item(i).text() for i in range(self.choices.count())]

    def choose(self, value) -> None:
        """Select the result ``value`` and enter it (as a click on it and on the button would)."""
        for i in range(self.choices.count()):
            if self.choices.item(i).text() == str(value):
                self.choices.setCurrentRow(i)
                self._answer_selected()
                return
        self.show_refusal(f"{value!r} is not one of this chart's results")

    def _answer_selected(self) -> None:
        item = self.choices.currentItem()
        if item is None:
            self.show_refusal("Choose the result printed in the cell first")
            return
        self.answered.emit(item.data(Qt.UserRole))
