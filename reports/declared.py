"""The tables a game asks for in its declaration beyond the common ones.

- ``means``: per strategy, the mean of every declared mean column per seat with a 95% interval
  (e.g. points, cards left in the stack, cards in the centre per round).
- ``by_parameter``: the rank value by strategy and by the value of a declared strategy
  parameter (e.g. a ``speed``: is it better to be 10% faster or to play smarter?).
- ``outcomes``: per table size, the share of every declared yes/no column with a 95% interval
  (e.g. rounds ended by blockade) and the mean of every length column, both over the rows
  the lengths table counts: not those ended by a forfeit (cut short, by no declared outcome).

All are computed from the run's arrays (``reports.data.Games``), read by the declaration;
a game that declares none of these gets none of the tables. A mean is over the rows not ended
by a forfeit, for every seat at the table, the forfeiting one and the others alike: such a row
was not played to its end, so its values (0 where the game stored them) measure nothing, as
its win measures nothing in the summary's ``valid_games``; ``valid_seats`` says how many
seats a mean is over (a strategy may sit twice at a table: seats, not rows), ``seats`` how
many were taken.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pandas as pd

from .clusters import Estimates, clustered_rate, clusters, ratio_estimates, table_sums
from .data import MISSING, Games, Run
from .loading import as_games, as_run

__all__ = ["VALID", "means", "by_parameter", "outcomes", "split_label"]

VALID = "valid_{}"
"""The outcomes table's column of the rows its shares are over (not ended by a forfeit),
named with the game's unit in the plural ('valid_rounds')."""

_LABEL = re.compile(r"^(?P<base>[^(]+)(?:\((?P<params>.*)\))?$")


def _measured(g: Games, values: np.ndarray) -> np.ndarray:
    """bool (N, S): the occupied seats that have a value, in rows not ended by a forfeit."""
    return (g.seats >= 0) & (values != MISSING) & ~g.forfeited[:, None]


def _estimates(g: Games, values: np.ndarray, codes_of: np.ndarray, n_groups: int) -> Estimates:
    """Per group (``codes_of[strategy code]``, -1: none): the mean of ``values`` (N, S) over
    the seats ``_measured``, with the reports' interval over duplicate sets."""
    seats = g.seats.astype(np.int64)
    ok = _measured(g, values)
    codes = np.where(ok, codes_of[np.maximum(seats, 0)], -1)
    x = np.where(ok, values, 0)
    cl = clusters(g)
    return ratio_estimates(table_sums(codes, x, cl.of_game, n_groups, cl.n), cl)


def _mean_ci(est: Estimates, name: str) -> dict[str, np.ndarray]:
    """The means, their 95% intervals and ``<name>_no_spread``: the duplicate sets where
    every one gave the same mean (``Estimates.flat``: no spread to give an interval from,
    which is not too few deals), else 0."""
    lo, hi = est.interval()
    flat = np.where(est.flat(), est.units, 0).astype(np.int64)
    return {f"{name}_mean": est.value, f"{name}_ci_low": lo, f"{name}_ci_high": hi,
            f"{name}_no_spread": flat}  # fmt: skip


def _seats(g: Games, values: np.ndarray, codes_of: np.ndarray, n_groups: int) -> dict[str, Any]:
    """Per group: ``seats``, the occupied seats that have a value, and ``valid_seats``, those
    of them a mean is over (``_measured``)."""
    seats = g.seats.astype(np.int64)
    out = {}
    for name, ok in (("seats", (seats >= 0) & (values != MISSING)),
                     ("valid_seats", _measured(g, values))):  # fmt: skip
        codes = np.where(ok, codes_of[np.maximum(seats, 0)], n_groups)
        out[name] = np.bincount(codes.ravel(), minlength=n_groups + 1)[:n_groups].astype(np.int64)
    return out


def means(data: Any, order: list[str] | None = None) -> pd.DataFrame | None:
    """Per strategy: seats taken, ``valid_seats`` (those in rows not ended by a forfeit: what
    the means are over) and, for every declared mean column, its mean per seat with a
    95% interval (over duplicate sets, as every interval of the reports). Best rank value
    first when the rank value is one of the columns, else in ``order``. None when the game
    declares no mean columns."""
    g = as_games(data)
    d = g.declaration
    if not g.means:
        return None
    k = g.n_strategies
    first = next(iter(g.means.values()))
    df = pd.DataFrame({"strategy": list(g.labels), **_seats(g, first, np.arange(k), k)})
    for c, values in g.means.items():
        for name, v in _mean_ci(_estimates(g, values, np.arange(k), k), c).items():
            df[name] = v
    df = df[df["seats"] > 0]
    if d.rank_value in g.means:
        df = df.sort_values([f"{d.rank_value}_mean", "strategy"],
                            ascending=[not d.higher_is_better, True])  # fmt: skip
    elif order:
        df = df.set_index("strategy").reindex([s for s in order if s in set(df["strategy"])])
        df = df.reset_index()
    return df.reset_index(drop=True)


