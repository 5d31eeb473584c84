"""The terrain half of ``bench digitise``: terrain suggested on the digitising test set, and its speed.

``terrain_accuracy``: on each scan of the set (``engine.maps.scanset``), 5 % of
the hexes printed whole are labelled with their true terrain, at least one of
every terrain the scan shows (a person paints a few hexes of each), the rest
chosen at random from the scan's seed, never a hex a counter hides (a person
paints hexes whose terrain shows; ``terrain_accuracy_any_example`` lets them
be chosen too); every other whole hex, hidden ones included, gets a
suggestion, and the share that is right is averaged over the scans.
``terrain_by_terrain``: the share right of each terrain's hexes, pooled.
``calibration``: the suggestions in bands of confidence, with the share of
each band that was right (a calibrated confidence of 0.9 is right nine times
in ten). The suggester was tuned on seeds 0-599 (its confidence calibrated on
0-59); ``bench digitise_terrain`` reports seeds HELD_OUT (never used while
tuning) beside the set's 30.
``terrain_s``: the median time to suggest a terrain for the 2,300 hexes of a
46 x 50 sheet (about a 22 x 34 inch map) from its scan already in memory.
``terrain_reviewed`` and ``terrain_accuracy_above`` say what the review list
holds: the share of hexes under LOW_CONFIDENCE and the accuracy of those above.
``terrain_asked``: the same figures when part of the 5 % is painted where the
editor asks (``suggest_terrain(ask=...)``, the map editor's "Hexes to paint
next"): the person paints one hex of each terrain and ASK_FIRST of the hexes at
random, asks for suggestions, paints the hexes the editor names (``ask_count``
at a time; one a counter hides is left unpainted, as a person cannot tell its
terrain, and still counts against the 5 %; the editor does not name it again),
and asks again, until 5 % is painted or ASK_ROUNDS rounds have passed.
``terrain_asked_one_round``: the same, but at least one round of what the
editor asks is painted, past the 5 % on a small map where one hex of each
terrain already spends it. ``terrain_small_scans``: the scans where 5 % of the
hexes is fewer than the terrains they show (each terrain learnt from its one
example), and ``terrain_scans_under_085_not_small`` the scans under 0.85 among
the others.
``hexsides``: for rivers, walls and ridges, each suggested from one sample
hexside per scan (one printed clear of counters, town names and other
features, as a person would mark; ``hexsides_any_sample``: any), the recall
and precision at SIDE_ACCEPT. ``hexsides_corrected``: the same after the person's CORRECTIONS corrections,
each a wrong suggestion rejected or, with none, a missed hexside marked, the hexsides suggested again after
each (counted over the hexsides neither marked nor rejected).
"""
from __future__ import annotations

import random
import statistics
import time

import numpy as np

from engine.maps.hexes import Hex
from engine.maps.suggest import (LOW_CONFIDENCE, SIDE_ACCEPT, SuggestError, ask_count, suggest_hexsides,
                                 suggest_terrain)

LABELLED_SHARE = 0.05
HELD_OUT = (9000, 100)        # first seed and count of the scans never used while tuning or calibrating
CONFIDENCE_BANDS = (0.0, 0.5, 0.7, 0.8, 0.9, 0.95, 0.98, 1.0001)
ASK_FIRST = 0.03              # painted at random (one of each terrain at least) before the editor is asked
ASK_ROUNDS = 4               # times at most the person paints what the editor asks and asks again
SPEED_HEXES = 2300
SPEED_REPEAT = 3
CORRECTIONS = 2               # the person's corrections after the first hexside suggestion (``hexsides_corrected``)


def pick_examples(truth: dict[Hex, str], share: float, seed: int, hidden=()) -> dict[Hex, str]:
    """``share`` of the hexes, at least one of each terrain, the rest at random (from ``seed``), none of
    ``hidden`` (hexes whose terrain a counter hides) unless a terrain has no other."""
    rng = random.Random(seed)
    n = max(1, round(share * len(truth)))
    hidden = set(hidden)
    hexes = sorted(h for h in truth if h not in hidden)
    hexes += sorted(h for h in truth if h in hidden and truth[h] not in {truth[x] for x in hexes})
    by_terrain: dict[str, list[Hex]] = {}
    for h in hexes:
        by_terrain.setdefault(truth[h], []).append(h)
    chosen = {rng.choice(hs) for _t, hs in sorted(by_terrain.items())}
    rest = [h for h in hexes if h not in chosen]
    rng.shuffle(rest)
    chosen.update(rest[:max(0, n - len(chosen))])
    return {h: truth[h] for h in sorted(chosen)}


