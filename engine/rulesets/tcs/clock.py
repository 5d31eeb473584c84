"""The Turn Record Track: clock names ("0600 10 Feb"), day, twilight and night turns, full-hour turns.

Day turns last 20 minutes from 0600 to 1740; night turns last an hour from
1800 to 0500 (tcs-facts 6: every scenario length in both games matches).
Which turns are twilight is printed on each game's track, so it is data.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from engine.errors import excerpt

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
DAY, TWILIGHT, NIGHT = "day", "twilight", "night"


@dataclass(frozen=True)
class Turn:
    """One turn of the track: when it is and what kind of turn it is."""

    when: datetime
    kind: str

    @property
    def hhmm(self) -> str:
        return f"{self.when.hour:02d}{self.when.minute:02d}"

    @property
    def label(self) -> str:
        """``0600 10 Feb``: the clock name a scenario and the log use."""
        return f"{self.hhmm} {self.when.day} {MONTHS[self.when.month - 1]}"

    @property
    def full_hour(self) -> bool:
        """Turns ending -00 (TCS sequence of play: Command Phase steps 7 and 8)."""
        return self.when.minute == 0


def is_day_time(t: datetime) -> bool:
    return 6 <= t.hour < 18


def is_turn_time(t: datetime) -> bool:
    """True for a time the track prints: 20-minute steps by day, whole hours by night."""
    if is_day_time(t):
        return t.minute in (0, 20, 40)
    return t.minute == 0


def next_turn_time(t: datetime) -> datetime:
    return t + timedelta(minutes=20 if is_day_time(t) else 60)


def parse_clock(text: str, year: int) -> datetime:
    """``0600 10 Feb`` as a time (ValueError says what a clock name looks like)."""
    parts = str(text).split()
    try:
        hhmm, day, month = parts
        t = datetime(year, MONTHS.index(month.capitalize()[:3]) + 1, int(day), int(hhmm[:2]), int(hhmm[2:]))
    except (ValueError, IndexError):
        raise ValueError(f"expected a clock name like \"0600 10 Feb\", not {excerpt(text)}") from None
    if len(hhmm) != 4:
        raise ValueError(f"expected a clock name like \"0600 10 Feb\", not {excerpt(text)}")
    if not is_turn_time(t):
        raise ValueError(f"{excerpt(text)} is not a turn on the track (day turns every 20 minutes 0600-1740, "
                         "night turns on the hour 1800-0500)")
    return t


def turn_track(start: datetime, end: datetime, twilight: frozenset[str] = frozenset()) -> list[Turn]:
    """Every turn from ``start`` to ``end`` inclusive; ``twilight`` holds the HHMM times printed as twilight."""
    if end < start:
        raise ValueError("the last turn comes before the first")
    out = []
    t = start
    while t <= end:
        hhmm = f"{t.hour:02d}{t.minute:02d}"
        kind = TWILIGHT if hhmm in twilight else DAY if is_day_time(t) else NIGHT
        out.append(Turn(t, kind))
        t = next_turn_time(t)
    return out
