"""The computer as a player: the side a game waits for now, the ruleset's baseline bot for a side, and the
record of who the computer plays that a saved game keeps (its ``[computer]`` table)."""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Callable

from .errors import BadFile, Problem

BASELINE = "baseline"          # the one bot every ruleset has (its ``bot.py``)
STRONG = "strong"              # the player that plans with the engine (engine/players/strong.py), where it knows the game
BOTS = (BASELINE, STRONG)


def side_to_act(rules, state) -> str | None:
    """The side whose decision the game waits for (a pending choice's side first); None when over."""
    if rules.is_over(state):
        return None
    mod = _bot_module(rules)
    if hasattr(mod, "side_to_act_in"):          # a ruleset whose state does not say it alone (the TCS)
        return mod.side_to_act_in(rules, state)
    return mod.side_to_act(state)


# The strong player of each ruleset that has one: a module with ``STRONG_OPTIONS`` (option name -> type) and
# ``strong_for(rules, side, cancel=None, **options)``, a function from a state to the next action carrying its
# ``player`` (with ``last_reason`` and ``fork``).
STRONG_PLAYERS = {
    "demyansk": "engine.players.strong",
    "classic": "engine.players.classic_strong",
    "scw": "engine.players.scw_strong",
    "tcs": "engine.players.tcs_player",
}


def has_strong(ruleset: str) -> bool:
    """Whether the strong player knows this ruleset."""
    return ruleset in STRONG_PLAYERS and _strong_module(ruleset) is not None


def has_baseline(ruleset: str) -> bool:
    """Whether the ruleset has a baseline player (its ``bot.py``)."""
    try:
        importlib.import_module(f"engine.rulesets.{ruleset}.bot")
    except ModuleNotFoundError:
        return False
    return True


def players_for(ruleset: str) -> list[str]:
    """The computer players that can play this ruleset: strong and baseline where it has them, random always."""
    return [p for p, ok in ((STRONG, has_strong(ruleset)), (BASELINE, has_baseline(ruleset)), ("random", True)) if ok]


def _strong_module(ruleset: str):
    try:
        return importlib.import_module(STRONG_PLAYERS[ruleset])
    except (KeyError, ModuleNotFoundError):
        return None


def bot_for(rules, side: str, options: dict | None = None, bot: str = BASELINE, cancel=None) -> Callable[[Any], Any]:
    """The ruleset's ``bot`` ("baseline" or "strong") for ``side`` with its ``options``: a function from a state to
    its next legal action; ``cancel`` (strong only) is asked while it thinks and cuts its thinking short."""
    if bot == STRONG:
        mod = _strong_module(rules.name)
        if mod is None:
            raise ValueError(f"the strong player does not know the {rules.name} rules")
        return mod.strong_for(rules, side, cancel=cancel, **dict(options or {}))
    if bot != BASELINE:
        raise ValueError(f"there is no computer player {bot!r} (players: {', '.join(BOTS)})")
    mod = _bot_module(rules)
    return mod.bot_for(rules, side, **dict(options or {})) if options else mod.bot_for(rules, side)


def chooser(rules, player):
    """``player.choose`` as a function of the state alone, carrying its ``player`` (whose ``fork`` gives a copy
    with memory of its own: :func:`fork`)."""

    def choose(st):
        return player.choose(rules, st)

    choose.player = player
    choose.fork = lambda: chooser(rules, player.fork())
    return choose


def parse_players(spec: str, sides, ruleset: str) -> tuple[dict[str, str], list[str]]:
    """A ``--bot`` text (``strong``, or ``SIDE[=PLAYER],...`` with players "baseline" and "strong") as each named
    side's player, and the problems found in it, in words."""
    words = [w.strip() for w in (spec or "").split(",") if w.strip()]
    if words == [STRONG]:
        words = [f"{s}={STRONG}" for s in sides]
    players, problems = {}, []
    for w in words:
        side, _, who = w.partition("=")
        who = who or BASELINE
        if side not in sides:
            problems.append(f"no side {side!r}")
        elif who not in BOTS:
            problems.append(f"no player {who!r} (players: {', '.join(BOTS)})")
        elif who == STRONG and not has_strong(ruleset):
            problems.append(f"the strong player does not know the {ruleset} rules")
        else:
            players[side] = who
    return players, problems


def fork(bot):
    """A copy of ``bot`` with a memory of its own (its ``fork``), or the bot itself when it keeps none: the copy
    may think in another thread and be adopted only if its answer is played."""
    make = getattr(bot, "fork", None)
    return make() if callable(make) else bot


