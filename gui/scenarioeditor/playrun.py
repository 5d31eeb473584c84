"""Playing a scenario headless from the editor: ``python -m engine play FILE --json`` in a separate process."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from PySide6.QtCore import QObject, QProcess, Signal

from engine import content

ROOT = content.root()


def engine_command() -> list[str]:
    """The program and first arguments that run the engine's command line: a desktop bundle's executable is the
    program itself, which runs it as ``engine``."""
    return [sys.executable, "engine"] if getattr(sys, "frozen", False) else [sys.executable, "-m", "engine"]


def command_report(code: int, out: str, err: str, key: str, what: str) -> tuple[dict | None, str]:
    """An engine command's JSON report (its last line of standard output, holding ``key``) when it succeeded, else
    None and what went wrong in words: its problems (file, key, message) or error, else its standard error."""
    try:
        doc = json.loads(out.splitlines()[-1]) if out else {}
    except json.JSONDecodeError:
        doc = {}
    if code == 0 and isinstance(doc, dict) and key in doc:
        return doc, ""
    lines = []
    for line in out.splitlines():
        try:
            p = json.loads(line)
        except json.JSONDecodeError:
            lines.append(line)
            continue
        if isinstance(p, dict):
            lines.append(": ".join(str(p[k]) for k in ("file", "key", "message", "error") if p.get(k)))
    return None, "\n".join(x for x in lines if x) or err or f"the {what} command ended with code {code}"


class PlayRun(QObject):
    """One headless game with the baseline bot for every side; ``finished(report)`` carries the JSON report."""

    finished = Signal(dict)
    failed = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.process: QProcess | None = None
        self.report: dict | None = None
        self.error = ""

    def start(self, scenario_path: str, sides: list[str], seed: int = 1) -> None:
        self.report, self.error = None, ""
        p = QProcess(self)
        p.setWorkingDirectory(str(ROOT))
        program, *engine = engine_command()
        p.setProgram(program)
        p.setArguments([*engine, "play", str(scenario_path), "--seed", str(seed), "--bot", ",".join(sides),
                        "--json"])
        p.finished.connect(self._done)
        self.process = p
        p.start()

    def running(self) -> bool:
        return self.process is not None and self.process.state() != QProcess.NotRunning

    def _done(self, code: int, _status) -> None:
        out = bytes(self.process.readAllStandardOutput()).decode("utf-8", "replace").strip()
        err = bytes(self.process.readAllStandardError()).decode("utf-8", "replace").strip()
        doc, self.error = command_report(code, out, err, "winner", "play")
        if doc is not None:
            self.report = doc
            self.finished.emit(doc)
            return
        self.failed.emit(self.error)
