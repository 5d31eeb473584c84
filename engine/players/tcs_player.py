"""The computer players of the Tactical Combat Series (Black Wednesday, Leros): a baseline and a strong player.

Both choose only among ``rules.legal_actions`` (plus Op Sheets they write themselves and the engine checks with
``check_new_sheet``), so they never do what the rules forbid, and they read only what a player at the table may
read: their own side's Op Sheets, the units on the map, the scenario's victory conditions and objectives, the
enemy hexes their units spot (the fire and mission offers hold only those).  The enemy's Op Sheets, plotted
barrages and planned drop zones are never looked at.

Each decision leaves one line in ``last_reason`` ("fire 1-A at B05.04: 3 enemy units, the most in range").

- Set-up before turn 1 (``tcs_setup.py``): the baseline keeps the scenario's set-up; the strong player moves
  attack units forward toward their objectives and defence units onto theirs, within their set-up areas.
- Command Phase (TCS 6.0): complete a sheet whose objective its units hold; implement every sheet that may be;
  roll reserves; add free units to an implemented sheet of their formation; write a new sheet for a formation's
  free units toward the nearest victory hex the side must take (``attack``) or keep (``hasty_defense``), with a
  straight route.
- Aircraft & Artillery (TCS 18, 25): an air strike on the largest spotted enemy stack; a fire mission of each
  battery on the largest spotted stack away from its own units; BW 4.7's plotted fire likewise.
- Action Phases (TCS 5-15): assault where the odds favour it, fire at the best target in range, then units with
  orders to go somewhere change to Move mode and walk toward their objective (a wire hex on the way is breached,
  BW 1.4b), the others stay in Fire mode.  Units with attack orders sweep the empty hexes to take within 3, each
  to a different hex (a hex is the side's that last passed through it: BW 5.0, Leros 5.2a), and one unit goes to
  stand in each hex where a unit of its side denies the enemy a condition (BW 4's El Bastion).
- The games' own decisions (Leros boats, landings, parachute flights, naval gunfire; BW's Prep Log and
  commissars) are taken from the legal offers by the same scoring: toward the objectives, at the enemy.

The strong player differs where it pays: fire is massed (every unit in range of the chosen hex fires at it
together), targets are weighed by the victory hexes they stand on, assaults are judged by the firepower on each
side and made by every unit next to the hex together, moves prefer the victory hexes still to be taken, and
missions avoid hexes next to its own units.  It garrisons its empty victory hexes when the enemy comes near and
walks back into those the enemy passed through (Leros 3's Mt. Meraviglia, Rachi Ridge), sends a dozen units to
close on and assault an enemy-held hex the enemy must leave (El Bastion), sweeps within 4 hexes and goes on past
a taken objective rather than completing its sheet while hexes to take lie empty (a new sheet waits on its
prep roll, TCS 6.9), lets its defence units counter-attack hexes to keep within 2, and adds no unit to an attack
away from every victory hex.
"""
from __future__ import annotations

from ..maps.hexes import hex_distance
from .tcs_action import TcsAction
from .tcs_command import TcsCommand
from .tcs_common import BASELINE, STRONG, STRONG_OPTIONS, _t, _verb  # noqa: F401  (importers name them here)
from .tcs_goals import TcsGoals
from .tcs_setup import TcsSetup
from .tcs_support import TcsSupport


