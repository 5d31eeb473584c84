"""The reinforcement tray: each side's units that are not on the map, grouped as the scenario groups them.

A unit is dragged from here onto the map; the hexes where the rules let it
enter light up (from the game's legal actions), and the drop is one more
action the game accepts or refuses with its rule.  Units of a side the
player sets up wait under "to set up"; a drop plays the ruleset's ``place``
action and the lit hexes are that unit's legal ``place`` actions now.
"""
from __future__ import annotations

from PySide6.QtCore import QMimeData, Qt
from PySide6.QtGui import QDrag
from PySide6.QtWidgets import QDockWidget, QTabWidget, QTreeWidget, QTreeWidgetItem

MIME = "application/x-sandtable-unit"
TO_SET_UP = "to set up"


def setup_hexes(game, board, uid: str) -> set:
    """Hexes where the game would accept ``place UID HEX`` now (from its legal actions)."""
    out = set()
    for action in game.legal_actions():
        words = action.text().split()
        if len(words) == 3 and words[0] == "place" and words[1] == uid:
            try:
                out.add(board.parse_hex(words[2]))
            except ValueError:
                continue
    return out


def waiting_to_set_up(scenario, first_state, statuses: dict[str, str]) -> set[str]:
    """Units of sides the player sets up that are still off the map as the game started them (not yet placed)."""
    units = getattr(first_state, "units", {})
    deployed = scenario.deployment_of()
    return {uid for uid, status in statuses.items()
            if uid in deployed and scenario.sides[scenario.units[uid].side].player_setup
            and uid in units and str(getattr(units[uid], "status", "")) == status
            and getattr(units[uid], "hex", None) is None}


class UnitTree(QTreeWidget):
    """One side's off-map units; a unit row can be dragged (its unit id travels as ``MIME``)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setHeaderLabels(["Unit", "Strengths", "Status"])
        self.setDragEnabled(True)
        self.setRootIsDecorated(True)

    def mimeData(self, items):
        data = QMimeData()
        uid = items[0].data(0, Qt.UserRole) if items else None
        if uid:
            data.setData(MIME, str(uid).encode("utf-8"))
            data.setText(str(uid))
        return data

    def startDrag(self, actions) -> None:
        item = self.currentItem()
        if item is None or not item.data(0, Qt.UserRole):
            return
        drag = QDrag(self)
        drag.setMimeData(self.mimeData([item]))
        drag.exec(Qt.MoveAction)


class TrayDock(QDockWidget):
    """A tab per side listing what is not on the map: arrivals by turn and entry area, then the rest by status."""

    def __init__(self, parent=None):
        super().__init__("Reinforcements", parent)
        self.setObjectName("tray")
        self.tabs = QTabWidget()
        self.setWidget(self.tabs)
        self.trees: dict[str, UnitTree] = {}

    def clear(self) -> None:
        self.tabs.clear()
        self.trees.clear()

    def show_units(self, scenario, statuses: dict[str, str], to_set_up=()) -> None:
        """``statuses``: unit id -> its status in the game now, for every unit not on the map; ``to_set_up``: those
        the player still has to place (listed first, under "to set up")."""
        self.clear()
        placed: set[str] = set()
        for side_id, side in scenario.sides.items():
            tree = UnitTree()
            self.trees[side_id] = tree
            waiting = [uid for uid in scenario.units if uid in to_set_up and uid in statuses
                       and scenario.units[uid].side == side_id]
            if waiting:
                group = QTreeWidgetItem(tree, [TO_SET_UP])
                for uid in waiting:
                    row = self._unit_row(group, scenario.units[uid], statuses[uid])
                    row.setToolTip(0, f"{scenario.units[uid].name or uid}: drag it onto the map to set it up")
                    placed.add(uid)
            for r in scenario.reinforcements:
                if r.side != side_id:
                    continue
                units = [u for u in r.units if u in statuses]
                if units:
                    group = QTreeWidgetItem(tree, [f"Turn {r.turn}: {r.entry}"])
                    for uid in units:
                        self._unit_row(group, scenario.units[uid], statuses[uid])
                        placed.add(uid)
            rest: dict[str, list[str]] = {}
            for uid, status in statuses.items():
                if uid not in placed and scenario.units[uid].side == side_id:
                    rest.setdefault(status, []).append(uid)
            for status, uids in sorted(rest.items()):
                group = QTreeWidgetItem(tree, [status])
                for uid in uids:
                    self._unit_row(group, scenario.units[uid], status)
            tree.expandAll()
            tree.resizeColumnToContents(0)
            self.tabs.addTab(tree, side.name)

    def _unit_row(self, group: QTreeWidgetItem, unit, status: str) -> QTreeWidgetItem:
        values = "-".join(str(getattr(unit, k, "")) for k in ("attack", "defense", "movement"))
        row = QTreeWidgetItem(group, [unit.id, values, status])
        row.setData(0, Qt.UserRole, unit.id)
        row.setToolTip(0, f"{unit.name or unit.id}: {unit.type} {unit.size}; drag it onto the map to bring it in")
        return row

    def unit_ids(self, side: str) -> list[str]:
        tree = self.trees.get(side)
        out = []
        if tree is not None:
            for i in range(tree.topLevelItemCount()):
                g = tree.topLevelItem(i)
                out += [g.child(k).data(0, Qt.UserRole) for k in range(g.childCount())]
        return out
