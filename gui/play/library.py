"""The game library: every shipped scenario and the user's own scenarios and saved games, grouped by game, each with
its title, situation, sides, length, playing time and rules, and a search box.  Picking a scenario goes on to the
New game choices (variants, seed, who plays which side); picking a saved game opens it where it stood.

Shown at the first start of the program and from File > New game…; the entries are read from the files' heads
(engine/scenario/catalog.py), never by loading every scenario.
"""
from __future__ import annotations

import html
import time
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QFileDialog, QHeaderView, QLabel, QLineEdit, QPushButton,
                               QSplitter, QTextBrowser, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget)

from engine import content
from engine.scenario.catalog import Library, LibraryEntry, read_library

from gui.help.howto import how_to_play_title

ENTRY = Qt.UserRole              # an item's LibraryEntry (None on a game's own row)
GAME = Qt.UserRole + 1           # the game an item belongs to

# each game in a line or two, for the library's game rows (our own words)
GAMES = {
    "Demyansk Pocket": "An operational hex game of the winter of 1942 south of Lake Ilmen: German corps cut off "
                       "around Demyansk and the attack to reach them. Regiments and divisions, a die for each battle.",
    "Black Wednesday": "The Soviet offensive of 10-11 February 1943 at Krasni Bor against the Spanish Blue "
                       "Division, in the Tactical Combat Series: platoons and companies under written orders, "
                       "20-minute turns.",
    "Leros": "The German invasion of the island of Leros, 12-17 November 1943, in the Tactical Combat Series: "
             "landings from the sea and the air against the British garrison.",
    "Spanish Civil War skirmish": "A platoon or company skirmish on a table measured in inches, with no hexes: "
                                  "orders, Bravado and hidden machine-gun positions.",
    "River Crossing": "A small game of the program's own under the classic hex-and-counter rules: learn how the "
                      "window plays in half an hour.",
    "Free play": "A table with no rules: move any counter anywhere, roll any dice. Play a game the program has no "
                 "rules for.",
    "TCS series test": "A small test of the Tactical Combat Series engine: one sheet, a company attack, five turns.",
}


def games_folders() -> list[Path]:
    """Where the user's own scenarios and saved games are looked for: the Sandtable folder among the user's
    documents and the VASSAL imports."""
    from gui.common.userfolders import data_root, games_folder

    return [games_folder(), data_root() / "imports"]


