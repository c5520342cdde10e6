"""Key findings: the report's answers in sentences, generated from its tables.

People read the first lines of a report and stop, so these sentences say who is best, by how
much and how sure that is, then the seat, length and expert effects, each with its 95%
interval. Numbers are rounded for reading (51.0% [50.6, 51.3]); the CSVs keep full precision.
Every sentence comes from a table the report also shows, so the two never disagree. The
first finding (who is best, ``findings_best``), the meta-game's (``findings_metagame``) and
the neighbours' (``findings_neighbours``) are made in their own modules; this one gathers them
with the rest in the order a reader needs.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from tournaments.declaration import Declaration, plural
from tournaments.run_state import RunState

from .data import default_declaration
from .declared import VALID
from .expert import capped_words
from .finding import Finding, and_words, measure_words
from .findings_best import best_finding, more_seats, nobody_won
from .findings_best import means_finding as _means
from .findings_metagame import metagame_answer, metagame_finding
from .findings_neighbours import _verdicts  # noqa: F401  # importable here, as before
from .findings_neighbours import neighbours_finding as _neighbours
from .gauntlet import answer, void_gauntlet
from .numbers import (
    TOO_FEW,
    beside_digits,
    fixed,
    interval,
    pct,
    rate_of,
    share_digits,
    share_pct,
)
from .tables import decided, ranked

__all__ = [
    "Finding", "key_findings", "metagame_answer", "metagame_finding", "unfinished_words",
]  # fmt: skip


def overall(table: pd.DataFrame | None) -> pd.Series | None:
    """The row of ``table`` over every table size ("all"); None for no table or an empty one."""
    if table is None or not len(table):
        return None
    return table[table["n_players"].astype(str) == "all"].iloc[0]


def _verdict(lo: float, hi: float, fair: float) -> str:
    if not (np.isfinite(lo) and np.isfinite(hi)):
        return f"{TOO_FEW}, so no verdict"
    if lo > fair:
        return "an advantage"
    if hi < fair:
        return "a disadvantage"
    return "no clear effect"


def _seats(seats: pd.DataFrame | None, d: Declaration) -> list[Finding]:
    """The first player's win rate against the fair share, per table size (sizes are not
    pooled: a first move is worth more at a small table): 1/players of the games someone won
    (``par``), which unfinished games that count as nobody's win lower for every position."""
    if seats is None or not len(seats):
        return []
    parts = []
    for n, at in seats.groupby("n_players"):
        first = at.sort_values("position").iloc[0]
        par = float(first.get("par", first["fair"]))  # 1/players of the games someone won
        lo, hi = first["ci_low"], first["ci_high"]
        k = beside_digits(lo, hi, par)  # one count of decimals for every rate of the clause
        won = decided(at).iloc[0]  # the share of the games someone won (NaN: all of them)
        if won == 0:  # every rate and fair share 0: nothing to set against anything
            parts.append(f"at {int(n)} players no {d.unit} was won, so the seats cannot be "
                         "compared")  # fmt: skip
            continue
        shared = (f" (1/{int(n)} of the {pct(won)} of {d.units()} someone won)"
                  if np.isfinite(won) else "")  # fmt: skip
        rate = rate_of(pct(first["win_rate"], k), interval(lo, hi, digits=k), f"of {d.units()}")
        text = (
            f"at {int(n)} players the first to play wins {rate} against a fair share of "
            f"{pct(par, k)}{shared}: {_verdict(lo, hi, par)}"
        )
        if len(at) > 1 and seats["n_players"].nunique() == 1:
            text += ". " + _best_worst(at, k)
        parts.append(text)
    return [Finding("seats", "Seat: " + "; ".join(parts) + ".")]


