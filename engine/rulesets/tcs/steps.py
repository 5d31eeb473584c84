"""The TCS sequence of play in words: each step's name, what it asks of whom, and what "end" (Next) leads to.

The steps are those of :meth:`TcsRules.sequence` (the v4.01 Sequence of Play, with the Black Wednesday
Clean-up Phase).  A step the engine carries out by itself (a roll, the markers lifted) is named too: it is
where the game stands while such a step waits for a printed result.
"""
from __future__ import annotations

PHASE_NAMES = {"command": "Command Phase", "artillery": "Aircraft & Artillery Phase", "action": "Action Phase",
               "cleanup": "Clean-up Phase", "over": "Game over", "setup": "Set-up before play"}

# step -> (its name, the rule).  The initiative step is named by its phase.
STEP_NAMES = {
    "review": ("Op Sheet review", "TCS 6.11"),
    "accrue": ("weighted turns", "TCS 6.9d"),
    "implement": ("implementation checks", "TCS 6.9f"),
    "reserve": ("reserve checks", "TCS 6.14d"),
    "add": ("adding units to Op Sheets", "TCS 6.13"),
    "create": ("new Op Sheets", "TCS 6.8"),
    "bn_morale": ("battalion morale roll", "TCS 17.1d"),
    "weather": ("weather roll", "TCS 7.0a"),
    "release": ("reinforcement rolls", "BW 2.7"),
    "initiative": ("initiative roll", "TCS sequence of play"),
    "sortie_roll": ("air sortie roll", "TCS 25.0"),
    "sorties": ("air sorties", "TCS 25.0"),
    "preplot": ("pre-plotted barrages", "TCS 18.0"),
    "missions": ("fire missions", "TCS 18.0"),
    "execute": ("missions fire", "TCS 18.0"),
    "lift": ("barrages lifted", "TCS 18.0"),
    "action": ("Action Phase", "TCS 5.0"),
    "cleanup": ("clean-up and recovery", "TCS 13.0"),
    "over": ("game over", ""),
    "setup": ("placing units in their set-up areas", "TCS set-up"),
}

# what a player's step asks of its side ({side} is the side's name); the rule is the step's own
ASKS = {
    "review": "{side} reviews its implemented Op Sheets: complete or cancel any in the Op Sheets panel",
    "implement": "{side} rolls to implement its Op Sheets: select a sheet in the Op Sheets panel and Implement",
    "reserve": "{side} rolls for its reserve Op Sheets: select one in the Op Sheets panel and Reserve check",
    "add": "{side} may add units to its Op Sheets: drag a unit from the Op Sheets panel's list onto a sheet",
    "create": "{side} may write new Op Sheets: pick units, draw the objective and route on the map, then Create",
    "sorties": "{side} may fly its air sorties: pick a target hex it spots from the clock panel's list and Play",
    "missions": "{side} places fire missions in the Artillery panel (battery, target on the map, spotter) and may "
                "lift its continuous barrages",
    "action": "{side} acts: drag units in Move mode along their Op Sheets, change modes, fire and assault",
    "setup": "{side} sets up: drag its counters to other hexes of their set-up areas (the area lights up while a "
             "counter is dragged), then Finish set-up (Next) to end it (as written if nothing was moved)",
}

# what the engine does in its own steps, said of the step that comes next
DOES = {
    "accrue": "weighted turns accrue",
    "bn_morale": "battalion morale is rolled",
    "weather": "the weather is rolled",
    "release": "reinforcements are rolled for",
    "initiative": "the initiative is rolled",
    "sortie_roll": "{side}'s sorties are rolled",
    "preplot": "{side}'s pre-plotted barrages fire",
    "execute": "{side}'s missions fire",
    "lift": "{side}'s barrages lift",
    "cleanup": "clean-up and recovery",
}



# the steps the engine runs by itself (no player acts in them)
AUTO = {"release", "accrue", "bn_morale", "weather", "initiative", "sortie_roll", "preplot", "execute", "lift", "cleanup"}

def step_name(phase: str, step: str) -> str:
    """A step in words, like ``implementation checks`` or ``Action Phase initiative roll``."""
    name = STEP_NAMES.get(step, (step.replace("_", " "), ""))[0]
    if step == "initiative":
        return f"{PHASE_NAMES.get(phase, phase)} initiative roll"
    return name


def step_rule(step: str) -> str:
    return STEP_NAMES.get(step, ("", ""))[1]


def side_name(rules, who: str) -> str:
    s = rules.scenario.sides.get(who)
    return getattr(s, "name", who) if who else ""


def question_text(rules, p: dict) -> str:
    """A decision's question for the player: a side named first by its id ("soviet won the artillery initiative")
    by its name ("Soviet won …"); the question kept in the game stays as the engine wrote it."""
    text = p.get("text", "")
    head, sep, rest = text.partition(" ")
    if sep and head in rules.scenario.sides:
        return f"{side_name(rules, head)} {rest}"
    return text