def asked_examples(scan, truth: dict[Hex, str], image: np.ndarray, share: float, hidden,
                   one_round: bool = False) -> dict[Hex, str]:
    """The hexes a person paints who asks the editor where to (``terrain_asked``): ``share`` of ``truth`` in all,
    ASK_FIRST of it at random (one of each terrain at least), the rest where the editor asks. ``one_round``:
    at least one round of what the editor asks is painted, past ``share`` if need be (a small map, where one
    hex of each terrain spends the 5 %: ``terrain_asked_one_round``)."""
    budget = max(1, round(share * len(truth)))
    examples = pick_examples(truth, min(share, ASK_FIRST), scan.seed, hidden)
    hidden = set(hidden)
    spent = len(examples)
    if one_round:
        budget = max(budget, spent + ask_count(len(scan.board.hexes())))
    passed: set[Hex] = set()                 # asked for and left unpainted: the editor does not ask for them again
    for _ in range(ASK_ROUNDS):
        left = budget - spent
        if left <= 0:
            break
        got = suggest_terrain(scan.board, {scan.sheet.id: image}, examples, targets=list(truth),
                              ask=min(left, ask_count(len(scan.board.hexes()))),
                              ask_among=[h for h in truth if h not in passed])
        if not got.to_paint:
            break
        spent += len(got.to_paint)
        examples.update({h: truth[h] for h in got.to_paint if h not in hidden})
        passed.update(h for h in got.to_paint if h in hidden)
    return examples


def small_scan(truth: dict[Hex, str], share: float = LABELLED_SHARE) -> bool:
    """Whether ``share`` of the hexes is fewer than the terrains they show: one painted hex of each terrain
    already spends it, so that each terrain is learnt from one example, typical or not."""
    return max(1, round(share * len(truth))) < len(set(truth.values()))


def scan_accuracy(scan, share: float = LABELLED_SHARE, any_example: bool = False, asked: bool | str = False) -> dict:
    """Label ``share`` of one scan's whole hexes (``asked``: partly where the editor asks), suggest the rest; the
    figures for that scan (``rows``: each suggestion's true terrain, whether it was right and its confidence)."""
    board, sheet = scan.board, scan.sheet
    whole = [sheet.numbering.parse(i) for i in scan.whole]
    truth = {h: board.terrain[h] for h in whole if h in board.terrain}
    hidden = () if any_example else [sheet.numbering.parse(i) for i in scan.covered]
    image = np.asarray(scan.image.convert("RGB"))
    if asked:
        examples = asked_examples(scan, truth, image, share, hidden, one_round=asked == "one_round")
    else:
        examples = pick_examples(truth, share, scan.seed, hidden)
    t0 = time.perf_counter()
    got = suggest_terrain(board, {sheet.id: image}, examples, targets=list(truth))
    seconds = time.perf_counter() - t0
    rows = [(truth[h], got.terrain[h][0] == truth[h], got.terrain[h][1]) for h in truth if h in got.terrain]
    right = np.array([r for _t, r, _c in rows], dtype=bool)
    conf = np.array([c for _t, _r, c in rows])
    sure = conf >= LOW_CONFIDENCE
    return {"seed": scan.seed, "hexes": len(truth), "labelled": len(examples), "accuracy": float(right.mean()),
            "small": small_scan(truth, share),
            "reviewed": float((~sure).mean()), "accuracy_above": float(right[sure].mean()) if sure.any() else 1.0,
            "seconds": seconds, "rows": rows}


def calibration(rows, bands=CONFIDENCE_BANDS) -> list[dict]:
    """Suggestions ``(terrain, right, confidence)`` in bands of confidence: how many, their mean confidence and
    the share right."""
    conf = np.array([c for _t, _r, c in rows])
    right = np.array([r for _t, r, _c in rows], dtype=float)
    out = []
    for lo, hi in zip(bands, bands[1:]):
        m = (conf >= lo) & (conf < hi)
        if m.any():
            out.append({"band": f"{lo:.2f}-{min(hi, 1.0):.2f}", "suggestions": int(m.sum()),
                        "confidence": round(float(conf[m].mean()), 3), "right": round(float(right[m].mean()), 3)})
    return out


