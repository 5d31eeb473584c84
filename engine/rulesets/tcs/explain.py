"""What a unit may do now and why not, in words, and the working of a fire before its roll (TCS 5.0, 8.0, 9.0, 11.0).

Every answer here is the engine's own: legality is ``legal_actions`` and the
``check_*`` methods of :class:`~engine.rulesets.tcs.rules.TcsRules` (their
refusals, with the rule, are the reasons), and a fire's working is the fire
procedure's own arithmetic (``procs.fire_shifts``, the Area Fire Column Table,
the Point Fire and AT Tables' keys) read without rolling.  The play window only
shows these.

- :func:`why_not` ``(rules, st, uid, kind, target)``: why an action of a unit
  would be refused now (an :class:`IllegalAction` with its rule), or None;
  ``kind`` is ``area``, ``sfa``, ``point``, ``move``, ``mode``, ``assault``,
  ``overrun`` or ``exit``.
- :func:`fire_preview` ``(rules, st, firers, target, kind)``: range, line of
  sight, fire value, column and each modifier with its rule, before the roll.
- :func:`unit_options` ``(rules, st, uid)``: the unit's actions now, each with a
  label in words, the legal ones with their action and the others with the
  reason they are refused.
- :func:`why_idle` ``(rules, st, uid)``: why a unit can do nothing now.
- :func:`action_label` ``(rules, st, action)``: an action in words.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ...charts import Step
from ...errors import IllegalAction
from ...maps.hexes import Hex, are_adjacent, hex_distance
from . import actions as A
from .proc import Ctx, Need, chart_value
from .sight import counter, spotting_range, terrain_key

FIRE_KINDS = ("area", "sfa", "point")
NEAREST_REFUSED = 3            # enemy hexes out of reach a unit's menu names (nearest first)


# ---------------------------------------------------------------- why a unit may not do something

def _side(rules, uid: str) -> str:
    if uid not in rules.specs:
        raise IllegalAction("TCS sequence of play", f"there is no unit {uid!r} in this scenario")
    return rules.specs[uid].side


def turn_problem(rules, st, side: str) -> IllegalAction | None:
    """Why ``side`` may not act with its units now (not its Action phase, a question pending), or None."""
    if st.over:
        return IllegalAction("", "the game is over")
    if st.pending:
        p = st.pending[0]
        what = p["prompt"].text() if p["kind"] == "chart" else p["text"]
        return IllegalAction("", f"the game waits for an answer first: {what}")
    phase, step, who = rules.current(st)
    if step != "action" or who != side:
        return IllegalAction("TCS sequence of play", f"units of {rules.scenario.sides[side].name} move and fire in "
                                                     f"their own Action phase; it is now {rules.clock(st)}")
    return None


def _action(rules, st, uid: str, kind: str, target: str | None):
    if kind in FIRE_KINDS:
        return A.Fire(kind, (uid,), target or "")
    if kind == "mode":
        return A.SetMode(uid, target or ("fire" if st.units[uid].mode == "move" else "move"))
    if kind == "move":
        return A.Move(uid, target or "")
    if kind in ("assault", "overrun"):
        return A.Assault((uid,), target or "", kind == "overrun")
    if kind == "exit":
        return A.Exit(uid)
    raise IllegalAction("", f"{kind!r} is not a kind of unit action (area, sfa, point, move, mode, assault, "
                            "overrun, exit)")


def check(rules, st, action, side: str):
    """The engine's own check of a unit action (the one ``apply`` runs), raising its refusal."""
    if isinstance(action, A.Fire):
        return rules.check_fire(st, action, side)
    if isinstance(action, A.SetMode):
        return rules.check_mode(st, action, side)
    if isinstance(action, A.Move):
        return rules.check_move(st, action.unit, rules.hex(action.to), side)
    if isinstance(action, A.Assault):
        return rules.check_assault(st, action, side)
    if isinstance(action, A.Exit):
        return rules.check_exit(st, action.unit, side)
    raise IllegalAction("", f"{action.text()!r} is not a unit action")


