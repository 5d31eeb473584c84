"""The rules framework: game states, actions, dice as chance events, undo/redo, log, replay, saves.

A ruleset (say ``engine.rulesets.demyansk``) is loaded once and bound to a
scenario; it never changes.  A state is plain data the ruleset can turn into
a dict and back.  ``apply(state, action)`` returns a new state and the events
it caused; refusals raise :class:`engine.errors.IllegalAction`.  Dice come
from the generator whose state lives inside the game state, so replaying a
log, or undoing an attack and declaring it again, gives the same rolls.
"""
from __future__ import annotations

import hashlib
import importlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from .errors import BadFile, BadHexId, IllegalAction, Problem
from .fileio import is_file, read_toml, write_toml
from .outcome import Outcome  # noqa: F401  (the game's end: rulesets import it from here)
from .rulesets import ruleset_module
from engine.errors import clip, excerpt

SAVE_FORMAT = 1
MAX_ACTION_CHARS = 4000
MASK64 = (1 << 64) - 1


# ---------------------------------------------------------------- dice

def seed_rng(seed: int) -> int:
    """The generator state for a game seed (splitmix64 of the seed)."""
    return _mix((int(seed) * 0x9E3779B97F4A7C15) & MASK64)


def _mix(z: int) -> int:
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9 & MASK64
    z = (z ^ (z >> 27)) * 0x94D049BB133111EB & MASK64
    return z ^ (z >> 31)


def next_die(rng: int, sides: int = 6) -> tuple[int, int]:
    """One die roll from the generator state: ``(face 1..sides, next state)``."""
    rng = (rng + 0x9E3779B97F4A7C15) & MASK64
    value = _mix(rng)
    # rejection-free: the top bits are uniform enough for a d6 (bias < 2**-60)
    return 1 + (value >> 11) * sides // (1 << 53), rng


# ---------------------------------------------------------------- events and outcome

@dataclass(frozen=True)
class Event:
    """Something an action caused, like ``rolled 5 for combat at 3:1``; the log and the GUI read these."""

    kind: str
    text: str
    data: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {"kind": self.kind, "text": self.text, **({"data": self.data} if self.data else {})}


class Action(Protocol):
    """What every action record offers: a dict form and a short text form."""

    def to_dict(self) -> dict: ...

    def text(self) -> str: ...


class Rules(Protocol):
    """A ruleset bound to a scenario: immutable, creates and advances states.

    Optional, for rulesets that read printed charts (see :mod:`engine.charts`):
    ``chart_prompt(state) -> ChartPrompt | None``, the chart question the game
    waits for now (its legal actions are then the prompt's answers), and
    ``chart_slots() -> ChartSet``, the charts it reads (by default those its
    package's ``chart_slots()`` offers).  Controllers ask through
    ``engine.charts.pending_chart_prompt(rules, state)``.
    """

    name: str

    def initial_state(self, seed: int) -> Any: ...

    def legal_actions(self, state: Any) -> list: ...

    def apply(self, state: Any, action: Any) -> tuple[Any, list[Event]]: ...

    def parse_action(self, text: str) -> Any: ...

    def state_to_dict(self, state: Any) -> dict: ...

    def is_over(self, state: Any) -> bool: ...

    def outcome(self, state: Any) -> Outcome | None: ...


def action_hex(board, text: str):
    """The hex an action names on ``board`` (like ``0512``); a text that is no hex id there is an IllegalAction."""
    try:
        return board.parse_hex(text)
    except BadHexId as e:
        raise IllegalAction("", str(e)) from None


