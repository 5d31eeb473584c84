"""The scenario editor's Balance page: ``python -m engine balance FILE --json`` in a separate process, its
progress as it plays, and the report (each side's win rate with its 95 % interval) beside the previous one, so
a designer sees what a change to the set-up did."""
from __future__ import annotations

import json
import os

from PySide6.QtCore import QElapsedTimer, QObject, QProcess, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import (
    QComboBox, QFormLayout, QHBoxLayout, QLabel, QProgressBar, QPushButton, QSpinBox, QTreeWidget, QTreeWidgetItem,
    QVBoxLayout, QWidget,
)

from engine import content
from engine.computer import players_for

from .playrun import command_report, engine_command

ROOT = content.root()
PAIRINGS = (("strong", "strong", "the strong player on both sides"),
            ("strong", "baseline", "the strong player against the baseline (sides swapped every other game)"),
            ("baseline", "baseline", "the baseline player on both sides"))


def owner_charts(scenario_path: str):
    """The owner's chart book for the scenario's rules (``charts/<ruleset>.toml`` in the data folder), if they
    keep one: the games of a balance run read the printed values from it as a game in the window does."""
    from engine.charts import book_file
    from engine.errors import SandtableError
    from engine.fileio import read_toml

    from gui.charts.shelf import charts_folder

    try:
        head = read_toml(scenario_path).get("scenario")
    except (SandtableError, OSError, ValueError):
        return None
    name = head.get("ruleset") if isinstance(head, dict) else None
    if not isinstance(name, str) or not name.isidentifier():
        return None
    path = book_file(charts_folder(), name)
    return path if path.is_file() else None


class BalanceRun(QObject):
    """One balance run: ``progress(done, games)`` while it plays, then ``finished(summary)`` or ``failed(text)``."""

    progress = Signal(int, int)
    finished = Signal(dict)
    failed = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.process: QProcess | None = None
        self._err = b""
        self._rest = b""                # standard error that is not progress: said if the run fails
        self.stopped = False

    def start(self, scenario_path: str, players: tuple[str, str], games: int, seed: int, jobs: int = 0) -> None:
        self._err, self._rest, self.stopped = b"", b"", False
        p = QProcess(self)
        p.setWorkingDirectory(str(ROOT))
        program, *engine = engine_command()
        p.setProgram(program)
        charts = owner_charts(scenario_path)
        p.setArguments([*engine, "balance", str(scenario_path), "--bots", ",".join(players), "--games", str(games),
                        "--seed", str(seed), "--jobs", str(jobs or min(os.cpu_count() or 1, games)), "--json"]
                       + (["--charts", str(charts)] if charts is not None else []))
        p.readyReadStandardError.connect(self._progress)
        p.finished.connect(self._done)
        self.process = p
        p.start()

    def running(self) -> bool:
        return self.process is not None and self.process.state() != QProcess.NotRunning

    def stop(self) -> None:
        """Stop the games (the workers end with their parent); nothing is reported."""
        if self.running():
            self.stopped = True
            self.process.terminate()
            if not self.process.waitForFinished(3000):
                self.process.kill()
                self.process.waitForFinished(3000)

    def _progress(self) -> None:
        self._err += bytes(self.process.readAllStandardError())
        *lines, self._err = self._err.split(b"\n")
        for line in lines:
            try:
                doc = json.loads(line)
                self.progress.emit(int(doc["done"]), int(doc["games"]))
            except (ValueError, KeyError, TypeError):
                self._rest += line + b"\n"

    def _done(self, code: int, _status) -> None:
        if self.stopped:
            return
        self._progress()
        out = bytes(self.process.readAllStandardOutput()).decode("utf-8", "replace").strip()
        rest = (self._rest + self._err).decode("utf-8", "replace").strip()
        doc, error = command_report(code, out, rest, "sides", "balance")
        if doc is not None:
            self.finished.emit(doc)
        else:
            self.failed.emit(error)


class ShareBars(QWidget):
    """Each check's shares of wins as a bar in the sides' colours (draws grey): this check above the previous."""

    DRAW = "#b4b4b4"

    def __init__(self):
        super().__init__()
        self.rows: list[tuple[str, list[tuple[str, float, str]]]] = []      # (label, [(name, share, colour)])
        self.setMinimumHeight(64)

    def show_rows(self, rows) -> None:
        self.rows = list(rows)
        self.update()

    def paintEvent(self, _event):
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        label_w = 110
        h = 26
        for i, (label, parts) in enumerate(self.rows):
            y = 4 + i * (h + 6)
            p.setPen(self.palette().windowText().color())
            p.drawText(QRectF(0, y, label_w - 6, h), Qt.AlignRight | Qt.AlignVCenter, label)
            x, width = float(label_w), max(1.0, self.width() - label_w - 4.0)
            for name, share, colour in parts:
                w = width * share
                if w <= 0:
                    continue
                c = QColor(colour)
                p.fillRect(QRectF(x, y, w, h), c)
                p.setPen(Qt.black if c.lightness() > 128 else Qt.white)
                text = f"{name} {100 * share:.0f} %"
                if p.fontMetrics().horizontalAdvance(text) < w - 4:
                    p.drawText(QRectF(x, y, w, h), Qt.AlignCenter, text)
                x += w
        p.end()


