"""File > Import VASSAL module…: the module's maps, counters and set-ups imported with progress,
then its first scenario opened in the play window.

The files go to ``<user data>/imports/<module name>/`` (``maps/``, ``counters/``,
``scenarios/``, ``import-report.txt``); importing the same module again updates that folder,
unless files in it were added or changed by the user since: then the import goes to a new
folder beside it (``<module name>-2``, ...), and nothing of the user's is touched.  A broken
module is reported in words.
"""
from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox, QProgressDialog

from engine.errors import BadFile, Problem, SandtableError

from gui.common.userfolders import data_root


def imports_folder(module: Path) -> Path:
    """Where a module's import is written: one folder per module file, named after it."""
    name = re.sub(r"[^A-Za-z0-9._-]+", "-", module.stem).strip("-") or "module"
    return data_root() / "imports" / name


def run_import(window, module: Path, outdir: Path | None = None):
    """Import with a progress dialog; the ImportResult, or None after telling the user why not."""
    from engine.importers.vassal.importer import import_module
    from engine.importers.vassal.outdir import FolderTaken

    dialog = QProgressDialog(f"Importing {module.name}…", "", 0, 100, window)
    dialog.setWindowTitle("Import VASSAL module")
    dialog.setCancelButton(None)
    dialog.setWindowModality(Qt.WindowModal)
    dialog.setMinimumDuration(0)
    dialog.setValue(0)

    def progress(fraction: float, text: str) -> None:
        dialog.setLabelText(f"{module.name}: {text}")
        dialog.setValue(int(fraction * 100))
        QApplication.processEvents()

    chosen = outdir is None
    outdir = outdir or imports_folder(module)
    try:
        for n in range(2, 100):
            try:
                return import_module(module, outdir, progress=progress)
            except FolderTaken:
                if not chosen:
                    raise
                outdir = imports_folder(module).with_name(f"{imports_folder(module).name}-{n}")
        raise FolderTaken([Problem(str(outdir.parent), "", "holds 99 imports of this module already")])
    except BadFile as e:
        window.last_error = str(e)
        QMessageBox.warning(window, "Import VASSAL module",
                            f"{module.name} could not be imported:\n\n" + "\n".join(str(p) for p in e.problems[:12]))
    except (SandtableError, OSError) as e:
        window.last_error = str(e)
        QMessageBox.warning(window, "Import VASSAL module", f"{module.name} could not be imported:\n\n{e}")
    finally:
        dialog.close()
    return None


def import_vassal(window, module: Path | None = None) -> bool:
    """Ask for a module (unless given), import it and open its first scenario (or its map)."""
    if module is None:
        path, _ = QFileDialog.getOpenFileName(window, "Import a VASSAL module", str(Path.home()),
                                              "VASSAL modules (*.vmod);;All files (*)")
        if not path:
            return False
        module = Path(path)
    result = run_import(window, Path(module))
    if result is None:
        return False
    first = (result.scenarios or result.maps or [None])[0]
    missing = sum(1 for line in result.lines if line.startswith("- ") and line != "- nothing")
    note = (f"Imported {module.name}: {len(result.maps)} map(s), {len(result.scenarios)} scenario(s), "
            f"{result.counters} counters; {missing} item(s) not imported, listed in {result.report}")
    if first is None:
        QMessageBox.information(window, "Import VASSAL module", note + "\n\nThe module has no hex-gridded map to open.")
        return False
    opened = window.open_file(first)
    window.statusBar().showMessage(note, 30000)
    return opened
