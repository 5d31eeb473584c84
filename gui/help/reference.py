"""The rules reference of each game, read from ``docs/rules-coverage.md``: its rules by number with what each
enforces, and the row a refusal's citation ("Demyansk 5.2", "SCW Under Fire 1") points at."""
from __future__ import annotations

import html
import re
from dataclasses import dataclass
from pathlib import Path

from engine import content

DOCS = content.docs()
COVERAGE = DOCS / "rules-coverage.md"
# how the engine's refusals cite each game of the coverage document (its "## " sections)
CITED_AS = {"Demyansk Pocket": "Demyansk", "Spanish Civil War skirmish": "SCW",
            "Black Wednesday": "Black Wednesday", "Leros": "Leros"}
ROW_ID = re.compile(r"^(?P<id>Scenario \d+|\d+(?:\.\d+[a-z]?)?|[A-Z][A-Za-z ]*? \d+(?:, \d+)*)(?:\s+(?P<title>.*))?$")


@dataclass(frozen=True)
class RuleRow:
    """One rule: its number as printed ("5.2", "Under Fire 1"), title, what the program enforces, and its anchor."""

    number: str
    title: str
    enforced: str
    anchor: str


@dataclass(frozen=True)
class GameRules:
    """One game's section of the coverage document."""

    game: str
    cited_as: str
    intro: str
    rows: tuple[RuleRow, ...]

    @property
    def anchor(self) -> str:
        return _slug(self.cited_as)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9.]+", "-", text.lower()).strip("-")


def read_reference(path: Path = COVERAGE) -> list[GameRules]:
    """Every game of the coverage document with its rule rows (rows without a rule number are left out)."""
    out: list[GameRules] = []
    game, intro, rows = None, [], []

    def close():
        if game is not None and game in CITED_AS:
            out.append(GameRules(game, CITED_AS[game], " ".join(intro).strip(), tuple(rows)))

    for line in path.read_text("utf-8").splitlines():
        if line.startswith("## "):
            close()
            game, intro, rows = line[3:].strip(), [], []
            continue
        if game is None:
            continue
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            m = ROW_ID.match(cells[0]) if len(cells) >= 2 else None
            if m and cells[0] != "rule" and not set(cells[0]) <= set("-"):
                number = m.group("id")
                rows.append(RuleRow(number, m.group("title") or "", cells[1],
                                    _slug(f"{CITED_AS.get(game, game)} {number}")))
        elif not rows and line.strip() and not line.startswith("#"):
            intro.append(line.strip())
    close()
    return out


def find_rule(reference: list[GameRules], citation: str) -> tuple[GameRules, RuleRow | None] | None:
    """The game and the row a citation names ("Demyansk 6.7" -> 6.7; "Demyansk 3.4" -> 3 when 3.4 has no row of
    its own; "SCW Silencing 7" -> "Silencing 6, 7"); the game alone when no row matches; None for no game."""
    citation = re.sub(r"\s*\(.*?\)\s*$", "", citation.strip())       # "Demyansk 9.1 (errata)"
    for g in sorted(reference, key=lambda g: -len(g.cited_as)):
        if not citation.startswith(g.cited_as + " ") and citation != g.cited_as:
            continue
        rest = citation[len(g.cited_as):].strip()
        by_number = {r.number: r for r in g.rows}
        number = rest
        while number:
            if number in by_number:
                return g, by_number[number]
            if number[-1].isalpha() and number[:-1][-1:].isdigit():      # 1.1h -> 1.1
                number = number[:-1]
                continue
            cut = number.rfind(".")
            if cut <= 0:
                break
            number = number[:cut]
        m = re.match(r"^(?P<words>.*?) (?P<n>\d+)$", rest)
        if m:
            for r in g.rows:
                rm = re.match(r"^(?P<words>.*?) (?P<ns>\d+(?:, \d+)*)$", r.number)
                if rm and rm.group("words") == m.group("words") and m.group("n") in rm.group("ns").split(", "):
                    return g, r
        return g, None
    return None


def _inline(text: str) -> str:
    """A table cell's Markdown (code spans, bold) as HTML."""
    out = html.escape(text)
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    return re.sub(r"\*\*([^*]+)\*\*", r"<b>\1</b>", out)


def reference_html(game: GameRules, marked: str | None = None) -> str:
    """The rules reference of one game as HTML, each rule with its anchor; the ``marked`` anchor is highlighted."""
    parts = [f"<h1><a name='{game.anchor}'></a>{html.escape(game.game)}: rules reference</h1>",
             f"<p>{_inline(game.intro)}</p>",
             "<p>Each rule by number with what the program enforces. Refusals cite these numbers "
             f"(\"{html.escape(game.cited_as)} …\").</p>",
             "<table cellspacing='0' cellpadding='4' border='1' style='border-collapse: collapse'>",
             "<tr><th>rule</th><th>title</th><th>what is enforced</th></tr>"]
    for r in game.rows:
        style = " style='background-color: #fff3b0'" if r.anchor == marked else ""
        parts.append(f"<tr{style}><td><a name='{r.anchor}'></a><b>{html.escape(r.number)}</b></td>"
                     f"<td>{html.escape(r.title)}</td><td>{_inline(r.enforced)}</td></tr>")
    parts.append("</table>")
    return "\n".join(parts)