def terrain_accuracy(scans, share: float = LABELLED_SHARE, any_example: bool = False,
                     asked: bool | str = False) -> dict:
    """The mean figures over scans of the set, each scan's own figures in ``scans``; by terrain (pooled) and
    the calibration of the confidence."""
    per = [scan_accuracy(scan, share, any_example, asked) for scan in scans]
    rows = [r for p in per for r in p["rows"]]
    by: dict[str, list[int]] = {}
    for t, r, _c in rows:
        by.setdefault(t, [0, 0])
        by[t][0] += bool(r)
        by[t][1] += 1
    conf = np.array([c for _t, _r, c in rows])
    right = np.array([r for _t, r, _c in rows], dtype=float)
    return {"terrain_accuracy": round(float(np.mean([p["accuracy"] for p in per])), 4),
            "terrain_accuracy_worst": round(float(min(p["accuracy"] for p in per)), 4),
            "terrain_worst_scan": min(per, key=lambda p: p["accuracy"])["seed"],
            "terrain_scans_under_085": sum(p["accuracy"] < 0.85 for p in per),
            "terrain_small_scans": sum(p["small"] for p in per),
            "terrain_scans_under_085_not_small": sum(p["accuracy"] < 0.85 and not p["small"] for p in per),
            "terrain_reviewed": round(float(np.mean([p["reviewed"] for p in per])), 4),
            "terrain_accuracy_above": round(float(np.mean([p["accuracy_above"] for p in per])), 4),
            "terrain_by_terrain": {t: round(a / n, 4) for t, (a, n) in sorted(by.items())},
            "terrain_confidence_mean": round(float(conf.mean()), 4) if len(conf) else None,
            "terrain_right_share": round(float(right.mean()), 4) if len(conf) else None,
            "calibration": calibration(rows),
            "scans": per}


def terrain_speed(repeat: int = SPEED_REPEAT, seed: int = 1) -> dict:
    """Median seconds to suggest terrain for a sheet of SPEED_HEXES hexes (46 columns x 50 rows) at 60 px a hex."""
    from engine.maps.scanset import make_scan

    scan = make_scan(seed, hex_px=60.0, width=46 * 52 + 200, height=50 * 60 + 200, labels=True, counters=10)
    board, sheet = scan.board, scan.sheet
    whole = [sheet.numbering.parse(i) for i in scan.whole]
    truth = {h: board.terrain[h] for h in whole if h in board.terrain}
    examples = pick_examples(truth, LABELLED_SHARE, seed)
    image = np.asarray(scan.image.convert("RGB"))
    times = []
    hexes = len(board.hexes())
    for _ in range(repeat):
        t0 = time.perf_counter()
        suggest_terrain(board, {sheet.id: image}, examples)
        times.append(time.perf_counter() - t0)
    return {"terrain_s": round(statistics.median(times), 3), "terrain_s_hexes": hexes,
            "terrain_s_image": f"{image.shape[1]}x{image.shape[0]}"}


def clear_sample(scan, truth: list) -> list:
    """The hexsides of ``truth`` where a person would mark the feature: it alone on the hexside, neither hex
    under a counter or a town (whose name may be printed over the hexside); all of ``truth`` if none is."""
    hidden = {scan.sheet.numbering.parse(i) for i in scan.covered}
    hidden |= {h for h, t in scan.board.terrain.items() if t == "town"}
    clear = [s for s in truth if len(scan.board.hexsides.get(s, ())) == 1 and s.a not in hidden and s.b not in hidden]
    return clear or truth


def _suggested(board, images, feature: str, samples: list, rejected: list, threshold: float) -> set:
    """The hexsides suggested at ``threshold`` or more with ``samples`` marked (the board showing only those)."""
    kept, board.hexsides = board.hexsides, {s: {feature} for s in samples}
    try:
        return set(suggest_hexsides(board, images, feature, samples, rejected=rejected).above(threshold))
    except SuggestError:
        return set()
    finally:
        board.hexsides = kept


def hexside_figures(scans, threshold: float = SIDE_ACCEPT, any_sample: bool = False, corrections: int = 0) -> dict:
    """Per hexside feature, its recall and precision over ``scans`` and how many scans count
    (:func:`hexside_counts`)."""
    out = {}
    for feature, (hit, want, got, n) in sorted(hexside_counts(scans, threshold, any_sample, corrections).items()):
        out[f"{feature}_recall"] = round(hit / want, 4) if want else None
        out[f"{feature}_precision"] = round(hit / got, 4) if got else None
        out[f"{feature}_scans"] = n
    return out


