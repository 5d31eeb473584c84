"""The skirmish's fire and close combat: rifle and LMG fire, covering fire, grenades, holding, the bayonet
and closing with a gun (SCW At 'em with Bomb and Bayonet); a part of
:class:`~engine.rulesets.scw.rules.ScwRules`."""
from __future__ import annotations

from shapely.geometry import LineString

from ...errors import IllegalAction
from ...game import Event
from engine.maps.table import distance
from . import procedures as P
from .actions import Bayonet, Cover, Fire, Grenade, Hold
from .cone import EPS
from .dice import throw
from .enemy import active_guns, cones_holding, lay_gun, nearest_on_path


class CombatRules:
    """The fire and close combat part of ``ScwRules``."""

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
