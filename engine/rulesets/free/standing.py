"""How a scenario's general victory conditions stand now (free, classic, and Demyansk scenarios that give conditions)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Standing:
    """One victory condition now: who holds it, in one line, its figures, and hexes to show on the map."""

    name: str
    rule: str
    leader: str | None
    summary: str
    figures: tuple[tuple[str, str], ...] = ()
    hexes: tuple[str, ...] = ()


def judge_standing(judge, facts, over: bool, turn: int, last_turn: int) -> list[Standing]:
    """Each condition judged on the facts of a state (the game need not be over), and the verdict if it ended now."""
    if judge is None:
        return []
    out = judge.outcome(facts)
    judged = "now: the game is over" if over else f"at the end of turn {last_turn} (now turn {turn})"
    result = []
    for cid, c in out.breakdown.get("conditions", {}).items():
        met = c["met"]
        result.append(Standing(cid, c.get("rule", ""), c["side"] if met else None,
                               f"{'met' if met else 'not met'} for {c['side']}: {c['detail']}",
                               (("side", c["side"]), ("met", "yes" if met else "no"), ("now", c["detail"]))))
    result.append(Standing("Verdict if the game ended now", judge.victory.rule or "", out.winner,
                           f"{out.winner or 'nobody'}: {out.reason}",
                           (("level", str(out.breakdown.get("level", ""))),
                            ("score", str(out.breakdown.get("score", 0))), ("judged", judged))))
    return result
