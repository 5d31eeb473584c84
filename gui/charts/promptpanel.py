"""The chart prompt: the printed chart's result the game waits for, with the working that led to the cell.

Everything shown is the engine's :class:`ChartPrompt`: the chart's title, the cell,
each step of the working with its rule, the purpose, and the chart's results as
the only choices.  The answer goes back as a value; the window plays it.
"""
from __future__ import annotations

from html import escape

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QIntValidator
from PySide6.QtWidgets import (QButtonGroup, QDockWidget, QGridLayout, QLabel, QLineEdit, QListWidget,
                               QListWidgetItem, QPushButton, QScrollArea, QVBoxLayout, QWidget)

from gui.common.typeahead import TypeAheadGuard


def whole_range(values) -> tuple[int, int] | None:
    """``(lowest, highest)`` when the results are every whole number between them (a chart of values), else None."""
    if not values or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return None
    lo, hi = min(values), max(values)
    return (lo, hi) if len(set(values)) == hi - lo + 1 else None


class ChartPromptDock(QDockWidget):
    """Shown while a chart question is pending; ``answered`` carries the result chosen.

    A few results are buttons; a range of whole numbers is typed (the range shown, checked before it is
    entered); many other results are a list that typing picks from.  Return enters the result chosen, and the
    "Enter this result" button (with a typed number's field and range) stays in view under the scrolled working
    and choices, however long they are."""

    answered = Signal(object)
    COLUMNS = 4                 # result buttons a row
    MAX_BUTTONS = 40            # more results than this: a list to pick from (by typing, too)
    MAX_NUMBER_BUTTONS = 12     # a range of whole numbers longer than this is typed

    def __init__(self, parent=None):
        super().__init__("Printed chart", parent)
        self.setObjectName("chartpromptdock")
        self.prompt = None
        self.selected = None
        self.bounds: tuple[int, int] | None = None        # a typed range of whole numbers
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
        self.number = QLineEdit()             # a range of whole numbers: typed, checked against the range
        self.number.setPlaceholderText("type the number printed in the cell")
        self.number_hint = QLabel()
        self.number.textEdited.connect(self._number_edited)
        self.pick = QLineEdit()               # many results: typing picks the first that begins so
        self.pick.setPlaceholderText("type to choose, or pick below")
        self.pick.textEdited.connect(self._pick_typed)
        self.choices = QListWidget()          # only for charts with many results
        self.choices.setToolTip("The results this chart can print: choose the one in the cell of your printed chart")
        self.answer_btn = QPushButton("Enter this result")
        self.answer_btn.setToolTip("Play the chosen result (Return); it is written into your chart so this cell is "
                                   "asked once")
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
        lay.addWidget(self.pick)
        lay.addWidget(self.choices)
        lay.addWidget(self.note)
        lay.addStretch(1)
        scroll = QScrollArea()              # never squeezed into overlapping lines when the column is short
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        scroll.setWidget(w)
        self.scroll = scroll
        self.content = w
        outer = QWidget()                   # the button and a refusal under the scrolled part: always in view
        column = QVBoxLayout(outer)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(scroll, 1)
        foot = QVBoxLayout()
        foot.setContentsMargins(9, 2, 9, 6)
        foot.addWidget(self.number_hint)    # a typed number and its range stay in view with the button
        foot.addWidget(self.number)
        foot.addWidget(self.refusal)
        foot.addWidget(self.answer_btn)
        column.addLayout(foot)
        self.setWidget(outer)
        self.setAllowedAreas(Qt.LeftDockWidgetArea | Qt.RightDockWidgetArea | Qt.BottomDockWidgetArea)
        self.typeahead = TypeAheadGuard()      # keys typed for the cell just answered kept out of the next
        self.answer_btn.clicked.connect(self._clicked_answer)
        self.choices.currentItemChanged.connect(
            lambda item, _=None: setattr(self, "selected", item.data(Qt.UserRole) if item is not None else None))
        self.choices.itemDoubleClicked.connect(lambda item: self.answered.emit(item.data(Qt.UserRole)))
        for widget in (self.number, self.pick, self.choices, self.answer_btn, outer):
            widget.installEventFilter(self)
        self.number.returnPressed.connect(self._answer_selected)    # a Return the filter did not take
        self.pick.returnPressed.connect(self._answer_selected)
        self.show_prompt(None)

    def eventFilter(self, obj, event) -> bool:        # noqa: N802 (Qt's name)
        """Return (or Enter) enters the result chosen, wherever the keyboard is in the panel; keys pressed for the
        cell just answered are left out of the next one."""
        if self.prompt and self.typeahead.drop(event):
            self.show_refusal(f"Left out {self.typeahead.dropped} key(s) pressed before this cell was asked")
            return True
        if event.type() == QEvent.KeyPress and event.key() in (Qt.Key_Return, Qt.Key_Enter) and self.prompt:
            if obj in self.buttons and self.bounds is None:
                obj.click()                     # the result the keyboard is on is the one entered
            self.typeahead.answered(event)
            self._answer_selected()
            return True
        return super().eventFilter(obj, event)

    def _clicked_answer(self) -> None:
        self.typeahead.answered(None)
        self._answer_selected()

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
            self.typeahead.new_question()
            self._set_choices(prompt.choices)
        cell = "".join(f"[{k}]" for k in prompt.key)
        why = f"<br>for {escape(prompt.purpose)}" if prompt.purpose else ""
        self.title.setText(f"<b>{escape(prompt.title)}</b> {escape(cell)}{why}<br>"
                           "Read this cell on your printed chart and enter its result.")
        self.working.setText("\n".join(f"• {s.show()}" for s in prompt.steps))
        self._fit_working()
        self.show()
        self.raise_()
        if not same:
            self._focus_answer()

    def _focus_answer(self) -> None:
        """The keyboard goes where the answer is typed or picked, so that typing and Return answer at once."""
        for w in (self.number, self.pick):
            if w.isVisibleTo(self):
                w.setFocus()
                return
        if self.buttons:
            self.buttons[0].setFocus()

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
        self.number.clear()
        self.pick.clear()
        values = tuple(values)
        rng = whole_range(values)
        typed = rng is not None and len(values) > self.MAX_NUMBER_BUTTONS
        many = not typed and len(values) > self.MAX_BUTTONS
        self.bounds = rng if typed else None
        self.number.setVisible(typed)
        self.number_hint.setVisible(typed)
        self.pick.setVisible(many)
        self.choices.setVisible(many)
        self.grid_box.setVisible(not typed and not many)
        self.values = values
        if typed:
            lo, hi = rng
            self.number.setValidator(QIntValidator(lo, hi, self.number))
            self.number_hint.setText(f"A whole number from {lo} to {hi}; Return enters it.")
            return
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
            b.installEventFilter(self)
            self.group.addButton(b)
            self.grid.addWidget(b, i // self.COLUMNS, i % self.COLUMNS)
            self.buttons.append(b)

    def _number_edited(self, text: str) -> None:
        self.refusal.clear()
        self.selected = int(text) if self.number.hasAcceptableInput() else None

    def _pick_typed(self, text: str) -> None:
        """Typing in a long list picks the first result that begins with the text (else the first containing it)."""
        self.refusal.clear()
        wanted = text.strip().lower()
        if not wanted:
            return
        items = [self.choices.item(i) for i in range(self.choices.count())]
        hit = next((it for it in items if it.text().lower().startswith(wanted)), None) or \
            next((it for it in items if wanted in it.text().lower()), None)
        if hit is None:
            self.choices.setCurrentItem(None)
            self.selected = None
            self.show_refusal(f"No result of this chart begins with {text.strip()!r}")
            return
        self.choices.setCurrentItem(hit)
        self.choices.scrollToItem(hit)

    def show_refusal(self, text: str) -> None:
        self.refusal.setText(text)

    def choice_texts(self) -> list[str]:
        """Every result this prompt accepts, as shown (typed ones included)."""
        return [str(v) for v in getattr(self, "values", ())]

    def choose(self, value) -> None:
        """Select the result ``value`` and enter it (as a click on it and on the button would; typed, when the
        results are a range of whole numbers)."""
        if self.bounds is not None:
            self.number.setText(str(value))
            self._number_edited(self.number.text())
            self._answer_selected()
            return
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
        if self.bounds is not None:
            lo, hi = self.bounds
            text = self.number.text().strip()
            if not self.number.hasAcceptableInput():
                self.show_refusal(f"{text!r} is not a whole number from {lo} to {hi}" if text else
                                  f"Type the number printed in the cell: a whole number from {lo} to {hi}")
                return
            self.selected = int(text)
        if self.selected is None:
            self.show_refusal("Choose the result printed in the cell first")
            return
        self.answered.emit(self.selected)
