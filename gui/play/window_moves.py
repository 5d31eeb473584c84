"""The play window's answers to the map and the tray: a counter picked up and dropped (a move, a battle,
an advance), units set up from the tray, battles declared and resolved, choices made; a part of
:class:`~gui.play.window.MainWindow`."""
from __future__ import annotations

from gui.play.session import Refusal
from gui.scene.tray import setup_hexes, waiting_to_set_up


class WindowMoves:
    """The map and tray part of the play window (``self`` is the ``MainWindow``)."""

    def _picked(self, unit, h) -> None:
        if self.session is None or self.tcs.picked(unit, h):      # a TCS counter: its moves and fire targets
            return
        into = self.session.advance_into()
        if into is not None and f"advance {unit.id}" in self.session.pending_choices():
            self.map_view.show_destinations({into: None})
            self.statusBar().showMessage(f"{unit.id}: drop it in {self.board.hex_id(into)} to advance", 8000)
            return
        costs, blocked = self.session.destinations(unit.id)
        self.map_view.show_destinations(costs, blocked)
        if costs:
            text = f"{unit.id}: {len(costs)} legal destination(s)"
        else:
            why = self.session.why_idle(unit.id)
            if why is not None:                   # the rules say why, citing the rule and the phase that allows it
                self.refused(why)
                return
            text = (f"{unit.id}: drop it on an enemy unit to prepare a battle" if self.session.can_attack()
                    else f"{unit.id} has nothing to do now")
        self.statusBar().showMessage(text, 8000)

    def _dropped(self, unit, frm, to) -> None:
        """A counter was put down on another hex: ask the game; a refusal snaps it back with its rule."""
        if self.session is None or self.tcs.dropped(unit, frm, to):    # a TCS unit on an enemy: the fire panel
            return
        defender = self.session.defender_in(to, unit)
        if defender is not None:
            # dropped on an enemy the rules let be attacked: prepare that battle, nothing moves
            self.combat.add_attacker(defender.id, unit.id)
            self.clear_message()
            self._show_preparation()
            self.map_view.set_pieces(self.session.pieces())
            return
        if to == self.session.advance_into() and f"advance {unit.id}" in self.session.pending_choices():
            self.make_choice(f"advance {unit.id}")    # an attacker dragged into the hex it may advance into
            return
        result, traced = self.session.move_traced(unit.id, frm, to, self.map_view.traced_path(frm, to))
        if isinstance(result, Refusal):
            self.map_view.set_pieces(self.session.pieces())
            self._show_choice_targets()
            self.refused(result)
            return
        line = self.session.log_lines()[-1]
        if traced is not None:
            self.last_refusal = str(traced)
            line = f"The path traced is refused ({traced}); moved by the cheapest path instead: {line}"
        self.statusBar().showMessage(line, 12000)

    def _show_choice_targets(self) -> None:
        """A pending choice's options are lit on the map (where a unit retreats; which attacker advances, or none);
        a click on one makes it."""
        targets = self.session.choice_hexes() if self.session is not None else {}
        self._choice_targets = targets
        self.map_view.click_targets = set(targets)
        self.map_view.show_destinations({h: None for h in targets})
        if not targets:
            return
        into = self.session.advance_into()
        if into is not None:
            hid = self.board.hex_id(into)
            self.statusBar().showMessage(f"Advance after combat: click a lit attacker (or drag it into {hid}) to "
                                         f"advance it; click {hid} itself to stay put (or use the battle panel)",
                                         15000)
        else:
            self.statusBar().showMessage("Click a lit hex to choose where the unit retreats "
                                         "(or pick a choice in the battle panel)", 10000)

    def _show_victory_line(self, ids: list) -> None:
        if self.board is None:
            return
        hexes = []
        for hid in ids:
            try:
                hexes.append(self.board.parse_hex(hid))
            except ValueError:
                return
        self.map_view.show_line(hexes)

    def _hex_clicked(self, h) -> None:
        if self.tcs.hex_clicked(h):        # a TCS panel picking hexes (an Op Sheet's objective, a mission's target)
            return
        text = self._choice_targets.get(h)
        if text is not None:
            self.make_choice(text)

    def _to_set_up(self) -> set[str]:
        """Units the player still has to set up (off the map as the game started them, of a side set up by the player)."""
        s = self.session
        if s is None or not any(side.player_setup for side in s.scenario.sides.values()):
            return set()
        game = s.game
        if self._first_state[0] is not game:
            self._first_state = (game, game.rules.initial_state(game.seed))
        return waiting_to_set_up(s.scenario, self._first_state[1], s.off_map())

    def _tray_picked(self, uid: str) -> None:
        if self.session is None:
            return
        if uid in self._to_set_up():
            hexes = setup_hexes(self.session.game, self.session.board, uid)
            self.map_view.show_destinations({h: None for h in hexes})
            self.statusBar().showMessage(f"{uid}: {len(hexes)} hex(es) where it may be set up now" if hexes else
                                         f"{uid} may not be set up now", 8000)
            return
        entries = self.session.entries(uid)
        self.map_view.show_destinations({h: None for h in entries})
        self.statusBar().showMessage(f"{uid}: {len(entries)} hex(es) where it may come in now" if entries else
                                     f"{uid} may not come onto the map now", 8000)

    def _tray_dropped(self, uid: str, h) -> None:
        if self.session is None:
            return
        if uid in self._to_set_up():
            result = self.session.play(f"place {uid} {self.session.board.hex_id(h)}")
        else:
            result = self.session.bring_in(uid, h)
        if isinstance(result, Refusal):
            self.refused(result)
        else:
            self.statusBar().showMessage(self.session.log_lines()[-1], 8000)

    def _show_preparation(self) -> None:
        c = self.combat
        odds = self.session.odds(c.defender, c.attackers)
        c.show_preparation(odds, self.session.chances(odds.column) if odds is not None else [])

    def declare_battle(self, defender: str, attackers: list) -> None:
        if self.session is None:
            return
        result = self.session.play(f"attack {defender} by {'+'.join(attackers)}")
        if isinstance(result, Refusal):
            self.refused(result)
            return
        self.combat.clear()
        self.combat.show_result([e.text for e in result])

    def resolve_battle(self, defender: str) -> None:
        if self.session is None:
            return
        result = self.session.play(f"resolve {defender}")
        if isinstance(result, Refusal):
            self.refused(result)
            return
        self.combat.show_result([e.text for e in result])
        self.statusBar().showMessage("; ".join(e.text for e in result), 15000)

    def make_choice(self, text: str) -> None:
        if self.session is None:
            return
        result = self.session.play(text)
        if isinstance(result, Refusal):
            self.refused(result)
        else:
            self.combat.show_result([e.text for e in result])
            if not self._choice_targets:
                self.statusBar().showMessage(self.session.log_lines()[-1], 8000)

    def _group_dropped(self, group: list, to) -> None:
        """Selected stacks put down together: one move per unit, as the rules allow, stopping at a refusal."""
        if self.session is None:
            return
        moved = 0
        for unit, frm in group:
            result = self.session.move(unit.id, frm, to)
            if isinstance(result, Refusal):
                self.refused(Refusal(result.rule, f"{unit.id}: {result.message} ({moved} of {len(group)} moved)"))
                self.map_view.set_pieces(self.session.pieces())
                return
            moved += 1
        self.statusBar().showMessage(f"{moved} units moved to {self.board.hex_id(to)}", 8000)
