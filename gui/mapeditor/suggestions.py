"""Suggested terrain and hexside features in the map editor: ask, look, accept, undo.

The engine (``engine.maps.suggest``) reads the scan; the editing session
(:class:`engine.maps.mapedit.MapEdit`) keeps the suggestions as undoable steps
apart from the board, so a map saved with suggestions pending never holds
them. This module is the panel that asks for them and accepts them, and the
overlay that shows them hatched, with their confidence, over the map.
"""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPen
from PySide6.QtWidgets import (QApplication, QCheckBox, QComboBox, QDockWidget, QDoubleSpinBox, QFormLayout,
                               QGroupBox, QLabel, QListWidget, QListWidgetItem, QPushButton, QVBoxLayout, QWidget)

from engine.maps.suggest import (LOW_CONFIDENCE, SIDE_ACCEPT, SuggestError, ask_count, load_image,
                                 suggest_hexsides, suggest_terrain)

from .overlay import CODES_MIN_PX, TERRAIN_COLOURS, colour_of, hex_polygon, hex_px, visible_hexes
from .palette import row_of

ACCEPT_ABOVE = LOW_CONFIDENCE        # the threshold the panel starts with
SIDES_ABOVE = SIDE_ACCEPT            # ... and for hexsides (a hexside's confidence: how much of it shows the line)
REVIEW_ROWS = 300                    # the review list shows at most this many hexes
PAINT_NEXT = QColor(255, 120, 0)     # the ring of a hex the suggester asks the person to paint


