"""The order of battle page: the organisation tree of each side, a unit's values, copy/paste and "N x"."""
from __future__ import annotations

from PySide6.QtCore import QMimeData, Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QComboBox, QFormLayout, QHBoxLayout, QLabel, QLineEdit, QPushButton, QSpinBox, QTreeWidget, QTreeWidgetItem,
    QVBoxLayout, QWidget,
)

from engine.scenario import edit as E
from engine.scenario import UNIT_SIZES, UNIT_TYPES, Unit

UNIT_MIME = "application/x-sandtable-unit"
NOT_PLACED = "not placed"


class OrgTree(QTreeWidget):
    """Side > division > regiment > unit; units drag onto the map."""

    def mimeData(self, items):
        data = QMimeData()
        ids = [i.data(0, Qt.UserRole) for i in items if i.data(0, Qt.UserRole)]
        data.setData(UNIT_MIME, "\n".join(ids).encode())
        data.setText("\n".join(ids))
        return data


class OrderOfBattlePage(QWidget):
    """Edits the units of a scenario through the window's ``edit`` (every change goes through the engine)."""

    selected = Signal(str)                 # a unit id

    def __init__(self, window):
        super().__init__()
        self.window = window
        self.clipboard: list[Unit] = []
        self.tree = OrgTree()
        self.tree.setHeaderLabels(["unit", "values", "set-up"])
        self.tree.setSelectionMode(QTreeWidget.ExtendedSelection)
        self.tree.setDragEnabled(True)
        self.tree.itemSelectionChanged.connect(self._selection)
        form = QFormLayout()
        self.f_id = QLineEdit()
        self.f_side = QComboBox()
        self.f_name = QLineEdit()
        self.f_type = QComboBox()
        self.f_type.addItems(UNIT_TYPES)
        self.f_size = QComboBox()
        self.f_size.addItems(UNIT_SIZES)
        self.f_division = QLineEdit()
        self.f_regiment = QLineEdit()
        self.f_values = [QSpinBox(maximum=99) for _ in range(3)]
        vals = QHBoxLayout()
        for s in self.f_values:
            vals.addWidget(s)
        self.f_steps = QSpinBox(minimum=1, maximum=9, value=1)
        self.f_losses = QSpinBox(minimum=0, maximum=8)
        self.f_morale = QSpinBox(minimum=0, maximum=20)
        self.f_morale.setSpecialValueText("none")
        self.f_reduced = QLineEdit()
        self.f_reduced.setPlaceholderText("back, like 2-2-5")
        steps = QHBoxLayout()
        for label, w in (("steps", self.f_steps), ("lost at start", self.f_losses), ("morale", self.f_morale),
                         ("reduced", self.f_reduced)):
            steps.addWidget(QLabel(label))
            steps.addWidget(w)
        self.f_group = QComboBox()
        for label, w in (("id", self.f_id), ("side", self.f_side), ("name", self.f_name), ("type", self.f_type),
                         ("size", self.f_size), ("division", self.f_division), ("regiment", self.f_regiment)):
            form.addRow(label, w)
        form.addRow("attack-defense-movement", vals)
        form.addRow("", steps)
        form.addRow("set-up group", self.f_group)
        buttons = QHBoxLayout()
        self.b_add = QPushButton("Add unit", clicked=self.add_from_form)
        self.b_apply = QPushButton("Apply", clicked=self.apply_form)
        self.b_copy = QPushButton("Copy", clicked=self.copy)
        self.b_paste = QPushButton("Paste", clicked=lambda: self.paste())
        self.n_times = QSpinBox(minimum=2, maximum=50, value=3)
        self.b_times = QPushButton("N x", clicked=lambda: self.multiply(self.n_times.value()))
        self.b_remove = QPushButton("Remove", clicked=self.remove)
        for b in (self.b_add, self.b_apply, self.b_copy, self.b_paste, self.n_times, self.b_times, self.b_remove):
            buttons.addWidget(b)
        lay = QVBoxLayout(self)
        lay.addWidget(self.tree, 1)
        lay.addLayout(form)
        lay.addLayout(buttons)
        from gui.charts.countervalues import CounterValuesPanel

        self.counters = CounterValuesPanel()      # the owner's counter values by unit type (the ruleset's counter slots)
        lay.addWidget(self.counters)

    # ------------------------------------------------------------ showing
    def refresh(self) -> None:
        s = self.window.scenario
        keep = set(self.selected_ids())
        self.tree.clear()
        self.f_side.clear()
        self.f_side.addItems(list(s.sides))
        self.f_group.clear()
        self.f_group.addItem("")
        self.f_group.addItems([d.id for d in s.deployments])
        arrives = {u: r.turn for r in s.reinforcements for u in r.units}
        missing = set(E.not_placed(s))
        for side in s.sides:
            root = E.org_tree(s, side)
            n = sum(1 for u in root.unit_ids() if u in missing)
            top = QTreeWidgetItem(self.tree, [s.sides[side].name + (f" ({n} not placed)" if n else "")])
            self._fill(top, root, s, arrives, keep, missing)
            top.setExpanded(True)
        self.tree.resizeColumnToContents(0)
        self.counters.show_scenario(s)

    def _fill(self, parent: QTreeWidgetItem, node, s, arrives, keep, missing=frozenset()) -> None:
        for child in node.children:
            if child.unit:
                u = s.units[child.unit]
                if u.hex:
                    where = u.hex
                elif u.id in arrives:
                    where = f"turn {arrives[u.id]}" if arrives[u.id] is not None else "arrives later"
                elif u.id in missing:
                    where = NOT_PLACED
                else:
                    where = "set up by the player"
                item = QTreeWidgetItem(parent, [u.id, u.strengths, where])
                item.setData(0, Qt.UserRole, u.id)
                item.setFlags(item.flags() | Qt.ItemIsDragEnabled)
                if where == NOT_PLACED:
                    item.setForeground(2, QBrush(QColor(176, 0, 32)))
                    item.setToolTip(2, "not on the map yet: drag it onto a hex to set it up there")
                if u.id in keep:
                    item.setSelected(True)
            else:
                label = f"{child.level} {child.name}" if child.name != E.INDEPENDENT else child.name
                item = QTreeWidgetItem(parent, [label])
                item.setFlags(item.flags() & ~Qt.ItemIsDragEnabled)
                self._fill(item, child, s, arrives, keep, missing)
                item.setExpanded(True)

    def items_by_id(self) -> dict[str, QTreeWidgetItem]:
        out = {}
        stack = [self.tree.topLevelItem(i) for i in range(self.tree.topLevelItemCount())]
        while stack:
            it = stack.pop()
            uid = it.data(0, Qt.UserRole)
            if uid:
                out[uid] = it
            stack.extend(it.child(i) for i in range(it.childCount()))
        return out

    def selected_ids(self) -> list[str]:
        """Units selected, or every unit under a selected division or regiment."""
        out: list[str] = []
        for it in self.tree.selectedItems():
            stack = [it]
            while stack:
                x = stack.pop(0)
                uid = x.data(0, Qt.UserRole)
                if uid and uid not in out:
                    out.append(uid)
                stack.extend(x.child(i) for i in range(x.childCount()))
        return out

    def select(self, ids: list[str]) -> None:
        self.tree.clearSelection()
        items = self.items_by_id()
        for uid in ids:
            if uid in items:
                items[uid].setSelected(True)

    def _selection(self) -> None:
        ids = self.selected_ids()
        if len(ids) == 1:
            self.show_unit(self.window.scenario.units[ids[0]])
            self.selected.emit(ids[0])

    def show_unit(self, u: Unit) -> None:
        self.f_id.setText(u.id)
        self.f_side.setCurrentText(u.side)
        self.f_name.setText(u.name)
        self.f_type.setCurrentText(u.type)
        self.f_size.setCurrentText(u.size)
        self.f_division.setText(u.division)
        self.f_regiment.setText(u.regiment)
        for w, v in zip(self.f_values, (u.attack, u.defense, u.movement)):
            w.setValue(v)
        self.f_steps.setValue(u.steps)
        self.f_losses.setValue(u.losses)
        self.f_morale.setValue(u.morale or 0)
        self.f_reduced.setText(u.reduced)
        dep = self.window.scenario.deployment_of().get(u.id, "")
        self.f_group.setCurrentText(dep)

    # ------------------------------------------------------------ editing
    def form_unit(self) -> Unit:
        a, d, m = (w.value() for w in self.f_values)
        return Unit(id=self.f_id.text().strip(), side=self.f_side.currentText(), type=self.f_type.currentText(),
                    size=self.f_size.currentText(), attack=a, defense=d, movement=m, name=self.f_name.text().strip(),
                    division=self.f_division.text().strip(), regiment=self.f_regiment.text().strip(),
                    steps=self.f_steps.value(), losses=self.f_losses.value(), morale=self.f_morale.value() or None,
                    reduced=self.f_reduced.text().strip() if self.f_steps.value() >= 2 else "")

    def add_from_form(self) -> None:
        u = self.form_unit()
        if not u.id:
            self.window.say("A unit needs an id")
            return
        group = self.f_group.currentText()
        self.window.edit(lambda s: E.add_unit(s, u, group), f"added {u.id}")
        self.select([u.id])

    def apply_form(self) -> None:
        ids = self.selected_ids()
        if len(ids) != 1:
            self.window.say("Select one unit to change")
            return
        u = self.form_unit()
        old = self.window.scenario.units[ids[0]]
        changes = {k: getattr(u, k) for k in ("name", "type", "size", "attack", "defense", "movement", "division",
                                              "regiment", "steps", "losses", "morale", "reduced")}

        def change(s):
            s = E.update_unit(s, old.id, **changes)
            group = self.f_group.currentText()
            if group and s.deployment_of().get(old.id) != group:
                s = E.assign_deployment(s, [old.id], group)
            return s

        self.window.edit(change, f"changed {old.id}")

    def copy(self) -> None:
        if self.window.scenario is None:
            return
        self.clipboard = E.copy_units(self.window.scenario, self.selected_ids())
        self.window.say(f"copied {len(self.clipboard)} unit(s)")

    def paste(self, division: str | None = None, regiment: str | None = None) -> list[str]:
        """Paste the clipboard (into the division and regiment given, else as copied)."""
        out: list[str] = []

        def do(s):
            s, ids = E.paste_units(s, self.clipboard, division=division, regiment=regiment)
            out.extend(ids)
            return s

        self.window.edit(do, f"pasted {len(self.clipboard)} unit(s)")
        self.select(out)
        return out

    def multiply(self, n: int) -> list[str]:
        """"N x" for each selected unit."""
        out: list[str] = []
        ids = self.selected_ids()

        def do(s):
            for uid in ids:
                s, new = E.multiply(s, uid, n)
                out.extend(new)
            return s

        self.window.edit(do, f"{n} x {', '.join(ids)}")
        return out

    def remove(self) -> None:
        ids = self.selected_ids()
        self.window.edit(lambda s: E.remove_units(s, ids), f"removed {len(ids)} unit(s)")
