"""Shared set-up for the TCS tests: the test scenario, an owner's chart partly filled, and a driver."""
from __future__ import annotations

from pathlib import Path

from engine.charts import ChartMemory
from engine.game import Game
from engine.rulesets.tcs import rules_for_path

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = ROOT / "scenarios" / "tcs-test.toml"

COUNTERS = {
    #                   movement mobility range firepower morale steps point_fire
    "rifle platoon": (6, "foot", 4, 3, 4, 5, 0),
    "tank platoon": (12, "tracked", 10, 4, 3, 3, 6),
    "forward observer": (6, "foot", 0, 0, 3, 1, 0),
    "mortar section": (4, "foot", 8, 0, 4, 2, 0),
    "infantry platoon": (6, "foot", 4, 3, 3, 5, 0),
    "at gun": (2, "foot", 8, 1, 3, 2, 7),
}
SLOTS = ("movement", "mobility", "range", "firepower", "morale", "steps", "point_fire")
TERRAIN = {  # height, combat, spotting, foot, tracked, wheeled
    "clear": (0, "Open", "open", "1", "1", "2"),
    "woods": (None, "Partly Protective", "non-open", "1", "P", "P"),
    "village": (10, "Protective", "non-open", "1", "2", "2"),
}


def filled_memory(**drop) -> ChartMemory:
    """The cells an owner has typed in (everything legality needs), as a game's chart memory."""
    m = ChartMemory()
    for typ, vals in COUNTERS.items():
        for slot, v in zip(SLOTS, vals):
            m.put(f"tcs.counter.{slot}", (typ,), v)
    m.put("tcs.counter.armor", ("tank platoon",), 4)
    m.put("tcs.counter.at", ("at gun",), 8)
    for t, (h, c, s, foot, tr, wh) in TERRAIN.items():
        if h is not None:
            m.put("tcs.terrain.height", (t,), h)
        m.put("tcs.terrain.combat", (t,), c)
        m.put("tcs.terrain.spotting", (t,), s)
        for mob, v in (("foot", foot), ("tracked", tr), ("wheeled", wh)):
            m.put("tcs.terrain.move", (t, mob), v)
    m.put("tcs.terrain.move", ("road", "foot"), "1")
    m.put("tcs.terrain.move", ("road", "tracked"), "0.5")
    for (c, t), v in {("open", "vehicle"): 10, ("open", "non-vehicle"): 6, ("non-open", "vehicle"): 4,
                      ("non-open", "non-vehicle"): 2}.items():
        m.put("tcs.spotting_range", (c, t), v)
    for k, v in {"day": 20, "twilight": 8, "night": 2}.items():
        m.put("tcs.turn_visibility", (k,), v)
    m.put("tcs.weather_visibility", ("clear",), 60)
    for cls, v in {"Open": 0, "Partly Protective": -1, "Protective": -2, "Billiard": 1}.items():
        m.put("tcs.terrain.fire_shift", (cls,), v)
    for slot, key in drop.get("blank", ()):
        m.cells.get(slot, {}).pop(tuple(key), None)
    return m


def new_game(seed: int = 1, dice=None, memory=None, rules=None) -> Game:
    rules = rules or rules_for_path(SCENARIO)
    g = Game(rules, seed, str(SCENARIO))
    g.state = rules.initial_state(seed, dice=dice, memory=memory if memory is not None else filled_memory())
    return g


def where(g: Game) -> tuple[str, str, str]:
    return g.rules.current(g.state)


def advance(g: Game, step: str, side: str | None = None, answers: dict | None = None, first: str = "red",
            limit: int = 400) -> None:
    """Play ``end`` (and answer pending questions: ``answers`` per chart slot, initiative to ``first``) until the
    game reaches ``step`` (for ``side``)."""
    for _ in range(limit):
        st = g.state
        if st.pending:
            p = st.pending[0]
            if p["kind"] == "chart":
                slot = p["prompt"].slot
                if answers is None or slot not in answers:
                    raise AssertionError(f"unexpected prompt: {p['prompt'].text()}")
                g.play(f"chart {slot} " + "".join(f"[{k}]" for k in p["prompt"].key) + f" = {answers[slot]}")
                continue
            if p["what"] == "initiative":
                g.play(f"choose initiative {first}")
                continue
            if p["what"] == "overwatch":
                g.play("choose overwatch pass")
                continue
            raise AssertionError(f"unexpected choice: {p['text']}")
        ph, stp, who = where(g)
        if stp == step and (side is None or who == side):
            return
        g.play("end")
    raise AssertionError(f"never reached {step}")
