"""``python -m engine validate FILE...``: check map and scenario files, one line per problem."""
from __future__ import annotations

import importlib
import json

from ..errors import BadFile, Problem, SandtableError
from ..fileio import read_toml


def register(subparsers) -> None:
    p = subparsers.add_parser("validate", help="check map and scenario files",
                              description="Check map files (with a [map] table) and scenario files "
                                          "(with a [scenario] table). Exit 0 when all are valid.")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--json", action="store_true", help="one JSON object per problem or valid file")
    p.set_defaults(func=run)


def check_file(path: str) -> tuple[str, list[Problem]]:
    """What kind of file it is ("map", "scenario" or "") and its problems (none if valid)."""
    try:
        doc = read_toml(path)
    except BadFile as e:
        return "", e.problems
    try:
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
                                  "a scenario file (with a [scenario] table) or a gridless table "
                                  "(with a [table] table)")]


# kind of file (its identifying table) -> the module and function that load it
OTHER_KINDS = (("scenario", "engine.scenario", "load_scenario"),
               ("table", "engine.maps.table", "load_table"))


def _kind_of(doc: dict) -> str:
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
        kind, problems = check_file(path)
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
