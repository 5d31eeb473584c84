"""Black Wednesday's Preparatory Barrage Log in play (BW 1.10b, 2.4): the Soviet player's own Log written
before play, and the Log's missions fired first in each Soviet Action Phase; hooks of
``black_wednesday_rules``, which the series engine asks.  The Log as data is ``bw_prep.py``."""
from __future__ import annotations

from dataclasses import replace

from ....errors import IllegalAction
from ....game import Event
from ....maps.hexes import hex_range


# ---------------------------------------------------------------- BW 1.10b, 2.4: the Soviet player's own Log

OWN_LOG = "own-prep-log"        # the variant: the Soviet player fills the Log (without 4.3's historical entries)


def own_log(rules) -> bool:
    return OWN_LOG in rules.options.get("variants", []) and rules.bw_prep is not None


def encode_log(rules, log) -> str:
    """A Log as the ``preplog`` action's text: the scenario's turns in order, each its battalions' hexes."""
    bats = [b for b, _c in rules.bw_prep.battalions]
    return "/".join(",".join(log.target(t, b) or "-" for b in bats) for t in rules.bw_prep.turns)


def decode_log(rules, text: str):
    """The Log a ``preplog`` text gives (IllegalAction citing BW 2.4 if it is not one Log of this scenario)."""
    cache = rules.__dict__.setdefault("_own_logs", {})
    if text in cache:
        return cache[text]
    base = rules.bw_prep
    bats, turns = [b for b, _c in base.battalions], list(base.turns)
    rows = text.split("/")
    if len(rows) != len(turns) or any(len(r.split(",")) != len(bats) for r in rows):
        raise IllegalAction("BW 2.4", f"a Prep Log here has {len(turns)} turns of {len(bats)} battalions each "
                                      f"({', '.join(bats)})")
    log = replace(base, turns={})
    for t, row in zip(turns, rows):
        log = replace(log, turns={**log.turns, t: ()})
        for b, hid in zip(bats, row.split(",")):
            if hid != "-":
                log = log.with_target(t, b, hid)
    cache[text] = log
    return log


def prep_log(rules, st):
    """The Log this game fires: the scenario's (historical, 4.3) or the one the Soviet player wrote."""
    if not own_log(rules):
        return rules.bw_prep
    text = st.marks.get("prep log")
    return decode_log(rules, text) if text else None


def before_play(rules, st, action, events) -> bool:
    """BW 1.10b: with the own-Log variant the Soviet player writes the Log before the Axis sets up, so before any
    other action; it cannot be changed afterwards (2.4).  True when ``action`` was the Log."""
    from .. import actions as A
    if not own_log(rules):
        return False
    written = "prep log" in st.marks
    if isinstance(action, A.PrepLog):
        if written:
            raise IllegalAction("BW 2.4", "the Preparatory Barrage Log is written; it cannot be changed")
        bad = decode_log(rules, action.targets).problems(rules.board)
        if bad:
            raise IllegalAction("BW 2.4", bad[0])
        st.marks["prep log"] = action.targets
        events.append(Event("preplog", "the Soviet Preparatory Barrage Log is written (BW 1.10b)",
                            {"log": action.targets}))
        return True
    if not written:
        raise IllegalAction("BW 1.10b", "the Soviet player fills the Preparatory Barrage Log before the Axis sets "
                                        "up and play begins")
    return False


def before_play_offers(rules, st) -> list:
    """BW 1.10b: while the own Log is unwritten it is the only action; offered with the historical targets."""
    from .. import actions as A
    if own_log(rules) and "prep log" not in st.marks:
        return [A.PrepLog(encode_log(rules, rules.bw_prep))]
    return []


def prep_fire(rules, st, ctx) -> None:
    """BW 2.4: fire this turn's Prep Log missions one after another."""
    from ..procs import area_attack, scatter, zone_of
    from ..state import Barrage
    log = prep_log(rules, st)
    label = rules.turns[st.turn].label
    # BW 2.4e: the previous turn's Prep barrage markers come off first
    st.markers = [m for m in st.markers if not m.battery.startswith("prep ")]
    cfg = log.settings
    for bat, hid in log.turns.get(label, ()):
        h = rules.board.parse_hex(hid)
        why = f"{bat}'s Prep mission on {hid}"
        die = ctx.roll(f"Good or Bad Shoot of {why} (BW 2.4d)")
        shoot = log.shoot(die)                                  # BW 2.4d: no spotter, no Adjustment Table
        katyusha = log.calibre(bat) == "katyusha"
        ctx.events.append(Event("prep", f"{why}: {die}, {shoot.title()} Shoot (BW 2.4d)",
                                {"battalion": bat, "hex": hid, "shoot": shoot}))
        if katyusha:
            if shoot == "bad" and cfg.get("katyusha_scatters", True):     # BW 2.4g: Katyushas scatter normally
                h = scatter(rules, st, ctx, h, why)
                if h is None:
                    continue
            zone = [x for x in hex_range(h, int(cfg["katyusha_radius"])) if x in rules.board]
            fp = int(cfg["katyusha_firepower"])                 # BW 2.4g: strength 6 over an 11-hex zone
        else:                                                   # BW 2.4d: always lands on the plotted hex
            zone = zone_of(rules, h, "battalion")
            base = int(ctx.cell("tcs.barrage_values", (log.calibre(bat), "battalion"),
                                purpose=f"{log.calibre(bat)} battalion of the Prep (doubled, BW 2.4a)"))
            fp = base * int(cfg["prep_multiplier"])             # BW 2.4a: double the Barrage Values Chart
        mid = f"M{st.next_id}"
        st.next_id += 1
        st.markers.append(Barrage(mid, "soviet", "he", h, zone, "prep " + bat))
        ctx.events.append(Event("barrage", f"{mid}: {bat} Prep barrage on {rules.hid(h)}, strength {fp} "
                                           f"(BW 2.4a/g; no ammunition spent, 2.4b)", {"hex": rules.hid(h)}))
        for x in zone:
            area_attack(rules, st, ctx, fp, x, f"{bat} (Prep)")
    st.marks["prep " + label] = "fired"
