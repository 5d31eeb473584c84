"""A Tactical Combat Series game as the play window sees it: the scenario as counters, moves one hex a step.

The TCS reads its own scenario format, so the window gets a small view of it
here (units by id, sides with colours, the name and files) shaped like the
scenarios the window already shows.  :class:`TcsSession` is the window's
:class:`~gui.play.session.PlaySession` for such a game: a unit dragged along several
hexes plays one ``move`` action per hex, stopping at the first refusal or at a
question the move raised (overwatch).  It goes along the path traced when the
rules accept all of it, else along the engine's cheapest legal path; the hexes
lit are those the engine says the unit can reach.  Everything is asked of the engine.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from engine.errors import IllegalAction
from engine.maps.hexes import Hex, are_adjacent

from gui.play.session import PlaySession, Refusal

SIDE_COLOURS = ("#c8553d", "#5b7fa8", "#7a9a4a", "#b08a3c")      # counter fill per side, in the scenario's order


def is_tcs_file(path) -> bool:
    """Whether a TOML file is a TCS scenario (``[scenario] ruleset = "tcs"``)."""
    from engine.fileio import read_toml

    try:
        head = read_toml(Path(path)).get("scenario")
    except Exception:          # unreadable files are reported by whoever opens them for real
        return False
    return isinstance(head, dict) and head.get("ruleset") == "tcs"


@dataclass(frozen=True)
class TcsSide:
    id: str
    name: str
    colour: str
    branches: dict = field(default_factory=dict)
    player_setup: bool = False


@dataclass(frozen=True)
class TcsCounter:
    """A unit as the counter layer draws it: id, side, type and what the counter face prints."""

    id: str
    side: str
    type: str
    formation: str = ""
    vehicle: bool = False
    fo: bool = False
    name: str = ""
    size: str = ""
    hex: str = ""


class TcsScenarioView:
    """A TCS scenario shaped like the window's scenarios: ``units`` and ``sides`` by id, ``name``, ``path``."""

    ruleset = "tcs"

    def __init__(self, tcs):
        self.tcs = tcs
        self.id, self.name, self.path = tcs.id, tcs.name, str(tcs.path)
        self.board = tcs.board
        self.map_path = str((Path(tcs.path).parent / tcs.map).resolve()) if tcs.map else ""
        self.sides = {s.id: TcsSide(s.id, s.name, SIDE_COLOURS[i % len(SIDE_COLOURS)])
                      for i, s in enumerate(tcs.sides.values())}
        self.units = {u.id: TcsCounter(u.id, u.side, u.type, u.formation, u.vehicle, u.fo, u.id, "", u.hex)
                      for u in tcs.units}
        self.last_turn = None
        self.variants = ()
        self.deployments = {}
        self.reinforcements = ()


def load_tcs_view(path) -> TcsScenarioView:
    """The TCS scenario file as the window shows it (BadFile naming the file and key if it is bad)."""
    from engine.rulesets.tcs import load_tcs_scenario

    return TcsScenarioView(load_tcs_scenario(path))


