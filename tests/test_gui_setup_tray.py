"""Units of a side the player sets up are dragged from the tray onto the map, under the rules."""
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from gui.scene.tray import TO_SET_UP
from playwindow import drag_from_tray, play_window

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = ROOT / "scenarios" / "demyansk-1-trapped.toml"


def german_sets_up(tmp_path) -> Path:
    """The Trapped scenario with the German side set up by the player."""
    text = SCENARIO.read_text(encoding="utf-8")
    text = text.replace('map = "../maps/demyansk.toml"', f'map = "{(ROOT / "maps" / "demyansk.toml").as_posix()}"')
    text = text.replace('[[sides]]\nid = "german"\n', '[[sides]]\nid = "german"\nplayer_setup = true\n', 1)
    p = tmp_path / "trapped-german-setup.toml"
    p.write_text(text, encoding="utf-8")
    return p


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    win = play_window(qtbot, tmp_path, german_sets_up(tmp_path), monkeypatch=monkeypatch)
    assert win.session is not None
    return win


def waiting(window, side):
    """The unit ids under the tray's "to set up" group of a side."""
    tree = window.tray.trees[side]
    for i in range(tree.topLevelItemCount()):
        g = tree.topLevelItem(i)
        if g.text(0) == TO_SET_UP:
            return [g.child(k).data(0, Qt.UserRole) for k in range(g.childCount())]
    return []


def test_a_unit_is_set_up_from_the_tray_where_the_rules_allow(window):
    s, view = window.session, window.map_view
    assert s.state.phase == "german-setup"
    uid = waiting(window, "german")[0]
    assert s.state.units[uid].hex is None and not waiting(window, "soviet")
    legal = {s.board.parse_hex(a.text().split()[2]) for a in s.game.legal_actions()
             if a.text().startswith(f"place {uid} ")}
    assert legal
    bad = next(h for h in s.board.hexes() if h not in legal and h not in view.stacks)
    view.set_zoom(0.4)
    view.centre_on_hex(bad)
    drag_from_tray(view, uid, bad, "enter")
    assert set(view.overlay.costs) == legal                     # where it may be set up is lit
    drag_from_tray(view, uid, bad, "drop")
    assert s.state.units[uid].hex is None and uid in waiting(window, "german")
    assert window.last_refusal.startswith("Demyansk ")
    assert window.last_refusal in window.statusBar().currentMessage()
    assert not s.game.log

    good = sorted(legal, key=lambda h: (h.q, h.r))[0]
    view.centre_on_hex(good)
    drag_from_tray(view, uid, good, "enter")
    drag_from_tray(view, uid, good, "drop")
    assert s.state.units[uid].hex == good and uid not in waiting(window, "german")
    assert view.stacks[good][-1] is s.scenario.units[uid]
    assert window.log_dock.lines()[-1].split(" — ")[0].endswith(f"place {uid} {s.board.hex_id(good)}")
    assert s.game.actions_text() == [f"place {uid} {s.board.hex_id(good)}"]
    assert f"place {uid} {s.board.hex_id(good)}" in window.autosave.read_text(encoding="utf-8")

    window.phase_bar.undo_act.trigger()                          # undo takes it back to the tray
    assert s.state.units[uid].hex is None and uid in waiting(window, "german") and not s.game.log