def _best_worst(at: pd.DataFrame, k: int) -> str:
    """The best and the worst positions of one table size, each with every position that
    shares its win rate ('Best positions 0 and 2'), or that all positions won alike. Best and
    worst only where their 95% intervals are apart; else the highest and the lowest, which
    the run cannot tell apart (or has too few deals for intervals to)."""
    rates = at["win_rate"].to_numpy(float)

    def rows(rate: float) -> pd.DataFrame:
        return at.loc[np.isclose(rates, rate, rtol=0, atol=1e-12)]

    def where(rate: float) -> str:
        pos = [str(int(p)) for p in rows(rate)["position"]]
        return f"position{'s' if len(pos) > 1 else ''} {and_words(pos)} ({pct(rate, k)})"

    if np.isclose(rates.min(), rates.max(), rtol=0, atol=1e-12):
        return f"Every position won {pct(rates[0], k)}, counting from the first player"
    best, worst = where(rates.max()), where(rates.min())
    low, high = rows(rates.max())["ci_low"].min(), rows(rates.min())["ci_high"].max()
    if low > high:  # NaN (no interval) compares False
        return f"Best {best}, worst {worst}, counting from the first player"
    why = ("the 95% intervals cannot tell them apart" if np.isfinite([low, high]).all()
           else "too few deals for intervals to tell them apart")  # fmt: skip
    return f"Highest {best}, lowest {worst}, counting from the first player: {why}"


SPREAD_FROM = 10  # fewer units: every length (up to 3) or the lowest and highest, not a range


def _lengths(lengths: pd.DataFrame | None, d: Declaration,
             done: pd.DataFrame | None = None) -> list[Finding]:  # fmt: skip
    """The first length column's median and spread (``_spread``), the second's mean (e.g.
    turns, then rounds), per table size when the run mixes sizes; ``done``: the completion
    table, whose units stopped unfinished count in the lengths where they were cut."""
    if lengths is None or not len(lengths):
        return []
    cut = {} if done is None else done.set_index(done["n_players"].astype(str))["unfinished"]
    first, *rest = d.length_columns
    by_n = lengths[(lengths["by"] == "n_players") & (lengths["measure"] == first)]
    if by_n["group"].nunique() > 1:
        parts = [f"at {r['group']} players {_spread(r, first, d, int(cut.get(r['group'], 0)))}"
                 for _, r in by_n.iterrows()]  # fmt: skip
        return [Finding("lengths", f"{d.unit.capitalize()} length: " + "; ".join(parts) + ".")]
    rows = lengths[lengths["by"] == "all"].set_index("measure")
    if first not in rows.index:
        return []
    said = _spread(rows.loc[first], first, d, int(cut.get("all", 0)))
    text = f"{d.unit.capitalize()} length: {said}"
    if rest and rest[0] in rows.index:
        other, said = rows.loc[rest[0]], measure_words(rest[0])[0]
        text += (f", {_median(other['mean'])} {said}" if int(other["games"]) == 1
                 else f", {other['mean']:.1f} {said} on average")  # fmt: skip
    return [Finding("lengths", text + ".")]


