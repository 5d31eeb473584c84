"""The "New game" dialog: a scenario, its variants, the seed, and who plays each side (the player or the computer)."""
from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDialog, QDialogButtonBox, QDoubleSpinBox, QFileDialog,
                               QFormLayout, QGroupBox, QHBoxLayout, QLabel, QPushButton, QSpinBox, QVBoxLayout,
                               QWidget)

from engine.errors import BadFile
from engine.scenario.newgame import ScenarioOffer, scenario_offer

SEED_MAX = 2**31 - 1
ME, COMPUTER = "me", "computer"
PLAYED_BY = ((ME, "me"), (COMPUTER, "the computer"))
DEFAULT_BUDGET = 2.0            # seconds the strong player may plan one combat phase's battles
LEVELS = (("baseline", "baseline (quick, rules of thumb)"),
          ("strong", "strong (plans its battles with the rules)"))


@dataclass(frozen=True)
class NewGameChoice:
    """What the player chose: the scenario file, its variants (ids, in the scenario's order), seed, computer's sides."""

    path: str
    variants: tuple[str, ...]
    seed: int
    computer: frozenset[str]
    bot: str = "baseline"          # the computer's player (engine.computer.BOTS)
    options: tuple = ()            # its options as (name, value) pairs (the strong player's thinking budget)


def _same_file_key(path) -> str | None:
    """A file's path, resolved, so that two spellings of the same scenario compare equal; None for no path."""
    if not path:
        return None
    try:
        return str(Path(path).resolve())
    except (OSError, RuntimeError):
        return str(path)


def random_seed() -> int:
    """A fresh seed for new dice."""
    return random.SystemRandom().randrange(1, SEED_MAX)


