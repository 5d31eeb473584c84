"""The scenario page: identity, ruleset and map, turns and their names, first side, sides, special rules."""
from __future__ import annotations

import dataclasses
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox, QFormLayout, QGroupBox, QHBoxLayout, QLabel, QLineEdit, QListWidget, QListWidgetItem, QPlainTextEdit,
    QPushButton, QSizePolicy, QSpinBox, QVBoxLayout, QWidget,
)

from engine.scenario import edit as E
from engine.scenario import Side


PLAY_AREA_COLOUR = "#3070c0"


class ScenarioPage(QWidget):
    """The head of a scenario file; "Apply" sends every field to the window's ``edit``.

    What the user typed and has not applied yet survives every rebuild of the page (another
    side added, a unit changed elsewhere): a field is refreshed from the scenario only while
    it still shows what the scenario said.
    """

    def __init__(self, window):
        super().__init__()
        self.window = window
        self._shown: dict[int, object] = {}         # id(widget) -> the scenario's value it was last given
        self.s_id = QLineEdit()
        self.s_name = QLineEdit()
        self.s_ruleset = QComboBox()            # the installed rulesets: a list to choose from, not a name to type
        self.s_ruleset.setToolTip("The rules the scenario is played with; the sides they play are shown below")
        self.s_ruleset.currentTextChanged.connect(lambda _t: self._show_ruleset_sides())
        self.rules_file_button = QPushButton("Rules file…", clicked=lambda: self.choose_rules_file())
        self.rules_file_button.setToolTip("Play a ruleset configured by data (classic, free) with the rules of a "
                                          "shared rules file, like rules/demyansk-classic.toml")
        self.own_rules_button = QPushButton("Own rules", clicked=lambda: self.use_own_rules())
        self.own_rules_button.setToolTip("Forget the rules file: the scenario's own [rules] (or the defaults) apply")
        self.rules_file_label = QLabel()
        self.rules_file_label.setWordWrap(True)
        ruleset_row = QHBoxLayout()
        ruleset_row.addWidget(self.s_ruleset, 1)
        ruleset_row.addWidget(self.rules_file_button)
        ruleset_row.addWidget(self.own_rules_button)
        self.ruleset_sides = QLabel()
        self.ruleset_sides.setWordWrap(True)
        self.side_problem = QLabel()
        self.side_problem.setWordWrap(True)
        self.side_problem.setStyleSheet("color: #b00020")
        for label in (self.ruleset_sides, self.side_problem, self.rules_file_label):
            label.setSizePolicy(QSizePolicy.Preferred, QSizePolicy.Maximum)
        self.side_map_box = QGroupBox("The scenario's sides as the ruleset's sides")
        box = QVBoxLayout(self.side_map_box)
        self.side_map_holder = QWidget()
        box.addWidget(self.side_map_holder)
        self.side_map: dict[str, QComboBox] = {}
        self.map_sides_button = QPushButton("Use this ruleset with these sides", clicked=lambda: self.map_sides())
        box.addWidget(self.map_sides_button)
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
        for label, w in (("id", self.s_id), ("name", self.s_name), ("ruleset", ruleset_row),
                         ("", self.rules_file_label), ("", self.ruleset_sides), ("", self.side_problem), ("", self.side_map_box), ("map", self.s_map),
                         ("first and last turn", turns), ("turn names", self.names), ("first side", self.first_side),
                         ("sides (tick: set up by the player)", self.sides), ("", side_row),
                         ("map area in play", play_row), ("special rules", self.special)):
            if isinstance(w, QHBoxLayout):
                form.addRow(label, w)
            else:
                form.addRow(label, w)
        form.addRow(QPushButton("Apply", clicked=self.apply))

    def forget_typing(self) -> None:
        """Another scenario (or the fields just applied): every field shows the scenario again."""
        self._shown.clear()

    def _put(self, w, value) -> None:
        """Show the scenario's ``value`` in ``w`` unless the user typed something else there, not yet applied."""
        if id(w) in self._shown and _value(w) != self._shown[id(w)]:
            return
        _set(w, value)
        self._shown[id(w)] = value

    def refresh(self) -> None:
        s = self.window.scenario
        self._fill_rulesets(s.ruleset)
        self._put(self.s_id, s.id)
        self._put(self.s_name, s.name)
        self._put(self.s_ruleset, s.ruleset)
        self.s_map.setText(s.map_path or s.map)
        self._put(self.first, s.first_turn)
        self._put(self.last, s.last_turn)
        self._put(self.names, "\n".join(s.turn_names))
        typed_first = self.first_side.currentText()
        keep_first = id(self.first_side) in self._shown and typed_first != self._shown[id(self.first_side)]
        self.first_side.clear()
        self.first_side.addItems(list(s.sides))
        self.first_side.setCurrentText(typed_first if keep_first and typed_first in s.sides else s.first_side)
        if not keep_first:
            self._shown[id(self.first_side)] = s.first_side
        typed_checks = {self.sides.item(i).data(Qt.UserRole): self.sides.item(i).checkState() == Qt.Checked
                        for i in range(self.sides.count())}
        shown_checks = self._shown.get(id(self.sides), {})
        self.sides.clear()
        for x in s.sides.values():
            item = QListWidgetItem(f"{x.id}: {x.name} {x.colour}")
            item.setData(Qt.UserRole, x.id)
            item.setFlags(item.flags() | Qt.ItemIsUserCheckable)
            ticked = x.player_setup
            if x.id in typed_checks and x.id in shown_checks and typed_checks[x.id] != shown_checks[x.id]:
                ticked = typed_checks[x.id]                 # ticked or unticked by the user, not applied yet
            item.setCheckState(Qt.Checked if ticked else Qt.Unchecked)
            self.sides.addItem(item)
        self._shown[id(self.sides)] = {x.id: x.player_setup for x in s.sides.values()}
        self._put(self.play_area, s.play_area)
        self._put(self.play_rule, s.play_area_rule)
        self._put(self.special, "\n".join(f"{k} = {_toml_value(v)}" for k, v in s.special_rules.items()))
        self._show_ruleset_sides()

    # ------------------------------------------------------------ the ruleset and its sides
    def _fill_rulesets(self, current: str) -> None:
        names = [r.name for r in E.installed_rulesets()]
        if current not in names:
            names.append(current)           # the scenario's own word, shown as it is (Check says what is wrong)
        have = [self.s_ruleset.itemText(i) for i in range(self.s_ruleset.count())]
        if have != names:
            typed = self.s_ruleset.currentText()
            self.s_ruleset.blockSignals(True)
            self.s_ruleset.clear()
            self.s_ruleset.addItems(names)
            self.s_ruleset.setCurrentText(typed)
            self.s_ruleset.blockSignals(False)

    def _show_ruleset_sides(self) -> None:
        """The sides the chosen ruleset plays, and a choice of which of them each scenario side becomes."""
        s = self.window.scenario
        if s is None:
            return
        name = self.s_ruleset.currentText().strip()
        self._show_rules_file(s, name)
        info = next((r for r in E.installed_rulesets() if r.name == name), None)
        want = info.sides if info is not None else None
        if info is None:
            self.ruleset_sides.setText(f"no ruleset called {name!r} is installed "
                                       f"(installed: {', '.join(r.name for r in E.installed_rulesets())})")
        elif want is None:
            self.ruleset_sides.setText(f"{info.title} — plays any sides")
        else:
            self.ruleset_sides.setText(f"{info.title} — plays the sides: " + ", ".join(
                f"{x} ({info.side_names.get(x, x)})" for x in want))
        layout = self.side_map_box.layout()
        old_holder = self.side_map_holder
        self.side_map_holder = QWidget()
        layout.replaceWidget(old_holder, self.side_map_holder)
        old_holder.deleteLater()
        form = QFormLayout(self.side_map_holder)
        form.setContentsMargins(0, 0, 0, 0)
        self.side_map = {}
        fits = want is None or set(s.sides) == set(want)
        problem = None if fits and name == s.ruleset else (
            E.side_problem(dataclasses.replace(s, ruleset=name)) if want is not None else None)
        if want is not None and not s.sides:
            problem = f"add the sides the ruleset plays: {', '.join(want)}"
        self.side_problem.setText(problem or "")
        self.side_problem.setVisible(bool(problem))
        self.side_map_box.setVisible(want is not None and not fits and bool(s.sides))
        if want is None or fits or not s.sides:
            return
        guess = E.suggest_side_map(s, name)
        for sid, side in s.sides.items():
            combo = QComboBox()
            combo.addItems(["(choose)"] + list(want))
            if guess.get(sid):
                combo.setCurrentText(guess[sid])
            self.side_map[sid] = combo
            form.addRow(f"{sid} ({side.name}) becomes", combo)

    def _show_rules_file(self, s, name: str) -> None:
        """The rules file the scenario names, and the buttons that choose one, for a ruleset that takes one."""
        takes = E.takes_rules_file(name)
        self.rules_file_button.setEnabled(takes)
        path = E.rules_file(s)
        self.own_rules_button.setEnabled(path is not None)
        if path is not None:
            self.rules_file_label.setText(f"rules from the file {path.name} ({path.parent})")
        elif takes:
            self.rules_file_label.setText("the scenario's own rules (Rules page), or a shared rules file (Rules file…)")
        else:
            self.rules_file_label.setText("")
        self.rules_file_label.setVisible(bool(self.rules_file_label.text()))

    def choose_rules_file(self, path: str | None = None) -> bool:
        """Play the chosen ruleset with the rules of a file (asked for with a file dialog when not given)."""
        from PySide6.QtWidgets import QFileDialog

        name = self.s_ruleset.currentText().strip()
        if not E.takes_rules_file(name):
            self.window.say(f"the ruleset {name!r} takes no rules file: choose classic or free first")
            return False
        if path is None:
            from engine import content

            shipped = content.scenarios() / "rules"         # the rules files the program comes with
            s = self.window.scenario
            start = E.rules_file(s) or (shipped if shipped.is_dir() else Path(s.map_path or ".").parent)
            path, _ = QFileDialog.getOpenFileName(self, "The rules file", str(start), "Rules (*.toml)")
            if not path:
                return False

        def do(s):
            if s.ruleset != name:
                s = E.set_ruleset(s, name)
            return E.set_rules_file(s, path)

        self._shown.pop(id(self.s_ruleset), None)
        return self.window.edit(do, f"rules file {Path(path).name}")

    def use_own_rules(self) -> bool:
        """Forget the rules file: the scenario's own [rules] apply again."""
        return self.window.edit(lambda s: E.set_rules_file(s, None), "the scenario's own rules")

    def map_sides(self) -> bool:
        """Play the scenario under the chosen ruleset, its sides renamed as chosen (refused in words)."""
        name = self.s_ruleset.currentText().strip()
        chosen = {sid: c.currentText() for sid, c in self.side_map.items()}
        if any(v == "(choose)" for v in chosen.values()):
            self.window.say("choose which of the ruleset's sides each side of the scenario becomes")
            return False
        self._shown.pop(id(self.s_ruleset), None)
        return self.window.edit(lambda s: E.set_ruleset(s, name, chosen),
                                f"ruleset {name}: " + ", ".join(f"{k} is {v}" for k, v in chosen.items()))

    def apply(self) -> None:
        names = [x.strip() for x in self.names.toPlainText().splitlines() if x.strip()]
        try:
            special = _parse_special(self.special.toPlainText())
        except ValueError as e:
            self.window.say(f"special rules: {e}")
            return

        player = {self.sides.item(i).data(Qt.UserRole): self.sides.item(i).checkState() == Qt.Checked
                  for i in range(self.sides.count())}

        ruleset = self.s_ruleset.currentText().strip()
        was = self.window.scenario
        left = (was is not None and ruleset != was.ruleset and isinstance(was.rules, dict) and bool(was.rules))

        def do(s):
            s = E.with_ruleset(s, ruleset)        # the old ruleset's own rules table stays behind
            s = dataclasses.replace(s, id=self.s_id.text().strip(), name=self.s_name.text().strip(),
                                    first_side=self.first_side.currentText(),
                                    special_rules=special)
            for side, on in player.items():
                if side in s.sides:
                    s = E.set_player_setup(s, side, on)
            s = E.set_play_area(s, self.play_area.text(), self.play_rule.text())
            return E.set_turns(s, self.first.value(), self.last.value(), names)

        self.forget_typing()          # applied: the fields show the scenario as it now is
        self.window.edit(do, f"scenario: ruleset {ruleset}; the {was.ruleset} rules' own table "
                             f"({', '.join(was.rules)}) left behind (Edit > Undo brings it back)" if left else "scenario")

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
        hexes = self.window.area_hexes(text)
        if hexes is None:
            return
        self.window.areas.show("play", hexes, PLAY_AREA_COLOUR)
        self.window.say(f"map area in play: {len(hexes)} hexes")

    def add_side(self) -> None:
        sid, name, colour = (w.text().strip() for w in self.new_side)
        if not sid:
            self.window.say("A side needs an id")
            return
        if self.window.edit(lambda s: dataclasses.replace(s, sides={**s.sides, sid: Side(sid, name or sid, colour)}),
                            f"side {sid}"):
            self.new_side[0].clear()
            self.new_side[1].clear()


def _value(w):
    """What a field of the page shows now."""
    if isinstance(w, QSpinBox):
        return w.value()
    if isinstance(w, QComboBox):
        return w.currentText()
    if isinstance(w, QPlainTextEdit):
        return w.toPlainText()
    return w.text()


def _set(w, value) -> None:
    if isinstance(w, QSpinBox):
        w.setValue(value)
    elif isinstance(w, QComboBox):
        w.setCurrentText(value)
    elif isinstance(w, QPlainTextEdit):
        w.setPlainText(value)
    else:
        w.setText(value)


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
