"""Black Wednesday's Axis set-up checks (BW 1.10f, 4.4) on the map's trench and wire lines.

The stand-in sheets draw "first trench line" and "wire line" as areas (hex sets).  As for BW 5.1's "south of
the trench line" (``black_wednesday._south_of_trench``), north and south are read along hex lines: the sheets'
first number runs north to south (docs/tcs-maps.md), so a hex is north of the wire when its first number is
below the wire line's northernmost hex in the same hex line (same sheet, same second number), and south of
the trench line (inclusive) when it is at or beyond the first trench line's; hex lines a line does not cross
are behind it.  The Peat Bog lies wholly north of the wire on these sheets, so a hex north of the Bog is
north of the wire."""
from __future__ import annotations

import re

from ....errors import IllegalAction
from ....maps.hexes import are_adjacent, hex_neighbors

_WITHIN = re.compile(r"within (\d+) of ([A-Z]\d\d\.\d\d)")


def is_bw(scenario) -> bool:
    return scenario.options.get("game_rules") == "black_wednesday"


def _fronts(board) -> tuple[dict, dict]:
    """(the first trench line's, the wire line's) northernmost first number in each hex line (sheet + second
    number) the line crosses; worked out once per board and kept on it."""
    got = board.__dict__.get("_bw_fronts")
    if got is None:
        fronts = []
        for name in ("first trench line", "wire line"):
            front: dict[str, int] = {}
            area = board.areas.get(name)
            for h in (area.hexes if area is not None else ()):
                hid = board.hex_id(h)
                front[hid[0] + hid[4:]] = min(front.get(hid[0] + hid[4:], 99), int(hid[1:3]))
            fronts.append(front)
        got = board.__dict__["_bw_fronts"] = tuple(fronts)
    return got


def south_of_trench(board, h) -> bool:
    """BW 4.4, 5.1: a hex at or south of the first trench line in its hex line; hex lines the line does not
    cross (the west of sheet A) lie behind it."""
    hid = board.hex_id(h)
    return int(hid[1:3]) >= _fronts(board)[0].get(hid[0] + hid[4:], 0)


def north_of_wire(board, h) -> bool:
    """BW 1.10f: whether a hex lies north of the wire line in its hex line (so north of the Peat Bog too)."""
    hid = board.hex_id(h)
    return int(hid[1:3]) < _fronts(board)[1].get(hid[0] + hid[4:], 0)


def in_play(scenario, board) -> frozenset:
    """The scenario's area in play (BW scenarios 1-3's Map Area): the file's ``play_area`` if it gives one;
    scenario 1 is sheet B east of the October Railroad (inclusive: hexes at or above the railroad's second
    number in their hex line), scenario 2 sheet B west of it and east of xx.06; scenario 3 both sheets."""
    from ....scenario.areas import AreaContext

    if scenario.play_area:
        return AreaContext(board).hexes(scenario.play_area)
    rr: dict[str, int] = {}
    for h in board.areas["October Railroad"].hexes if "October Railroad" in board.areas else ():
        hid = board.hex_id(h)
        rr[hid[:3]] = min(rr.get(hid[:3], 99), int(hid[4:]))
    out = set()
    for h in board.hexes():
        hid = board.hex_id(h)
        row, line = int(hid[4:]), rr.get(hid[:3])
        if scenario.id == "black-wednesday-1":
            keep = hid[0] == "B" and line is not None and row >= line
        elif scenario.id == "black-wednesday-2":
            keep = hid[0] == "B" and row >= 6 and (line is None or row <= line)
        else:
            keep = True
        if keep:
            out.add(h)
    return frozenset(out)


def free_area(scenario, board) -> frozenset:
    """BW 4.4: the hexes in play south of the (first) trench line, the line included."""
    return frozenset(h for h in in_play(scenario, board) if south_of_trench(board, h))


def free_set_up(scenario) -> bool:
    return "4.4" in scenario.options.get("variants", [])


def areas(scenario) -> dict[str, int]:
    """The Axis set-up areas of the scenario (BW 1.10f) as centre hex id -> radius."""
    out: dict[str, int] = {}
    for u in scenario.units:
        if u.side == "axis" and u.setup and not u.enters and not u.release:
            for n, centre in _WITHIN.findall(u.setup):
                out[centre] = max(out.get(centre, 0), int(n))
    return out


def _trench(board, h) -> bool:
    return "trench" in board.features_of(h)


def _wire(board, h) -> bool:
    return "wire" in board.features_of(h)


def bare_trench(setup) -> list:
    """The trench hexes a finished set-up must cover that no unit covers yet (BW 4.4, or 1.10f by the wire)."""
    board = setup.board
    if free_set_up(setup.scenario):
        near = [h for uid, h in setup.hexes.items() if setup.specs[uid].side == "axis"]
        need = {h for h in in_play(setup.scenario, board) if _trench(board, h)}
    else:
        near = [h for uid, h in setup.hexes.items() if setup.specs[uid].formation == "spanish"]
        need = set()
        for centre, n in areas(setup.scenario).items():
            if _trench(board, board.parse_hex(centre)):
                area = setup.ctx.hexes(f"within {n} of {centre}")
                need |= {h for h in area if _trench(board, h) and any(_wire(board, m) for m in hex_neighbors(h))
                         and (setup.play is None or h in setup.play)}
    return sorted(h for h in need if not any(x == h or are_adjacent(x, h) for x in near))


def may_cover(setup, uid: str) -> bool:
    """Whether a unit counts toward covering trench hexes: any Axis unit under 4.4, a Spanish one under 1.10f."""
    spec = setup.specs[uid]
    return spec.side == "axis" if free_set_up(setup.scenario) else spec.formation == "spanish"


def finish_problem(setup) -> tuple[str, str] | None:
    """What keeps the Axis set-up from being finished: (rule, message), or None.

    BW 4.4 (Axis Free Set Up): every trench hex in play holds an Axis unit or is adjacent to one.
    BW 1.10f: no Axis unit stands north of the wire line (or the Peat Bog); in each set-up area centred in a
    trench hex, every trench hex adjacent to the wire holds a Spanish unit or is adjacent to one.
    """
    board = setup.board
    bare = [board.hex_id(h) for h in bare_trench(setup)]
    listed = f"{', '.join(bare[:6])}{' ...' if len(bare) > 6 else ''}"
    if free_set_up(setup.scenario):
        if bare:
            return ("BW 4.4", f"every trench hex must hold an Axis unit or be adjacent to one; {listed} "
                              f"({len(bare)} hexes) are bare")
        return None
    north = sorted({board.hex_id(h) for uid, h in setup.hexes.items()
                    if setup.specs[uid].side == "axis" and north_of_wire(board, h)})
    if north:
        return ("BW 1.10f", f"no Axis unit may set up north of the wire line or the Peat Bog: {', '.join(north)}")
    if bare:
        return ("BW 1.10f", f"in a set-up area centred in a trench hex every trench hex by the wire must hold a "
                            f"Spanish unit or be adjacent to one; {listed} ({len(bare)} hexes) are bare")
    return None


def check_finished(setup) -> None:
    problem = finish_problem(setup)
    if problem:
        raise IllegalAction(*problem)
