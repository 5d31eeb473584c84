"""The Linux archive: ``Sandtable-<version>-linux-x86_64.tar.gz`` holding the one-folder bundle, the desktop entry,
the icon and an installer of the menu entry; prints the bundle's size on disk and compressed.

    python packaging/archive.py BUNDLE_DIR OUT_DIR
"""
from __future__ import annotations

import os
import platform
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

INSTALL = """#!/bin/sh
# Adds Sandtable to the desktop's menu for this user (nothing is copied: the program stays in this folder).
set -e
here="$(cd "$(dirname "$0")" && pwd)"
apps="${XDG_DATA_HOME:-$HOME/.local/share}/applications"
icons="${XDG_DATA_HOME:-$HOME/.local/share}/icons/hicolor/256x256/apps"
mkdir -p "$apps" "$icons"
cp "$here/sandtable.png" "$icons/sandtable.png"
# the Exec line quotes the program's path: it may hold spaces
sed "s|^Exec=.*|Exec=\\"$here/Sandtable/sandtable\\" %f|" "$here/sandtable.desktop" > "$apps/sandtable.desktop"
echo "Sandtable is in the menu; or start it with: \\"$here/Sandtable/sandtable\\""
"""

README = """Sandtable {version} for Linux (x86_64)

Start the program:   ./Sandtable/sandtable   (or double-click it)
Add it to the menu:  ./install-menu-entry.sh
No Python is needed: everything the program uses is in the Sandtable folder.
Your games, maps and settings are kept in your own folders, never in this one.
"""


def size_on_disk(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    bundle, out = Path(argv[0]).resolve(), Path(argv[1]).resolve()
    sys.path.insert(0, str(ROOT))
    from engine import __version__

    name = f"Sandtable-{__version__}-linux-{platform.machine()}"
    out.mkdir(parents=True, exist_ok=True)
    target = out / f"{name}.tar.gz"
    tmp = target.with_suffix(".tmp")

    def add(tar, path: Path, arc: str, mode: int | None = None):
        info = tar.gettarinfo(str(path), arc)
        if mode is not None:
            info.mode = mode
        with open(path, "rb") as f:
            tar.addfile(info, f)

    with tarfile.open(tmp, "w:gz", compresslevel=6) as tar:
        tar.add(str(bundle), f"{name}/Sandtable")
        add(tar, ROOT / "assets" / "linux" / "sandtable.desktop", f"{name}/sandtable.desktop")
        add(tar, ROOT / "assets" / "icon" / "sandtable-256.png", f"{name}/sandtable.png")
        for text, arc, mode in ((INSTALL, "install-menu-entry.sh", 0o755),
                                (README.format(version=__version__), "README.txt", 0o644)):
            p = out / arc
            p.write_text(text)
            add(tar, p, f"{name}/{arc}", mode)
            p.unlink()
    os.replace(tmp, target)
    disk, packed = size_on_disk(bundle), target.stat().st_size
    print(f"bundle: {disk / 1e6:.0f} MB on disk; {target.name}: {packed / 1e6:.1f} MB compressed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
