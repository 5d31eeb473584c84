"""Classic combat results as data: eliminations, step losses, exchanges, retreats and advances (pending choices)."""
from __future__ import annotations

from engine.maps.hexes import Hex, hex_distance

from ...errors import IllegalAction
from ...game import Event, next_die
from ..demyansk import actions as A
from .state import ELIMINATED, ON_MAP, REMOVED, State
from .text import cite


class ResultsMixin:
    """Combat results, retreats and advances of the classic rules (mixed into ClassicRules)."""

    # ------------------------------------------------------------ results
    def roll(self, st: State, events: list, purpose: str) -> int:
        total = 0
        faces = []
        for _ in range(self.cfg.crt_dice):
            if st.preset_dice:                     # a planning player's trial (State.preset_dice)
                die = st.preset_dice.pop(0)
            else:
                die, st.rng = next_die(st.rng, self.cfg.crt_sides)
            faces.append(die)
            total += die
        events.append(Event("roll", f"rolled {total} for {purpose}",
                            {"dice": faces, "total": total, "purpose": purpose}))
        return total

    def resolve(self, st: State, defender: str, events: list) -> None:
        b = next((b for b in st.battles if b.defender == defender and not b.resolved), None)
        if b is None:
            raise IllegalAction(cite(self.cfg.combat_rule),
                                f"there is no announced battle against {defender} to resolve")
        b.resolved = True
        st.resolving = True
        st.attacked.extend(b.attackers)
        attackers = [a for a in b.attackers if st.units[a].status == ON_MAP]
        if st.units[defender].status != ON_MAP or not attackers:
            events.append(Event("combat", f"the battle against {defender} does not take place"))
            return
        o = self.odds(st, defender, attackers)
        roll = self.roll(st, events, f"combat at {o.label}")
        code = self.cfg.crt_rows[roll - self.cfg.crt_first][o.column - 1]
        self._result(st, defender, tuple(attackers), code, events, o.label)

    def _result(self, st: State, defender: str, attackers: tuple, code: str, events: list, label: str = "") -> None:
        cfg = self.cfg
        res = cfg.results[code]
        rule = cite(cfg.crt_rule)
        dh = st.units[defender].hex
        defenders = [d for d in self.occupants(st).get(dh, []) if self.units[d].side == self.units[defender].side]
        events.append(Event("result", f"{code}{': ' + res.text if res.text else ''}"
                            + (f" at {label}" if label else ""),
                            {"result": code}))
        if res.ask:
            st.pending.append({"kind": "result", "side": self.units[attackers[0]].side, "defender": defender,
                               "attackers": list(attackers),
                               "options": [c for c, r in cfg.results.items() if not r.ask], "rule": rule})
            return
        need = sum(self.values(st, d)[1] for d in defenders)     # exchange: the defenders' printed defence
        if res.defender_eliminated or res.exchange:
            for d in defenders:
                self._eliminate(st, d, events)
        if res.attacker_eliminated:
            for a in attackers:
                self._eliminate(st, a, events)
        if res.exchange:
            # the attacker loses units, weakest first, until their attack strengths reach the defence lost
            lost = 0
            for a in sorted(attackers, key=lambda a: (self.values(st, a)[0], self.order.index(a))):
                if lost >= need or st.units[a].status != ON_MAP:
                    continue
                lost += self.values(st, a)[0]
                self._eliminate(st, a, events)
        self._steps(st, defenders, res.defender_steps, events)
        self._steps(st, list(attackers), res.attacker_steps, events)
        if res.defender_retreat:
            for d in defenders:
                if st.units[d].status == ON_MAP:
                    self._ask_retreat(st, d, res.defender_retreat, events)
        if res.attacker_retreat:
            for a in attackers:
                if st.units[a].status == ON_MAP:
                    self._ask_retreat(st, a, res.attacker_retreat, events)
        if res.advance and cfg.advance_allowed:
            st.pending.append({"kind": "advance", "side": self.units[attackers[0]].side, "hex": dh,
                               "attackers": list(attackers), "left": cfg.advance_units})
        self._next_pending(st)

    def _next_pending(self, st: State) -> None:
        """Drop an advance that cannot happen (the hex still held, no attacker left)."""
        while st.pending and st.pending[0]["kind"] == "advance":
            p = st.pending[0]
            if not self._advance_options(st, p):
                st.pending.pop(0)
                continue
            break
        self.forget(st)

    def _advance_options(self, st: State, p: dict) -> list[str]:
        if p["left"] <= 0 or p["hex"] in self.occupants(st) and any(
                self.units[u].side != self.units[p["attackers"][0]].side for u in self.occupants(st)[p["hex"]]):
            return []
        if any(q["kind"] == "retreat" for q in st.pending):
            return ["wait"]
        return [a for a in p["attackers"] if st.units[a].status == ON_MAP and st.units[a].hex != p["hex"]
                and hex_distance(st.units[a].hex, p["hex"]) == 1 and self.stack_room(st, p["hex"], (a,))]

    def _eliminate(self, st: State, uid: str, events: list, why: str = "eliminated") -> None:
        u = st.units[uid]
        if u.status != ON_MAP:
            return
        u.status, u.hex = ELIMINATED, None
        self.forget(st)
        events.append(Event("eliminated", f"{uid} {why}", {"unit": uid}))

    def _steps(self, st: State, uids: list, n: int, events: list) -> None:
        """``n`` step losses, each taken by the unit with the most steps left (a unit's last step eliminates it)."""
        for _ in range(n):
            alive = [u for u in uids if st.units[u].status == ON_MAP]
            if not alive:
                return
            u = max(alive, key=lambda x: (self.units[x].steps - st.units[x].steps_lost, -self.order.index(x)))
            st.units[u].steps_lost += 1
            if st.units[u].steps_lost >= self.units[u].steps:
                self._eliminate(st, u, events, "eliminated (its last step lost)")
            else:
                events.append(Event("step", f"{u} loses a step", {"unit": u}))

    def retreat_options(self, st: State, uid: str, n: int) -> tuple[list[str], set[str]]:
        """Where a unit may retreat ``n`` hexes (each step further from its hex) and which of those only through an
        enemy zone of control; ``off`` when it may leave the map."""
        cfg = self.cfg
        side = self.units[uid].side
        start = st.units[uid].hex
        enemy, ezoc = self.enemy_hexes(st, side), self.enemy_zoc(st, side)
        own = self.side_hexes(st, side)
        cls = self.type_of[uid].cls
        paths = {start: False}       # hex -> only reached through an enemy ZOC
        off = False
        for i in range(n):
            nxt: dict[Hex, bool] = {}
            for h, dirty in paths.items():
                if len(self.map.neighbors[h]) < 6 and cfg.retreat_off_map == "removed":
                    off = True
                for m in self.map.neighbors[h]:
                    if hex_distance(m, start) != i + 1 or m in enemy or m in self.map.prohibited[cls]:
                        continue
                    z = m in ezoc and m not in own
                    if z and cfg.retreat_through_zoc == "no":
                        continue
                    d = dirty or z
                    nxt[m] = min(nxt.get(m, True), d)
            paths = nxt
        opts = sorted((h for h in paths if self.stack_room(st, h, (uid,))), key=lambda h: (h.q, h.r))
        out = [self.map.hex_id(h) for h in opts]
        dirty = {self.map.hex_id(h) for h in opts if paths[h]}
        if off:
            out.append("off")
        return out, dirty

    def _ask_retreat(self, st: State, uid: str, n: int, events: list) -> None:
        opts, dirty = self.retreat_options(st, uid, n)
        if not opts:
            why = cite(self.cfg.retreat_rule) or "retreat"
            self._eliminate(st, uid, events, f"eliminated: no retreat of {n} hex(es) ({why})")
            return
        st.pending.append({"kind": "retreat", "side": self.units[uid].side, "unit": uid, "hexes": n,
                           "options": opts, "dirty": sorted(dirty)})

    def forget(self, st: State) -> None:
        st.__dict__.pop("_cache", None)

    def answer(self, st: State, action, events: list) -> None:
        p = st.pending[0]
        if p["kind"] == "result":
            if not isinstance(action, A.EnterResult) or action.result not in p["options"]:
                raise IllegalAction(p["rule"], f"enter the printed chart's result: one of {', '.join(p['options'])}")
            st.pending.pop(0)
            self._result(st, p["defender"], tuple(p["attackers"]), action.result, events)
            return
        if p["kind"] == "retreat":
            if not isinstance(action, A.Retreat) or action.unit != p["unit"] or action.to not in p["options"]:
                raise IllegalAction(cite(self.cfg.retreat_rule), f"{p['unit']} must retreat {p['hexes']} hex(es): "
                                    f"one of {', '.join(p['options'])}")
            st.pending.pop(0)
            u = st.units[p["unit"]]
            if action.to == "off":
                u.status, u.hex = REMOVED, None
                events.append(Event("retreat", f"{p['unit']} retreats off the map"))
            else:
                u.hex = self.hex(action.to)
                u.z, st.next_z = st.next_z, st.next_z + 1
                events.append(Event("retreat", f"{p['unit']} retreats to {action.to}"))
                if action.to in p["dirty"] and self.cfg.retreat_through_zoc == "step_loss":
                    self._steps(st, [p["unit"]], 1, events)
            self._next_pending(st)
            return
        opts = self._advance_options(st, p)
        if not isinstance(action, A.Advance) or (action.unit != "none" and action.unit not in opts):
            raise IllegalAction(cite(self.cfg.advance_rule), f"advance one of {', '.join(opts)} into "
                                f"{self.map.hex_id(p['hex'])}, or none")
        if action.unit == "none":
            st.pending.pop(0)
        else:
            u = st.units[action.unit]
            u.hex, u.z, st.next_z = p["hex"], st.next_z, st.next_z + 1
            p["left"] -= 1
            events.append(Event("advance", f"{action.unit} advances into {self.map.hex_id(p['hex'])}"))
        self._next_pending(st)
