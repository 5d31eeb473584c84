"""``python -m engine``: the headless command line.

Each sub-command lives in ``engine/commands/<name>.py`` with
``register(subparsers)`` adding its parser and setting ``func(args) -> int``.
"""
from __future__ import annotations

import argparse
import importlib
import json
import sys

from .errors import BadFile, SandtableError

COMMANDS = ("validate", "hex", "los", "viewshed", "moves", "play", "bench", "balance", "import", "detect-grid")
MODULES = {"import": "importfile", "detect-grid": "detectgrid"}     # a sub-command whose module name differs (``import`` is a Python keyword)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine", description="Sandtable's headless command line")
    sub = parser.add_subparsers(dest="command", required=True)
    for name in COMMANDS:
        modname = f"engine.commands.{MODULES.get(name, name)}"
        try:
            mod = importlib.import_module(modname)
        except ModuleNotFoundError as e:
            if e.name == modname:
                continue  # not built yet
            raise
        mod.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except BadFile as e:
        if getattr(args, "json", False):
            for p in e.problems:
                print(json.dumps(p.to_dict()))
        else:
            for p in e.problems:
                print(p, file=sys.stderr)
        return 1
    except SandtableError as e:
        if getattr(args, "json", False):
            print(json.dumps({"error": str(e)}))
        else:
            print(f"error: {e}", file=sys.stderr)
        return 1
    except OSError as e:        # a file the system would not read or write (commands check theirs first)
        where = e.filename if e.filename is not None else ""
        line = f"{where}: {e.strerror or e}" if where else f"error: {e.strerror or e}"
        if getattr(args, "json", False):
            print(json.dumps({"file": str(where), "key": "", "message": str(e.strerror or e)}))
        else:
            print(line, file=sys.stderr)
        return 1