class TcsSession(PlaySession):
    """A TCS game in the window: the clock as the turn text, multi-hex drags as one move per hex."""

    @classmethod
    def open_saved(cls, path: Path, parent=None) -> "TcsSession":
        from engine.game import load_game

        game = load_game(path)
        view = load_tcs_view(game.scenario_path)
        session = cls(view, view.board, parent=parent, game=game)
        session.path = Path(path)
        session.mark_saved()
        return session

    def save_tag(self) -> str:
        """The turn in a save's name as the clock shows it: ``turn1-0500-10-feb`` (the turns are counted from 1)."""
        import re

        st = self.state
        label = self.rules.turns[min(st.turn, len(self.rules.turns) - 1)].label
        return f"turn{st.turn + 1}-" + re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-")

    def turn_text(self, state=None) -> str:
        st = state if state is not None else self.state
        return self.rules.clock(st)

    def pending_choices(self) -> list[str]:
        """The battle panel stays quiet: TCS questions are answered in the TCS prompt panel."""
        return []

    def pending(self) -> dict | None:
        """The question the game waits for (a chart prompt or a choice), or None."""
        p = self.state.pending
        return p[0] if p else None

    def end_phase(self) -> list | Refusal:
        """Next step; while a question waits, the refusal says where to answer it (not the engine's action text)."""
        p = self.pending() if not self.game.is_over() else None
        if p is not None and p["kind"] == "chart":
            return Refusal("", f"answer the question first: {p['prompt'].title} is asked in the Printed chart panel "
                               "(read the cell on your chart and enter it)")
        if p is not None:
            from engine.rulesets.tcs.steps import question_text

            return Refusal("", f"answer the question first, in the Question panel: {question_text(self.rules, p)}")
        return super().end_phase()

    def choice_hexes(self) -> dict[Hex, str]:
        """A pending decision whose options are hexes (where a unit retreats): hex -> the action choosing it."""
        p = self.pending()
        out: dict[Hex, str] = {}
        if p is None or p["kind"] != "choice":
            return out
        for option in p["options"]:
            try:
                out[self.board.parse_hex(option)] = f"choose {p['what']} {option}"
            except ValueError:
                continue
        return out

    def legal_texts(self) -> list[str]:
        return [a.text() for a in self.game.legal_actions()]

    def setting_up(self) -> bool:
        """Whether the game is in its set-up phase before turn 1 (engine/rulesets/tcs/setupphase.py)."""
        st = self.state
        return bool(getattr(st, "setup", None)) and not st.over and not st.pending

    def setup_hexes(self, uid: str) -> tuple[set, str]:
        """Where ``uid`` may be set up now (the engine's checks) and a line saying so, or why it may not move."""
        rules, st = self.rules, self.state
        spec = rules.specs.get(uid)
        side = rules.acting_side(st)
        name = rules.side_name(side)
        if spec is None or st.units[uid].hex is None or uid not in rules.setup_phase.areas:
            return set(), f"{uid} starts where the scenario puts it: it has no set-up area to choose in"
        if spec.side != side:
            return set(), (f"{uid} is set up in the {rules.side_name(spec.side)} set-up; now the {name} set up "
                           f"({rules.setup_phase.rule_of_order()})")
        hexes = rules.setup_phase.hexes_for(st, uid)
        where = spec.setup_rule or "its set-up area"
        if len(hexes) <= 1:
            return hexes, f"{uid} has no other hex of its set-up area ({spec.setup}) where it may stand now"
        return hexes, (f"{uid}: drop it on a lit hex of its set-up area ({where}: {spec.setup}), {len(hexes)} hexes; "
                       "Finish set-up ends this side's set-up")

    def destinations(self, uid: str) -> tuple[dict[Hex, object], dict[Hex, str]]:
        """Every hex the unit can reach now with the MPs it has left, at its cost by the cheapest legal path, and
        why each neighbour it cannot enter is refused (the engine's ``destinations``; TCS 5.0)."""
        if self.state.pending or uid not in self.state.units or self.state.units[uid].hex is None:
            return {}, {}
        legal = {t.split()[2] for t in self.legal_texts() if t.startswith(f"move {uid} ")}
        if not legal:                  # not this unit's move now: the rules say why when it is picked
            return {}, {}
        reach = self.rules.destinations(self.state, uid)
        return dict(reach.destinations), dict(reach.blocked)

    def move(self, uid: str, frm: Hex, to: Hex, path: list[Hex] | None = None) -> list | Refusal:
        """Move a unit hex by hex (TCS: each hex entered is its own action, and overwatch may answer it).

        ``path`` is the hexes traced from ``frm`` to ``to``; without one, the engine's cheapest legal path.
        Stops at the first refusal (reported with how far the unit got) or when a step leaves a question pending.
        """
        if to not in self.board:
            return Refusal("", "that is off the map")
        if self.setting_up():                 # the set-up phase: the unit is placed there, not moved
            return self.play(f"place {uid} {self.board.hex_id(to)}")
        if path and len(path) >= 2 and path[0] == frm and path[-1] == to:
            hexes = list(path)
        else:
            try:
                hexes = self.rules.cheapest_path(self.state, uid, to)
            except IllegalAction as e:
                return Refusal(e.rule, e.message)
        events: list = []
        done = 0
        for a, b in zip(hexes, hexes[1:]):
            if not are_adjacent(a, b):
                continue
            result = self.play(f"move {uid} {self.board.hex_id(b)}")
            if isinstance(result, Refusal):
                if done:
                    return Refusal(result.rule, f"{result.message} (moved {done} of {len(hexes) - 1} hexes)")
                return result
            events += result
            done += 1
            if self.state.pending or self.state.units[uid].hex != b:
                break                   # overwatch (or a result) stops the move: the player answers first
        return events

    def move_traced(self, uid: str, frm: Hex, to: Hex, path: list[Hex]) -> tuple[list | Refusal, Refusal | None]:
        """Along the traced path when the rules accept all of it; else by the cheapest legal path, and the traced
        path's refusal is returned too (the window says the unit went another way)."""
        if not path or len(path) < 3 or path[0] != frm or path[-1] != to or self.setting_up():
            return self.move(uid, frm, to), None
        try:
            self.rules.check_path(self.state, uid, path)
        except IllegalAction as e:
            return self.move(uid, frm, to), Refusal(e.rule, e.message)
        return self.move(uid, frm, to, path), None

    def check(self, text: str) -> Refusal | None:
        """Why an action would be refused now (None if it is legal), without playing it."""
        try:
            self.rules.apply(self.state, text)
        except IllegalAction as e:
            return Refusal(e.rule, e.message)
        return None
