"""A gun on the table view under LMG fire, dice thrown by hand: its Bravado (the engine's ``gun_bravado``),
its cone held on the LMG firing at it, and no cone once it is silenced (SCW Silencing 2-5, SCW Contact 4)."""
from __future__ import annotations

from pathlib import Path

from engine.rulesets.scw.enemy import gun_cone
from gui.table.session import TableSession
from gui.table.window import TableWindow

SCENARIO = Path(__file__).resolve().parent.parent / "scenarios" / "scw-platoon-attack.toml"


def quiet_game_with_a_gun() -> TableSession:
    """A game whose cards are all turned and empty but one, a gun at (36, 10) facing down the table."""
    session = TableSession.new(SCENARIO, seed=1)
    s = session.game.state
    for c in s["cards"].values():
        c["revealed"], c["picture"] = True, False
    c = s["cards"]["C1"]
    c.update(at=[36.0, 10.0], facing=90.0, front=[36.0, 10.0], picture=True, revealed=True)
    s["guns"]["C1"] = session.rules.gun_from_card(c)
    s["teams"]["T3"]["at"] = [36.0, 15.0]     # the 1st section's LMG, 5 inches from the gun
    s["teams"]["T5"]["at"] = [33.0, 14.0]     # the 2nd section's LMG
    return session


def test_gun_bravado_falls_under_lmg_fire_and_the_gun_holds_on_the_lmg(qtbot):
    session = quiet_game_with_a_gun()
    rules = session.rules
    assert rules.gun_bravado(session.state["guns"]["C1"]) == 8
    win = TableWindow(session)
    qtbot.addWidget(win)
    assert "HMG C1 B8 firing" == win.view.guns["C1"].label.text()
    session.state["hand_dice"] = [5, 6]        # 11 at 5 inches: 6 over, 2 Bravado lost
    assert win.give("fire T3 C1")
    g = session.state["guns"]["C1"]
    assert rules.gun_bravado(g) == 6 == g["base"] - g["lost"]
    assert win.view.guns["C1"].label.text() == "HMG C1 B6 firing"
    assert g["target"] == "T3"
    drawn = [(round(x, 6), round(y, 6)) for x, y in win.view.cones["C1"].outline_inches()]
    assert drawn == [(round(x, 6), round(y, 6)) for x, y in gun_cone(g).exterior.coords]
    lines = [win.log_list.item(i).text() for i in range(win.log_list.count())]
    assert any("two six-sided dice show 5 and 6 (11)" in line for line in lines)
    session.state["hand_dice"] = [4, 6]        # 10 at 5 inches: one more, 3 lost silences it
    assert win.give("fire T5 C1")
    assert session.state["guns"]["C1"]["silenced"]
    assert win.view.guns["C1"].label.text() == "HMG C1 B5 silent"
    assert "C1" not in win.view.cones