class BalancePage(QWidget):
    """Check balance: the players, the number of games, a progress bar, Stop, and the report with the previous
    one beside it."""

    def __init__(self, editor):
        super().__init__()
        self.editor = editor
        self.run = BalanceRun(self)
        self.run.progress.connect(self._progress)
        self.run.finished.connect(self.show_summary)
        self.run.failed.connect(self._failed)
        self.summary: dict | None = None
        self.previous: dict | None = None
        self._asked: tuple = ()
        col = QVBoxLayout(self)
        intro = QLabel("The computer plays this scenario against itself many times, from the seed on the "
                       "\"Check and play\" page; each side's share of the wins, with its 95 % interval, says "
                       "whether the set-up is balanced. Change the set-up and check again to see the effect.")
        intro.setWordWrap(True)
        col.addWidget(intro)
        form = QFormLayout()
        self.players = QComboBox()
        self.games = QSpinBox(minimum=2, maximum=1000, value=20)
        self.games.setToolTip("More games narrow the interval; a strong-against-strong game of a campaign "
                              "takes several seconds")
        form.addRow("players", self.players)
        form.addRow("games", self.games)
        col.addLayout(form)
        row = QHBoxLayout()
        self.check_btn = QPushButton("Check balance", clicked=lambda: self.check())
        self.stop_btn = QPushButton("Stop", clicked=self.stop)
        self.stop_btn.setEnabled(False)
        row.addWidget(self.check_btn)
        row.addWidget(self.stop_btn)
        col.addLayout(row)
        self.bar = QProgressBar()
        self.bar.setFormat("%v of %m games")
        self.bar.setValue(0)
        col.addWidget(self.bar)
        self.games.valueChanged.connect(lambda n: None if self.run.running() else self.bar.setMaximum(n))
        self.bar.setMaximum(self.games.value())
        self.clock = QElapsedTimer()
        self.headline = QLabel("Not checked yet")
        self.headline.setWordWrap(True)
        col.addWidget(self.headline)
        self.bars = ShareBars()
        col.addWidget(self.bars)
        self.table = QTreeWidget()
        self.table.setHeaderLabels(["", "wins", "share", "95 % interval", "previous check"])
        self.table.setRootIsDecorated(False)
        self.table.setSortingEnabled(False)
        self.table.setMaximumHeight(self.table.fontMetrics().height() * 9)
        col.addWidget(self.table)
        self.detail = QLabel("")
        self.detail.setWordWrap(True)
        self.detail.setAlignment(Qt.AlignTop | Qt.AlignLeft)
        col.addWidget(self.detail)
        col.addStretch(1)
        self.refresh()

    # ------------------------------------------------------------ the players offered
    def refresh(self) -> None:
        """The pairings the scenario's ruleset has players for (the strong player where it knows the rules)."""
        s = self.editor.scenario
        ruleset = getattr(s, "ruleset", "") if s is not None else ""
        keep = self.players.currentData()
        self.players.clear()
        known = players_for(ruleset) if ruleset else []
        for a, b, text in PAIRINGS:
            if a in known and b in known:
                self.players.addItem(text, (a, b))
        self.choose(keep)

    def choose(self, pairing) -> bool:
        """Select the pairing (player, player) if offered (compared by value: Qt's findData matches a Python tuple
        only when it is the very same object)."""
        for i in range(self.players.count()):
            if self.players.itemData(i) == pairing:
                self.players.setCurrentIndex(i)
                return True
        return False

    # ------------------------------------------------------------ running
    def check(self, games: int | None = None) -> bool:
        """Save the scenario (after the editor's check) and start the games in the background."""
        ed = self.editor
        if ed.scenario is None:
            ed.say("Open a scenario or start a new one on a map first")
            return False
        if self.run.running():
            ed.say("the balance check is still running: stop it first")
            return False
        if ed.scenario.ruleset == "free":
            ed.say("a scenario without rules has no winner for the computer to play for: choose a ruleset "
                   "on the Scenario page first")
            return False
        self.refresh()
        if self.players.count() == 0:
            ed.say(f"the computer has no player for the {ed.scenario.ruleset} rules that plays to win (only the "
                   "random one): a balance check needs the baseline or the strong player")
            return False
        if not ed.ready_to_run("checking the balance"):
            return False
        if games is not None:
            self.games.setValue(games)
        players = self.players.currentData()
        n = self.games.value()
        self._asked = (players, n, ed.seed.value())
        self.bar.setMaximum(n)
        self.bar.setValue(0)
        self.clock.start()
        self.headline.setText(f"Playing {n} games…")
        self._last_shown(False)
        self.check_btn.setEnabled(False)
        self.stop_btn.setEnabled(True)
        self.run.start(str(ed.path), players, n, ed.seed.value())
        return True

    def stop(self) -> None:
        if self.run.running():
            self.run.stop()
            self.headline.setText(f"Stopped after {self.bar.value()} of {self.bar.maximum()} games; nothing "
                                  "reported")
        self._idle()

    def _idle(self) -> None:
        self.check_btn.setEnabled(True)
        self.stop_btn.setEnabled(False)
        self._last_shown(True)

    def _last_shown(self, current: bool) -> None:
        """The last report stays in view, greyed while a new check plays."""
        for w in (self.bars, self.table, self.detail):
            w.setEnabled(current)

    def _progress(self, done: int, games: int) -> None:
        self.bar.setMaximum(games)
        self.bar.setValue(done)
        spent = self.clock.elapsed() / 1000 if self.clock.isValid() else 0.0
        left = spent / done * (games - done) if done else 0.0
        self.headline.setText(f"Playing {games} games: {done} played in {_duration(spent)}"
                              + (f", about {_duration(left)} to go" if done < games else ""))

    def _failed(self, text: str) -> None:
        self._idle()
        self.headline.setText("The check could not be run")
        self.editor.say(f"the balance check failed: {text}", "Check balance")

    # ------------------------------------------------------------ the report
    def show_summary(self, s: dict) -> None:
        """Show a balance report (the command's JSON summary), the last one beside it."""
        self._idle()
        if self.summary is not None:
            self.previous = self.summary
        self.summary = s
        self.bar.setValue(self.bar.maximum())
        a, _, b = s["pairing"].partition("-")
        who = f"{a} against {b}" if a != b else f"{a} on both sides"
        took = f", played in {_duration(self.clock.elapsed() / 1000)}" if self.clock.isValid() else ""
        self.headline.setText(f"{s['games']} games, {who}: {s['mean_turns']} turns a game on average{took}.")
        self.table.clear()
        prev = (self.previous or {}).get("sides", {})
        order = [k for k in s["sides"] if k != "draw"] + ["draw"]
        for side in order:
            row = s["sides"][side]
            lo, hi = row["ci95"]
            name = "draws" if side == "draw" else f"{side} wins"
            was = prev.get(side)
            before = f"{100 * was['rate']:.0f} %" if was else ""
            QTreeWidgetItem(self.table, [name, str(row["wins"]), f"{100 * row['rate']:.0f} %",
                                         f"{100 * lo:.0f}–{100 * hi:.0f} %", before])
        if a != b:
            for p, row in s["players"].items():
                if "wins" not in row:
                    continue
                lo, hi = row["ci95"]
                QTreeWidgetItem(self.table, [f"{p} player", str(row["wins"]), f"{100 * row['rate']:.0f} %",
                                             f"{100 * lo:.0f}–{100 * hi:.0f} %", ""])
        for i in range(self.table.columnCount()):
            self.table.resizeColumnToContents(i)
        bars = [("this check", self._parts(s, order))]
        if self.previous is not None:
            bars.append(("previous check", self._parts(self.previous, order)))
        self.bars.show_rows(bars)
        margin = ", ".join(f"{k}: {v}" for k, v in s["margin"].items())
        what = "Winners" if s["margin_is"] == "the verdict" else s["margin_is"][0].upper() + s["margin_is"][1:]
        lines = [self.verdict(s), f"{what}: {margin}."]
        levels = s.get("levels", {})
        if any(k != "draw" and not k.endswith(" victory") for k in levels):     # levels beyond the winner
            lines.append("Victory levels: " + ", ".join(f"{k} {v}" for k, v in levels.items()) + ".")
        ph = s.get("strong_phase_seconds")
        if ph:
            lines.append(f"The strong player thought {ph['median']} s a phase (median), at most {ph['max']} s.")
        self.detail.setText("\n".join(lines))

    def _parts(self, s: dict, order: list[str]) -> list[tuple[str, float, str]]:
        colours = {x.id: x.colour for x in (self.editor.scenario.sides.values() if self.editor.scenario else ())}
        games = max(1, s["games"])
        return [("draws" if k == "draw" else k, s["sides"].get(k, {}).get("wins", 0) / games,
                 ShareBars.DRAW if k == "draw" else colours.get(k, "#808080")) for k in order]

    @staticmethod
    def verdict(s: dict) -> str:
        """What the figures say: a side whose 95 % interval lies wholly above one half, or wholly above the
        other side's, is favoured; otherwise no side is shown to be."""
        sides = [k for k in s["sides"] if k != "draw"]
        rows = {x: s["sides"][x]["ci95"] for x in sides}
        for side in sides:
            lo = rows[side][0]
            others = [rows[x][1] for x in sides if x != side]
            if lo > 0.5:
                return f"The scenario favours the {side} side with these players (its interval lies above 50 %)."
            if others and lo > max(others):
                return f"The {side} side wins more often with these players (the intervals do not overlap)."
        wide = max((hi - lo for lo, hi in rows.values()), default=0)
        more = " More games would narrow the intervals." if wide > 0.25 else ""
        return f"No side is shown to be favoured with these players.{more}"


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    return f"{seconds / 60:.1f} min"
