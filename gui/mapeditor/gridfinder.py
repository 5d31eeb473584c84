"""Find the grid: look for the hex grid printed on a sheet's scan in the background, show it, and calibrate from it.

The search is ``engine.maps.gridfind.find_grid``; this module runs it off the GUI
thread, draws the proposal over the scan (its whole hexes, the first one
highlighted) and, once the person has typed that hex's id, hands the numbering
and the calibration points to ``MapEdit.use_found_grid`` as one undoable step.
"""
from __future__ import annotations

import threading
from pathlib import Path

from PySide6.QtCore import QObject, QPointF, Qt, Signal
from PySide6.QtGui import QColor, QPen, QPolygonF

from engine.errors import BadFile, BadHexId
from engine.maps.gridfind import GridProposal, find_grid, find_grid_from_clicks
from engine.maps.gridsheet import grid_clicks, sheet_numbering
from engine.maps.hexes import Hex, Layout


PRINTED_IDS_HINT = "If the scan prints its own hex ids, View > The scans print hex ids hides these."


class GridJob(QObject):
    """One search: ``done(proposal)`` on the GUI thread (found or not), or ``failed(message)`` for a bad image."""

    done = Signal(object)
    failed = Signal(str)
    _found = Signal(object)
    _broken = Signal(str)

    def __init__(self, image: Path, parent=None, clicks=None):
        super().__init__(parent)
        self.image = Path(image)
        self.clicks = clicks                  # two image points, neighbouring hex centres: the grid through them
        self.proposal: GridProposal | None = None
        self.error: str | None = None
        self._thread = threading.Thread(target=self._run, name=f"grid {self.image.name}", daemon=True)
        self._found.connect(self._deliver)
        self._broken.connect(self._deliver_failure)

    def start(self) -> None:
        self._thread.start()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the search ends (for tests); True if it has."""
        self._thread.join(timeout)
        return not self._thread.is_alive()

    @property
    def finished(self) -> bool:
        return self.proposal is not None or self.error is not None

    def _run(self) -> None:
        try:
            prop = find_grid(self.image) if self.clicks is None else find_grid_from_clicks(self.image, *self.clicks)
        except BadFile as e:
            self._send(self._broken, "\n".join(str(p) for p in e.problems))
            return
        except (OSError, MemoryError, ValueError) as e:
            self._send(self._broken, f"{self.image}: {e}")
            return
        self._send(self._found, prop)

    @staticmethod
    def _send(signal, value) -> None:
        try:
            signal.emit(value)
        except RuntimeError:        # the job was deleted with its window while the search ran: nobody is waiting
            pass

    def _deliver(self, prop) -> None:
        self.proposal = prop
        self.done.emit(prop)

    def _deliver_failure(self, message: str) -> None:
        self.error = message
        self.failed.emit(message)


class GridFinder:
    """The editor's side of Find the grid: the running search, the proposal shown, accepting it."""

    def __init__(self, editor):
        self.editor = editor
        self.job: GridJob | None = None
        self.proposal: GridProposal | None = None
        self.sheet_id: str | None = None
        # after a refusal: the hex centres clicked so far to decide the grid (None: not asking)
        self.asked: list[tuple[float, float]] | None = None

    @property
    def palette(self):
        return self.editor.palette

    @property
    def wants_clicks(self) -> bool:
        """Whether the person is being asked to click two neighbouring hex centres (after a refusal)."""
        return self.asked is not None

    def click(self, point: tuple[float, float]) -> None:
        """A hex centre clicked on the scan (image pixels) while asked; the second starts the search through both."""
        if self.asked is None:
            return
        self.asked.append((float(point[0]), float(point[1])))
        if len(self.asked) == 1:
            self.palette.set_grid_message("Now click the centre of a hex next to it.")
            self.editor.status("Click the centre of a hex next to the first one")
            self.editor.view.viewport().update()
            return
        clicks, self.asked = tuple(self.asked[:2]), None
        self.start(clicks)

    def start(self, clicks=None) -> None:
        ed = self.editor
        if ed.board is None or (self.job is not None and not self.job.finished):
            return
        sheet = ed.current_sheet() if clicks is None else ed.board.sheet(self.sheet_id)
        image = ed.board.image_path(sheet)
        if image is None:
            ed.show_error("Cannot look for the grid", f"sheet {sheet.id} has no scan")
            return
        self.discard()
        self.sheet_id = sheet.id
        ed.set_tool("calibrate")
        self.job = GridJob(image, ed, clicks)
        self.job.done.connect(self._done)
        self.job.failed.connect(self._failed)
        self.palette.set_grid_message(f"Looking for the hex grid on {image.name}…")
        self.palette.find_grid_button.setEnabled(False)
        ed.find_grid_act.setEnabled(False)
        ed.status(f"Looking for the hex grid on {image.name}…")
        self.job.start()

    def _idle(self) -> None:
        self.palette.find_grid_button.setEnabled(True)
        self.editor.find_grid_act.setEnabled(True)

    def _failed(self, message: str) -> None:
        self._idle()
        self.palette.set_grid_message(message)
        self.editor.show_error("Cannot look for the grid", message)

    def _done(self, prop: GridProposal) -> None:
        self._idle()
        ed = self.editor
        if ed.board is None or self.sheet_id not in [sh.id for sh in ed.board.sheets]:
            return
        if not prop.found:
            if "click the centres of two neighbouring hexes" in prop.reason and not self.job.clicks:
                # lines were seen but the grid is not sure: two clicks decide it
                self.asked = []
                self.palette.set_grid_message(f"No sure grid: {prop.reason}.\nClick the centre of a hex "
                                              "(Escape to calibrate by hand).")
                ed.status("Click the centres of two neighbouring hexes to decide the grid")
                return
            self.palette.set_grid_message(f"No grid found: {prop.reason}. Calibrate by clicking hex centres.")
            ed.status(f"No grid found: {prop.reason}")
            return
        self.proposal = prop
        sheet = ed.board.sheet(self.sheet_id)
        ns = sheet.numbering
        suggestion = ns.format_colrow(ns.first_col, ns.top_row)
        self.palette.set_grid_message(
            f"Found {prop.orientation}-top hexes {prop.hex_px:.1f} px apart, turned {prop.rotation:+.2f}°, "
            f"stretched {prop.stretch * 100:+.2f} % (confidence {prop.confidence:.2f}, {prop.seconds:.1f} s).\n"
            "The id of the highlighted hex:")
        self.palette.show_grid_answer(True, suggestion)
        ed.status(f"Grid found: type the id of the highlighted hex (suggested {suggestion}) and press Enter")
        ed.view.refresh()               # the map's grid, which the found one would replace, is hidden meanwhile

    def accept(self, text: str | None = None) -> bool:
        """Number the found grid with ``text`` on its highlighted hex and calibrate the sheet from it."""
        ed, prop = self.editor, self.proposal
        if prop is None or ed.board is None:
            return False
        text = (text if text is not None else self.palette.grid_id_edit.text()).strip()
        sheet = ed.board.sheet(self.sheet_id)
        try:
            # the printed numbering's shifted columns (rows) are what the person said in New map
            ns, anchor = sheet_numbering(prop, sheet.numbering, text, sheet.numbering.shifted)
            clicks = grid_clicks(prop, ns, anchor)
            fit = ed.edit.use_found_grid(sheet.id, prop.orientation, ns, clicks)
        except (BadHexId, ValueError) as e:
            self.palette.set_grid_message(str(e))
            ed.status(str(e))
            return False
        self.discard()
        ed._centres = None
        ed.view.show_board(ed.board)
        ed.calibrated(sheet)
        rms = f", {fit.rms:.2f} px from its points" if fit is not None else ""
        done = (f"Sheet {sheet.id} calibrated from the found grid: {ns.cols} columns x {ns.rows} rows, "
                f"{text} top left{rms}")
        hint = "" if ed.printed_ids_act.isChecked() else f"\n{PRINTED_IDS_HINT}"    # the program's ids now over the scan
        self.palette.set_grid_message(done + ". Undo takes it back." + hint)
        ed.status(done)
        return True

    def discard(self) -> None:
        shown, self.proposal = self.proposal is not None, None
        self.asked = None
        self.palette.show_grid_answer(False, "")
        if shown:
            self.editor.view.refresh()  # the map's own grid again
        else:
            self.editor.view.viewport().update()

    def paint(self, painter, view) -> None:
        """The found grid's whole hexes over the scan; its first hex (the one to name) filled."""
        prop = self.proposal
        if self.asked and view.board is not None and self.sheet_id is not None:
            sheet = view.board.sheet(self.sheet_id)
            painter.setPen(QPen(QColor(255, 120, 0), 3))
            painter.setBrush(Qt.NoBrush)
            for u, v in self.asked:
                c = view.image_to_viewport(sheet, u, v)
                painter.drawEllipse(c, 7.0, 7.0)
                painter.drawLine(QPointF(c.x() - 11, c.y()), QPointF(c.x() + 11, c.y()))
                painter.drawLine(QPointF(c.x(), c.y() - 11), QPointF(c.x(), c.y() + 11))
        if prop is None or view.board is None:
            return
        try:
            sheet = view.board.sheet(self.sheet_id)
        except KeyError:
            return
        lay = Layout(prop.orientation)
        T = prop.transform
        corners = [lay.corner_offset(i) for i in range(6)]
        vp = view.viewport().rect()
        margin = 60

        def poly(q, r):
            cx, cy = lay.hex_to_pixel(Hex(q, r))
            return QPolygonF([view.image_to_viewport(sheet, *T.apply(cx + dx, cy + dy)) for dx, dy in corners])

        painter.setBrush(Qt.NoBrush)
        painter.setPen(QPen(QColor(220, 0, 200, 200), 2))
        for q, r in prop.whole:
            c = view.image_to_viewport(sheet, *T.apply(*lay.hex_to_pixel(Hex(q, r))))
            if -margin <= c.x() <= vp.width() + margin and -margin <= c.y() <= vp.height() + margin:
                painter.drawPolygon(poly(q, r))
        painter.setPen(QPen(QColor(255, 120, 0), 4))
        painter.setBrush(QColor(255, 160, 0, 110))
        first = poly(0, 0)
        painter.drawPolygon(first)
        text = self.palette.grid_id_edit.text().strip()
        if text:
            c = first.boundingRect().center()
            painter.setPen(QPen(QColor(0, 0, 0)))
            painter.drawText(QPointF(c.x() - 20, c.y() + 5), text)
