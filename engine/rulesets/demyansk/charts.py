"""The Demyansk combat results table as a chart slot (Demyansk 6.6): the printed cells known, the blank ones asked.

The numbers stay in ``tables.toml`` (``[crt]``); this module reads them as the
slot ``demyansk.crt``: odds column ("1-1" .. "6-1") across, the die (1d6) down,
the results of the chart as the domain.  The rulebook prints 21 cells; the 15
it leaves blank are asked in play (a :class:`ChartPrompt` with the working),
answered by ``chart demyansk.crt [4-1][5] = DE`` and remembered in the game.
"""
from __future__ import annotations

from ...charts import Axis, ChartPrompt, ChartSet, ChartSlot, Domain, Step, dice_labels, prompt_for
from .tables import Tables, load_tables

CRT = "demyansk.crt"
RULE = "Demyansk 6.6"


def crt_slot(tables: Tables) -> ChartSlot:
    """The combat results table of ``tables`` as a slot: every printed cell known, the blank ones blank."""
    known = {(col, str(die)): result for die, row in enumerate(tables.crt_rows, start=1)
             for col, result in zip(tables.crt_columns, row) if result}
    axes = (Axis("odds", tuple(tables.crt_columns)), Axis("die", dice_labels("1d6"), dice="1d6"))
    return ChartSlot(CRT, "Combat Results Table", RULE, axes, Domain(values=tuple(tables.results)), known,
                     "odds column across, die down; the rulebook leaves die 4 at 4-1 and over, and dice 5 and 6, blank")


def chart_set(tables: Tables) -> ChartSet:
    return ChartSet({CRT: crt_slot(tables)})


def chart_slots() -> ChartSet:
    """The charts Demyansk reads (the ruleset contract of :mod:`engine.charts.ruleset`)."""
    return chart_set(load_tables())


def crt_key(tables: Tables, column: int, die: int) -> tuple[str, str]:
    """The cell of an odds column (1..6) and a die: ``("4-1", "5")``."""
    return tables.crt_columns[column - 1], str(die)


def crt_prompt(rules, st) -> ChartPrompt | None:
    """The pending blank-cell question with its working (strengths, each modifier with its rule, column, roll)."""
    if not st.pending or st.pending[0].get("kind") != "result":
        return None
    p = st.pending[0]
    battle = next(b for b in st.battles if b.defender == p["battle"])
    column = int(str(p["column"]).split(":")[0])
    odds = rules.odds(st, battle.defender, battle.attackers)
    steps = [Step(f"attack {odds.attack} ({'+'.join(battle.attackers)}) against defence {odds.defense_printed}"
                  + (f" x {odds.multiplier} = {odds.defense}" if odds.multiplier != 1 else "")
                  + f", ratio {odds.ratio}:1", "Demyansk 6")]
    for m in odds.modifiers:
        rule, sep, text = m.partition(": ")
        steps.append(Step(text, rule) if sep and rule.startswith("Demyansk") else Step(m))
    if odds.shift and odds.shift not in odds.modifiers:
        rule, sep, text = odds.shift.partition(": ")
        steps.append(Step(text, rule) if sep else Step(odds.shift))
    steps.append(Step(f"odds column {rules.tables.crt_columns[column - 1]}", "Demyansk 6"))
    steps.append(Step(f"die rolled {p['die']}", "Demyansk 6"))
    return prompt_for(rules.charts[CRT], crt_key(rules.tables, column, p["die"]), tuple(steps),
                      f"the battle against {battle.defender}")
