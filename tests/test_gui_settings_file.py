"""The settings file is the user's to edit: a value of the wrong type falls back to its default with a message
naming the file and the key, and every other value is still used (File > Open and Save as keep working)."""
from __future__ import annotations

import pytest
from PySide6.QtCore import QSize

from gui.common import settings as S
from playwindow import play_window


@pytest.fixture(autouse=True)
def fresh_messages(monkeypatch):
    monkeypatch.setattr(S, "_problems", {}, raising=False)


def write_ini(text: str) -> str:
    path = S.settings().fileName()
    from pathlib import Path

    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(text)
    return path


@pytest.mark.parametrize("value,found", [
    ("a, b", "a list of 2 values"),
    ("@ByteArray(xyz)", "binary data (3 bytes)"),
    ("@Rect(1 2 3 4)", "a value of type QRect"),
    ("@Size(3 4)", "a value of type QSize"),
])
def test_a_last_folder_of_the_wrong_type_falls_back_with_a_message(qtbot, capsys, value, found):
    from PySide6.QtWidgets import QMainWindow

    win = QMainWindow()
    qtbot.addWidget(win)
    S.save_window(win, "play")          # a remembered layout: kept
    path = write_ini(open(S.settings().fileName()).read() + f"\n[files]\nlast_folder={value}\n")
    assert S.last_folder() is None
    message = f"{path}: files/last_folder: expected the path of a folder, found {found}; the default is used"
    assert S.problems() == [message] and capsys.readouterr().err == message + "\n"
    assert S.restore_window(win, "play", QSize(800, 600))        # the rest of the file is still used
    S.last_folder()
    assert len(S.problems()) == 1          # said once a run


def test_file_open_and_save_as_keep_working(tmp_path, qtbot, monkeypatch):
    win = play_window(qtbot, tmp_path, size=(1000, 700), monkeypatch=monkeypatch)
    write_ini("[files]\nlast_folder=a, b\n")
    assert win.menus.open_start() and win.menus.save_start().endswith(".toml")


def test_a_window_layout_of_the_wrong_type_is_set_aside_and_the_folder_kept(tmp_path, qtbot):
    from PySide6.QtWidgets import QMainWindow

    win = QMainWindow()
    qtbot.addWidget(win)
    S.remember_folder(tmp_path / "x.toml")
    path = write_ini(open(S.settings().fileName()).read() + "\n[play]\ngeometry=12\nstate=a, b, c\n")
    assert not S.restore_window(win, "play", QSize(800, 600))
    assert S.problems() == [
        f"{path}: play/geometry: expected a window's size and place as saved (binary data), found the text '12'; "
        "the default is used",
        f"{path}: play/state: expected a window's docks and toolbars as saved (binary data), found a list of 3 "
        "values; the default is used"]
    assert S.last_folder() == tmp_path


def test_a_folder_name_the_system_refuses_is_no_folder(tmp_path):
    S.settings().setValue("files/last_folder", "a\x00b")
    assert S.last_folder() is None
    S.settings().setValue("files/last_folder", "x" * 10_000)
    assert S.last_folder() is None
    assert S.problems() == []               # text, as expected: simply no folder


def test_a_games_panel_layout_of_the_wrong_type_is_set_aside_with_a_message(tmp_path, qtbot, monkeypatch):
    win = play_window(qtbot, tmp_path, size=(1000, 700), monkeypatch=monkeypatch)
    key = win.panels._state_key("demyansk")
    path = write_ini(f"[{key.split('/')[0]}]\n{key.split('/', 1)[1].replace('/', chr(92))}=a, b\n")
    win.panels.kind = None
    win.panels.switch("demyansk")
    assert not win.panels.restored
    assert S.problems() == [f"{path}: {key}: expected a window's panels as saved (binary data), found a list of 2 "
                            f"values; the default is used"]
