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
    """One rule: its number as printed ("5.2", "Under Fire 1"), title, what the program enforces, and its anchor;
    ``note`` is the coverage's last column (who decides what the program leaves open)."""

    number: str
    title: str
    enforced: str
    anchor: str
    note: str = ""


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
                                    _slug(f"{CITED_AS.get(game, game)} {number}"), cells[-1] if len(cells) > 2 else ""))
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


# each game's reference opens with what a player needs to know (the coverage document's own introductions speak of
# the program's files)
PLAYERS_INTRO = {
    "Demyansk": "Every rule of the Demyansk Pocket rulebook by its number, with what the program does about it. "
                "Where a move or an attack is refused, the message cites one of these numbers.",
    "SCW": "The skirmish rules are not numbered: a rule is named by its section and paragraph (\"Under Fire 3\" "
           "is the third paragraph of Under Fire). Each one with what the program does about it.",
    "Black Wednesday": "Black Wednesday's own rules, by the rulebook's numbers, with what the program does about "
                       "each. The series rules (TCS) underneath them are played as How to play a TCS game "
                       "describes; values printed only on your charts and counters are asked of you in play.",
    "Leros": "Leros's own rules, by the rulebook's numbers, with what the program does about each. The series "
             "rules (TCS) underneath them are played as How to play a TCS game describes; values printed only "
             "on your charts and counters (coastal guns, parachute losses, boats) are asked of you in play.",
}

# the coverage document's words for the program's workings, as a player reads them
_PLAYER_WORDS = ((re.compile(r"\b(?:a )?chart prompts?\b"), "a question for your printed chart"),
                 (re.compile(r"\bchart slots?\b"), "printed chart"),
                 (re.compile(r"\bthe engine's\b"), "the program's"),
                 (re.compile(r"\b(?:the series engine|the engine)\b"), "the program"),
                 (re.compile(r"\bthe (?:board|map) model\b"), "the program's maps"),
                 (re.compile(r"\bthe map file\b"), "the map"),
                 (re.compile(r"\bour (choice|reading)\b"), r"the program's \1"),
                 (re.compile(r"\bthe new-game dialog\b"), "File > New game"),
                 (re.compile(r"\bscenario files\b"), "scenarios"),
                 (re.compile(r"\bscenario file\b"), "scenario"),
                 (re.compile(r",? and;"), ";"),
                 (re.compile(r"\bin the state\b"), ""),
                 (re.compile(r"\bplayer decides\b"), "you decide"))
# a code span a player has no use for: a file, a key, a module, an option of the command line
_DEV_CODE = re.compile(r"[/_=\[\]]|\.py|\.toml|--|^(tcs|bw|leros|demyansk|scw)\.|^[A-Z][a-z]+[A-Z]|^\w+\.\w+|"
                       r"^[a-z]+ = ")
_VARIANT = re.compile(r"`(?:\[options\] )?variants = \[[^\]]*\]`|`--variant [^`]*`")


def _balanced(text: str) -> str:
    """Brackets the removals left unbalanced taken out."""
    out, depth = [], 0
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            if depth == 0:
                continue
            depth -= 1
        out.append(ch)
    text = "".join(out)
    while depth > 0:
        i = text.rfind("(")
        text = text[:i] + text[i + 1:]
        depth -= 1
    return text


def for_players(text: str) -> str:
    """A coverage cell as a player reads it: no file names, keys or test names; the program's own words for what
    it does."""
    def code(m):
        inner = m.group(1)
        return "" if _DEV_CODE.search(inner) else f"\u201c{inner}\u201d"

    out = _VARIANT.sub("the variant", text)
    out = re.sub(r"\s*\(`[a-z_]+`\)", "", out)            # a key named in brackets, like (`unit`)
    out = re.sub(r"`([^`]*)`", code, out)
    out = re.sub(r"\b(?:tests?/)?test_\w+(?:\.py)?(?:::\w+)?", "", out)
    out = re.sub(r"\b[\w./-]+\.(?:py|toml|md)\b", "", out)
    for pattern, words in _PLAYER_WORDS:
        out = pattern.sub(words, out)
    for _ in range(3):                                    # brackets and lists the removals left empty
        out = re.sub(r"\(\s*(?:scenario|map|data)?\s*\)", "", out)
        out = re.sub(r"\(\s*(?:[,;:]\s*|and\s+|or\s+)*\)", "", out)
        out = re.sub(r"\s+(?:in|of|by|from|with|see|as)\s*\)", ")", out)
        out = re.sub(r"\(\s*[,;]\s*", "(", out)
        out = re.sub(r"\s*[,;]\s*\)", ")", out)
        out = re.sub(r",\s*;", ";", out)
        out = re.sub(r"(?:,\s*){2,}", ", ", out)
        out = re.sub(r"\s+([,;:.])", r"\1", out)
    out = re.sub(r"\ba a\b", "a", out)
    return _balanced(re.sub(r"\s{2,}", " ", out)).strip(" ,;:")


