"""The game library's entries: what a scenario or saved game file says about itself (title, game, situation, sides,
length, playing time, rules), read from its head without loading the whole scenario.

A scenario file's ``[scenario]`` table and its ``[[sides]]`` tables are parsed on their own (a TCS scenario is up to
300 KB of units and sheets the library does not need); a saved game's keys before its log, and its scenario's head.
A file whose head cannot be read that way is parsed whole; one that still cannot be read is an entry with its
problem, never an exception.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from engine.errors import BadFile, Problem

MAX_BYTES = 20_000_000            # a larger file is no scenario or saved game of ours: listed with the problem
PLAYING_MINUTES_MAX = 100_000     # a playing time above this (about 70 days of play) is a typing mistake

# how each ruleset is named to a player, and the kind of game its How to play page covers
RULESETS = {"demyansk": "Demyansk Pocket rules", "classic": "classic hex-and-counter rules",
            "free": "free play (no rules)", "tcs": "Tactical Combat Series", "scw": "skirmish rules (in inches)"}
HOW_TO_PLAY = {"demyansk": "demyansk", "classic": "classic", "free": "classic", "tcs": "tcs", "scw": "skirmish"}
SCW_GAME = "Spanish Civil War skirmish"


def check_playing_minutes(value) -> str | None:
    """What is wrong with a ``playing_minutes`` value (None when it is right): one whole number of minutes, or two
    (the least and the most), like ``[90, 180]``."""
    items = value if isinstance(value, list) else [value]
    if not 1 <= len(items) <= 2 or any(isinstance(v, bool) or not isinstance(v, int) for v in items):
        return f"expected a number of minutes or two of them (least, most) like [90, 180], got {value!r}"
    if any(not 1 <= v <= PLAYING_MINUTES_MAX for v in items):
        return f"expected minutes between 1 and {PLAYING_MINUTES_MAX}, got {value!r}"
    if len(items) == 2 and items[0] > items[1]:
        return f"expected the least time first, then the most, got {value!r}"
    return None


def minutes_text(minutes: tuple[int, int] | None) -> str:
    """A playing time as a player reads it: "30-60 minutes", "about 2 hours", "3-5 hours", "40-65 hours"."""
    if not minutes:
        return ""
    lo, hi = minutes

    def hours(m: int) -> str:
        h = m / 60
        return f"{h:.1f}".rstrip("0").rstrip(".") if h < 10 else f"{round(h)}"

    if hi < 90:
        return f"about {lo} minutes" if lo == hi else f"{lo}-{hi} minutes"
    if lo == hi:
        return f"about {hours(lo)} hours"
    return f"{hours(lo)}-{hours(hi)} hours"


@dataclass(frozen=True)
class LibraryEntry:
    """One file of the library: a scenario (shipped or the user's) or a saved game."""

    path: Path
    title: str
    game: str
    ruleset: str = ""
    situation: str = ""
    sides: tuple[str, ...] = ()
    side_ids: tuple[str, ...] = ()             # the sides' ids, in the order of ``sides``
    turns: int | None = None
    last_turn: int | None = None               # the scenario's last turn, as the game shows "Turn 2 of 18"
    turns_text: str = ""                       # "10 turns", "12 turns (0600-0940 10 Feb)", "up to 20 turns"
    playing_minutes: tuple[int, int] | None = None
    rule: str = ""                             # the rulebook's scenario number ("Demyansk 9.2")
    saved: bool = False                        # a saved game (opened as it stands, not started anew)
    saved_text: str = ""                       # "seed 3, 42 actions"
    saved_turn: str = ""                       # where a saved game stands: "Turn 2 of 18 — Soviet movement"
    saved_turn_short: str = ""                 # the same for the list's Turns column: "turn 2 of 18"
    computer_text: str = ""                    # the sides a saved game's computer plays: "Soviets"
    scenario_path: Path | None = None          # a saved game's scenario
    shipped: bool = False
    problem: str = ""                          # why the file cannot be listed properly

    @property
    def ruleset_text(self) -> str:
        return RULESETS.get(self.ruleset, self.ruleset)

    @property
    def playing_text(self) -> str:
        return minutes_text(self.playing_minutes)

    @property
    def how_to_play(self) -> str:
        """The How to play page of this kind of game ("demyansk", "classic", "tcs", "skirmish"), "" if none."""
        return HOW_TO_PLAY.get(self.ruleset, "")

    def search_text(self) -> str:
        return " ".join((self.title, self.game, self.situation, " ".join(self.sides), self.ruleset_text,
                         self.ruleset, self.rule, self.path.name, "saved game" if self.saved else "")).lower()

    def matches(self, query: str) -> bool:
        """Every word of ``query`` appears in the entry's title, game, situation, sides, rules or file name."""
        text = self.search_text()
        return all(word in text for word in query.lower().split())


_HEADER = re.compile(r"^\s*\[\[?\s*([A-Za-z0-9_.\-\" ]+?)\s*\]\]?\s*(#.*)?$")


def _sections(text: str) -> dict[str, list[str]]:
    """The text of the top-level keys ("") and of each ``[scenario]``/``[[sides]]``/``[attacker]``/``[defender]``
    table, header lines found at the start of a line (the scenario files' own layout)."""
    wanted = {"scenario", "sides", "attacker", "defender", "computer"}
    out: dict[str, list[str]] = {"": []}
    current: str | None = ""
    for line in text.splitlines():
        m = _HEADER.match(line) if line.lstrip().startswith("[") else None
        if m:
            name = m.group(1).strip().strip('"')
            if name in wanted:
                current = name
                if name == "sides":
                    out.setdefault("sides", []).append("[[sides]]")
                else:
                    out.setdefault(name, [])
            else:
                current = None
            continue
        if current is not None:
            out[current].append(line)
        if current == "" and line.lstrip().startswith("actions"):
            current = None          # a saved game's log: the keys that matter come before it
    return out


def _toml(lines: list[str], file: str) -> dict:
    from engine.fileio import loads_toml

    return loads_toml("\n".join(lines), file)


def _head(path: Path) -> tuple[dict, dict, list[dict], dict]:
    """(top-level keys, [scenario], [[sides]], {attacker, defender}) of a file, from its head when it parses."""
    size = path.stat().st_size
    if size > MAX_BYTES:
        raise BadFile([Problem(str(path), "", f"expected a scenario or saved game, found a file of {size} bytes")])
    text = path.read_text("utf-8")
    try:
        parts = _sections(text)
        top = _toml(parts[""], str(path))
        head = _toml(parts.get("scenario", []), str(path))
        sides = _toml(parts.get("sides", []), str(path)).get("sides", [])
        others = {k: _toml(parts[k], str(path)) for k in ("attacker", "defender") if k in parts}
        if "computer" in parts:             # a saved game's [computer] table, after its log
            top["computer"] = _toml(parts["computer"], str(path))
        return top, head, sides, others
    except Exception:           # a layout the quick reading does not follow: the whole file, checked as usual
        from engine.fileio import read_toml

        doc = read_toml(path)
        sides = doc.get("sides", [])
        return ({k: v for k, v in doc.items() if not isinstance(v, (dict, list)) or k in ("actions", "computer")},
                doc.get("scenario", {}) if isinstance(doc.get("scenario"), dict) else {},
                sides if isinstance(sides, list) else [],
                {k: doc[k] for k in ("attacker", "defender") if isinstance(doc.get(k), dict)})


def _turns(head: dict, ruleset: str) -> tuple[int | None, str]:
    if ruleset == "tcs":
        from engine.rulesets.tcs.clock import parse_clock, turn_track

        try:
            year = int(head.get("year", 1943))
            start, end = parse_clock(str(head["start"]), year), parse_clock(str(head["end"]), year)
            n = len(turn_track(start, end))
        except (KeyError, ValueError, TypeError):
            return None, ""
        return n, f"{n} turns ({head['start']} to {head['end']})"
    if ruleset == "scw":
        last = head.get("last_turn")
        return (last, f"up to {last} turns") if isinstance(last, int) else (None, "")
    first, last = head.get("first_turn", 1), head.get("last_turn")
    if isinstance(first, int) and isinstance(last, int) and last >= first:
        n = last - first + 1
        return n, f"{n} turns"
    return None, ""


def _minutes(value) -> tuple[int, int] | None:
    if value is None or check_playing_minutes(value) is not None:
        return None
    items = value if isinstance(value, list) else [value]
    return (items[0], items[-1])


def _side_ids(ruleset: str, sides: list) -> tuple[str, ...]:
    if ruleset == "scw":
        return ("attacker", "defender")
    return tuple(str(s.get("id") or "?") for s in sides if isinstance(s, dict))


def _sides(ruleset: str, sides: list, others: dict) -> tuple[str, ...]:
    if ruleset == "scw":
        out = []
        for key, word in (("attacker", "Attackers"), ("defender", "Defenders")):
            t = others.get(key, {})
            troops = t.get("troops") if isinstance(t, dict) else None
            force = t.get("force") if isinstance(t, dict) else None
            detail = ", ".join(str(x) for x in (troops, force) if isinstance(x, str))
            out.append(f"{word} ({detail})" if detail else word)
        return tuple(out)
    return tuple(str(s.get("name") or s.get("id") or "?") for s in sides if isinstance(s, dict))


def _scenario_entry(path: Path, top: dict, head: dict, sides: list, others: dict, shipped: bool) -> LibraryEntry:
    ruleset = str(head.get("ruleset") or top.get("ruleset") or "")
    title = str(head.get("name") or head.get("id") or path.stem)
    game = str(head.get("game") or (SCW_GAME if ruleset == "scw" else "") or "Other games")
    turns, turns_text = _turns(head, ruleset)
    last = head.get("last_turn") if ruleset != "tcs" else turns        # a TCS game's turns are its clock's
    last = last if isinstance(last, int) and not isinstance(last, bool) else None
    return LibraryEntry(path=path, title=title, game=game, ruleset=ruleset, situation=str(head.get("text") or ""),
                        sides=_sides(ruleset, sides, others), side_ids=_side_ids(ruleset, sides), turns=turns,
                        last_turn=last, turns_text=turns_text,
                        playing_minutes=_minutes(head.get("playing_minutes")), rule=str(head.get("rule") or ""),
                        shipped=shipped)


def read_entry(path: str | Path, shipped: bool = False, known: dict | None = None) -> LibraryEntry | None:
    """The library's entry for a scenario or saved game file; None for a file that is neither (a map, a chart
    book, a list of recent files); an entry carrying ``problem`` for one that cannot be read.  ``known``: entries
    already read, by resolved path (a saved game's scenario is then read once for all its saves)."""
    path = Path(path)
    if known is None:
        return _read(path, shipped, None)
    key = path.resolve()
    if key not in known:
        known[key] = _read(path, shipped, known)
    return known[key]


def _read(path: Path, shipped: bool, known: dict | None) -> LibraryEntry | None:
    try:
        top, head, sides, others = _head(path)
    except (BadFile, OSError, UnicodeDecodeError) as e:
        why = str(e.problems[0]) if isinstance(e, BadFile) and e.problems else str(e)
        return LibraryEntry(path=path, title=path.stem, game="Files that cannot be read", problem=why)
    if "seed" in top and "scenario" in top and isinstance(top.get("scenario"), str):
        return _saved_entry(path, top, known)
    if not head:
        return None
    return _scenario_entry(path, top, head, sides, others, shipped)


def _saved_entry(path: Path, top: dict, known: dict | None = None) -> LibraryEntry:
    """A saved game: its scenario's title, game and sides, with its seed and the number of actions in its log."""
    scen = Path(str(top["scenario"]))
    if not scen.is_absolute():
        scen = (path.parent / scen).resolve()
    if not scen.is_file():                    # saved elsewhere: the shipped scenario of that name
        from engine import content

        shipped = content.scenarios() / scen.name
        scen = shipped if shipped.is_file() else scen
    base = read_entry(scen, known=known) if scen.is_file() else None
    actions = _count_actions(path)
    saved_text = f"seed {top.get('seed')}, {actions} action(s) in its log" if actions is not None else \
        f"seed {top.get('seed')}"
    turn, short = _saved_turn(top, base)
    if base is None or base.problem:
        return LibraryEntry(path=path, title=path.stem, game="Saved games", ruleset=str(top.get("ruleset") or ""),
                            saved=True, saved_text=saved_text, saved_turn=turn, saved_turn_short=short,
                            scenario_path=scen, problem="" if base is None else base.problem)
    return LibraryEntry(path=path, title=f"{base.title} — saved {path.stem}", game=base.game, ruleset=base.ruleset,
                        situation=base.situation, sides=base.sides, side_ids=base.side_ids, turns=base.turns,
                        last_turn=base.last_turn, turns_text=base.turns_text,
                        playing_minutes=base.playing_minutes, rule=base.rule, saved=True, saved_text=saved_text,
                        saved_turn=turn, saved_turn_short=short, computer_text=_computer_text(top, base),
                        scenario_path=scen)


def _saved_turn(top: dict, base: LibraryEntry | None) -> tuple[str, str]:
    """Where a saved game stands, from its head's ``turn`` and ``phase``, as the game shows it ("Turn 2 of 18 —
    Soviet movement") and short for the list ("turn 2 of 18"); "" for a save that does not say."""
    turn, phase = top.get("turn"), top.get("phase")
    if not isinstance(turn, int) or isinstance(turn, bool):
        return "", ""
    if top.get("ruleset") == "tcs":
        turn += 1           # a TCS game counts its turns from 0 and shows them from 1 ("Turn 3 of 18")
    last = base.last_turn if base is not None and not base.problem else None
    of = f" of {last}" if last else ""
    text = f"Turn {turn}{of}"
    if isinstance(phase, str) and phase:
        words = phase.replace("-", " ")
        text += f" — {words[:1].upper()}{words[1:]}"
    return text, f"turn {turn}{of}"


def _computer_text(top: dict, base: LibraryEntry) -> str:
    """The sides a saved game's computer plays, by their names ("" when the player plays every side)."""
    table = top.get("computer")
    ids = table.get("sides") if isinstance(table, dict) else None
    if not isinstance(ids, list) or not ids:
        return ""
    names = dict(zip(base.side_ids, base.sides))
    return ", ".join(names.get(str(i), str(i)) for i in ids)


def _count_actions(path: Path) -> int | None:
    """The number of actions in a saved game's log (its lines between ``actions = [`` and ``]``)."""
    try:
        text = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    m = re.search(r"^actions\s*=\s*\[(.*?)^\]", text, re.S | re.M)
    if m is None:
        return 0 if re.search(r"^actions\s*=\s*\[\s*\]", text, re.M) else None
    return len(re.findall(r"^\s*\"", m.group(1), re.M))


@dataclass
class Library:
    """Every entry found, the shipped scenarios first, each game's entries in file order."""

    entries: list[LibraryEntry] = field(default_factory=list)

    def games(self) -> list[str]:
        seen: list[str] = []
        for e in self.entries:
            if e.game not in seen:
                seen.append(e.game)
        return seen

    def of_game(self, game: str) -> list[LibraryEntry]:
        return [e for e in self.entries if e.game == game]

    def find(self, query: str) -> list[LibraryEntry]:
        return [e for e in self.entries if e.matches(query)]


GAME_ORDER = ("Demyansk Pocket", "Black Wednesday", "Leros", SCW_GAME, "River Crossing", "Free play")


def read_library(shipped: Path, own: list[Path] = (), leave_out: set[Path] = frozenset(),
                 depth: int = 3) -> Library:
    """The shipped scenarios (``shipped``, a folder) and the user's own scenarios and saved games (folders searched
    ``depth`` levels down, or single files), files in ``leave_out`` (the autosave) left out."""
    entries: list[LibraryEntry] = []
    seen: set[Path] = set()
    known: dict = {}                     # entries read, so that a scenario saved many times is read once
    leave = {Path(p).resolve() for p in leave_out}

    def add(path: Path, is_shipped: bool):
        key = path.resolve()
        if key in seen or key in leave:
            return
        seen.add(key)
        e = read_entry(path, shipped=is_shipped, known=known)
        if e is not None:
            entries.append(e)

    for p in sorted(Path(shipped).glob("*.toml")):
        add(p, True)
    for where in own:
        where = Path(where)
        if where.is_file():
            add(where, False)
        elif where.is_dir():
            for p in sorted(_toml_files(where, depth)):
                add(p, False)
    rank = {g: i for i, g in enumerate(GAME_ORDER)}
    own_rules: dict[str, dict[str, int]] = {}            # each game's own rules: the ruleset most of it is played with
    for e in entries:
        own_rules.setdefault(e.game, {}).setdefault(e.ruleset, 0)
        own_rules[e.game][e.ruleset] += 1
    main = {g: max(c, key=c.get) for g, c in own_rules.items()}
    entries.sort(key=lambda e: (rank.get(e.game, len(rank)), e.game == "Files that cannot be read", e.game,
                                not e.shipped, e.saved, e.ruleset != main[e.game]))
    return Library(entries)


def _toml_files(folder: Path, depth: int):
    try:
        items = list(folder.iterdir())
    except OSError:
        return
    for p in items:
        if p.is_file() and p.suffix == ".toml":
            yield p
        elif p.is_dir() and depth > 1 and not p.name.startswith("."):
            yield from _toml_files(p, depth - 1)
