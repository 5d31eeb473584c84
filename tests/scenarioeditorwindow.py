"""The scenario editor as the GUI tests open it: its own tile cache, shown at a set size."""
from __future__ import annotations

from gui.scenarioeditor import ScenarioEditor


def scenario_editor(qtbot, cache, size=(1200, 800)) -> ScenarioEditor:
    """A shown ``ScenarioEditor`` of ``size`` whose tile cache is the folder ``cache``."""
    ed = ScenarioEditor(cache=cache)
    qtbot.addWidget(ed)
    ed.resize(*size)
    ed.show()
    return ed
