"""The verification: tuned against starting parameters on fresh seeds, paired game by game.

Both play the same focused tournament (same field, same seed, and the tuned parameters in the
start's seat: ``tuning.evaluate.Field``, hence the same deals and seatings); only the
candidate's parameters differ. Games are paired by their deal and seating (the candidate's seat
masked), not by game index, and two arms whose seatings differ are refused rather than paired. The unit of the paired test is the deal (every
table is dealt its own cards, each deal replayed under every seating, so a deal seed names one
duplicate set): the tuned arm's win rate less the start's (the two rates printed), paired set
by set, with the stratified cluster-robust t interval of the reports
(``reports.clusters.rate_differences``: the sets independent, the tables strata; a table with
more games weighs more, as in the rates). Each arm's win rate gets the reports' interval too.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import pandas as pd

from reports.clusters import clustered_rate, given, rate_differences
from reports.numbers import (
    apart_digits,
    difference_interval,
    fixed,
    flat_sets,
    in_percentage_points,
)
from reports.stats import within
from reports.unfinished_line import unfinished_clause
from tournaments import TournamentResult

__all__ = ["Arm", "Verification", "compare"]

CANDIDATE = "\0candidate"  # stands for either candidate when the two arms' seatings are compared


@dataclass(frozen=True)
class Arm:
    """One candidate's result in the verification tournament."""

    spec: str
    label: str
    games: int
    wins: int
    win_rate: float
    ci_low: float
    ci_high: float


@dataclass(frozen=True)
class Verification:
    """Tuned vs start on the same fresh deals: both arms and their paired difference."""

    seed: int
    tuned: Arm
    start: Arm
    diff: float  # tuned win rate - start win rate
    diff_low: float
    diff_high: float
    p_value: float
    units: int  # deals paired
    games_differing: int = -1  # games one arm won and the other did not (-1: not counted)
    unfinished: str = ""  # both arms' games that stopped unfinished, in words ("": none)

    @property
    def flat(self) -> int:
        """The deals paired where every one gave the same difference (no interval, but the
        sign test's p-value: ``reports.clusters.Estimates.flat``); 0 otherwise."""
        return flat_sets(self.diff_low, self.diff_high, self.p_value, self.units)

    def digits(self, least: int = 1) -> int:
        """The decimals the difference and its interval are written with, in percentage
        points (``reports.numbers.apart_digits``): ``least``, more while the bounds would read
        alike, so [-0.04, +0.05] is not written '[+0.0, +0.0]', as if it had no width, or while
        a bound other than 0 would read 0, on either side of it ('[+0.0, +0.2]' of
        [-0.04, +0.2] would read as clear of 0). A bound that four decimals still write as 0
        keeps its side by its sign (``span``: '[-0.0, +2.0]')."""
        return apart_digits(self.diff_low, self.diff_high, least)

    def difference(self, least: int = 1, of: str = "") -> str:
        """The difference and its interval as a sentence writes them, with the decimals that
        set them apart (``digits``): '+1.2 percentage points [+0.4, +2.0]', with ``of`` after
        the unit ('of win rate')."""
        k = self.digits(least)
        unit = in_percentage_points(fixed(100 * self.diff, k, "+"))
        return f"{unit}{' ' + of if of else ''} {self.span(k)}"

    def span(self, digits: int = 1) -> str:
        """The difference's 95% interval in percentage points, '[+0.4, +2.0]', each bound on
        its own side of 0 (``reports.numbers.difference_interval``, the one rule: never '+0.0'
        of a bound below 0), or in words why there is none: the deals showed no spread, or too
        few deals."""
        return difference_interval(self.diff_low, self.diff_high, 100.0, digits, self.flat)

    @property
    def verdict(self) -> str:
        """'improved', 'worse' or 'no significant difference' (95% interval of the difference;
        where the deals showed no spread, the sign test at 5%); 'too few deals to tell' where
        the run is too small for either; 'no game differed' when both arms won exactly the
        same games."""
        if self.games_differing == 0:
            return "no game differed"
        if not np.isfinite(self.diff_low):
            if not self.flat:
                return "too few deals to tell"
            if self.p_value >= 0.05:
                return "no significant difference"
            return "improved" if self.diff > 0 else "worse"
        if self.diff_low > 0:
            return "improved"
        if self.diff_high < 0:
            return "worse"
        return "no significant difference"

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["verdict"] = self.verdict
        return d


