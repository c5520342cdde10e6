"""tuning: find better parameters for a strategy by playing tournaments (CMA-ES).

``tune(spec, against=[...])`` searches the parameters the strategy declares as ``tunable``,
scoring each candidate by its win rate against a field in a focused tournament (every table
seats the candidate), with duplicate deals and the same deals for every candidate of a
generation; then it checks the result on fresh seeds against the starting parameters. It sits
above ``reports`` in the layering: it plays through ``tournaments`` and uses the report
statistics for its intervals.
"""

from __future__ import annotations

from .space import Space
from .tune import TuneResult, tune

__all__ = ["Space", "TuneResult", "tune"]
