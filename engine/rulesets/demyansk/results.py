"""Combat results (Demyansk 6.6), retreats and advance after combat (6.7), as pending choices."""
from __future__ import annotations

from ...charts import ChartAnswer, accept_answer, read_cell
from ...errors import IllegalAction
from ...game import Event
from engine.maps.hexes import Hex, hex_distance, hex_neighbors
from .charts import CRT, RULE, crt_key, crt_prompt
from .combat import battle_odds
from .state import ELIMINATED, OFF_MAP, ON_MAP, State
from .units import enemy_of
from .zoc import forget, occupants, zoc

OFF = "off"


def retreat_options(rules, st: State, uid: str, hexes: int) -> list[str]:
    """Where a unit may end a retreat of ``hexes`` hexes (6.7), as printed ids; ``["off"]`` if only off the map.

    Each step goes one hex further from the hex it left (terrain ignored);
    no enemy unit, no enemy zone of control unless a friendly unit is there;
    it may pass friendly units but not end on one.  No option: eliminated.
    A hex outside the scenario's map area in play counts as off the map.
    """
    m = rules.map
    spec = rules.specs[uid]
    origin = st.units[uid].hex
    enemy_side = enemy_of(spec.side)
    occ = occupants(st)
    ezoc = zoc(rules, st, enemy_side)

    def side_in(h: Hex, side: str) -> bool:
        return any(rules.specs[o].side == side and o != uid for o in occ.get(h, ()))

    frontier = {origin}
    off_map = False
    for k in range(1, hexes + 1):
        nxt = set()
        for h in frontier:
            for n in hex_neighbors(h):
                if hex_distance(origin, n) != k:
                    continue
                if n not in m.on_map or n in rules.outside_play:
                    off_map = True                  # a choice: outside the area in play counts as off the map
                    continue
                if n in m.prohibited or side_in(n, enemy_side):
                    continue
                if n in ezoc and not side_in(n, spec.side):
                    continue
                nxt.add(n)
        frontier = nxt
    ends = sorted(m.hex_id(h) for h in frontier if not side_in(h, spec.side))
    if ends:
        return ends
    return [OFF] if off_map else []


def eliminate(rules, st: State, uid: str, events: list, why: str, in_combat: bool = True) -> None:
    u = st.units[uid]
    u.status = ELIMINATED
    u.destroyed_in_combat = in_combat
    u.landed_on = None
    forget(st)
    events.append(Event("eliminated", f"{uid} eliminated ({why})", {"unit": uid}))


def place(rules, st: State, uid: str, h: Hex) -> None:
    """Put a unit in a hex, with what entering it does (6.2 fortification lost, 7.2 airfield)."""
    u = st.units[uid]
    u.hex = h
    u.status = ON_MAP
    side = rules.specs[uid].side
    if side == "soviet" and h in rules.map.forts and h not in st.forts_lost:
        st.forts_lost.append(h)                      # 6.2: the fortification loses its benefits
    if h in rules.map.airfields:
        st.airfield_soviet = side == "soviet"        # 7.2.4: who occupied it last
    forget(st)


def resolve(rules, st: State, defender: str, events: list) -> None:
    """Roll for a declared battle (6 steps 5-6) and apply the result, or ask for a blank cell's result."""
    battle = next((b for b in st.battles if b.defender == defender and not b.resolved), None)
    if battle is None:
        raise IllegalAction("Demyansk 6", f"no battle against {defender} waits to be resolved")
    odds = battle_odds(rules, st, defender, battle.attackers)
    if odds.column == 0:
        raise IllegalAction("Demyansk 6", "attacks below 1:1 are not allowed")
    die = rules.roll(st, events, f"combat against {defender} at {odds.label}")
    key = crt_key(rules.tables, odds.column, die)
    result = read_cell(rules.charts, st.charts, CRT, key) or ""
    st.resolving = True
    events.append(Event("odds", f"{'+'.join(battle.attackers)} ({odds.attack}) against {defender} "
                        f"({odds.defense}): {odds.label}", {"modifiers": odds.modifiers, "column": odds.column}))
    if result and key not in rules.charts[CRT].known:
        events.append(Event("remembered", f"Demyansk 6.6: the chart's result at die {die}, {odds.label} was entered "
                            f"earlier in this game: {result}", {"die": die}))
    if result == "":
        side = rules.specs[battle.attackers[0]].side
        st.pending.append({"kind": "result", "side": side, "battle": defender, "die": die,
                           "column": odds.label, "options": list(rules.tables.results)})
        events.append(Event("blank-cell", f"the chart is blank at die {die}, {odds.label}: "
                            "enter the result from your printed chart", {"die": die}))
        return
    apply_result(rules, st, battle, result, events)


