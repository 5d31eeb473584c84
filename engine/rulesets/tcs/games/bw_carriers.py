"""Black Wednesday's transported guns (BW 1.11a) and Axis units riding Axis tanks (BW 1.11b: ``mount``,
``dismount``); hooks of ``black_wednesday_rules``, which the series engine asks."""
from __future__ import annotations

from dataclasses import asdict, dataclass

from ....errors import IllegalAction
from ....game import Event


# BW 1.11a: the AT guns (KG III Flak's 88s are "AT (88mm)" in the manifest), infantry guns, on-map artillery and
# heavy (120mm) mortars of both sides, moved by trucks and wagons in Move mode
TRANSPORTED = ("at gun", "infantry gun", "howitzer", "120mm mortar", "88mm flak")
GUN_MA, GUN_MOBILITY = 8, "foot"                         # BW 1.11a: "8 MPs which are Foot MPs for terrain purposes"


def transported(rules, uid: str) -> bool:
    known = getattr(rules, "bw_transported", None)
    if known is not None:
        return uid in known
    return any(w in rules.specs[uid].type for w in TRANSPORTED)


def movement_allowance(rules, st, uid: str) -> int | None:
    """BW 1.11a: a transported gun moves with 8 MPs (not its counter's movement value); None: the counter's."""
    return GUN_MA if transported(rules, uid) else None


def mobility(rules, uid: str) -> str | None:
    """BW 1.11a: a transported gun's MPs are Foot MPs for terrain purposes; None: the counter's mobility."""
    return GUN_MOBILITY if transported(rules, uid) else None


# ---------------------------------------------------------------- BW 1.11b: tanks as carriers

@dataclass(frozen=True)
class Mount:
    """BW 1.11b: an Axis unit climbs onto an Axis tank in its hex and rides it: ``mount RIDER TANK``."""

    unit: str
    carrier: str

    def text(self) -> str:
        return f"mount {self.unit} {self.carrier}"

    def words(self, rules, st) -> str:
        return f"{self.unit}: ride on {self.carrier} (BW 1.11b: tanks as carriers)"

    def to_dict(self) -> dict:
        return {"kind": "mount", **asdict(self)}


@dataclass(frozen=True)
class Dismount:
    """BW 1.11b: a unit riding a tank gets off in the tank's hex: ``dismount RIDER``."""

    unit: str

    def text(self) -> str:
        return f"dismount {self.unit}"

    def words(self, rules, st) -> str:
        return f"{self.unit}: get off {carrier_of(rules, st, self.unit) or 'the tank'} here (BW 1.11b)"

    def to_dict(self) -> dict:
        return {"kind": "dismount", **asdict(self)}


CARRY_RULE = "BW 1.11b"


def parse_action(text: str):
    """BW 1.11b's actions (``mount RIDER TANK``, ``dismount RIDER``), or None for the series' own."""
    w = text.split()
    if len(w) == 3 and w[0] == "mount":
        return Mount(w[1], w[2])
    if len(w) == 2 and w[0] == "dismount":
        return Dismount(w[1])
    return None


def carrier_of(rules, st, uid: str) -> str:
    """The tank ``uid`` rides on ("" for none): it rides while both are in one hex in Move mode (a tank that
    changes to Fire mode, or a rider that does, has put its rider off: our reading of the series' carriers)."""
    c = st.marks.get("riding " + uid, "")
    if not c:
        return ""
    u, t = st.units[uid], st.units[c]
    if u.hex is None or t.hex != u.hex or u.mode != "move" or t.mode != "move":
        return ""
    return c


def rider_of(rules, st, carrier: str) -> str:
    """The unit riding on ``carrier`` ("" for none)."""
    for k, v in st.marks.items():
        if v == carrier and k.startswith("riding ") and carrier_of(rules, st, k[7:]) == carrier:
            return k[7:]
    return ""