def state_hash(rules: Rules, state: Any) -> str:
    """A SHA-256 over the state's canonical JSON: equal hashes mean equal games."""
    text = json.dumps(rules.state_to_dict(state), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def file_hash(path: str | Path) -> str:
    """SHA-256 of a file's bytes (a saved game records its scenario's)."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


# ---------------------------------------------------------------- a game in progress

@dataclass
class LogEntry:
    """One player action and the events it caused."""

    action: Any
    events: list[Event]

    def to_dict(self) -> dict:
        return {"action": self.action.text(), "events": [e.to_dict() for e in self.events]}


class Game:
    """A game in progress: rules, the current state, the log, undo and redo.

    Undo steps back exactly one player action by restoring the state before
    it (snapshots, not reverse logic); the restored state carries the dice
    generator, so the same action gives the same rolls again.
    """

    def __init__(self, rules: Rules, seed: int, scenario_path: str | None = None, variants: tuple[str, ...] = ()):
        self.rules = rules
        self.seed = int(seed)
        self.scenario_path = scenario_path
        self.variants = tuple(variants)     # the scenario's variants the rules were bound with, in the order chosen
        self.computer = None                # who the computer plays (engine.computer.ComputerSides), saved with the game
        self.state = rules.initial_state(self.seed)
        self._before: list[Any] = []
        self.log: list[LogEntry] = []
        self._redo: list[LogEntry] = []

    def legal_actions(self) -> list:
        return self.rules.legal_actions(self.state)

    def play(self, action: Any) -> list[Event]:
        """Apply one player action (an action record or its text form)."""
        if isinstance(action, str):
            if len(action) > MAX_ACTION_CHARS:      # no action's text is this long (a note's text included)
                raise IllegalAction("", f"an action of {len(action):,} characters, beginning {excerpt(action[:20])} "
                                        f"(at most {MAX_ACTION_CHARS:,})")
            action = self.rules.parse_action(action)
        new_state, events = self.rules.apply(self.state, action)
        self._before.append(self.state)
        self.state = new_state
        self.log.append(LogEntry(action, events))
        self._redo.clear()
        return events

    def can_undo(self) -> bool:
        return bool(self.log)

    def undo(self) -> LogEntry:
        """Step back one player action; raises IllegalAction when there is none."""
        if not self.log:
            raise IllegalAction("", "there is nothing to undo")
        entry = self.log.pop()
        self.state = self._before.pop()
        self._redo.append(entry)
        return entry

    def can_redo(self) -> bool:
        return bool(self._redo)

    def redo_depth(self) -> int:
        """How many actions undone can be played again."""
        return len(self._redo)

    def redo(self) -> list[Event]:
        """Play again the action last undone."""
        if not self._redo:
            raise IllegalAction("", "there is nothing to redo")
        entry = self._redo.pop()
        redo_rest = list(self._redo)
        events = self.play(entry.action)
        self._redo = redo_rest
        return events

    def is_over(self) -> bool:
        return self.rules.is_over(self.state)

    def outcome(self) -> Outcome | None:
        return self.rules.outcome(self.state)

    def hash(self) -> str:
        return state_hash(self.rules, self.state)

    def actions_text(self) -> list[str]:
        return [e.action.text() for e in self.log]

    # ------------------------------------------------------------ saved games
    def save(self, path: str | Path) -> None:
        """Write the saved game TOML atomically: the program's version, scenario file and hash, variants, seed,
        action log, state hash, and the sides the computer plays."""
        from . import __version__

        doc: dict[str, Any] = {"format": SAVE_FORMAT, "sandtable": __version__, "ruleset": self.rules.name}
        if self.scenario_path:
            doc["scenario"] = str(Path(self.scenario_path).absolute())   # opens from any folder, not only this one
            doc["scenario_sha256"] = file_hash(self.scenario_path)
        if self.variants:
            doc["variants"] = list(self.variants)
        doc["seed"] = self.seed
        doc["state_sha256"] = self.hash()
        # where the game stands, for the game library, which reads a save's head and not its whole log
        turn, phase = getattr(self.state, "turn", None), getattr(self.state, "phase", None)
        if isinstance(turn, int) and not isinstance(turn, bool):
            doc["turn"] = turn
        if isinstance(phase, str) and phase:
            doc["phase"] = phase
        doc["actions"] = self.actions_text()
        if self.computer is not None and self.computer.sides:
            doc["computer"] = self.computer.to_dict()
        write_toml(path, doc)


def replay(rules: Rules, seed: int, actions: list[str], scenario_path: str | None = None,
           variants: tuple[str, ...] = ()) -> Game:
    """A game rebuilt by playing a log of action texts from the start (``rules`` bound with ``variants``)."""
    game = Game(rules, seed, scenario_path, variants)
    for i, text in enumerate(actions):
        try:
            game.play(text)
        except IllegalAction as e:
            raise IllegalAction(e.rule, f"action {i + 1} of the log ({excerpt(text)}) is refused: "
                                        f"{clip(e.message)}") from None
    return game


class LogRefused(BadFile):
    """A saved game whose log no longer replays: which action is refused, why, and the game just before it.

    ``index`` counts from 0 (the message counts from 1); ``before`` is the game
    as it stood before the refused action, so that it can still be opened.
    """

    def __init__(self, file: str, index: int, action: str, rule: str, reason: str, before: Game,
                 line: int | None = None, total: int | None = None):
        self.file, self.index, self.action, self.rule, self.reason, self.before = file, index, action, rule, reason, before
        self.total = total if total is not None else index + 1      # actions in the whole log
        cite = f"{rule}: " if rule else ""
        super().__init__([Problem(file, f"actions[{index}]",
                                  f"action {index + 1} of the log ({excerpt(action)}) is refused: "
                                  f"{clip(cite + reason)}", line)])

    def __reduce__(self):
        return BadFile, (self.problems,)        # across processes, without the game it carries


SAVE_KEYS_REQUIRED = ("format", "ruleset", "scenario", "seed", "state_sha256", "actions")
_SHA256 = "expected the 64 hexadecimal digits of a SHA-256"


def read_save(path: str | Path, need_scenario: bool = True) -> dict:
    """The checked contents of a saved game file (BadFile names every key that is wrong).

    Checked: the format this program writes, an installed ruleset, the
    scenario file named (unless ``need_scenario`` is False: the caller binds
    the rules itself), the seed, the action log and both hashes, so a
    renamed or missing hash is refused rather than left unchecked.
    """
    doc = read_toml(path)
    file = str(path)
    problems = []

    def bad(key: str, message: str) -> None:
        problems.append(Problem(file, key, message))

    fmt = doc.get("format")
    if "format" not in doc:
        bad("format", f"missing (a saved game says format = {SAVE_FORMAT})")
    elif not isinstance(fmt, int) or isinstance(fmt, bool):
        bad("format", f"expected the integer {SAVE_FORMAT}, found {fmt!r}")
    elif fmt != SAVE_FORMAT:
        newer = " (written by a newer version of Sandtable)" if fmt > SAVE_FORMAT else ""
        bad("format", f"this program reads saved games of format {SAVE_FORMAT}, not {fmt}{newer}")
    name = doc.get("ruleset")
    if not isinstance(name, str):
        bad("ruleset", "expected the name of a ruleset, like \"demyansk\"" + ("" if "ruleset" in doc else " (missing)"))
    elif not ruleset_installed(name):
        bad("ruleset", f"there is no ruleset called {name!r} (installed: {', '.join(installed_rulesets())})")
    scen = doc.get("scenario")
    if need_scenario and "scenario" not in doc:
        bad("scenario", "missing (expected the scenario file the game was played from)")
    elif scen is not None and not isinstance(scen, str):
        bad("scenario", f"expected the path of a scenario file, found {type(scen).__name__}")
    if not isinstance(doc.get("seed"), int) or isinstance(doc.get("seed"), bool):
        bad("seed", "expected int" + ("" if "seed" in doc else " (missing)"))
    for key, needed in (("state_sha256", True), ("scenario_sha256", isinstance(scen, str))):
        h = doc.get(key)
        if key not in doc:
            if needed:
                bad(key, f"missing ({_SHA256}: without it the game could not be checked)")
        elif not (isinstance(h, str) and len(h) == 64 and all(c in "0123456789abcdef" for c in h)):
            bad(key, f"{_SHA256}, found {h!r}"[:200])
    actions = doc.get("actions")
    if not isinstance(actions, list):
        bad("actions", "expected list" + ("" if "actions" in doc else " (missing)"))
    else:
        for i, a in enumerate(actions):
            if not isinstance(a, str):
                bad(f"actions[{i}]", f"expected the text of an action, found {type(a).__name__}")
                break
    variants = doc.get("variants", [])
    if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
        bad("variants", "expected a list of the scenario's variant names")
    if problems:
        _add_lines(path, problems)
        raise BadFile(problems)
    return doc


def _add_lines(path: str | Path, problems: list[Problem]) -> None:
    """Give each problem the line of its key in the file, where it can be found."""
    from .keypath import key_lines, line_of

    try:
        found = key_lines(Path(path).read_text("utf-8"))
    except (OSError, ValueError):
        return
    for i, pr in enumerate(problems):
        if pr.line is None and pr.key:
            problems[i] = Problem(pr.file, pr.key, pr.message, line_of(found, pr.key))


def installed_rulesets() -> list[str]:
    """The names of the rulesets this program has (the packages under ``engine/rulesets``)."""
    import pkgutil

    from . import rulesets

    return sorted(m.name for m in pkgutil.iter_modules(rulesets.__path__) if m.ispkg)


def ruleset_installed(name: str) -> bool:
    return isinstance(name, str) and name.isidentifier() and name in installed_rulesets()


def saved_scenario_path(save: str | Path, recorded: str) -> Path:
    """The scenario file a saved game names: as recorded, or beside the save when relative; a shipped scenario's
    file not where it was (the program unpacked or installed in another folder since) is the shipped scenario of
    that name now (its hash is checked by whoever loads it). The recorded path when none is found."""
    sp = Path(recorded)
    if not sp.is_absolute() and not is_file(sp):
        sp = Path(save).parent / recorded
    if not is_file(sp):
        from .content import scenarios

        shipped = scenarios() / Path(recorded).name
        if is_file(shipped):
            return shipped
    return sp


def load_game(path: str | Path, rules_for_scenario=None) -> Game:
    """Load a saved game: check the file and its scenario's hash, then replay its log.

    ``rules_for_scenario(scenario_path) -> Rules`` binds the ruleset; by
    default the scenario names its ruleset (see :func:`load_rules`) and the
    variants the game recorded are applied to it.  A log that no longer
    replays raises :class:`LogRefused`, which carries the game as it stood
    before the refused action.
    """
    doc = read_save(path, need_scenario=rules_for_scenario is None)
    file = str(path)
    variants = tuple(doc.get("variants", ()))
    scen = doc.get("scenario")
    if scen is not None:
        sp = saved_scenario_path(path, scen)
        if not is_file(sp):
            raise BadFile([Problem(file, "scenario", f"the scenario file {scen} is missing")])
        if file_hash(sp) != doc["scenario_sha256"]:
            raise BadFile([Problem(file, "scenario_sha256",
                                   f"the scenario {scen} has changed since this game was saved; "
                                   "the log may no longer replay")])
        scen = str(sp)
    if rules_for_scenario is not None:
        rules = rules_for_scenario(scen)
    else:
        try:
            rules = load_rules(scen, variants)
        except BadFile as e:
            raise BadFile([Problem(file, "scenario", f"the scenario {doc['scenario']} cannot be played:")]
                          + [Problem(file, "variants", p.message) if p.key == "variants" else p
                             for p in e.problems]) from None
    if rules is not None and getattr(rules, "name", doc["ruleset"]) != doc["ruleset"]:
        raise BadFile([Problem(file, "ruleset", f"the game was saved under the {doc['ruleset']!r} rules, "
                                                f"but its scenario is played with {rules.name!r}")])
    from .computer import ComputerSides

    computer = ComputerSides.from_save(file, doc, doc["ruleset"], len(doc["actions"]))
    game = Game(rules, doc["seed"], scen, variants)
    for i, text in enumerate(doc["actions"]):
        try:
            game.play(text)
        except IllegalAction as e:
            # the game as it stood before the refused action, with the computer's part in what was played
            game.computer = computer and computer.up_to(i)
            refused = LogRefused(file, i, text, e.rule, e.message, game, total=len(doc["actions"]))
            _add_lines(path, refused.problems)
            raise refused from None
    if game.hash() != doc["state_sha256"]:
        raise BadFile([Problem(file, "state_sha256", "the replayed log does not reach the saved state")])
    game.computer = computer
    return game


def load_rules(scenario_path: str, variants: tuple[str, ...] = ()) -> Rules:
    """The ruleset a scenario file names, bound to that scenario with its ``variants`` applied in order."""
    own = own_format_ruleset(scenario_path, "rules_for_own_scenario")
    if own is not None:
        return own(scenario_path, tuple(variants)) if variants else own(scenario_path)
    from .scenario import load_scenario  # the scenario loader names the ruleset

    scenario = load_scenario(scenario_path)
    for v in variants:
        try:
            scenario = scenario.with_variant(v)
        except KeyError:
            known = ", ".join(x.id for x in scenario.variants) or "none"
            raise BadFile([Problem(str(scenario_path), "variants",
                                   f"there is no variant {v!r} (variants: {known})")]) from None
    name = getattr(scenario, "ruleset", None)
    if not name:
        problem = Problem(str(scenario_path), "scenario.ruleset", "expected the name of a ruleset, like \"demyansk\"")
        _add_lines(scenario_path, [problem])
        raise BadFile([problem])
    if not ruleset_installed(name):
        problems = [Problem(str(scenario_path), "scenario.ruleset", f"there is no ruleset called {name!r} "
                                                                     f"(installed: {', '.join(installed_rulesets())})")]
        _add_lines(scenario_path, problems)
        raise BadFile(problems)
    mod = importlib.import_module(f"engine.rulesets.{name}")
    return mod.rules_for_scenario(scenario)


def own_format_ruleset(path: str, hook: str):
    """The ``hook`` function of a ruleset that reads its own scenario format, named by the file's
    ``scenario.ruleset`` (the gridless skirmish); None for every other scenario."""
    head = read_toml(path).get("scenario")
    name = head.get("ruleset") if isinstance(head, dict) else None
    return getattr(ruleset_module(name), hook, None)
