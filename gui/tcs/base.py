"""The base of the TCS docks of the play window: a titled column of widgets, scrolled up and down when it may be taller
than its dock.

Each dock shows what the engine's queries say and asks for actions in their text form through ``act``; which of them
are legal now is the engine's ``legal_actions``, and a refusal comes back from the engine with its rule.  No rule
lives in the docks.
"""
from __future__ import annotations

from PySide6.QtWidgets import QDockWidget, QScrollArea, QVBoxLayout, QWidget


class ColumnScroll(QScrollArea):
    """A dock's column scrolled up and down.  Focus passed on (a button disabled by its own click hands the focus to
    the next widget, as Implement does) scrolls only vertically: the column keeps its left edge in view when it is
    wider than a narrow dock, instead of sliding sideways to the widget focused."""

    def focusNextPrevChild(self, next_: bool) -> bool:     # noqa: N802 (Qt's name)
        bar = self.horizontalScrollBar()
        x = bar.value()
        moved = super().focusNextPrevChild(next_)
        bar.setValue(x)
        return moved


class TcsDock(QDockWidget):
    """A dock of the TCS play window: a titled column of widgets, found by its object name in a saved layout."""

    def __init__(self, title: str, name: str, parent=None):
        super().__init__(title, parent)
        self.setObjectName(name)
        self._body = QWidget()
        self.column = QVBoxLayout(self._body)
        self.column.setContentsMargins(6, 4, 6, 4)

    def show_column(self, scrolled: bool = False) -> None:
        """Put the column in the dock (once it is filled), in a scroll area if it may be taller than the dock."""
        if not scrolled:
            self.setWidget(self._body)
            return
        scroll = ColumnScroll()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self._body)
        self.setWidget(scroll)
        self.scroll = scroll
