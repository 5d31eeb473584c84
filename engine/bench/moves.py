"""Benchmark: legal destinations of one unit on the Demyansk map, against networkx's Dijkstra as a yardstick.

Prints one row: ``moves_ms`` (median time of the full legal-destinations
query for every unit that can move in the opening position of scenario II,
zones of control worked out afresh each time), ``networkx_ms`` (median time
of networkx's single-source Dijkstra on the same entry costs, enemy hexes
removed, no way out of an enemy zone of control (Demyansk 5.2: a unit that
enters one stops), cut off at the movement allowance), ``units`` and
``destinations`` (the total each found; they differ only by what a plain
Dijkstra cannot say: German withdrawal (7.1), fortification-to-fortification
moves (6.2), "always at least one hex" and one unit per hex at the end
(5.3)).  ``classic_moves_ms`` is the same query under the classic rules
(Demyansk's general rules as data, ``scenarios/demyansk-1-classic.toml``),
with ``classic_units`` and ``classic_destinations``, and ``demyansk_i_moves_ms``
the Python ruleset's time on that same opening.  networkx is a
benchmark extra.
"""
from __future__ import annotations

import statistics
import time
from pathlib import Path

DEFAULT_REPEAT = 20
SCENARIO = Path(__file__).resolve().parents[2] / "scenarios" / "demyansk-2-campaign.toml"
CLASSIC_SCENARIO = Path(__file__).resolve().parents[2] / "scenarios" / "demyansk-1-classic.toml"


def _graph(rules, st, uid):
    import networkx as nx

    from ..rulesets.demyansk.units import enemy_of
    from ..rulesets.demyansk.zoc import enemy_zoc_for, side_hexes

    m = rules.map
    enemy = side_hexes(rules, st, enemy_of(rules.specs[uid].side))
    zone = enemy_zoc_for(rules, st, uid)
    start = st.units[uid].hex
    # 5.2: Soviet units never leave a German zone of control; German units
    # may (7.1), which a plain Dijkstra cannot price, so they start free.
    stops = zone if rules.specs[uid].side == "soviet" else zone - {start}
    light = rules.tables.type_flag(rules.specs[uid].type, "woods_mp")
    g = nx.DiGraph()
    for h in m.hexes:
        if h in m.prohibited or h in enemy:
            continue
        g.add_node(h)
        if h in stops:
            continue
        for n in m.neighbors[h]:
            if n in m.prohibited or n in enemy:
                continue
            g.add_edge(h, n, weight=m.terrain_mp(n, light) + (2 if m.crosses_river(h, n) else 0))
    return g


def _classic(repeat: int) -> dict:
    """``classic_moves_ms``: the same query under the classic rules (Demyansk's general rules as data, scenario I's
    opening on the same map), every unit that may move in the German and Soviet movement phases."""
    from ..game import load_rules

    rules = load_rules(str(CLASSIC_SCENARIO))
    movers = []
    for phase in ("german-movement", "soviet-movement"):
        s = rules.initial_state(1)
        s.phase = phase
        rules._begin_phase(s, [])
        movers += [(s, uid) for uid in rules.order if rules.may_move(s, uid) is None]
    times, found = [], 0
    for _ in range(repeat):
        for s, uid in movers:
            rules.forget(s)
            t = time.perf_counter()
            rules.reach(s, uid)
            times.append(time.perf_counter() - t)
        found = sum(len(rules.reach(s, uid).destinations) for s, uid in movers)
    # the Python ruleset on the same opening, for a like-for-like ratio
    from ..rulesets.demyansk.movement import may_move_now, reach
    from ..rulesets.demyansk.zoc import forget

    py = load_rules(str(CLASSIC_SCENARIO.with_name("demyansk-1-trapped.toml")))
    py_movers = []
    for phase in ("german-movement", "soviet-movement"):
        s = py.initial_state(1).copy()
        s.phase = phase
        py._begin_phase(s, [])
        py_movers += [(s, uid) for uid in py.order if may_move_now(py, s, uid) is None]
    py_times = []
    for _ in range(repeat):
        for s, uid in py_movers:
            forget(s)
            t = time.perf_counter()
            reach(py, s, uid)
            py_times.append(time.perf_counter() - t)
    return {"classic_moves_ms": round(statistics.median(times) * 1000, 3), "classic_units": len(movers),
            "classic_destinations": found, "demyansk_i_moves_ms": round(statistics.median(py_times) * 1000, 3)}


def run(args) -> list[dict]:
    from ..game import load_rules
    from ..rulesets.demyansk.movement import may_move_now, reach
    from ..rulesets.demyansk.zoc import forget

    repeat = args.repeat or DEFAULT_REPEAT
    rules = load_rules(str(SCENARIO))
    st = rules.initial_state(1)
    movers = []
    for side, phase in (("german", "german-movement"), ("soviet", "soviet-movement")):
        s = st.copy()
        s.phase = phase
        rules._begin_phase(s, [])
        movers += [(s, uid) for uid in rules.order if rules.specs[uid].side == side and not may_move_now(rules, s, uid)]
    ours, found = [], 0
    for _ in range(repeat):
        for s, uid in movers:
            forget(s)
            t = time.perf_counter()
            r = reach(rules, s, uid)
            ours.append(time.perf_counter() - t)
        found = sum(len(reach(rules, s, uid).destinations) for s, uid in movers)
    row = {"moves_ms": round(statistics.median(ours) * 1000, 3), "units": len(movers), "destinations": found}
    row.update(_classic(repeat))
    try:
        import networkx as nx
    except ImportError:
        row["networkx_ms"] = None
        row["networkx"] = "not installed (pip install networkx: a benchmark extra)"
        return [row]
    theirs, nfound = [], 0
    from ..rulesets.demyansk.zoc import side_hexes

    graphs = [(_graph(rules, s, uid), s.units[uid].hex, reach(rules, s, uid).allowance,
               side_hexes(rules, s, rules.specs[uid].side)) for s, uid in movers]
    for _ in range(repeat):
        nfound = 0
        for g, start, ma, friends in graphs:
            t = time.perf_counter()
            d = nx.single_source_dijkstra_path_length(g, start, cutoff=ma)
            theirs.append(time.perf_counter() - t)
            nfound += len(d.keys() - friends)  # 5.3: no ending on a friendly unit
    row["networkx_ms"] = round(statistics.median(theirs) * 1000, 3)
    row["networkx_destinations"] = nfound
    return [row]
