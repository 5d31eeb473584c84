"""Procedures that may stop for a printed result or a player's decision, and go on exactly where they stopped.

A procedure (a fire attack, an implementation roll, a mission's adjustment)
reads every chart cell through :meth:`Ctx.cell`, rolls through :meth:`Ctx.roll`
and asks the player through :meth:`Ctx.choose`.  When a cell is blank or a
decision is needed, it stops (:class:`Need`): the state keeps the pending
question and the procedure's *inputs* so far (dice rolled, decisions made).
Once answered, the procedure runs again from its start on the same state,
reading its recorded inputs instead of rolling again, so every roll is made
once, replay is exact, and nothing half-done is ever left in the state.
"""
from __future__ import annotations

from ...charts import ChartPrompt, Step, prompt_for, read_cell
from ...errors import IllegalAction
from ...game import Event, next_die


class Need(Exception):
    """A procedure stopped: ``pending`` is the question for the player."""

    def __init__(self, pending: dict):
        super().__init__(pending.get("kind", ""))
        self.pending = pending


class Ctx:
    """What a running procedure reads its dice, decisions and chart cells from."""

    def __init__(self, rules, st, inputs: list, events: list):
        self.rules, self.st, self.inputs, self.events = rules, st, list(inputs), events
        self.i = 0

    def roll(self, purpose: str, sides: int = 6) -> int:
        """One die: recorded earlier in this procedure, else entered at the table, else the generator."""
        if self.i < len(self.inputs):
            v = self.inputs[self.i]
            self.i += 1
            return int(v)
        st = self.st
        if st.preset_dice:
            die = st.preset_dice.pop(0)
        else:
            die, st.rng = next_die(st.rng, sides)
        self.inputs.append(die)
        self.i += 1
        self.events.append(Event("roll", f"rolled {die} for {purpose}", {"die": die, "purpose": purpose}))
        return die

    def roll_dice(self, dice: str, purpose: str) -> str:
        """A roll read on a chart axis: ``1d6`` → "4", ``2d6`` → "9", ``d66`` → "35" (tens die first)."""
        if dice == "d66":
            return f"{self.roll(purpose + ' (tens)')}{self.roll(purpose + ' (units)')}"
        n = int(dice.split("d")[0] or 1)
        return str(sum(self.roll(purpose) for _ in range(n)))

    def choose(self, what: str, side: str, options: list[str], text: str) -> str:
        """A decision the player makes now (recorded once made)."""
        if self.i < len(self.inputs):
            v = self.inputs[self.i]
            self.i += 1
            return str(v)
        if len(options) == 1:
            self.inputs.append(options[0])
            self.i += 1
            return options[0]
        raise Need({"kind": "choice", "what": what, "side": side, "options": list(options), "text": text})

    def cell(self, slot_id: str, key, steps: tuple[Step, ...] = (), purpose: str = ""):
        """A chart cell's value; a blank cell stops the procedure with a chart prompt."""
        key = tuple(str(k) for k in key)
        v = read_cell(self.rules.charts, self.st.memory, slot_id, key)
        if v is None:
            raise Need({"kind": "chart", "prompt": prompt_for(self.rules.charts[slot_id], key, tuple(steps), purpose)})
        return v


def chart_value(rules, st, slot_id: str, key):
    """A cell known to the game (shipped or answered), or None (``read_cell`` inlined: it is asked for
    hundreds of thousands of times a game)."""
    key = tuple(k if type(k) is str else str(k) for k in key)
    known = rules.charts.slots[slot_id].known
    if key in known:
        return known[key]
    cells = st.memory.cells.get(slot_id)
    return cells.get(key) if cells is not None else None


def ask(rules, slot_id: str, key, purpose: str = "", steps=()) -> dict:
    """A pending chart prompt not tied to a procedure (a value legality needs before play goes on)."""
    return {"kind": "chart", "prompt": prompt_for(rules.charts[slot_id], tuple(str(k) for k in key), tuple(steps),
                                                  purpose)}


def _ok(fn) -> bool:
    try:
        fn()
        return True
    except IllegalAction:
        return False


__all__ = ["ChartPrompt", "Ctx", "Need", "Step", "ask", "chart_value"]
