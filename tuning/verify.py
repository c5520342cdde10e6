"""The verification: tuned against starting parameters on fresh seeds, paired game by game.

Both play the same focused tournament (same field, same seed, hence the same deals and
seatings); only the candidate's parameters differ. Games are paired by their deal and seating
(the candidate's seat masked), not by game index, since the runner orders entrants by label and
the two candidates' labels need not sort alike. The unit of the paired test is the deal (every
table of one size shares its deals, each replayed under every seating): per deal, the
difference of the two candidates' win rates, then a t interval on its mean. Each arm's win rate gets a Wilson
interval clustered by deal (a deterministic field replays a deal's games alike).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as sps

from reports.stats import clustered_wilson
from tournaments import TournamentResult

__all__ = ["Arm", "Verification", "compare"]

SEAT_COLUMNS = [f"seat_{s}" for s in range(6)]
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

    @property
    def verdict(self) -> str:
        """'improved', 'worse' or 'no significant difference' (95% interval of the difference)."""
        if self.diff_low > 0:
            return "improved"
        if self.diff_high < 0:
            return "worse"
        return "no significant difference"

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["verdict"] = self.verdict
        return d


def _games(result: TournamentResult, label: str) -> pd.DataFrame:
    """Per game, sorted by deal and seating: ``key`` (deal seed and who sits where, ``label``
    masked), ``deal`` (its seed) and ``won`` (did ``label`` win)."""
    df = result.games(["deal_seed", "winner", *SEAT_COLUMNS])
    seats = df[SEAT_COLUMNS].astype(object).where(df[SEAT_COLUMNS].notna(), "")
    seats = seats.replace({label: CANDIDATE})
    key = df["deal_seed"].astype(str)
    for col in SEAT_COLUMNS:
        key = key + "|" + seats[col].astype(str)
    out = pd.DataFrame(
        {
            "key": key,
            "deal": df["deal_seed"].to_numpy(),
            "won": (df["winner"].astype(object) == label).to_numpy(),
        }
    )
    return out.sort_values("key", kind="stable").reset_index(drop=True)


def _arm(spec: str, label: str, won: np.ndarray, deal: np.ndarray) -> Arm:
    n, k = len(won), int(won.sum())
    lo, hi = clustered_wilson(won, deal)
    return Arm(spec, label, n, k, k / n, float(lo), float(hi))


def compare(
    tuned: tuple[str, str, TournamentResult],
    start: tuple[str, str, TournamentResult],
    seed: int,
) -> Verification:
    """Paired comparison of two (spec, label, result) arms played on the same seed."""
    gt, gs = _games(tuned[2], tuned[1]), _games(start[2], start[1])
    if len(gt) != len(gs) or not gt["key"].equals(gs["key"]):
        raise RuntimeError("the verification arms did not play the same games: cannot pair them")
    won_t, won_s = gt["won"].to_numpy(), gs["won"].to_numpy()
    _, inverse = np.unique(gt["deal"].to_numpy(), return_inverse=True)
    per_set = np.bincount(inverse, weights=won_t.astype(float) - won_s.astype(float))
    per_set /= np.bincount(inverse)
    m = len(per_set)
    mean = float(per_set.mean())
    se = float(per_set.std(ddof=1) / np.sqrt(m)) if m > 1 else float("nan")
    if se > 0:
        half = float(sps.t.ppf(0.975, m - 1)) * se
        p = float(2 * sps.t.sf(abs(mean / se), m - 1))
    elif m > 1:  # every set gave the same difference
        half, p = 0.0, (1.0 if mean == 0 else 0.0)
    else:
        half, p = float("inf"), float("nan")
    return Verification(
        seed=seed,
        tuned=_arm(tuned[0], tuned[1], won_t, gt["deal"].to_numpy()),
        start=_arm(start[0], start[1], won_s, gs["deal"].to_numpy()),
        diff=mean,
        diff_low=mean - half,
        diff_high=mean + half,
        p_value=p,
        units=m,
    )
