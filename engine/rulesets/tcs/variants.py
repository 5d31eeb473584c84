"""A TCS game's variants in a new game: which a scenario offers and the loaded scenario with the chosen ones applied.

One mechanism for every TCS game: ``offered(sc)`` lists the variants (``VariantOffer``) the new-game dialog shows
and ``python -m engine play --variant`` accepts; ``apply(sc, ids)`` changes the loaded scenario (never its file),
so a saved game names the variants and replays with them.  Leros: ``games/leros_variants.py``.  Black Wednesday:
the built variants join the scenario's ``[options] variants`` (read by ``games/black_wednesday_rules.py``).
"""
from __future__ import annotations

from ...errors import BadFile, Problem

# Black Wednesday 4.0: the variants the engine plays (4.3 is the scenarios' default Prep Log; 4.5 needs what our
# documents lack, docs/rules-coverage.md)
BW_OFFERED = {
    "4.1": ("German Cooperation", "German and Spanish units may share Op Sheets (4.1a) and one Axis ammunition "
                                  "pool (4.1d)"),
    "4.2": ("Spanish Panic", "A die for each Spanish unit before an overrun (4.2a)"),
    "4.3": ("Purely Historical", "The historical Prep Log; the German reinforcements by the book's schedule "
                                 "instead of the 3.5 table; the Spanish Engineer and Recon companies within 5 of "
                                 "the Hospital"),
    "4.4": ("Axis Free Set Up", "The Axis sets up anywhere in play south of the trench line, every trench hex "
                                "held or adjacent to an Axis unit (scenarios 1-3)"),
    "own-prep-log": ("Own Prep Log (1.10b)", "Without 4.3's historical entries: the Soviet player fills the Preparatory "
                                     "Barrage Log before the Axis sets up (BW 1.10b, 2.4)"),
    "4.6": ("Grandes in Command", "The Spanish Command Prep rating is 2"),
    "4.7": ("Gustav the Great (Dora)", "The Axis plots Dora's 800 mm fire an hour ahead from 0600 10 Feb"),
}
# BW 2.3a: the division the 289 AT Regiment serves, chosen before play (the scenario's ``at289_division`` otherwise)
for _div, _name in (("63Gd", "63 Guard Rifle"), ("43", "43 Rifle"), ("72", "72 Rifle")):
    BW_OFFERED[f"289-{_div}"] = (f"289 AT Regiment with the {_name} Division (2.3a)",
                                 f"The 289 AT Regiment's fires are spotted only by the {_name} Division's FOs")
BW_ONLY = {"4.4": ("black-wednesday-1", "black-wednesday-2", "black-wednesday-3", "black-wednesday-3c")}
BW_NEEDS = {"own-prep-log": "prep_log", "4.3": "prep_log"}           # offered only where the scenario has a Prep (its option)


def offered(sc) -> tuple:
    """The variants a loaded TCS scenario offers, in the book's order (those it already uses are left out)."""
    from ...scenario.newgame import VariantOffer

    if getattr(sc, "leros", None):
        from .games.leros_variants import offered as leros_offered
        return leros_offered(sc)
    if sc.options.get("game_rules") == "black_wednesday":
        used = set(sc.options.get("variants", []))
        return tuple(VariantOffer(v, name if v.startswith("289-") else f"{v} {name}" if v[0].isdigit() else name, text)
                     for v, (name, text) in BW_OFFERED.items()
                     if v not in used and sc.id in BW_ONLY.get(v, (sc.id,))
                     and sc.options.get(BW_NEEDS.get(v, "game_rules")) and _at289_offered(sc, v))
    return ()


def _at289_offered(sc, v: str) -> bool:
    """BW 2.3a: a "289-<division>" choice is offered where the scenario has the 289's battalions and that
    division's artillery FOs, and the division is not the one the scenario already assigns."""
    if not v.startswith("289-"):
        return True
    div = v[4:]
    return any(b.id.startswith("289-") for b in sc.batteries) and div != (sc.options.get("at289_division") or "63Gd") \
        and any(u.fo and u.formation == div for u in sc.units)


