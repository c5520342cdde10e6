"""The measures game designers use beyond length, seats and skill, per run with 95% intervals
(``docs/variants.md`` defines each, with its source):

* from each game's standings turn by turn (who is ahead: the rank value, e.g. cards in
  hand; ``trace_stats``): **lead changes** (how often the player in the lead changes),
  **drama** (the share of the game the eventual winner spends behind), **comeback** (games
  whose winner was behind at half-time) and **decided at** (how far into the game the winner
  takes the lead for good), after Browne (2008) as Ludii computes them;
* **restricted play** (Jaffe et al. 2012): the win-rate cost of a restriction (never passing
  while a play is legal, say) to a strategy, against the same strategy unrestricted in the same
  seats on the same deals;
* the **skill ladder**: the paired win-rate step between strategies adjacent in strength, and
  how many of those steps go up significantly (a level), which makes 1 + that count a
  one-sided lower bound, at least 95% sure, on the skill levels in the ladder's order
  (``ladder_table``); a step significant the other way says the rule set's order differs
  from the ladder's.

Standings need the games' turns, which a run's rows do not keep: the caller replays a sample
of whole duplicate sets and writes one row per game to ``GAMES_FILE`` (and the restricted
replays to ``RESTRICTED_FILE``) in the run's folder; every measure here is then a ratio over
those sets with the reports' stratified interval (``reports.variants_metrics``), paired with
another run's where both sampled the same deals.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from .clusters import Estimates, sign_test, t_quantile
from .data import Run
from .stats import RATE_DIFFERENCE, holm
from .variants_sets import (
    Design,
    Measure,
    decided,
    decided_sums,
    forfeiters,
    measure,
    paired_sets,
    ratio,
)
from .variants_words import EVERY_GAME, flat

__all__ = [
    "GAMES_FILE",
    "RESTRICTED_FILE",
    "TRACE_METRICS",
    "file_measures",
    "ladder_measures",
    "ladder_table",
    "paired_measure",
    "restricted_before_finished",
    "sample_design",
    "set_signs",
    "trace_stats",
]

GAMES_FILE = "designer_games.csv"
"""One row per replayed game: table, deal, n_players, finished and the ``TRACE_METRICS``."""
RESTRICTED_FILE = "designer_restricted.csv"
"""One row per restricted replay: table, deal, n_players, restriction, meaning, strategy,
base_win (the unrestricted strategy won that game in the run), restricted_win, and
base_finished and restricted_finished (someone won the game: ``FINISHED``; a file written
before them has neither)."""
FINISHED = ("base_finished", "restricted_finished")
"""The restricted file's columns that say which games finished, base's and restricted's."""
TRACE_METRICS = ("lead_changes", "drama", "comeback", "decided_at")
SHARE_METRICS = ("comeback",)
"""Trace measures that are shares of games (Wilson intervals); the others are means."""
TRACE_BOUNDS = {"lead_changes": (0.0, np.inf), "drama": (0.0, 1.0), "decided_at": (0.0, 1.0)}
"""The range of each mean trace measure (a count; shares of a game's turns): an interval is
clipped to it, as the truth lies in it (no coverage is lost)."""


def restricted_before_finished(folder: Path) -> bool:
    """True where ``folder``'s ``RESTRICTED_FILE`` was written before ``FINISHED`` (an earlier
    version's): its cost counts every game, an unfinished one nobody's win, where a file
    written now counts the finished ones, so a comparison resumed replays it rather than
    keep it (``leaves.commands.variants_resume.designer_kept``)."""
    path = folder / RESTRICTED_FILE
    try:
        columns = set(pd.read_csv(path, nrows=0).columns) if path.is_file() else set()
    except (OSError, ValueError):  # not a table at all: nothing of an earlier version
        return False
    return {"base_win", "restricted_win"} <= columns and not set(FINISHED) <= columns


