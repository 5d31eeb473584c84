"""The scenario page: identity, ruleset and map, turns and their names, first side, sides, special rules."""
from __future__ import annotations

import dataclasses

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox, QFormLayout, QHBoxLayout, QLineEdit, QListWidget, QListWidgetItem, QPlainTextEdit, QPushButton,
    QSpinBox, QWidget,
)

from engine.scenario import edit as E
from engine.scenario import Side


PLAY_AREA_COLOUR = "#3070c0"


class ScenarioPage(QWidget):
    """The head of a scenario file; "Apply" sends every field to the window's ``edit``."""

    def __init__(self, window):
        super().__init__()
        self.window = window
        self.s_id = QLineEdit()
        self.s_name = QLineEdit()
        self.s_ruleset = QLineEdit()
        self.s_map = QLineEdit()
        self.s_map.setReadOnly(True)
        self.first = QSpinBox(minimum=0, maximum=999)
        self.last = QSpinBox(minimum=0, maximum=999)
        self.names = QPlainTextEdit()
        self.names.setPlaceholderText("one name per turn, like 0600 Feb 10 (optional)")
        self.names.setMaximumHeight(90)
        self.first_side = QComboBox()
        self.sides = QListWidget()
        self.sides.setMaximumHeight(80)
        self.sides.setToolTip("a ticked side is set up by the player: its units start off the map, placed in their areas")
        self.play_area = QLineEdit()
        self.play_area.setPlaceholderText("the part of the map in play, like columns 1 to 20 (empty: all of it)")
        self.play_rule = QLineEdit()
        self.play_rule.setPlaceholderText("its rule, like Black Wednesday Scenario 1")
        play_row = QHBoxLayout()
        play_row.addWidget(self.play_area)
        play_row.addWidget(self.play_rule)
        play_row.addWidget(QPushButton("Show play area", clicked=self.show_play_area))
        self.new_side = [QLineEdit(), QLineEdit(), QLineEdit("#808080")]
        for w, hint in zip(self.new_side, ("id", "name", "colour")):
            w.setPlaceholderText(hint)
        side_row = QHBoxLayout()
        for w in self.new_side:
            side_row.addWidget(w)
        side_row.addWidget(QPushButton("Add side", clicked=self.add_side))
        self.special = QPlainTextEdit()
        self.special.setPlaceholderText("special rules the ruleset offers, one 'name = value' a line")
        self.special.setMaximumHeight(90)
        form = QFormLayout(self)
        turns = QHBoxLayout()
        turns.addWidget(self.first)
        turns.addWidget(self.last)
        for label, w in (("id", self.s_id), ("name", self.s_name), ("ruleset", self.s_ruleset), ("map", self.s_map),
                         ("first and last turn", turns), ("turn names", self.names), ("first side", self.first_side),
                         ("sides (tick: set up by the player)", self.sides), ("", side_row),
                         ("map area in play", play_row), ("special rules", self.special)):
            if isinstance(w, QHBoxLayout):
                form.addRow(label, w)
            else:
                form.addRow(label, w)
        form.addRow(QPushButton("Apply", clicked=self.apply))

    def refresh(self) -> None:
        s = self.window.scenario
        self.s_id.setText(s.id)
        self.s_name.setText(s.name)
        self.s_ruleset.setText(s.ruleset)
        self.s_map.setText(s.map_path or s.map)
        self.first.setValue(s.first_turn)
        self.last.setValue(s.last_turn)
        self.names.setPlainText("\n".join(s.turn_names))
        self.first_side.clear()
        self.first_side.addItems(list(s.sides))
        self.first_side.setCurrentText(s.first_side)
        self.sides.clear()
        for x in s.sides.values():
            item = QListWidgetItem(f"{x.id}: {x.name} {x.colour}")
            item.setData(Qt.UserRole, x.id)
            item.setFlags(item.flags() | Qt.ItemIsUserCheckable)
            item.setCheckState(Qt.Checked if x.player_setup else Qt.Unchecked)
            self.sides.addItem(item)
        self.play_area.setText(s.play_area)
        self.play_rule.setText(s.play_area_rule)
        self.special.setPlainText("\n".join(f"{k} = {_toml_value(v)}" for k, v in s.special_rules.items()))

    def apply(self) -> None:
        names = [x.strip() for x in self.names.toPlainText().splitlines() if x.strip()]
        try:
            special = _parse_special(self.special.toPlainText())
        except ValueError as e:
            self.window.say(f"special rules: {e}")
            return

        player = {self.sides.item(i).data(Qt.UserRole): self.sides.item(i).checkState() == Qt.Checked
                  for i in range(self.sides.count())}

        def do(s):
            s = dataclasses.replace(s, id=self.s_id.text().strip(), name=self.s_name.text().strip(),
                                    ruleset=self.s_ruleset.text().strip(), first_side=self.first_side.currentText(),
                                    special_rules=special)
            for side, on in player.items():
                if side in s.sides:
                    s = E.set_player_setup(s, side, on)
            s = E.set_play_area(s, self.play_area.text(), self.play_rule.text())
            return E.set_turns(s, self.first.value(), self.last.value(), names)

        self.window.edit(do, "scenario")

    def show_play_area(self) -> None:
        """Draw the map area in play as typed (the map outside it stays as it is)."""
        if self.window.board is None:
            self.window.say("Open or start a scenario first")
            return
        text = self.play_area.text().strip()
        if not text:
            self.window.areas.hide("play")
            self.window.say("The whole map is in play")
            return
        try:
            hexes = E.area_hexes(self.window.board, text)
        except ValueError as e:
            self.window.say(str(e))
            return
        self.window.areas.show("play", hexes, PLAY_AREA_COLOUR)
        self.window.say(f"map area in play: {len(hexes)} hexes")

    def add_side(self) -> None:
        sid, name, colour = (w.text().strip() for w in self.new_side)
        if not sid:
            self.window.say("A side needs an id")
            return
        self.window.edit(lambda s: dataclasses.replace(s, sides={**s.sides, sid: Side(sid, name or sid, colour)}),
                         f"side {sid}")


def _toml_value(v) -> str:
    from engine.fileio import dumps_toml

    return dumps_toml({"x": v}).split("=", 1)[1].strip()


def _parse_special(text: str) -> dict:
    """``name = value`` lines as TOML data (never code)."""
    from engine.errors import BadFile
    from engine.fileio import loads_toml

    try:
        doc = loads_toml(text, "special rules")
    except BadFile as e:
        raise ValueError("; ".join(p.message for p in e.problems)) from None
    bad = [k for k, v in doc.items() if isinstance(v, dict)]
    if bad:
        raise ValueError(f"expected plain values, found tables: {', '.join(bad)}")
    return doc
