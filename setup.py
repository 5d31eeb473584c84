"""The wheel carries the program's content: maps/, scenarios/, docs/, assets/ and the README are copied into the
package as ``engine/_content/`` when it is built (engine/content.py finds them there through importlib.resources).
Everything else about the package is in pyproject.toml."""
from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
FOLDERS = ("maps", "scenarios", "docs", "assets")
FILES = ("README.md",)
SKIP = shutil.ignore_patterns("*.tmp", "__pycache__", "*.pyc", "screenshots")


class BuildWithContent(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):       # an editable install reads the checkout itself
            return
        out = Path(self.build_lib) / "engine" / "_content"
        for name in FOLDERS:
            if (HERE / name).is_dir():
                shutil.copytree(HERE / name, out / name, ignore=SKIP, dirs_exist_ok=True)
        for name in FILES:
            shutil.copy2(HERE / name, out / name)


setup(cmdclass={"build_py": BuildWithContent})