def why_not(rules, st, uid: str, kind: str, target: str | None = None) -> IllegalAction | None:
    """Why unit ``uid``'s action of ``kind`` at ``target`` (a hex id; a unit id for point fire; ``move`` or ``fire``
    for a mode change) would be refused now, with its rule; None if it is legal (``why_not(r, st, "1-3", "area",
    "B05.04")`` -> ``TCS 8.0: B05.04 is 5 hexes from 1-3, beyond its range of 4 (5 > 4)``)."""
    try:
        side = _side(rules, uid)
        problem = turn_problem(rules, st, side)
        if problem is not None:
            return problem
        a = _action(rules, st, uid, kind, target)
        check(rules, st, a, side)
    except IllegalAction as e:
        return e
    if not isinstance(a, A.Move) and a not in _legal(rules, st):
        # the checks pass but the listing does not offer it (a game's own condition): say so plainly
        return IllegalAction("", f"{action_label(rules, st, a)} is not allowed now")
    return None


def _legal(rules, st) -> list:
    """``rules.legal_actions(st)``, listed once for a position: a menu, a drag and each hover over an enemy ask
    again about the same one (the position is told by what the listing reads, so a state changed in place is
    listed again)."""
    key = _position(st)
    memo = getattr(rules, "_explain_legal", None)
    if memo is not None and memo[0] is st and memo[1] == key:
        return memo[2]
    out = rules.legal_actions(st)
    rules._explain_legal = (st, key, out)
    return out


def _position(st) -> tuple:
    return (st.turn, st.step, st.over, len(st.pending), len(st.markers), len(st.missions), tuple(st.order),
            tuple(sorted(st.marks.items())), sum(len(c) for c in st.memory.cells.values()),
            tuple((u.hex, u.mode, u.fired, u.morale_state, u.mp_used, u.sheet, u.steps_lost)
                  for u in st.units.values()),
            tuple((k, s.implemented, tuple(s.units)) for k, s in st.sheets.items()))


# ---------------------------------------------------------------- spotting, in words (TCS 11.0)

def sight_line(rules, st, frm: Hex, to: Hex):
    """The engine's line of sight from ``frm`` to ``to`` with the TCS heights and the markers on the map now
    (``engine.los``'s explained answer)."""
    from ...los.query import line_of_sight

    marks = rules.sight.markers(st)
    return line_of_sight(rules.sight.sight_map(st), frm, to, markers=marks or None)


def unseen_reason(rules, st, observer: str, h: Hex, side: str) -> str:
    """Why ``observer`` spots no enemy unit in ``h`` (TCS 11.0): each enemy's spotting range there, or the hex whose
    terrain blocks the line of sight."""
    o = st.units[observer].hex
    d = hex_distance(o, h)
    enemies = [k for k in rules.units_at(st, h) if rules.specs[k].side != side]
    if not enemies:
        return f"there is no enemy unit in {rules.hid(h)}"
    far = max(spotting_range(rules, st, k, h) for k in enemies)
    if d > far:
        cls = chart_value(rules, st, "tcs.terrain.spotting", (terrain_key(rules.board, h),)) or "non-open"
        return (f"{rules.hid(h)} is {d} hexes from {observer}; units there ({cls} terrain) are spotted at "
                f"{far} hexes at most ({d} > {far}, Spotting Range Table and visibility)")
    los = sight_line(rules, st, o, h)
    if los.blocked:
        b = los.blocker
        where = b.hex_id or "off the map"
        return f"no line of sight from {rules.hid(o)} to {rules.hid(h)}: {b.kind} in {where} blocks it"
    return f"{observer} does not spot the units in {rules.hid(h)}"


# ---------------------------------------------------------------- a fire's working before the roll (TCS 8.0, 9.0)

