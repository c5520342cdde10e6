"""The docs say a difference of two rates in percentage points, as the tool does.

A game's own score is counted in points (the expert variant's match to 20, cards left), so a
bare "points" after a win-rate difference could be read as a score: the pages said
"weighted - taker = +4.1 points" and "+8.4 points [+5.8, +11.0]" where the tool prints
``reports.numbers.PERCENTAGE_POINTS``. The scan below reads the figures that can only be a
difference of rates: a signed one, one with an interval after it, a "+-" or "±" half-width, a
standard deviation, and "points of win rate".
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from reports.numbers import PERCENTAGE_POINT

ROOT = Path(__file__).resolve().parents[1]
PAGES = ["README.md"] + [f"docs/{name}.md" for name in (
    "strength", "reports", "research", "strategies", "cli", "variants", "tournaments",
    "rules-core", "tuning", "mutation",
)]  # fmt: skip
"""The pages this scan reads. Ligretto's pages are not among them: its scores are counted in
points, signed ones too ('+1 point' a card played to the centre)."""

NUMBER = r"\d[\d,]*(?:\.\d+)?"
BARE = r"(?<!percentage )points?\b"
RATE_FIGURES = re.compile(
    "|".join((
        rf"[+-]{NUMBER}\** {BARE}",  # a signed difference: '+4.1 points'
        rf"(?:\+-|±) ?{NUMBER}(?:-{NUMBER})?\** {BARE}",  # a half-width: '±0.3 points'
        rf"{NUMBER}\** {BARE}\** \[",  # a figure with its interval: '2.6 points [0.7, 4.4]'
        rf"\bsd {NUMBER} {BARE}",  # a standard deviation of a rate
        rf"{BARE} of win rate",  # the unit named outright
    ))
)  # fmt: skip


def bare_rate_points(text: str) -> list[str]:
    """The phrases of ``text`` that give a difference of rates in bare points."""
    flat = " ".join(text.split())  # a figure and its unit may be on two lines
    return [m.group(0) for m in RATE_FIGURES.finditer(flat)]


@pytest.mark.parametrize("page", PAGES)
def test_a_page_says_a_difference_of_rates_in_percentage_points(page):
    assert bare_rate_points((ROOT / page).read_text(encoding="utf-8")) == []


@pytest.mark.parametrize(
    "said",
    [
        "weighted - taker = +4.1 points [+3.6, +4.6]",
        "the defaults are ahead by **+14.1 points** [+11.5,\n+16.7]",
        "wins **+3.8\npoints** [+1.1, +6.4] more",
        "`c=1.0` loses 2.6 points [0.7, 4.4] to `c=0.7`",
        "every win rate's interval is about ±0.3 points",
        "the intervals of B - A are +-0.4 to +-0.7 points, where",
        "93.4% covered, sd 2.57 points)",
        "Over the move, in points of win rate a decision",
        "at 3 players +1 point [-0.3, +2.4]",
    ],
)
def test_the_scan_finds_the_slip(said):
    assert bare_rate_points(said), said
    fixed = re.sub(r"\bpoint", PERCENTAGE_POINT, said)  # the unit the tool prints
    assert bare_rate_points(fixed) == [], fixed


@pytest.mark.parametrize(
    "said",
    [
        "leaves play --expert  # games until someone has 20 points",
        "`--target` takes 1 to 1,000 points, as `--rules expert_target` does.",
        "a round's score is +10 in Ligretto",
        "Both point the same way, ours ahead",
        "(registered through the strategies' entry points):",
    ],
)
def test_the_scan_leaves_a_game_s_points_alone(said):
    assert bare_rate_points(said) == []