def _spread(row: pd.Series, measure: str, d: Declaration, cut: int = 0) -> str:
    """How long the units of a ``lengths`` row lasted, in words that hold for their count
    (``SPREAD_FROM``): 'the 2 rounds lasted 36 and 55 seconds'; the median with the lowest and
    highest; or with the 10th to 90th percentile range and the share of units in it
    (``p10_p90_share``: about 80% of many, any share of few or tied lengths). A length of 0
    is said as under one (``_lasted``), never as none of a unit that took time. ``cut``: how
    many of them stopped unfinished, each counted at the length it reached, short of its end:
    their count said beside the median, which where half or more stopped so may be such a
    length, so at least what they give ('lasts at least 28 turns on median'); where each
    length is given, how many of them stopped so."""
    n, units = int(row["games"]), d.units(int(row["games"]))
    cut = cut if 0 < cut <= n else 0
    cut_words = (f"; {cut:,} of the {n:,} {units} ({share_pct(cut / n)}) stopped unfinished, "
                 "counted at the length they reached" if cut else "")  # fmt: skip
    low, high = _median(row["min"]), _median(row["max"])
    if low == high:
        every = "the one" if n == 1 else ("both" if n == 2 else f"all {n:,}")
        return f"{every} {units} lasted {_lasted([low], measure)}{_stopped(cut, n)}"
    if n <= 3:
        said = [row["min"], row["median"], row["max"]] if n == 3 else [row["min"], row["max"]]
        lasted = _lasted([_median(x) for x in said], measure)
        return f"the {n} {units} lasted {lasted}{_stopped(cut, n)}"
    least = "at least " if cut and 2 * cut >= n else ""
    median = f"a {d.unit} lasts {least}{_lasted([_median(row['median'])], measure)} on median"
    if n < SPREAD_FROM or "p10_p90_share" not in row:
        return f"{median} (all {n:,} {units} between {low} and {high}{cut_words})"
    lo, hi = np.ceil(row["p10"] - 1e-9), np.floor(row["p90"] + 1e-9)  # whole lengths
    lo_, hi_ = fixed(lo, 0), fixed(hi, 0)  # never '-0' (ceil of -1e-9)
    at = (f"between {lo_} and {hi_}" if lo != hi
          else f"lasted {_lasted([lo_], measure) if lo_ == '0' else lo_}")  # fmt: skip
    return f"{median} ({pct(row['p10_p90_share'])} of {units} {at}{cut_words})"


def _stopped(cut: int, n: int) -> str:
    """How many of ``n`` units whose every length is given stopped unfinished: ' (it stopped
    unfinished)', ' (both ...)', ' (all ...)', ' (2 of them ...)'; '' where none did."""
    if not cut:
        return ""
    who = "it" if n == 1 else "both" if cut == n == 2 else "all" if cut == n else f"{cut:,} of them"
    return f" ({who} stopped unfinished)"


def _lasted(figures: list[str], measure: str) -> str:
    """Lengths as written (``_median``) in their ``measure``'s words (``measure_words``): '36
    and 55 seconds'; where one reads 0 or 1, each with its own words ('1 second'), 0 as under
    one ('under one second and 1 second'): a whole length of 0 is one rounded down (a round
    of 19 ms is 0 seconds), not none."""
    many, one = measure_words(measure)
    if "0" not in figures and "1" not in figures:
        return f"{and_words(figures)} {many}"
    return and_words([f"under one {one}" if x == "0" else f"{x} {one if x == '1' else many}"
                      for x in figures])  # fmt: skip


def _median(x: float) -> str:
    """A median of whole counts as the table has it: '34', or '34.5' between two (rounded to
    a whole number, 34.5 would read as 34 and 31.5 as 32)."""
    return f"{x:.0f}" if float(x).is_integer() else f"{x:.1f}"


def _completion(tables: Mapping[str, pd.DataFrame], d: Declaration,
                said: set[str]) -> list[Finding]:  # fmt: skip
    """Forfeited and unfinished games, first of all when there are any: every other finding
    is read with them in mind. ``said``: the topics of the findings given, which the caution
    names where they leave forfeited games out (a game's report has only those it declares)."""
    if (row := overall(tables.get("completion"))) is None:
        return []
    games, forfeited, unfinished = int(row["games"]), int(row["forfeited"]), int(row["unfinished"])
    if not forfeited and not unfinished:
        return []
    parts = []
    if forfeited:
        summ = tables.get("summary")
        by = (summ[summ["forfeits"] > 0].sort_values("forfeits", ascending=False)
              if summ is not None and "forfeits" in summ else pd.DataFrame())  # fmt: skip
        who = (" (by " + ", ".join(f"{r['strategy']}: {int(r['forfeits']):,}"
                                   for _, r in by.iterrows()) + ")" if len(by) else "")  # fmt: skip
        parts.append(
            f"{forfeited:,} of {games:,} {d.units()} ({share_pct(forfeited / games)}) ended by a "
            f"forfeit{who}: a forfeited {d.unit} has no winner, so it counts as lost by every "
            f"seat at its table, the forfeiting one included"
            + (_left_out(tables, d, said) if forfeited < games else "")  # else none is left out
        )
    if unfinished:
        parts.append(unfinished_words(row, d))
    return [Finding("completion", "Caution: " + "; ".join(parts) + ".")]


