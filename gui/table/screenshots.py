"""``python -m gui.table.screenshots OUT_DIR``: pictures of the table view for the documentation.

Plays real games (fixed seeds, the engine's baseline bot for the attacker
where a game has to move on) and drags with simulated mouse events.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
SCENARIO = ROOT / "scenarios" / "scw-platoon-attack.toml"


def _window(app, seed: int):
    from .session import TableSession
    from .window import TableWindow

    win = TableWindow(TableSession.new(SCENARIO, seed=seed))
    win.resize(1280, 860)
    win.show()
    app.processEvents()
    win.view.fit()
    app.processEvents()
    return win


def _bot(win, orders: int) -> None:
    from engine.rulesets.scw.bot import attacker_move

    for _ in range(orders):
        if win.session.game.is_over():
            return
        win.give(attacker_move(win.session.rules, win.session.state).text())


def _press_and_drag(app, view, frm, to, release: bool) -> None:
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtTest import QTest

    vp = view.viewport()
    a, b = view.screen_point(frm), view.screen_point(to)
    QTest.mousePress(vp, Qt.LeftButton, Qt.NoModifier, a)
    QTest.mouseMove(vp, a + QPoint(0, -8))
    QTest.mouseMove(vp, b)
    if release:
        QTest.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, b)
    app.processEvents()


def main(argv: list[str]) -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    out = Path(argv[0] if argv else ROOT / "docs" / "screenshots")
    app = QApplication.instance() or QApplication([])
    win = _window(app, 2)
    win.grab().save(str(out / "skirmish-table.png"))
    _bot(win, 1)                                   # T1 moves; the picture card at C4 turns over
    win.select_team("T2")
    t2 = tuple(win.session.state["teams"]["T2"]["at"])
    _press_and_drag(app, win.view, t2, (t2[0] + 1.0, t2[1] - 6.0), release=False)
    win.grab().save(str(out / "skirmish-drag.png"))
    drop = win.view.screen_point((t2[0] + 1.0, t2[1] - 6.0))
    QTest.mouseRelease(win.view.viewport(), Qt.LeftButton, Qt.NoModifier, drop)
    t4 = tuple(win.session.state["teams"]["T4"]["at"])
    _press_and_drag(app, win.view, t4, (t4[0] + 4.0, t4[1] - 11.0), release=True)
    win.grab().save(str(out / "skirmish-refused.png"))
    win.close()
    win = _window(app, 5)
    _bot(win, 40)
    QTest.qWait(1800)                             # let the rings of the enemy's past actions fade
    win.tape_act.setChecked(True)
    _press_and_drag(app, win.view, (20.0, 44.0), (34.5, 17.0), release=True)
    win.grab().save(str(out / "skirmish-later.png"))
    print("\n".join(str(p) for p in sorted(out.glob("skirmish-*.png"))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