def apply(sc, ids) -> None:
    """The scenario ``sc`` with the variants ``ids`` applied in place (BadFile naming ``variants`` if unknown)."""
    ids = list(ids)
    if not ids:
        return
    if getattr(sc, "leros", None):
        from .games.leros_variants import apply as leros_apply
        leros_apply(sc, ids)
        return
    known = [v.id for v in offered(sc)]
    bad = [v for v in ids if v not in known]
    if bad:
        raise BadFile([Problem(sc.path, "variants", f"there is no variant {bad[0]!r} in this scenario "
                                                   f"(variants: {', '.join(known) or 'none'})")])
    sc.options["variants"] = list(sc.options.get("variants", [])) + [v for v in ids if v not in
                                                                    sc.options.get("variants", [])]
    if "4.3" in ids and "own-prep-log" in ids:
        raise BadFile([Problem(sc.path, "variants", "4.3 fires the historical Prep Log: it does not go with "
                                                    "own-prep-log")])
    if "4.3" in ids:
        _purely_historical(sc)
    if "4.4" in ids:
        _free_set_up(sc)


# Black Wednesday 4.3: the German schedule (release group -> clock); III-390 has no counters in the order of battle
# the set-ups and the 3.5 table give, so it has no group to bring on.
BW_43_SCHEDULE = {
    "de-1-635Ost": "1500 10 Feb", "de-2-635Ost": "1500 10 Feb", "de-III-215-9": "1700 10 Feb",
    "de-1-390": "2100 10 Feb", "de-2-390": "2100 10 Feb", "de-3-390": "2100 10 Feb", "de-4-390": "2100 10 Feb",
    "de-I-215-1": "2300 10 Feb",
    "de-5-390": "0100 11 Feb", "de-6-390": "0100 11 Feb", "de-7-390": "0100 11 Feb", "de-8-390": "0100 11 Feb",
    "de-I-215-2": "0300 11 Feb", "de-I-215-3": "0700 11 Feb", "de-flak": "0720 11 Feb",
}
HOSPITAL_AREA = "within 5 of B53.12"


def _purely_historical(sc) -> None:
    """Black Wednesday 4.3: the German groups of the schedule are released at their clock without a roll, the
    other German groups never (no other German units are available); the Spanish Engineer and Recon companies
    that set up do so within 5 of the Hospital (re-placed by the engine's own set-up)."""
    import dataclasses

    from .setup import SetUp

    sc.releases = [dataclasses.replace(r, trigger="at:" + BW_43_SCHEDULE[r.id], table="")
                   if r.id in BW_43_SCHEDULE else r
                   for r in sc.releases if r.id in BW_43_SCHEDULE or r.rule != "BW 3.5"]
    moved = {u.id for u in sc.units if u.id.split(":")[0] in ("1-Engineer", "3-Recon") and u.setup
             and not u.enters and not u.release}
    if not moved:
        return
    sc.units = [dataclasses.replace(u, setup=HOSPITAL_AREA, setup_rule="BW 4.3") if u.id in moved else u
                for u in sc.units]
    s = SetUp(sc)
    for u in sc.units:
        if u.id not in moved and u.hex and u.id in s.to_place():
            s.hexes[u.id] = sc.board.parse_hex(u.hex)
    s.auto()
    sc.units = s.placed_scenario().units


def _free_set_up(sc) -> None:
    """Black Wednesday 4.4: the Axis units set up again, freely south of the trench line (the engine's own set-up
    from the rules: every trench hex covered first, then each unit at the first hex with room); the Soviet
    units keep the file's hexes."""
    from .setup import SetUp

    s = SetUp(sc)
    for u in sc.units:
        if u.side != "axis" and u.hex and u.id in s.to_place():
            s.hexes[u.id] = sc.board.parse_hex(u.hex)
    s.auto()
    sc.units = s.placed_scenario().units
