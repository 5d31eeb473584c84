"""Check, before Qt starts, that the system libraries it needs are present.

Qt's own failure is a plugin traceback that names none of them; this names
the Debian/Ubuntu package to install instead.  ``python -m gui.common.qtcheck``
exits 1 and prints the ``apt-get install`` line when something is missing.
"""
from __future__ import annotations

import ctypes.util
import glob
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

# library soname stem -> Debian package that provides it
LIBRARIES = {
    "EGL": "libegl1",
    "GL": "libgl1",
    "xkbcommon": "libxkbcommon0",
    "fontconfig": "libfontconfig1",
    "glib-2.0": "libglib2.0-0",
    "dbus-1": "libdbus-1-3",
}
# what the X11 ("xcb") platform plugin loads, by soname stem -> Debian package
XCB_PACKAGES = {
    "xcb-cursor": "libxcb-cursor0",
    "xcb-icccm": "libxcb-icccm4",
    "xcb-keysyms": "libxcb-keysyms1",
    "xcb-image": "libxcb-image0",
    "xcb-render-util": "libxcb-render-util0",
    "xcb-randr": "libxcb-randr0",
    "xcb-shape": "libxcb-shape0",
    "xcb-xkb": "libxcb-xkb1",
    "xcb-xfixes": "libxcb-xfixes0",
    "xcb-sync": "libxcb-sync1",
    "xcb-shm": "libxcb-shm0",
    "xcb-render": "libxcb-render0",
    "xcb-xinput": "libxcb-xinput0",
    "xkbcommon-x11": "libxkbcommon-x11-0",
    "X11-xcb": "libx11-xcb1",
    "SM": "libsm6",
    "ICE": "libice6",
}
FONT_PACKAGE = "fonts-dejavu-core"
FONT_GLOBS = ("/usr/share/fonts/**/*.ttf", "/usr/share/fonts/**/*.otf", "/usr/local/share/fonts/**/*.ttf")


def missing_packages() -> list[str]:
    """Debian packages whose libraries (or any font) are missing on this Linux machine."""
    if not sys.platform.startswith("linux"):
        return []
    missing = [pkg for lib, pkg in LIBRARIES.items() if ctypes.util.find_library(lib) is None]
    if not any(glob.glob(g, recursive=True) for g in FONT_GLOBS):
        missing.append(FONT_PACKAGE)
    if _uses_xcb():
        missing += [p for p in missing_xcb_packages() if p not in missing]
    return missing


def _uses_xcb() -> bool:
    platform = os.environ.get("QT_QPA_PLATFORM", "")
    if platform:
        return platform.startswith("xcb")
    return bool(os.environ.get("DISPLAY")) and not os.environ.get("WAYLAND_DISPLAY")


def _qt_dir() -> Path | None:
    try:
        import importlib.util

        spec = importlib.util.find_spec("PySide6")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin:
        return None
    return Path(spec.origin).parent / "Qt"


def _package_of(soname: str) -> str:
    stem = re.sub(r"^lib", "", soname.split(".so")[0])
    return XCB_PACKAGES.get(stem, LIBRARIES.get(stem, soname))


def missing_xcb_packages() -> list[str]:
    """Packages the X11 platform plugin needs and the machine lacks (read with ldd)."""
    out: list[str] = []
    # Qt 6.5+ loads libxcb-cursor at run time, so ldd does not list it.
    if ctypes.util.find_library("xcb-cursor") is None:
        out.append(XCB_PACKAGES["xcb-cursor"])
    qt = _qt_dir()
    ldd = shutil.which("ldd")
    if qt is None or ldd is None:
        return out
    libs = [qt / "plugins" / "platforms" / "libqxcb.so", *sorted((qt / "lib").glob("libQt6XcbQpa.so*"))[:1]]
    for lib in libs:
        if not lib.exists():
            continue
        try:
            text = subprocess.run([ldd, str(lib)], capture_output=True, text=True, timeout=20).stdout
        except (OSError, subprocess.SubprocessError):
            continue
        for line in text.splitlines():
            if "not found" in line:
                pkg = _package_of(line.split()[0])
                if pkg not in out:
                    out.append(pkg)
    return out


def main() -> int:
    missing = missing_packages()
    if not missing:
        return 0
    print("Sandtable cannot start Qt: these system packages are missing:", file=sys.stderr)
    for pkg in missing:
        print(f"  - {pkg}", file=sys.stderr)
    print(f"Install them with:  sudo apt-get install {' '.join(missing)}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
