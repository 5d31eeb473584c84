"""Combat odds (Demyansk 6, 6.1, 6.2, 6.3, 6.4, 6.5, 8.1, 8.2): strengths, terrain, the odds column and its shift."""
from __future__ import annotations

from dataclasses import dataclass, field

from ...errors import IllegalAction
from engine.maps.hexes import hex_distance
from .movement import half
from .state import ON_MAP, State
from .units import GERMAN, SOVIET


@dataclass
class Odds:
    """A battle's arithmetic: attack total, modified defence, the odds column and every modifier with its rule."""

    attack: int
    defense_printed: int
    multiplier: int
    defense: int
    ratio: int
    column: int                      # 1..6 after the shift; 0 when below 1:1
    shift: str | None = None
    modifiers: list[str] = field(default_factory=list)

    @property
    def label(self) -> str:
        return f"{self.column}:1" if self.column else f"{self.attack}:{self.defense} (below 1:1)"


def attack_strength(rules, st: State, uid: str) -> tuple[int, str | None]:
    """A unit's attack strength in this battle and the rule that changed it (8.1 half strength)."""
    spec = rules.specs[uid]
    u = st.units[uid]
    if spec.side == SOVIET and u.out_of_command and not rules.exempt_from_command(st, uid):
        return half(spec.attack), f"Demyansk 8.1: {uid} outside command radius attacks at half strength"
    return spec.attack, None


def defense_multiplier(rules, st: State, defender: str, attackers) -> tuple[int, list[str]]:
    """The defender's terrain multiplier (6.1, 6.2, 6.3): each doubling counts, the total is at most triple."""
    m = rules.map
    spec = rules.specs[defender]
    h = st.units[defender].hex
    reasons = []
    for k in sorted(m.kinds[h]):
        row = rules.tables.terrain.get(k, {})
        if not row.get("doubles"):
            continue
        if row.get("infantry_only") and not rules.is_infantry(defender):
            continue
        if k == "fortification":
            if spec.side != GERMAN or h in st.forts_lost:
                continue
            reasons.append("Demyansk 6.2: German unit in a fortification, doubled")
            continue
        rule = {"woods": "6.1", "rough": "6.1", "town": "6.3", "city": "6.3"}.get(k, "6.1")
        reasons.append(f"Demyansk {rule}: {k}, doubled")
    ahexes = [st.units[a].hex for a in attackers]
    if ahexes and all(ah != h and m.crosses_river(ah, h) for ah in ahexes):
        reasons.append("Demyansk 6.1: every attacker attacks across a river hexside, doubled")
    cap = int(rules.tables.combat.get("max_multiplier", 3))
    n = len(reasons)
    mult = 1 if n == 0 else (2 if n == 1 else min(cap, 2 ** n))
    if n >= 2:
        reasons.append(f"Demyansk 6.1: several terrain effects, at most triple (x{mult})")
    return mult, reasons


def odds_shift(rules, st: State, defender: str, attackers) -> str | None:
    """The one +1 odds shift that applies, if any (6.4 combined arms, 6.5 divisional integrity, 8.2 paratroops)."""
    t = rules.tables
    types = [rules.specs[a].type for a in attackers]
    if any(t.type_flag(x, "armour") for x in types) and any(t.type_flag(x, "infantry") for x in types):
        return "Demyansk 6.4: combined arms, odds +1"
    side = rules.specs[attackers[0]].side if attackers else None
    if side == GERMAN:
        for div in sorted({rules.specs[a].division for a in attackers if rules.specs[a].division}):
            members = rules.divisions[div]
            if len(members) >= 2 and all(m in attackers for m in members) and rules.has_integrity(st, div):
                return f"Demyansk 6.5: all of division {div} attacks together, odds +1"
    if any(st.units[a].landed_on == defender for a in attackers):
        return "Demyansk 8.2: a parachute brigade landed on the defender, odds +1"
    return None


