"""Lines of text that never push or run into their neighbours: an elided label and the window's status bar.

A text longer than its place is cut with "…" and shown whole in the tooltip; the widgets beside it keep their
places whatever the text.
"""
from __future__ import annotations

from PySide6.QtCore import QSize, Qt, QTimer
from PySide6.QtWidgets import QLabel, QSizePolicy, QStatusBar


class ElidedLabel(QLabel):
    """A one-line label that takes the room it is given and elides what does not fit (the whole text in its
    tooltip); ``text()`` is the whole text."""

    def __init__(self, text: str = "", parent=None, lines: int = 1):
        super().__init__(parent)
        self._full = ""
        self.setTextFormat(Qt.PlainText)
        self.set_lines(lines)
        self.setText(text)

    def set_lines(self, lines: int) -> None:
        """Wrap onto this many lines (the last elided); one line on a small screen."""
        self.lines = lines                  # a line longer than the width wraps onto as many, the last elided
        self.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Fixed if lines > 1 else QSizePolicy.Preferred)
        if lines > 1:                      # always as tall as its lines: what is under it never moves
            self.setFixedHeight(self.fontMetrics().lineSpacing() * lines + 6)
        else:
            self.setMinimumHeight(0)
            self.setMaximumHeight(16777215)
        if self._full:
            self._elide()

    def setText(self, text: str) -> None:        # noqa: N802 (Qt's name)
        self._full = text or ""
        self._elide()

    def text(self) -> str:
        return self._full

    def shown_text(self) -> str:
        """The text as drawn (elided when the label is too narrow)."""
        return super().text()

    def is_elided(self) -> bool:
        return super().text().replace("\n", " ") != self._full

    def _wrapped(self, width: int) -> str:
        """The text on up to ``lines`` lines of ``width``, broken between words, the last line elided."""
        fm = self.fontMetrics()
        words = self._full.split(" ")
        out: list[str] = []
        while words and len(out) < self.lines - 1:
            line = words.pop(0)
            while words and fm.horizontalAdvance(line + " " + words[0]) <= width:
                line += " " + words.pop(0)
            out.append(line)
        if words:
            out.append(fm.elidedText(" ".join(words), Qt.ElideRight, width))
        return "\n".join(out)

    def _elide(self) -> None:
        width = max(self.contentsRect().width(), 0)
        if self.lines > 1:
            shown = self._wrapped(width) if width else ""
            super().setText(shown if width else self._full)
            self.setToolTip(self._full if shown.replace("\n", " ") != self._full else "")
            return
        shown = self.fontMetrics().elidedText(self._full, Qt.ElideRight, width) if width else ""
        super().setText(shown if self.isVisible() or width else self._full)
        self.setToolTip(self._full if super().text() != self._full else "")

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._elide()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self._elide()

    def minimumSizeHint(self) -> QSize:
        return QSize(40, super().minimumSizeHint().height())

    def sizeHint(self) -> QSize:
        fm = self.fontMetrics()
        m = self.contentsMargins()
        return QSize(fm.horizontalAdvance(self._full) + m.left() + m.right() + 4, super().sizeHint().height())


class StatusLine(QStatusBar):
    """The status bar of a window: a message (``showMessage``) shows in an elided label of its own, in place of
    the hover text while it lasts, and never runs under the widgets kept on the right (the zoom, the rule
    link); the whole message is in the tooltip."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self._normal: list = []
        self.message_label = ElidedLabel()
        self.message_label.hide()
        self.addWidget(self.message_label, 1)
        self._message = ""
        self._hidden: list = []
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.clearMessage)

    def showMessage(self, text: str, timeout: int = 0) -> None:        # noqa: N802 (Qt's name)
        self._timer.stop()
        if not text:
            self.clearMessage()
            return
        self._message = text
        if not self.message_label.isVisible():
            self._hidden = [w for w in self._normal_widgets() if w.isVisible()]
            for w in self._hidden:
                w.hide()
            self.message_label.show()
        self.message_label.setText(text)
        self.setToolTip(text)
        if timeout:
            self._timer.start(timeout)
        self.messageChanged.emit(text)

    def currentMessage(self) -> str:        # noqa: N802 (Qt's name)
        return self._message

    def clearMessage(self) -> None:        # noqa: N802 (Qt's name)
        self._timer.stop()
        if not self._message and not self.message_label.isVisible():
            return
        self._message = ""
        self.message_label.hide()
        self.message_label.setText("")
        for w in self._hidden:
            w.show()
        self._hidden = []
        self.setToolTip("")
        self.messageChanged.emit("")

    def _normal_widgets(self) -> list:
        """The widgets added with ``addWidget`` (not the permanent ones on the right), but the message's own."""
        return [w for w in self._normal if w is not self.message_label]

    def addWidget(self, widget, stretch: int = 0) -> None:        # noqa: N802 (Qt's name)
        self._normal.append(widget)
        super().addWidget(widget, stretch)
