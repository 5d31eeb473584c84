"""The Prep Log editor (Black Wednesday 2.4, 1.10b): the Soviet player's Preparatory Barrage Log, a target hex
for each battalion on each turn of the Program, filled before the Axis sets up.

The grid has a row a turn and a column a battalion.  Katyusha boxes exist only on the turns the printed Log
gives them (the others are greyed out); every gun battalion needs a target every turn.  The engine checks the
Log (``PrepLog.problems``: hex ids on the map, Katyusha turns, idle guns) and the list under the grid says
what is wrong; Save writes the Log file only when it is right.  A scenario fires a Log file named by its
``prep_log`` option.  Once a game has begun the Log is shown read-only (2.4: it cannot be changed).

Run alone: ``python -m gui.tcs.preplog [LOG.toml]`` edits a copy of the historical Log (or LOG.toml).
"""
from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (QApplication, QDialog, QDialogButtonBox, QFileDialog, QHBoxLayout, QLabel,
                               QListWidget, QMessageBox, QPushButton, QTableWidget, QTableWidgetItem, QVBoxLayout)

from engine.content import maps
from engine.errors import SandtableError
from engine.maps.mapfile import load_map
from engine.rulesets.tcs.games.bw_prep import FILE, PrepLog, load_prep_log

GREY = QBrush(QColor(200, 200, 200))


class PrepLogEditor(QDialog):
    """Edit a Prep Log; ``log()`` is the Log as it stands, ``problems()`` what breaks BW 2.4 in it."""

    def __init__(self, log: PrepLog | None = None, board=None, read_only: bool = False, path: str | Path = "",
                 parent=None, for_game: bool = False):
        super().__init__(parent)
        self.for_game = for_game           # a new game's Log (BW 1.10b): "Start with this Log" hands it to the game
        self.setWindowTitle("Preparatory Barrage Log (BW 2.4)" + (" — fixed once play begins" if read_only else ""))
        self.historical = load_prep_log()
        self._log = log or self.historical
        self.board = board if board is not None else load_map(maps() / "black-wednesday.toml")
        self.read_only = read_only
        self.path = str(path)
        self.turns = list(self.historical.turns)
        self.bats = [b for b, _c in self._log.battalions]
        lay = QVBoxLayout(self)
        lay.addWidget(QLabel("A target hex for each battalion on each turn of the Program.  Katyushas fire only "
                             "on the turns shown; every gun battalion fires every turn (BW 2.4)."))
        self.grid = QTableWidget(len(self.turns), len(self.bats))
        self.grid.setHorizontalHeaderLabels([b.replace(" ", "\n", 1) for b in self.bats])
        self.grid.setVerticalHeaderLabels(self.turns)
        self._fill()
        self.grid.itemChanged.connect(self._changed)
        lay.addWidget(self.grid)
        self.problem_list = QListWidget()
        self.problem_list.setMaximumHeight(110)
        lay.addWidget(self.problem_list)
        row = QHBoxLayout()
        self.historical_button = QPushButton("Historical targets")
        self.historical_button.clicked.connect(self.use_historical)
        row.addWidget(self.historical_button)
        row.addStretch(1)
        self.buttons = QDialogButtonBox(QDialogButtonBox.Save | QDialogButtonBox.Close)
        self.buttons.button(QDialogButtonBox.Save).clicked.connect(self._save_clicked)
        self.buttons.rejected.connect(self.reject)
        self.start_button = None
        if for_game:
            self.start_button = self.buttons.addButton("Start with this Log", QDialogButtonBox.AcceptRole)
            self.buttons.accepted.connect(self.accept)
            self.setWindowTitle("Preparatory Barrage Log (BW 1.10b, 2.4) — the Soviet player fills it before "
                                "the Axis sets up")
        row.addWidget(self.buttons)
        lay.addLayout(row)
        if read_only:
            self.grid.setEditTriggers(QTableWidget.NoEditTriggers)
            self.historical_button.setEnabled(False)
            self.buttons.button(QDialogButtonBox.Save).setEnabled(False)
        self.resize(1180, 520)
        self._show_problems()

    # ------------------------------------------------------------ the grid
    def _fill(self) -> None:
        self.grid.blockSignals(True)
        allowed = set(self.historical.allowed_katyusha_turns())
        for r, t in enumerate(self.turns):
            for c, b in enumerate(self.bats):
                item = QTableWidgetItem(self._log.target(t, b))
                item.setTextAlignment(Qt.AlignCenter)
                if self._log.calibre(b) == "katyusha" and t not in allowed:
                    item.setFlags(Qt.ItemIsSelectable)           # no Katyusha mission this turn (BW 2.4)
                    item.setBackground(GREY)
                    item.setText("—")
                self.grid.setItem(r, c, item)
        self.grid.blockSignals(False)
        self.grid.resizeColumnsToContents()

    def _changed(self, item: QTableWidgetItem) -> None:
        text = item.text().strip().upper()
        t, b = self.turns[item.row()], self.bats[item.column()]
        self._log = self._log.with_target(t, b, text)
        self._show_problems()

    def set_target(self, turn: str, battalion: str, hex_id: str) -> None:
        """Type a target into a box (as the player does)."""
        self.grid.item(self.turns.index(turn), self.bats.index(battalion)).setText(hex_id)

    def use_historical(self) -> None:
        keep = self.bats
        self._log = self.historical.only(keep)
        self._fill()
        self._show_problems()

    # ------------------------------------------------------------ checking and saving
    def log(self) -> PrepLog:
        return self._log

    def problems(self) -> list[str]:
        return self._log.problems(self.board)

    def _show_problems(self) -> None:
        bad = self.problems()
        self.problem_list.clear()
        self.problem_list.addItems(bad or ["The Log is complete: every gun battalion has a target each turn."])
        if not self.read_only:
            self.buttons.button(QDialogButtonBox.Save).setEnabled(not bad)
        if self.start_button is not None:
            self.start_button.setEnabled(not bad)

    def save(self, path: str | Path) -> bool:
        """Write the Log (atomically) if BW 2.4 allows it; False, with the reasons shown, if not."""
        if self.problems():
            return False
        self._log.save(path)
        self.path = str(path)
        return True

    def _save_clicked(self) -> None:
        path = self.path
        if not path:
            path, _f = QFileDialog.getSaveFileName(self, "Save the Prep Log", "prep-log.toml", "Prep Log (*.toml)")
            if not path:
                return
        try:
            self.save(path)
        except (OSError, SandtableError) as e:
            QMessageBox.warning(self, "Prep Log not saved", f"{path}: {e}")


def main(argv: list[str]) -> int:
    app = QApplication.instance() or QApplication(argv[:1])
    path = Path(argv[1]) if len(argv) > 1 else None
    try:
        log = load_prep_log(path or FILE)
    except (OSError, SandtableError) as e:
        print(f"{path}: {e}", file=sys.stderr)
        return 2
    dlg = PrepLogEditor(log, path=path or "")
    dlg.show()
    return app.exec()


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
