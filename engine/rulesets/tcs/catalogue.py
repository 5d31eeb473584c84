"""What each TCS game shipped with the program prints for itself, to attribute the cells of an unscoped book.

Before a game's own charts were kept under the game (``engine.charts.book``,
format 1), Black Wednesday's and Leros' terrain charts and counters shared one
table.  A cell of such a book is attributed to a game when exactly that game can
have printed it: its chart names the game (``bw.*``, ``leros.*``), or the unit
type, terrain, weather or sortie table it is keyed by appears in that game's
shipped scenarios and map and in no other's.  The catalogue is read from the
scenario files (their units, weather, air and map), not from loaded games.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from ...charts.ruleset import game_scope
from ...errors import BadFile
from ...fileio import read_toml

PREFIXES = {"bw.": "black-wednesday", "leros.": "leros"}


@lru_cache(maxsize=4)
def catalogue(folder: str = "") -> dict[str, dict[str, set]]:
    """``{game: {"types", "terrain", "weather", "tables", "turns"}}`` of the TCS scenarios in ``folder``
    (default: the program's own)."""
    from ... import content
    from ...maps.mapfile import load_map
    from ...charts import load_slots
    from .rules import CHARTS
    from .sight import terrain_key

    root = Path(folder) if folder else content.scenarios()
    slots = load_slots(CHARTS)
    out: dict[str, dict[str, set]] = {}
    boards: dict[Path, set] = {}
    for path in sorted(root.glob("*.toml")):
        try:
            doc = read_toml(path)
        except BadFile:
            continue
        sc = doc.get("scenario", {})
        if not isinstance(sc, dict) or sc.get("ruleset") != "tcs":
            continue
        game = game_scope(str(sc.get("game", "")), str(sc.get("id") or path.stem))
        c = out.setdefault(game, {"types": set(), "terrain": set(), "weather": set(), "tables": set()})
        for u in doc.get("units", []) if isinstance(doc.get("units"), list) else []:
            if isinstance(u, dict) and isinstance(u.get("type"), str):
                c["types"].add(u["type"])
        for a in doc.get("air", []) if isinstance(doc.get("air"), list) else []:
            if isinstance(a, dict):
                c["types"].add(str(a.get("sortie_type", "")))
                c["tables"].add(str(a.get("table", "")))
        c["weather"].add(str(sc.get("weather", "")))
        if sc.get("weather_table"):
            c["tables"].add(str(sc["weather_table"]))
            table = slots.slots.get(str(sc["weather_table"]))
            c["weather"] |= set(table.domain.values) if table is not None else set()
        mp = sc.get("map")
        if isinstance(mp, str):
            p = (path.parent / mp).resolve()
            if p not in boards:
                try:
                    board = load_map(p)
                    boards[p] = ({terrain_key(board, h) for h in board.hexes()} | {"road"}
                                 | {f for fs in board.features.values() for f in fs}
                                 | {o.kind for o in board.obstacles})
                except (BadFile, OSError):
                    boards[p] = set()
            c["terrain"] |= boards[p]
    return out


def attribute(slot_id: str, key, folder: str = "") -> list[str]:
    """The games whose own printed chart the cell ``slot_id[key]`` can be (see the module)."""
    for prefix, game in PREFIXES.items():
        if slot_id.startswith(prefix):
            return [game]
    cat = catalogue(folder)
    first = str(key[0]) if key else ""
    if slot_id.startswith("tcs.counter."):
        what = "types"
    elif slot_id.startswith("tcs.terrain."):
        what = "terrain"
    elif slot_id == "tcs.weather_visibility":
        what = "weather"
    elif slot_id == "tcs.air_sortie":
        return sorted(g for g, c in cat.items() if slot_id in c["tables"])
    else:                       # the turn track, a side's Staff modifier: every game has one
        return sorted(cat)
    return sorted(g for g, c in cat.items() if first in c[what])
