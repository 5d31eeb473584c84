"""The Rules page of the scenario editor: the classic rules' terrain effects chart, CRT and zones of control as
grids and a form, written back to the scenario's inline [rules] (Check explains what the rules cannot use)."""
from __future__ import annotations

import dataclasses

from PySide6.QtWidgets import (
    QCheckBox, QComboBox, QFormLayout, QLabel, QLineEdit, QPushButton, QSpinBox, QTableWidget, QTableWidgetItem,
    QTabWidget, QVBoxLayout, QWidget,
)

from engine.rulesets.classic import edit as R
from engine.rulesets.classic.config import LEAVE

PROHIBITED = "P"           # a TEC cell: the class may not enter


class RulesPage(QWidget):
    """Three tabs: Terrain (the TEC grid), CRT (the results grid) and ZOC (a form)."""

    def __init__(self, editor):
        super().__init__()
        self.editor = editor
        col = QVBoxLayout(self)
        self.note = QLabel()
        self.note.setWordWrap(True)
        col.addWidget(self.note)
        self.tabs = QTabWidget()
        col.addWidget(self.tabs, 1)
        self.tec = QTableWidget()
        self.tec.setToolTip(f"MP to enter for each movement class ({PROHIBITED}: prohibited), the defence "
                            "multiplier and the column shift")
        self.crt = QTableWidget()
        self.crt.setToolTip("One row per roll; each cell a result defined in [results]")
        zoc = QWidget()
        form = QFormLayout(zoc)
        self.z_stop = QCheckBox("a unit entering an enemy zone of control stops")
        self.z_leave = QComboBox()
        self.z_leave.addItems(list(LEAVE))
        self.z_cost = QSpinBox(maximum=99)
        self.z_another = QCheckBox("may enter another zone the same phase after leaving one")
        self.z_direct = QCheckBox("may step straight from one enemy zone into another")
        self.z_rule = QLineEdit()
        form.addRow(self.z_stop)
        form.addRow("leaving", self.z_leave)
        form.addRow("leave cost (MP)", self.z_cost)
        form.addRow(self.z_another)
        form.addRow(self.z_direct)
        form.addRow("rule", self.z_rule)
        for w, name in ((self.tec, "Terrain"), (self.crt, "CRT"), (zoc, "ZOC")):
            self.tabs.addTab(w, name)
        self.apply_btn = QPushButton("Apply the tables", clicked=self.apply)
        col.addWidget(self.apply_btn)

    # ------------------------------------------------------------ showing
    def editable(self) -> bool:
        s = self.editor.scenario
        return s is not None and s.ruleset == "classic" and isinstance(s.rules, dict) and not s.rules.get("file")

    def refresh(self) -> None:
        s, board = self.editor.scenario, self.editor.board
        on = self.editable() and board is not None
        self.tabs.setEnabled(on)
        self.apply_btn.setEnabled(on)
        if s is None or not on:
            self.note.setText("The classic rules' tables are edited here; this scenario's ruleset is "
                              f"{s.ruleset!r}" + (" and its rules are in a shared file" if s and s.rules else "")
                              if s is not None else "")
            return
        note = "Edit the tables and apply them; Check says what the rules cannot use."
        if not board.terrain:       # an imported map, say: the chart has one row, and every hex plays as clear
            note += (" This map has no terrain painted, so every hex plays as clear: paint it in the play window's "
                     "Map editor > Edit this map (its terrain palette), and each terrain gets its row here.")
        self.note.setText(note)
        rules = s.rules
        classes = R.classes(rules)
        rows = R.tec_rows(rules, board)
        self.tec.setColumnCount(len(classes) + 2)
        self.tec.setHorizontalHeaderLabels([f"MP {c}" for c in classes] + ["defence x", "shift"])
        self.tec.setRowCount(len(rows))
        self.tec.setVerticalHeaderLabels([r.terrain for r in rows])
        for i, r in enumerate(rows):
            for j, c in enumerate(classes):
                v = r.mp[c]
                self.tec.setItem(i, j, QTableWidgetItem(PROHIBITED if v is None else f"{v:g}"))
            self.tec.setItem(i, len(classes), QTableWidgetItem(f"{r.defense:g}"))
            self.tec.setItem(i, len(classes) + 1, QTableWidgetItem(str(r.shift)))
        columns, crt_rows, first = R.crt_grid(rules)
        self.crt.setColumnCount(len(columns))
        self.crt.setHorizontalHeaderLabels(columns)
        self.crt.setRowCount(len(crt_rows))
        self.crt.setVerticalHeaderLabels([str(first + i) for i in range(len(crt_rows))])
        for i, row in enumerate(crt_rows):
            for j, cell in enumerate(row):
                self.crt.setItem(i, j, QTableWidgetItem(cell))
        self.tec.resizeColumnsToContents()
        self.crt.resizeColumnsToContents()
        z = R.zoc_form(rules)
        self.z_stop.setChecked(bool(z["stop"]))
        self.z_leave.setCurrentText(str(z["leave"]))
        self.z_cost.setValue(int(z["leave_cost"]) if isinstance(z["leave_cost"], int) else 0)
        self.z_another.setChecked(bool(z["enter_another"]))
        self.z_direct.setChecked(bool(z["zoc_to_zoc"]))
        self.z_rule.setText(str(z["rule"]))

    # ------------------------------------------------------------ writing back
    def _text(self, table: QTableWidget, i: int, j: int) -> str:
        item = table.item(i, j)
        return item.text().strip() if item is not None else ""

    def tables(self) -> dict:
        """The scenario's rules with the grids and the form as they are now (ValueError naming a bad cell)."""
        s, board = self.editor.scenario, self.editor.board
        rules = s.rules
        classes = R.classes(rules)
        rows = []
        for i in range(self.tec.rowCount()):
            name = self.tec.verticalHeaderItem(i).text()
            mp = {}
            for j, c in enumerate(classes):
                text = self._text(self.tec, i, j)
                mp[c] = None if text.upper() == PROHIBITED else _number(text, f"{name}, MP {c}")
            rows.append(R.TecRow(name, mp, _number(self._text(self.tec, i, len(classes)), f"{name}, defence"),
                                 int(_number(self._text(self.tec, i, len(classes) + 1), f"{name}, shift"))))
        rules = R.set_tec(rules, rows)
        columns = [self.crt.horizontalHeaderItem(j).text() for j in range(self.crt.columnCount())]
        crt = [[self._text(self.crt, i, j) for j in range(self.crt.columnCount())] for i in range(self.crt.rowCount())]
        rules = R.set_crt(rules, columns, crt)
        return R.set_zoc(rules, {"stop": self.z_stop.isChecked(), "leave": self.z_leave.currentText(),
                                 "leave_cost": self.z_cost.value(), "enter_another": self.z_another.isChecked(),
                                 "zoc_to_zoc": self.z_direct.isChecked(), "rule": self.z_rule.text().strip()})

    def apply(self) -> bool:
        if not self.editable():
            return False
        try:
            rules = self.tables()
        except ValueError as e:
            self.editor.say(f"the rules tables: {e}")
            return False
        ok = self.editor.edit(lambda s: dataclasses.replace(s, rules=rules), "the rules tables applied")
        if ok:
            self.editor.check()
        return ok


def _number(text: str, where: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"{where}: {text!r} is not a number") from None


def attach_rules_page(editor) -> RulesPage:
    """Add the Rules page to the scenario editor (after "Check and play")."""
    editor.rules_page = RulesPage(editor)
    editor.tabs.addTab(editor.rules_page, "Rules")
    return editor.rules_page
