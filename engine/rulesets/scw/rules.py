"""The Spanish Civil War platoon skirmish on the rules framework: ``legal_actions`` / ``apply``.

The state is plain data (a dict); ``apply`` works on a copy and returns it
with the events (every throw among them).  The turn sequence is written
down in ``docs/skirmish-turn.md``.
"""
from __future__ import annotations

import copy

import numpy as np
from shapely.geometry import LineString

from ...errors import BadFile, IllegalAction, Problem
from ...game import Event, Outcome, seed_rng
from engine.maps.table import distance
from . import procedures as P
from .actions import (Assault, Bayonet, Cover, EndTurn, Fire, Grenade, Hold, Join, Leave, Move, Order, Place,
                      PressOn, Rally, TakeCover, order_from_dict, parse_order)
from .combat import CombatRules
from .cone import EPS, band_polygons, card_front_centre, crowded, range_band
from .data import load_tables
from .dice import shuffle, throw
from .enemy import active_guns, cones_holding, gun_cone, react
from .leaders import LeaderRules
from .movement import MovementRules
from .scenario import ScwScenario

SUITS = "SHDC"
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
PICTURES = ("J", "Q", "K")


class ScwRules(LeaderRules, CombatRules, MovementRules):
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