class GameLibrary(QDialog):
    """The game library; ``chosen(path, saved)`` once the player picks an entry (a saved game: ``saved`` True)."""

    chosen = Signal(str, bool)
    how_to_play = Signal(str)             # the kind of game whose How to play page is asked for
    rules_reference = Signal(str)         # the game (as refusals cite it) whose rules reference is asked for
    import_requested = Signal()           # Import VASSAL module…: the library closes and the import is asked for

    def __init__(self, parent=None, current: str | Path | None = None, own: list[Path] | None = None,
                 leave_out: set[Path] = frozenset(), shipped: Path | None = None):
        super().__init__(parent)
        self.setObjectName("gamelibrary")
        self.setWindowTitle("Game library — choose a game")
        started = time.perf_counter()
        self.library: Library = read_library(shipped or content.scenarios(),
                                             own if own is not None else games_folders(), leave_out)
        self.read_seconds = time.perf_counter() - started
        lay = QVBoxLayout(self)
        intro = QLabel("Choose a scenario to play; its variants, the dice and who plays which side come next. "
                       "Your own scenarios and saved games (the Sandtable folder in your documents) are listed "
                       "with their game.")
        intro.setWordWrap(True)
        lay.addWidget(intro)
        self.search = QLineEdit()
        self.search.setObjectName("library-search")
        self.search.setPlaceholderText("Search: a title, a game, a side, a place, a ruleset…")
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self.filter)
        lay.addWidget(self.search)
        split = QSplitter(Qt.Horizontal)
        self.tree = QTreeWidget()
        self.tree.setObjectName("library-list")
        self.tree.setColumnCount(4)
        self.tree.setHeaderLabels(["Title", "Turns", "Playing time", "Rules"])
        self.tree.setTextElideMode(Qt.ElideMiddle)      # a cut title keeps its start and its end
        self.tree.setUniformRowHeights(True)
        self.tree.setAlternatingRowColors(True)
        header = self.tree.header()
        header.setSectionResizeMode(0, QHeaderView.Stretch)
        for col in (1, 2, 3):
            header.setSectionResizeMode(col, QHeaderView.ResizeToContents)
        self.tree.currentItemChanged.connect(lambda item, _old: self._show(item))
        self.tree.itemActivated.connect(lambda item, _col: self.choose())
        split.addWidget(self.tree)
        self.details = QTextBrowser()
        self.details.setObjectName("library-details")
        self.details.setOpenLinks(False)
        self.details.anchorClicked.connect(self._link)
        right = QWidget()
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        rl.addWidget(self.details, 1)
        self.howto_button = QPushButton("How to play")
        self.howto_button.setObjectName("library-howto")
        self.howto_button.setToolTip("How to play this kind of game in the program: a turn, moving, fighting, "
                                     "undoing and saving")
        self.howto_button.clicked.connect(self._ask_how_to_play)
        rl.addWidget(self.howto_button)
        split.addWidget(right)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setSizes([760, 420])
        lay.addWidget(split, 1)
        self.count_label = QLabel()
        lay.addWidget(self.count_label)
        self.buttons = QDialogButtonBox(QDialogButtonBox.Cancel)
        self.file_button = QPushButton("Other file…")
        self.file_button.setToolTip("A scenario or saved game that is not in the library")
        self.file_button.clicked.connect(self._pick_file)
        self.buttons.addButton(self.file_button, QDialogButtonBox.ActionRole)
        self.import_button = QPushButton("Import VASSAL module…")
        self.import_button.setObjectName("library-import")
        self.import_button.setToolTip("A game you have as a VASSAL module (.vmod): its maps, counters and set-ups "
                                      "become scenarios listed here")
        self.import_button.clicked.connect(self._ask_import)
        self.buttons.addButton(self.import_button, QDialogButtonBox.ActionRole)
        self.choose_button = self.buttons.addButton("Choose…", QDialogButtonBox.AcceptRole)
        self.choose_button.setObjectName("library-choose")
        self.choose_button.setDefault(True)
        self.buttons.accepted.connect(self.choose)
        self.buttons.rejected.connect(self.reject)
        lay.addWidget(self.buttons)
        self._fill()
        self._select(Path(current) if current else default_scenario())
        self.resize(1220, 700)

    # ------------------------------------------------------------ the list
    def _fill(self) -> None:
        self.tree.clear()
        bold = QFont()
        bold.setBold(True)
        for game in self.library.games():
            top = QTreeWidgetItem([game])
            top.setData(0, ENTRY, None)
            top.setData(0, GAME, game)
            top.setFont(0, bold)
            top.setFirstColumnSpanned(True)
            top.setToolTip(0, GAMES.get(game, game))
            self.tree.addTopLevelItem(top)
            for e in self.library.of_game(game):
                title = list_title(e) + (" (yours)" if not e.shipped and not e.saved else "")
                turns = e.saved_turn_short if e.saved else (str(e.turns) if e.turns else "")   # a save: its turn
                item = QTreeWidgetItem([title, turns, e.playing_text, e.ruleset_text])
                item.setData(0, ENTRY, e)
                item.setData(0, GAME, game)
                item.setToolTip(0, f"{e.title}\n{e.path}")         # the whole title, however narrow the column
                item.setToolTip(1, e.saved_turn if e.saved and e.saved_turn else e.turns_text)
                if e.problem:
                    item.setToolTip(0, f"{e.title}\n{e.path}\n{e.problem}")
                top.addChild(item)
            top.setExpanded(True)
        self._count()

    def items(self) -> list[QTreeWidgetItem]:
        """Every scenario and saved game row (not the games' own rows)."""
        out = []
        for i in range(self.tree.topLevelItemCount()):
            top = self.tree.topLevelItem(i)
            out += [top.child(j) for j in range(top.childCount())]
        return out

    def visible_entries(self) -> list[LibraryEntry]:
        return [it.data(0, ENTRY) for it in self.items() if not it.isHidden()]

    def filter(self, text: str) -> None:
        """Show the entries every word of ``text`` is found in (a game's name finds all its scenarios)."""
        for i in range(self.tree.topLevelItemCount()):
            top = self.tree.topLevelItem(i)
            shown = 0
            for j in range(top.childCount()):
                item = top.child(j)
                hit = item.data(0, ENTRY).matches(text)
                item.setHidden(not hit)
                shown += hit
            top.setHidden(shown == 0)
        current = self.tree.currentItem()
        if current is None or current.isHidden():
            first = next((it for it in self.items() if not it.isHidden()), None)
            self.tree.setCurrentItem(first)
            if first is None:
                self._show(None)
        self._count()

    def _count(self) -> None:
        shown = self.visible_entries()
        total = len(self.items())
        games = len({e.game for e in shown})
        self.count_label.setText(f"{len(shown)} of {total} scenarios and saved games, in {games} game(s)"
                                 if self.search.text() else f"{total} scenarios and saved games in {games} games")

    def _select(self, path: Path | None) -> None:
        items = self.items()
        pick = None
        if path is not None:
            want = Path(path).resolve()
            pick = next((it for it in items if it.data(0, ENTRY).path.resolve() == want), None)
        pick = pick or (items[0] if items else None)
        if pick is not None:
            self.tree.setCurrentItem(pick)
            self.tree.scrollToItem(pick)

    def select_title(self, title: str) -> bool:
        """Select the entry of that title (False if there is none shown)."""
        for it in self.items():
            if not it.isHidden() and it.data(0, ENTRY).title == title:
                self.tree.setCurrentItem(it)
                return True
        return False

    def current_entry(self) -> LibraryEntry | None:
        item = self.tree.currentItem()
        return item.data(0, ENTRY) if item is not None else None

    def current_game(self) -> str:
        item = self.tree.currentItem()
        return item.data(0, GAME) if item is not None else ""

    # ------------------------------------------------------------ details
    def _show(self, item) -> None:
        e = item.data(0, ENTRY) if item is not None else None
        game = item.data(0, GAME) if item is not None else ""
        if item is None:
            self.details.setHtml("<p>No scenario matches the search.</p>")
        elif e is None:
            first = next(iter(self.library.of_game(game)), None)
            kind = first.how_to_play if first is not None else ""
            howto = (f"<p><a href='howto:{kind}'>{html.escape(how_to_play_title(kind))}</a></p>" if kind else "")
            self.details.setHtml(f"<h2>{html.escape(game)}</h2><p>{html.escape(GAMES.get(game, ''))}</p>{howto}"
                                 f"{rules_link(game)}<p>Pick one of its scenarios in the list.</p>")
        else:
            self.details.setHtml(entry_html(e))
        kind = self._kind()
        self.howto_button.setEnabled(bool(kind))
        self.howto_button.setText(how_to_play_title(kind) if kind else "How to play")
        self.choose_button.setEnabled(e is not None and not e.problem)
        self.choose_button.setText("Continue this game" if e is not None and e.saved else "Choose…")

    def _kind(self) -> str:
        e = self.current_entry()
        if e is not None:
            return e.how_to_play
        first = next(iter(self.library.of_game(self.current_game())), None)
        return first.how_to_play if first is not None else ""

    def _link(self, url) -> None:
        if url.scheme() == "howto":
            self.how_to_play.emit(url.path())
        elif url.scheme() == "rules":
            self.rules_reference.emit(url.path())

    def _ask_how_to_play(self) -> None:
        kind = self._kind()
        if kind:
            self.how_to_play.emit(kind)

    # ------------------------------------------------------------ the answer
    def choose(self) -> bool:
        """Pick the selected entry: its path goes to the New game choices (a saved game opens as it stood)."""
        e = self.current_entry()
        if e is None or e.problem:
            return False
        self.accept()
        self.chosen.emit(str(e.path), e.saved)
        return True

    def _ask_import(self) -> None:
        self.accept()
        self.import_requested.emit()

    def _pick_file(self) -> None:
        from gui.common.userfolders import games_folder

        start = games_folder() if games_folder().is_dir() else Path.home()
        path, _ = QFileDialog.getOpenFileName(self, "Choose a scenario or saved game", str(start),
                                              "Scenarios and saved games (*.toml)")
        if path:
            from engine.scenario.catalog import read_entry

            e = read_entry(path)
            self.accept()
            self.chosen.emit(path, bool(e is not None and e.saved))


