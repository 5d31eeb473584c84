"""The victory dock: each victory condition's standing now, as the ruleset judges it, refreshed after every action."""
from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QCheckBox, QDockWidget, QTextBrowser, QVBoxLayout, QWidget

SIDE_INK = {"german": "#3b5470", "soviet": "#8a3a1c"}


class VictoryDock(QDockWidget):
    """Each victory condition: its name and rule, who holds it now, one line in words, and its figures."""

    show_line = Signal(list)          # hex ids of a condition's line to draw on the map ([] to hide it)

    def __init__(self, parent=None):
        super().__init__("Victory", parent)
        self.setObjectName("victorydock")
        w = QWidget()
        lay = QVBoxLayout(w)
        lay.setContentsMargins(2, 2, 2, 2)
        self.view = QTextBrowser()
        self.view.setOpenLinks(False)
        self.line_box = QCheckBox("Show the line on the map")
        self.line_box.setToolTip("Draw the free line the standing names (say, from the pocket to the west edge)")
        self.line_box.toggled.connect(lambda _: self._emit_line())
        lay.addWidget(self.view)
        lay.addWidget(self.line_box)
        self.setWidget(w)
        self.setAllowedAreas(Qt.LeftDockWidgetArea | Qt.RightDockWidgetArea | Qt.BottomDockWidgetArea)
        self.standings: list = []
        self.note = ""
        self.side_names: dict[str, str] = {}      # side id -> the scenario's name for it ("soviet" -> "Soviet")
        self.show_standings([])

    def show_standings(self, standings: list, note: str = "") -> None:
        """Show the ruleset's standings (``name``, ``rule``, ``leader``, ``summary``, ``figures``, ``hexes``)."""
        self.standings, self.note = list(standings), note
        parts = []
        if note:
            parts.append(f"<p><i>{escape(note)}</i></p>")
        if not self.standings:
            parts.append("<p>No victory conditions to show.</p>")
        for s in self.standings:
            who = s.leader or "nobody"
            ink = SIDE_INK.get(who, "#444444")
            rule = f" <span style='color:#666'>({escape(s.rule)})</span>" if s.rule else ""
            parts.append(f"<p style='margin-bottom:2px'><b>{escape(s.name)}</b>{rule}<br>"
                         f"<b style='color:{ink}'>{escape(self.side_names.get(who, who))}</b> holds it now</p>")
            parts.append(f"<p style='margin-top:0'>{escape(s.summary)}</p>")
            rows = "".join(f"<tr><td>{escape(label)}</td><td align='right'><b>{escape(value)}</b></td></tr>"
                           for label, value in s.figures if label != "line")
            if rows:
                parts.append(f"<table cellspacing='0' cellpadding='1' width='100%'>{rows}</table>")
            line = dict(s.figures).get("line")
            if line:
                parts.append(f"<p style='margin-top:2px'>Line: {escape(line)}</p>")
            parts.append("<hr>")
        self.view.setHtml("".join(parts))
        self.line_box.setEnabled(any(s.hexes for s in self.standings))
        self._emit_line()

    def text(self) -> str:
        """What the dock shows, as plain text."""
        return self.view.toPlainText()

    def rows(self) -> list[tuple[str, str, str]]:
        """(condition, rule, holder) of every condition shown."""
        return [(s.name, s.rule, s.leader or "nobody") for s in self.standings]

    def line(self) -> list[str]:
        """Hex ids of the first standing that names a line (empty if none)."""
        return next((list(s.hexes) for s in self.standings if s.hexes), [])

    def _emit_line(self) -> None:
        self.show_line.emit(self.line() if self.line_box.isChecked() else [])