def _seat_columns(result: TournamentResult) -> list[str]:
    """The seat columns of the run's largest table: those beyond it are empty, and a variant
    for fewer seats writes fewer (one for two players has seat_0 and seat_1 only)."""
    return [f"seat_{s}" for s in range(max(result.spec["players"]))]


def _games(result: TournamentResult, label: str) -> pd.DataFrame:
    """Per game, sorted by deal and seating: ``key`` (deal seed and who sits where, ``label``
    masked), ``deal`` (its seed) and ``won`` (did ``label`` win)."""
    columns = _seat_columns(result)
    df = result.games(["deal_seed", "table", "winner", *columns])
    seats = df[columns].astype(object).where(df[columns].notna(), "")
    seats = seats.replace({label: CANDIDATE})
    key = df["deal_seed"].astype(str)
    for col in columns:
        key = key + "|" + seats[col].astype(str)
    out = pd.DataFrame(
        {
            "key": key,
            "deal": df["deal_seed"].to_numpy(),
            "table": df["table"].to_numpy(),
            "won": (df["winner"].astype(object) == label).to_numpy(),
        }
    )
    return out.sort_values("key", kind="stable").reset_index(drop=True)


def _played(label: str, result: TournamentResult) -> str:
    """The label ``label``'s arm played under in ``result``: its focus, which is the start's
    label where the tuned parameters took the start's seat (``tuning.evaluate.Field``)."""
    return result.spec.get("focus") or label


def _arm(spec: str, label: str, won: np.ndarray, deal: np.ndarray, table: np.ndarray) -> Arm:
    n, k = len(won), int(won.sum())
    lo, hi = clustered_rate(won, deal, table)
    return Arm(spec, label, n, k, k / n, float(lo), float(hi))


def compare(
    tuned: tuple[str, str, TournamentResult],
    start: tuple[str, str, TournamentResult],
    seed: int,
) -> Verification:
    """Paired comparison of two (spec, label, result) arms played on the same seed, with how
    many of their games stopped unfinished at the game's limits (the win rates count them as
    the game does: a verdict drawn from games that never ended says so)."""
    gt, gs = _games(tuned[2], _played(*tuned[1:])), _games(start[2], _played(*start[1:]))
    if len(gt) != len(gs) or not gt["key"].equals(gs["key"]):
        raise RuntimeError("the verification arms did not play the same games: cannot pair them")
    won_t, won_s = gt["won"].to_numpy(), gs["won"].to_numpy()
    cl = given(gt["deal"].to_numpy(), gt["table"].to_numpy())
    games = np.bincount(cl.of_game).astype(float)
    m = len(games)
    sets = [(np.bincount(cl.of_game, weights=w.astype(float), minlength=m), games)
            for w in (won_t, won_s)]  # fmt: skip
    est = rate_differences(sets[0], sets[1], np.zeros(m, np.int64), np.arange(m), 1, cl)
    lo, hi = within(*est.interval())  # a difference of rates: within +-100 points
    return Verification(
        seed=seed,
        tuned=_arm(tuned[0], tuned[1], won_t, gt["deal"].to_numpy(), gt["table"].to_numpy()),
        start=_arm(start[0], start[1], won_s, gs["deal"].to_numpy(), gs["table"].to_numpy()),
        diff=float(est.value[0]),
        diff_low=float(lo[0]),
        diff_high=float(hi[0]),
        p_value=float(est.p_value()[0]),
        units=m,
        games_differing=int(np.count_nonzero(won_t != won_s)),
        unfinished=unfinished_clause([tuned[2], start[2]]),
    )
