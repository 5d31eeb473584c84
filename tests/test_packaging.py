"""What the wheel and the desktop bundle rely on: content found through the package, help pages without the
pictures an installed program does not ship, and only the Qt modules the bundle keeps."""
from __future__ import annotations

import re
from pathlib import Path

from engine import content

ROOT = Path(__file__).resolve().parents[1]
KEPT_QT = {"QtCore", "QtGui", "QtWidgets"}


def test_the_content_of_a_checkout_is_its_top_folder():
    assert content.root() == ROOT
    assert (content.scenarios() / "demyansk-1-trapped.toml").is_file()
    assert (content.maps() / "demo.toml").is_file()
    assert (content.docs() / "rules-coverage.md").is_file() and content.readme().is_file()
    assert (content.assets() / "icon" / "sandtable-256.png").is_file()


def test_the_program_finds_its_default_scenario_and_documents_through_the_content_module():
    from gui.app import default_file
    from gui.help.reference import COVERAGE

    assert default_file() == content.default_file() == content.scenarios() / "demyansk-1-trapped.toml"
    assert COVERAGE == content.docs() / "rules-coverage.md"


def test_the_bundle_leaves_out_every_qt_module_but_the_three_the_program_imports():
    used = set()
    for p in list((ROOT / "gui").rglob("*.py")) + list((ROOT / "engine").rglob("*.py")):
        if p.name == "screenshots.py":          # a developer's screenshot script (QtTest), not the program
            continue
        used |= set(re.findall(r"PySide6\.(Qt\w+)", p.read_text(encoding="utf-8")))
    assert used == KEPT_QT
    spec = (ROOT / "packaging" / "sandtable.spec").read_text(encoding="utf-8")
    excluded = set(re.findall(r'"(Qt\w+)"', spec))
    assert not (excluded & KEPT_QT) and {"QtNetwork", "QtQml", "QtQuick", "QtPdf"} <= excluded


def test_help_pages_leave_out_pictures_that_are_not_there(qtbot, tmp_path):
    from PySide6.QtGui import QColor, QImage

    from gui.help.viewer import HelpWindow, without_missing_images

    img = QImage(4, 4, QImage.Format_RGB32)
    img.fill(QColor("red"))
    img.save(str(tmp_path / "here.png"))
    text = "# Page\n\nkept: ![a](here.png)\n\ngone: ![b](screenshots/missing.png)\n\nweb: ![c](https://x.org/y.png)\n"
    assert without_missing_images(text, tmp_path) == (
        "# Page\n\nkept: ![a](here.png)\n\ngone: \n\nweb: ![c](https://x.org/y.png)\n")
    (tmp_path / "page.md").write_text(text, encoding="utf-8")
    win = HelpWindow()
    qtbot.addWidget(win)
    win.show_document(tmp_path / "page.md")
    html = win.browser.document().toHtml()
    assert "here.png" in html and "missing.png" not in html


def test_the_icon_and_desktop_files_are_complete():
    assets = content.assets()
    for n in (16, 24, 32, 48, 64, 128, 256, 512):
        assert (assets / "icon" / f"sandtable-{n}.png").is_file()
    assert (assets / "icon" / "sandtable.ico").is_file() and (assets / "icon" / "sandtable.icns").is_file()
    desktop = (assets / "linux" / "sandtable.desktop").read_text(encoding="utf-8")
    assert "Exec=sandtable" in desktop and "Icon=sandtable" in desktop
    listed = (assets / "README.md").read_text(encoding="utf-8")
    for p in assets.rglob("*"):
        if p.is_file() and p.name != "README.md" and p.suffix != ".py":
            name = p.name
            assert name in listed or re.sub(r"-\d+\.png$", "-<N>.png", name) in listed, name