def bot_options(ruleset: str, bot: str = BASELINE) -> dict[str, type]:
    """The options a ruleset's bot takes, by name and type (``BOT_OPTIONS`` in its ``bot.py``, ``STRONG_OPTIONS``)."""
    if bot == STRONG:
        mod = _strong_module(ruleset)
        return dict(mod.STRONG_OPTIONS) if mod is not None else {}
    try:
        mod = importlib.import_module(f"engine.rulesets.{ruleset}.bot")
    except ModuleNotFoundError:
        return {}
    return dict(getattr(mod, "BOT_OPTIONS", {}))


def _bot_module(rules):
    return importlib.import_module(f"engine.rulesets.{rules.name}.bot")


@dataclass(frozen=True)
class ComputerSides:
    """Which sides the computer plays, with which bot and options, which log entries (from 1) it played, and its
    reason for each, as the log showed it (kept with a saved game, so a restart shows them again)."""

    sides: tuple[str, ...]
    bot: str = BASELINE
    options: dict = field(default_factory=dict)
    played: tuple[int, ...] = ()
    reasons: dict = field(default_factory=dict)      # log entry (from 1) -> the computer's reason for it

    def to_dict(self) -> dict:
        doc: dict[str, Any] = {"sides": list(self.sides), "bot": self.bot}
        if self.options:
            doc["options"] = dict(self.options)
        if self.played:
            doc["played"] = list(self.played)
        if self.reasons:
            doc["reasons"] = {str(n): why for n, why in sorted(self.reasons.items())}
        return doc

    def up_to(self, n: int) -> "ComputerSides":
        """The same, for the log's first ``n`` entries (a game that stops before the rest)."""
        from dataclasses import replace

        return replace(self, played=tuple(i for i in self.played if i <= n),
                       reasons={i: why for i, why in self.reasons.items() if i <= n})

    @classmethod
    def from_save(cls, path: str, doc: dict, ruleset: str, log_length: int) -> "ComputerSides | None":
        """The ``[computer]`` table of a saved game, checked (BadFile naming the key); None when it has none."""
        table = doc.get("computer")
        if table is None:
            return None
        where = str(path)
        if not isinstance(table, dict):
            raise BadFile([Problem(where, "computer", "expected a table with sides, bot and options")])
        problems = []
        sides = table.get("sides", [])
        if not isinstance(sides, list) or not all(isinstance(s, str) and s for s in sides):
            problems.append(Problem(where, "computer.sides", "expected a list of side names, like [\"soviet\"]"))
        bot = table.get("bot", BASELINE)
        if bot not in BOTS or bot == STRONG and not has_strong(ruleset):
            known_bots = [b for b in BOTS if b == BASELINE or has_strong(ruleset)]
            problems.append(Problem(where, "computer.bot", f"expected one of {', '.join(map(repr, known_bots))} "
                                                           f"(the computer players for {ruleset}), not {bot!r}"))
            bot = BASELINE
        options = table.get("options", {})
        known = bot_options(ruleset, bot)
        if not isinstance(options, dict):
            problems.append(Problem(where, "computer.options", "expected a table of the bot's options"))
            options = {}
        for key, value in options.items():
            kind = known.get(key)
            if kind is float and isinstance(value, int) and not isinstance(value, bool):
                continue
            if kind is None:
                names = ", ".join(sorted(known)) or "none"
                problems.append(Problem(where, f"computer.options.{key}",
                                        f"the {ruleset} bot has no such option (options: {names})"))
            elif not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
                problems.append(Problem(where, f"computer.options.{key}", f"expected {kind.__name__}"))
        played = table.get("played", [])
        if (not isinstance(played, list)
                or not all(isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= log_length for n in played)):
            problems.append(Problem(where, "computer.played",
                                    f"expected the numbers (1 to {log_length}) of the actions the computer played"))
        reasons = table.get("reasons", {})
        kept: dict[int, str] = {}
        if not isinstance(reasons, dict):
            problems.append(Problem(where, "computer.reasons", "expected a table of the computer's reasons by action "
                                                               "number, like { \"12\" = \"...\" }"))
            reasons = {}
        for key, why in reasons.items():
            n = int(key) if isinstance(key, str) and key.isdigit() else 0
            if not 1 <= n <= log_length or not isinstance(why, str):
                problems.append(Problem(where, f"computer.reasons.{key}",
                                        f"expected an action number (1 to {log_length}) and its reason in words"))
            else:
                kept[n] = why
        if problems:
            raise BadFile(problems)
        return cls(tuple(sides), bot, dict(options), tuple(sorted(set(played))), kept)