@dataclass
class FirePreview:
    """A fire as the engine would resolve it, up to the roll: ``lines`` is the working (each with its rule);
    ``refusal`` the engine's reason it may not be fired now (None: Fire plays ``action``); ``blank`` the printed
    value the fire will ask for first, if the game does not know it yet."""

    kind: str
    firers: tuple[str, ...]
    target: str
    hex: str
    action: str
    distance: int
    refusal: IllegalAction | None
    lines: list[Step] = field(default_factory=list)
    columns: list[int] = field(default_factory=list)      # the final column of each roll (area fire: per group)
    table: str = ""                                        # the chart slot read with the roll
    results: dict = field(default_factory=dict)            # roll -> printed result known, for the first column
    blank: str = ""

    @property
    def legal(self) -> bool:
        return self.refusal is None

    def text(self) -> str:
        head = f"{action_words(self)}: " + ("may fire" if self.legal else f"refused ({self.refusal})")
        return "\n".join([head] + [s.show() for s in self.lines])


def action_words(p: FirePreview) -> str:
    who = "+".join(p.firers)
    if p.kind == "point":
        return f"point fire by {who} at {p.target} in {p.hex}"
    return f"{'suppressive fire (SFA)' if p.kind == 'sfa' else 'area fire'} by {who} at {p.hex}"


class _Preview(Ctx):
    """A procedure context that reads chart cells and never rolls (the working before the roll)."""

    def roll(self, purpose: str, sides: int = 6) -> int:       # pragma: no cover - the preview stops before rolls
        raise AssertionError("a fire preview never rolls")


def fire_preview(rules, st, firers, target: str, kind: str = "area") -> FirePreview:
    """The working of a fire by ``firers`` (unit ids) at ``target`` (a hex id; a unit id for point fire) as the
    engine would resolve it, before the roll: range, line of sight, fire value, column and each shift with its
    rule; its ``refusal`` is the engine's own (``check_fire``)."""
    firers = tuple([firers] if isinstance(firers, str) else firers)
    if kind not in FIRE_KINDS:
        raise IllegalAction("", f"{kind!r} is not a kind of fire (area, sfa, point)")
    side = _side(rules, firers[0])
    a = A.Fire(kind, firers, target)
    refusal = turn_problem(rules, st, side)
    try:
        h = rules.check_fire(st, a, side)
    except IllegalAction as e:
        refusal = refusal or e
        h = _target_hex(rules, st, kind, target)
    hid = rules.hid(h) if h is not None else target
    pv = FirePreview(kind, firers, target, hid, a.text(), 0, refusal)
    if h is None:
        return pv
    for uid in firers:
        u = st.units[uid]
        if u.hex is None:
            continue
        d = hex_distance(u.hex, h)
        pv.distance = max(pv.distance, d)
        rng = int(counter(rules, st, "range", uid) or 0)
        pv.lines.append(Step(f"{uid}: {d} hex{'es' if d != 1 else ''} to {hid}, range {rng} "
                             f"({d} {'≤' if d <= rng else '>'} {rng})", "TCS 8.0"))
        pv.lines.append(Step(_sight_words(rules, st, uid, h, side, kind, target), "TCS 11.0"))
    ctx = _Preview(rules, st, [], [])
    try:
        if kind == "point":
            _point_working(rules, st, ctx, pv, firers[0], target, h)
        else:
            _area_working(rules, st, ctx, pv, firers, h)
    except Need as n:
        p = n.pending.get("prompt")
        pv.blank = p.text() if p is not None else str(n)
        pv.lines.append(Step(f"not known yet, asked when fired: {pv.blank}"))
    return pv


def _target_hex(rules, st, kind: str, target: str) -> Hex | None:
    if kind == "point":
        u = st.units.get(target)
        return u.hex if u is not None else None
    try:
        return rules.hex(target)
    except IllegalAction:
        return None


def _sight_words(rules, st, uid: str, h: Hex, side: str, kind: str, target: str) -> str:
    from .sight import spotted_hexes, spotters

    if kind == "point":
        seen = target in st.units and uid in spotters(rules, st, target, h, side, [uid])
    else:
        seen = h in spotted_hexes(rules, st, side, uid)
    if seen:
        return f"{uid} spots the enemy in {rules.hid(h)}: line of sight clear"
    return unseen_reason(rules, st, uid, h, side)


