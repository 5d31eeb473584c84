"""The Spanish Civil War platoon skirmish on the rules framework: ``legal_actions`` / ``apply``.

The state is plain data (a dict); ``apply`` works on a copy and returns it
with the events (every throw among them).  The turn sequence is written
down in ``docs/skirmish-turn.md``.
"""
from __future__ import annotations

import copy

import numpy as np
from shapely.geometry import LineString, Point

from ...errors import BadFile, IllegalAction, Problem
from ...game import Event, Outcome, seed_rng
from engine.maps.table import distance
from . import procedures as P
from .actions import (Assault, Bayonet, Cover, EndTurn, Fire, Grenade, Hold, Join, Leave, Move, Order, Place,
                      PressOn, Rally, TakeCover, order_from_dict, parse_order)
from .cone import (band_polygons, band_rank, card_front_centre, cards_revealed, closest_band_on_path, crowded,
                   range_band)
from .data import load_tables
from .dice import shuffle, throw
from .enemy import active_guns, cones_holding, gun_cone, lay_gun, nearest_on_path, react
from .scenario import ScwScenario

SUITS = "SHDC"
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
PICTURES = ("J", "Q", "K")
EPS = 1e-6


class ScwRules:
    """The skirmish rules bound to one scenario."""

    name = "scw"
    sides = ("attacker", "defender")     # the player's platoon; the positions the program holds

    def __init__(self, scenario: ScwScenario):
        self.scenario = scenario
        self.table = scenario.table
        self.t = load_tables()
        self.radius = self.table.footprint_radius
        self.bands = self.t.hmg_bands

    # ------------------------------------------------------------ set-up
    def initial_state(self, seed: int) -> dict:
        """Deploy the attackers on the base line and deal the cards (SCW Scenario 1, 2)."""
        sc = self.scenario
        state = {"turn": 1, "phase": "turn", "rng": seed_rng(seed), "teams": {}, "leaders": {}, "cards": {},
                 "guns": {}, "covering": {}, "covering_kind": None, "moving": [], "pending": None,
                 "fallen": [], "outcome": None, "start_figures": 0, "last_turn": sc.last_turn,
                 "hand_dice": []}
        self._deploy(state)
        self._deal(state)
        if sc.placement == "auto":
            self._place_automatically(state)
        else:
            state["phase"] = "setup"
        return state

    def _deploy(self, state: dict) -> None:
        troops = self.t.troop(self.scenario.attacker_troops)
        org = self.t["platoon"]["teams"]
        plan: list[tuple[int, dict]] = []
        platoons = self.t["company"]["platoons"] if self.scenario.force == "company" else 1
        for p in range(1, platoons + 1):
            plan += [(p, t) for t in org]
        if self.scenario.force == "company":
            plan.append((0, self.t["company"]["hq"]))
        spots = self.table.line_points(self.scenario.baseline, len(plan))
        for i, ((p, spec), at) in enumerate(zip(plan, spots), start=1):
            tid = f"T{i}"
            name = spec["name"] if platoons == 1 or p == 0 else f"{p} Pl {spec['name']}"
            state["teams"][tid] = {"id": tid, "name": name, "kind": spec["kind"], "troops": troops.key,
                                   "figures": spec["figures"], "bravado": troops.bravado, "at": list(at),
                                   "cover": False, "pinned": False, "done": False, "left_cover": False,
                                   "alive": True, "platoon": p}
            state["start_figures"] += spec["figures"]
            if spec.get("leader"):
                lid = f"L{p}"
                self._add_leader(state, lid, f"{p} Pl leader" if platoons > 1 else "Platoon leader",
                                 "platoon", tid, troops)
            if spec.get("commissar"):
                self._add_leader(state, "CO", "Company commander", "company", tid, troops)
                self._add_leader(state, "CM", "Commissar", "commissar", tid, troops)

    def _add_leader(self, state, lid, name, rank, tid, troops) -> None:
        state["leaders"][lid] = {"id": lid, "name": name, "rank": rank, "team": tid,
                                 "at": list(state["teams"][tid]["at"]), "bravado": troops.bravado,
                                 "troops": troops.key, "alive": True, "moved": False, "rallied": False,
                                 "used_modifier": False, "may_rally": rank in ("platoon", "company")}

    def _deal(self, state: dict) -> None:
        """One picture card and five from the shuffled rest, shuffled together face down (SCW Scenario 2)."""
        deck = [r + s for s in SUITS for r in RANKS]
        pictures = [c for c in deck if c[:-1] in PICTURES]
        pick = shuffle(state, pictures)[0]
        rest = shuffle(state, [c for c in deck if c != pick])
        hand = shuffle(state, rest[: self.t["cards"]["drawn"]] + [pick])
        for i, face in enumerate(hand, start=1):
            cid = f"C{i}"
            state["cards"][cid] = {"id": cid, "face": face, "picture": face[:-1] in PICTURES, "revealed": False,
                                   "position": None, "at": None, "facing": None, "front": None}

    def _place_automatically(self, state: dict) -> None:
        """Lay the cards on defensive positions, never more than two within 4 inches (SCW Scenario 2)."""
        free = shuffle(state, sorted(loc.name for loc in self.table.locations_of_kind(self.scenario.position_kind)))
        chosen: list[str] = []
        for name in free:
            if len(chosen) == len(state["cards"]):
                break
            if not self.crowded(chosen + [name]):
                chosen.append(name)
        if len(chosen) < len(state["cards"]):
            raise BadFile([Problem(self.table.source, "points",
                                   f"too few {self.scenario.position_kind} positions spread out enough for "
                                   f"{len(state['cards'])} cards, no more than two within 4 inches "
                                   "(SCW Scenario 2)")])
        for cid, name in zip(sorted(state["cards"]), chosen):
            self._lay_card(state["cards"][cid], name)

    def crowded(self, names: list[str]) -> bool:
        """Whether cards on these positions would put more than two within 4 inches of each other (SCW Scenario 2)."""
        c = self.t["cards"]
        return crowded(np.array([self.table.location(n).at for n in names]), c["crowding_range"], c["crowding_most"])

    def _lay_card(self, card: dict, position: str) -> None:
        loc = self.table.location(position)
        card["position"] = position
        card["at"] = list(loc.at)
        card["facing"] = loc.facing
        card["front"] = list(card_front_centre(loc.at, loc.facing, self.t["cards"]["card_depth"]))

    # ------------------------------------------------------------ the contract
    def parse_action(self, text: str) -> Order:
        return parse_order(text)

    def action_from_dict(self, d: dict) -> Order:
        return order_from_dict(d)

    def state_to_dict(self, state: dict) -> dict:
        return copy.deepcopy(state)

    def state_from_dict(self, d: dict) -> dict:
        return copy.deepcopy(d)

    def is_over(self, state: dict) -> bool:
        return state["outcome"] is not None

    def outcome(self, state: dict) -> Outcome | None:
        o = state["outcome"]
        return Outcome(o["winner"], o["reason"]) if o else None

    def current_side(self, state: dict) -> str | None:
        if state["outcome"]:
            return None
        return "defender" if state["phase"] == "setup" else "attacker"

    def view(self, state: dict) -> dict:
        """The state as the attacking player may see it: face-down cards keep their faces hidden."""
        v = copy.deepcopy(state)
        v.pop("rng")
        for c in v["cards"].values():
            if not c["revealed"]:
                c["face"] = None
                c["picture"] = None
        return v

    def allowance(self, state: dict, team: str) -> float:
        """How far a team may be ordered to move now: its Bravado in inches (SCW Advance 1), 0 if it cannot move."""
        t = state["teams"][team]
        if not t["alive"] or t["pinned"] or t["done"] or t["cover"] or state["pending"]:
            return 0.0
        return float(t["bravado"])

    def preview_guns(self, state: dict, team: str, at: tuple[float, float]) -> dict[str, dict]:
        """Where every firing gun would lay if ``team`` were moving at ``at`` (for a team being dragged).

        Returns ``{gun id: {"bearing", "target", "cone", "bands"}}``; the state is not changed.
        The guns lay as they would for the move from where the team stands to ``at`` (docs/skirmish-turn.md).
        """
        s = copy.deepcopy(state)
        start = tuple(s["teams"][team]["at"])
        end = (float(at[0]), float(at[1]))
        react(s, team, self.radius, [], path=LineString([start, end]) if distance(start, end) > EPS else None)
        return {g["id"]: {"bearing": g["bearing"], "target": g.get("target"), "cone": gun_cone(g),
                          "bands": band_polygons(tuple(g["at"]), gun_cone(g), self.bands)}
                for g in active_guns(s)}

    def apply(self, state: dict, action) -> tuple[dict, list[Event]]:
        """Check the order, then carry it out on a copy of the state; returns the new state and its events."""
        if isinstance(action, str):
            action = parse_order(action)
        if state["outcome"]:
            raise IllegalAction("", f"the game is over: {state['outcome']['reason']}")
        if state["phase"] == "setup" and action.verb != "place":
            raise IllegalAction("SCW Scenario 2", "first the cards are laid on the table")
        p = state["pending"]
        if p and action.verb not in (("press-on", "take-cover") if p["kind"] == "press_on" else ("bayonet", "hold")):
            raise IllegalAction("", f"first decide: {self._pending_text(state)}")
        s = copy.deepcopy(state)
        return s, self.apply_in_place(s, action)

    def apply_in_place(self, state: dict, action) -> list[Event]:
        """``apply`` on ``state`` itself, no copy (a simulation's own state); returns the events.  An order the
        rules refuse may leave ``state`` half changed: it is for orders from ``legal_actions``."""
        if isinstance(action, str):
            action = parse_order(action)
        if state["outcome"]:
            raise IllegalAction("", f"the game is over: {state['outcome']['reason']}")
        handler = getattr(self, "_do_" + action.verb.replace("-", "_"))
        events: list[Event] = []
        handler(state, action, events)
        self._check_outcome(state, events)
        return events

    # ------------------------------------------------------------ look-ups
    def _team(self, state, tid, rule="") -> dict:
        t = state["teams"].get(tid)
        if t is None:
            raise IllegalAction(rule, f"there is no team {tid!r} (teams: {', '.join(state['teams'])})")
        if not t["alive"]:
            raise IllegalAction(rule, f"{tid} ({t['name']}) has been wiped out")
        return t

    def _gun(self, state, gid, rule="") -> dict:
        g = state["guns"].get(gid)
        if g is None:
            raise IllegalAction(rule, f"there is no machine gun at {gid!r}"
                                      + (f" (guns: {', '.join(state['guns'])})" if state["guns"] else ""))
        if g["captured"]:
            raise IllegalAction(rule, f"the gun at {gid} has been captured")
        return g

    def _leader(self, state, lid, rule="") -> dict:
        ld = state["leaders"].get(lid)
        if ld is None or not ld["alive"]:
            raise IllegalAction(rule, f"there is no living leader {lid!r}")
        return ld

    def _leader_with(self, state, tid) -> dict | None:
        """A leader with modifiers (not a natural leader) attached to this team."""
        for _, ld in sorted(state["leaders"].items()):
            if ld["alive"] and ld["team"] == tid and ld["rank"] in ("platoon", "company"):
                return ld
        return None

    def _ready(self, state, t, rule) -> None:
        if state["pending"]:
            raise IllegalAction(rule, f"first decide: {self._pending_text(state)}")
        if state["phase"] != "turn":
            raise IllegalAction("SCW Scenario 2", "the cards are still being placed")
        if t["pinned"]:
            raise IllegalAction("SCW Under Fire 1", f"{t['id']} is pinned until a leader rallies it")
        if t["done"]:
            raise IllegalAction(rule, f"{t['id']} has already acted this turn")

    def _pending_text(self, state) -> str:
        p = state["pending"]
        if p["kind"] == "press_on":
            return f"{p['team']} must press on or take cover"
        return f"{p['team']} may go in with the bayonet or hold"

    def _in_cone(self, state, at) -> list[dict]:
        return cones_holding(state, tuple(at), self.radius)

    def _band(self, gun, at) -> str | None:
        return range_band(tuple(gun["at"]), tuple(at), self.bands)

    # ------------------------------------------------------------ casualties
    def _casualties(self, state, t, n, events, why) -> None:
        """Remove ``n`` figures; a leader using his modifier this turn may be the one hit (SCW Leader Casualties 1)."""
        for _ in range(n):
            if not t["alive"]:
                return
            ld = self._leader_with(state, t["id"])
            if ld and ld["used_modifier"]:
                (d6,) = throw(state, events, "D6", f"is the casualty in {t['id']} its leader {ld['id']}?")
                if P.leader_hit(d6, self.t):
                    self._kill_leader(state, ld, events, why)
                    continue
            t["figures"] -= 1
            events.append(Event("casualty", f"{t['id']} ({t['name']}) loses a figure: {why} "
                                            f"({t['figures']} left)", {"team": t["id"], "why": why}))
            if t["figures"] <= 0:
                self._wipe_out(state, t, events)

    def _wipe_out(self, state, t, events) -> None:
        t["alive"] = False
        t["figures"] = 0
        events.append(Event("wiped_out", f"{t['id']} ({t['name']}) is wiped out", {"team": t["id"]}))
        for ld in state["leaders"].values():
            if ld["team"] == t["id"]:
                ld["team"] = None
                ld["at"] = list(t["at"])

    def _kill_leader(self, state, ld, events, why) -> None:
        ld["alive"] = False
        if ld["team"]:
            ld["at"] = list(state["teams"][ld["team"]]["at"])
        events.append(Event("leader_lost", f"{ld['name']} ({ld['id']}) is down: {why}", {"leader": ld["id"]}))
        if ld["rank"] == "platoon":
            state["fallen"].append({"leader": ld["id"], "at": ld["at"], "turn": state["turn"]})

    def _pin_check(self, t, events) -> None:
        if t["alive"] and t["bravado"] <= 0 and not t["pinned"]:
            t["pinned"] = True
            events.append(Event("pinned", f"{t['id']} is pinned at Bravado 0 (SCW Under Fire 1)", {"team": t["id"]}))

    # ------------------------------------------------------------ SCW Scenario 2: placing the cards
    def _do_place(self, state, a: Place, events) -> None:
        rule = "SCW Scenario 2"
        if state["phase"] != "setup":
            raise IllegalAction(rule, "the cards have all been placed")
        card = state["cards"].get(a.card)
        if card is None or card["position"] is not None:
            raise IllegalAction(rule, f"{a.card} is not a card waiting to be placed")
        if a.position not in self.table.locations:
            raise IllegalAction(rule, f"the table has no point {a.position!r}")
        taken = [c["position"] for c in state["cards"].values() if c["position"]]
        if a.position in taken:
            raise IllegalAction(rule, f"a card already lies at {a.position}")
        if self.crowded(taken + [a.position]):
            raise IllegalAction(rule, "no more than two cards may lie within 4 inches of each other")
        self._lay_card(card, a.position)
        events.append(Event("placed", f"a card is laid face down at {a.position}", {"card": a.card}))
        if all(c["position"] for c in state["cards"].values()):
            state["phase"] = "turn"
            events.append(Event("turn", "turn 1 begins", {"turn": 1}))

    # ------------------------------------------------------------ leaders
    def _do_join(self, state, a: Join, events) -> None:
        rule = "SCW Rallying 1"
        ld = self._leader(state, a.leader, rule)
        t = self._team(state, a.team, rule)
        if state["pending"]:
            raise IllegalAction(rule, f"first decide: {self._pending_text(state)}")
        if ld["moved"]:
            raise IllegalAction(rule, f"{ld['id']} has already moved this turn")
        if ld["team"] == t["id"]:
            raise IllegalAction(rule, f"{ld['id']} is already with {t['id']}")
        here = state["teams"][ld["team"]]["at"] if ld["team"] else ld["at"]
        d = distance(here, t["at"])
        if d > ld["bravado"] + EPS:
            raise IllegalAction("SCW Advance 1", f"{t['id']} is {d:.1f} inches away; {ld['id']} moves at most "
                                                 f"{ld['bravado']} inches")
        followers = [ld]
        cm = state["leaders"].get("CM")
        if ld["rank"] == "company" and cm and cm["alive"] and cm["team"] == ld["team"]:
            followers.append(cm)  # SCW Rallying 3: the commissar accompanies the company commander
        for f in followers:
            f["team"] = t["id"]
            f["at"] = list(t["at"])
            f["moved"] = True
            events.append(Event("joined", f"{f['name']} goes over to {t['id']} ({d:.1f} inches)",
                                {"leader": f["id"], "team": t["id"]}))

    def _do_rally(self, state, a: Rally, events) -> None:
        """SCW Rallying 1-4."""
        rule = "SCW Rallying 1"
        ld = self._leader(state, a.leader, rule)
        t = self._team(state, a.team, rule)
        if state["pending"]:
            raise IllegalAction(rule, f"first decide: {self._pending_text(state)}")
        if not ld["may_rally"]:
            raise IllegalAction(rule if ld["rank"] != "natural" else "SCW Leader Casualties 3",
                                f"{ld['name']} may not rally troops")
        if not t["pinned"]:
            raise IllegalAction(rule, f"{t['id']} is not pinned")
        if ld["rallied"]:
            raise IllegalAction(rule, f"{ld['id']} has already tried to rally this turn")
        if ld["team"] != t["id"]:
            self._do_join(state, Join(ld["id"], t["id"]), events)
        ld["rallied"] = True
        mods = {"rally": self.t["modifiers"]["rally"]}
        cm = state["leaders"].get("CM")
        commissar = ld["rank"] == "company" and cm is not None and cm["alive"] and cm["team"] == ld["team"]
        if commissar:
            mods["commissar"] = self.t["modifiers"]["rally_commissar"]
        if ld["rank"] == "commissar":
            mods["commissar rallying"] = self.t["modifiers"]["rally_by_commissar"]
        ld["used_modifier"] = True
        temp = None
        if t["bravado"] <= 0:
            (temp,) = throw(state, events, "AvD", f"temporary Bravado for {t['id']} (SCW Rallying 4)")
        roll = throw(state, events, "2" + self.t.troop(ld["troops"]).dice[1:], f"{ld['id']} rallies {t['id']}")
        res = P.rally(ld["bravado"], roll, mods)
        events.append(Event("rally", f"{ld['name']} rallying {t['id']}: {res.text}",
                            {"leader": ld["id"], "team": t["id"], "passed": res.passed}))
        if res.passed:
            t["pinned"] = False
            if temp is not None:
                t["bravado"] = temp
                events.append(Event("bravado", f"{t['id']} rallies at Bravado {temp}", {"team": t["id"]}))
            return
        if commissar:
            (d6,) = throw(state, events, "D6", "the commissar's pistol (SCW Rallying 3)")
            if P.commissar_shoots(d6, self.t):
                self._kill_leader(state, ld, events, "shot by the commissar after a failed rally")
                state["leaders"]["CM"]["may_rally"] = True

    # ------------------------------------------------------------ fire
    def _do_fire(self, state, a: Fire, events) -> None:
        """LMG fire to silence a gun (SCW Silencing 2-5); the gun holds and returns it (SCW Contact 4)."""
        rule = "SCW Silencing 2"
        t = self._team(state, a.team, rule)
        self._ready(state, t, rule)
        g = self._gun(state, a.gun, rule)
        if t["kind"] != "lmg":
            raise IllegalAction("SCW Silencing 1", f"only an LMG team fires to silence a gun; {t['id']} has rifles")
        if g["silenced"]:
            raise IllegalAction(rule, f"the gun at {g['id']} is silent")
        rng = distance(t["at"], g["at"])
        reach = self.t.bands("lmg")[-1][1]
        if rng > reach + EPS:
            raise IllegalAction("SCW Covering Fire 1", f"the gun is {rng:.1f} inches away; an LMG reaches {reach:g}")
        roll = throw(state, events, "2D6", f"{t['id']} fires on the gun at {g['id']}")
        lost, text = P.silencing_fire(rng, roll, self.t)
        events.append(Event("fire", f"{t['id']} fires on {g['id']}: {text}", {"team": t["id"], "gun": g["id"]}))
        t["done"] = True
        g["lmg_fire"].append(t["id"])
        self._gun_loses(state, g, lost, events)
        if not g["silenced"]:
            lay_gun(state, g, [], self.radius, events, "returns the LMG's fire")

    def _gun_loses(self, state, g, lost, events) -> None:
        if lost <= 0:
            return
        g["lost"] += lost
        g["lost_since_open"] += lost
        events.append(Event("gun_bravado", f"the gun at {g['id']} is down to Bravado {self._gun_bravado(g)}",
                            {"gun": g["id"]}))
        if g["lost_since_open"] >= self.t["hmg"]["silenced_at_loss"]:
            g["silenced"] = True
            events.append(Event("silenced", f"the gun at {g['id']} is silenced (SCW Silencing 5)", {"gun": g["id"]}))

    def _gun_bravado(self, g) -> int:
        return max(0, g["base"] - g["lost"])

    def gun_bravado(self, gun: dict) -> int:
        """A gun's Bravado now: its troops' less what fire has cost it (SCW Silencing 4)."""
        return self._gun_bravado(gun)

    def _do_cover(self, state, a: Cover, events) -> None:
        """Covering fire from LMG or rifle teams, not both in one turn (SCW Covering Fire 3-7)."""
        rule = "SCW Covering Fire 3"
        g = self._gun(state, a.gun, rule)
        if g["silenced"]:
            raise IllegalAction(rule, f"the gun at {g['id']} is silent")
        if not a.teams or len(set(a.teams)) != len(a.teams):
            raise IllegalAction(rule, "name the covering teams once each")
        teams = [self._team(state, tid, rule) for tid in a.teams]
        for t in teams:
            self._ready(state, t, rule)
        kinds = {t["kind"] for t in teams}
        if len(kinds) != 1:
            raise IllegalAction(rule, "LMG and rifle teams may not both give covering fire in the same turn")
        kind = kinds.pop()
        if state["covering_kind"] not in (None, kind):
            raise IllegalAction(rule, f"{state['covering_kind']} teams already give covering fire this turn")
        if state["moving"]:
            raise IllegalAction(rule, "covering fire is given before any team moves (docs/skirmish-turn.md)")
        if g["id"] in state["covering"]:
            raise IllegalAction(rule, f"covering fire against {g['id']} is already given this turn")
        bands = self.t.bands(kind)
        reach = bands[-1][1]
        ranges = {t["id"]: distance(t["at"], g["at"]) for t in teams}
        for tid, r in ranges.items():
            if r > reach + EPS:
                raise IllegalAction("SCW Covering Fire 1" if kind == "lmg" else "SCW Covering Fire 2",
                                    f"{tid} is {r:.1f} inches from the gun; a {kind} team reaches {reach:g}")
        leader = next((ld for ld in (self._leader_with(state, t["id"]) for t in teams) if ld), None)
        if leader:
            leader["used_modifier"] = True
        if kind == "lmg":
            (d6,) = throw(state, events, "D6", f"LMG covering fire on {g['id']}")
            close = any(r <= bands[0][1] + EPS for r in ranges.values())
            cov = P.lmg_covering(d6, len(teams), leader is not None, close, self.t)
            g["lmg_fire"].extend(t["id"] for t in teams)
        else:
            (avd,) = throw(state, events, "AvD", f"rifle covering fire on {g['id']}")
            cov = P.rifle_covering(avd, len(teams), leader is not None, self.t)
        for t in teams:
            t["done"] = True
        state["covering_kind"] = kind
        state["covering"][g["id"]] = {"kind": kind, "bonus": cov.bonus, "teams": list(a.teams)}
        events.append(Event("covering", f"{', '.join(a.teams)} cover the advance against {g['id']}: {cov.text}",
                            {"gun": g["id"], "bonus": cov.bonus}))
        if kind == "lmg":
            lay_gun(state, g, [], self.radius, events, "holds and returns the LMGs' fire")

    def _do_grenade(self, state, a: Grenade, events) -> None:
        """Grenades from cover within 3 inches: 4-6 silences (SCW Silencing 6, 7)."""
        rule = "SCW Silencing 6"
        t = self._team(state, a.team, rule)
        self._ready(state, t, rule)
        g = self._gun(state, a.gun, rule)
        if g["silenced"]:
            raise IllegalAction(rule, f"the gun at {g['id']} is already silent")
        if not t["cover"]:
            raise IllegalAction(rule, f"{t['id']} must throw its grenades from cover")
        d = distance(t["at"], g["at"])
        if d > self.t["ranges"]["grenade"] + EPS:
            raise IllegalAction(rule, f"the gun is {d:.1f} inches away; grenades reach "
                                      f"{self.t['ranges']['grenade']:g}")
        (d6,) = throw(state, events, "D6", f"{t['id']} throws grenades at {g['id']}")
        t["done"] = True
        if not P.grenade(d6):
            events.append(Event("grenade", f"{t['id']}'s grenades: no effect", {"team": t["id"]}))
            return
        g["silenced"] = True
        events.append(Event("silenced", f"{t['id']}'s grenades silence the gun at {g['id']} (SCW Silencing 7)",
                            {"gun": g["id"], "team": t["id"]}))
        if t["kind"] == "rifle":
            state["pending"] = {"kind": "bayonet", "team": t["id"], "gun": g["id"]}

    def _do_hold(self, state, a: Hold, events) -> None:
        p = state["pending"]
        if not p or p["kind"] != "bayonet" or p["team"] != a.team:
            raise IllegalAction("SCW Silencing 8", f"{a.team} has no bayonet charge to decline")
        state["pending"] = None
        events.append(Event("hold", f"{a.team} stays in cover", {"team": a.team}))

    def _do_bayonet(self, state, a: Bayonet, events) -> None:
        """Go in with the bayonet: leave cover at +2, the gun may re-open with ones costing more (SCW Silencing 8, 11)."""
        p = state["pending"]
        rule = "SCW Silencing 8"
        if not p or p["kind"] != "bayonet" or p["team"] != a.team:
            raise IllegalAction(rule, f"{a.team} has no chance to go in with the bayonet now")
        state["pending"] = None
        t = state["teams"][a.team]
        g = state["guns"][p["gun"]]
        if not self._leave_test(state, t, events, bayonet=True):
            return
        state["moving"].append(t["id"])
        casualties = 0
        roll = throw(state, events, "2" + self.t.troop(g["troops"]).dice[1:], f"does the gun at {g['id']} open up?")
        res = P.reopens(self._gun_bravado(g), roll)
        events.append(Event("reopen", res.text, {"gun": g["id"], "passed": res.passed}))
        if res.passed:
            g["silenced"] = False
            g["lost_since_open"] = 0
            lay_gun(state, g, [t["id"]], self.radius, events, "opens up on the charge")
            casualties += self._caught_in_new_cone(state, t, g, events, ones=True)
        if casualties:
            self._casualties(state, t, casualties, events, "the gun opened up on the charge")
            if t["alive"] and not t["pinned"]:
                self._press_on_test(state, t, events)
        if not t["alive"] or t["pinned"] or t["cover"]:
            return
        if not P.can_close_assault(distance(t["at"], g["at"]), t["bravado"]):
            events.append(Event("assault", f"{t['id']} cannot reach the gun now", {"team": t["id"]}))
            return
        start = tuple(t["at"])
        path = LineString([start, tuple(g["at"])])
        # SCW Contact 4, Under Fire 3: the other guns swing onto the charge; a cone or closer band it
        # enters on the way in is thrown for as any move's is
        others = [o for o in active_guns(state) if o["id"] != g["id"]]
        start_in = {o["id"] for o in self._in_cone(state, start)}
        for o in others:
            lay_gun(state, o, list(state["moving"]), self.radius, events, "swings to the nearest moving target",
                    at={t["id"]: nearest_on_path(path, o)})
        t["at"] = list(g["at"])
        entered = self._entry_tests(state, t, start, start_in, path, others, events)
        if entered:
            self._casualties(state, t, entered, events, "under fire on the way in")
            if not t["alive"] or t["pinned"]:
                return
        caught = self._reveal(state, path, events, t)
        if caught:
            self._casualties(state, t, caught, events, "caught by a gun revealed by the charge")
            if not t["alive"] or t["pinned"]:
                return
        self._close_assault(state, t, g, events)

    def _caught_in_new_cone(self, state, t, g, events, ones: bool = False) -> int:
        """A team caught moving in a cone that has just opened: as if moving into it for the first time (SCW Silencing 10)."""
        if g not in cones_holding(state, tuple(t["at"]), self.radius):
            return 0
        dice = "2" + self.t.troop(t["troops"]).dice[1:]
        roll = throw(state, events, dice, f"{t['id']} caught in the cone of {g['id']}")
        adv = P.advance(t["bravado"], roll, under_fire=True, moving=False)
        t["bravado"] = adv.bravado
        events.append(Event("under_fire", f"{t['id']} under fire from {g['id']}: {adv.text}", {"team": t["id"]}))
        cas = adv.casualties + (P.assault_ones(roll) if ones else 0)
        roll2 = throw(state, events, dice, f"{t['id']} enters the cone of {g['id']}")
        test = P.cone_entry(t["bravado"], roll2)
        events.append(Event("cone_entry", f"{t['id']}: {test.text}", {"team": t["id"]}))
        cas += test.casualties + (P.assault_ones(roll2) if ones else 0)
        self._pin_check(t, events)
        return cas

    # ------------------------------------------------------------ cover
    def _do_take_cover(self, state, a: TakeCover, events) -> None:
        """SCW Take Cover 1, 2."""
        rule = "SCW Take Cover 1"
        t = self._team(state, a.team, rule)
        p = state["pending"]
        if p and p["kind"] == "press_on" and p["team"] == t["id"]:
            state["pending"] = None
        else:
            if p:
                raise IllegalAction(rule, f"first decide: {self._pending_text(state)}")
            if t["cover"]:
                raise IllegalAction(rule, f"{t['id']} is already in cover")
            if t["pinned"]:
                raise IllegalAction("SCW Under Fire 1", f"{t['id']} is pinned")
        t["cover"] = True
        t["done"] = True
        events.append(Event("cover", f"{t['id']} takes cover", {"team": t["id"]}))

    def _do_press_on(self, state, a: PressOn, events) -> None:
        """SCW Take Cover 2, 3."""
        p = state["pending"]
        if not p or p["kind"] != "press_on" or p["team"] != a.team:
            raise IllegalAction("SCW Take Cover 2", f"{a.team} has no casualty to press on from")
        state["pending"] = None
        self._press_on_test(state, state["teams"][a.team], events)

    def _press_on_test(self, state, t, events) -> None:
        m = self.t["modifiers"]
        mods = {}
        ld = self._leader_with(state, t["id"])
        if ld:
            mods["leader with the team"] = m["press_on_leader"]
            ld["used_modifier"] = True
        guns = self._in_cone(state, t["at"])
        if any(state["covering"].get(g["id"], {}).get("kind") == "lmg" for g in guns):
            mods["LMG covering fire"] = m["press_on_lmg_cover"]
        ranks = [band_rank(self._band(g, t["at"]), self.bands) for g in guns]
        if ranks and min(ranks) == 0:
            mods["close range"] = m["press_on_close"]
        elif ranks and min(ranks) == 1:
            mods["effective range"] = m["press_on_effective"]
        roll = throw(state, events, "2" + self.t.troop(t["troops"]).dice[1:], f"{t['id']} presses on")
        res = P.press_on(t["bravado"], roll, mods)
        events.append(Event("press_on", f"{t['id']}: {res.text}", {"team": t["id"], "passed": res.passed}))
        if not res.passed:
            t["cover"] = True
        if res.casualties:
            self._casualties(state, t, res.casualties, events, "a double while pressing on")

    def _leave_test(self, state, t, events, bayonet: bool = False) -> bool:
        """SCW Take Cover 5, 6 (and SCW Silencing 8's +2 for the bayonet)."""
        m = self.t["modifiers"]
        mods = {}
        ld = self._leader_with(state, t["id"])
        if ld:
            mods["leader with the team"] = m["leave_leader"]
            ld["used_modifier"] = True
        in_cone = bool(self._in_cone(state, t["at"]))
        if not in_cone:
            mods["outside the cone"] = m["leave_outside_cone"]
        if bayonet:
            mods["with the bayonet"] = m["bayonet"]
        roll = throw(state, events, "2" + self.t.troop(t["troops"]).dice[1:], f"{t['id']} leaves cover")
        res = P.leave_cover(t["bravado"], roll, mods, in_cone)
        events.append(Event("leave_cover", f"{t['id']}: {res.text}", {"team": t["id"], "passed": res.passed}))
        if res.passed:
            t["cover"] = False
            t["left_cover"] = True
            return True
        t["bravado"] = res.bravado
        t["done"] = True
        if res.pinned:
            t["pinned"] = True
        return False

    def _do_leave(self, state, a: Leave, events) -> None:
        rule = "SCW Take Cover 5"
        t = self._team(state, a.team, rule)
        self._ready(state, t, rule)
        if not t["cover"]:
            raise IllegalAction(rule, f"{t['id']} is not in cover")
        self._leave_test(state, t, events)

    # ------------------------------------------------------------ movement
    def _check_move(self, state, t, dest, rule="SCW Advance 1") -> float:
        self._ready(state, t, rule)
        if t["cover"]:
            raise IllegalAction("SCW Take Cover 5", f"{t['id']} is in cover and must leave it before it moves")
        if not self.table.contains(dest):
            raise IllegalAction(rule, f"{dest[0]:g},{dest[1]:g} is off the {self.table.width:g} x "
                                      f"{self.table.height:g} inch table")
        d = distance(t["at"], dest)
        if d <= EPS:
            raise IllegalAction(rule, f"{t['id']} is already there")
        if d > t["bravado"] + EPS:
            raise IllegalAction(rule, f"{t['id']} moves at most its Bravado, {t['bravado']} inches; "
                                      f"that point is {d:.1f} inches away")
        return d

    def _do_move(self, state, a: Move, events) -> None:
        t = self._team(state, a.team, "SCW Advance 1")
        self._check_move(state, t, (a.x, a.y))
        self._advance(state, t, (a.x, a.y), events)

    def _do_assault(self, state, a: Assault, events) -> None:
        """SCW Bomb and Bayonet 1: reachable with the unmodified Bravado, before the dice."""
        rule = "SCW Bomb and Bayonet 1"
        t = self._team(state, a.team, rule)
        g = self._gun(state, a.gun, rule)
        d = distance(t["at"], g["at"])
        if not P.can_close_assault(d, t["bravado"]):
            raise IllegalAction(rule, f"the gun is {d:.1f} inches away, beyond {t['id']}'s Bravado of {t['bravado']}")
        self._check_move(state, t, tuple(g["at"]), rule)
        reached = self._advance(state, t, tuple(g["at"]), events, charge=True)
        if reached and t["alive"] and not t["pinned"]:
            state["pending"] = None
            self._close_assault(state, t, g, events)

    def _advance(self, state, t, dest, events, charge: bool = False) -> bool:
        """One team's move: the guns lay, the dice, fire, cones and bands, cards, re-opening guns (docs/skirmish-turn.md)."""
        start = tuple(t["at"])
        # a gun that swings onto the team catches it: that counts as moving into its cone (SCW Under Fire 3)
        start_in = {g["id"] for g in self._in_cone(state, start)}
        planned = LineString([start, dest])
        react(state, t["id"], self.radius, events, path=planned)   # measured at the move's nearest point
        guns = active_guns(state)
        under = [g for g in guns if gun_cone(g).dwithin(planned, self.radius)]
        dice = "2" + self.t.troop(t["troops"]).dice[1:]
        casualties = 0
        bonus = state["covering"].get(under[0]["id"], {}).get("bonus", 0) if under else 0
        roll = throw(state, events, dice, f"{t['id']} advances")
        adv = P.advance(t["bravado"], roll, under_fire=bool(under), covering=bonus)
        where = f" in the cone of {under[0]['id']}" if under else ""
        events.append(Event("advance", f"{t['id']}{where}: {adv.text}", {"team": t["id"], "rate": adv.rate}))
        t["bravado"] = adv.bravado
        casualties += adv.casualties
        for g in under[1:]:  # SCW Bomb and Bayonet 4: a separate test for each cone
            b = state["covering"].get(g["id"], {}).get("bonus", 0)
            r2 = throw(state, events, dice, f"{t['id']} under fire from {g['id']} as well")
            a2 = P.advance(t["bravado"], r2, under_fire=True, covering=b, moving=False)
            events.append(Event("under_fire", f"{t['id']} in the cone of {g['id']}: {a2.text}", {"team": t["id"]}))
            t["bravado"] = a2.bravado
            casualties += a2.casualties
        total = planned.length
        went = min(total, adv.rate)
        end_pt = planned.interpolate(went)
        end = (round(end_pt.x, 4), round(end_pt.y, 4))
        t["at"] = list(end)
        path = LineString([start, end]) if went > EPS else Point(start)
        events.append(Event("moved", f"{t['id']} moves {went:.1f} inches to {end[0]:g},{end[1]:g}",
                            {"team": t["id"], "from": list(start), "to": list(end)}))
        if went > EPS:
            casualties += self._entry_tests(state, t, start, start_in, path, guns, events)
        if t["id"] not in state["moving"]:
            state["moving"].append(t["id"])
        t["done"] = True
        self._pin_check(t, events)
        # SCW Silencing 9, 10: movement within a silenced gun's close range may wake it
        woke = False
        for gid, g in sorted(state["guns"].items()):
            if not g["silenced"] or g["captured"] or not t["alive"]:
                continue
            if path.distance(Point(g["at"])) > self.t["hmg"]["reopen_range"] + EPS:
                continue
            r4 = throw(state, events, "2" + self.t.troop(g["troops"]).dice[1:], f"does the gun at {gid} open up?")
            res = P.reopens(self._gun_bravado(g), r4)
            events.append(Event("reopen", res.text, {"gun": gid, "passed": res.passed}))
            if res.passed:
                g["silenced"] = False
                g["lost_since_open"] = 0
                woke = True
                lay_gun(state, g, list(state["moving"]), self.radius, events, "opens up again")
                casualties += self._caught_in_new_cone(state, t, g, events, ones=charge)
        revealed = self._reveal(state, path, events, t)
        casualties += revealed
        if casualties:
            self._casualties(state, t, casualties, events,
                             "under fire" if under or woke or revealed else "an odd double")
        reached_dest = went >= total - EPS
        if (casualties and t["alive"] and not t["pinned"] and self._in_cone(state, t["at"])
                and not (charge and reached_dest)):
            state["pending"] = {"kind": "press_on", "team": t["id"]}
            events.append(Event("choice", f"{t['id']} has lost men in the cone: press on or take cover "
                                          "(SCW Take Cover 2)", {"team": t["id"]}))
        return reached_dest

    def _entry_tests(self, state, t, start, start_in, path, guns, events) -> int:
        """SCW Under Fire 3: a throw below the current Bravado for each cone the move enters and each closer
        range band it reaches, whatever the order that moved the team (move, assault, bayonet charge).
        Returns the casualties."""
        dice = "2" + self.t.troop(t["troops"]).dice[1:]
        casualties = 0
        for g in guns:
            reached = closest_band_on_path(tuple(g["at"]), path, gun_cone(g), self.bands, self.radius)
            if reached is None:
                continue
            was = self._band(g, start) if g["id"] in start_in else None
            if g["id"] in start_in and band_rank(reached, self.bands) >= band_rank(was, self.bands):
                continue
            r3 = throw(state, events, dice, f"{t['id']} enters the {reached} band of {g['id']}")
            test = P.cone_entry(t["bravado"], r3)
            what = "the cone" if g["id"] not in start_in else f"the {reached} range band"
            events.append(Event("cone_entry", f"{t['id']} moves into {what} of {g['id']}: {test.text}",
                                {"team": t["id"], "gun": g["id"]}))
            casualties += test.casualties
        return casualties

    def _reveal(self, state, path, events, mover: dict | None = None) -> int:
        """Turn over every card the move came within 18 inches of (SCW Contact 1); pictures become guns.

        A gun revealed by a move lays at once; if its cone holds the moving team where its move ended,
        the team throws as if moving into a cone for the first time (the choice made for SCW Contact 1
        with SCW Under Fire 1 and 3, as SCW Silencing 10 does for a gun that opens up again).  Returns
        the moving team's casualties from those throws.
        """
        hidden = [c for _, c in sorted(state["cards"].items()) if not c["revealed"] and c["front"]]
        if not hidden:
            return 0
        casualties = 0
        hit = cards_revealed(np.array([c["front"] for c in hidden]), path, self.t["cards"]["reveal_range"])
        for c, h in zip(hidden, hit):
            if not h:
                continue
            c["revealed"] = True
            if not c["picture"]:
                events.append(Event("revealed", f"the card at {c['position']} is the {c['face']}: nobody there",
                                    {"card": c["id"], "face": c["face"]}))
                continue
            g = state["guns"][c["id"]] = self.gun_from_card(c)
            events.append(Event("revealed", f"the card at {c['position']} is the {c['face']}: a machine gun!",
                                {"card": c["id"], "face": c["face"], "gun": True}))
            lay_gun(state, g, list(state["moving"]), self.radius, events, "opens fire")
            if mover is not None and mover["alive"]:
                casualties += self._caught_in_new_cone(state, mover, g, events)
        return casualties

    def gun_from_card(self, card: dict) -> dict:
        """The machine gun a turned picture card becomes, laid the way the card faces (SCW Contact 1)."""
        troops = self.t.troop(self.scenario.defender_troops)
        return {"id": card["id"], "at": list(card["at"]), "bearing": float(card["facing"]), "base": troops.bravado,
                "troops": troops.key, "lost": 0, "lost_since_open": 0, "silenced": False, "captured": False,
                "lmg_fire": [], "target": None, "figures": self.t["hmg"]["figures"]}

    # ------------------------------------------------------------ SCW At 'em with Bomb and Bayonet
    def _close_assault(self, state, t, g, events) -> None:
        (d10,) = throw(state, events, "D10", f"{t['id']} closes with the gun at {g['id']}")
        troops = self.t.troop(g["troops"])
        prisoners = 0
        res = P.close_assault(d10, g["lost"], troops.surrender, 0, self.t)
        if res.result == "surrender":
            (prisoners,) = throw(state, events, "D6", "prisoners")
            res = P.close_assault(d10, g["lost"], troops.surrender, prisoners, self.t)
        events.append(Event("assault", f"{t['id']}: {res.text}", {"team": t["id"], "gun": g["id"],
                                                                   "result": res.result}))
        if res.attackers_killed:
            self._wipe_out(state, t, events)
            return
        if res.result == "stiff_fight":
            roll = throw(state, events, "2" + self.t.troop(t["troops"]).dice[1:], f"{t['id']} after a stiff fight")
            if not P.below(sum(roll), t["bravado"]):
                self._casualties(state, t, 1, events, "a stiff fight")
        g["captured"] = True
        g["silenced"] = True
        g["prisoners"] = prisoners
        if t["alive"]:
            t["at"] = list(g["at"])
        events.append(Event("captured", f"the position at {g['id']} is taken", {"gun": g["id"]}))

    # ------------------------------------------------------------ the end of a turn
    def _do_end(self, state, a: EndTurn, events) -> None:
        if state["pending"]:
            raise IllegalAction("", f"first decide: {self._pending_text(state)}")
        if state["phase"] != "turn":
            raise IllegalAction("SCW Scenario 2", "the cards are still being placed")
        # SCW Take Cover 4: teams in cover within a cone throw for each cone (odd doubles)
        for tid, t in sorted(state["teams"].items()):
            if not t["alive"] or not t["cover"]:
                continue
            for g in self._in_cone(state, t["at"]):
                roll = throw(state, events, "2" + self.t.troop(t["troops"]).dice[1:],
                             f"{tid} in cover in the cone of {g['id']}")
                res = P.cover_casualty(roll)
                events.append(Event("cover_fire", f"{tid}: {res.text}", {"team": tid, "gun": g["id"]}))
                if res.casualties:
                    self._casualties(state, t, 1, events, f"fire from {g['id']} on its cover")
        self._check_outcome(state, events)
        if state["outcome"]:
            return
        state["turn"] += 1
        for t in state["teams"].values():
            t["done"] = False
            t["left_cover"] = False
        for ld in state["leaders"].values():
            ld["moved"] = ld["rallied"] = ld["used_modifier"] = False
        for g in state["guns"].values():
            g["lmg_fire"] = []
        state["moving"] = []
        state["covering"] = {}
        state["covering_kind"] = None
        events.append(Event("turn", f"turn {state['turn']} begins", {"turn": state["turn"]}))
        self._natural_leaders(state, events)

    def _natural_leaders(self, state, events) -> None:
        """SCW Leader Casualties 2: 1D10 for a natural leader, then teams nearest first throw for a 6."""
        fallen, state["fallen"] = state["fallen"], []
        for f in fallen:
            (d10,) = throw(state, events, "D10", f"a natural leader after the loss of {f['leader']}?")
            if not P.natural_leader(d10, self.t):
                events.append(Event("natural_leader", "no natural leader comes forward", {}))
                continue
            alive = [t for _, t in sorted(state["teams"].items()) if t["alive"]]
            if not alive:
                return
            order = [t["id"] for t in sorted(alive, key=lambda t: (distance(t["at"], f["at"]), t["id"]))]
            chosen = None
            for i in range(len(order) * 12):
                tid = order[i % len(order)]
                (d6,) = throw(state, events, "D6", f"does the natural leader come from {tid}?")
                if P.natural_leader_team([tid], [d6], self.t):
                    chosen = tid
                    break
            if chosen is None:
                continue
            t = state["teams"][chosen]
            lid = f"N{sum(1 for ld in state['leaders'].values() if ld['rank'] == 'natural') + 1}"
            self._add_leader(state, lid, "Natural leader", "natural", chosen, self.t.troop(t["troops"]))
            events.append(Event("natural_leader", f"a natural leader ({lid}) steps forward in {chosen}",
                                {"leader": lid, "team": chosen}))

    # ------------------------------------------------------------ victory
    def broken(self, state) -> str | None:
        """Why the attack is broken, or None (the definition is in docs/rules-coverage.md)."""
        alive = [t for t in state["teams"].values() if t["alive"]]
        figures = sum(t["figures"] for t in alive)
        if not alive:
            return "every attacking team has been wiped out"
        if figures < self.scenario.broken_below * state["start_figures"]:
            return (f"the attackers are down to {figures} of {state['start_figures']} figures "
                    f"(below {self.scenario.broken_below:.0%})")
        ralliers = [ld for ld in state["leaders"].values() if ld["alive"] and ld["may_rally"]]
        if all(t["pinned"] for t in alive) and not ralliers:
            return "every team left is pinned and no leader is left to rally them"
        return None

    def _check_outcome(self, state, events) -> None:
        if state["outcome"] or state["phase"] == "setup":
            return
        cards = state["cards"].values()
        if all(c["revealed"] for c in cards) and state["guns"] and all(g["captured"] for g in state["guns"].values()):
            state["outcome"] = {"winner": "attacker", "reason": "every enemy machine-gun position is taken"}
        elif (why := self.broken(state)) is not None:
            state["outcome"] = {"winner": "defender", "reason": f"the attack is broken: {why}"}
        elif state["turn"] > state["last_turn"]:
            state["outcome"] = {"winner": "defender", "reason": f"the attack is broken: turn {state['last_turn']} "
                                                                "is over and a gun still holds out"}
        if state["outcome"]:
            events.append(Event("outcome", state["outcome"]["reason"], dict(state["outcome"])))

    # ------------------------------------------------------------ legal actions
    def legal_actions(self, state) -> list[Order]:
        """What may be ordered now, in a fixed order; moves are offered towards the cards and guns
        (any other point within a team's Bravado may be ordered too)."""
        if state["outcome"]:
            return []
        p = state["pending"]
        if p:
            if p["kind"] == "press_on":
                return [PressOn(p["team"]), TakeCover(p["team"])]
            return [Bayonet(p["team"]), Hold(p["team"])]
        if state["phase"] == "setup":
            return self._legal_places(state)
        out: list[Order] = []
        teams = [t for _, t in sorted(state["teams"].items()) if t["alive"]]
        guns = [g for _, g in sorted(state["guns"].items()) if not g["captured"]]
        for ld in (ld for _, ld in sorted(state["leaders"].items()) if ld["alive"]):
            for t in teams:
                if t["pinned"] and ld["may_rally"] and not ld["rallied"] and self._leader_reaches(state, ld, t):
                    out.append(Rally(ld["id"], t["id"]))
        for ld in (ld for _, ld in sorted(state["leaders"].items()) if ld["alive"] and not ld["moved"]):
            for t in teams:
                if t["id"] != ld["team"] and self._leader_reaches(state, ld, t):
                    out.append(Join(ld["id"], t["id"]))
        free = [t for t in teams if not t["pinned"] and not t["done"]]
        for g in guns:
            if g["silenced"]:
                continue
            for kind in ("lmg", "rifle"):
                reach = self.t.bands(kind)[-1][1]
                group = tuple(t["id"] for t in free if t["kind"] == kind and distance(t["at"], g["at"]) <= reach)
                if (group and not state["moving"] and g["id"] not in state["covering"]
                        and state["covering_kind"] in (None, kind)):
                    out.append(Cover(g["id"], group))
            for t in free:
                d = distance(t["at"], g["at"])
                if t["kind"] == "lmg" and d <= self.t.bands("lmg")[-1][1] + EPS:
                    out.append(Fire(t["id"], g["id"]))
                if t["cover"] and d <= self.t["ranges"]["grenade"] + EPS:
                    out.append(Grenade(t["id"], g["id"]))
        for t in free:
            if t["cover"]:
                out.append(Leave(t["id"]))
                continue
            for g in guns:
                d = distance(t["at"], g["at"])
                # a team already standing on the gun (a bayonet charge stopped there by a gun revealed on the
                # way) has no move left to charge with: SCW Bomb and Bayonet 1 is a move, and apply refuses it
                if d > EPS and P.can_close_assault(d, t["bravado"]):
                    out.append(Assault(t["id"], g["id"]))
            for dest in self._move_targets(state, t):
                out.append(Move(t["id"], dest[0], dest[1]))
            out.append(TakeCover(t["id"]))
        out.append(EndTurn())
        return out

    def _leader_reaches(self, state, ld, t) -> bool:
        if ld["team"] == t["id"]:
            return True
        here = state["teams"][ld["team"]]["at"] if ld["team"] else ld["at"]
        return not ld["moved"] and distance(here, t["at"]) <= ld["bravado"] + EPS

    def _move_targets(self, state, t) -> list[tuple[float, float]]:
        """Destinations offered for a team: a full move towards each card still face down and each gun."""
        aims = [tuple(c["front"]) for _, c in sorted(state["cards"].items()) if not c["revealed"] and c["front"]]
        aims += [tuple(g["at"]) for _, g in sorted(state["guns"].items()) if not g["captured"]]
        out = []
        for a in aims:
            d = distance(t["at"], a)
            step = min(t["bravado"] - 0.01, d - self.radius * 2)
            if step <= 0.5:
                continue
            x = t["at"][0] + (a[0] - t["at"][0]) * step / d
            y = t["at"][1] + (a[1] - t["at"][1]) * step / d
            pt = (round(x, 2), round(y, 2))
            if self.table.contains(pt) and distance(t["at"], pt) <= t["bravado"] + EPS and pt not in out:
                out.append(pt)
        return out

    def _legal_places(self, state) -> list[Order]:
        waiting = [cid for cid, c in sorted(state["cards"].items()) if c["position"] is None]
        if not waiting:
            return []
        taken = [c["position"] for c in state["cards"].values() if c["position"]]
        out = []
        for loc in sorted(self.table.locations_of_kind(self.scenario.position_kind), key=lambda l: l.name):
            if loc.name not in taken and not self.crowded(taken + [loc.name]):
                out.append(Place(waiting[0], loc.name))
        return out