class TcsPlayer(TcsGoals, TcsCommand, TcsSupport, TcsAction, TcsSetup):
    """A TCS player for one side; ``level`` is "baseline" or "strong"."""

    def __init__(self, side: str, level: str = BASELINE, cancel=None):
        self.side, self.level, self.cancel = side, level, cancel
        self.last_reason = ""
        self.moded: dict = {}            # (turn, step) -> units whose mode this player set in that phase
        self._goals = None

    def fork(self) -> "TcsPlayer":
        p = TcsPlayer(self.side, self.level, self.cancel)
        p.moded = {k: type(v)(v) for k, v in self.moded.items()}
        p._goals = self._goals
        return p

    @property
    def strong(self) -> bool:
        return self.level == STRONG

    # ------------------------------------------------------------------ the decision
    def choose(self, rules, st):
        if st.pending:
            return self._pending(rules, st)
        if rules.current(st)[1] == "action" and not (
                rules.game is not None and hasattr(rules.game, "before_play_offers")
                and rules.game.before_play_offers(rules, st)):
            saved, rules._scope = rules._scope, (st, {"occ": rules.occupancy(st)})   # as legal_actions scopes
            try:
                a = self._step_action(rules, st, {})
            finally:
                rules._scope = saved
            if a is not None:
                return a
            from ..rulesets.tcs.actions import End
            self.last_reason = "no unit has a fire, an assault or a move worth making: the phase ends"
            return End()
        if st.setup and not (rules.game is not None and hasattr(rules.game, "before_play_offers")
                             and rules.game.before_play_offers(rules, st)):
            a = self._setup_choice(rules, st)        # the set-up before turn 1 (tcs_setup.py)
            if a is not None:
                return a
        legal = rules.legal_actions(st)
        if not legal:
            raise ValueError("the game offers no action")
        phase, step, _ = rules.current(st)
        if len(legal) == 1 and step != "create":            # a sheet the listing does not offer may be written
            self.last_reason = "nothing else to do in this step"
            return legal[0]
        by: dict[str, list] = {}
        for a in legal:
            by.setdefault(_verb(a), []).append(a)
        for verb in ("preplog",):
            if verb in by:
                self.last_reason = "the Prep Log as the scenario sets it out (BW 1.10b): the first Program offered"
                return by[verb][0]
        handler = getattr(self, f"_step_{step}", None)
        if handler is not None:
            a = handler(rules, st, by)
            if a is not None:
                return a
        a = self._special(rules, st, by)
        if a is not None:
            return a
        self.last_reason = f"nothing worth doing left in this step ({rules.step_title(phase, step, self.side)})"
        return by["end"][0]

    # ------------------------------------------------------------------ pending questions
    def _pending(self, rules, st):
        legal = rules.legal_actions(st)
        p = st.pending[0]
        if p["kind"] == "chart":
            self.last_reason = "a printed result the owner's chart lacks: the first of the chart's results"
            return legal[0]
        what, options = p["what"], list(p["options"])
        pick = options[0]
        why = "the first option"
        if what == "initiative" and self.side in options:
            pick, why = self.side, "it takes the initiative to act first"
        elif what == "overwatch":
            fire = [o for o in options if o != "pass"]
            if fire:
                pick, why = fire[0], "overwatch fire at the unit moving in the open"
            else:
                pick, why = "pass", "no overwatch fire is open"
        elif what == "retreat":
            enemy = [u.hex for k, u in st.units.items() if u.hex is not None and rules.specs[k].side != self.side]

            def safety(o):
                try:
                    h = rules.hex(o)
                except Exception:
                    return (0, o)
                return (-min((hex_distance(h, e) for e in enemy), default=99), o)
            pick = min(options, key=safety)
            why = "the retreat hex farthest from the enemy"
        elif what in ("commissar",):
            pick = next((o for o in options if o in ("yes", "shoot", "execute", "rally")), options[0])
            why = "the commissar steadies the unit (BW)"
        elif what == "drift":
            why = "the drift the rules offer first"
        for a in legal:
            if getattr(a, "value", None) == pick:
                self.last_reason = f"{what}: {pick}, {why}"
                return a
        self.last_reason = f"{what}: {_t(legal[0])}, the first answer offered"
        return legal[0]

    # ------------------------------------------------------------------ the games' own actions
    def _special(self, rules, st, by):
        """Leros boats, landings, flights and naval gunfire; BW's own offers (mounting tanks)."""
        goals = self.open_goals(rules, st)

        def near_goal(h):
            return min((hex_distance(h, g) for g in goals), default=0)
        for verb in ("embark", "plan"):
            if by.get(verb):
                def where(a):
                    z = getattr(a, "lz", None) or getattr(a, "dz", None)
                    try:
                        return (near_goal(rules.hex(z)), _t(a))
                    except Exception:
                        return (99, _t(a))
                a = min(by[verb], key=where)
                what = "landing zone" if verb == "embark" else "drop zone"
                self.last_reason = f"{_t(a)}: the {what} nearest the objectives (Leros 2.0, 3.0)"
                return a
        for verb in ("takeoff", "request", "demand"):
            if by.get(verb):
                a = by[verb][0]
                self.last_reason = f"{_t(a)}: the flight or support the game offers now (Leros)"
                return a
        return None


def strong_for(rules, side: str, cancel=None, **options):
    """The strong TCS player for ``side`` as a function of the state (the contract of ``engine.computer``)."""
    return _for(rules, side, STRONG, cancel, options)


def baseline_for(rules, side: str, **options):
    return _for(rules, side, BASELINE, None, options)


def _for(rules, side, level, cancel, options):
    from ..computer import chooser

    if getattr(rules, "name", "") != "tcs":
        raise ValueError(f"this player knows the Tactical Combat Series only, not the {getattr(rules, 'name', '?')} rules")
    if side not in rules.side_ids:
        raise ValueError(f"the scenario has no side {side!r} (sides: {', '.join(rules.side_ids)})")
    unknown = set(options) - set(STRONG_OPTIONS)
    if unknown:
        raise ValueError(f"the TCS player has no option {', '.join(sorted(unknown))}")
    return chooser(rules, TcsPlayer(side, level, cancel))       # budget: its decisions take far less (bench)
