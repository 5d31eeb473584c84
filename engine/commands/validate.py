"""``python -m engine validate FILE...``: check map, scenario and chart files, one line per problem."""
from __future__ import annotations

import importlib
import json

from ..errors import BadFile, Problem, SandtableError
from ..fileio import read_toml


def register(subparsers) -> None:
    p = subparsers.add_parser("validate", help="check map, scenario and chart files",
                              description="Check map files (with a [map] table), scenario files "
                                          "(with a [scenario] table), chart slot files ([[chart]] tables) and "
                                          "owner's chart books ([charts.\"<chart id>\"] tables, checked against "
                                          "the slots of the ruleset each chart id begins with, or --slots). "
                                          "Exit 0 when all are valid.")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--slots", metavar="FILE", help="check chart books against this slot file")
    p.add_argument("--json", action="store_true", help="one JSON object per problem or valid file")
    p.set_defaults(func=run)


def check_file(path: str, slots_file: str | None = None) -> tuple[str, list[Problem]]:
    """What kind of file it is ("map", "scenario", "chart slots", "chart book" or "") and its problems (none if valid)."""
    try:
        doc = read_toml(path)
    except BadFile as e:
        return "", e.problems
    try:
        if isinstance(doc.get("chart"), list):
            from ..charts import parse_slots

            parse_slots(doc, path)
            return "chart slots", []
        if isinstance(doc.get("charts"), dict) and not any(isinstance(doc.get(k), dict) for k in ("map", "scenario")):
            return "chart book", _check_book(doc, path, slots_file)
        if isinstance(doc.get("map"), dict):
            from engine.maps.mapfile import load_map_doc

            load_map_doc(doc, path)
            return "map", []
        if isinstance(doc.get("scenario"), dict):
            from ..game import own_format_ruleset

            own = own_format_ruleset(path, "load_own_scenario")
            if own is not None:
                own(path)
                return "scenario", []
        for kind, module, loader in OTHER_KINDS:
            if isinstance(doc.get(kind), dict):
                return kind, _check_with(path, kind, module, loader)
    except BadFile as e:
        return _kind_of(doc), e.problems
    except SandtableError as e:
        return _kind_of(doc), [Problem(path, "", str(e))]
    return "", [Problem(path, "", "not a file this program knows: expected a map file (with a [map] table), "
                                  "a scenario file (with a [scenario] table), a gridless table "
                                  "(with a [table] table), a chart slot file ([[chart]] tables) or a chart book "
                                  "([charts.\"<chart id>\"] tables)")]


def _check_book(doc: dict, path: str, slots_file: str | None) -> list[Problem]:
    """An owner's chart book, checked cell by cell against the slots (the file's, or each chart id's ruleset's)."""
    from ..charts import ChartBook, ChartSet, load_slots, ruleset_chart_slots

    if slots_file:
        slots = load_slots(slots_file)
    else:
        slots = ChartSet()
        for name in sorted({str(sid).split(".")[0] for sid in doc["charts"]}):
            found = ruleset_chart_slots(name)
            if found is not None:
                slots = slots.merged(found)
        if not slots.slots:
            return [Problem(path, f"charts.{sid}", f"there is no chart {sid!r}: no ruleset offers it "
                            "(name a slot file with --slots)") for sid in doc["charts"]]
    ChartBook(slots).parse(doc, path)
    return []


# kind of file (its identifying table) -> the module and function that load it
OTHER_KINDS = (("scenario", "engine.scenario", "load_scenario"),
               ("table", "engine.maps.table", "load_table"))


def _kind_of(doc: dict) -> str:
    if isinstance(doc.get("chart"), list):
        return "chart slots"
    if isinstance(doc.get("charts"), dict):
        return "chart book"
    for kind in ("map",) + tuple(k for k, _, _ in OTHER_KINDS):
        if isinstance(doc.get(kind), dict):
            return kind
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
        kind, problems = check_file(path, args.slots)
        if problems:
            bad += 1
        if args.json:
            if problems:
                for p in problems:
                    print(json.dumps({**p.to_dict(), "ok": False}))
            else:
                print(json.dumps({"file": path, "ok": True, "kind": kind}))
        else:
            for p in problems:
                print(p)
            if not problems:
                print(f"{path}: ok ({kind})")
    return 1 if bad else 0
