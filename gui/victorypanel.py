"""The victory dock: each victory condition's standing now, as the ruleset judges it, refreshed after every action."""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QCheckBox, QDockWidget, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget


class VictoryDock(QDockWidget):
    """One row per victory condition (name, rule, who holds it now, in words), its figures underneath."""

    show_line = Signal(list)          # hex ids of a condition's line to draw on the map ([] to hide it)

    def __init__(self, parent=None):
        super().__init__("Victory", parent)
        self.setObjectName("victorydock")
        w = QWidget()
        lay = QVBoxLayout(w)
        lay.setContentsMargins(2, 2, 2, 2)
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Condition", "Rule", "Holds it now"])
        self.tree.setWordWrap(True)
        self.tree.setRootIsDecorated(True)
        self.line_box = QCheckBox("Show the line on the map")
        self.line_box.setToolTip("Draw the free line the standing names (say, from the pocket to the west edge)")
        self.line_box.toggled.connect(lambda _: self._emit_line())
        lay.addWidget(self.tree)
        lay.addWidget(self.line_box)
        self.setWidget(w)
        self.setAllowedAreas(Qt.LeftDockWidgetArea | Qt.RightDockWidgetArea | Qt.BottomDockWidgetArea)
        self.standings: list = []
        self.show_standings([])

    def show_standings(self, standings: list, note: str = "") -> None:
        """Show the ruleset's standings (``name``, ``rule``, ``leader``, ``summary``, ``figures``, ``hexes``)."""
        self.standings = list(standings)
        expanded = {self.tree.topLevelItem(i).text(0) for i in range(self.tree.topLevelItemCount())
                    if self.tree.topLevelItem(i).isExpanded()}
        self.tree.clear()
        if not self.standings:
            self.tree.addTopLevelItem(QTreeWidgetItem([note or "No victory conditions to show", "", ""]))
        for s in self.standings:
            top = QTreeWidgetItem([s.name, s.rule, s.leader or "nobody"])
            top.setToolTip(0, s.summary)
            QTreeWidgetItem(top, [s.summary, "", ""]).setFirstColumnSpanned(True)
            for label, value in s.figures:
                QTreeWidgetItem(top, [label, "", value])
            self.tree.addTopLevelItem(top)
            top.setExpanded(s.name in expanded or not expanded)
        if note and self.standings:
            self.tree.addTopLevelItem(QTreeWidgetItem([note, "", ""]))
        self.tree.resizeColumnToContents(1)
        self.line_box.setEnabled(any(s.hexes for s in self.standings))
        self._emit_line()

    def line(self) -> list[str]:
        """Hex ids of the first standing that names a line (empty if none)."""
        return next((list(s.hexes) for s in self.standings if s.hexes), [])

    def rows(self) -> list[tuple[str, str, str]]:
        """(condition, rule, holder) of every row shown."""
        out = []
        for i in range(self.tree.topLevelItemCount()):
            it = self.tree.topLevelItem(i)
            out.append((it.text(0), it.text(1), it.text(2)))
        return out

    def _emit_line(self) -> None:
        self.show_line.emit(self.line() if self.line_box.isChecked() else [])
