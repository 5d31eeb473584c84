"""Leros 4.0 Minor Variants: which a Leros scenario offers a new game, and the scenario with the chosen ones applied.

The variants are applied to the loaded scenario (never written into its file), so the same file plays with or
without them and a saved game records the ones chosen.  What each changes:

- 4.1 Increased RAF Support: British Beaufighter sorties (2.3) on the British Sortie Availability Table, rolled
  only when the German roll gives none (2.3b); the German roll is read on its table with the 4.1 modifier (the
  chart slot ``leros.german_sorties_raf``: the printed result of each roll with that modifier, asked in play).
- 4.2 British All-Out Effort: 4.1's air, and every Kents unit waiting in a holding box sets up on the island, next
  to its battalion's units already there (the program's placement: 5.1d lets the player move them in the set-up).
- 4.3 HMS Eclipse Survives (scenario 1 only): A-Buffs (three rifle platoons, the program's choice as for every
  company) within five hexes of a coastal hex of map A, as near the other Buffs as room allows.
- 4.4 The Italians Fight (scenario 1 only): the I-10 battalion (the program's choice: three rifle companies of three
  platoons and two MG sections), one company and the MG sections within three hexes of an intact coastal battery,
  the rest in Portolago and St. Giorgio.
- 4.5 The Greeks Fight: Sac-Sqd (three platoons) in the Samos box.
- 4.6 Lt. Col. French Takes Command: British Command Prep 4, 12 implemented Op Sheets (4 in one-map scenarios),
  and the Staff modifier: the printed modifier of the Command Prep Table (chart slot ``tcs.staff_modifier``), asked
  at the first British implementation roll.
- 4.7 Rat Patrol: the LRDG moves 15 vehicle MPs in Move mode and may overrun (it counts as a vehicle).

Victory shifts (4.2, 4.4, 4.6) are ``leros_setup.VARIANT_SHIFT``, read by the victory check.
"""
from __future__ import annotations

from dataclasses import replace

from ....errors import BadFile, Problem
from ....maps.hexes import hex_distance, hex_range
from .leros_setup import VARIANTS

SCENARIO_1_ONLY = ("4.3", "4.4")       # Leros 4.3, 4.4: "available only for Scenario 1"
TEXT = {
    "4.1": "British Beaufighter sorties when the Germans roll none; the German table's RAF modifier",
    "4.2": "The Kents all set up on the island; 4.1's air; victory one level toward the Germans",
    "4.3": "A-Buffs sets up within 5 hexes of a coastal hex of map A",
    "4.4": "The I-10 battalion sets up by the batteries, Portolago and St. Giorgio; victory one level toward "
           "the Germans",
    "4.5": "The Greek Sacred Squadron waits in the Samos box",
    "4.6": "British Command Prep 4, 12 implemented Op Sheets (4 on one map), Staff modifier; victory one level "
           "toward the Germans",
    "4.7": "The LRDG moves 15 vehicle MPs in Move mode and may overrun",
}
BEAUFIGHTER = "british beaufighter sortie"


def scenario_one(sc) -> bool:
    return sc.id in ("leros-1-curtain-rises", "leros-1a-night-landings", "leros-c1-campaign")


def offered(sc) -> tuple:
    """The variants this Leros scenario offers, in the book's order (4.3 and 4.4 only in scenario 1)."""
    from ....scenario.newgame import VariantOffer

    return tuple(VariantOffer(v, f"{v} {name}", TEXT[v]) for v, name in VARIANTS.items()
                 if v not in sc.leros.get("variants", []) and (v not in SCENARIO_1_ONLY or scenario_one(sc)))


def apply(sc, ids) -> None:
    """Apply the variants ``ids`` to the loaded scenario ``sc`` (BadFile naming ``variants`` if one is unknown)."""
    known = [v.id for v in offered(sc)]
    for v in ids:
        if v not in known:
            raise BadFile([Problem(sc.path, "variants", f"there is no variant {v!r} in this scenario "
                                                       f"(variants: {', '.join(known) or 'none'})")])
    lr = sc.leros
    lr["variants"] = list(lr.get("variants", [])) + [v for v in ids if v not in lr.get("variants", [])]
    chosen = set(lr["variants"])
    place = _Placer(sc)
    if chosen & {"4.1", "4.2"}:                 # Leros 4.1, 4.2: British air (2.3) and the German table's modifier
        _raf(sc)
    if "4.2" in ids:                            # Leros 4.2: every element of the Kents on the island
        _kents_ashore(sc, place)
    if "4.3" in ids:                            # Leros 4.3: A-Buffs near map A's coast
        _add_company(sc, place, "A-Buffs", "Buffs", "british rifle platoon", _a_coast(sc), near="Buffs")
    if "4.4" in ids:                            # Leros 4.4: the I-10 battalion
        _italians(sc, place)
    if "4.5" in ids:                            # Leros 4.5: Sac Sqd in the Samos box
        _add_company(sc, place, "Sac-Sqd", "Sac-Sqd", "greek rifle platoon", None, box="samos")
    if "4.6" in ids:                            # Leros 4.6: Command Prep 4, 12 (4) sheets, the Staff modifier
        n = 4 if lr.get("one_map") else 12
        sc.sides["british"] = replace(sc.sides["british"], command_prep=4, max_implemented=n, staff_asked=True)
        for fid, f in list(sc.formations.items()):
            if f.side == "british":
                sc.formations[fid] = replace(f, max_implemented=n, max_sheets=n + 4)
    if "4.7" in ids:                            # Leros 4.7: the LRDG on its Rovers
        sc.units[:] = [replace(u, vehicle=True) if u.id in _lrdg(sc) else u for u in sc.units]


