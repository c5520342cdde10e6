"""The summary table ``leaves tournament`` prints at the end of a run: seats, wins, win rates
with the report's 95% intervals, the rank value's mean, forfeits, and the line on units that
stopped unfinished at the game's limits.

Imports inside functions: start-up. The report's packages load only once a run has been played and
its summary is printed, so ``--help`` and a bad option answer at once.
"""

from __future__ import annotations

from typing import Any

import click

__all__ = ["intervals", "summary_table", "units"]


def _percent(rate: float) -> str:
    """A rate as the reports print it: a percentage with one decimal ("20.0%")."""
    return "n/a" if rate != rate else f"{100 * rate:.1f}%"


def intervals(result: Any, nothing_valid: bool = False) -> tuple[dict[str, str], str | None]:
    """Each strategy's win-rate 95% interval as the report writes it (``reports.tables.summary``:
    duplicate sets the units; "(too few deals for an interval)" where the run is too small),
    or none and the reason in words: the run kept no per-game rows, or ``nothing_valid`` (every
    game forfeited, where more games are no remedy)."""
    return _intervals(result, _rows(result, nothing_valid))[:2]


def _rows(result: Any, nothing_valid: bool) -> Any:
    """The run's rows (``reports.Games``, read once for the summary's intervals and its line on
    unfinished units), or why the summary has no intervals without them (a string)."""
    unit = result.manifest.get("game_declaration", {}).get("unit", "game")
    if nothing_valid:
        return (f"no intervals: every {unit} ended by a forfeit, so none counts toward one "
                "(fix the strategy and play the run again)")  # fmt: skip
    if not result.spec.get("rows", True):
        return f"no intervals: the run kept no per-{unit} rows (--no-rows), and they count deals"
    from reports import ReportError
    from reports.loading import as_games

    try:
        return as_games(result.out)
    except ReportError as exc:  # e.g. rows that cannot be read: the table stands without them
        return f"no intervals: {exc}"


def _intervals(result: Any, rows: Any) -> tuple[dict[str, str], str | None, dict[str, float]]:
    """``intervals`` from the rows ``_rows`` read, and the strategies' fair shares in the
    report's order (empty: no report summary). A strategy every game of which ended by a
    forfeit has ``NA`` (``reports.tables.unmeasured``: more games are no remedy)."""
    if isinstance(rows, str):
        return {}, rows, {}
    from reports import ReportError
    from reports.numbers import NA, TOO_FEW, interval
    from reports.tables import summary, unmeasured

    try:
        table = summary(rows)
    except ReportError as exc:  # rows read but not summed: the table stands without them
        return {}, f"no intervals: {exc}", {}
    cells = {str(r.strategy): interval(r.ci_low, r.ci_high) for r in table.itertuples()}
    order = dict(zip(cells, table["fair_share"], strict=True))  # as the report ranks them
    void = set(unmeasured(table))
    measured = [c for k, c in cells.items() if k not in void]
    if measured and all(c == f"({TOO_FEW})" for c in measured):
        why = f"no intervals: {TOO_FEW} yet; play more {units(result)} (--resume --add GAMES)"
        return {}, why, order
    return {k: NA if k in void else "too few deals" if c == f"({TOO_FEW})" else c
            for k, c in cells.items()}, None, order  # fmt: skip


def _unfinished_line(result: Any, rows: Any) -> str:
    """How many of the run's units stopped unfinished at the game's limits, and how they
    count (``reports.unfinished_line``, the one wording of the gauntlet's and the tuning's
    too): from the rows where read (``rows`` not a string), else from the aggregates."""
    from reports.unfinished_line import unfinished_line

    return unfinished_line(result, None if isinstance(rows, str) else rows)


