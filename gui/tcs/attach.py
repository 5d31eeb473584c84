"""The TCS panels in the play window: docks shown while a TCS game is open, map marks, map clicks.

The window calls :meth:`TcsPlay.update` after every change of its game and
hands it map clicks first (:meth:`TcsPlay.hex_clicked`); everything else it
needs is in the window already (the session, the map view, the refusal line).
"""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from shiboken6 import isValid

from gui.play.session import PlaySession, Refusal
from .artillery import ArtilleryDock
from .clock import ClockDock
from .counters import TcsCounterArt
from .mapmarks import BarrageMarks, SheetMarks, UnitStateMarks, paint_state
from .opsheets import OpSheetsDock
from .pending import PendingDock
from .session import TcsScenarioView, TcsSession, is_tcs_file, load_tcs_view
from .trackboard import TrackBoardDock
from .tracks import TracksDock, ZoneMarks, has_tracks, zone_named

# actions that a TCS panel offers by its own widgets (the rest go to the clock panel's list)
PANEL_VERBS = ("end", "place", "chart", "choose", "complete", "cancel", "implement", "reserve", "assign", "opsheet", "mission",
               "lift", "move", "plan")


def is_tcs_scenario(scenario) -> bool:
    return isinstance(scenario, TcsScenarioView)


def session_class(scenario):
    """The window's session class for a scenario: a TCS game's own, else the common one."""
    return TcsSession if is_tcs_scenario(scenario) else PlaySession


def counter_art(scenario, images=None):
    """The counter pictures of a TCS scenario's units, or None for other scenarios."""
    return TcsCounterArt(scenario.sides, images=images) if is_tcs_scenario(scenario) else None


def load_tcs(path: Path):
    """``(board, [], scenario view)`` of a TCS scenario file, or None if the file is not one."""
    if not is_tcs_file(path):
        return None
    view = load_tcs_view(path)
    return view.board, [], view


def is_tcs_path(path) -> bool:
    """Whether a file is a TCS scenario or a saved game of one (played on its map in the play window)."""
    from engine.fileio import read_toml

    if is_tcs_file(path):
        return True
    try:
        doc = read_toml(Path(path))
    except Exception:          # unreadable: whoever opens it reports why
        return False
    scenario = doc.get("scenario")
    if not ("actions" in doc and isinstance(scenario, str)):
        return False
    from engine.game import saved_scenario_path

    target = saved_scenario_path(path, scenario)        # a shipped one moved with the program: found
    return target.is_file() and is_tcs_file(str(target))


def open_saved(path: Path, parent=None) -> PlaySession:
    """A saved game, as a TCS session when its scenario is a TCS one."""
    if is_tcs_path(path):
        return TcsSession.open_saved(Path(path), parent=parent)
    return PlaySession.open_saved(path, parent=parent)