def split_label(label: str) -> tuple[str, dict[str, str]]:
    """``"stack(speed=1.1,look_ms=40)"`` -> ``("stack", {"speed": "1.1", "look_ms": "40"})``."""
    m = _LABEL.match(label)
    if not m:
        return label, {}
    params = {}
    for item in (m.group("params") or "").split(","):
        key, eq, value = item.partition("=")
        if eq:
            params[key.strip()] = value.strip()
    return m.group("base"), params


def _without(label: str, param: str) -> tuple[str, str | None]:
    base, params = split_label(label)
    rest = ",".join(f"{k}={v}" for k, v in params.items() if k != param)
    return base + (f"({rest})" if rest else ""), params.get(param)


def recorded_params(run: Run) -> dict[str, dict[str, Any]]:
    """Per entrant label: the parameters its manifest records (``spec.entrants[].params``),
    which are what it played at; a strategy's own defaults need not be the game's, nor show
    in its label. Empty for a run without a manifest."""
    spec = run.manifest.get("spec") if isinstance(run.manifest, dict) else None
    entrants = spec.get("entrants") if isinstance(spec, dict) else None
    out: dict[str, dict[str, Any]] = {}
    for e in entrants if isinstance(entrants, list) else []:
        if isinstance(e, dict) and isinstance(e.get("params"), dict):
            out[str(e.get("label"))] = e["params"]
    return out


def _played_at(label: str, param: str, default: float, recorded: dict[str, Any]
               ) -> tuple[str, float]:  # fmt: skip
    """An entrant's strategy (its label without ``param``) and the value it played ``param``
    at: the recorded one, else (no manifest) the label's, else the declared default."""
    base, shown = _without(label, param)
    value = recorded.get(param, shown)
    return base, float(value) if value is not None else default


def by_parameter(data: Any) -> pd.DataFrame | None:
    """For each declared parameter: the mean rank value with a 95% interval by strategy (its
    label without that parameter) and the value the entrant played the parameter at (the
    manifest's record, ``recorded_params``; a frame without a manifest reads it from the
    label, the declared default where the label shows none), over the rows not ended by a
    forfeit. Long form: parameter, strategy, value, seats, valid_seats, <rank>_mean, ci. None
    when the game declares no parameters or the run plays each at one value only."""
    run = as_run(data)
    g = run.games
    d = g.declaration
    if not d.parameters:
        return None
    rank = d.rank_value
    recorded = recorded_params(run)
    frames = []
    for param, default in d.parameters.items():
        keys = [_played_at(lab, param, default, recorded.get(lab, {})) for lab in g.labels]
        groups = sorted(set(keys))
        index = {key: i for i, key in enumerate(groups)}
        codes_of = np.array([index[key] for key in keys])
        seats = _seats(g, g.values, codes_of, len(groups))
        est = _estimates(g, g.values, codes_of, len(groups))
        df = pd.DataFrame({"parameter": param, "strategy": [b for b, _ in groups],
                           "value": [v for _, v in groups], **seats,
                           **_mean_ci(est, rank)})  # fmt: skip
        df = df[df["seats"] > 0]
        if df["value"].nunique() > 1:  # a parameter every entrant plays at one value says nothing
            frames.append(df)
    return pd.concat(frames, ignore_index=True) if frames else None


def outcomes(data: Any) -> pd.DataFrame | None:
    """Per table size and over all: games (rounds), ``valid_<units>`` (those not ended by a
    forfeit), the share of every declared yes/no column of the valid ones with a 95% interval
    over duplicate sets (a forfeited row was cut short: it could not end by a declared
    outcome, e.g. a blockade; no share where none is valid), and the mean of every length
    column over the same rows (``Games.finished``), so that the two tables of a page give one
    mean. None when the game declares no yes/no columns."""
    g = as_games(data)
    d = g.declaration
    if not g.flags:
        return None
    done = g.finished()
    sizes = np.unique(g.n_players)
    rows = []
    for n in [*sizes.tolist(), None]:
        at = np.ones(len(g), bool) if n is None else g.n_players == n
        kept = np.ones(len(done), bool) if n is None else done.n_players == n
        valid = at & ~g.forfeited  # a forfeit ends a row cut short, by no declared outcome
        row: dict[str, Any] = {"n_players": "all" if n is None else int(n),
                               d.units(): int(at.sum()),
                               VALID.format(d.units()): int(valid.sum())}  # fmt: skip
        cl = clusters(g)
        for c, flag in g.flags.items():
            hits = int(flag[valid].sum())
            low, high = clustered_rate(
                flag[valid], cl.of_game[valid], cl.stratum[cl.of_game[valid]]
            )
            row[f"{c}_share"] = hits / int(valid.sum()) if valid.any() else np.nan
            row[f"{c}_ci_low"], row[f"{c}_ci_high"] = low, high
        for c in d.length_columns:
            row[f"{c}_mean"] = float(done.lengths[c][kept].mean()) if kept.any() else np.nan
        rows.append(row)
    return pd.DataFrame(rows)
