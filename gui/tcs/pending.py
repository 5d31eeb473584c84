"""The Question dock: the decision or printed result the game waits for, offering only the legal answers.  No rule
lives here.
"""
from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtWidgets import QComboBox, QGridLayout, QHBoxLayout, QLabel, QPushButton, QWidget

from gui.common.typeahead import TypeAheadGuard
from .base import TcsDock

MANY_CHOICES = 12           # more results than this: a list to pick from instead of a row of buttons


class PendingDock(TcsDock):
    """The question the game waits for: a decision (initiative, retreat, overwatch) or a printed chart result,
    with its whole working, offering only the legal answers."""

    act = Signal(str)

    def __init__(self, parent=None):
        super().__init__("Question", "tcspending", parent)
        self.typeahead = TypeAheadGuard()            # keys typed for the question before kept out of the next
        self.lay = self.column
        self.title = QLabel()
        f = self.title.font()
        f.setBold(True)
        self.title.setFont(f)
        self.text = QLabel()
        self.text.setWordWrap(True)
        self.text.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.lay.addWidget(self.title)
        self.lay.addWidget(self.text)
        self.button_box = QWidget()
        self.button_row = QGridLayout(self.button_box)
        self.button_row.setContentsMargins(0, 0, 0, 0)
        self.lay.addWidget(self.button_box)
        pick = QHBoxLayout()
        self.many = QComboBox()             # many answers: typed (completed from the answers) or picked
        self.many.setEditable(True)
        self.many.setInsertPolicy(QComboBox.NoInsert)
        self.many.lineEdit().setPlaceholderText("type an answer, or pick one")
        self.many.lineEdit().installEventFilter(self)
        self.many.installEventFilter(self)
        self.enter = QPushButton("Enter")
        self.enter.setToolTip("Play the answer chosen (Return)")
        self.enter.clicked.connect(self._enter_typed)
        pick.addWidget(self.many, 1)
        pick.addWidget(self.enter)
        self.pick_box = QWidget()
        self.pick_box.setLayout(pick)
        self.lay.addWidget(self.pick_box)
        self.refusal = QLabel()
        self.refusal.setWordWrap(True)
        self.refusal.setStyleSheet("color: #a01010")
        self.lay.addWidget(self.refusal)
        self.lay.addStretch(1)
        self.show_column()
        self.buttons: list[QPushButton] = []
        self.answers: list[tuple[str, str]] = []     # (label, action text)
        self._asked = None                           # the question whose answers are in the box
        self._key = None                             # the key press being handled (Return), if any

    def eventFilter(self, obj, event) -> bool:        # noqa: N802 (Qt's name)
        """Return in the answer typed (or picked) plays it; keys typed for the question just answered are left out
        of the next one."""
        if self.typeahead.drop(event):
            self.refusal.setText(f"Left out {self.typeahead.dropped} key(s) pressed before this question was asked")
            return True
        if event.type() == QEvent.KeyPress and event.key() in (Qt.Key_Return, Qt.Key_Enter) \
                and self.pick_box.isVisibleTo(self):
            self._key = event
            try:
                self._enter_typed()
            finally:
                self._key = None
            return True
        return super().eventFilter(obj, event)

    def _play(self, text: str) -> None:
        """Play an answer (by the key being handled, or a click)."""
        self.typeahead.answered(self._key)
        self.act.emit(text)

    def _enter_typed(self) -> None:
        """Play the answer whose label is typed in the box (the one picked, or the one the typing completes to)."""
        text = self.many.currentText().strip()
        i = self.many.findText(text, Qt.MatchFixedString)
        if i < 0:
            i = self.many.findText(text, Qt.MatchStartsWith) if text else -1
        if i < 0:
            labels = [self.many.itemText(k) for k in range(self.many.count())]
            shown = ", ".join(labels[:6]) + (" …" if len(labels) > 6 else "")
            self.refusal.setText(f"{text!r} is not one of the answers ({shown})" if text else "Type or pick an answer")
            return
        self.refusal.clear()
        self.many.setCurrentIndex(i)
        self._play(self.many.itemData(i))

    @staticmethod
    def question_text(pending: dict, sides: dict) -> str:
        """The question with a side named first by its id shown by its name ("Soviet won the … initiative")."""
        text = pending.get("text", "")
        head, sep, rest = text.partition(" ")
        side = sides.get(head) if sep else None
        return f"{getattr(side, 'name', head)} {rest}" if side is not None else text

    def show_pending(self, pending: dict | None, legal: list[str], sides: dict, charts_elsewhere: bool = False) -> None:
        self.refusal.clear()
        for b in self.buttons:
            b.deleteLater()
        self.buttons = []
        self.answers = []
        typed = self.many.currentText()             # kept when the same question is shown again (a refresh)
        self.many.clear()
        if pending is None:
            self.title.setText("Nothing asked")
            self.text.setText("The game waits for no decision and no printed result.")
            self.pick_box.hide()
            return
        if pending["kind"] == "chart" and charts_elsewhere:
            self.title.setText(f"Printed result needed: {pending['prompt'].title}")
            self.text.setText("Asked in the chart prompt panel.")
            self.pick_box.hide()
            return
        if pending["kind"] == "chart":
            prompt = pending["prompt"]
            self.title.setText(f"Printed result needed: {prompt.title}")
            self.text.setText(prompt.text())
            self.answers = [(t.split(" = ", 1)[1], t) for t in legal if " = " in t]
        else:
            who = getattr(sides.get(pending.get("side", "")), "name", pending.get("side", ""))
            self.title.setText(f"Decision: {pending['what']}" + (f" ({who})" if who else ""))
            self.text.setText(self.question_text(pending, sides))
            labels = {s: getattr(v, "name", s) for s, v in sides.items()}
            self.answers = [(labels.get(t.split()[-1], t.split()[-1]), t) for t in legal if t.startswith("choose ")]
        asked = (pending.get("what"), pending.get("text"), tuple(self.answers))
        new = asked != self._asked
        if new:
            self._asked = asked
            self.typeahead.new_question()
        if len(self.answers) > MANY_CHOICES:
            for label, text in self.answers:
                self.many.addItem(str(label), text)
            self.pick_box.show()
            if new:                             # a new question: the keyboard goes to its answer
                typed = ""
                self.many.setFocus()
            # nothing chosen for the player (the box picks its first answer when filled): a Return alone answers
            # nothing (a landing's first hex, taken unit after unit, overstacked it: Leros 3.6g)
            self.many.setCurrentIndex(-1)
            self.many.setEditText(typed)
            return
        self.pick_box.hide()
        for i, (label, text) in enumerate(self.answers):
            b = QPushButton(str(label))
            b.setToolTip(text)
            b.clicked.connect(lambda _=False, t=text: self._play(t))
            b.installEventFilter(self)
            self.button_row.addWidget(b, i // 4, i % 4)
            self.buttons.append(b)
