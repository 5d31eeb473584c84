"""Playing a scenario headless from the editor: ``python -m engine play FILE --json`` in a separate process."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from PySide6.QtCore import QObject, QProcess, Signal

from engine import content

ROOT = content.root()


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
        p.setProgram(sys.executable)
        # a desktop bundle's executable is the program itself, which runs the engine's command line as ``engine``
        engine = ["engine"] if getattr(sys, "frozen", False) else ["-m", "engine"]
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
        try:
            doc = json.loads(out.splitlines()[-1]) if out else {}
        except json.JSONDecodeError:
            doc = {}
        if code == 0 and "winner" in doc:
            self.report = doc
            self.finished.emit(doc)
            return
        lines = []
        for line in out.splitlines():
            try:
                p = json.loads(line)
            except json.JSONDecodeError:
                lines.append(line)
                continue
            lines.append(": ".join(str(p[k]) for k in ("key", "message", "error") if p.get(k)))
        self.error = "\n".join(x for x in lines if x) or err or f"the play command ended with code {code}"
        self.failed.emit(self.error)
