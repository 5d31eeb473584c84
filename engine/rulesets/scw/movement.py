"""The skirmish's movement: taking cover, pressing on and leaving cover, advancing and assaulting through
the guns' cones, revealing the defender's cards; a part of :class:`~engine.rulesets.scw.rules.ScwRules`."""
from __future__ import annotations

import numpy as np
from shapely.geometry import LineString, Point

from ...errors import IllegalAction
from ...game import Event
from engine.maps.table import distance
from . import procedures as P
from .actions import Assault, Leave, Move, PressOn, TakeCover
from .cone import EPS, band_rank, cards_revealed, closest_band_on_path
from .dice import throw
from .enemy import active_guns, gun_cone, lay_gun, react


class MovementRules:
    """The movement part of ``ScwRules``."""

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