def apply_result(rules, st: State, battle, result: str, events: list) -> None:
    """Apply a CRT result (6.6): queue the retreats and the advance it causes."""
    defender = battle.defender
    attackers = [a for a in battle.attackers if st.units[a].status == ON_MAP]
    dside = rules.specs[defender].side
    aside = rules.specs[attackers[0]].side if attackers else enemy_of(dside)
    dhex = st.units[defender].hex
    events.append(Event("result", f"{result} against {defender}", {"result": result}))
    battle.resolved = True
    vacates = False
    if result in ("DR1", "DR2", "DR3") and dhex in rules.map.cities and rules.options.get("city_ignores_dr", True):
        events.append(Event("result", f"Demyansk 6.3: {defender} in a city ignores {result}"))
        result = "NE"
    if result in ("AR1", "AR2"):
        for a in attackers:
            if st.units[a].hex == dhex:
                continue
            st.pending.append({"kind": "retreat", "side": aside, "unit": a, "hexes": int(result[2])})
    elif result == "EX":
        mult_def = battle_odds(rules, st, defender, battle.attackers).defense
        eliminate(rules, st, defender, events, "EX")
        vacates = True
        for a in attackers:
            strength = rules.specs[a].attack
            if strength >= mult_def:
                eliminate(rules, st, a, events, f"EX: attack {strength} >= modified defence {mult_def}")
    elif result in ("DR1", "DR2", "DR3"):
        st.pending.append({"kind": "retreat", "side": dside, "unit": defender, "hexes": int(result[2])})
        vacates = True
    elif result == "DE":
        eliminate(rules, st, defender, events, "DE")
        vacates = True
    # 8.2 (a choice): a parachute brigade left sharing a hex with the German unit it landed on is lost
    for a in battle.attackers:
        u = st.units[a]
        if u.landed_on == defender and u.status == ON_MAP:
            u.landed_on = None
            if result not in ("DR1", "DR2", "DR3", "DE", "EX"):
                eliminate(rules, st, a, events, "Demyansk 8.2: the German unit it landed on held")
    if vacates:
        st.pending.append({"kind": "advance", "side": aside, "hex": dhex, "attackers": list(battle.attackers)})
    settle(rules, st, events)


def settle(rules, st: State, events: list) -> None:
    """Work out the choices at the head of the queue; apply those with no real choice."""
    while st.pending:
        p = st.pending[0]
        if p["kind"] == "retreat" and "options" not in p:
            uid = p["unit"]
            if st.units[uid].status != ON_MAP:
                st.pending.pop(0)
                continue
            opts = retreat_options(rules, st, uid, p["hexes"])
            if not opts:
                st.pending.pop(0)
                eliminate(rules, st, uid, events, "Demyansk 6.7: no legal retreat")
                continue
            if len(opts) == 1:
                st.pending.pop(0)
                do_retreat(rules, st, uid, opts[0], events)
                continue
            p["options"] = opts
            return
        if p["kind"] == "advance" and "options" not in p:
            h = p["hex"]
            if occupants(st).get(h):
                st.pending.pop(0)
                continue
            opts = [a for a in p["attackers"] if st.units[a].status == ON_MAP
                    and hex_distance(st.units[a].hex, h) == 1]
            if not opts:
                st.pending.pop(0)
                continue
            p["options"] = opts + ["none"]
            return
        return


def do_retreat(rules, st: State, uid: str, to: str, events: list) -> None:
    if to == OFF:
        st.units[uid].status = OFF_MAP
        st.units[uid].landed_on = None
        forget(st)
        events.append(Event("off-map", f"Demyansk 6.7: {uid} retreats off the map (removed, not destroyed)",
                            {"unit": uid}))
        return
    h = rules.map.board.parse_hex(to)
    frm = rules.map.hex_id(st.units[uid].hex)
    place(rules, st, uid, h)
    events.append(Event("retreat", f"{uid} retreats {frm}-{to}", {"unit": uid, "to": to}))


def answer(rules, st: State, action, events: list) -> None:
    """Apply a player's answer to the pending choice at the head of the queue."""
    from .actions import Advance, EnterResult, Retreat

    p = st.pending[0]
    kind = p["kind"]
    if kind == "result":
        if isinstance(action, ChartAnswer):
            prompt = crt_prompt(rules, st)
            result = accept_answer(rules.charts, st.charts, prompt, action, RULE)    # remembered for this game
            source = "from the owner's chart" if action.from_owner else "from the printed chart"
        elif isinstance(action, EnterResult) and action.result in p["options"]:
            result = action.result      # the text form of saves made before charts were slots: not remembered
            source = "from the printed chart"
        else:
            raise IllegalAction(RULE, f"enter the result from your printed chart for die {p['die']} "
                                f"at {p['column']}: one of {', '.join(p['options'])}")
        st.pending.pop(0)
        battle = next(b for b in st.battles if b.defender == p["battle"])
        events.append(Event("entered", f"result {result} entered {source}"))
        apply_result(rules, st, battle, result, events)
        return
    if kind == "retreat":
        if not isinstance(action, Retreat) or action.unit != p["unit"] or action.to not in p["options"]:
            raise IllegalAction("Demyansk 6.7", f"{p['unit']} must retreat {p['hexes']} hex(es) "
                                f"to one of {', '.join(p['options'])}")
        st.pending.pop(0)
        do_retreat(rules, st, action.unit, action.to, events)
    elif kind == "advance":
        if not isinstance(action, Advance) or action.unit not in p["options"]:
            raise IllegalAction("Demyansk 6.7", f"choose which attacker advances into "
                                f"{rules.map.hex_id(p['hex'])}: one of {', '.join(p['options'])}")
        st.pending.pop(0)
        if action.unit != "none":
            frm = rules.map.hex_id(st.units[action.unit].hex)
            place(rules, st, action.unit, p["hex"])
            events.append(Event("advance", f"{action.unit} advances {frm}-{rules.map.hex_id(p['hex'])}"))
    settle(rules, st, events)