def units(result: Any) -> str:
    """What a run counts (its ``--games``, what ``--add`` grows), plural, in its game's declared
    words: its unit ("games", "rounds"), or for matches its match unit ("matches", "games")."""
    from tournaments.declaration import plural

    declared = result.manifest.get("game_declaration", {})
    if result.spec.get("expert"):
        return plural(declared.get("match_unit", "match"))
    return plural(declared.get("unit", "game"))


def summary_table(result: Any, nothing_valid: bool = False) -> str | None:
    """Print the run's summary: seats taken (a game counts once per seat), wins, win rates in %
    with the report's 95% intervals, and the rank value's mean over every seat, wins included
    (headed so: the report's summary gives its mean when losing, a different figure), then how
    many units stopped unfinished at the game's limits (one line; none: none did, or
    neither the rows nor the aggregates tell). In the report's order, by win rate over the
    fair share: where the strategies' fair shares differ (their seats at each table size in
    other proportions), they are shown, as that order need not be the win rates'. Returns why
    there are no intervals (None: there are); ``nothing_valid``: every game was forfeited."""
    from reports.numbers import NA, fixed, no_valid

    from .plain_table import print_table

    cols = result.summary_columns()  # from the aggregates; the intervals need the rows
    rows_read = _rows(result, nothing_valid)
    cis, why_not, order = _intervals(result, rows_read)
    expert = result.spec["expert"]
    rank = f"{result.manifest.get('rank_value', 'rank')}_mean"
    declared = result.manifest.get("game_declaration", {})
    unit, match_unit = declared.get("unit", "game"), declared.get("match_unit", "match")
    columns = [("strategy", "left")]
    columns += [(f"{unit} seats" if expert else "seats", "right"), ("wins", "right")]
    columns += [("win rate", "right")] + ([("95% interval", "right")] if cis else [])
    fair = order if max(order.values(), default=0) - min(order.values(), default=0) > 1e-9 else {}
    columns += [("fair share", "right")] if fair else []
    columns.append((f"{rank.replace('_', ' ')}, all seats", "right"))  # wins included
    if expert:
        columns += [(f"{match_unit} seats", "right"), (f"{match_unit} win rate", "right")]
    columns.append(("forfeits", "right"))
    rows = []
    names = [str(x) for x in cols["strategy"]]
    place = {name: k for k, name in enumerate(order)}  # the report's order where it has one
    for i in sorted(range(len(names)), key=lambda i: place.get(names[i], len(place))):
        name = names[i]
        cells = [name, f"{cols['seats'][i]:,}", f"{cols['wins'][i]:,}"]
        cells += [_percent(cols["win_rate"][i])] + ([cis.get(name, "")] if cis else [])
        cells += [_percent(fair[name]) if name in fair else ""] if fair else []
        mean = cols[rank][i]
        cells.append(fixed(mean, 3) if mean == mean else "n/a")  # nan: no game of its own
        if expert:
            cells += [f"{cols['matches'][i]:,}", _percent(cols["match_win_rate"][i])]
        cells.append(f"{cols['forfeits'][i]:,}")
        rows.append(cells)
    print_table("Tournament summary", columns, rows)
    agg = result.aggregates()
    lost = int(agg["size_forfeits"].sum()) if int(cols["forfeits"].sum()) else 0
    if lost and "valid_games" in agg:  # a forfeited game's values are a game's cut short
        from tournaments.declaration import plural

        undefined = any(m != m for m in cols[rank])  # nan: every game of the strategy's
        none = " (n/a: every one of the strategy's was)" if undefined else ""
        click.echo(f"The {rank.replace('_', ' ')}s leave out the {lost:,} "
                   f"{unit if lost == 1 else plural(unit)} ended by a forfeit{none}.")  # fmt: skip
    void = [name for name, cell in cis.items() if cell == NA]
    if void:  # the interval column's n/a, in words
        click.echo(f"{no_valid(void, unit)}.")
    unfinished = _unfinished_line(result, rows_read)
    if unfinished:
        click.echo(unfinished)
    return why_not