def battle_odds(rules, st: State, defender: str, attackers) -> Odds:
    """Work out a battle's odds (6, steps 1 to 4)."""
    attackers = tuple(attackers)
    mods = []
    total = 0
    for a in attackers:
        s, why = attack_strength(rules, st, a)
        total += s
        if why:
            mods.append(why)
    mult, reasons = defense_multiplier(rules, st, defender, attackers)
    mods.extend(reasons)
    printed = rules.specs[defender].defense
    dfs = printed * mult
    ratio = total // dfs if dfs else 99
    top = int(rules.tables.combat.get("max_odds", 6))
    column = min(ratio, top) if ratio >= 1 else 0
    shift = None
    if column:
        shift = odds_shift(rules, st, defender, attackers)
        if shift:
            mods.append(shift)
            column = min(column + 1, top)
        if ratio > top:
            mods.append(f"Demyansk 6: {ratio}:1 is treated as {top}:1")
    return Odds(total, printed, mult, dfs, ratio, column, shift, mods)


def check_declaration(rules, st: State, defender: str, attackers: tuple[str, ...]) -> Odds:
    """Refuse a battle the rules forbid (6, 7.2, 8.1, 9.3); return its odds when it is legal."""
    side = GERMAN if st.phase == "german-combat" else SOVIET if st.phase == "soviet-combat" else None
    if side is None:
        raise IllegalAction("Demyansk 6", f"battles are announced only in a combat phase, not in the {st.phase} phase")
    if st.resolving:
        raise IllegalAction("Demyansk 6", "all battles are announced before the first is resolved")
    specs = rules.specs
    if defender not in specs or st.units[defender].status != ON_MAP or specs[defender].side == side:
        raise IllegalAction("Demyansk 6", f"{defender} is not an enemy unit on the map")
    if not attackers:
        raise IllegalAction("Demyansk 6", "a battle needs at least one attacking unit")
    if len(set(attackers)) != len(attackers):
        raise IllegalAction("Demyansk 6", "a unit is named twice among the attackers")
    if any(b.defender == defender for b in st.battles):
        raise IllegalAction("Demyansk 6", f"{defender} is already the object of a battle: "
                            "an enemy unit may be attacked only once per turn")
    taken = {a for b in st.battles for a in b.attackers}
    dh = st.units[defender].hex
    for a in attackers:
        if a not in specs or specs[a].side != side or st.units[a].status != ON_MAP:
            raise IllegalAction("Demyansk 6", f"{a} is not one of your units on the map")
        if a in taken:
            raise IllegalAction("Demyansk 6", f"{a} already attacks in another battle: a unit attacks only once per turn")
        ah = st.units[a].hex
        if hex_distance(ah, dh) > 1:
            raise IllegalAction("Demyansk 6", f"{a} is not adjacent to {defender}")
        if specs[a].attack <= 0:
            raise IllegalAction("Demyansk 8.1", f"{a} has no attack strength")
        landed = st.units[a].landed_on
        if landed is not None and landed != defender:
            raise IllegalAction("Demyansk 8.2", f"the parachute brigade {a} landed on {landed} and attacks that unit "
                                "only")
        wt = specs[a].withdraw_turn
        if wt is not None and st.turn >= wt and rules.withdrawals:
            raise IllegalAction("Demyansk 9.3", f"{a} belongs to a division withdrawn by turn {wt} "
                                "and may not attack from that turn on")
    for uid, u in st.units.items():
        if u.landed_on == defender and u.status == ON_MAP and uid not in attackers:
            raise IllegalAction("Demyansk 8.2", f"the parachute brigade {uid} landed on {defender} and must attack it")
    if side == GERMAN and not st.pocket_supplied and st.pocket_attack_limit is not None:
        if any(rules.is_pocket_unit(st, a) for a in attackers):
            attacked = {b.defender for b in st.battles if any(rules.is_pocket_unit(st, a) for a in b.attackers)}
            if len(attacked) + 1 > st.pocket_attack_limit:
                raise IllegalAction("Demyansk 7.2", f"out of supply, the pocket may attack only "
                                    f"{st.pocket_attack_limit} Soviet unit(s) this turn")
    odds = battle_odds(rules, st, defender, attackers)
    if odds.ratio < int(rules.tables.combat.get("min_odds", 1)):
        raise IllegalAction("Demyansk 6", f"attacks below 1:1 are not allowed "
                            f"({odds.attack} against {odds.defense})")
    return odds
