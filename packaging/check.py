"""Smoke checks of an installed Sandtable: a wheel in a fresh virtual environment, or the desktop bundle.

    python packaging/check.py wheel  DIST_DIR          build nothing; install DIST_DIR's wheel in a fresh venv
    python packaging/check.py bundle BUNDLE_DIR        check the bundled executable (not the venv's)

Each check runs the program offscreen, outside the checkout, with an empty home, so that nothing of the source
tree or of the user's folders can stand in for what the package carries:
``--version``; ``--screenshot`` of the default scenario, of ``maps/demo.toml`` in the map editor and of the
skirmish scenario, each a picture of some size with many colours, and the program's own count of hexes and
counters; one headless game through the engine's command line.  Exit 0 when all pass.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

MIN_COLOURS = 500          # a map and its counters: thousands; an empty or error window: a few dozen


def colours(png: Path) -> tuple[int, int, int]:
    from PIL import Image

    with Image.open(png) as im:
        im = im.convert("RGB")
        return im.width, im.height, len(im.getcolors(maxcolors=1 << 24) or [])


class Checker:
    def __init__(self, program: list[str], env: dict, work: Path):
        self.program, self.env, self.work = program, env, work
        self.failed: list[str] = []

    def run(self, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
        t = time.perf_counter()
        p = subprocess.run([*self.program, *args], cwd=self.work, env=self.env, capture_output=True, text=True,
                           timeout=timeout)
        print(f"  {' '.join(args)[:70]:70s} exit {p.returncode} in {time.perf_counter() - t:.1f} s")
        return p

    def expect(self, ok: bool, what: str, detail: str = "") -> None:
        print(f"    {'ok  ' if ok else 'FAIL'} {what}" + (f": {detail}" if detail and not ok else ""))
        if not ok:
            self.failed.append(what)

    def picture(self, name: str, args: list[str], said: str) -> None:
        out = self.work / f"{name}.png"
        p = self.run(*args, "--screenshot", str(out))
        detail = (p.stdout + p.stderr)[-600:]
        self.expect(p.returncode == 0 and out.is_file(), f"{name}: a screenshot is written", detail)
        if out.is_file():
            w, h, n = colours(out)
            self.expect(w >= 800 and h >= 600 and n >= MIN_COLOURS, f"{name}: {w}x{h} px with {n} colours")
        m = re.search(said, p.stdout)
        self.expect(m is not None, f"{name}: the program says {said!r}", p.stdout[-300:])
        if m and m.groups():
            self.expect(all(int(g) > 0 for g in m.groups()), f"{name}: {m.group(0)}")

    def all(self, content: Path) -> int:
        p = self.run("--version")
        self.expect(p.returncode == 0 and re.match(r"sandtable \d+\.\d+", p.stdout) is not None,
                    f"--version says {p.stdout.strip()!r}", p.stderr[-300:])
        # libvips, a declared dependency, is carried and loads (else map scans are cut by Pillow, slowly)
        self.expect("map tiles by libvips" in p.stdout, "the map scans are cut into tiles by libvips",
                    p.stdout.strip())
        self.picture("default-scenario", [], r"demyansk-1-trapped\.toml: (\d+) hexes, (\d+) counters")
        self.picture("map-editor", ["--map-editor", str(content / "maps" / "demo.toml")],
                     r"demo\.toml: (\d+) hexes in the map editor")
        self.picture("skirmish", [str(content / "scenarios" / "scw-platoon-attack.toml")],
                     r"scw-platoon-attack\.toml: (\d+) teams, (\d+) cards on the table")
        p = self.run("engine", "play", str(content / "scenarios" / "scw-platoon-attack.toml"), "--seed", "3",
                     "--bot", "random", "--json")
        try:
            report = json.loads(p.stdout.strip().splitlines()[-1])
        except (ValueError, IndexError):
            report = {}
        self.expect(p.returncode == 0 and bool(report), "a headless game through the engine's command line",
                    (p.stdout + p.stderr)[-400:])
        # the scenario editor's Check balance: games shared among worker processes of the bundled program
        p = self.run("engine", "balance", str(content / "scenarios" / "classic-river-crossing.toml"), "--games", "4",
                     "--bots", "baseline,baseline", "--jobs", "2", "--json")
        try:
            summary = json.loads(p.stdout.strip().splitlines()[-1])
        except (ValueError, IndexError):
            summary = {}
        self.expect(p.returncode == 0 and summary.get("games") == 4,
                    "a balance run in two worker processes through the engine's command line",
                    (p.stdout + p.stderr)[-400:])
        # a VASSAL module with an SVG counter: the SVG renderer (resvg, a declared dependency) is carried and draws
        mod = self.work / "svg.vmod"
        with zipfile.ZipFile(mod, "w") as z:
            z.writestr("buildFile.xml", SVG_MODULE)
            z.writestr("images/u.svg", '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40">'
                                       '<rect width="40" height="40" fill="#2850c8"/></svg>')
        p = self.run("engine", "import", "vassal", str(mod), str(self.work / "svg-import"), "--json")
        try:
            result = json.loads(p.stdout.strip().splitlines()[-1])
        except (ValueError, IndexError):
            result = {}
        face = self.work / "svg-import" / "counters" / "unit-front.png"
        self.expect(p.returncode == 0 and result.get("svg_drawn") == 1 and face.is_file()
                    and colours(face)[2] == 1, "a VASSAL module's SVG counter drawn through the engine's command line",
                    (p.stdout + p.stderr)[-400:])
        print(f"{len(self.failed)} check(s) failed" if self.failed else "all checks passed")
        return 1 if self.failed else 0


SVG_MODULE = (
    '<VASSAL.build.GameModule name="SVG" version="1"><VASSAL.build.module.PieceWindow name="P">'
    '<VASSAL.build.widget.ListWidget entryName="U"><VASSAL.build.widget.PieceSlot entryName="Unit" gpid="1">'
    '+/null/piece;;;u.svg;Unit/null;0;0;1;0</VASSAL.build.widget.PieceSlot></VASSAL.build.widget.ListWidget>'
    '</VASSAL.build.module.PieceWindow><VASSAL.build.module.Map mapName="M"><VASSAL.build.module.map.BoardPicker>'
    '<VASSAL.build.module.map.boardPicker.Board name="B" width="400" height="300" reversible="false">'
    '<VASSAL.build.module.map.boardPicker.board.HexGrid dx="55" dy="64" x0="30" y0="32"/>'
    '</VASSAL.build.module.map.boardPicker.Board></VASSAL.build.module.map.BoardPicker></VASSAL.build.module.Map>'
    '</VASSAL.build.GameModule>')


def clean_env(home: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "LANG", "LC_ALL", "TMPDIR")}
    env.update(HOME=str(home), XDG_DATA_HOME=str(home / "data"), XDG_CONFIG_HOME=str(home / "config"),
               XDG_CACHE_HOME=str(home / "cache"), QT_QPA_PLATFORM="offscreen")
    return env


def check_wheel(dist: Path) -> int:
    dist = dist.resolve()
    wheels = sorted(dist.glob("sandtable-*.whl"))
    if not wheels:
        print(f"no sandtable wheel in {dist}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="sandtable wheel ") as tmp:
        tmp = Path(tmp)
        venv = tmp / "venv"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        py = venv / "bin" / "python"
        t = time.perf_counter()
        subprocess.run([str(py), "-m", "pip", "install", "--quiet", str(wheels[-1])], check=True)
        print(f"installed {wheels[-1].name} in a fresh venv in {time.perf_counter() - t:.0f} s")
        found = subprocess.run([str(py), "-c", "from engine import content; print(content.root())"],
                               capture_output=True, text=True, cwd=tmp, env=clean_env(tmp))
        content = Path(found.stdout.strip())
        work = tmp / "work"
        work.mkdir()
        c = Checker([str(venv / "bin" / "sandtable")], clean_env(tmp), work)
        c.expect("site-packages" in str(content) and (content / "scenarios").is_dir(),
                 f"the content is found inside the installed package ({content})")
        return c.all(content)


def check_bundle(bundle: Path) -> int:
    bundle = bundle.resolve()
    exe = bundle / ("sandtable.exe" if os.name == "nt" else "sandtable")
    if not exe.is_file():
        print(f"no bundled executable {exe}", file=sys.stderr)
        return 2
    content = bundle / "_internal" / "engine" / "_content"
    with tempfile.TemporaryDirectory(prefix="sandtable bundle ") as tmp:
        tmp = Path(tmp)
        work = tmp / "work"
        work.mkdir()
        env = clean_env(tmp)
        env["PATH"] = "/usr/bin:/bin"                     # no venv, no Python of the project's on the way
        c = Checker([str(exe)], env, work)
        c.expect(content.is_dir(), f"the bundle carries its content ({content})")
        return c.all(content)


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in ("wheel", "bundle"):
        print(__doc__, file=sys.stderr)
        return 2
    return check_wheel(Path(argv[1])) if argv[0] == "wheel" else check_bundle(Path(argv[1]))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