def _left_out(tables: Mapping[str, pd.DataFrame], d: Declaration, said: set[str]) -> str:
    """'; the paired comparisons leave them out, as do the seat and length findings': the
    parts of the report that leave forfeited games out, those it holds only (a gauntlet's own
    comparison counts them: a failing side must lose)."""
    sig, gauntlet = tables.get("significance"), "gauntlet" in tables
    words = {"means": f"mean {d.rank_value.replace('_', ' ')}", "seats": "seat",
             "neighbours": "neighbour", "lengths": "length"}  # fmt: skip
    named = [w for topic, w in words.items() if topic in said]  # their tables leave them out
    one = len(named) == 1
    found = f"the {and_words(named)} finding{'' if one else 's'}" if named else ""
    if sig is not None and len(sig):
        paired = str(sig["method"].iloc[0]).startswith("paired") and not gauntlet
        what = "the paired comparisons" if paired else "the comparisons between strategies"
        also = f", as do{'es' if one else ''} {found}" if found else ""
        text = f"; {what} leave them out{also}"
    else:
        text = f"; {found} leave{'s' if one else ''} them out" if found else ""
    return text + ("; the gauntlet's comparison counts them" if gauntlet else "")


def unfinished_words(row: pd.Series, d: Declaration) -> str:
    """How many units of a completion row (``reports.tables.completion``) stopped unfinished at
    the game's limits (its declared ``limits``; a game that declares none, its limit on the
    unit's length), and how they count: the findings' words and the tournament's."""
    games, unfinished = int(row["games"]), int(row["unfinished"])
    won = int(row["unfinished_won"]) if "unfinished_won" in row else 0
    return (
        f"{unfinished:,} {d.units(unfinished)} ({share_pct(unfinished / max(games, 1))}) stopped "
        f"unfinished at {_limit_words(row, d)} and {_unfinished_wins(unfinished, won, d)}"
    )


def _limit_words(row: pd.Series, d: Declaration) -> str:
    """Which limits stopped the unfinished units: those the rows tell apart
    (``unfinished_at_<i>``, by the declared ``limit_columns``) with their counts, else the
    declared ``limits`` together, else the unit's length."""
    names = list(d.limit_columns or {})
    counts = [int(row.get(f"unfinished_at_{i}", -1)) for i in range(len(names))]
    if names and min(counts) >= 0 and sum(counts) == int(row["unfinished"]):
        hit = [(n, c) for n, c in zip(names, counts, strict=True) if c]
        if len(hit) == 1:
            return f"a limit of the game ({hit[0][0]} a {d.unit})"
        each = ", ".join(f"{c:,} at {n}" for n, c in hit)
        return f"the limits of the game ({each} a {d.unit})"
    if d.limits:
        return f"a limit of the game ({d.limits})"
    return f"the game's limit on {d.unit} length"


def _unfinished_wins(unfinished: int, won: int, d: Declaration) -> str:
    """How the unfinished games count, as the run's rows have them: nobody's win (a game
    that stops unfinished has no winner) or won by whoever was ahead when it stopped (a game
    that scores a stopped round as it stood). Read from the games, not assumed of a game."""
    one = unfinished == 1
    they = "it" if one else "they"
    if not won:
        return f"{'counts' if one else 'count'} as nobody's win"
    ahead = f"whoever was ahead ({d.ahead_means}) when {they} stopped"
    if won == unfinished:
        return f"{'is' if one else 'are'} scored as {they} stood, won by {ahead}"
    return f"count: {won:,} as won by {ahead}, the other {unfinished - won:,} as nobody's win"


