"""Check, before Qt starts, that the system libraries it needs are present.

Qt's own failure is a plugin traceback that names none of them; this names
the Debian/Ubuntu package to install instead.  ``python -m gui.qtcheck``
exits 1 and prints the ``apt-get install`` line when something is missing.
"""
from __future__ import annotations

import ctypes.util
import glob
import sys

# library soname stem -> Debian package that provides it
LIBRARIES = {
    "EGL": "libegl1",
    "GL": "libgl1",
    "xkbcommon": "libxkbcommon0",
    "fontconfig": "libfontconfig1",
    "glib-2.0": "libglib2.0-0",
    "dbus-1": "libdbus-1-3",
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
    return missing


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