def _area_working(rules, st, ctx, pv: FirePreview, firers, h: Hex) -> None:
    from .procs import _clip, fire_shifts

    fp = 0
    for uid in firers:
        v = int(ctx.cell("tcs.counter.firepower", (rules.specs[uid].type,), purpose=f"{uid}'s firepower"))
        fp += v
        pv.lines.append(Step(f"{uid}: firepower {v}", "counter"))
    if len(firers) > 1:
        pv.lines.append(Step(f"fire value {fp} (the firers together)", "TCS 8.0"))
    base = int(ctx.cell("tcs.area_fire_column", (fp,), purpose=f"{'+'.join(firers)}: firepower {fp}"))
    pv.lines.append(Step(f"column {base} (firepower {fp}, Area Fire Column Table)", "TCS 8.0"))
    targets = [k for k, u in st.units.items() if u.hex == h]
    if rules.game is not None and hasattr(rules.game, "area_groups"):
        groups = rules.game.area_groups(rules, st, h, targets, True)
    else:
        groups = [(targets, "", True)]
    pv.table = "tcs.area_fire"
    for group, cls, feats in groups:
        shift, steps = fire_shifts(rules, st, ctx, h, [], feats, cls)
        col = _clip(base + shift, 1, 20)
        if len(groups) > 1:
            pv.lines.append(Step(f"against {', '.join(group)} (a roll of their own):", "BW 1.3b"))
        pv.lines += steps or [Step("no column shift")]
        pv.lines.append(Step(f"column {col} on the Area Fire Table, roll 2d6"
                             + (" (SFA: no step losses, morale checks only)" if pv.kind == "sfa" else ""), "TCS 8.0"))
        pv.columns.append(col)
    pv.results = _known_rolls(rules, st, "tcs.area_fire", (pv.columns[0],))


def _point_working(rules, st, ctx, pv: FirePreview, uid: str, target: str, h: Hex) -> None:
    from .procs import _clip, range_band

    rating = int(ctx.cell("tcs.counter.point_fire", (rules.specs[uid].type,), purpose=f"{uid}'s point fire"))
    pv.lines.append(Step(f"{uid}: point fire {rating}", "counter"))
    cls = ctx.cell("tcs.terrain.combat", (terrain_key(rules.board, h),), purpose="the target's terrain")
    if rules.game is not None and hasattr(rules.game, "target_class"):       # BW 1.3a/b: trench hexes
        cls2 = rules.game.target_class(rules, st, target, cls, ctx)
        if cls2 != cls:
            pv.lines.append(Step(f"{target} counts as a {cls2} target, not {cls}", "BW 1.3a"))
        cls = cls2
    col = _clip(rating, 1, 12)
    pv.lines.append(Step(f"column {col}, {cls} target on the Point Fire Table, roll 2d6", "TCS 9.0"))
    pv.columns.append(col)
    pv.table = "tcs.point_fire"
    pv.results = _known_rolls(rules, st, "tcs.point_fire", (col, cls))
    if rules.specs[target].vehicle:
        at = int(ctx.cell("tcs.counter.at", (rules.specs[uid].type,), purpose=f"{uid}'s AT rating"))
        armor = int(ctx.cell("tcs.counter.armor", (rules.specs[target].type,), purpose=f"{target}'s armour"))
        diff = _clip(at - armor, -6, 6)
        pv.lines.append(Step(f"on a hit, AT roll: AT {at} - armour {armor} = {diff:+d}, "
                             f"range {range_band(pv.distance)}", "TCS 9.0"))


def _known_rolls(rules, st, slot: str, key: tuple) -> dict:
    """Roll (2..12) -> the printed result the game knows for it in this column (those known only)."""
    out = {}
    for roll in range(2, 13):
        v = chart_value(rules, st, slot, (*key, roll))
        if v is not None:
            out[roll] = v
    return out