def default_scenario() -> Path | None:
    """The scenario selected when nothing is open: the program's default (Demyansk scenario I)."""
    from engine.content import default_file

    return default_file()


def list_title(e: LibraryEntry) -> str:
    """A title as the list shows it under its game: without the game's name in front ("Black Wednesday 4: Melee
    in Krasni Bor" -> "4: Melee in Krasni Bor"); the whole title is in the tooltip and the details."""
    if e.title.startswith(e.game + " ") and len(e.title) > len(e.game) + 3:
        rest = e.title[len(e.game) + 1:]
        return rest[:1].upper() + rest[1:]
    return e.title


def rules_link(game: str) -> str:
    """A link to the game's rules reference in Help (for the games the reference covers), else nothing."""
    from gui.help.reference import CITED_AS

    cited = CITED_AS.get(game)
    return f"<p><a href='rules:{html.escape(cited)}'>Rules reference: {html.escape(game)}</a></p>" if cited else ""


def entry_html(e: LibraryEntry) -> str:
    """What the library says of one scenario or saved game."""
    rows = [("Game", e.game), ("Situation", e.situation), ("Sides", ", ".join(e.sides)),
            ("Length", e.turns_text), ("Playing time", e.playing_text + (" (an estimate, solitaire)"
                                                                        if e.playing_text else "")),
            ("Rules", e.ruleset_text + (f" — {e.rule}" if e.rule else ""))]
    if e.saved:
        rows[3:3] = [("Computer plays", e.computer_text or ("nobody: you play every side" if e.sides else ""))]
        rows.insert(0, ("Saved game", e.saved_text + " — Continue opens it where it stood"))
        rows.insert(1, ("Turn", e.saved_turn))
    if e.problem:
        rows.insert(0, ("Cannot be read", e.problem))
    table = "".join(f"<tr><td valign='top'><b>{html.escape(k)}</b></td><td>{html.escape(v)}</td></tr>"
                    for k, v in rows if v)
    howto = (f"<p><a href='howto:{e.how_to_play}'>{html.escape(how_to_play_title(e.how_to_play))}</a></p>"
             if e.how_to_play else "")
    where = "shipped with Sandtable" if e.shipped else str(e.path)
    return (f"<h2>{html.escape(e.title)}</h2><table cellspacing='0' cellpadding='3'>{table}</table>{howto}"
            f"{rules_link(e.game) if e.ruleset != 'classic' else ''}"
            f"<p style='color: #666'>{html.escape(e.path.name)} — {html.escape(where)}</p>")