class TcsPlay:
    """The TCS docks of one play window and what they draw on its map."""

    def __init__(self, window):
        self.window = window
        self.clock = ClockDock(window)
        self.sheets = OpSheetsDock(window)
        self.artillery = ArtilleryDock(window)
        self.pending = PendingDock(window)
        window.addDockWidget(Qt.LeftDockWidgetArea, self.clock)
        window.addDockWidget(Qt.LeftDockWidgetArea, self.pending)
        window.addDockWidget(Qt.RightDockWidgetArea, self.sheets)
        window.addDockWidget(Qt.RightDockWidgetArea, self.artillery)
        window.tabifyDockWidget(self.sheets, self.artillery)
        self.docks = (self.clock, self.pending, self.sheets, self.artillery)
        for d in self.docks:
            d.act.connect(self.play)
            d.hide()
        self.tracks = TracksDock(window)          # a game with off-map tracks (Leros) only
        window.addDockWidget(Qt.RightDockWidgetArea, self.tracks)
        window.tabifyDockWidget(self.sheets, self.tracks)
        self.tracks.hide()
        self.tracks.act.connect(self.play)
        self.tracks.picking.connect(self._picking_dz)
        self.tracks.go_to.connect(self._go_to)
        self.tracks.light.connect(self._light)
        self.board = TrackBoardDock(window)       # the same tracks drawn as boxes with counters, under the map
        window.addDockWidget(Qt.BottomDockWidgetArea, self.board)
        self.board.hide()
        self.board.board.act.connect(self.play)
        self.board.board.refused.connect(lambda rule, why: self.window.refused(Refusal(rule, why)))
        self.board.board.selected.connect(self._board_selected)
        self.clock.others.highlighted.connect(self._listed_under_pointer)
        self.clock.others.activated.connect(lambda i: self._light(zone_named(self._listed(i), self.tracks.view)))
        self.lit = None                     # (label, hex ids) of the zone lit on the map
        self.sheets.drawing.connect(self._drawing)
        self.sheets.selected.connect(lambda _sid: self._show_marks())
        self.artillery.picking.connect(self._picking)
        self.mode = ""            # "units", "objective", "route", "target": where the map's clicks go
        self.sheet_marks = self.barrage_marks = self.state_marks = self.zone_marks = None
        self.legal: list[str] = []
        self.last_refusal: Refusal | None = None
        self._was_active = False
        self._tracks_for = None
        self.prep_act = None               # View > Prep Log (BW 2.4), added once the window has its menus
        self.prep_dialog = None
        self.selected_unit = ""            # the unit last picked, clicked or right-clicked: hovering says what it may do
        self.unit_menu = None              # the counter menu last opened (gui/tcs/unitmenu.py)
        self.fire_panel = None             # the fire being prepared (gui/tcs/firepanel.py)
        window.map_view.context_asked.connect(self.counter_menu)
        window.map_view.stack_clicked.connect(self._stack_clicked)

    # ------------------------------------------------------------ the game in the window
    @property
    def session(self) -> TcsSession | None:
        s = self.window.session
        return s if isinstance(s, TcsSession) else None

    def active(self) -> bool:
        return self.session is not None

    def _prep_menu(self, s) -> None:
        """BW 2.4: a game with a Preparatory Barrage Log shows it (read-only: it is fixed once play begins)."""
        menus = getattr(self.window, "menus", None)
        if self.prep_act is None and menus is not None:
            from PySide6.QtGui import QAction
            self.prep_act = QAction("Preparatory Barrage &Log…", self.window)
            self.prep_act.triggered.connect(self.show_prep_log)
            menus.view_menu.addAction(self.prep_act)
        if self.prep_act is not None:
            self.prep_act.setVisible(bool(s is not None and getattr(s.rules, "bw_prep", None)))

    def show_prep_log(self):
        """The game's Log: to fill while the game waits for it (BW 1.10b), else read-only."""
        from .preplog import PrepLogEditor
        s = self.session
        if s is None or not getattr(s.rules, "bw_prep", None):
            return None
        if self._log_wanted(s):
            return self.ask_prep_log()
        log = s.rules.game.prep_log(s.rules, s.state)
        self.prep_dialog = PrepLogEditor(log, s.rules.board, read_only=True, parent=self.window)
        self.prep_dialog.show()
        return self.prep_dialog

    @staticmethod
    def _log_wanted(s) -> bool:
        g = s.rules.game
        return bool(g is not None and hasattr(g, "before_play_offers") and g.before_play_offers(s.rules, s.state))

    def ask_prep_log(self):
        """BW 1.10b: a new game with the own-Prep-Log variant opens the editor (on the historical targets) for the
        Soviet player; "Start with this Log" plays it as the game's first action (the engine checks it)."""
        from .preplog import PrepLogEditor
        s = self.session
        if s is None or not self._log_wanted(s):
            return None
        if self.prep_dialog is not None and self.prep_dialog.isVisible() and self.prep_dialog.for_game:
            return self.prep_dialog
        dlg = PrepLogEditor(s.rules.bw_prep, s.rules.board, parent=self.window, for_game=True)
        dlg.accepted.connect(lambda: self._play_log(dlg))
        self.prep_dialog = dlg
        dlg.show()
        return dlg

    def _play_log(self, dlg) -> None:
        s = self.session
        if s is None:
            return
        result = s.play("preplog " + s.rules.game.encode_log(s.rules, dlg.log()))
        if isinstance(result, Refusal):
            self.window.show_error("The Prep Log is refused", str(result))

    def update(self) -> None:
        """Show the game as it is now (called by the window after every change)."""
        s = self.session
        self._prep_menu(s)
        if s is not None and self._log_wanted(s):
            self.ask_prep_log()                            # BW 1.10b: the Log before anything else
        self.window.map_view.viewer.decorate = self._decorate if s is not None else None
        self.window.map_view.hover_note = self.hover_note if s is not None else None
        if self.fire_panel is not None and self.fire_panel.isVisible() and (s is None or self.fire_panel.state is not s.state):
            self.fire_panel.reject()                       # the game moved on: that fire's working no longer holds
        if s is None:
            if self._was_active:               # which panels show is the window's (gui/play/panels.py)
                self.tracks.hide()
                self.board.hide()
                self._was_active = False
                self._tracks_for = None
                self.mode = ""
            return
        if not self._was_active:
            self._was_active = True
            panels = getattr(self.window, "panels", None)
            if panels is None or not panels.restored:     # the first TCS game: the panels sized for it
                self.sheets.raise_()
                w = self.window
                w.resizeDocks([w.log_dock, self.sheets], [160, 640], Qt.Vertical)
                w.resizeDocks([self.clock, self.pending], [560, 200], Qt.Vertical)
                w.resizeDocks([self.clock, self.sheets], [330, 400], Qt.Horizontal)
        if s is not self._tracks_for:           # a game opened: its tracks dock, raised, or none
            self._tracks_for = s
            self.lit = None
            if has_tracks(s):
                self.tracks.show()
                self.tracks.raise_()            # the fleet and the drop zones are the first thing to see
                self.board.show()
                self.window.resizeDocks([self.board], [300], Qt.Vertical)
            else:
                self.tracks.hide()
                self.board.hide()
        # a past position, or the computer's turn: the panels' buttons wait (nothing is the person's to play)
        self.legal = s.legal_texts() if self.window.viewing_past is None and not s.computer_holding() else []
        self.clock.show_game(s, self.legal, self.shown_elsewhere)
        self.sheets.show_game(s, self.legal)
        self.artillery.show_game(s, self.legal)
        if has_tracks(s):
            self.tracks.show_game(s, self.legal)
            self.board.board.show_game(s, self.tracks.view, self.legal)
        self.pending.show_pending(s.pending(), self.legal, s.rules.scenario.sides, self.chart_dock_asks())
        self._show_marks()
        self._set_click_targets()

    def chart_dock_asks(self) -> bool:
        """Whether the window has a chart prompt panel of its own (gui/charts) that asks the printed results;
        then this Question panel leaves chart prompts to it."""
        return getattr(self.window, "charts", None) is not None

    @staticmethod
    def shown_elsewhere(text: str) -> bool:
        return text.split(" ", 1)[0] in PANEL_VERBS

    def play(self, text: str) -> bool:
        """Play an action a panel asks for; a refusal goes to the window's status line with its rule."""
        s = self.session
        if s is None:
            return False
        result = s.play(text)
        if isinstance(result, Refusal):
            self.last_refusal = result
            self.window.refused(result)
            return False
        self.last_refusal = None
        verb = text.split(" ", 1)[0]
        if verb == "opsheet":
            self.sheets.created()
            self.sheets.stop_drawing()
            self.sheets.select_sheet(text.split()[1])
        elif verb == "mission":
            self.artillery.placed()
        elif verb == "plan":
            self.tracks.planned()
        self.window.statusBar().showMessage(s.log_lines()[-1], 12000)
        self.update()
        return True

    # ------------------------------------------------------------ acting on a counter (menu, drag to fire, hover)
    def _acting(self):
        """The session, if the game shown is the one in play (not a past position)."""
        s = self.session
        return s if s is not None and self.window.viewing_past is None else None

    def counter_menu(self, h, global_pos=None):
        """Right-click on a stack: its units' actions in words, the refused ones greyed with the reason."""
        from .unitmenu import UnitMenu

        s = self._acting()
        view = self.window.map_view
        if s is None or h not in view.stacks:
            return None
        uids = [u.id for u in reversed(view.stacks[h]) if u.id in s.state.units]
        if not uids:
            return None
        self.selected_unit = uids[0]
        if not view.viewer.pinned:
            view.viewer.close()                # the stack's pictures would sit over its menu
        menu = UnitMenu(s.rules, s.state, uids, self.window, held=s.computer_holding())
        menu.play.connect(self.play)
        menu.fire.connect(self.open_fire)
        menu.show_moves.connect(self._light_moves)
        self.unit_menu = menu
        if global_pos is not None:
            menu.popup(global_pos)
        return menu

    def _stack_clicked(self, h) -> None:
        view = self.window.map_view
        if self.active() and h in view.stacks:
            self.selected_unit = view.stacks[h][-1].id
            view.rehover()

    def _light_moves(self, uid: str) -> None:
        s = self._acting()
        if s is None:
            return
        costs, blocked = s.destinations(uid)
        self.window.map_view.show_destinations(costs, blocked)
        self.window.map_view.lift_next = uid        # in a stack, the drag from its hex lifts this unit, not the top one
        self.window.statusBar().showMessage(f"{uid}: drag the counter to a lit hex ({len(costs)} may be entered)", 8000)

    def open_fire(self, firer: str, hex_id: str, kind: str = "", target: str = ""):
        """The fire panel for ``firer`` at the enemy in ``hex_id``: the engine's working, then Fire or Cancel."""
        from .firepanel import FirePanel

        s = self._acting()
        if s is None:
            return None
        if self.fire_panel is None:
            self.fire_panel = FirePanel(self.window)
            self.fire_panel.fire.connect(self.play)
        self.selected_unit = firer
        self.fire_panel.prepare(s.rules, s.state, firer, hex_id, kind, target)
        self.fire_panel.show()
        self.fire_panel.raise_()
        return self.fire_panel

    def _enemies_at(self, s, uid: str, h) -> list[str]:
        side = s.rules.specs[uid].side
        return [k for k in s.rules.units_at(s.state, h) if s.rules.specs[k].side != side]

    def picked(self, unit, h) -> bool:
        """A counter picked up: light where it may move and the enemies it may fire at, or say why neither."""
        from engine.rulesets.tcs.explain import FIRE_KINDS, unit_options

        s = self._acting()
        if s is None or unit.id not in s.state.units:
            return False
        uid = unit.id
        self.selected_unit = uid
        if s.setting_up():                  # the set-up phase: its area lit, where the engine would place it
            hexes, words = s.setup_hexes(uid)
            self.window.map_view.show_destinations({h: None for h in hexes})
            self.window.statusBar().showMessage(words, 12000)
            return True
        costs, blocked = s.destinations(uid)
        opts = unit_options(s.rules, s.state, uid)
        notes = {}
        for o in opts:
            if o.legal and o.kind in FIRE_KINDS:
                at = s.rules.hex(o.target) if o.kind != "point" else s.state.units[o.target].hex
                notes.setdefault(at, f"drop {uid} here to fire ({o.label})")
        self.window.map_view.show_destinations(costs, blocked, notes)
        if costs or notes:
            parts = [f"{len(costs)} hex(es) to move to"] if costs else []
            parts += [f"{len(notes)} enemy hex(es) to fire at: drop it on one to see the fire"] if notes else []
            self.window.statusBar().showMessage(f"{uid}: " + ", ".join(parts), 10000)
            return True
        why = s.why_idle(uid)
        if why is not None:
            self.window.refused(why)
            return True
        move = next(o for o in opts if o.kind == "move")
        fire = next((o for o in opts if o.kind in FIRE_KINDS and not o.legal), None)
        text = f"{uid} may not move: {move.reason}"
        text += f"; nor fire at {fire.target}, the nearest enemy: {fire.reason}" if fire is not None else ""
        self.window.statusBar().showMessage(text + " — right-click it for what it may do", 15000)
        return True

    def dropped(self, unit, frm, to) -> bool:
        """A counter put down on an enemy: the fire panel, nothing moves (True); else the window moves it."""
        s = self._acting()
        if s is None or unit.id not in s.state.units or s.setting_up() or not self._enemies_at(s, unit.id, to):
            return False
        self.window.map_view.set_pieces(s.pieces())
        self.window.clear_message()
        self.open_fire(unit.id, s.rules.hid(to))
        return True

    def hover_note(self, h) -> str:
        """Hovering an enemy with a unit selected: whether that unit may fire at it, and if not, the engine's why."""
        from engine.rulesets.tcs.explain import why_not
        from engine.rulesets.tcs.sight import counter

        s = self._acting()
        uid = self.selected_unit
        if s is None or uid not in s.state.units or s.state.units[uid].hex is None:
            return ""
        enemies = self._enemies_at(s, uid, h)
        if not enemies:
            return ""
        hid = s.rules.hid(h)
        if int(counter(s.rules, s.state, "firepower", uid) or 0) > 0:
            e = why_not(s.rules, s.state, uid, "area", hid)
            return f"{uid} may fire at {hid} (drag it there)" if e is None else f"{uid} cannot fire at {hid}: {e}"
        e = why_not(s.rules, s.state, uid, "point", enemies[-1])
        return f"{uid} may point-fire at {enemies[-1]} (drag it there)" if e is None \
            else f"{uid} cannot fire at {enemies[-1]}: {e}"

    # ------------------------------------------------------------ the map
    def _ensure_marks(self) -> bool:
        view = self.window.map_view
        if view.board is None or view.counters is None:
            return False
        if self.sheet_marks is None or not isValid(self.sheet_marks) or self.sheet_marks.scene() is not view.scene() \
                or self.sheet_marks.board is not view.board:
            self.sheet_marks = SheetMarks(view.board, view.scale_)
            self.barrage_marks = BarrageMarks(view.board, view.scale_)
            self.state_marks = UnitStateMarks(view.counters)
            self.zone_marks = ZoneMarks(view.board, view.scale_)
            for item in (self.sheet_marks, self.barrage_marks, self.state_marks, self.zone_marks):
                view.scene().addItem(item)
        self.state_marks.counters = view.counters
        return True

    def _show_marks(self) -> None:
        s = self.session
        if s is None or not self._ensure_marks():
            return
        st, rules = s.state, s.rules
        sid = self.sheets.current_sheet()
        if sid and sid in st.sheets and getattr(s, "sheet_hidden", lambda _sid: False)(sid):
            self.sheet_marks.show_sheet(None, None)          # the computer's sheet: its objective is its secret
        elif sid and sid in st.sheets:
            objective, route = rules.op_sheet_geometry(st, sid)
            self.sheet_marks.show_sheet(objective, route, sid)
        else:
            self.sheet_marks.show_sheet(None, None)
        self.sheet_marks.show_draft(self.sheets.objective, self.sheets.route)
        markers = [(f"{m.id} {m.kind}", m.kind, m.hex, m.zone) for m in st.markers]
        if rules.game is not None and hasattr(rules.game, "breaches"):     # a game's own map markers (BW 1.4 wire)
            markers += [(what, "breach-" + what.split()[0].lower(), h, [h]) for h, what in rules.game.breaches(rules, st)]
        missions = [(f"{m.battery} {m.ammo}", m.hex) for m in st.missions]
        self.barrage_marks.show_marks(markers, missions, self.artillery.target)
        if has_tracks(s):
            self.zone_marks.show_view(self.tracks.view, self.tracks.dz, self.lit, self.last_drop())
        else:
            self.zone_marks.show_view({})
        states = {h: self.unit_state(units[-1].id) for h, units in self.window.map_view.stacks.items()}
        self.state_marks.show_states({h: v for h, v in states.items() if v is not None})
        if self.window.map_view.viewer.isVisible():
            self.window.map_view.viewer.update()

    def last_drop(self) -> list[dict]:
        """The scatter and the flights of the last parachute assault (Leros 3.6e) and the units landed from the
        sea (1.2f), as the engine logged them, while their turn or the next is played; [] when there was none."""
        s = self.session
        if s is None:
            return []
        out: list[dict] = []
        drops = False
        for entry in reversed(s.game.log):
            found = [e.data for e in entry.events if e.kind in ("drop", "land") and e.data.get("what")]
            if any(d["turn"] < s.state.turn - 1 for d in found):
                break                   # older than the turn before this one
            if drops and any(d["what"] != "landing" for d in found):
                found = [d for d in found if d["what"] == "landing"]     # the last assault only
            drops = drops or any(d["what"] != "landing" for d in found)
            out = found + out
        return out

    def _light(self, zone) -> None:
        """Light a zone on the map (a row of the tracks, an action in a list or a counter of the board named it)."""
        if zone == self.lit:
            return
        self.lit = zone
        self._show_marks()

    def _listed_under_pointer(self, i: int) -> None:
        """An action under the pointer in the open list of other actions lights the zone it names (the list
        refilled after an action lights nothing)."""
        if self.clock.others.view().isVisible():
            self._light(zone_named(self._listed(i), self.tracks.view))

    def _listed(self, i: int) -> str:
        """The action of row ``i`` of the list of other actions: its text form (the row's data) or its words."""
        others = self.clock.others
        data = others.itemData(i)
        return data if isinstance(data, str) and data else others.itemText(i)

    def _board_selected(self, picked: list) -> None:
        """A boat or a Ju-52 selected on the track board lights its zone; an empty Ju-52 in Athens and the units
        selected with it fill the flight form, and the next map click is its drop zone."""
        view = self.tracks.view
        zone = None
        for kind, cid in picked:
            if kind == "boat":
                b = next((x for box in view.get("sea", []) for x in box["boats"] if x["id"] == cid), None)
                if b and b["load"] and b["lz"] and not b["returning"]:
                    zone = zone_named(f"lz {b['lz']}", view)
            elif kind == "plane":
                p = next((x for box in view.get("air", []) for x in box["planes"] if x["id"] == cid), None)
                if p and p["dz"]:
                    zone = zone_named(f"dz {p['dz']}", view)
        self._light(zone)
        athens = next((b for b in view.get("air", []) if b["box"] == "athens"), {"planes": [], "units": []})
        plane = next((cid for kind, cid in picked if kind == "plane"
                      and any(p["id"] == cid and not p["load"] for p in athens["planes"])), "")
        units = [cid for kind, cid in picked if kind == "unit" and cid in athens["units"]]
        if plane or units:
            self.tracks.choose(plane, units)
        if plane and units and self.tracks.pick_dz.isEnabled() and not self.tracks.pick_dz.isChecked():
            self.tracks.raise_()
            self.tracks.pick_dz.setChecked(True)          # the next map click plans the flight
            self.window.statusBar().showMessage(f"Click the drop zone hex on the map for {plane} with "
                                                f"{', '.join(units)}", 12000)

    def unit_state(self, uid: str) -> tuple | None:
        """``(mode, morale, steps lost, steps)`` of a unit as ``unit_status`` gives it, or None."""
        s = self.session
        if s is None or uid not in s.state.units:
            return None
        us = s.rules.unit_status(s.state, uid)
        return us["mode"], us["morale"], us["steps_lost"], us["steps"]

    def _decorate(self, painter, unit, rect) -> None:
        """Each counter in the stack viewer carries its state too (not only the top one on the map)."""
        state = self.unit_state(unit.id)
        if state is not None:
            paint_state(painter, rect, rect.width(), state)

    def _drawing(self, what: str) -> None:
        if what:
            self.mode = what
            if self.artillery.pick_target.isChecked():
                self.artillery.pick_target.setChecked(False)
        elif self.mode in ("objective", "route", "units"):
            self.mode = ""
        self._show_marks()
        self._set_click_targets()
        if what:
            self.window.statusBar().showMessage(
                "Click hexes on the map for the new sheet's " + what, 8000)     # units, objective or route

    def _picking(self, on: bool) -> None:
        if on:
            self.mode = "target"
            self.sheets.stop_drawing()
            self.window.statusBar().showMessage("Click the mission's target hex on the map", 8000)
        elif self.mode == "target":
            self.mode = ""
        self._set_click_targets()

    def _picking_dz(self, on: bool) -> None:
        if on:
            self.mode = "dz"
            self.sheets.stop_drawing()
            if self.artillery.pick_target.isChecked():
                self.artillery.pick_target.setChecked(False)
            self.window.statusBar().showMessage("Click the flight's drop zone hex on the map", 8000)
        elif self.mode == "dz":
            self.mode = ""
        self._set_click_targets()

    def _go_to(self, hex_id: str) -> None:
        view = self.window.map_view
        if view.board is not None:
            view.centre_on_hex(view.board.parse_hex(hex_id))

    def _set_click_targets(self) -> None:
        view = self.window.map_view
        if self.mode and view.board is not None:
            view.click_targets = set(view.board.hexes())     # a click on a counter picks its hex, too
        elif self.active():
            view.click_targets = set(self.window._choice_targets)     # a decision's hexes (a retreat) or none

    def hex_clicked(self, h) -> bool:
        """A map click: taken when a panel is picking hexes (True), else left to the window."""
        if self.session is None or not self.mode:
            return False
        if self.mode in ("objective", "route", "units"):
            self.sheets.hex_picked(h)
        elif self.mode == "target":
            self.artillery.hex_picked(h)
            self.mode = ""
            self._set_click_targets()
        elif self.mode == "dz":
            self.tracks.hex_picked(self.session.rules.hid(h))
            self.mode = ""
            self._set_click_targets()
        self._show_marks()
        return True
