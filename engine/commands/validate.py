"""``python -m engine validate FILE...``: check map, scenario, saved game and chart files, one line per problem."""
from __future__ import annotations

import importlib
import json
from pathlib import Path

from ..errors import BadFile, Problem, SandtableError
from ..fileio import read_toml


def register(subparsers) -> None:
    p = subparsers.add_parser("validate", help="check map, scenario, saved game and chart files",
                              description="Check map files (with a [map] table), scenario files (with a "
                                          "[scenario] table: also their map, every unit's hex and their ruleset, "
                                          "as play would), gridless tables, saved games (their format, scenario, "
                                          "hashes and that the log replays), chart slot files ([[chart]] tables) "
                                          "and owner's chart books ([charts.\"<chart id>\"] tables, checked against "
                                          "the slots of the ruleset each chart id begins with, or --slots). "
                                          "Exit 0 when all are valid.")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--slots", metavar="FILE", help="check chart books against this slot file")
    p.add_argument("--json", action="store_true", help="one JSON object per problem or valid file")
    p.set_defaults(func=run)


UNKNOWN = ("not a file this program knows: expected a map file (with a [map] table), "
           "a scenario file (with a [scenario] table), a gridless table (with a [table] table), "
           "a saved game (with format, seed and actions), a chart slot file ([[chart]] tables) or a chart book "
           "([charts.\"<chart id>\"] tables)")


def check_file(path: str, slots_file: str | None = None) -> tuple[str, list[Problem]]:
    """What kind of file it is ("map", "scenario", "table", "save", "chart slots", "chart book" or "") and its
    problems (none if valid)."""
    kind, problems, _warnings = check_file_fully(path, slots_file)
    return kind, problems


def check_file_fully(path: str, slots_file: str | None = None) -> tuple[str, list[Problem], list[Problem]]:
    """The kind of file, its problems and its warnings (a map's findings as the map editor's Check map lists them).

    A scenario is checked as ``play`` and the window would open it: the file,
    its map, every unit's hex on that map, its ruleset bound to it and the
    opening position set up.  A saved game is loaded as the window would: its
    format, ruleset, scenario and hashes checked and its log replayed.
    """
    try:
        doc = read_toml(path)
    except BadFile as e:
        return "", e.problems, []
    kind = _kind_of(doc)
    warnings: list[Problem] = []
    try:
        if kind == "chart slots":
            from ..charts import parse_slots

            parse_slots(doc, path)
        elif kind == "chart book":
            problems = _check_book(doc, path, slots_file)
            if problems:
                return kind, problems, []
        elif kind == "map":
            from engine.maps.mapedit import check_map
            from engine.maps.mapfile import load_map_doc

            findings = check_map(load_map_doc(doc, path))
            bare = [f for f in findings if f.kind == "no terrain"]
            many = len(bare) > 1
            warnings = [f.problem(path) for f in findings
                        if f.severity == "warning" and not (many and f.kind == "no terrain")]
            if many:      # one line for the map, not one for each hex (an imported map has thousands)
                first = ", ".join(f.message.split(" ", 1)[0] for f in bare[:3])
                warnings.insert(0, Problem(path, "terrain", f"{len(bare):,} hexes have "
                                                            f"no terrain ({first}{', ...' if len(bare) > 3 else ''}); "
                                                            f"paint them in the map editor (python -m gui.mapeditor "
                                                            f"{Path(path).name}) before playing classic rules"))
            problems = [f.problem(path) for f in findings if f.severity == "problem"]
            if problems:
                return kind, problems, warnings
        elif kind == "scenario":
            _check_scenario(path)
        elif kind == "table":
            problems = _check_with(path, kind, "engine.maps.table", "load_table")
            if problems:
                return kind, problems, []
        elif kind == "save":
            from ..game import load_game

            load_game(path)
        else:
            return "", [Problem(path, "", UNKNOWN)], []
    except BadFile as e:
        return kind, e.problems, warnings
    except SandtableError as e:
        return kind, [Problem(path, "", str(e))], warnings
    return kind, [], warnings


def _check_scenario(path: str) -> None:
    """Load a scenario as ``play`` does: its own loader or the scenario loader, then its rules and opening."""
    from ..game import Game, load_rules, own_format_ruleset

    own = own_format_ruleset(path, "load_own_scenario")
    if own is not None:
        own(path)
    else:
        from engine.scenario import load_scenario

        load_scenario(path)             # every problem of the file itself, before its map and rules
    rules = load_rules(path)            # the ruleset installed, the map read, every unit's hex on it
    Game(rules, 1, path)                # the opening position set up, as a new game would


def _check_book(doc: dict, path: str, slots_file: str | None) -> list[Problem]:
    """An owner's chart book, checked cell by cell against the slots (the file's, or each chart id's ruleset's)."""
    from ..charts import ChartBook, ChartSet, load_slots, ruleset_chart_slots

    if slots_file:
        slots = load_slots(slots_file)
    else:
        slots = ChartSet()
        charts = doc.get("charts", {})
        ids = [(f"charts.{sid}", sid) for sid in (charts if isinstance(charts, dict) else {})]   # the series', each game's
        games = doc.get("games", {})
        for g, t in (games.items() if isinstance(games, dict) else ()):
            charts = t.get("charts", {}) if isinstance(t, dict) else {}
            ids += [(f"games.{g}.charts.{sid}", sid) for sid in (charts if isinstance(charts, dict) else {})]
        for name in sorted({str(sid).split(".")[0] for _, sid in ids}):
            found = ruleset_chart_slots(name)
            if found is not None:
                slots = slots.merged(found)
        if not slots.slots:
            return [Problem(path, where, f"there is no chart {sid!r}: no ruleset offers it "
                            "(name a slot file with --slots)") for where, sid in ids]
    ChartBook(slots).parse(doc, path)
    return []


def _kind_of(doc: dict) -> str:
    if isinstance(doc.get("chart"), list):
        return "chart slots"
    book = isinstance(doc.get("charts"), dict) or (isinstance(doc.get("games"), dict) and "format" in doc)
    if book and not any(isinstance(doc.get(k), dict) for k in ("map", "scenario")):
        return "chart book"                 # [charts."<id>"], or only a game's own [games.<game>.charts."<id>"]
    for kind in ("map", "scenario", "table"):
        if isinstance(doc.get(kind), dict):
            return kind
    if "actions" in doc or ("seed" in doc and "ruleset" in doc):
        return "save"
    return ""


def _check_with(path: str, kind: str, module: str, loader: str) -> list[Problem]:
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as e:
        if e.name != module:
            raise
        return [Problem(path, "", f"this is a {kind} file, but this build cannot read {kind}s")]
    getattr(mod, loader)(path)
    return []


def run(args) -> int:
    bad = 0
    for path in args.files:
        kind, problems, warnings = check_file_fully(path, getattr(args, "slots", None))
        if problems:
            bad += 1
        if args.json:
            for p in problems:
                print(json.dumps({**p.to_dict(), "ok": False}))
            for p in warnings:
                print(json.dumps({**p.to_dict(), "ok": True, "warning": True}))
            if not problems:
                print(json.dumps({"file": path, "ok": True, "kind": kind}))
        else:
            for p in problems:
                print(p)
            for p in warnings:
                print(f"{p.file}: warning: {p.key}: {p.message}")
            if not problems:
                print(f"{path}: ok ({kind})" + (f", {len(warnings)} warning(s)" if warnings else ""))
    return 1 if bad else 0