# ---------------------------------------------------------------- the play window's hooks
def show_library(window, first_start: bool = False, select: str | Path | None = None) -> GameLibrary:
    """Open the library over the play window (not modal, so that a help page opened from it comes over it); a
    scenario picked goes to its New game dialog, a saved game is opened.  ``select`` is the file selected at first
    (else the open scenario, else the default one)."""
    old = getattr(window, "library_dlg", None)
    if old is not None and old.isVisible():        # asked again while open: the one already shown comes forward
        old.raise_()
        old.activateWindow()
        return old
    current = getattr(window.scenario, "path", None) if window.scenario is not None else None
    current = select or current
    own = games_folders() + [p for p in window.recent_files() if p.suffix == ".toml"]   # saved games opened lately
    dlg = GameLibrary(window, current=current, own=own, leave_out={Path(window.autosave)})
    if first_start:
        dlg.setWindowTitle("Welcome to Sandtable — choose a game")
    dlg.chosen.connect(lambda path, saved: _chosen(window, path, saved))
    dlg.how_to_play.connect(window.menus.show_how_to_play)
    dlg.rules_reference.connect(window.menus.show_rule)
    dlg.import_requested.connect(lambda: window.import_vassal())
    window.library_dlg = dlg
    dlg.setWindowModality(Qt.NonModal)             # not modal: How to play opens over it, not hidden behind it
    dlg.show()
    return dlg


def _chosen(window, path: str, saved: bool) -> None:
    if saved:
        window.open_file(Path(path))
    else:
        window.new_game_dialog(Path(path))
