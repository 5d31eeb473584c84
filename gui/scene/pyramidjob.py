"""Build (or find) a map image's tile pyramid in a background thread and report to the GUI.

A JPEG scan not in the cache shows first from a partial pyramid of its coarse
levels (``preview``), cut from the scan read small before the full decode; any
other scan (a PNG) shows first a picture that grows from the top as the scan is
decoded (``rows``).  The whole pyramid replaces either when it is complete.
"""
from __future__ import annotations

import threading
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QImage

from gui.scene.tiles import BuildCancelled, MapImageError, Pyramid, build_pyramid
from gui.common.userfolders import cache_root


class PyramidJob(QObject):
    """One image's pyramid: ``preview(partial pyramid)`` (a JPEG not cached) or ``rows(level, top, QImage)``
    again and again (another scan not cached: its next rows, small), ``progress(fraction)``, then
    ``ready(pyramid)`` or ``failed(message)``."""

    preview = Signal(object)
    rows = Signal(int, int, object)
    progress = Signal(float)
    ready = Signal(object)
    failed = Signal(str)
    # from the worker thread to this object's (the GUI) thread, queued
    _built = Signal(object)
    _broken = Signal(str)
    _previewed = Signal(object)
    _grown = Signal(int, int, object)

    def __init__(self, image: Path, root: Path | None = None, parent=None):
        super().__init__(parent)
        self.image = Path(image)
        self.root = root or cache_root()
        self.pyramid: Pyramid | None = None
        self.error: str | None = None
        self.first_view: Pyramid | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"tiles {self.image.name}", daemon=True)
        self._built.connect(self._deliver)
        self._broken.connect(self._deliver_failure)
        self._previewed.connect(self._deliver_preview)
        self._grown.connect(self._deliver_rows)
        self._step = -1                     # the last progress handed on, in percents
        self.rows_shown = 0                 # rows of the growing first view delivered (at its level)

    def start(self) -> None:
        self._thread.start()

    def cancel(self) -> None:
        self._stop.set()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the build ends (for tests and the benchmark); True if it has."""
        self._thread.join(timeout)
        return not self._thread.is_alive()

    @property
    def finished(self) -> bool:
        """True once ``ready`` or ``failed`` has been delivered on the GUI thread (not merely built)."""
        return self.pyramid is not None or self.error is not None

    def _deliver(self, pyramid) -> None:
        self.pyramid = pyramid
        self.ready.emit(pyramid)

    def _deliver_failure(self, message: str) -> None:
        self.error = message
        self.failed.emit(message)

    def _deliver_preview(self, partial: Pyramid) -> None:
        if self.pyramid is None and not self._stop.is_set():
            self.first_view = partial
            self.preview.emit(partial)

    def _deliver_rows(self, level: int, top: int, image: QImage) -> None:
        if self.pyramid is None and not self._stop.is_set():
            self.rows_shown = top + image.height()
            self.rows.emit(level, top, image)

    def _rows(self, level: int, top: int, strip) -> None:
        """The next rows of the growing first view (in this thread): a QImage of their own for the GUI."""
        if self._stop.is_set():
            return
        data = strip.tobytes("raw", "RGB")
        image = QImage(data, strip.width, strip.height, strip.width * 3, QImage.Format_RGB888)
        image = image.convertToFormat(QImage.Format_RGB32)       # a copy: ``data`` goes with this call
        try:
            self._grown.emit(level, top, image)
        except RuntimeError:        # the job was deleted with its window while the thread ran: stop quietly
            self._stop.set()

    def _preview(self, partial: Pyramid) -> None:
        """The coarse levels are on disk (in this thread): hand them to the GUI."""
        if self._stop.is_set():
            return
        try:
            self._previewed.emit(partial)
        except RuntimeError:        # the job was deleted with its window while the thread ran: stop quietly
            self._stop.set()

    def _progress(self, fraction: float) -> None:
        """Handed on in steps of a percent: each step repaints the status line's bar (2 to 3 ms; and the sheet
        while it shows its placeholder), and the builders report far more often (libvips's watcher every 20 ms)."""
        step = int(fraction * 100)
        if self._stop.is_set() or step == self._step:
            return
        self._step = step
        try:
            self.progress.emit(fraction)
        except RuntimeError:        # the job was deleted with its window while the thread ran: stop quietly
            self._stop.set()

    def _run(self) -> None:
        try:
            pyramid = build_pyramid(self.image, self.root, progress=self._progress, cancelled=self._stop.is_set,
                                    preview=self._preview, rows=self._rows)
        except BuildCancelled:
            return
        except RuntimeError:        # the program is exiting while the tiles are cut: its writers are shut down
            if threading.main_thread().is_alive():
                raise
            return
        except MapImageError as e:
            self._broken.emit(str(e))
            return
        except MemoryError:
            self._broken.emit(f"{self.image}: not enough memory to cut the image into tiles")
            return
        except OSError as e:
            self._broken.emit(f"{self.image}: cannot write the tile cache under {self.root} ({e.strerror or e})")
            return
        try:
            self._built.emit(pyramid)
        except RuntimeError:        # deleted meanwhile: nobody is waiting for it
            pass