# ---------------------------------------------------------------- a unit's options, in words

@dataclass(frozen=True)
class UnitOption:
    """One entry of a unit's menu: ``label`` in words; ``action`` (text) when legal, else ``reason``."""

    kind: str                       # mode, move, area, sfa, point, assault, overrun, exit, other
    label: str
    action: str = ""
    reason: IllegalAction | None = None
    target: str = ""                # the hex (or unit, for point fire) it is aimed at

    @property
    def legal(self) -> bool:
        return self.reason is None and bool(self.action)

    def text(self) -> str:
        return self.label if self.legal else f"{self.label}: {self.reason}"


def unit_options(rules, st, uid: str) -> list[UnitOption]:
    """What unit ``uid`` may do now and what not, in words: a change of mode, moving (by dragging), fire at each
    enemy it may fire at (area, SFA, point), assaults and overruns, leaving the map, and a game's own unit actions;
    the nearest enemies it may not fire at or assault are there too, each with the engine's reason."""
    side = _side(rules, uid)
    u = st.units[uid]
    if u.hex is None:
        return [UnitOption("other", f"{uid} is not on the map", reason=IllegalAction("", f"{uid} is not on the map"))]
    out: list[UnitOption] = []
    p = st.pending[0] if st.pending else None
    if p is not None and p["kind"] == "choice" and uid in p["options"]:
        # a decision this unit is one answer of (TCS 12.0: which unit fires overwatch at a unit that moved)
        what = "Fire overwatch" if p["what"] == "overwatch" else f"Choose {uid}"
        out.append(UnitOption("choice", f"{what}: {p['text']}", f"choose {p['what']} {uid}"))
    problem = turn_problem(rules, st, side)
    legal = [] if problem is not None else _legal(rules, st)
    mine = [a for a in legal if uid in _units_of(a)]
    other = "fire" if u.mode == "move" else "move"
    out.append(_option(rules, st, uid, side, A.SetMode(uid, other), mine, problem, "mode"))
    moves = [a for a in mine if isinstance(a, A.Move)]
    if moves:
        out.append(UnitOption("move", f"Move: drag the counter ({len(moves)} hex{'es' if len(moves) != 1 else ''} "
                                      "next to it may be entered)", action=moves[0].text()))
    else:
        out.append(UnitOption("move", "Move", reason=problem or _move_reason(rules, st, uid, side)))
    words = getattr(rules.game, "move_words", None) if rules.game is not None else None
    for n in rules.board.neighbors(u.hex) if words is not None else ():
        label = words(rules, st, uid, n)          # a move the game names (BW 1.4b: breaching wire)
        if label:
            a = A.Move(uid, rules.hid(n))
            out.append(UnitOption("special", label, a.text(), target=a.to) if a in moves else
                       UnitOption("special", label, target=a.to, reason=problem or _reason(rules, st, a, side)))
    fires = [a for a in mine if isinstance(a, A.Fire)]
    out += [UnitOption(a.kind, action_label(rules, st, a, own=True), a.text(), target=a.target) for a in fires]
    for a in fires:                      # area fire allowed but not an SFA (an unassigned unit, TCS 6.0): say why
        sfa = A.Fire("sfa", a.units, a.target)
        if a.kind == "area" and sfa not in fires:
            out.append(UnitOption("sfa", action_label(rules, st, sfa, own=True), target=a.target,
                                  reason=_reason(rules, st, sfa, side)))
    fired_at = {rules.hex(a.target) if a.kind != "point" else st.units[a.target].hex for a in fires}
    enemies = sorted(rules._enemy_hexes(st, side), key=lambda h: (hex_distance(u.hex, h), h))
    refused = [h for h in enemies if h not in fired_at][:NEAREST_REFUSED]
    for h in refused:
        a = A.Fire("area", (uid,), rules.hid(h))
        out.append(UnitOption("area", action_label(rules, st, a, own=True), target=a.target,
                              reason=problem or _reason(rules, st, a, side)))
    assaults = [a for a in mine if isinstance(a, A.Assault)]
    out += [UnitOption("overrun" if a.overrun else "assault", action_label(rules, st, a, own=True), a.text(), target=a.hex)
            for a in assaults]
    taken = {a.hex for a in assaults}
    for h in enemies:
        if are_adjacent(u.hex, h) and rules.hid(h) not in taken:
            a = A.Assault((uid,), rules.hid(h))
            out.append(UnitOption("assault", action_label(rules, st, a, own=True), target=a.hex,
                                  reason=problem or _reason(rules, st, a, side)))
    if not any(o.kind in ("assault", "overrun") for o in out):
        out.append(UnitOption("assault", "Assault", reason=problem or IllegalAction(
            "TCS 15.0", f"no enemy unit is next to {uid} (an assault goes into an adjacent enemy hex)")))
    if rules.exits:
        a = A.Exit(uid)
        out.append(_option(rules, st, uid, side, a, mine, problem, "exit"))
    seen = {o.action for o in out if o.action}
    for a in mine:                       # a game's own unit actions (Leros: embarking), in words
        if a.text() not in seen and not isinstance(a, (A.Move, A.Fire, A.Assault, A.SetMode, A.Exit)):
            out.append(UnitOption("other", action_label(rules, st, a, own=True), a.text()))
    return out


