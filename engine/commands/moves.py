"""``python -m engine moves SAVE_OR_SCENARIO UNIT``: a unit's legal destinations, their costs, and why blocked neighbours are blocked."""
from __future__ import annotations

import json

from ..errors import BadFile, IllegalAction, Problem
from ..fileio import read_toml


def register(subparsers) -> None:
    p = subparsers.add_parser("moves", help="legal destinations of a unit with their costs",
                              description="Legal destinations of one unit in a scenario's opening position or a "
                                          "saved game's current position, with the movement point cost of each "
                                          "and the reason each blocked neighbour is blocked.")
    p.add_argument("file", metavar="SAVE_OR_SCENARIO")
    p.add_argument("unit", metavar="UNIT")
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.set_defaults(func=run)


def open_game(path: str, seed: int = 1):
    """A game from a saved game (replayed) or a scenario (its opening position)."""
    from ..game import Game, load_game, load_rules

    doc = read_toml(path)
    if isinstance(doc.get("scenario"), dict):
        return Game(load_rules(path), seed, path)
    if "actions" in doc:
        return load_game(path)
    raise BadFile([Problem(path, "", "expected a scenario file ([scenario] table) or a saved game (actions = [...])")])


def unit_moves(rules, state, uid: str) -> dict:
    """The destinations report of one unit, as plain data (in its own movement phase if this is not one)."""
    if not hasattr(rules, "destinations") or not hasattr(rules, "specs"):
        raise IllegalAction("", f"the {rules.name} rules have no hex movement to list")
    from ..rulesets.demyansk.movement import may_move_now

    if uid not in rules.specs:
        raise IllegalAction("", f"there is no unit {uid!r} (units look like {next(iter(rules.specs))!r})")
    u = state.units[uid]
    if u.status != "map":
        raise IllegalAction("", f"{uid} is not on the map ({u.status})")
    why = may_move_now(rules, state, uid)
    phase = state.phase
    if why and "phase" in why:
        spec = rules.specs[uid]
        st = state.copy()
        if rules.tables.type_flag(spec.type, "hq"):
            st.phase = "soviet-hq-movement"
        else:
            st.phase = f"{spec.side}-movement"
        st.units[uid].moved = False
        state, phase, why = st, st.phase, None
    r = rules.destinations(state, uid)
    hid = rules.map.hex_id
    return {
        "unit": uid, "hex": hid(r.start), "phase": phase, "allowance": r.allowance,
        "may_move": why is None, "why_not": why or "", "notes": r.notes,
        "destinations": [{"hex": hid(h), "cost": c} for h, c in sorted(r.destinations.items(), key=lambda x: (x[1], hid(x[0])))],
        "blocked": [{"hex": hid(h), "reason": w} for h, w in sorted(r.blocked.items(), key=lambda x: hid(x[0]))],
    }


def run(args) -> int:
    game = open_game(args.file)
    report = unit_moves(game.rules, game.state, args.unit)
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"{report['unit']} in {report['hex']}, {report['phase']} phase, movement allowance {report['allowance']}")
    if not report["may_move"]:
        print(f"  may not move now: {report['why_not']}")
    for n in report["notes"]:
        print(f"  {n}")
    print(f"  {len(report['destinations'])} destinations:")
    for d in report["destinations"]:
        print(f"    {d['hex']}  {d['cost']} MP")
    for b in report["blocked"]:
        print(f"  blocked {b['hex']}: {b['reason']}")
    return 0
