"""What every window shares: menus, settings and the user's folders, the status line, the new-game dialog, the
computer player's thread and the start-up check of Qt's system libraries. It may import ``engine`` and
``gui.scene``; never a window package."""