def lrdg_rovers(rules, uid: str) -> bool:
    """Leros 4.7: an LRDG unit on its Rovers (15 vehicle MPs in Move mode)."""
    return "4.7" in rules.leros.get("variants", []) and uid in _lrdg(rules.scenario)


def _lrdg(sc) -> set:
    return {u.id for u in sc.units if u.type == "lrdg section"}


def _raf(sc) -> None:
    from ..scenario import AirSpec

    air = []
    for a in sc.air:
        if a.side == "german" and a.table == "leros.german_sorties":
            a = replace(a, table="leros.german_sorties_raf")      # Leros 4.1: the modifier on the German table
        air.append(a)
    if not any(a.side == "british" for a in air):
        air.append(AirSpec("british", "leros.british_sorties", BEAUFIGHTER, ("Normal", "Wind")))   # Leros 2.3
    sc.air[:] = air


class _Placer:
    """Land hexes with room (three units a hex) and, for the British, not next to a German unit (5.1a)."""

    def __init__(self, sc):
        self.sc, self.board = sc, sc.board
        self.count: dict = {}
        self.german = set()
        for u in sc.units:
            if u.hex in self.board.boxes:
                continue
            h = self.board.parse_hex(u.hex)
            self.count[h] = self.count.get(h, 0) + 1
            if u.side == "german":
                self.german.add(h)

    def ok(self, h, side="british") -> bool:
        if h not in self.board or self.board.terrain.get(h) == "sea" or self.count.get(h, 0) >= 3:
            return False
        if side == "british" and self.board.terrain.get(h) not in ("building", "village") and \
                any(hex_distance(h, g) <= 1 for g in self.german):
            return False
        return True

    def take(self, cands, centre) -> str:
        for h in sorted(cands, key=lambda h: (hex_distance(centre, h), self.board.hex_id(h))):
            if self.ok(h):
                self.count[h] = self.count.get(h, 0) + 1
                return self.board.hex_id(h)
        raise BadFile([Problem(self.sc.path, "variants", "no room on the map for a variant's units")])


def _centre(sc, battalion: str, default: str):
    on_map = [u.hex for u in sc.units if u.battalion == battalion and u.hex not in sc.board.boxes]
    return sc.board.parse_hex(on_map[0] if on_map else default)


def _a_coast(sc) -> set:
    """Land hexes of map A within five hexes of one of its coastal hexes (Leros 4.3)."""
    b = sc.board
    coast = [h for h in b.features if "coast" in b.features_of(h) and b.hex_id(h).startswith("A")]
    return {x for c in coast for x in hex_range(c, 5) if x in b and b.hex_id(x).startswith("A")}


def _add_company(sc, place, co, bn, typ, area, near="", box="", n=3, centre=None) -> list[str]:
    from ..scenario import UnitSpec

    if bn not in sc.battalions:
        sc.battalions[bn] = ("british", 0)          # Leros 5.1c: battalion morale starts at 0
    out = []
    for i in range(1, n + 1):
        uid = f"{co}-{i}" if n > 1 or typ.endswith("platoon") else co
        if box:
            hx = box
            sc.leros.setdefault("boxes", {})[uid] = box
        else:
            c = centre if centre is not None else _centre(sc, near or bn, "B43.15")
            hx = place.take(area if area is not None else set(hex_range(c, 4)), c)
        sc.units.append(UnitSpec(uid, "british", typ, hx, formation="234-Bde", battalion=bn))
        out.append(uid)
    return out


def _kents_ashore(sc, place) -> None:
    c = _centre(sc, "Kents", "B43.15")
    moved = []
    for i, u in enumerate(sc.units):
        if u.battalion == "Kents" and u.hex in sc.board.boxes:
            hx = place.take(set(hex_range(c, 6)), c)
            sc.units[i] = replace(u, hex=hx)
            sc.leros.get("boxes", {}).pop(u.id, None)
            moved.append(u.id)
    for bt in sc.leros.get("boats", []):          # boats waiting to carry them stay empty
        bt["load"] = [x for x in bt["load"] if x not in moved]


def _italians(sc, place) -> None:
    b = sc.board
    lost = set(sc.leros.get("batteries_lost", []))
    guns = [h for name, a in b.areas.items() if name.startswith("Coastal Battery ") and name[-1] not in lost
            for h in a.hexes]
    near = {x for g in guns for x in hex_range(g, 3) if x in b}
    towns = set(b.areas["Portolago"].hexes) | set(b.areas["St. Giorgio"].hexes)
    town_c = sorted(towns, key=b.hex_id)[0]
    _add_company(sc, place, "1-I-10", "I-10", "italian rifle platoon", near, centre=guns[0])
    _add_company(sc, place, "I-10-MG", "I-10", "italian mg section", near, n=2, centre=guns[-1])
    for co in ("2-I-10", "3-I-10"):
        _add_company(sc, place, co, "I-10", "italian rifle platoon", towns, centre=town_c)
    sc.leros["not_platoons"] = list(sc.leros.get("not_platoons", [])) + ["I-10-MG-1", "I-10-MG-2"]