def _units_of(a) -> tuple:
    if hasattr(a, "units"):
        return tuple(a.units)
    return (a.unit,) if hasattr(a, "unit") else ()


def _option(rules, st, uid, side, a, mine, problem, kind) -> UnitOption:
    if a in mine:
        return UnitOption(kind, action_label(rules, st, a, own=True), a.text())
    return UnitOption(kind, action_label(rules, st, a, own=True), reason=problem or _reason(rules, st, a, side))


def _reason(rules, st, a, side) -> IllegalAction:
    try:
        check(rules, st, a, side)
    except IllegalAction as e:
        return e
    return IllegalAction("", f"{a.text()} is not offered now")


def _move_reason(rules, st, uid: str, side: str) -> IllegalAction:
    """Why no neighbour may be entered: the engine's refusal, the same for every neighbour, or the distinct ones."""
    u = st.units[uid]
    found: dict = {}
    for n in rules.board.neighbors(u.hex):
        try:
            rules.check_move(st, uid, n, side)
        except IllegalAction as e:
            found.setdefault((e.rule, e.message), e)
    if not found:
        return IllegalAction("TCS 5.0", f"{uid} may not move now")
    if len(found) == 1:
        return next(iter(found.values()))
    first = next(iter(found.values()))
    return IllegalAction(first.rule, "no neighbouring hex may be entered: "
                         + "; ".join(f"{m} ({r})" if r else m for r, m in list(found)[:3]))


def why_idle(rules, st, uid: str) -> IllegalAction | None:
    """Why unit ``uid`` can do nothing now (not its phase; or each thing it might do, refused with its rule);
    None if it may do something."""
    if uid not in rules.specs or st.units[uid].hex is None:
        return None
    side = rules.specs[uid].side
    problem = turn_problem(rules, st, side)
    if problem is not None:
        return problem
    opts = unit_options(rules, st, uid)
    if any(o.legal for o in opts):
        return None
    u = st.units[uid]
    parts = []
    mode = next(o for o in opts if o.kind == "mode")
    mv = next(o for o in opts if o.kind == "move")
    parts.append(f"it may not move ({_said(mv.reason)})")
    fires = [o for o in opts if o.kind in FIRE_KINDS]
    if fires:
        parts.append(f"it may not fire at {fires[0].target}, the nearest enemy ({_said(fires[0].reason)})")
    else:
        parts.append("no enemy unit is on the map to fire at")
    parts.append(f"it may not change to {'fire' if u.mode == 'move' else 'move'} mode ({_said(mode.reason)})")
    first = mv.reason if u.mode == "move" else (fires[0].reason if fires else mode.reason)
    return IllegalAction(first.rule if first is not None else "", f"{uid} can do nothing now: " + "; ".join(parts))


