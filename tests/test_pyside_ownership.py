"""PySide6 (6.11) hands a QGraphicsItem that Python did not create back to Python's ownership when
``parentItem()`` or ``toGraphicsObject()`` answers None; the scene then deletes it and Python deletes it again in a
later garbage collection, which kills the program long after the call. The GUI asks ``topLevelItem()`` or keeps
its own references instead; this test keeps those calls out of gui/."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RISKY = re.compile(r"\.(parentItem|toGraphicsObject)\(\)")


def test_no_graphics_item_call_that_gives_an_item_to_python():
    found = [f"{p.relative_to(ROOT)}:{n}" for p in sorted((ROOT / "gui").rglob("*.py"))
             for n, line in enumerate(p.read_text().splitlines(), 1)
             if RISKY.search(line.split("#", 1)[0])]
    assert found == []


def test_the_pattern_finds_the_calls():
    assert RISKY.search("item = item.parentItem()") and RISKY.search("x.toGraphicsObject()")
    assert not RISKY.search("top = item.topLevelItem()")
