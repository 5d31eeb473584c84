"""DESIGN invariant 1: engine/ never imports Qt, directly or through another module."""
import ast
import pkgutil
import subprocess
import sys
from pathlib import Path

import engine

QT = ("PySide6", "PyQt5", "PyQt6", "shiboken6", "qtpy")
ENGINE = Path(engine.__file__).parent


def engine_modules():
    return sorted(m.name for m in pkgutil.walk_packages([str(ENGINE)], prefix="engine.")
                  if not m.name.endswith("__main__"))


def test_no_engine_source_file_names_qt():
    offenders = []
    for path in ENGINE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] in QT]
    assert offenders == []


def test_importing_every_engine_module_loads_no_qt():
    mods = engine_modules()
    assert "engine.maps.hexes" in mods and "engine.maps.board" in mods
    code = (
        "import importlib, sys\n"
        f"for m in {mods!r}:\n"
        "    importlib.import_module(m)\n"
        f"bad = sorted(k for k in sys.modules if k.split('.')[0] in {QT!r})\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == ""