def _said(e: IllegalAction | None) -> str:
    return str(e) if e is not None else "refused"


# ---------------------------------------------------------------- actions in words

def action_label(rules, st, a, own: bool = False) -> str:
    """An action in words for a list: ``1-3: area fire at B04.07 (B-1)``, ``AT-1: point fire at T-1 in B08.06``,
    ``Fire mission: Bty-1 on B04.05, HE, spotted by FO-R``; ``own``: for the unit's own menu, without its name
    (``Change to Move mode (costs half its movement allowance: 3 of 6 MPs)``, ``Assault B05.05``)."""
    words = _unit_words(rules, st, a)
    if words is not None:
        if own:
            return words
        who = "+".join(_units_of(a))
        return f"{who}: {words[0].lower()}{words[1:]}"
    return _other_words(rules, st, a)


def _unit_words(rules, st, a) -> str | None:

    if isinstance(a, A.SetMode):
        if a.mode == "move" and a.unit in rules.specs:
            ma = rules.ma(st, a.unit)
            return f"Change to Move mode (costs half its movement allowance: {ma / 2} of {ma} MPs)"
        return f"Change to {a.mode.capitalize()} mode"
    if isinstance(a, A.Move):
        return f"Move to {a.to}"
    if isinstance(a, A.Fire):
        if a.kind == "point":
            at = st.units[a.target].hex if a.target in st.units else None
            return f"Point fire at {a.target}" + (f" in {rules.hid(at)}" if at is not None else "")
        try:
            there = [k for k in rules.units_at(st, rules.hex(a.target)) if rules.specs[k].side != rules.specs[a.units[0]].side]
        except (IllegalAction, KeyError):
            there = []
        what = "Suppressive fire (SFA)" if a.kind == "sfa" else "Area fire"
        return f"{what} at {a.target}" + (f" ({', '.join(there)})" if there else "")
    if isinstance(a, A.Assault):
        return f"{'Overrun' if a.overrun else 'Assault'} {a.hex}"
    if isinstance(a, A.Exit):
        return "Leave the map here (1 MP)"
    return None


def _other_words(rules, st, a) -> str:
    from ...charts import ChartAnswer

    if isinstance(a, A.End):
        return "End this step"
    if isinstance(a, A.Airstrike):
        return f"Air strike on {a.hex}"
    if isinstance(a, A.PlaceMission):
        ammo = {"he": "HE", "smoke": "smoke", "illum": "illumination"}.get(a.ammo, a.ammo)
        return f"Fire mission: {a.battery} on {a.hex}, {ammo}, spotted by {a.spotter}" \
            + (" (continuous)" if a.continuous else "")
    if isinstance(a, A.Lift):
        return f"Lift barrage {a.marker}"
    if isinstance(a, A.Plot):
        return f"Plot the next hour's super-heavy fire on {a.hex}"
    if isinstance(a, A.Complete):
        return f"{'Cancel' if a.cancel else 'Complete'} Op Sheet {a.sheet}"
    if isinstance(a, A.Implement):
        return f"Roll to implement Op Sheet {a.sheet}"
    if isinstance(a, A.ReserveCheck):
        return f"Roll the reserve check of Op Sheet {a.sheet}"
    if isinstance(a, A.Assign):
        return f"Add {a.unit} to Op Sheet {a.sheet}"
    if isinstance(a, A.NewSheet):
        return f"New {a.type.replace('_', ' ')} Op Sheet {a.sheet} for {a.formation}"
    if isinstance(a, A.Choose):
        return f"Choose {a.what}: {a.value}"
    if isinstance(a, ChartAnswer):
        return f"Printed result: {a.value}"
    words = getattr(a, "words", None)           # a game's own action that says itself in words
    return words(rules, st) if callable(words) else a.text()


__all__ = ["FirePreview", "UnitOption", "action_label", "fire_preview", "sight_line", "turn_problem", "unit_options",
           "unseen_reason", "why_idle", "why_not"]
