"""The skirmish's casualties and leaders: figures lost, teams wiped out, pins, leaders joining, rallying
and natural leaders stepping forward; a part of :class:`~engine.rulesets.scw.rules.ScwRules`."""
from __future__ import annotations

from ...errors import IllegalAction
from ...game import Event
from engine.maps.table import distance
from . import procedures as P
from .actions import Join, Rally
from .cone import EPS
from .dice import throw


class LeaderRules:
    """The casualties and leaders part of ``ScwRules``."""

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