def check_mount(rules, st, a: Mount, side: str) -> None:
    """BW 1.11b: Axis units only (the Soviets never: TCS 25.1e); one non-vehicle unit that is not a towed gun
    (1.11a), in Move mode, with orders, not paralyzed and not yet moved this phase, climbs onto an Axis tank in
    its hex in Move mode that carries no one (one rider a tank: our choice, the series' capacity is not in our
    documents)."""
    if side == "soviet":
        raise IllegalAction(CARRY_RULE, "the Soviets cannot use tanks as carriers (TCS 25.1e)")
    u, t = rules._own(st, a.unit, side), rules._own(st, a.carrier, side)
    ru, rt = rules.specs[a.unit], rules.specs[a.carrier]
    if ru.vehicle or transported(rules, a.unit) or ru.fo:
        raise IllegalAction(CARRY_RULE, f"{a.unit} is not a unit that rides on a tank (vehicles and towed guns do not)")
    if not rt.vehicle:
        raise IllegalAction(CARRY_RULE, f"{a.carrier} is not a tank")
    if t.hex != u.hex:
        raise IllegalAction(CARRY_RULE, f"{a.unit} climbs onto a tank in its own hex, and {a.carrier} is not there")
    if u.mode != "move" or t.mode != "move":
        raise IllegalAction(CARRY_RULE, f"{a.unit} and {a.carrier} must both be in Move mode")
    if u.morale_state == "paralyzed" or t.morale_state == "paralyzed":
        raise IllegalAction("TCS 13.0", "a paralyzed unit neither rides nor carries")
    if u.moved or u.fired:
        raise IllegalAction(CARRY_RULE, f"{a.unit} has moved or fired this phase: it climbs on before it moves")
    if not rules.has_orders(st, a.unit):
        raise IllegalAction("TCS 6.0", f"{a.unit} has no implemented Op Sheet to carry out")
    if carrier_of(rules, st, a.unit):
        raise IllegalAction(CARRY_RULE, f"{a.unit} already rides on {carrier_of(rules, st, a.unit)}")
    if rider_of(rules, st, a.carrier) or carrier_of(rules, st, a.carrier):
        raise IllegalAction(CARRY_RULE, f"{a.carrier} already carries a unit")


def check_dismount(rules, st, a: Dismount, side: str) -> None:
    rules._own(st, a.unit, side)
    if not carrier_of(rules, st, a.unit):
        raise IllegalAction(CARRY_RULE, f"{a.unit} is not riding on a tank")


def act(rules, st, action, side: str, step: str, events: list) -> bool:
    """BW 1.11b's actions in the side's Action Phase; False for any other action (the series plays it).
    Climbing on spends the rider's movement (it moves only with its tank, for no MPs of its own); getting off
    ends its movement for the phase (our choices: the series' loading costs are not in our documents)."""
    if not isinstance(action, (Mount, Dismount)):
        return False
    if step != "action":
        raise IllegalAction(CARRY_RULE, f"{action.text()!r} is made in the side's own Action Phase")
    u = st.units[action.unit]
    if isinstance(action, Mount):
        check_mount(rules, st, action, side)
        st.marks["riding " + action.unit] = action.carrier
        events.append(Event("carry", f"{action.unit} rides on {action.carrier} (BW 1.11b)",
                            {"unit": action.unit, "carrier": action.carrier}))
    else:
        check_dismount(rules, st, action, side)
        carrier = st.marks.pop("riding " + action.unit)
        events.append(Event("carry", f"{action.unit} gets off {carrier} at {rules.hid(u.hex)} (BW 1.11b)",
                            {"unit": action.unit, "carrier": carrier}))
    u.moved = True
    u.mp_used = max(u.mp_used, rules.ma(st, action.unit))
    return True


def action_offers(rules, st, side: str, own: list) -> list:
    """BW 1.11b in the legal actions: each Axis unit that may climb onto a tank in its hex, and each rider."""
    if side == "soviet":
        return []
    out = []
    for uid in own:
        if carrier_of(rules, st, uid):
            out.append(Dismount(uid))
            continue
        spec, u = rules.specs[uid], st.units[uid]
        if spec.vehicle or u.mode != "move" or u.moved:
            continue
        for k in rules.units_at(st, u.hex):
            if k != uid and rules.specs[k].vehicle and rules.specs[k].side == side:
                a = Mount(uid, k)
                try:
                    check_mount(rules, st, a, side)
                except IllegalAction:
                    continue
                out.append(a)
    return out


def carry_problem(rules, st, uid: str, to) -> tuple[str, str] | None:
    """BW 1.11b: a rider moves only with its tank; a tank carrying a rider enters a hex only with room for both."""
    c = carrier_of(rules, st, uid)
    if c:
        return CARRY_RULE, f"{uid} rides on {c}: it moves with the tank (get off first)"
    r = rider_of(rules, st, uid) if rules.specs[uid].vehicle else ""
    if r:
        there = [k for k in rules.units_at(st, to) if not rules.specs[k].fo and k not in (uid, r)]
        if len(there) + 2 > rules.options["stacking_units"]:
            return "TCS stacking (game data)", (f"{rules.hid(to)} has no room for {uid} and its rider {r} "
                                                f"(stacking limit {rules.options['stacking_units']})")
    return None
