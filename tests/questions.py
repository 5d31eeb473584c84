"""A window's Save / Discard / Cancel question asked as in a real window and answered by the test."""
from __future__ import annotations

from PySide6.QtWidgets import QMessageBox


def answer_questions(monkeypatch, window_class) -> tuple[list[str], list]:
    """``window_class`` asks as in a real window; each question is kept in the first list and answered with the
    next answer queued in the second (Discard when none is left: the window closed at the test's end)."""
    asked: list[str] = []
    queue: list = []

    def question(parent, title, text, *a, **k):
        asked.append(f"{title}\n{text}")
        return queue.pop(0) if queue else QMessageBox.Discard

    monkeypatch.setattr(window_class, "_offscreen", lambda self: False)
    monkeypatch.setattr(QMessageBox, "question", staticmethod(question))
    return asked, queue
