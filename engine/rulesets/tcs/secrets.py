"""What of a side's written plans the other player may read now: Op Sheets (TCS 6.8), plotted barrages (BW 4.7),
the Prep Log (BW 1.10b) and planned drop zones (Leros 3.6) are the writer's secret.

A person playing against the computer sees the computer's actions in the log and its Op Sheets in the list, but
not what they say until it is revealed: an Op Sheet's objective and route while the sheet is in play (a sheet
completed or cancelled, TCS 6.10, is revealed), a plotted target, the Prep Log and a drop zone until the game
ends (the barrage, the Program's fire and the landing show themselves on the map as they happen).  The saved
game's log always holds every action whole; this only words what the window shows.  Choice (the rules leave
the moment of revealing to the players): the sheets are revealed when they leave play, the rest at the end.
"""
from __future__ import annotations

import re

HIDDEN = "(hidden)"
SECRET_VERBS = ("opsheet", "plot", "preplog", "plan")


def sheet_hidden(st, sheet_id: str, secret_sides) -> bool:
    """Whether an Op Sheet's objective and route are hidden from the person: a side the computer plays, the
    sheet still in play and the game not over."""
    s = st.sheets.get(sheet_id)
    return bool(s is not None and s.side in secret_sides and not st.over)


def hidden_text(st, text: str) -> str:
    """An action's text with its secret parts hidden, for an action of a side whose plans are secret now
    (``text`` unchanged when nothing in it is secret, or it is revealed)."""
    w = text.split()
    if not w or w[0] not in SECRET_VERBS or st.over:
        return text
    if w[0] == "opsheet":
        if len(w) >= 2 and w[1] not in st.sheets:
            return text                                  # completed or cancelled: revealed (TCS 6.10)
        if "objective" in w:
            return " ".join(w[:w.index("objective")] + ["objective", HIDDEN])
        return text
    if w[0] == "plan" and "dz" in w:
        return " ".join(w[:w.index("dz")] + ["dz", HIDDEN])
    return f"{w[0]} {HIDDEN}"


def is_secret(st, text: str) -> bool:
    return hidden_text(st, text) != text


def hidden_reason(st, rules, reason: str, secret_sides) -> str:
    """The computer's reason for an action with the hexes its sheets' secret objectives and routes name hidden:
    a set-up placement 'toward its attack objective B45.18' or a move 'its Op Sheet sends it toward B40.20'
    would tell the person what the sheet says (``reason`` unchanged when it names none, or they are revealed)."""
    if not reason or st.over:
        return reason
    secret = {h for s in st.sheets.values() if s.side in secret_sides for h in (*s.objective, *s.route)}
    if not secret:
        return reason
    names = sorted({rules.hid(h) for h in secret}, key=len, reverse=True)
    shown = re.sub(r"(?<![\w.])(" + "|".join(re.escape(n) for n in names) + r")(?!\w|\.\d)", HIDDEN, reason)
    if shown == reason:
        return reason
    # a distance to a hidden hex goes too: a placement's hex is public, and its distance from the objective,
    # over a few placements, would show where the objective lies
    hid = re.escape(HIDDEN)
    return re.sub(r"\d+ hexes? from ([^,;:]*?" + hid + r"(?: \([^()]*\))?) \(\d+ where the scenario put it\)",
                  r"nearer \1 than where the scenario put it", shown)
