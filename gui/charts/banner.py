"""A banner above the map for the owner's chart book: cells set aside, a file that could not be read, copies kept.

Shown where the player looks (a bar at the top of the play window), with the file
and the first cell; "Details…" lists every problem, "Printed values…" opens the form
where a set-aside value can be used for this game or discarded.
"""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QPushButton, QSizePolicy, QToolBar

from .shelf import problems_text


class BookBanner(QToolBar):
    """The owner's chart book's problems, shown until dismissed (again when they change)."""

    def __init__(self, window):
        super().__init__("Chart book", window)
        self.setObjectName("chartbookbanner")
        self.setMovable(False)
        self.setFloatable(False)
        self.setStyleSheet("QToolBar { background: #fff1c4; border: 1px solid #d8b040; }")
        self.text = QLabel()
        self.text.setTextFormat(Qt.PlainText)
        self.text.setWordWrap(True)
        self.text.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Preferred)
        self.details_btn = QPushButton("Details…")
        self.values_btn = QPushButton("Printed values…")
        self.values_btn.setToolTip("Use a set-aside value for this game, or discard it, in the printed values form")
        self.hide_btn = QPushButton("Hide")
        self.addWidget(self.text)
        self.addWidget(self.details_btn)
        self.values_act = self.addWidget(self.values_btn)      # a toolbar's widget is shown or hidden by its action
        self.addWidget(self.hide_btn)
        self.window_ = window
        self.full = ""
        self._dismissed = ""
        window.addToolBarBreak(Qt.TopToolBarArea)
        window.addToolBar(Qt.TopToolBarArea, self)
        self.details_btn.clicked.connect(self.show_details)
        self.values_btn.clicked.connect(lambda: window.charts.open_form())
        self.hide_btn.clicked.connect(self.dismiss)
        self.hide()

    def show_book(self, book) -> str:
        """Show what is wrong with ``book`` (None: nothing); the text shown ('' when there is nothing to show)."""
        problems = list(book.problems) if book is not None else []
        notes = list(book.notes) if book is not None else []
        if not problems and not notes:
            self.full = ""
            self.hide()
            return ""
        lines = []
        if book.unreadable is not None:
            lines.append(f"Your chart book {book.path} cannot be read ({book.unreadable}). Play goes on; the values "
                         "you enter are kept, and the file is kept aside as it is when they are first saved.")
        aside = book.set_aside
        if aside:
            first = aside[0]
            lines.append(f"Your chart book {book.path}: {len(aside)} cell{'s' if len(aside) > 1 else ''} set aside "
                         f"(kept, not used), e.g. {first.where()} = {first.value!r}: {first.problem}. "
                         "Every other value is used.")
        if book.file_problems:
            lines.append(f"Your chart book {book.path}: {book.file_problems[0]}")
        lines += notes
        self.full = "\n".join(lines) + ("\n\n" + problems_text(problems) if problems else "")
        self.text.setText("\n".join(lines))
        self.values_act.setVisible(any(s.scope in ("", book.game) for s in aside))    # the form shows this game's
        if self.full != self._dismissed:
            self.show()
        return self.full

    def dismiss(self) -> None:
        self._dismissed = self.full
        self.hide()

    def show_details(self) -> None:
        from .editor import ProblemsDialog

        ProblemsDialog("Your chart book", "What was found in your chart book (nothing in it was lost):",
                       self.full, self.window_).exec()
