"""Sandtable's PySide6 application: views, editors and dialogs. No game rule lives here."""
