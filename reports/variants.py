"""One report comparing the same field played under several rule sets (``leaves variants``).

``build_variants_report([(label, run_dir), ...], out)`` reads one run directory per rule set,
the default rules first (the baseline every other is compared with), and writes into ``out``
the page (report.html or report.md), findings.txt, the tables as CSV and the charts as PNG
under charts/. Per rule set: game length (turns, rounds), the first player's and every seat's
edge over its fair share, how much skill matters (the spread between the best and the worst
strategy, paired within the deals both played; the best strategy's rate of finishing ahead of
random), how close games are (the runner-up's cards left), unfinished games, and for expert
runs shared match wins and match length, each with its 95% interval over duplicate sets
(``reports.variants_metrics``); then each variant's differences to the default rules with
their intervals, and the key findings in words first (``reports.variants_text``).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from .data import ReportError, Run
from .designer_measures import ladder_table, set_signs
from .loading import load_run
from .newcombe import applies
from .stats import holm
from .tables import strength_order
from .variants_metrics import (
    Measure,
    difference,
    difference_tests,
    estimate,
    intervals,
    measures,
    paired_design,
    stack,
)
from .variants_page import Rows, page_sections, relative_to_page, write_variants_page
from .variants_sets import forfeiters
from .variants_sweep import Sweep, sweep_table
from .variants_text import ALPHA, findings
from .variants_words import flat

__all__ = ["build_variants_report", "variant_tables"]

Tables = dict[str, pd.DataFrame]
METRIC_COLUMNS = ["rules", "metric", "n_players", "position", "value", "ci_low", "ci_high",
                  "se", "df", "deal_sets", "games", "fair", "detail", "conservative",
                  "sets_above", "sets_below"]  # fmt: skip
DIFF_COLUMNS = ["rules", "metric", "n_players", "position", "default", "value", "diff",
                "ci_low", "ci_high", "se", "df", "no_spread", "p_value", "p_holm", "significant",
                "method", "detail", "deal_sets"]  # fmt: skip
"""``se`` and ``df``: the t test's, empty where the interval is Newcombe's (``_newcombes``),
as in compare.csv; ``no_spread``: every duplicate set gave the same difference (the t test's
standard error 0), whatever interval is then stated."""


def _metric_rows(label: str, ms: list[Measure]) -> list[dict]:
    """A run's measures as rows; a paired difference's sets above and below 0 counted
    (``set_signs``: the skill ladder's sign test of a step with no spread)."""
    if not ms:
        return []
    est = stack([estimate(m) for m in ms])
    lo, hi = intervals(ms, est)
    for i, m in enumerate(ms):  # a share's Wilson interval stays honest at a zero error
        if not m.rate and flat(m.value, float(est.se[i]), float(est.df[i])):
            lo[i] = hi[i] = np.nan  # no spread between the sets: no interval to state
    return [{"rules": label, "metric": m.metric, "n_players": m.n_players,
             "position": m.position, "value": m.value - m.fair, "ci_low": float(lo[i]),
             "ci_high": float(hi[i]), "se": float(est.se[i]), "df": float(est.df[i]),
             "deal_sets": int(est.units[i]), "games": m.games, "fair": m.fair,
             "detail": m.detail, "conservative": bool(est.conservative),
             **dict(zip(("sets_above", "sets_below"), set_signs(m), strict=True))}
            for i, m in enumerate(ms)]  # fmt: skip


def _newcombes(pairs: list[tuple[Measure, Measure]]) -> np.ndarray:
    """Per pair, whether ``difference_tests`` gives it Newcombe's interval (``applies``: a
    share of which either side shows no spread), not the t test's: its ``se`` and ``df`` then
    state no interval of it."""
    out = np.zeros(len(pairs), dtype=bool)
    shares = [i for i, (base, _) in enumerate(pairs) if base.rate]
    if shares:
        base = stack([estimate(pairs[i][0]) for i in shares])
        other = stack([estimate(pairs[i][1]) for i in shares])
        out[shares] = applies(base, other)
    return out


def _diff_rows(label: str, base: list[Measure], other: list[Measure], paired: bool) -> list[dict]:
    """The variant's differences to the default rules, Holm-corrected over its measures. One
    is clear (``significant``) where Holm's p-value is below ``ALPHA`` and its interval, where
    stated, excludes 0. A share of which either side has no spread gets Newcombe's interval
    and the p-value that inverts it (``difference_tests``), so that a change stated with an
    interval is tested by it, and no ``se`` or ``df`` (they would state another interval); a
    measure that is no share and whose difference has no spread gets neither. ``no_spread``:
    every duplicate set gave the same difference; ``deal_sets``: the sets it rests on."""
    by_id = {m.id: m for m in base}
    pairs = [(by_id[m.id], m) for m in other if m.id in by_id]
    if not pairs:
        return []
    est = stack([difference(b, m, paired) for b, m in pairs])
    lo, hi, p = difference_tests(pairs, est)
    for i, (_, m) in enumerate(pairs):  # a difference with no spread is no evidence of one
        if not m.rate and est.value[i] != 0 and flat(est.value[i], est.se[i], est.df[i]):
            lo[i] = hi[i] = p[i] = np.nan
    ladder = np.array([m.metric == "ladder_step" for _, m in pairs])
    p_holm = np.empty_like(p)  # the skill ladder's steps are a family of their own
    for family in (ladder, ~ladder):
        p_holm[family] = holm(p[family])
    clear = (p_holm < ALPHA) & ~((lo <= 0) & (hi >= 0))  # never beside an interval across 0
    other_test = _newcombes(pairs)
    se, df = (np.where(other_test, np.nan, x) for x in (est.se, est.df))
    still = est.no_spread()
    return [{"rules": label, "metric": m.metric, "n_players": m.n_players,
             "position": m.position, "default": b.value - b.fair, "value": m.value - m.fair,
             "diff": float(est.value[i]), "ci_low": float(lo[i]), "ci_high": float(hi[i]),
             "se": float(se[i]), "df": float(df[i]), "no_spread": bool(still[i]),
             "p_value": float(p[i]), "p_holm": float(p_holm[i]), "significant": bool(clear[i]),
             "method": "paired" if paired else "unpaired", "detail": m.detail,
             "deal_sets": int(est.units[i])}
            for i, (b, m) in enumerate(pairs)]  # fmt: skip


def _turns(label: str, run: Run) -> pd.DataFrame:
    g = run.games
    turns = g.lengths.get("turns")
    if turns is None:
        return pd.DataFrame(columns=["rules", "value", "games"])
    h = np.bincount(np.clip(turns[~g.forfeited], 0, None).astype(np.int64))
    nz = np.flatnonzero(h)
    return pd.DataFrame({"rules": label, "value": nz, "games": h[nz]})


def _run_row(label: str, run: Run, out: Path | None) -> dict:
    """The run's row of variants_runs.csv; its folder as seen from the page's folder ``out``
    ('default', '../default-rules': never a machine's absolute path, which the page's table
    would show and which breaks when the folders move together), as given where no page."""
    spec = run.manifest.get("spec", {}) if isinstance(run.manifest, dict) else {}
    path = "" if run.path is None else str(run.path)
    if run.path is not None and out is not None:
        path = relative_to_page(run.path, out)
    g = run.games
    return {"rules": label, "run": path, "games": len(g),
            "strategies": ",".join(g.labels),
            "players": ",".join(str(n) for n in sorted(set(g.n_players.tolist()))),
            "seed": spec.get("seed"), "expert": g.match is not None,
            "changes": _changes(run.manifest, spec)}  # fmt: skip


TODAYS = ("today's rules", "none")
"""What ``_changes`` says of a run played under the game's own rules (a game that records no
rules changed none)."""


def _check_baseline(runs: list[tuple[str, Run]]) -> None:
    """Refuse a first run played under other rules than today's: the comparison's words call
    the first run 'the default rules' and every difference one to them."""
    label, run = runs[0]
    spec = run.manifest.get("spec", {}) if isinstance(run.manifest, dict) else {}
    played = _changes(run.manifest, spec)
    if played not in TODAYS:
        raise ReportError(f"the first run ({label}) was played under {played}, not today's "
                          "rules: the comparison measures every other run against the default "
                          "rules, so give a run of today's rules first")  # fmt: skip


def _changes(manifest: object, spec: dict) -> str:
    """The rules a run was played under in the game's own words, as it names them
    (``game_settings``: 'hand_size=3:10/4:11', 'min_count=off', "today's rules"); where the run
    does not record them, its changed keys as stored, 'none' where it changed none."""
    words = manifest.get("game_settings") if isinstance(manifest, dict) else None
    if isinstance(words, dict) and isinstance(words.get("rules"), str):
        return words["rules"]
    changes = (spec.get("game_config") or {}).get("rules") or {}
    return ", ".join(f"{k}={v}" for k, v in changes.items()) or "none"


def ladder_order(run: Run, rungs: Sequence[str] | None = None) -> list[str]:
    """The skill ladder's rungs, strongest first in ``run``'s order (the default rules'):
    ``rungs`` where given, else the whole field."""
    order = strength_order(run.games)
    return [s for s in order if rungs is None or s in rungs]


def ladder_rungs(runs: Sequence[tuple[str, Run]],
                 rungs: Sequence[str] | None = None) -> tuple[list[str], list[str]]:  # fmt: skip
    """The skill ladder's rungs, strongest first in the first run's order (``ladder_order``),
    and those left out of it: a strategy that forfeited a game under any rule set has no step
    there (the games it finished ended before it broke), so it leaves every rule set's ladder
    and its neighbours make a step, the same in every rule set, so the steps pair."""
    broken = {r.games.labels[c] for _, r in runs for c in forfeiters(r.games)}
    order = ladder_order(runs[0][1], rungs)
    return [s for s in order if s not in broken], [s for s in order if s in broken]


def variant_tables(runs: Sequence[tuple[str, Run]], out: Path | None = None,
                   ladder: Sequence[str] | None = None) -> tuple[Tables, str]:  # fmt: skip
    """The comparison's tables (``variants_metrics``, ``variants_differences``,
    ``variants_turns``, ``variants_runs``, ``variants_ladder``) and how the differences were
    measured, in words. The first run is the baseline; ``ladder``: the skill ladder's rungs
    (default: the whole field)."""
    labels = [label for label, _ in runs]
    order, _ = ladder_rungs(runs, ladder)
    per = [measures(run, order) for _, run in runs]
    metrics = [
        row for label, ms in zip(labels, per, strict=True) for row in _metric_rows(label, ms)
    ]
    base_spec = runs[0][1].manifest.get("spec")
    diffs, how = [], []
    for (label, run), ms in zip(runs[1:], per[1:], strict=True):
        paired = paired_design(base_spec, run.manifest.get("spec")) and _keyed(run, runs[0][1])
        how.append(paired)
        diffs += _diff_rows(label, per[0], ms, paired)
    tables = {
        "variants_metrics": pd.DataFrame(metrics, columns=METRIC_COLUMNS),
        "variants_differences": pd.DataFrame(diffs, columns=DIFF_COLUMNS),
        "variants_turns": pd.concat(
            [_turns(label, run) for label, run in runs], ignore_index=True
        ),  # fmt: skip
        "variants_runs": pd.DataFrame([_run_row(label, run, out) for label, run in runs]),
    }
    tables["variants_ladder"] = ladder_table(tables["variants_metrics"])
    return tables, _method(how, runs)


def _keyed(*runs: Run) -> bool:
    return all(r.games.deal is not None and r.games.table is not None for r in runs)


def _method(paired: list[bool], runs: Sequence[tuple[str, Run]]) -> str:
    if all(paired):
        seed = runs[0][1].manifest.get("spec", {}).get("seed")
        return (f"Every rule set played the same deal seeds at the same tables (seed {seed}): "
                "differences to the default rules are paired per duplicate set")  # fmt: skip
    if not any(paired):
        return ("The rule sets did not play the same deal seeds at the same tables: "
                "differences are unpaired (the runs' variances add)")  # fmt: skip
    alone = ", ".join(label for (label, _), p in zip(runs[1:], paired, strict=True) if not p)
    return (f"Differences are paired per duplicate set where a rule set played the default's "
            f"deal seeds at its tables, unpaired for {alone}")  # fmt: skip


def build_variants_report(runs: Sequence[tuple[str, str | Path]], out: str | Path,
                          fmt: str = "html", notes: Sequence[str] = (), sweep: Sweep | None = None,
                          ladder: Sequence[str] | None = None,
                          todays: Mapping[str, Sequence[int]] | None = None) -> Path:  # fmt: skip
    """Compare the runs of one field under several rule sets and return the page's path.

    ``runs``: (label, run directory) per rule set, the default rules first (the baseline;
    e.g. ``[("default", dir_a), ("hand_size=9", dir_b)]``); labels name the rule sets on the
    page (``str(rules)``). ``out``: the folder for report.html (``fmt="md"``: report.md),
    findings.txt, variants_metrics.csv (every measure per rule set, 95% intervals),
    variants_differences.csv (each variant less the default, 95% intervals, Holm),
    variants_turns.csv, variants_runs.csv, the per-section tables and charts/*.png.
    ``notes``: sentences added to the findings (what the caller did, e.g. added random to the
    field). ``sweep``: the runs are the points of a sweep over one key (variants_sweep.csv and
    a chart of every measure against the value); ``ladder``: the skill ladder's rungs;
    ``todays``: per label, the table sizes at which that rule set plays as today's rules (a
    sweep's own ``Sweep.todays`` join them), which the findings say instead of a difference.
    The designers' measures of runs whose folders hold a replayed sample
    (``reports.designer_measures``) join the measures. Raises ReportError (one line) for
    fewer than two runs, a run it cannot read or a first run not played under today's rules
    (the words call it the default rules)."""
    start = time.perf_counter()
    if fmt not in ("html", "md"):
        raise ValueError(f"unknown report format {fmt!r}: choose html or md")
    if len(runs) < 2:
        raise ReportError("a comparison of rule variants needs the default run and at least one "
                          "variant")  # fmt: skip
    out = Path(out)
    loaded = [(label, load_run(path)) for label, path in _unique(runs)]
    _check_games(loaded)
    _check_baseline(loaded)
    tables, method = variant_tables(loaded, out, ladder)
    labels = [label for label, _ in loaded]
    if sweep is not None:
        tables["variants_sweep"] = sweep_table(tables["variants_metrics"],
                                               tables["variants_differences"], sweep, labels[0])  # fmt: skip
    said = findings(tables["variants_metrics"], tables["variants_differences"], labels, method,
                    tables["variants_ladder"], ladder_rungs(loaded, ladder)[1],
                    _todays(todays, sweep))  # fmt: skip
    said += [(b, []) for b in [*notes, *_field_notes(loaded)]]
    bullets = [text for text, _ in said]
    secs = page_sections(tables, Rows(tables), labels, said)
    (out / "charts").mkdir(parents=True, exist_ok=True)
    for name, df in tables.items():
        df.to_csv(out / f"{name}.csv", index=False)
    for sec in secs:  # the opening's overview too: the page links every table's CSV
        for name, df in sec.tables:
            if name not in tables:
                df.to_csv(out / f"{name}.csv", index=False)
    (out / "findings.txt").write_text("\n".join(bullets) + "\n", encoding="utf-8")
    return write_variants_page(out, fmt, tables, secs, loaded, start)


def _todays(todays: Mapping[str, Sequence[int]] | None,
            sweep: Sweep | None) -> dict[str, tuple[int, ...]]:  # fmt: skip
    """Per label, the table sizes at which its rule set plays as today's rules: ``todays``
    and, for a sweep, each value's (``Sweep.todays``) under its point's label."""
    out = {label: tuple(sizes) for label, sizes in (todays or {}).items() if sizes}
    for value, label in sweep.points if sweep is not None else []:
        out.setdefault(label, tuple(sweep.todays.get(value, ())))
    return {label: sizes for label, sizes in out.items() if sizes}


def _unique(runs: Sequence[tuple[str, str | Path]]) -> list[tuple[str, str | Path]]:
    """The labels made unique ('take=ends (2)' for a second run of the same rules)."""
    seen: dict[str, int] = {}
    out = []
    for label, path in runs:
        label = str(label)
        seen[label] = seen.get(label, 0) + 1
        out.append((label if seen[label] == 1 else f"{label} ({seen[label]})", path))
    return out


def _check_games(runs: list[tuple[str, Run]]) -> None:
    names = {r.declaration.name for _, r in runs}
    if len(names) > 1:
        raise ReportError(f"cannot compare runs of different games: {', '.join(sorted(names))}")


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _field_notes(runs: list[tuple[str, Run]]) -> list[str]:
    """Sentences for what the runs do not share (their differences then mix rules and design)."""
    notes = []
    base = runs[0][1].games
    for label, run in runs[1:]:
        g = run.games
        if set(g.labels) != set(base.labels):
            notes.append(f"Caution: the run of {label} has another field ({', '.join(g.labels)}) "
                         "than the default's: its differences mix the rules and the field.")  # fmt: skip
        if set(g.n_players.tolist()) != set(base.n_players.tolist()):
            notes.append(f"Caution: the run of {label} has other table sizes than the default's.")
        if (g.match is None) != (base.match is None):
            notes.append(f"Caution: one of the default's and {label}'s runs is of expert matches, "
                         "the other is not.")  # fmt: skip
    for label, run in runs:
        g = run.games
        names = [g.labels[c] for c in forfeiters(g)]
        if names:
            notes.append(f"Under {label}, {_and(names)} forfeited games: the skill measures "
                         "(the spread, the best against random, the ladder) leave "
                         f"{'it' if len(names) == 1 else 'them'} out, as they leave out "
                         "every game ended by a forfeit.")  # fmt: skip
    if all(run.games.deal is None for _, run in runs):
        notes.append("The runs have no deal column: each game counts as its own unit.")
    return notes