def _leaders(standing: np.ndarray, higher_is_better: bool) -> np.ndarray:
    """Per state the seat alone in the lead, -1 where the best standing is shared."""
    s = -standing if higher_is_better else standing
    best = s.min(axis=1, keepdims=True)
    at_best = s == best
    alone = at_best.sum(axis=1) == 1
    return np.where(alone, at_best.argmax(axis=1), -1)


def trace_stats(standing: np.ndarray, winner: int, higher_is_better: bool = False
                ) -> dict[str, float]:  # fmt: skip
    """A finished game's designer measures from ``standing`` (one row per state, the dealt
    position first and one after each turn; a column per seat: the rank value then) and the
    winner's seat.

    lead_changes: how many times the seat alone in the lead changes (a tie in between is no
    change unless another seat comes out of it in the lead); drama: the share of the turns
    after which the winner is behind (someone has a strictly better standing); comeback: 1 if
    the winner is behind after half the turns (rounded down), else 0; decided_at: the share
    of the turns played when the winner takes the lead alone for good (1.0: only its last
    play put it ahead)."""
    standing = np.asarray(standing)
    turns = standing.shape[0] - 1
    if turns < 1 or winner < 0:
        raise ValueError("trace_stats needs a finished game of at least one turn")
    lead = _leaders(standing, higher_is_better)
    held = lead[lead >= 0]
    changes = int(np.count_nonzero(held[1:] != held[:-1])) if held.size else 0
    s = -standing if higher_is_better else standing
    behind = s[:, winner] > s.min(axis=1)
    not_leading = np.flatnonzero(lead != winner)
    decided = int(not_leading.max()) + 1 if not_leading.size else 0
    return {
        "lead_changes": float(changes),
        "drama": float(behind[1:].mean()),
        "comeback": float(behind[turns // 2]),
        "decided_at": decided / turns,
    }


def sample_design(table: np.ndarray, deal: np.ndarray, size: np.ndarray) -> Design:
    """The duplicate sets of sampled games (``table``, ``deal`` and table size per game), keyed
    as a run's own sets are (``(table << 32) + deal``), so two runs that sampled the same deals
    pair; a table with one sampled set is pooled per table size, as ``reports.clusters``
    pools a table dealt once."""
    table, deal = np.asarray(table, np.int64), np.asarray(deal, np.int64)
    key_game = (table << 32) + deal
    key, first, of_game = np.unique(key_game, return_index=True, return_inverse=True)
    set_table = table[first]
    set_size = np.asarray(size, np.int64)[first]
    _, inv, count = np.unique(set_table, return_inverse=True, return_counts=True)
    single = count[inv.ravel()] == 1
    stratum = np.where(single, -1 - set_size, set_table)
    return Design(None, of_game.ravel(), key, stratum, set_size, bool(single.any()), True)


def _read(path: Path | None, name: str) -> pd.DataFrame | None:
    if path is None or not (path / name).is_file():
        return None
    df = pd.read_csv(path / name)
    return df if len(df) else None


def _by_size(d: Design) -> list[tuple[str, np.ndarray]]:
    sizes = sorted(set(d.size.tolist()))
    out = [("all", np.ones(d.key.size, bool))]
    return out + ([(str(n), d.size == n) for n in sizes] if len(sizes) > 1 else [])


def trace_measures(df: pd.DataFrame) -> list[Measure]:
    """The trace measures of ``GAMES_FILE``'s rows, over its finished games, overall and per
    table size where they mix."""
    d = sample_design(df["table"], df["deal"], df["n_players"])
    finished = df["finished"].to_numpy(bool)
    out = []
    for n, sets in _by_size(d):
        for metric in TRACE_METRICS:
            x = df[metric].to_numpy(float)
            counted = finished & np.isfinite(x)
            got = ratio(d, d.of_game, np.nan_to_num(x), counted, sets)
            bounds = TRACE_BOUNDS.get(metric)
            out.append(measure(d, metric, n, got, metric in SHARE_METRICS, bounds=bounds))
    return [m for m in out if m is not None]


def restricted_measures(df: pd.DataFrame, unfinished: bool = False) -> list[Measure]:
    """Per restriction: the unrestricted strategy's win rate less the restricted one's, on
    the same deals (its seats, deals and opponents), in ``RESTRICTED_FILE``'s rows, each over
    its finished games (``FINISHED``; as the skill spread counts them: an unfinished game,
    nobody's win, would shrink the cost by the share a turn limit stops); over every game
    in a file written before those columns, an unfinished game nobody's win (its detail says
    so, ``EVERY_GAME``, where some game of the run was ``unfinished``). A restriction under
    which no replayed game was won by the strategy, restricted or not (every game stopped
    unfinished at a short turn limit, say), is not measured: there was no win to lose, and a
    cost of 0 with no spread would read as a measure of too few deals (the variants' words
    say why it is missing: ``reports.variants_text``)."""
    out = []
    for name, rows in df.groupby("restriction", sort=True):
        if not won_any(rows):
            continue
        d = sample_design(rows["table"], rows["deal"], rows["n_players"])
        base, restricted = (_win_rate(d, rows, side) for side in ("base", "restricted"))
        if base is None or restricted is None:
            continue
        got = (base[0] - restricted[0], base[1], base[2] - restricted[2], len(rows))
        every = unfinished and not set(FINISHED) <= set(rows.columns)
        detail = f"{rows['strategy'].iloc[0]}: {rows['meaning'].iloc[0]}"
        m = measure(d, f"restricted_{name}", "all", got, False,
                    detail=detail + (EVERY_GAME if every else ""), bounds=RATE_DIFFERENCE)  # fmt: skip
        out += [m] if m is not None else []
    return out


def _win_rate(d: Design, rows: pd.DataFrame,
              side: str) -> tuple[float, np.ndarray, np.ndarray, int] | None:  # fmt: skip
    """``side``'s ('base', 'restricted') win rate over its finished games as a ratio over all
    the duplicate sets (so the two sides' contributions line up set by set), every game where
    the file does not say which finished; None where none did."""
    won = rows[f"{side}_win"].to_numpy(float)
    col = f"{side}_finished"
    counted = rows[col].to_numpy(float) > 0 if col in rows else np.ones(won.size, bool)
    return ratio(d, d.of_game, won, counted, np.ones(d.key.size, bool))


def won_any(rows: pd.DataFrame) -> bool:
    """Did the restricted strategy win any of these replayed games, restricted or not?"""
    return bool((rows["base_win"].to_numpy(float) > 0).any()
                or (rows["restricted_win"].to_numpy(float) > 0).any())  # fmt: skip


def file_measures(run: Run) -> list[Measure]:
    """The trace and restricted-play measures of a run whose folder holds the replayed
    sample's files (none otherwise)."""
    out: list[Measure] = []
    games = _read(run.path, GAMES_FILE)
    if games is not None:
        out += trace_measures(games)
    restricted = _read(run.path, RESTRICTED_FILE)
    if restricted is not None:
        out += restricted_measures(restricted, bool(run.games.unfinished.any()))
    return out


def ladder_measures(d: Design, order: list[str]) -> list[Measure]:
    """The skill ladder's steps: for strategies adjacent in ``order`` (strongest first; the
    default rules' order, so every rule set measures the same steps), the win rate of the
    stronger less the weaker's, paired within the duplicate sets where both sat (as the
    skill spread is: games ended by a forfeit left out). A strategy that forfeited a game has
    no step (``decided_sums`` leaves it out): it leaves the order before neighbours pair, so
    the strategies either side of it make a step; the caller leaves out every rule set's
    forfeiters (``reports.variants.ladder_rungs``), so that every rule set's steps pair."""
    g = d.g
    broken = {g.labels[c] for c in forfeiters(g)}
    rungs = [s for s in order if s in g.labels and s not in broken]
    if len(rungs) < 2 or not decided(g).any():  # no game won: every rate is nobody's
        return []
    sums = decided_sums(d)  # a forfeited game says nothing of skill
    steps = (paired_measure(d, sums, "ladder_step", i, (upper, lower))
             for i, (upper, lower) in enumerate(zip(rungs[:-1], rungs[1:], strict=True)))  # fmt: skip
    return [m for m in steps if m is not None]


def paired_measure(d: Design, sums, metric: str, position: int,
                   pair: tuple[str, str]) -> Measure | None:  # fmt: skip
    """The win rate of ``pair``'s first less its second's, paired within the duplicate sets
    where both sat (``paired_sets``; None where they shared none), as a measure whose games
    are the games both sat at that ``sums`` counts (``decided_sums``: the finished ones; a set
    holds several: the reader counts games, not sets)."""
    g = d.g
    a, b = (g.labels.index(s) for s in pair)
    got = paired_sets(d, sums, a, b)
    if got is None:
        return None
    value, key, stratum, u = got
    seats = g.seats
    together = decided(g) & (seats == a).any(axis=1) & (seats == b).any(axis=1)
    return Measure(metric, "all", position, value, key, stratum, u, False, int(together.sum()),
                   detail=" - ".join(pair), pooled=d.pooled, bounds=RATE_DIFFERENCE)  # fmt: skip


PAIRED = ("skill_spread", "ladder_step")
"""The measures ``paired_measure`` builds: a mean over duplicate sets of each set's own
difference, so each set's contribution has that difference's sign."""


def set_signs(m: Measure) -> tuple[float, float]:
    """The duplicate sets whose own difference lies above 0 and below it, of a measure
    ``paired_measure`` built: what the exact sign test of one with no spread counts, as
    ``Estimates.p_value`` counts a paired difference's (``ladder_table``). NaN for the other
    measures, whose contributions are deviations from their value, not differences."""
    if m.metric not in PAIRED:
        return np.nan, np.nan
    diff = m.u * m.u.size  # each set's own difference (``paired_sets``)
    tiny = 1e-12  # a difference of two equal rates, but for rounding
    return float((diff > tiny).sum()), float((diff < -tiny).sum())


LEVEL = 0.05
"""The ladder's family-wise error rate: Holm's correction over a rule set's steps."""


def _needs(est: Estimates, steps: np.ndarray) -> np.ndarray:
    """Per step, the size that is significant whatever the other steps: Bonferroni's
    t quantile over its rule set's ``steps`` times its se (a p-value under LEVEL / steps
    passes every stage of Holm's step-down, so this much always suffices; NaN where the run
    is too small). ``ladder_table`` states none where the se is 0 (t x 0 would read as 'any
    step is significant'): the sign test tests such a step."""
    out = np.full(est.value.shape, np.nan)
    for m in np.unique(steps):
        at = steps == m
        out[at] = t_quantile(est.df[at], 1 - LEVEL / m) * est.se[at]
    return out


def ladder_table(metrics: pd.DataFrame) -> pd.DataFrame:
    """Per rule set and step of the ladder: the step with its interval, its p-value (the t
    test's; the exact sign test's over its duplicate sets where they show no spread,
    ``no_spread``, whatever the step, 0 included: ``_p_values``), Holm's over the rule set's
    steps, whether it is significant and ``needs``, the size a step would need to be
    significant whatever the other steps (NaN where ``no_spread``: the t test has no
    spread to scale); ``reversed``: significant the other way (the rule set's order differs
    from the ladder's there: no level); ``level``: significant with its interval above 0
    (with no spread, more of its sets above 0 than below), and kept by Holm over the rule
    set's one-sided tests (``_up``);
    ``levels``: 1 + the levels, a one-sided lower bound on how many of the ``rungs``
    strategies are skill levels in the ladder's order (adjacent ones the upper truly beats):
    Holm keeps the chance that any step counted is in truth not upward under 5% whatever the
    steps' dependence, so the true count is at least this one at least 95% of the time (nearer
    97.5% where no step goes down: the two-sided test spends half its 5% on each side; a step
    not counted may still be real, only smaller than the run can tell)."""
    rows = metrics[metrics["metric"] == "ladder_step"]
    if not len(rows):
        return pd.DataFrame(columns=LADDER_COLUMNS)
    est = Estimates(*(rows[c].to_numpy(float) for c in ("value", "se", "df", "deal_sets")))
    still = np.array([flat(v, s, d) for v, s, d in zip(est.value, est.se, est.df, strict=True)])
    p, way = _p_values(est, rows, still)
    of, _ = pd.factorize(rows["rules"], sort=False)
    steps = np.bincount(of)[of]
    p_holm = _per_rules(p, of)
    sig = np.nan_to_num(p_holm, nan=1.0) < LEVEL
    lo, hi = rows["ci_low"].to_numpy(float), rows["ci_high"].to_numpy(float)
    up = (lo > 0) | (still & (way > 0))  # its interval above 0, or with no spread its signs
    down = (hi < 0) | (still & (way < 0))
    level = sig & up & _up(way, p, of)
    upper, lower = zip(*(str(d).split(" - ") for d in rows["detail"]), strict=True)
    return pd.DataFrame({
        "rules": rows["rules"].to_numpy(), "step": rows["position"].to_numpy(int),
        "upper": upper, "lower": lower, "diff": est.value, "ci_low": lo, "ci_high": hi,
        "p_value": p, "p_holm": p_holm, "significant": sig,
        "needs": np.where(still, np.nan, _needs(est, steps)),
        "levels": np.bincount(of, weights=level).astype(int)[of] + 1, "rungs": steps + 1,
        "no_spread": still, "level": level, "reversed": sig & down,
    }, columns=LADDER_COLUMNS)  # fmt: skip


def _p_values(est: Estimates, rows: pd.DataFrame,
              still: np.ndarray) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """Per step, its two-sided p-value and the way it goes (above 0: up). The t test's and the
    step's sign; where its duplicate sets show no spread (``still``: within each table every
    set gave the same step) the exact sign test over the sets and the sets above less those
    below (``sets_above``, ``sets_below``; ``set_signs``), as the run's report tests the same
    pair (``Estimates.p_value``). A table that does not count its sets' signs leaves such a
    step untested (NaN; 1 where it is 0); NaN where the run is too small."""
    p = est.p_value()
    above, below = (rows[c].to_numpy(float) if c in rows else np.full(len(rows), np.nan)
                    for c in ("sets_above", "sets_below"))  # fmt: skip
    signed = still & np.isfinite(above) & np.isfinite(below)
    tested = sign_test(*(np.nan_to_num(c).astype(np.int64) for c in (above, below)))
    return np.where(signed, tested, p), np.where(signed, above - below, est.value)


def _per_rules(p: np.ndarray, of: np.ndarray) -> np.ndarray:
    """Holm's adjusted p-values over each rule set's steps (``of``: the rule set per step)."""
    out = np.empty_like(p)
    for g in range(of.max() + 1):
        out[of == g] = holm(p[of == g])
    return out


def _up(value: np.ndarray, p: np.ndarray, of: np.ndarray) -> np.ndarray:
    """Per step: kept by Holm at ``LEVEL`` over its rule set's one-sided tests of "the step
    goes up" (half the two-sided p-value where it is above 0, 1 less that half below). The
    two-sided test alone does not bound the chance of calling a step up that is in truth down
    whatever the steps' dependence (Holm's directional decisions are proven safe for
    independent tests, Shaffer 1980 and Finner 1999, and adjacent steps share a strategy);
    these one-sided tests do, so a level is a step both tests call up."""
    one = np.where(value > 0, p / 2, 1 - p / 2)
    return np.nan_to_num(_per_rules(one, of), nan=1.0) < LEVEL


LADDER_COLUMNS = ["rules", "step", "upper", "lower", "diff", "ci_low", "ci_high", "p_value",
                  "p_holm", "significant", "needs", "levels", "rungs", "no_spread", "level",
                  "reversed"]  # fmt: skip
