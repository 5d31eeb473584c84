"""Black Wednesday's order of battle as unit identities (formation, battalion, company, type), from the book's
Order of Battle and Counter Manifest: each "Nx Type" is N counters of that type.  Counter values are never
here: they are the owner's (``tcs.counter.*`` chart slots).

Where the manifest gives only a battalion's totals, companies are formed the usual way and the choice is
said: a Spanish or German line battalion's 9 infantry platoons are three rifle companies of three, its 6 MGs
and 3 mortars its weapons company (4, 8, 12; II-269's 8 has 4 MGs); a Recon or Engineer company is three
infantry and one MG; a Soviet battalion's nine platoons are three companies of three (BW 2.2b bunching).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class U:
    id: str
    side: str
    type: str
    formation: str          # the Op Sheet formation: a Soviet division, armour, Spanish, German (BW 2.1b/c, 3.1b)
    battalion: str          # battalion morale (TCS 3.1)
    group: str              # the set-up group the scenarios name ("1-I-262", "269-63", "63-div", ...)
    vehicle: bool = False
    fo: bool = False
    weapon: bool = False    # mortars and regimental guns (BW 1.10e), battalion weapons units (1.10f)


def _short(typ: str) -> str:
    return "".join(w[0].upper() if not w[0].isdigit() else w for w in typ.replace("(", "").replace(")", "").split())


SOVIET_DIVS = {"63": "63Gd", "72": "72", "43": "43"}


def soviet_battalion(bn: str, reg: str, div: str) -> list[U]:
    b = f"{bn}-{reg}-{SOVIET_DIVS[div]}"
    kw = dict(formation=SOVIET_DIVS[div], battalion=b, group=b)
    out = []
    for c in range(3):                              # three companies of three platoons (BW 2.2b)
        out += [U(f"{b}:{c + 1}Co-P{p + 1}", "soviet", "soviet rifle platoon", **kw) for p in range(3)]
    out.append(U(f"{b}:MG", "soviet", "soviet mg company", **kw))
    out.append(U(f"{b}:Mor82", "soviet", "soviet 82mm mortar company", weapon=True, **kw))
    return out


def soviet_regiment(reg: str, div: str) -> list[U]:
    g = f"{reg}-{SOVIET_DIVS[div]}"
    kw = dict(formation=SOVIET_DIVS[div], battalion="", group=g)
    smg = 6 if div == "63" else 3
    out = [U(f"{g}:Recon", "soviet", "soviet recon platoon", **kw)]
    out += [U(f"{g}:SMG{i + 1}", "soviet", "soviet smg platoon", **kw) for i in range(smg)]
    out += [U(f"{g}:FO", "soviet", "soviet forward observer", fo=True, **kw),
            U(f"{g}:FO-Mor", "soviet", "soviet mortar forward observer", fo=True, **kw)]     # BW 2.3d
    out += [U(f"{g}:IG{i + 1}", "soviet", "soviet 76mm infantry gun", weapon=True, **kw) for i in range(4)]
    out.append(U(f"{g}:Mor120", "soviet", "soviet 120mm mortar company", weapon=True, **kw))
    for bn in ("1", "2", "3"):
        out += soviet_battalion(bn, reg, div)
    return out


def soviet_division_troops(div: str) -> list[U]:
    g = f"{SOVIET_DIVS[div]}-div"
    kw = dict(formation=SOVIET_DIVS[div], battalion="", group=g)
    out = [U(f"{g}:Cav", "soviet", "soviet cavalry squadron", **kw)]
    out += [U(f"{g}:Eng{i + 1}", "soviet", "soviet engineer platoon", **kw) for i in range(3)]
    if div == "72":
        out += [U(f"{g}:MG{i + 1}", "soviet", "soviet mg company", **kw) for i in range(3)]
    out += [U(f"{g}:AT{i + 1}", "soviet", "soviet 45mm at gun", weapon=True, **kw) for i in range(6)]
    return out


def soviet_tanks() -> list[U]:
    out = [U(f"IndTk:T34-{i + 1}", "soviet", "t-34/76", "armour", "IndTk", "IndTk", vehicle=True) for i in range(21)]
    out += [U(f"1-RB:KV{i + 1}", "soviet", "kv-i", "armour", "1-RB", "1-RB", vehicle=True) for i in range(21)]
    out += [U(f"2-RB:T26-{i + 1}", "soviet", "t-26", "armour", "2-RB", "2-RB", vehicle=True) for i in range(21)]
    return out


def soviet_all() -> list[U]:
    out = []
    for div, regs in (("63", ("269", "270", "342")), ("43", ("708",)), ("72", ("14", "133", "187"))):
        if div != "43":
            out += soviet_division_troops(div)
        for r in regs:
            out += soviet_regiment(r, div)
    return out + soviet_tanks()


def _axis_company(side, formation, bn, co, inf=3, mg=0, mor=0, nation="spanish"):
    g = f"{co}-{bn}"
    kw = dict(formation=formation, battalion=bn, group=g)
    out = [U(f"{g}:P{i + 1}", side, f"{nation} infantry platoon", **kw) for i in range(inf)]
    out += [U(f"{g}:MG{i + 1}", side, f"{nation} mg section", weapon=bool(inf == 0), **kw) for i in range(mg)]
    out += [U(f"{g}:Mor{i + 1}", side, f"{nation} 81mm mortar section", weapon=True, **kw) for i in range(mor)]
    return out


def _line_bn(bn, cos, formation="spanish", nation="spanish"):
    out = []
    for c in cos[:3]:
        out += _axis_company("axis", formation, bn, c, nation=nation)
    out += _axis_company("axis", formation, bn, cos[3], inf=0, mg=6, mor=3, nation=nation)
    return out


def axis_all() -> list[U]:
    sp = "spanish"
    out = _line_bn("I-262", ("1", "2", "3", "4")) + _line_bn("II-262", ("5", "6", "7", "8"))
    out += _line_bn("III-262", ("9", "10", "11", "12")) + _line_bn("MR", ("1", "2", "3", "4"))
    out += _line_bn("I-263", ("1", "2", "3", "4"))
    out += _axis_company("axis", sp, "II-269", "5") + _axis_company("axis", sp, "II-269", "8", inf=0, mg=4, mor=3)
    for bn in ("Recon", "Engineer"):
        for c in ("1", "2", "3"):
            out += _axis_company("axis", sp, bn, c, inf=3, mg=1)
    out += _axis_company("axis", sp, "Ski", "Ski")
    out += [U(f"1-AT:AT37-{i + 1}", "axis", "spanish 37mm at gun", sp, "1-AT", "1-AT", weapon=True) for i in range(12)]
    out += [U(f"13-262:IG75-{i + 1}", "axis", "spanish 75mm infantry gun", sp, "", "13-262", weapon=True)
            for i in range(6)]
    out += [U(f"13-262:IG150-{i + 1}", "axis", "spanish 150mm infantry gun", sp, "", "13-262", weapon=True)
            for i in range(2)]
    out += [U(f"14-262:AT37-{i + 1}", "axis", "spanish 37mm at gun", sp, "", "14-262", weapon=True) for i in range(10)]
    out += [U(f"14-262:AT75-{i + 1}", "axis", "spanish 75mm at gun", sp, "", "14-262", weapon=True) for i in range(2)]
    for b in ("1", "2", "3", "7", "8"):
        out += [U(f"Bty{b}:How{i + 1}", "axis", "spanish 105mm howitzer", sp, "", f"Bty{b}", weapon=True)
                for i in range(4)]
    out += [U(f"AT-2SS:AT75-{i + 1}", "axis", "ss 75mm at gun", sp, "", "AT-2SS", weapon=True) for i in range(5)]
    de = "german"
    out += _axis_company("axis", de, "635Ost", "1", inf=3, mg=1, nation="ost")
    out += _axis_company("axis", de, "635Ost", "2", inf=3, mg=1, nation="ost")
    out += [U(f"1-226:StuG{i + 1}", "axis", "stug iii f", de, "1-226", "1-226", vehicle=True) for i in range(9)]
    out += [U(f"1-563:Marder{i + 1}", "axis", "marder ii", de, "1-563", "1-563", vehicle=True) for i in range(7)]
    out += [U(f"102:Tiger{i + 1}", "axis", "pz vi e", de, "102", "102", vehicle=True) for i in range(4)]
    out += _line_bn("I-390", ("1", "2", "3", "4"), de, "german") + _line_bn("II-390", ("5", "6", "7", "8"), de, "german")
    out += [U(f"KG-Flak:AT88-{i + 1}", "axis", "german 88mm flak", de, "", "KG-Flak", weapon=True) for i in range(6)]
    return out


ALL = {u.id: u for u in soviet_all() + axis_all()}
