"""The help window: the project's Markdown documents rendered inside the program, and each game's rules reference
with the rule a refusal cites brought into view; the About box."""
from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices, QTextDocument
from PySide6.QtWidgets import QMainWindow, QMessageBox, QTextBrowser

from .reference import DOCS, GameRules, find_rule, read_reference, reference_html

from engine import content

# the documents for people who make maps and scenarios (the players' pages are gui/help/howto.py's)
DOCUMENTS = (("Rules the engine enforces, by number", DOCS / "rules-coverage.md"),
             ("Line of sight", DOCS / "los.md"), ("Map files", DOCS / "map-format.md"),
             ("Scenario files", DOCS / "scenario-format.md"), ("The skirmish turn", DOCS / "skirmish-turn.md"),
             ("Importing VASSAL modules", DOCS / "vassal-import.md"),
             ("Finding the grid on a scan", DOCS / "grid-detection.md"))


def help_documents() -> list[tuple[str, Path]]:
    """The documents the Help menu shows: Getting started, then the makers' documents (titles and files present)."""
    from .howto import GETTING_STARTED

    return [("Getting started", GETTING_STARTED)] + [(title, path) for title, path in DOCUMENTS if path.is_file()]


def document_title(path: Path) -> str:
    """A document's own title (its first "# " heading), else its file name."""
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.startswith("# "):
                    return line[2:].strip()
                if line.strip():
                    break
    except (OSError, UnicodeDecodeError):
        pass
    return Path(path).name


IMAGE = re.compile(r"!\[([^\]]*)\]\(([^)\s]+)\)")


def without_missing_images(text: str, folder: Path) -> str:
    """A Markdown text whose pictures that are not there (an installed program ships no screenshots) are left out."""
    def keep(m):
        target = m.group(2)
        if "://" in target or (folder / target).is_file():
            return m.group(0)
        return ""
    return IMAGE.sub(keep, text)


class HelpBrowser(QTextBrowser):
    """A text browser that reads Markdown documents without the pictures they name but the program lacks."""

    def loadResource(self, kind, url):
        if kind == QTextDocument.MarkdownResource and url.isLocalFile():
            path = Path(url.toLocalFile())
            try:
                return without_missing_images(path.read_text(encoding="utf-8"), path.parent)
            except OSError:
                pass
        return super().loadResource(kind, url)


class HelpWindow(QMainWindow):
    """One window for every help page: a Markdown document or a game's rules reference."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("helpwindow")
        self.setWindowTitle("Sandtable help")
        self.browser = HelpBrowser()
        self.browser.setOpenLinks(False)
        self.browser.anchorClicked.connect(self._follow)
        self.setCentralWidget(self.browser)
        self.reference: list[GameRules] | None = None
        self.page = ""                  # what is shown: a document's path, or "rules:<game>#<anchor>"

    def _rules(self) -> list[GameRules]:
        if self.reference is None:
            self.reference = read_reference()
        return self.reference

    def show_document(self, path: Path) -> None:
        """Render a Markdown document (links to other documents open here too)."""
        self.browser.setSource(QUrl.fromLocalFile(str(Path(path).resolve())), QTextDocument.MarkdownResource)
        self.page = str(Path(path).resolve())
        self.setWindowTitle(f"Sandtable help — {document_title(Path(path))}")
        self._present()

    def show_rules(self, game: GameRules, anchor: str | None = None) -> None:
        """A game's rules reference, scrolled to (and marking) the rule ``anchor`` if given."""
        self.browser.setHtml(reference_html(game, anchor))
        self.page = f"rules:{game.cited_as}#{anchor or ''}"
        self.setWindowTitle(f"Sandtable help — {game.game}: rules reference")
        self._present()
        if anchor:
            self.browser.scrollToAnchor(anchor)

    def show_citation(self, citation: str) -> bool:
        """Open the rules reference at the rule a refusal cites; False when no game of the reference is cited."""
        found = find_rule(self._rules(), citation)
        if found is None:
            return False
        game, row = found
        self.show_rules(game, row.anchor if row is not None else None)
        return True

    def closeEvent(self, event) -> None:
        from gui.common.settings import save_layout

        save_layout(self)
        super().closeEvent(event)

    def _present(self) -> None:
        self.show()
        self.raise_()
        self.activateWindow()

    def _follow(self, url: QUrl) -> None:
        if url.scheme() == "rule":
            self.show_citation(url.path())
        elif url.isLocalFile() and url.toLocalFile().endswith(".md"):
            self.show_document(Path(url.toLocalFile()))
        elif url.isRelative() and url.hasFragment() and not url.path():
            self.browser.scrollToAnchor(url.fragment())
        elif url.isRelative() and url.path().endswith(".md"):
            base = Path(self.page).parent if self.page and not self.page.startswith("rules:") else DOCS
            self.show_document((base / url.path()).resolve())
        else:
            QDesktopServices.openUrl(url)


def about_text() -> str:
    from engine import __version__

    return (f"<h3>Sandtable {__version__}</h3>"
            "<p>Play paper wargames solitaire: the scanned map with its hex grid, counters dragged and dropped, "
            "a rules engine that refuses illegal moves citing the rule, rolls the dice and keeps an undoable, "
            "replayable log; editors that turn a scan into a digital map and a scenario's text into a set-up.</p>"
            "<p>Saved games record the version that wrote them.</p>")


def about_box(parent) -> QMessageBox:
    """Help > About: the version (the installed package's, one source) and what the program does; not blocking."""
    box = QMessageBox(QMessageBox.Information, "About Sandtable", about_text(), QMessageBox.Ok, parent)
    box.setObjectName("aboutbox")
    box.setTextFormat(box.textFormat())
    box.open()
    return box