# rows whose coverage text says more of the program's workings than of the game, in a player's words
PLAYERS_WORDING = {
    ("SCW", "Contact 2"): "The cone of fire is 18 inches long and 4 inches wide at its far end, narrowing to a "
                          "point at the gun (an option gives it the width of the gun's base).",
    ("Black Wednesday", "1.1a"): "Woods and buildings block a line of sight as the map draws them (their outlines, "
                                 "where the map traces them), not as whole hexes.",
    ("Black Wednesday", "1.1b"): "Craters, background tones and rubble are not terrain: a City hex is City "
                                 "terrain, nothing more, and rubble has no movement effect of its own.",
    ("Black Wednesday", "1.3b"): "Vehicles in a trench hex are in Open terrain for regular fire: area fire at the "
                                 "hex rolls for them apart, without the trench's shift, and the Point Fire Table "
                                 "reads its Open column for them.",
    ("Black Wednesday", "1.4"): "Wire hexes, with their Partial and Full Breach markers shown on the map.",
    ("Black Wednesday", "1.5"): "The AT ditch runs along the hexsides nearest to where the map draws it.",
    ("Black Wednesday", "1.10a"): "Every unit of every group a set-up names is in the scenario.",
    ("Black Wednesday", "1.10b"): "In scenarios 1-3 the Soviet Prep Log is fixed before the game starts (View > "
                                  "Preparatory Barrage Log… shows it). With the variant \u201cown-prep-log\u201d "
                                  "(File > New game) the Soviet player writes his own Log as the game starts, and "
                                  "Start with this Log plays it as the game's first action.",
    ("Black Wednesday", "1.10c"): "Losses at start are spread one step at a time over the group's counters. You "
                                  "decide: another spread, made by editing the set-up in the scenario editor.",
    ("Black Wednesday", "4.6"): "With the variant the Spanish Command Prep rating is 2.",
    ("Black Wednesday", "Scenario 7"): "Axis first, 1600 to 0200; the 708 sets up north of row 37 east of the "
                                       "railroad (the rulebook's misprint read so), the Soviet sheets as given, four "
                                       "victory conditions.",
    ("Leros", "2.7"): "The scenarios start from the historical set-up, which shifts victory one level to the "
                      "British. You decide: a free set-up, made by editing the set-up in the scenario editor.",
    ("Leros", "4.0"): "Each scenario offers its variants in File > New game; the ones chosen are applied and "
                      "named in the saved game.",
    ("Leros", "1.1f"): "Contours are 25 m apart (Point 320 stands at 320 m).",
    ("Leros", "5.1b"): "Each organisation's losses at start are spread over its units in the scenario. You decide: "
                       "another spread, made by editing the set-up in the scenario editor.",
    ("Leros", "5.1d"): "Each unit is placed in its company's or battalion's area. You decide: another placement "
                       "within the same areas, made in the scenario editor.",
    ("Leros", "Scenario 1"): "Set up, played and judged as the rulebook's scenario 1. Leros 1a starts at 0100 with "
                             "the night landings (one victory level to the British); Leros campaign C1 goes on to "
                             "17 November.",
    ("Leros", "Scenario 2"): "Set up, played and judged as the rulebook's scenario 2.",
    ("Leros", "Scenario 3"): "Set up, played and judged as the rulebook's scenario 3.",
    ("Leros", "Scenario 4"): "Set up, played and judged as the rulebook's scenario 4; Leros campaign C4 goes on to "
                             "17 November.",
    ("Leros", "Scenario 5"): "Set up, played and judged as the rulebook's scenario 5; Leros campaign C5 goes on to "
                             "17 November.",
}


def players_text(row: RuleRow, cited_as: str = "") -> str:
    """What a rule's row tells a player: what the program does, or else who decides and how."""
    own = PLAYERS_WORDING.get((cited_as, row.number))
    if own is not None:
        return own
    text = for_players(row.enforced) if row.enforced.strip() not in ("", "—") else ""
    note = row.note.strip()
    if note.startswith("heading"):
        return text or "The rules below, by number."
    extra = ""
    m = re.search(r"(player decides|players decide)\s*:?\s*(.*)", note, re.I)
    if m:
        extra = "You decide: " + for_players(m.group(2)).rstrip(".") + "."
    elif not text:
        extra = "Not applied by the program: you apply it as the rulebook says."
    if text and not text.endswith((".", "!", "?")):
        text += "."
    return " ".join(x for x in (text, extra) if x)


def _inline(text: str) -> str:
    """A table cell's Markdown (code spans, bold) as HTML."""
    out = html.escape(text)
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    return re.sub(r"\*\*([^*]+)\*\*", r"<b>\1</b>", out)


def reference_html(game: GameRules, marked: str | None = None) -> str:
    """The rules reference of one game as HTML, each rule with its anchor; the ``marked`` anchor is highlighted."""
    intro = PLAYERS_INTRO.get(game.cited_as) or for_players(game.intro)
    parts = [f"<h1><a name='{game.anchor}'></a>{html.escape(game.game)}: rules reference</h1>",
             f"<p>{_inline(intro)}</p>",
             "<p>Each rule by number with what the program does. Refusals cite these numbers "
             f"(\"{html.escape(game.cited_as)} …\").</p>",
             "<table cellspacing='0' cellpadding='4' border='1' style='border-collapse: collapse'>",
             "<tr><th>rule</th><th>title</th><th>what the program does</th></tr>"]
    for r in game.rows:
        style = " style='background-color: #fff3b0'" if r.anchor == marked else ""
        parts.append(f"<tr{style}><td><a name='{r.anchor}'></a><b>{html.escape(r.number)}</b></td>"
                     f"<td>{html.escape(r.title)}</td><td>{_inline(players_text(r, game.cited_as))}</td></tr>")
    parts.append("</table>")
    return "\n".join(parts)