def _outcomes(out: pd.DataFrame | None, d: Declaration) -> list[Finding]:
    """The share of every declared yes/no column (e.g. blockades) over the rows not ended by
    a forfeit (``outcomes``' ``valid_<units>``), each in ``_share``'s words; none where every
    row was forfeited."""
    if (row := overall(out)) is None or not int(row[VALID.format(d.units())]):
        return []
    return [
        Finding("outcomes", f"{d.units().capitalize()} {meaning}: {_share(row, c, d)}.")
        for c, meaning in d.share_columns.items()
        if f"{c}_share" in out
    ]


def _share(row: pd.Series, column: str, d: Declaration) -> str:
    """'25.0% [12.5, 40.0] of 40 rounds'; a share that is not 0 with the decimals that show
    it (``share_digits``: '0.02% [0.01, 0.08] of 15,000 rounds', never '0.0%', which reads
    as none); none as none ('none of the 15,000 rounds (0% [0.0, 0.4])'); where some were
    forfeited, the rest, said so ('of the 32 rounds not ended by a forfeit')."""
    share, n = float(row[f"{column}_share"]), int(row[VALID.format(d.units())])
    lo, hi = row[f"{column}_ci_low"], row[f"{column}_ci_high"]
    k = share_digits(share, lo, hi)
    iv = interval(lo, hi, digits=k)
    some = " not ended by a forfeit" if n < int(row[d.units()]) else ""
    if share > 0:
        the = "the " if some else ""
        return rate_of("100%" if share == 1 else pct(share, k), iv,
                       f"of {the}{n:,} {d.units(n)}{some}")  # fmt: skip
    none = "not the one" if n == 1 else f"none of the {n:,}"
    return f"{none} {d.units(n)}{some} ({f'0% {iv}' if iv.startswith('[') else iv[1:-1]})"


def _expert(ex: pd.DataFrame | None, d: Declaration,
            summ: pd.DataFrame | None = None) -> list[Finding]:  # fmt: skip
    """The leader's match win rate, its shared wins and void matches; the rate said of its
    seats where it held more seats than matches (two seats of a table). A table without
    ``seats`` (made by a caller as ``reports.expert`` made it before) counts seats as matches:
    two seats where the summary ``summ`` has them (``more_seats``: a match's seats are its
    games'), and its void matches are then seats."""
    if ex is None or not len(ex):
        return []
    top = ex.iloc[0]
    shared = int(top["shared_wins"])
    iv = interval(top["ci_low"], top["ci_high"])
    seated = False  # void counts seats, not matches
    if "seats" in top.index:  # matches once each, beside its seats
        two = int(top["seats"]) > int(top["matches"])
    else:
        mine = summ[summ["strategy"] == top["strategy"]] if summ is not None else pd.DataFrame()
        two = seated = bool(len(mine)) and more_seats(mine.iloc[0])
    of = "seats" if two else plural(d.match_unit)
    won = rate_of(pct(top["match_win_rate"]), iv, f"of its {of}")
    text = (  # a missing interval's words close the rate (``rate_of``): the rest follows them
        f"{d.match_label}: {top['strategy']} wins {won}, counting shared wins as wins "
        f"({pct(top['match_win_rate_split'])} with each shared win split); fair share "
        f"{pct(top['fair_share'])}; {shared:,} of its {int(top['match_wins']):,} wins "
        f"{'was' if shared == 1 else 'were'} shared."
    )
    void = int(top.get("forfeited_matches", 0))
    if void:
        was, n = "was" if void == 1 else "were", int(top["matches"])
        text += (
            f" {void:,} of its {n:,} seats {was} at a {d.match_unit} that held a forfeited "
            f"{d.unit}, won by nobody." if seated else
            f" {void:,} of its {n:,} {plural(d.match_unit)} held a forfeited {d.unit} and {was} "
            "won by nobody."
        )  # fmt: skip
    rates = ex["match_win_rate"].to_numpy(float)  # a tie at the top: the first leads none
    tied = list(ex["strategy"][1:][np.isclose(rates[1:], rates[0], rtol=0, atol=1e-12)])
    if tied:
        text += (f" {and_words(tied)} {'has' if len(tied) == 1 else 'have'} the same "
                 f"{d.match_unit} win rate, {pct(rates[0])}: no strategy leads.")  # fmt: skip
    return [Finding("expert", text)]


