"""The stratified variance of a sum of per-cluster contributions: every interval of the reports
rests on it (``reports.clusters``).

Within a stratum (a table, or the tables dealt once of one size) the clusters' contributions
vary around the stratum's mean; the variance of their sum is the within-stratum sample
variances summed, ``D / (D - 1)`` times the squared deviations, and the degrees of freedom are
the clusters less the strata. A cluster alone in its stratum cannot tell its deal's luck from
its stratum's mean: counted as no variance, it made a difference that lives in that one set
(one table of a size dealt once, whose rules changed its games while every other set's stayed
the same) look exact. So a group with a cluster alone in its stratum takes all its clusters as
one stratum: the spread between the strata then counts as variance too (conservative, as the
pooling of tables dealt once is), and a group of one cluster has no degree of freedom (no
interval: too few deals).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["Spread", "stratified"]


class Spread(NamedTuple):
    """Per group: the variance of the sum, its degrees of freedom and the clusters it rests
    on; ``pooled`` where a cluster alone in its stratum made the group one stratum."""

    var: np.ndarray
    df: np.ndarray
    units: np.ndarray
    pooled: np.ndarray


def _within(key: np.ndarray, u: np.ndarray, cells: int) -> tuple[np.ndarray, np.ndarray]:
    """Per cell of ``key``: (its clusters, ``D / (D - 1)`` times their squared deviations
    from the cell's mean; 0 for a cell of one)."""
    cnt = np.bincount(key, minlength=cells).astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.bincount(key, weights=u, minlength=cells) / cnt
        ss = np.bincount(key, weights=(u - mean[key]) ** 2, minlength=cells)
        return cnt, np.where(cnt >= 2, cnt / (cnt - 1) * ss, 0.0)


def stratified(
    u: np.ndarray, group: np.ndarray, stratum: np.ndarray, n_groups: int, n_strata: int
) -> Spread:
    """The ``Spread`` per group of the sum of per-cluster contributions ``u`` (cluster ``i``
    in ``group[i]`` and ``stratum[i]``): within-stratum sample variances, summed; the degrees
    of freedom are the clusters less the strata that have two or more. A group with a cluster
    alone in its stratum takes its clusters as one stratum (the module's docstring says why)."""
    group = np.asarray(group, dtype=np.int64)
    stratum = np.asarray(stratum, dtype=np.int64)
    key = group * n_strata + stratum
    cnt = np.bincount(key, minlength=n_groups * n_strata)
    alone = np.bincount(group, weights=cnt[key] == 1, minlength=n_groups) > 0
    pooled = alone & (np.bincount(group, minlength=n_groups) >= 2)  # one cluster: no df anyway
    if pooled.any():  # one more stratum, n_strata: the pooled groups' only one
        stratum = np.where(pooled[group], n_strata, stratum)
        n_strata += 1
        key = group * n_strata + stratum
    cnt_, v = _within(key, u, n_groups * n_strata)
    var = v.reshape(n_groups, n_strata).sum(axis=1)
    df = np.maximum(cnt_ - 1, 0).reshape(n_groups, n_strata).sum(axis=1)
    units = cnt_.reshape(n_groups, n_strata).sum(axis=1)
    return Spread(var, df, units, pooled)