class SuggestionPanel(QWidget):
    """Suggest terrain or hexside features, accept them by threshold, by terrain or one by one."""

    def __init__(self, editor, parent=None):
        super().__init__(parent)
        self.editor = editor
        self.images: dict[str, object] = {}          # scan path -> RGB array (read once per session)
        self.to_paint: list = []                       # the hexes whose painting would teach most (last asked)
        self._asked_left = 0                           # how many of them were left to paint at the last refresh
        self.passed_over: set = set()                  # hexes asked for and left unpainted: not asked again
        box = QVBoxLayout(self)
        box.setContentsMargins(6, 6, 6, 6)

        terrain = QGroupBox("Terrain")
        t = QVBoxLayout(terrain)
        self.suggest_button = QPushButton("Suggest terrain")
        self.suggest_button.setToolTip("Paint a few hexes of each terrain by hand first; every other hex gets the "
                                       "terrain it looks most like, with a confidence")
        t.addWidget(self.suggest_button)
        self.count_unpainted = QCheckBox("Learn from the terrain of unpainted hexes too")
        self.count_unpainted.setToolTip("Off: only hexes painted by hand teach the suggestions, so a new map's "
                                        "starting terrain (every hex \"clear\") is not taken as true. On: the "
                                        "terrain hexes already have counts as examples; painted hexes still "
                                        "always keep their terrain")
        t.addWidget(self.count_unpainted)
        self.missing = QLabel("")
        self.missing.setWordWrap(True)
        self.missing.setStyleSheet("color: #8a4b00")
        self.missing.setVisible(False)
        t.addWidget(self.missing)
        form = QFormLayout()
        # the confidence is the share of such suggestions that were right (0.99: one in a hundred wrong), so the
        # line is set to a thousandth
        self.threshold = QDoubleSpinBox(minimum=0.0, maximum=1.0, singleStep=0.01, decimals=3, value=ACCEPT_ABOVE)
        self.threshold.setToolTip("Suggestions at this confidence or more are accepted; a suggestion's confidence is "
                                  "how often suggestions like it were right on scans it was measured on")
        self.accept_above_button = QPushButton("Accept all above")
        form.addRow("Confidence", row_of(self.threshold, self.accept_above_button))
        self.class_combo = QComboBox()
        self.accept_class_button = QPushButton("Accept this terrain")
        form.addRow("Terrain", row_of((self.class_combo, 1), self.accept_class_button))
        t.addLayout(form)
        self.paint_next_label = QLabel("Paint these next (ringed orange; they teach most):")
        self.paint_next_label.setToolTip("Hexes unlike every hex painted so far, and the least sure suggestions: "
                                         "paint them with the terrain brush, then suggest again")
        t.addWidget(self.paint_next_label)
        self.paint_next = QListWidget()
        self.paint_next.setMaximumHeight(110)
        t.addWidget(self.paint_next)
        t.addWidget(QLabel("To review (least sure first; click to go there):"))
        self.review = QListWidget()
        t.addWidget(self.review, 1)
        self.accept_hex_button = QPushButton("Accept this hex")
        self.dismiss_button = QPushButton("Dismiss all")
        t.addLayout(row_of(self.accept_hex_button, self.dismiss_button))
        box.addWidget(terrain, 1)

        sides = QGroupBox("Hexsides")
        s = QVBoxLayout(sides)
        self.suggest_sides_button = QPushButton("Suggest hexsides like the marked ones")
        self.suggest_sides_button.setToolTip("Mark one hexside with the Hexside tool (its feature chosen there); "
                                             "hexsides drawn like it are suggested")
        s.addWidget(self.suggest_sides_button)
        self.sides_threshold = QDoubleSpinBox(minimum=0.0, maximum=1.0, singleStep=0.05, decimals=2,
                                              value=SIDES_ABOVE)
        self.accept_sides_button = QPushButton("Accept hexsides above")
        s.addLayout(row_of(self.sides_threshold, self.accept_sides_button))
        self.sides_hint = QLabel("A wrong one? Right-click it with the Hexside tool to turn it down, then suggest "
                                 "again: those that look like it go too.")
        self.sides_hint.setWordWrap(True)
        self.sides_hint.setVisible(False)
        s.addWidget(self.sides_hint)
        box.addWidget(sides)
        self.summary = QLabel("No suggestions")
        self.summary.setWordWrap(True)
        box.addWidget(self.summary)

        self.suggest_button.clicked.connect(self.suggest_terrain)
        self.accept_above_button.clicked.connect(lambda: self.accept_above(self.threshold.value()))
        self.accept_class_button.clicked.connect(lambda: self.accept_terrain(self.class_combo.currentText()))
        self.accept_hex_button.clicked.connect(self.accept_chosen)
        self.dismiss_button.clicked.connect(self.dismiss)
        self.suggest_sides_button.clicked.connect(lambda: self.suggest_hexsides())
        self.accept_sides_button.clicked.connect(lambda: self.accept_sides_above(self.sides_threshold.value()))
        self.threshold.valueChanged.connect(lambda _v: self.refresh())      # the review list follows the line
        self.sides_threshold.valueChanged.connect(lambda _v: self.editor.view.viewport().update())
        self.review.currentItemChanged.connect(lambda item, _old: self._go_to(item))
        self.paint_next.currentItemChanged.connect(lambda item, _old: self._go_to(item))
        for b in self.findChildren(QPushButton):
            b.setFocusPolicy(Qt.NoFocus)
        self.refresh()

    # ------------------------------------------------------------ reading the scans
    def scans(self) -> dict:
        """The board's scans as arrays, by sheet id (read on first use and kept)."""
        b = self.editor.board
        out = {}
        for sh in b.sheets:
            path = b.image_path(sh)
            if path is None:
                continue
            key = str(Path(path).resolve())
            if key not in self.images:
                self.images[key] = load_image(path)
            out[sh.id] = self.images[key]
        return out

    # ------------------------------------------------------------ asking
    def reveal(self) -> None:
        """Show the panel (its dock starts hidden, leaving the map the room)."""
        dock = self.parentWidget()
        if isinstance(dock, QDockWidget) and not dock.isVisible():
            dock.show()

    def suggest_terrain(self) -> int:
        """Suggest a terrain for every hex not painted by hand; returns how many (0 with a message if none)."""
        ed = self.editor
        if ed.edit is None:
            return 0
        self.reveal()
        counted = self.count_unpainted.isChecked()
        examples = ed.edit.examples(counted)
        self.show_missing(ed.edit.unexampled(examples))
        # a hex asked for and left unpainted is one whose terrain the person could not tell (a counter over it):
        # asking for it again would name it every time
        self.passed_over |= set(self.paint_next_hexes())
        QApplication.setOverrideCursor(Qt.WaitCursor)
        try:
            got = suggest_terrain(ed.board, self.scans(), examples, fixed=ed.edit.confirmed() if counted else None,
                                  ask=ask_count(len(ed.board.hexes())),
                                  ask_among=[h for h in ed.board.hexes() if h not in self.passed_over])
        except SuggestError as e:
            ed.status(f"Cannot suggest terrain: {e}")
            return 0
        finally:
            QApplication.restoreOverrideCursor()
        self.to_paint = list(got.to_paint)
        n = ed.edit.suggest_terrain(got.terrain)
        low = len(got.low_confidence())
        ed.changed()
        where = "painted and unpainted" if counted else "painted"
        ask = (f"; paint the {len(self.to_paint)} hexes ringed orange and suggest again: they teach most"
               if self.to_paint else "")
        ed.status(f"Suggested terrain for {n} hexes from {len(examples)} {where} ones ({', '.join(got.classes)}); "
                  f"{low} to review{ask}" + (f". {self.missing.text()}" if self.missing.isVisible() else ""))
        return n

    def show_missing(self, unexampled: dict[str, int]) -> None:
        """Say which terrains the map has that no example shows: their hexes will be suggested as another."""
        if not unexampled:
            self.missing.setVisible(False)
            self.missing.setText("")
            return
        names = ", ".join(f"{t} ({n} hexes)" for t, n in unexampled.items())
        self.missing.setText(f"No painted example of {names}: those hexes can only be suggested as a painted "
                             "terrain. Paint a few of each, or tick the box above to learn from them as they are.")
        self.missing.setVisible(True)

    def suggest_hexsides(self, feature: str | None = None) -> int:
        """Suggest hexsides drawn like those that carry the Hexside tool's feature."""
        ed = self.editor
        if ed.edit is None:
            return 0
        self.reveal()
        feature = feature or ed.palette.hexside_feature()
        samples = [s for s, fs in ed.board.hexsides.items() if feature in fs]
        rejected = sorted(ed.edit.rejected_sides.get(feature, ()))
        line = self.sides_threshold.value()
        before = [s for s, (f, c) in ed.edit.suggested_sides.items() if f == feature and c >= line]
        QApplication.setOverrideCursor(Qt.WaitCursor)
        try:
            got = suggest_hexsides(ed.board, self.scans(), feature, samples, rejected=rejected)
        except SuggestError as e:
            ed.status(f"Cannot suggest {feature}: {e}")
            return 0
        finally:
            QApplication.restoreOverrideCursor()
        n = ed.edit.suggest_hexsides(feature, got.sides)
        ed.changed()
        sure = len(got.above(self.sides_threshold.value()))
        turned = f" and unlike the {len(rejected)} turned down" if rejected else ""
        # a hexside turned down that looks much like the line takes true ones with it: say how many went
        was = (f" (were {len(before)}: if true ones went with those turned down, Edit > Undo takes them back)"
               if before and sure < len(before) else "")
        if sure:
            ed.status(f"Suggested {feature} on {n} hexsides like the {len(samples)} marked{turned}; {sure} at "
                      f"{line:.2f} or more{was}; a wrong one: right-click it with the Hexside tool")
        else:                      # the marked hexside shows little of the line: say what to do next
            ed.status(f"Suggested {feature} on {n} hexsides like the {len(samples)} marked{turned}; none at "
                      f"{line:.2f} or more{was}: mark another hexside where the {feature} is clearly printed, "
                      f"or lower the threshold")
        return n

    # ------------------------------------------------------------ accepting
    def accept_above(self, threshold: float) -> int:
        ed = self.editor
        hexes = [h for h, (_t, c) in ed.edit.suggested.items() if c >= threshold]
        done = ed.edit.accept_suggested(hexes, f"accept {len(hexes)} suggestions at {threshold:.3g} or more")
        ed.changed()
        ed.status(f"Accepted {len(done)} suggested hexes at confidence {threshold:.3g} or more; "
                  f"{len(ed.edit.suggested)} still suggested")
        return len(done)

    def accept_terrain(self, terrain: str) -> int:
        ed = self.editor
        hexes = [h for h, (t, _c) in ed.edit.suggested.items() if t == terrain]
        done = ed.edit.accept_suggested(hexes, f"accept {len(hexes)} suggested {terrain}")
        ed.changed()
        ed.status(f"Accepted {len(done)} hexes suggested as {terrain}")
        return len(done)

    def accept_hex(self, h) -> bool:
        ed = self.editor
        if h not in ed.edit.suggested:
            return False
        t = ed.edit.suggested[h][0]
        ed.edit.accept_suggested([h], f"accept {t} at {ed.board.hex_id(h)}")
        ed.changed()
        ed.status(f"{ed.board.hex_id(h)} is {t}")
        return True

    def accept_chosen(self) -> bool:
        item = self.review.currentItem()
        if item is None:
            self.editor.status("Choose a hex in the list to review first")
            return False
        return self.accept_hex(item.data(Qt.UserRole))

    def dismiss(self) -> int:
        ed = self.editor
        n = ed.edit.dismiss_suggested()
        self.forget_asked()
        ed.changed()
        ed.status(f"Dismissed {n} suggestions")
        return n

    def accept_sides_above(self, threshold: float) -> int:
        ed = self.editor
        sides = [s for s, (_f, c) in ed.edit.suggested_sides.items() if c >= threshold]
        done = ed.edit.accept_suggested_sides(sides)
        ed.changed()
        ed.status(f"Accepted {len(done)} suggested hexsides at {threshold:.2f} or more")
        return len(done)

    # ------------------------------------------------------------ showing
    def review_hexes(self) -> list:
        """The suggested hexes under the panel's threshold, least confident first."""
        sug = self.editor.edit.suggested if self.editor.edit is not None else {}
        limit = self.threshold.value()
        return sorted((h for h, (_t, c) in sug.items() if c < limit), key=lambda h: (sug[h][1], h))

    def forget_asked(self) -> None:
        """No hexes asked for any more (another map, or the suggestions dismissed)."""
        self.to_paint = []
        self._asked_left = 0
        self.passed_over = set()

    def paint_next_hexes(self) -> list:
        """The hexes asked for that are still to paint: not painted by hand since, still on the map."""
        ed = self.editor
        if ed.edit is None:
            return []
        done = ed.edit.painted
        return [h for h in self.to_paint if h not in done and h in ed.board]

    def refresh(self) -> None:
        """Show the session's suggestions: the terrains, the review list and the counts (after any change)."""
        ed = self.editor
        sug = ed.edit.suggested if ed.edit is not None else {}
        sides = ed.edit.suggested_sides if ed.edit is not None else {}
        for w in (self.accept_above_button, self.accept_class_button, self.accept_hex_button, self.dismiss_button,
                  self.class_combo):
            w.setEnabled(bool(sug) or (w is self.dismiss_button and bool(sides)))
        self.accept_sides_button.setEnabled(bool(sides))
        self.sides_hint.setVisible(bool(sides))
        chosen = self.class_combo.currentText()
        classes = sorted({t for t, _c in sug.values()})
        self.class_combo.blockSignals(True)
        self.class_combo.clear()
        self.class_combo.addItems(classes)
        if chosen in classes:
            self.class_combo.setCurrentText(chosen)
        self.class_combo.blockSignals(False)
        board = ed.board
        _fill_hex_list(self.review, [(h, f"{board.hex_id(h)}  {sug[h][0]}  {int(100 * sug[h][1]) / 100:.2f}")
                                     for h in self.review_hexes()[:REVIEW_ROWS]])
        self._show_paint_next()
        if sug or sides:
            self.summary.setText(f"{len(sug)} hexes suggested ({len(self.review_hexes())} under "
                                 f"{self.threshold.value():.3g}), {len(sides)} hexsides suggested; "
                                 "hatched on the map until accepted, never saved")
        else:
            self.summary.setText("No suggestions")

    def _show_paint_next(self) -> None:
        ed = self.editor
        sug = ed.edit.suggested if ed.edit is not None else {}
        left = self.paint_next_hexes()

        def said(h) -> str:
            t, c = sug.get(h, ("?", 0.0))
            return f"suggested {t} {int(100 * c) / 100:.2f}" if h in sug else "not suggested"
        _fill_hex_list(self.paint_next, [(h, f"{ed.board.hex_id(h)}  ({said(h)})") for h in left])
        self.paint_next_label.setVisible(bool(left))
        self.paint_next.setVisible(bool(left))
        before, self._asked_left = self._asked_left, len(left)
        if len(left) < before:                         # one of them painted: say what is left to do
            ed.status(f"{len(left)} of the hexes asked for left to paint" if left else
                      "Every hex asked for is painted: Suggest terrain (Ctrl+Shift+T) again")

    def _go_to(self, item) -> None:
        if item is None:
            return
        h = item.data(Qt.UserRole)
        ed = self.editor
        ed.marked = [h]
        ed.go_to_hex(h)
        t, c = ed.edit.suggested.get(h, ("?", 0.0))
        ask = "; paint it: it teaches most" if h in self.paint_next_hexes() else ""
        ed.status(f"{ed.board.hex_id(h)}: suggested {t} (confidence {int(100 * c) / 100:.2f}){ask}")
        ed.view.viewport().update()


