"""A counter's menu: what each unit of a stack may do now, in words, and what not with the engine's reason.

The entries are ``engine.rulesets.tcs.explain.unit_options``: the legal ones
carry their action (a change of mode is played at once, a fire opens the fire
panel first, moving is done by dragging), the others are greyed with the
refusal and its rule.
"""
from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu

LONGEST = 120                    # characters of a greyed entry shown; the whole of it is its tooltip
MANY = 20                        # more entries than this for one unit: point fire, SFA and the refused in submenus


def elide(text: str, n: int = LONGEST) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


class UnitMenu(QMenu):
    """The actions of the units in one stack (top unit first; a submenu a unit when there are several)."""

    play = Signal(str)               # an action to play now (a change of mode, an assault)
    fire = Signal(str, str, str, str)  # firer, target hex, kind, target unit (point fire): open the fire panel
    show_moves = Signal(str)         # a unit whose moves to light on the map

    def __init__(self, rules, state, uids: list[str], parent=None, held: str = ""):
        super().__init__(parent)
        self.setObjectName("tcsunitmenu")
        self.setToolTipsVisible(True)
        self.rules, self.state = rules, state
        self.held = held                 # the side the computer is playing now: nothing here is the person's
        self.uids = list(uids)
        if len(uids) == 1:
            self._fill(self, uids[0])
        else:
            for uid in uids:
                sub = self.addMenu(self._title(uid))
                sub.setToolTipsVisible(True)
                self._fill(sub, uid)

    def _title(self, uid: str) -> str:
        st = self.rules.unit_status(self.state, uid)
        spec = self.rules.specs[uid]
        bits = [f"{st['mode']} mode"]
        if st["morale"] != "good order":
            bits.append(st["morale"])
        if st["fired"]:
            bits.append("fired")
        return f"{uid} ({spec.type}): {', '.join(bits)}"

    def _fill(self, menu: QMenu, uid: str) -> None:
        from engine.rulesets.tcs.explain import unit_options, why_idle

        head = menu.addAction(self._title(uid))
        head.setEnabled(False)
        menu.addSeparator()
        if self.held:
            a = menu.addAction(f"Nothing to do now — the computer is playing {self.held} "
                               "(Pause the computer, Ctrl+Shift+P, to play for it yourself)")
            a.setEnabled(False)
            return
        idle = why_idle(self.rules, self.state, uid)
        if idle is not None:
            a = menu.addAction(elide(f"Nothing to do now — {idle}"))
            a.setToolTip(str(idle))
            a.setEnabled(False)
            menu.addSeparator()
        options = unit_options(self.rules, self.state, uid)
        groups: dict[str, QMenu] = {}
        if len(options) > MANY:          # a gun among many enemies: point fire, SFA and the refused each a submenu
            counts = {}
            for o in options:
                g = self._group(o)
                if g:
                    counts[g] = counts.get(g, 0) + 1
            for g, n in counts.items():
                groups[g] = QMenu(f"{g} ({n})", menu)
                groups[g].setToolTipsVisible(True)
        for o in options:
            where = groups.get(self._group(o), menu)
            a = QAction(o.label if o.legal else elide(f"{o.label} — {o.reason}"), where)
            a.setProperty("option", o.kind)
            a.setProperty("action", o.action)
            if o.legal:
                a.setToolTip(o.action)
                a.triggered.connect(lambda _c=False, o=o, uid=uid: self._chosen(uid, o))
            else:
                a.setEnabled(False)
                a.setToolTip(str(o.reason))
            where.addAction(a)
        for sub in groups.values():
            menu.addMenu(sub)

    @staticmethod
    def _group(o) -> str:
        """The submenu an option goes in when a unit has many: point fire, SFA, or what it may not do."""
        if not o.legal:
            return "Not possible now"
        return {"point": "Point fire", "sfa": "Suppressive fire (SFA)"}.get(o.kind, "")

    def _chosen(self, uid: str, o) -> None:
        if o.kind in ("area", "sfa", "point"):
            hid = o.target if o.kind != "point" else self.rules.hid(self.state.units[o.target].hex)
            self.fire.emit(uid, hid, o.kind, o.target if o.kind == "point" else "")
        elif o.kind == "move":
            self.show_moves.emit(uid)
        else:
            self.play.emit(o.action)

    def entries(self) -> list[tuple[str, bool]]:
        """``(text, enabled)`` of every entry (submenus' entries after their title), as shown."""
        out = []

        def walk(menu):
            for a in menu.actions():
                if a.menu() is not None:
                    out.append((a.text(), True))
                    walk(a.menu())
                elif not a.isSeparator():
                    out.append((a.text(), a.isEnabled()))
        walk(self)
        return out

    def find(self, text: str) -> QAction:
        """The entry whose text starts with ``text`` (in any submenu)."""
        def walk(menu):
            for a in menu.actions():
                if a.menu() is not None:
                    found = walk(a.menu())
                    if found is not None:
                        return found
                elif a.text().startswith(text):
                    return a
            return None
        found = walk(self)
        if found is None:
            raise KeyError(text)
        return found