def hexside_counts(scans, threshold: float = SIDE_ACCEPT, any_sample: bool = False,
                   corrections: int = 0) -> dict[str, list[int]]:
    """Per hexside feature, the counts that give its recall and precision (hexsides found that carry it,
    hexsides that carry it, hexsides found, scans): one of its hexsides on each scan (chosen from the scan's
    seed among those where it is printed clear of counters, town names and other features, or among all with
    ``any_sample``) is the sample; the share of its other hexsides suggested at ``threshold`` or more (recall)
    and the share of those suggested that carry it (precision), over the scans that have two or more.

    With ``corrections``, the person then corrects up to that many times, one at a time, each followed by a
    new suggestion: a wrong suggestion at ``threshold`` or more rejected if there is one (chosen from the
    scan's seed), else a missed hexside marked (chosen the same way, one printed clear if any is). Recall and
    precision are then counted over the hexsides neither marked nor rejected."""
    counts: dict[str, list[int]] = {}
    for scan in scans:
        board = scan.board
        images = {scan.sheet.id: np.asarray(scan.image.convert("RGB"))}
        for feature in sorted({f for fs in board.hexsides.values() for f in fs}):
            truth = sorted(s for s, fs in board.hexsides.items() if feature in fs and s.a in board and s.b in board)
            if len(truth) < 2:
                continue
            clear = clear_sample(scan, truth)
            samples = [random.Random(scan.seed).choice(truth if any_sample else clear)]
            rejected: list = []
            got = _suggested(board, images, feature, samples, rejected, threshold)
            rng = random.Random(f"{scan.seed}:{feature}:corrections")
            for _ in range(corrections):
                wrong = sorted(got - set(truth))
                missed = sorted(set(truth) - got - set(samples))
                if wrong:
                    rejected.append(rng.choice(wrong))
                elif missed:
                    samples.append(rng.choice([s for s in missed if s in clear] or missed))
                else:
                    break
                got = _suggested(board, images, feature, samples, rejected, threshold)
            want = set(truth) - set(samples)
            got -= set(samples) | set(rejected)
            c = counts.setdefault(feature, [0, 0, 0, 0])
            c[0] += len(got & want)
            c[1] += len(want)
            c[2] += len(got)
            c[3] += 1
    return counts


def _asked_summary(figures: dict) -> dict:
    """The headline figures of ``terrain_accuracy(asked=True)``."""
    keys = ("terrain_accuracy", "terrain_accuracy_worst", "terrain_worst_scan", "terrain_scans_under_085",
            "terrain_small_scans", "terrain_scans_under_085_not_small",
            "terrain_reviewed", "terrain_accuracy_above", "terrain_by_terrain")
    return {k: figures[k] for k in keys}


def measure_terrain(args, bench) -> dict:
    """``bench digitise``'s terrain figures: on its test set (made once for every measurement), the terrain
    accuracy with 5 % labelled, the review share, the speed for 2,350 hexes and the hexside figures."""
    repeat = getattr(args, "repeat", None) or SPEED_REPEAT
    scans = bench.scans()
    figures = terrain_accuracy(scans)
    figures.pop("scans")
    figures.pop("calibration")
    figures["terrain_asked"] = _asked_summary(terrain_accuracy(scans, asked=True))
    figures["terrain_asked_one_round"] = _asked_summary(terrain_accuracy(scans, asked="one_round"))
    figures.update(terrain_speed(repeat))
    figures.update({f"hexside_{k}": v for k, v in hexside_figures(scans).items()})
    figures.update({f"hexside_corrected_{k}": v for k, v in hexside_figures(scans, corrections=CORRECTIONS).items()})
    return figures


def run(args) -> list[dict]:
    """``python -m engine bench digitise_terrain``: per-scan terrain figures over the whole test set, then the
    means, the hexside figures and the speed."""
    from engine.maps.scanset import SET_SIZE, make_scan

    repeat = getattr(args, "repeat", None) or SPEED_REPEAT
    first = getattr(args, "first", None)
    first = HELD_OUT[0] if first is None else int(first)
    n = int(getattr(args, "sweep", None) or HELD_OUT[1])
    out = []
    for name, seeds in (("set", range(SET_SIZE)), ("held_out", range(first, first + n))):
        scans = [make_scan(s) for s in seeds]
        figures = terrain_accuracy(scans)
        per = figures.pop("scans")
        out += [{"scans": name, "scan": p["seed"], "hexes": p["hexes"], "labelled": p["labelled"],
                 "accuracy": round(p["accuracy"], 4), "reviewed": round(p["reviewed"], 4)} for p in per]
        figures["scans"] = f"{name}: seeds {seeds.start}-{seeds.stop - 1}"
        figures["terrain_accuracy_any_example"] = terrain_accuracy(scans, any_example=True)["terrain_accuracy"]
        asked = terrain_accuracy(scans, asked=True)
        figures["terrain_asked"] = _asked_summary(asked)
        figures["terrain_asked_one_round"] = _asked_summary(terrain_accuracy(scans, asked="one_round"))
        out += [{"scans": name, "asked": True, "scan": p["seed"], "labelled": p["labelled"],
                 "accuracy": round(p["accuracy"], 4)} for p in asked["scans"]]
        figures["hexsides"] = hexside_figures(scans)
        figures["hexsides_any_sample"] = hexside_figures(scans, any_sample=True)
        figures["hexsides_corrected"] = hexside_figures(scans, corrections=CORRECTIONS)
        out.append(figures)
        scans = None
    out.append(terrain_speed(repeat))
    return out
