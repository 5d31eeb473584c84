"""The TCS Aircraft & Artillery Phase (TCS 17, 18, 25): sorties, missions, their batteries, spotters and
ammunition, lifting Continuous Fire; a part of :class:`~engine.rulesets.tcs.rules.TcsRules`."""
from __future__ import annotations

from ...errors import IllegalAction
from ...game import Event
from ...maps.hexes import Hex, hex_distance
from . import actions as A
from .proc import _ok
from .sight import spotted_hexes, visibility
from .state import PARALYZED, Mission


class ArtilleryRules:
    """The aircraft and artillery part of ``TcsRules`` (TCS 17, 18, 25)."""

    def _do_airstrike(self, st, a: A.Airstrike, side, events) -> None:
        h = self.hex(a.hex)
        if st.sorties <= 0:
            raise IllegalAction("TCS 25.0", f"{side} has no sortie available")
        if not any(u.hex == h and self.specs[k].side != side for k, u in st.units.items()):
            raise IllegalAction("TCS 25.0", f"there is no enemy unit in {a.hex}")
        if not any(h in spotted_hexes(self, st, side, k) for k, u in st.units.items()
                   if u.hex is not None and self.specs[k].side == side):
            raise IllegalAction("TCS 25.0", f"no unit of {side} spots the enemy in {a.hex}")
        self._run(st, "airstrike", {"side": side, "hex": a.hex}, [], events, False)

    def check_mission(self, st, a: A.PlaceMission, side: str) -> None:
        bat = self._check_battery(st, a.battery, a.ammo, side)
        h = self.hex(a.hex)
        self._check_spotter(st, a.spotter, bat, side)
        vis = visibility(self, st)
        if h not in self.sight.visible_from(st, st.units[a.spotter].hex, [h], max(vis, 1)):
            raise IllegalAction("BW 3.2d", f"{a.spotter} has no line of sight to {a.hex} (within visibility {vis})")

    def _check_battery(self, st, battery: str, ammo: str, side: str):
        """A mission's battery and ammunition (the part of ``check_mission`` that no target or spotter changes)."""
        bat = self.batteries.get(battery)
        if bat is None or bat.side != side:
            raise IllegalAction("TCS 18.0", f"{side} has no battery {battery!r}")
        if bat.release and bat.release not in st.released:          # BW 3.5: a German battery comes by the table
            rule = next((r.rule for r in self.scenario.releases if r.id == bat.release), "TCS 18.0")
            raise IllegalAction(rule, f"{battery} is not released yet ({bat.release})")
        if battery in st.batteries_used or any(m.battery == battery for m in st.markers if m.continuous):
            raise IllegalAction("TCS 18.0", f"{battery} already fires this phase")
        if ammo not in ("he", "smoke", "illum"):
            raise IllegalAction("TCS 18.0", "ammunition is he, smoke or illum")
        if ammo != "he":
            if bat.smoke is False and bat.smoke_rule:
                raise IllegalAction(bat.smoke_rule, f"{battery} ({bat.calibre}) cannot fire smoke or illum")
            can = bat.smoke if bat.smoke is not None else _calibre_mm(bat.calibre) >= 80
            if not can:
                raise IllegalAction("Leros 2.6", f"{battery} ({bat.calibre}) cannot fire smoke or illum (80 mm and more)")
            if st.weather in self.options["no_smoke_weather"]:
                raise IllegalAction("Leros 1.4c", f"no smoke or illum may be placed in {st.weather}")
        if bat.unit:
            self._check_on_map_battery(st, bat)
        key = self.pool_key(bat, ammo)
        if key is not None and st.ammo.get(key, 0) <= 0:
            raise IllegalAction("TCS 18.0", f"{side} has no {bat.calibre} {ammo} rounds left")
        return bat

    def battery_problem(self, st, battery: str, side: str) -> str:
        """Why ``battery`` cannot take an HE mission now ("" when it can, short of a spotter and a target)."""
        try:
            self._check_battery(st, battery, "he", side)
        except IllegalAction as e:
            return str(e)
        return ""

    def _check_on_map_battery(self, st, bat) -> None:
        """An on-map mortar or gun fires its missions itself: it is on the map, in Fire mode, not paralyzed and
        has not fired this phase (TCS 5.0, 13.0)."""
        u = st.units.get(bat.unit)
        if u is None or u.hex is None:
            raise IllegalAction("TCS 18.0", f"{bat.unit} is not on the map, so {bat.id} cannot fire")
        if u.mode != "fire":
            raise IllegalAction("TCS 5.0", f"{bat.unit} is in Move mode: it fires only in Fire mode")
        if u.morale_state == PARALYZED:
            raise IllegalAction("TCS 13.0", f"{bat.unit} is paralyzed")
        if u.fired:
            raise IllegalAction("TCS 5.0", f"{bat.unit} has fired this phase")

    def pool_key(self, bat, ammo: str) -> str | None:
        """The ammunition pool a mission of ``bat`` draws on, or None when its rounds are not counted: an on-map
        battery (a mortar company) whose calibre has no pool in the scenario fires from its own unit's supply.
        The choice is the scenario's: list an ``[[ammo]]`` row for the calibre to count its rounds."""
        key = f"{bat.side}|{bat.calibre}|{ammo}"
        if bat.unit and not any((s, c) == (bat.side, bat.calibre) for s, c, _a in self.scenario.ammo):
            return None
        return key

    def _check_spotter(self, st, sp: str, bat, side: str) -> None:
        """A mission's spotter, short of its line of sight to the target."""
        if sp not in self.specs or self.specs[sp].side != side or st.units[sp].hex is None:
            raise IllegalAction("BW 3.2d", f"{sp} is not a unit of {side} on the map")
        if self.options["spotters"] == "fo" and not (self.specs[sp].fo or sp == bat.unit):
            raise IllegalAction("TCS 17.2", f"{sp} cannot spot for {bat.id}: an FO, or the firing unit itself "
                                            "(this scenario's option: FOs only)")
        if st.units[sp].morale_state == PARALYZED:
            raise IllegalAction("TCS 13.0", f"{sp} is paralyzed")
        if self.game is not None and hasattr(self.game, "mission_problem"):
            self.game.check(self.game.mission_problem(self, st, bat, sp))     # BW 2.3a, 2.3d

    def _do_placemission(self, st, a: A.PlaceMission, side, events) -> None:
        self.check_mission(st, a, side)
        bat = self.batteries[a.battery]
        key = self.pool_key(bat, a.ammo)
        if key is not None:
            st.ammo[key] -= 1
        if bat.unit:
            st.units[bat.unit].fired = True                         # the mortar company fires this phase
        st.batteries_used.append(a.battery)
        st.missions.append(Mission(a.battery, self.hex(a.hex), a.spotter, a.ammo, a.continuous))
        events.append(Event("mission", f"{a.battery}: {a.ammo} mission on {a.hex} spotted by {a.spotter}"))

    def _do_plot(self, st, a: A.Plot, side, events) -> None:
        if self.game is None or not hasattr(self.game, "plot"):
            raise IllegalAction("BW 4.7", "this game has no plotted super-heavy fire")
        self.game.plot(self, st, self.hex(a.hex), side, events)                  # BW 4.7 Dora

    def _do_lift(self, st, a: A.Lift, side, events) -> None:
        m = next((m for m in st.markers if m.id == a.marker and m.side == side and m.continuous), None)
        if m is None:
            raise IllegalAction("TCS 18.0", f"{side} has no Continuous Fire marker {a.marker!r}")
        st.markers.remove(m)
        events.append(Event("lift", f"{a.marker} lifted"))

    def battery_spotters(self, st, battery: str, side: str, target: Hex | None = None) -> list[str]:
        """The units that may spot for ``battery`` now (in counter order); with a ``target``, only those that see
        it, nearest first."""
        bat = self.batteries.get(battery)
        if bat is None:
            return []
        out = [u for u in self.order if self.specs[u].side == side and st.units[u].hex is not None
               and _ok(lambda: self._check_spotter(st, u, bat, side))]
        if target is None:
            return out
        limit = max(visibility(self, st), 1)
        out = [u for u in out if target in self.sight.visible_from(st, st.units[u].hex, [target], limit)]
        return sorted(out, key=lambda u: hex_distance(st.units[u].hex, target))

    def _mission_offers(self, st, side, own) -> list:
        """The legal missions, one spotter each: for every battery, ammunition and target, the spotter nearest the
        target among those that may spot for the battery and see it (ties: counter order).  Any other spotter
        that sees the target is accepted too (``check_mission``); listing each would multiply the list by the
        side's units.  Sight lines are judged once per spotter hex, not per battery or ammunition."""
        out = []
        targets = self._enemy_hexes(st, side)
        if not targets:
            return out
        limit = max(visibility(self, st), 1)
        seen_from: dict = {}
        for b in self.scenario.batteries:
            if b.side != side:
                continue
            ammos = [ammo for ammo in ("he", "smoke", "illum") if _ok(lambda: self._check_battery(st, b.id, ammo, side))]
            if not ammos:
                continue
            best: dict = {}
            for sp in self.battery_spotters(st, b.id, side):
                at = st.units[sp].hex
                if at not in seen_from:
                    seen_from[at] = self.sight.visible_from(st, at, targets, limit)
                for h in seen_from[at]:
                    d = hex_distance(at, h)
                    if h not in best or d < best[h][0]:
                        best[h] = (d, sp)
            for h in targets:
                if h in best:
                    out += [A.PlaceMission(b.id, self.hid(h), best[h][1], ammo) for ammo in ammos]
        return out


def _calibre_mm(c: str) -> int:
    digits = "".join(ch for ch in c if ch.isdigit())
    return int(digits) if digits else 0