def _fill_hex_list(widget: QListWidget, rows) -> None:
    """Fill a list of hexes with ``(hex, text)`` rows, the hex chosen before still chosen, without signals."""
    current = widget.currentItem()
    keep = current.data(Qt.UserRole) if current is not None else None
    widget.blockSignals(True)
    widget.clear()
    for h, text in rows:
        item = QListWidgetItem(text)
        item.setData(Qt.UserRole, h)
        widget.addItem(item)
        if h == keep:
            widget.setCurrentItem(item)
    widget.blockSignals(False)


def paint_suggestions(painter, view, editor) -> None:
    """Suggested hexes hatched in their terrain's colour with a '?' code and the confidence (purple under the
    review line); the hexes asked for ringed orange; suggested hexsides dashed magenta on white, thick at or
    above the panel's hexside threshold, dotted below it, and those turned down crossed in grey (the map shows
    plainly what is not decided yet)."""
    ed = editor.edit
    panel = getattr(editor, "suggestions", None)
    if ed is None or not (ed.suggested or ed.suggested_sides or ed.rejected_sides
                          or (panel is not None and panel.paint_next_hexes())):
        return
    board = view.board
    px = hex_px(view)
    code_of = {name: code for code, name in board.legend.items()}
    if ed.suggested:
        font = QFont("DejaVu Sans")
        font.setPixelSize(int(max(8, min(18, px * 0.18))))
        painter.setFont(font)
        for h in visible_hexes(view):
            got = ed.suggested.get(h)
            if got is None:
                continue
            t, c = got
            poly = hex_polygon(view, h)
            colour = colour_of(t, TERRAIN_COLOURS, 90 + int(120 * c))
            painter.setPen(QPen(colour_of(t, TERRAIN_COLOURS, 200), 1, Qt.DashLine))
            painter.setBrush(QBrush(colour, Qt.BDiagPattern))
            painter.drawPolygon(poly)
            if px >= CODES_MIN_PX:
                centre = view.lattice_to_viewport(*board.center(h))
                painter.setPen(QColor(120, 0, 120) if c < LOW_CONFIDENCE else QColor(0, 0, 0, 220))
                text = suggestion_label(code_of.get(t, t[:1]), c)
                painter.drawText(QRectF(centre.x() - px / 2, centre.y() + px * 0.05, px, px * 0.3), Qt.AlignCenter,
                                 text)
    if panel is not None:
        asked = set(panel.paint_next_hexes())
        if asked:
            painter.setBrush(Qt.NoBrush)
            for h in visible_hexes(view):
                if h in asked:
                    poly = hex_polygon(view, h)
                    painter.setPen(QPen(QColor(255, 255, 255, 230), 7))
                    painter.drawPolygon(poly)
                    painter.setPen(QPen(PAINT_NEXT, 4))
                    painter.drawPolygon(poly)
    lay = board.layout
    for sides in ed.rejected_sides.values():       # turned down: a grey cross on the hexside's middle
        painter.setPen(QPen(QColor(90, 90, 90, 220), 2))
        for side in sides:
            (x0, y0), (x1, y1) = lay.hexside_segment(side)
            m = view.lattice_to_viewport((x0 + x1) / 2, (y0 + y1) / 2)
            r = max(3.0, px * 0.06)
            painter.drawLine(QPointF(m.x() - r, m.y() - r), QPointF(m.x() + r, m.y() + r))
            painter.drawLine(QPointF(m.x() - r, m.y() + r), QPointF(m.x() + r, m.y() - r))
    sure = editor.suggestions.sides_threshold.value() if hasattr(editor, "suggestions") else SIDES_ABOVE
    for side, (f, c) in ed.suggested_sides.items():
        (x0, y0), (x1, y1) = lay.hexside_segment(side)
        a, b = view.lattice_to_viewport(x0, y0), view.lattice_to_viewport(x1, y1)
        wide = c >= sure
        painter.setPen(QPen(QColor(255, 255, 255, 220), 7 if wide else 4, Qt.SolidLine, Qt.FlatCap))
        painter.drawLine(a, b)                     # a white casing: the suggestion stands out from the printed line
        pen = QPen(QColor(200, 0, 160) if wide else QColor(200, 0, 160, 150), 4 if wide else 2,
                   Qt.DashLine if wide else Qt.DotLine, Qt.FlatCap)
        painter.setPen(pen)
        painter.drawLine(a, b)


def suggestion_label(code: str, confidence: float) -> str:
    """A suggested hex's label: its terrain code, a question mark and the confidence in whole per cent, rounded
    down (a suggestion right 995 times in 1,000 reads 99 %, never 100 %)."""
    return f"{code}? {int(100 * confidence)}%"


__all__ = ["SuggestionPanel", "paint_suggestions", "suggestion_label", "ACCEPT_ABOVE"]
