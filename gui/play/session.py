"""A game in progress as the window sees it: the engine's Game, asked and told, never second-guessed.

Everything about legality comes from the ruleset: where a unit may go and at
what cost (``rules.destinations``), whether a move or the end of a phase is
allowed (``Game.play`` raising ``IllegalAction`` with its rule), and what
happened (the events of each action).  This module only turns those answers
into what the window shows.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from engine.errors import IllegalAction
from engine.maps.hexes import Hex

from gui.scene.tablelook import dressed


@dataclass(frozen=True)
class Refusal:
    """A refused action: the rule reference and the sentence for the player."""

    rule: str
    message: str

    def __str__(self) -> str:
        return f"{self.rule}: {self.message}" if self.rule else self.message


class PlaySession(QObject):
    """One game: its scenario, the engine's Game and the board; ``changed`` after every action."""

    changed = Signal()

    def __init__(self, scenario, board, seed: int | None = None, parent=None, game=None):
        super().__init__(parent)
        from engine.game import Game, load_rules

        self.scenario = scenario
        self.board = board
        if game is None:          # a fresh seed unless one is given: every new game has its own dice
            from gui.common.newgame import random_seed

            game = Game(load_rules(scenario.path), random_seed() if seed is None else seed, scenario.path)
        self.game = game
        self.rules = game.rules
        self.path: Path | None = None          # where this game was last saved or opened from
        self.computer = game.computer          # who the computer plays (engine.computer.ComputerSides), or None
        self.table_holder = None               # while the computer plays: the side it is playing now, or None
        self._by_computer: list[bool] = []     # beside each log entry: played by the computer
        self._reasons: dict[int, tuple[str, str]] = {}   # log entry (from 1) -> (its action, the computer's reason)
        if game.computer is not None:          # a saved game: which of its actions the computer played, and why
            n = len(game.log)
            self._by_computer = [i in game.computer.played for i in range(1, n + 1)]
            self._reasons = {i: (game.log[i - 1].action.text(), why)
                             for i, why in game.computer.reasons.items() if i <= n}
        self._redo_by_computer: list[bool] = []
        self._saved_actions: list = []         # the log as last saved or opened from a file (unsaved(): it differs)

    @classmethod
    def open_saved(cls, path: Path, parent=None) -> "PlaySession":
        """A saved game: its scenario checked against the recorded hash, its log replayed (BadFile if not)."""
        from engine.game import load_game

        game = load_game(path)
        session = cls.of_game(game, parent)
        session.path = Path(path)
        session.mark_saved()
        return session

    @classmethod
    def of_game(cls, game, parent=None) -> "PlaySession":
        """A session on a game already built (a saved game replayed, or as it stood before a refused action)."""
        from engine.scenario import load_scenario, scenario_board

        scenario = load_scenario(game.scenario_path)
        return cls(scenario, scenario_board(scenario), parent=parent, game=game)

    # ------------------------------------------------------------ what is on the map
    @property
    def state(self):
        return self.game.state

    def pieces(self) -> list[tuple[object, Hex]]:
        """``(scenario unit, hex)`` of every unit the current state has on the map, in the scenario's order."""
        return self.pieces_of(self.state)

    def past(self, n: int):
        """The game as it was after its first ``n`` actions (replayed from the log: dice included)."""
        from engine.game import replay

        return replay(self.rules, self.game.seed, self.game.actions_text()[:n], self.game.scenario_path,
                      getattr(self.game, "variants", ()))

    def pieces_of(self, state) -> list[tuple[object, Hex]]:
        """``(scenario unit, hex)`` of every unit a state has on the map."""
        units = getattr(state, "units", {})
        on_map = getattr(state, "on_map", None)       # a unit eliminated in its hex keeps the hex but is gone
        ask = getattr(self.rules, "looks", None)      # face down, back up, markers (the table's rulesets)
        looks = ask(state) if ask is not None else {}
        out = []
        for uid, unit in self.scenario.units.items():
            h = getattr(units.get(uid), "hex", None)
            if isinstance(h, Hex) and (on_map is None or on_map(uid)):
                out.append((dressed(unit, looks.get(uid)) if looks else unit, h, getattr(units[uid], "z", 0)))
        out.sort(key=lambda t: t[2])                   # the last put down on top (stable: the scenario's order)
        return [(u, h) for u, h, _ in out]

    def save_tag(self) -> str:
        """The turn in a save's name, as the phase bar shows it: ``turn3`` ("" without turns)."""
        turn = getattr(self.state, "turn", None)
        return f"turn{turn}" if turn is not None else ""

    def turn_text(self, state=None) -> str:
        st = state if state is not None else self.state
        turn = getattr(st, "turn", None)
        last = getattr(self.scenario, "last_turn", None)
        phase = str(getattr(st, "phase", "")).replace("-", " ")
        phase = phase[:1].upper() + phase[1:]          # "German reinforcement", as the phases are named
        head = f"Turn {turn}" + (f" of {last}" if last else "")
        return f"{head} — {phase}" if phase else head

    # ------------------------------------------------------------ asking the rules
    def destinations(self, uid: str) -> tuple[dict[Hex, int | None], dict[Hex, str]]:
        """Where a unit may move now, with the cost of getting there, and why blocked neighbours are blocked.

        The legal moves are the game's legal actions (the one source of legality);
        the costs and reasons come from the ruleset's ``destinations`` query when it has one.
        """
        prefix = f"move {uid} "
        legal: set[Hex] = set()
        for action in self.game.legal_actions():
            if action.text().startswith(prefix) and getattr(action, "to", None):
                try:
                    legal.add(self.board.parse_hex(action.to))
                except ValueError:
                    continue
        costs: dict = {}
        blocked: dict = {}
        ask = getattr(self.rules, "destinations", None)
        if ask is not None:
            reach = ask(self.state, uid)
            costs = dict(getattr(reach, "destinations", {}) or {})
            blocked = dict(getattr(reach, "blocked", {}) or {})
        return {h: costs.get(h) for h in legal}, blocked

    def why_idle(self, uid: str) -> Refusal | None:
        """Why a unit can do nothing now, with its rule, as the ruleset says; None if it may act (or the ruleset
        does not say)."""
        ask = getattr(self.rules, "why_idle", None)
        e = ask(self.state, uid) if ask is not None else None
        return Refusal(e.rule, e.message) if e is not None else None

    def units_to_act(self) -> set[str]:
        """The units that may act now, as the ruleset says (none when it does not say)."""
        ask = getattr(self.rules, "units_to_act", None)
        return set(ask(self.state)) if ask is not None else set()

    def guidance(self) -> str:
        """The ruleset's one line of guidance for the phase now (or the decision pending)."""
        ask = getattr(self.rules, "guidance", None)
        return ask(self.state) if ask is not None else ""

    # ------------------------------------------------------------ units off the map
    def off_map(self) -> dict[str, str]:
        """Unit id -> status (as the ruleset names it) of every unit not on the map now."""
        units = getattr(self.state, "units", {})
        on_map = getattr(self.state, "on_map", None)
        out = {}
        for uid in self.scenario.units:
            us = units.get(uid)
            gone = on_map is not None and not on_map(uid)
            if us is not None and (gone or not isinstance(getattr(us, "hex", None), Hex)):
                out[uid] = str(getattr(us, "status", "off the map"))
        return out

    def entries(self, uid: str) -> dict[Hex, str]:
        """Hexes where a unit off the map may be brought in now, with the action's verb (enter, drop)."""
        out = {}
        for action in self.game.legal_actions():
            words = action.text().split()
            if len(words) == 3 and words[1] == uid and words[0] in ("enter", "drop"):
                try:
                    out[self.board.parse_hex(words[2])] = words[0]
                except ValueError:
                    continue
        return out

    def bring_in(self, uid: str, to: Hex) -> list | Refusal:
        """Bring a unit onto the map at ``to`` the way the rules allow there (enter, or drop)."""
        verb = self.entries(uid).get(to, "enter")
        return self.play(f"{verb} {uid} {self.board.hex_id(to)}")

    # ------------------------------------------------------------ battles
    def defender_in(self, h: Hex, attacker) -> object | None:
        """The enemy unit on top in hex ``h`` that the rules would let be attacked now, or None."""
        for unit, where in reversed(self.pieces()):
            if where == h and unit.side != attacker.side:
                prefix = f"attack {unit.id} by "
                if any(a.text().startswith(prefix) for a in self.game.legal_actions()):
                    return unit
                return None
        return None

    def can_attack(self) -> bool:
        """Whether the rules allow announcing a battle now."""
        return any(a.text().startswith("attack ") for a in self.game.legal_actions())

    def odds(self, defender: str, attackers: list[str]):
        """The ruleset's arithmetic for a battle (strengths, modifiers with rules, odds column), or None."""
        ask = getattr(self.rules, "odds", None)
        return ask(self.state, defender, tuple(attackers)) if ask is not None and attackers else None

    def chances(self, column: int) -> list[tuple[str, int]]:
        """Each result of the ruleset's combat table in a column with the number of die faces giving it."""
        crt = getattr(getattr(self.rules, "tables", None), "crt", None)
        if crt is None or not column:
            return []
        counts: dict[str, int] = {}
        for die in range(1, 7):
            r = crt(die, column)
            counts[r] = counts.get(r, 0) + 1
        return sorted(counts.items(), key=lambda kv: -kv[1])

    def battles(self) -> list:
        """Declared battles of this phase (``defender``, ``attackers``, ``resolved``)."""
        return list(getattr(self.state, "battles", []) or [])

    def pending_choices(self) -> list[str]:
        """When a result leaves a choice to make (a retreat, an advance), the legal ways to make it.

        A printed chart's result is asked in the chart prompt dock (gui/charts), not here.
        """
        from engine.charts import pending_chart_prompt

        if not getattr(self.state, "pending", None) or pending_chart_prompt(self.rules, self.state) is not None:
            return []
        return [a.text() for a in self.game.legal_actions()]

    def choice_hexes(self) -> dict[Hex, str]:
        """The pending choice's options that can be pointed at on the map: hex -> the action's text.

        A retreat by the hex it goes to; an advance by the hex of the attacker
        that advances, and "none" by the vacated hex itself.
        """
        out: dict[Hex, str] = {}
        choices = self.pending_choices()
        pending = getattr(self.state, "pending", None) or []
        units = getattr(self.state, "units", {})
        for text in choices:
            words = text.split()
            try:
                if len(words) == 3 and words[0] == "retreat" and words[2] != "off":
                    out[self.board.parse_hex(words[2])] = text
                elif len(words) == 2 and words[0] == "advance":
                    if words[1] == "none":
                        where = pending[0].get("hex") if pending and isinstance(pending[0], dict) else None
                    else:
                        where = getattr(units.get(words[1]), "hex", None)
                    if isinstance(where, Hex):
                        out[where] = text
            except ValueError:
                continue
        return out

    def advance_into(self) -> Hex | None:
        """The hex an attacker may advance into now (a pending advance after combat), or None."""
        for h, text in self.choice_hexes().items():
            if text == "advance none":
                return h
        return None

    # ------------------------------------------------------------ telling the game
    def play(self, text: str, by_computer: bool = False, why: str = "") -> list | Refusal:
        """Play one action in its text form (``by_computer``: the computer's, ``why`` its reason in one line, shown
        in the log); the events, or the refusal with its rule.  While the computer plays a side (not paused), the
        person's own actions are refused: the panels' buttons must not play for it behind its back."""
        name = self.computer_holding() if not by_computer else ""
        if name:
            return Refusal("", f"The computer is playing {name} now: wait for it, or pause it "
                               "(Pause the computer, Ctrl+Shift+P) to play for it yourself")
        try:
            marks = self._marks()
            events = self.game.play(text)
        except IllegalAction as e:
            return Refusal(e.rule, e.message)
        if why:
            self._reasons[len(self.game.log)] = (text, why)
        self._by_computer = marks + [bool(by_computer)]
        self._redo_by_computer = []
        self.changed.emit()
        return events

    def computer_holding(self) -> str:
        """The name of the side the computer is playing now (not paused), or "": the person's actions wait."""
        side = self.table_holder() if self.table_holder is not None else None
        return getattr(self.scenario.sides.get(side), "name", side) if side else ""

    # ------------------------------------------------------------ who played what
    def _marks(self) -> list[bool]:
        """The computer marks, one per log entry (entries played around this session count as the player's)."""
        n = len(self.game.log)
        return (self._by_computer + [False] * n)[:n]

    def _redo_marks(self) -> list[bool]:
        n = self.game.redo_depth()
        return ([False] * n + self._redo_by_computer)[-n:] if n else []

    def by_computer(self, i: int) -> bool:
        """Whether the log's entry ``i`` (from 0) was played by the computer."""
        marks = self._marks()
        return 0 <= i < len(marks) and marks[i]

    def my_undo_count(self) -> int:
        """How many log entries the player's undo takes back: the computer's last ones and the player's own before them
        (boardgame.io's rule: a player undoes only their own moves); 0 when the player has none to undo.

        An answer read from the owner's chart goes with the action that asked for it (else it would be read again
        at once), also in a game reopened from a file that kept no marks."""
        marks = [m or getattr(e.action, "from_owner", False) for m, e in zip(self._marks(), self.game.log)]
        n = 0
        while marks and marks[-1]:
            marks.pop()
            n += 1
        return n + 1 if marks else 0

    def move(self, uid: str, frm: Hex, to: Hex, path: list[Hex] | None = None) -> list | Refusal:
        """Move a unit from one hex to another: along ``path`` (its hexes from ``frm`` to ``to``) if given, else
        the engine picks the cheapest legal path."""
        if to not in self.board:
            return Refusal("", "that is off the map")
        hexes = list(path) if path and len(path) > 2 else [frm, to]
        return self.play(f"move {uid} {'-'.join(self.board.hex_id(h) for h in hexes)}")

    def move_traced(self, uid: str, frm: Hex, to: Hex, path: list[Hex]) -> tuple[list | Refusal, Refusal | None]:
        """Move along the traced path if the rules accept it, else by the cheapest legal path.

        Returns the result of the move made (or the refusal of the destination)
        and, when the traced path itself was refused, that refusal.
        """
        if not path or len(path) < 3:
            return self.move(uid, frm, to), None
        result = self.move(uid, frm, to, path)
        if not isinstance(result, Refusal):
            return result, None
        return self.move(uid, frm, to), result

    # ------------------------------------------------------------ victory
    def standing(self, state=None) -> list:
        """Each victory condition's standing in a state (default: now), as the ruleset judges it; [] if it cannot."""
        ask = getattr(self.rules, "standing", None)
        return list(ask(state if state is not None else self.state)) if ask is not None else []

    def end_phase(self) -> list | Refusal:
        return self.play("end")

    def undo(self) -> str | Refusal:
        """Take back the player's own last action and every action of the computer's since; its text."""
        if not self.game.can_undo():
            return Refusal("", "there is nothing to undo")
        count = self.my_undo_count()
        if count == 0:
            return Refusal("", "only the computer has played since the start: there is nothing of yours to undo")
        marks, redo_marks = self._marks(), self._redo_marks()
        for _ in range(count):
            entry = self.game.undo()
            redo_marks.append(marks.pop())
        self._by_computer, self._redo_by_computer = marks, redo_marks
        self.changed.emit()
        return entry.action.text()

    def redo(self) -> str | Refusal:
        """Play again the player's action last taken back and the computer's actions that followed it; its text."""
        if not self.game.can_redo():
            return Refusal("", "there is nothing to redo")
        marks, redo_marks = self._marks(), self._redo_marks()
        first = None
        while self.game.can_redo():
            self.game.redo()
            marks.append(redo_marks.pop())
            first = first or self.game.log[-1].action.text()
            if not redo_marks or not redo_marks[-1]:
                break
        self._by_computer, self._redo_by_computer = marks, redo_marks
        self.changed.emit()
        return first

    def log_lines(self) -> list[str]:
        """Every action so far with the events it caused, in words."""
        from engine.charts import chart_answer_words

        lines = []
        for i, entry in enumerate(self.game.log, start=1):
            said = chart_answer_words(self.rules, entry.action)         # a chart read: which chart, which cell, what
            events = "; ".join(e.text for e in entry.events if getattr(e, "text", "")
                               and not (said and getattr(e, "kind", "") == "chart"))    # not the cell said again
            owners = entry.action.text().endswith("(owner's chart)")      # played for the owner, from their chart
            who = "[computer] " if self.by_computer(i - 1) and not owners else ""
            reason = getattr(self, "_reasons", {}).get(i)
            text = entry.action.text()
            words = reason[1] if reason and reason[0] == text else ""
            if words.startswith(text + ": "):      # the reason opens with the action the line already gives
                words = words[len(text) + 2:]
            why = f" ({words})" if words else ""
            text = said or text
            if who and self._secret_plans():
                shown = self._shown(text)
                if shown != text:             # the computer's written plan, hidden until revealed (its reason too)
                    text, why, events = shown, " (its plan is secret until revealed)", ""
                elif why:                     # a reason naming a hex of a secret objective or route: that hex hidden
                    why = f" ({self._shown_reason(words)})"
            lines.append(f"{i}. {who}{text}{why}" + (f" — {events}" if events else ""))
        return lines

    def _secret_plans(self) -> bool:
        """Whether the computer plays a side whose written plans the rules keep secret (the TCS: Op Sheets)."""
        return self.computer is not None and bool(self.computer.sides) and getattr(self.rules, "name", "") == "tcs"

    def _shown(self, text: str) -> str:
        from engine.rulesets.tcs.secrets import hidden_text

        return hidden_text(self.state, text)

    def _shown_reason(self, why: str) -> str:
        from engine.rulesets.tcs.secrets import hidden_reason

        return hidden_reason(self.state, self.rules, why, set(self.computer.sides))

    def sheet_hidden(self, sheet_id: str) -> bool:
        """Whether an Op Sheet's objective and route are the computer's secret now (engine.rulesets.tcs.secrets)."""
        if not self._secret_plans():
            return False
        from engine.rulesets.tcs.secrets import sheet_hidden

        return sheet_hidden(self.state, sheet_id, set(self.computer.sides))

    def set_computer(self, sides, options: dict | None = None, bot: str = "baseline") -> None:
        """The sides the computer plays from now on, and with which player (none: the player plays every side)."""
        from engine.computer import ComputerSides

        self.computer = ComputerSides(tuple(sorted(sides)), bot, options=dict(options or {})) if sides else None

    def write(self, path: Path) -> None:
        """Write the game to ``path`` (atomically: the engine writes a whole file or none), with the sides the
        computer plays and the actions it played; the session's own file stays as it is (an autosave)."""
        from dataclasses import replace

        marks = self._marks()
        played = tuple(i for i, mark in enumerate(marks, start=1) if mark)
        reasons = {i: why for i, (text, why) in sorted(self._reasons.items())
                   if i <= len(marks) and marks[i - 1] and self.game.log[i - 1].action.text() == text}
        self.game.computer = (replace(self.computer, played=played, reasons=reasons)
                              if self.computer is not None else None)
        self.game.save(path)

    def save(self, path: Path) -> None:
        """Write the saved game and make ``path`` the game's file."""
        self.write(path)
        self.path = Path(path)
        self.mark_saved()

    def mark_saved(self) -> None:
        """The game as it stands is in its file."""
        self._saved_actions = [e.action for e in self.game.log]

    def unsaved(self) -> bool:
        """Whether the game has actions (or undos) that no file of the user's holds; the autosave does not count."""
        return [e.action for e in self.game.log] != self._saved_actions