def _who(rules, who: str) -> str:
    """A side by name, or "the first player" while the initiative that decides it is still to come."""
    return f"the {who} player" if who in ("first", "second") else side_name(rules, who)


def step_title(rules, phase: str, step: str, who: str) -> str:
    """``Command Phase: implementation checks (German)``: the step, its phase and whose it is."""
    name = STEP_NAMES.get(step, (step.replace("_", " "), ""))[0]
    head = name if step in ("action", "over") else f"{PHASE_NAMES.get(phase, phase)}: {name}"
    if step == "action" and who in rules.scenario.sides:
        return f"{side_name(rules, who)} Action Phase"
    if who in ("first", "second"):
        return f"{head} ({who} side)"
    return f"{head} ({side_name(rules, who)})" if who else head


def after_end(rules, st) -> str:
    """What "end" (the window's Next) leads to now: the engine's own steps it runs, and the step that then waits
    for a player (``weighted turns accrue, then German: implementation checks``)."""
    if st.setup:
        if len(st.setup) > 1:
            return f"{side_name(rules, st.setup[1])} sets up"
        return "play begins: " + step_title(rules, *rules.sequence(0)[0][:2], rules.sequence(0)[0][2])
    seq = rules.sequence(st.turn)
    done: list[str] = []
    i = st.step + 1
    ordered = bool(st.order)
    turn_over = False
    while True:
        if i >= len(seq):
            if st.turn + 1 >= len(rules.turns):
                done.append("the game ends")
                return ", then ".join(done)
            if not turn_over:
                done.append(f"turn {rules.turns[st.turn + 1].label} begins")
                turn_over = True
            seq = rules.sequence(st.turn + 1)
            i = 0
            ordered = False
            # the new turn's steps are read from its own sequence
        phase, step, who = seq[i]
        if who in ("first", "second"):
            if ordered and st.order:
                who = st.order[0 if who == "first" else 1]
        if step == "initiative":
            ordered = False
        if step in AUTO:
            if step == "weather" and not rules.scenario.weather_table:
                i += 1
                continue
            text = DOES.get(step, step_name(phase, step))
            text = text.format(side=_who(rules, who))
            if step == "initiative":
                text = f"the initiative for the {PHASE_NAMES.get(phase, phase)} is rolled"
            if text not in done:
                done.append(text)
            i += 1
            continue
        whose = _who(rules, who)
        target = (f"{whose}'s Action Phase" if step == "action" else f"{whose}: {step_name(phase, step)}")
        done.append(target)
        return ", then ".join(done)


def may_write_sheet(rules, st, side: str) -> bool:
    """Whether ``side`` may write a new Op Sheet now (TCS 6.8): a formation of its own with room for another sheet
    (TCS 6.7b) and a unit on the map that could go on it (not carrying out an implemented sheet, TCS 6.13).  The legal-move list offers a sheet only towards a scenario objective, and
    a scenario may list none (Black Wednesday's are areas): the player draws the objective on the map."""
    from engine.errors import IllegalAction

    from .state import OpSheet

    for f in rules.scenario.formations.values():
        busy = {s.id for s in st.sheets.values() if s.implemented}
        if f.side != side or not any(rules.specs[u].formation == f.id and st.units[u].hex is not None
                                     and st.units[u].sheet not in busy for u in rules.order):
            continue
        try:
            rules.check_limits(st, OpSheet("", side, f.id, "attack", [], [], []), new=True)
        except IllegalAction:
            continue
        return True
    return False


def guidance(rules, st, legal=None) -> str:
    """One line: what the step now asks of whom (with its rule), and what Next does."""
    if st.over:
        return "The game is over: the log keeps every action; File > New game to play again."
    phase, step, who = rules.current(st)
    if st.pending:
        p = st.pending[0]
        if p["kind"] == "chart":
            prompt = p["prompt"]
            return (f"A printed result is needed: {prompt.title}" + (f" for {prompt.purpose}" if prompt.purpose else "")
                    + " — read it on your chart and enter it in the Printed chart panel; the game goes on from there.")
        asker = side_name(rules, p.get("side") or who or rules.side_ids[0])
        return f"{asker} decides: {question_text(rules, p)} — answer in the Question panel; the game goes on from there."
    if rules.game is not None and hasattr(rules.game, "before_play_offers") and rules.game.before_play_offers(rules, st):
        return ("Before play the Soviet player writes the Preparatory Barrage Log (BW 1.10b): fill it in the Log "
                "window and start with it.")
    name = side_name(rules, who)
    asks = getattr(rules, "step_asks", ASKS).get(step)
    rule = step_rule(step)
    if step == "setup":
        rule = rules.setup_phase.rule_of_order()
    if asks is None:
        line = f"{step_title(rules, phase, step, who)}: the engine carries out this step"
    else:
        line = asks.format(side=name)
        if legal is not None and all(a.text() == "end" for a in legal) \
                and not (step == "create" and may_write_sheet(rules, st, who)):
            line = f"{name} has nothing to do in this step"
    cite = f" ({rule})" if rule else ""
    return f"{line}{cite}. Next step: {after_end(rules, st)}."
