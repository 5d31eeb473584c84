"""German supply (Demyansk 7.2), the continuous front (7.3) and the open line to the west (9.2, 9.3)."""
from __future__ import annotations

from collections import deque

from ...game import Event
from engine.maps.hexes import Hex
from .state import ON_MAP, State
from .units import GERMAN, SOVIET
from .zoc import _cache, side_hexes, zoc


def _free_path_region(rules, st: State, starts) -> set[Hex]:
    """Hexes joined to any of ``starts`` by a path free of Soviet units and Soviet zones of control (7.2).

    A start hex that is itself blocked (Soviet, in Soviet zone of control, or prohibited) is left out.
    """
    m = rules.map
    blocked = side_hexes(rules, st, SOVIET) | zoc(rules, st, SOVIET) | m.prohibited
    seen = {h for h in starts if h not in blocked}
    todo = deque(seen)
    nb = m.neighbors
    while todo:
        h = todo.popleft()
        for n in nb[h]:
            if n not in seen and n not in blocked:
                seen.add(n)
                todo.append(n)
    return seen


def west_region(rules, st: State) -> set[Hex]:
    """Hexes joined to the west map edge by a path free of Soviet units and Soviet zones of control (7.2)."""
    c = _cache(st)
    if "west" not in c:
        c["west"] = _free_path_region(rules, st, rules.map.edges["west"])
    return c["west"]


def linked_to_west(rules, st: State, h: Hex) -> bool:
    """A unit in ``h`` has a free path to the west edge (its own hex may be in a Soviet zone of control)."""
    region = west_region(rules, st)
    return h in region or any(n in region for n in rules.map.neighbors[h])


def pocket_region(rules, st: State) -> set[Hex]:
    """The pocket as it stands (7.2): hexes joined to the printed pocket perimeter by a path free of Soviet
    units and Soviet zones of control, so it grows as the Germans push out ("even if the pocket expands").

    On a map without a drawn pocket the hexes of the units that began in the pocket stand for it.
    """
    c = _cache(st)
    if "pocket" not in c:
        m = rules.map
        seeds = set(m.pocket) if m.pocket else {st.units[u].hex for u in rules.pocket_units
                                                if st.units[u].status == ON_MAP}
        c["pocket"] = _free_path_region(rules, st, {n for h in seeds for n in (h, *m.neighbors[h])})
    return c["pocket"]


def in_pocket(rules, st: State, h: Hex) -> bool:
    """A unit in ``h`` is in the pocket (7.2): inside the printed perimeter, or in or next to the pocket region.

    Whether the pocket is cut off from the west is a separate question (``linked_to_west``).
    """
    if h in rules.map.pocket:
        return True
    region = pocket_region(rules, st)
    return h in region or any(n in region for n in rules.map.neighbors[h])


def trapped_units(rules, st: State) -> list[str]:
    """Western German units that entered the pocket and are isolated there (7.2), in id order.

    A western unit cut off anywhere else is outside the pocket and so in supply
    ("German forces outside the pocket are considered to be in supply at all times").
    """
    return sorted(uid for uid, u in st.units.items()
                  if u.status == ON_MAP and rules.specs[uid].side == GERMAN and not rules.specs[uid].pocket
                  and not linked_to_west(rules, st, u.hex) and in_pocket(rules, st, u.hex))


def pocket_linked(rules, st: State) -> bool:
    """The German units inside the pocket have a free path to the west edge (7.2): a unit that began in the
    pocket, or stands inside the printed perimeter, is in the pocket and linked to the west.

    A unit that began in the pocket but has left it (broken out alone, or
    retreated) does not link the pocket by itself.
    """
    perimeter = rules.map.pocket
    return any(linked_to_west(rules, st, u.hex) and in_pocket(rules, st, u.hex)
               for uid, u in st.units.items() if u.status == ON_MAP and rules.specs[uid].side == GERMAN
               and (rules.specs[uid].pocket or u.hex in perimeter))


def determine_supply(rules, st: State, events: list) -> None:
    """The German reinforcement phase's supply determination (7.2)."""
    trapped = trapped_units(rules, st)
    st.trapped = trapped
    if trapped:
        events.append(Event("supply", f"Demyansk 7.2: western units isolated in the pocket share its supply: "
                            f"{', '.join(st.trapped)}"))
    st.pocket_linked = pocket_linked(rules, st)
    st.pocket_attack_limit = None
    if st.turn == rules.first_turn:
        st.pocket_supplied = True
        events.append(Event("supply", "Demyansk 7.2: on the first turn the pocket is supplied"))
        return
    if st.pocket_linked:
        st.pocket_supplied = True
        events.append(Event("supply", "Demyansk 7.2: a free path links the pocket to the west: supplied"))
        return
    if st.airfield_soviet:
        st.pocket_supplied = False
        events.append(Event("supply", "Demyansk 7.2: a Soviet unit holds the Demyansk airfield: "
                            "the pocket is out of supply"))
    else:
        faces = rules.options.get("air_supply_faces", [2, 4, 6])
        die = rules.roll(st, events, "air supply of the pocket")
        st.pocket_supplied = die in faces
        events.append(Event("supply", f"Demyansk 7.2: air supply roll {die}: the pocket is "
                            f"{'supplied' if st.pocket_supplied else 'out of supply'}"))
    if not st.pocket_supplied:
        st.pocket_attack_limit = rules.roll(st, events, "Soviet units the pocket may attack")
        events.append(Event("supply", f"Demyansk 7.2: out of supply, the pocket may attack "
                            f"{st.pocket_attack_limit} Soviet unit(s) this turn"))


def continuous_front(rules, st: State) -> bool:
    """A chain of hexes held by German units or their zone of control runs from the north edge to the south edge (7.3).

    A hex with a Soviet unit in it does not count, even in German zone of control.
    """
    m = rules.map
    soviet = side_hexes(rules, st, SOVIET)
    held = (side_hexes(rules, st, GERMAN) | zoc(rules, st, GERMAN)) - soviet
    south = m.edges["south"]
    seen = {h for h in m.edges["north"] if h in held}
    todo = deque(seen)
    while todo:
        h = todo.popleft()
        if h in south:
            return True
        for n in m.neighbors[h]:
            if n in held and n not in seen:
                seen.add(n)
                todo.append(n)
    return False