class NewGameDialog(QDialog):
    """Choose a scenario, its variants, the seed and the sides' players; ``choice()`` once accepted."""

    def __init__(self, path: str | Path | None = None, seed: int | None = None, computer=(), variants=(),
                 parent=None, current_seed: int | None = None, bot: str = "baseline",
                 current_path: str | Path | None = None):
        super().__init__(parent)
        self.setWindowTitle("New game")
        self.setObjectName("newgamedialog")
        self.offer: ScenarioOffer | None = None
        self.problem = ""
        self._computer_default = frozenset(computer)     # sides shown as the computer's at first
        self._variants_default = frozenset(variants)     # variants shown ticked at first (the game in progress's)
        lay = QVBoxLayout(self)
        top = QHBoxLayout()
        self.scenario_label = QLabel()
        self.scenario_label.setWordWrap(True)
        self.scenario_label.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.pick_button = QPushButton("Choose a scenario file…")
        self.pick_button.clicked.connect(self._pick_file)
        top.addWidget(self.scenario_label, 1)
        top.addWidget(self.pick_button)
        lay.addLayout(top)
        self.variants_box = QGroupBox("Variants")
        self.variants_layout = QVBoxLayout(self.variants_box)
        lay.addWidget(self.variants_box)
        self.sides_box = QGroupBox("Played by")
        self.sides_layout = QFormLayout(self.sides_box)
        lay.addWidget(self.sides_box)
        level_row = QWidget()
        lrl = QHBoxLayout(level_row)
        lrl.setContentsMargins(0, 0, 0, 0)
        lrl.addWidget(QLabel("The computer plays as:"))
        self.level_box = QComboBox()
        self.level_box.setObjectName("computer-level")
        self.level_box.setToolTip("The baseline player answers at once; the strong player works out its battles "
                                  "with the rules' own odds and results, taking a moment a phase")
        self._bot_default = bot
        lrl.addWidget(self.level_box, 1)
        lrl.addWidget(QLabel("thinking at most"))
        self.budget_box = QDoubleSpinBox()
        self.budget_box.setObjectName("computer-budget")
        self.budget_box.setRange(0.5, 30.0)
        self.budget_box.setSingleStep(0.5)
        self.budget_box.setValue(DEFAULT_BUDGET)
        self.budget_box.setSuffix(" s at a time")
        self.budget_box.setToolTip("The longest the strong player thinks before it answers: its planning of a combat "
                                   "phase's battles, or one move or order")
        lrl.addWidget(self.budget_box)
        self.level_box.currentIndexChanged.connect(
            lambda _i: self.budget_box.setEnabled(self.level_box.currentData() == "strong"))
        lay.addWidget(level_row)
        seed_row = QWidget()
        srl = QHBoxLayout(seed_row)
        srl.setContentsMargins(0, 0, 0, 0)
        srl.addWidget(QLabel("Seed for the dice:"))
        self.seed_box = QSpinBox()
        self.seed_box.setRange(0, SEED_MAX)
        self.seed_box.setToolTip("The same scenario, variants, seed and actions always give the same game")
        self.seed_box.setValue(random_seed() if seed is None else int(seed))
        srl.addWidget(self.seed_box, 1)
        self.reroll = QPushButton("New dice")
        self.reroll.clicked.connect(lambda: self.seed_box.setValue(random_seed()))
        srl.addWidget(self.reroll)
        lay.addWidget(seed_row)
        self.current_seed = current_seed       # the seed of the game in progress: shown, and one click to reuse it
        # ... offered only while the game in progress's own scenario is chosen: another scenario's dice are new ones
        self.current_path = _same_file_key(current_path if current_path is not None else path)
        self.current_row = QWidget()
        crl = QHBoxLayout(self.current_row)
        crl.setContentsMargins(0, 0, 0, 0)
        self.current_label = QLabel(f"The game in progress uses seed {current_seed}")
        self.current_label.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.same_seed = QPushButton("Use this seed")
        self.same_seed.setToolTip("Play the same dice again: same scenario, variants, seed and actions, same game")
        self.same_seed.clicked.connect(lambda: self.seed_box.setValue(int(current_seed)))
        crl.addWidget(self.current_label, 1)
        crl.addWidget(self.same_seed)
        self.current_row.setVisible(False)
        lay.addWidget(self.current_row)
        self.problem_label = QLabel()
        self.problem_label.setWordWrap(True)
        self.problem_label.setStyleSheet("color: #a00")
        lay.addWidget(self.problem_label)
        self.buttons = QDialogButtonBox(QDialogButtonBox.Cancel)
        self.start_button = self.buttons.addButton("Start", QDialogButtonBox.AcceptRole)
        self.start_button.setDefault(True)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        lay.addWidget(self.buttons)
        self.variant_boxes: dict[str, QCheckBox] = {}
        self.side_boxes: dict[str, QComboBox] = {}
        if path is not None:
            self.set_scenario(path)
        else:
            self._show_problem("Choose a scenario file to play")
        self.resize(520, self.sizeHint().height())

    # ------------------------------------------------------------ the scenario
    def set_scenario(self, path: str | Path) -> bool:
        """Show a scenario's variants and sides; a file that cannot be read is named with what is wrong (False)."""
        try:
            offer = scenario_offer(path)
        except (BadFile, OSError) as e:
            text = "\n".join(str(p) for p in e.problems[:8]) if isinstance(e, BadFile) else f"{path}: {e}"
            self.offer = None
            self._clear()
            self.scenario_label.setText(f"Scenario: {Path(path).name}")
            self._show_current_seed()
            self._show_problem(f"Cannot start this scenario:\n{text}")
            return False
        self.offer = offer
        self._clear()
        self.scenario_label.setText(f"<b>{offer.name}</b><br>{Path(offer.path).name}")
        self.scenario_label.setToolTip(str(offer.path))
        for v in offer.variants:
            box = QCheckBox(v.name)
            box.setObjectName(f"variant-{v.id}")
            box.setToolTip(v.text or v.name)
            box.setChecked(v.id in self._variants_default)
            self.variants_layout.addWidget(box)
            self.variant_boxes[v.id] = box
        if not offer.variants:
            self.variants_layout.addWidget(QLabel("This scenario has no variants"))
        from engine.computer import has_baseline

        # rules no computer player knows (the TCS): the sides are the player's, never "the computer" shown chosen
        # from the last game and then refused once the game has started
        playable = has_baseline(offer.ruleset) if offer.ruleset else True
        for s in offer.sides:
            combo = QComboBox()
            combo.setObjectName(f"side-{s.id}")
            for key, text in PLAYED_BY:
                if key == COMPUTER and not playable and s.fixed != COMPUTER:
                    continue
                combo.addItem(text, key)
            who = s.fixed or (COMPUTER if s.id in self._computer_default and playable else ME)
            combo.setCurrentIndex(combo.findData(who))
            if not playable and not s.fixed:
                combo.setEnabled(False)
                combo.setToolTip("There is no computer player for these rules yet: you play every side.")
            if s.fixed:
                combo.setEnabled(False)
                combo.setToolTip("the rules play the defenders here" if s.fixed == COMPUTER else "always the player")
            self.sides_layout.addRow(f"{s.name}:", combo)
            self.side_boxes[s.id] = combo
        if not playable:
            note = QLabel("There is no computer player for these rules yet: you play every side.")
            note.setObjectName("no-computer-player")
            self.sides_layout.addRow(note)
        self._fill_levels(offer)
        self._show_current_seed()
        self._show_problem("")
        return True

    def _show_current_seed(self) -> None:
        """The game in progress's seed is offered only for its own scenario."""
        same = (self.current_seed is not None and self.offer is not None
                and self.current_path is not None and _same_file_key(self.offer.path) == self.current_path)
        self.current_row.setVisible(same)

    def _fill_levels(self, offer) -> None:
        """The computer players this scenario's rules have: the baseline always, the strong one where it knows them."""
        from engine.computer import has_strong

        ruleset = getattr(offer, "ruleset", "") or ""
        self.level_box.clear()
        for key, text in LEVELS:
            if key == "baseline" or has_strong(ruleset):
                self.level_box.addItem(text, key)
        i = self.level_box.findData(self._bot_default)
        self.level_box.setCurrentIndex(max(i, 0))
        self.level_box.setEnabled(self.level_box.count() > 1)
        self.budget_box.setEnabled(self.level_box.currentData() == "strong")

    def _clear(self) -> None:
        for layout in (self.variants_layout, self.sides_layout):
            while layout.count():
                item = layout.takeAt(0)
                if item.widget() is not None:
                    item.widget().deleteLater()
        self.variant_boxes, self.side_boxes = {}, {}

    def _show_problem(self, text: str) -> None:
        self.problem = text
        self.problem_label.setText(text)
        self.problem_label.setVisible(bool(text))
        self.start_button.setEnabled(self.offer is not None)

    def _pick_file(self) -> None:
        start = str(Path(self.offer.path).parent) if self.offer else ""
        path, _ = QFileDialog.getOpenFileName(self, "Choose a scenario", start, "Scenarios (*.toml)")
        if path:
            self.set_scenario(path)

    # ------------------------------------------------------------ the answer
    def set_played_by(self, side: str, who: str) -> None:
        """Have ``side`` played by ``me`` or ``computer`` (a fixed side stays as it is)."""
        combo = self.side_boxes[side]
        if combo.isEnabled():
            combo.setCurrentIndex(combo.findData(who))

    def choice(self) -> NewGameChoice | None:
        """The scenario, variants, seed and the computer's sides chosen; None without a playable scenario."""
        if self.offer is None:
            return None
        variants = tuple(v.id for v in self.offer.variants if self.variant_boxes[v.id].isChecked())
        computer = frozenset(s.id for s in self.offer.sides
                             if self.side_boxes[s.id].currentData() == COMPUTER and not s.fixed)
        bot = self.level_box.currentData() or "baseline"
        options = (("budget", float(self.budget_box.value())),) if bot == "strong" else ()
        return NewGameChoice(str(self.offer.path), variants, self.seed_box.value(), computer, bot, options)
