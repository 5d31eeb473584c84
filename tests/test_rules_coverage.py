"""docs/rules-coverage.md: every test it cites exists, and every numbered rule of the seeds has its row."""
from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "rules-coverage.md"
TESTS = ROOT / "tests"

# The numbered rules of the Demyansk Pocket table of contents (2.1 to 9.3).
DEMYANSK_RULES = ("2.1", "2.2", "2.3", "3", "4", "5", "5.1", "5.2", "5.3", "6", "6.1", "6.2", "6.3", "6.4",
                  "6.5", "6.6", "6.7", "7.1", "7.2", "7.3", "8.1", "8.2", "8.3", "8.4", "9.1", "9.2", "9.3")


def _lettered(number: str, last: str) -> list[str]:
    """``1.1`` and ``g`` give 1.1a, 1.1b, ... 1.1g."""
    return [f"{number}{chr(c)}" for c in range(ord("a"), ord(last) + 1)]


# Every number Black Wednesday prints, headings included, and its eight scenarios.
BLACK_WEDNESDAY_RULES = (
    ["1.0", "1.1", *_lettered("1.1", "g"), "1.2", *_lettered("1.2", "d"), "1.3", *_lettered("1.3", "d"),
     "1.4", *_lettered("1.4", "e"), "1.5", "1.6", "1.7", "1.8", "1.9", "1.10", *_lettered("1.10", "k"),
     "1.11", *_lettered("1.11", "c"), "1.12",
     "2.0", "2.1", *_lettered("2.1", "f"), "2.2", *_lettered("2.2", "d"), "2.3", *_lettered("2.3", "f"),
     "2.4", *_lettered("2.4", "g"), "2.5", *_lettered("2.5", "b"), "2.6", "2.7", "2.8",
     "3.0", "3.1", *_lettered("3.1", "d"), "3.2", *_lettered("3.2", "d"), "3.3", *_lettered("3.3", "b"),
     "3.4", "3.5", *_lettered("3.5", "c"),
     "4.0", "4.1", *_lettered("4.1", "d"), "4.2", "4.2a", "4.3", "4.4", "4.5", "4.6", "4.7",
     "5.0", "5.1"]
    + [f"Scenario {n}" for n in range(1, 9)])

# Every number Leros prints; it prints 3.6h twice (Landing in the Ocean, Flight of the Valkyries).
LEROS_RULES = (
    ["1.0", "1.1", *_lettered("1.1", "g"), "1.2", *_lettered("1.2", "i"), "1.3", "1.4", *_lettered("1.4", "d"),
     "1.5", "1.6", "1.7",
     "2.0", "2.1", *_lettered("2.1", "e"), "2.2", "2.3", *_lettered("2.3", "b"), "2.4", "2.5", "2.6", "2.7",
     "3.0", "3.1", *_lettered("3.1", "c"), "3.2", *_lettered("3.2", "b"), "3.3", *_lettered("3.3", "b"),
     "3.4", "3.5", "3.6", *_lettered("3.6", "j"), "3.6h",
     "4.0", *[f"4.{n}" for n in range(1, 8)],
     "5.0", "5.1", *_lettered("5.1", "h"), "5.2", *_lettered("5.2", "b")]
    + [f"Scenario {n}" for n in range(1, 6)])

QUALIFIED = re.compile(r"`(?:tests/)?(test_\w+\.py)::(\w+)`")
EVERY_IN = re.compile(r"`(test_\w+)\*` in `(?:tests/)?(test_\w+\.py)`")
FILE = re.compile(r"`(?:pytest )?(?:tests/)?(test_[\w*]+\.py)(?:`|::)")
TOKEN = re.compile(r"`(?:pytest )?(?:tests/)?(test_[\w*]+\.py)(?:`|::\w+`)|`(test_\w+)`")
RULE_NUMBER = re.compile(r"(Scenario \d+|\d+(?:\.\d+[a-z]?)?)\b")


def sections(text: str) -> dict[str, str]:
    """The doc's ``## `` sections by title."""
    out: dict[str, str] = {}
    title = ""
    for line in text.splitlines(keepends=True):
        if line.startswith("## "):
            title = line[3:].strip()
            out[title] = ""
        elif title:
            out[title] += line
    return out