def key_findings(tables: Mapping[str, pd.DataFrame], method: str = "",
                 declaration: Declaration | None = None,
                 state: RunState | None = None) -> list[Finding]:  # fmt: skip
    """The key findings of a report's tables (``reports.compute_tables``) in the words of the
    game's declaration (default: the default game's), most important first: a gauntlet's
    answer (gauntlet runs, instead of) the best strategy and its paired margin over the next,
    the best mean rank value (games that declare means), the meta-game's stable mix (runs
    whose tables hold every multiset of the strategies), the seat effect, the strongest
    neighbour effect or that none was found (when those tables exist), length, declared outcome shares, and for runs
    of matches the match win split and shared wins. ``state``: where the run stands
    (``tournaments.run_state``), said first (``_said_first``): the page, the notebook's
    ``Report`` and the commands say the same."""
    if not isinstance(tables, Mapping):  # e.g. a run: its tables come from compute_tables
        raise TypeError(f"key_findings takes a report's tables (reports.compute_tables(run)"
                        f"[0]), got {type(tables).__name__}")  # fmt: skip
    if state is not None and not isinstance(state, RunState):
        raise TypeError(f"state takes a tournaments.run_state.RunState or None, got "
                        f"{type(state).__name__}")  # fmt: skip
    found = _findings(tables, method, declaration or default_declaration())
    return _said_first(found, tables, state)


def _said_first(found: list[Finding], tables: Mapping[str, pd.DataFrame],
                state: RunState | None) -> list[Finding]:  # fmt: skip
    """``found`` after the lines of where the run stands (``RunState.lines``: unfinished,
    nothing valid; the caution counts partial forfeits by strategy), and only what still says
    something: a gauntlet one side of which forfeited every game, its forfeits' sentence
    (the other side's games compare it with nothing); a run of which no game was valid,
    nothing more (or, with no state to say it, the caution and that none is ranked)."""
    lines = state.lines(partial_forfeits=False) if state is not None else []
    first = [Finding("run", line) for line in lines]
    summ = tables.get("summary")
    if void_gauntlet(tables):
        found = found[:1]
    elif state is not None and state.games and state.nothing_valid:
        found = []
    elif summ is not None and len(summ) and not ranked(summ):  # every game forfeited
        found = [f for f in found if f.topic in ("completion", "summary")]
    return first + found


def _findings(tables: Mapping[str, pd.DataFrame], method: str,
              d: Declaration) -> list[Finding]:  # fmt: skip
    """``key_findings`` of the tables alone."""
    lead: list[Finding] = []
    if "gauntlet" in tables:  # not a round robin: the field's ranking answers nothing asked
        forfeits, said = answer(tables["gauntlet"])  # what its forfeits mean comes first
        lead = [Finding("gauntlet", forfeits)] if forfeits else []
        out = [Finding("gauntlet", " ".join(said))] if said else []
    else:
        out = best_finding(tables, method, d)
    out += _means(tables.get("means"), d)
    if not nobody_won(tables.get("summary")):  # else each would compare zeros
        out += metagame_finding(tables, d)
        out += _seats(tables.get("seats"), d)
        out += _neighbours(tables.get("neighbours"), tables.get("summary"))
    out += _lengths(tables.get("lengths"), d, tables.get("completion"))
    out += _outcomes(tables.get("outcomes"), d)
    out += _expert(tables.get(d.match_name), d, tables.get("summary"))
    if capped := capped_words(tables.get(f"{d.match_name}_lengths"), d):
        out.append(Finding("expert", capped))
    return lead + _completion(tables, d, {f.topic for f in out}) + out
