"""A TCS player's Aircraft & Artillery decisions (TCS 18, 25): sorties and fire missions (mixed into
:class:`~engine.players.tcs_player.TcsPlayer`)."""
from __future__ import annotations

from ..maps.hexes import are_adjacent
from .tcs_common import _t


class TcsSupport:
    # ------------------------------------------------------------------ Aircraft & Artillery (TCS 18, 25)
    def _enemy_count(self, rules, st) -> dict:
        out: dict = {}
        for k, u in st.units.items():
            if u.hex is not None and rules.specs[k].side != self.side:
                out[u.hex] = out.get(u.hex, 0) + 1
        return out

    def _own_hexes(self, rules, st) -> set:
        return {u.hex for k, u in st.units.items() if u.hex is not None and rules.specs[k].side == self.side}

    def _hex_value(self, rules, st, h, counts) -> float:
        v = counts.get(h, 0)
        if self.strong:
            take, keep = self.goals(rules)
            if h in take or h in keep:
                v += 1.5
        return v

    def _step_sorties(self, rules, st, by):
        counts = self._enemy_count(rules, st)
        best = max(by.get("airstrike", []), key=lambda a: (counts.get(rules.hex(a.hex), 0), a.hex), default=None)
        if best is not None:
            self.last_reason = f"air strike on {best.hex}: {counts.get(rules.hex(best.hex), 0)} enemy units (TCS 25.0)"
        return best

    def _step_missions(self, rules, st, by):
        counts = self._enemy_count(rules, st)
        mine = self._own_hexes(rules, st)
        for verb in ("plot", "naval"):
            if by.get(verb):
                def val(a):
                    hs = [rules.hex(x) for x in (getattr(a, "hexes", None) or (a.hex,))]
                    return (sum(counts.get(h, 0) for h in hs), _t(a))
                a = max(by[verb], key=val)
                if val(a)[0] > 0 or verb == "naval":
                    self.last_reason = f"{_t(a)}: plotted on the enemy ({val(a)[0]} units in its hexes)"
                    return a
        cands = [a for a in by.get("mission", []) if a.ammo == "he"]
        if not cands:
            return None
        used = set(st.batteries_used) | {m.battery for m in st.missions}

        def score(a):
            h = rules.hex(a.hex)
            v = self._hex_value(rules, st, h, counts)
            if self.strong and any(are_adjacent(h, m) or h == m for m in mine):
                v -= 10                                 # a scatter would fall on its own units
            return (v, a.hex, a.battery)
        cands = [a for a in cands if a.battery not in used]
        if not cands:
            return None
        a = max(cands, key=score)
        if score(a)[0] <= 0:
            return None
        self.last_reason = (f"fire mission of {a.battery} on {a.hex} spotted by {a.spotter}: "
                            f"{counts.get(rules.hex(a.hex), 0)} enemy units there (TCS 18.0)")
        return a