def defined_functions(path: Path) -> set[str]:
    """The names of the functions a test file defines (module level and inside classes)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    return {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}


def broken_references(text: str, tests: Path = TESTS) -> list[str]:
    """Every citation in the doc that names no real test: a file, a test in a file, or a bare test name.

    A test name given without its file must be defined in the last file named before it in its section.
    """
    defined: dict[Path, set[str]] = {}

    def names(p: Path) -> set[str]:
        if p not in defined:
            defined[p] = defined_functions(p) if p.exists() else set()
        return defined[p]

    problems: list[str] = []
    for title, body in sections(text).items():
        for m in FILE.finditer(body):
            if not list(tests.glob(m.group(1))):
                problems.append(f"{title}: no test file {m.group(1)}")
        for m in QUALIFIED.finditer(body):
            p = tests / m.group(1)
            if p.exists() and m.group(2) not in names(p):
                problems.append(f"{title}: {m.group(1)} has no {m.group(2)}")
        for m in EVERY_IN.finditer(body):
            p = tests / m.group(2)
            if p.exists() and not any(n.startswith(m.group(1)) for n in names(p)):
                problems.append(f"{title}: {m.group(2)} has no {m.group(1)}*")
        current: Path | None = None
        for m in TOKEN.finditer(body):
            if m.group(1):
                if "*" not in m.group(1):
                    current = tests / m.group(1)
            elif current is None:
                problems.append(f"{title}: {m.group(2)} is cited before any test file is named")
            elif current.exists() and m.group(2) not in names(current):
                problems.append(f"{title}: {m.group(2)} is not in {current.name}, the last file named before it")
    return problems


def rule_rows(body: str) -> list[tuple[str, list[str]]]:
    """The table rows of a section: the rule number of the first cell and the cells."""
    rows = []
    for line in body.splitlines():
        if not line.startswith("|") or line.startswith("|---") or line.startswith("| rule"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        m = RULE_NUMBER.match(cells[0])
        if m:
            rows.append((m.group(1), cells))
    return rows


def missing_rules(body: str, numbers) -> list[str]:
    """Rule numbers (with their multiplicity) that have no row of their own in a section."""
    have = Counter(n for n, _ in rule_rows(body))
    want = Counter(numbers)
    return sorted(n for n in want if have[n] < want[n])


def doc_sections() -> dict[str, str]:
    return sections(DOC.read_text(encoding="utf-8"))


def test_every_test_the_doc_cites_exists():
    assert broken_references(DOC.read_text(encoding="utf-8")) == []


def test_a_made_up_test_or_file_is_caught():
    doc = ("## Demyansk Pocket\n\n| rule | what | test |\n|---|---|---|\n"
           "| 5.1 | x | `test_demyansk_movement.py::test_5_1_no_unit_enters_an_enemy_hex`, `test_5_1_made_up` |\n"
           "| 5.2 | x | `test_demyansk_movement.py::test_5_2_made_up`, `test_demyansk_nowhere.py::test_x`, "
           "every `test_9_9_*` in `test_demyansk_supply.py` |\n")
    assert broken_references(doc) == [
        "Demyansk Pocket: no test file test_demyansk_nowhere.py",
        "Demyansk Pocket: test_demyansk_movement.py has no test_5_2_made_up",
        "Demyansk Pocket: test_demyansk_supply.py has no test_9_9_*",
        "Demyansk Pocket: test_5_1_made_up is not in test_demyansk_movement.py, the last file named before it"]


def test_every_numbered_demyansk_rule_has_a_row():
    assert missing_rules(doc_sections()["Demyansk Pocket"], DEMYANSK_RULES) == []


def test_a_missing_demyansk_row_is_caught():
    body = doc_sections()["Demyansk Pocket"]
    without = "\n".join(line for line in body.splitlines() if not line.startswith("| 6.4 "))
    assert missing_rules(without, DEMYANSK_RULES) == ["6.4"]


def test_every_numbered_black_wednesday_rule_has_a_row():
    assert missing_rules(doc_sections()["Black Wednesday"], BLACK_WEDNESDAY_RULES) == []


def test_every_numbered_leros_rule_has_a_row_and_3_6h_has_two():
    body = doc_sections()["Leros"]
    assert missing_rules(body, LEROS_RULES) == []
    assert [n for n, _ in rule_rows(body)].count("3.6h") == 2


def test_each_tcs_row_names_a_test_or_says_why_not():
    for title in ("Black Wednesday", "Leros"):
        for number, cells in rule_rows(doc_sections()[title]):
            last = cells[-1]
            assert QUALIFIED.search(last) or last.startswith(("not enforced: ", "player decides: ", "heading")), \
                f"{title} {number}: the last cell names no test and gives no reason: {last!r}"


def test_every_tcs_series_row_ends_enforced_asked_in_play_or_player_decides():
    body = doc_sections()["Tactical Combat Series (series engine)"]
    rows = [line for line in body.splitlines() if line.startswith("| ") and not line.startswith("| procedure")]
    assert len(rows) > 30
    for line in rows:
        last = line.strip().strip("|").split("|")[-1].strip()
        assert last.endswith(")") and (last.startswith(("enforced (`", "needs a printed chart (asked in play; `",
                                                         "player decides ("))), f"no status at the end: {line[:60]!r}"
