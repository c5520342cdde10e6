"""The answer of a gauntlet run: the strategy's win rate, the baseline's on the same deals and
seats, and their paired difference in one sentence ("my_bot beats weighted by 3.1 percentage
points [+2.2, +4.0] (paired over 5,000 deals, p < 1e-16)")."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from strategies.spec_values import top_level_pieces
from tournaments.gauntlet import field_groups
from tournaments.result import TournamentResult
from tournaments.run_state import replay_command, run_state, shell_word
from tournaments.sequential import (
    BETTER,
    FORMER_NOT_BETTER,
    NOT_BETTER,
    NOTHING_VALID,
    RUNNING,
    UNDECIDED,
)

from .clusters import clusters, ratio_estimates, seat_sums, wilson_t
from .data import ReportError
from .findings_best import nobody_won
from .loading import as_run
from .numbers import (
    NO_SPREAD_WITHIN,
    TOO_FEW,
    apart_digits,
    beside,
    counted,
    difference_interval,
    fixed,
    flat_sets,
    in_percentage_points,
    interval,
    level_digits,
    one_stratum,
    p_text,
    pct,
    rate_of,
)
from .sequential_words import llr_words as llr_words  # re-exported: the LLR's words' home
from .sequential_words import weighed
from .significance import paired
from .tables import summary

NUMBERS = ("no", "one", "two", "three", "four", "five", "six")

PAIRED_BY_DEAL = ("paired by deal: the strategy's games of a deal at a table against the "
                  "baseline's on its copy of that table")  # fmt: skip
"""How a gauntlet pairs its strategy with its baseline (``method``): never within a duplicate
set, as they never share a table, but deal by deal across the two copies of a table."""


def design(data: Any) -> dict[str, Any] | None:
    """The gauntlet (strategy, baseline, field) a run's manifest names; None for other runs."""
    run = as_run(data)
    spec = run.manifest.get("spec", {}) if isinstance(run.manifest, dict) else {}
    d = spec.get("gauntlet") if isinstance(spec, dict) else None
    return d if isinstance(d, dict) else None


def gauntlet(data: Any) -> pd.DataFrame:
    """One row: strategy and baseline win rates with their 95% intervals (the summary's), the
    field's at each side's tables (``field_win_rate`` at the strategy's, ``baseline_field_*``
    at the baseline's, ``field_rates``), the paired difference (strategy - baseline, deal by
    deal: the baseline's copy of a table is dealt the strategy's cards, ``PAIRED_BY_DEAL``)
    with its 95% t interval and p-value, the field, table size, games of each side
    (``games``, ``baseline_games``: equal once the run is finished) and the deals paired
    (``deals``); the forfeits of each side (``forfeited``: games ended by one,
    ``forfeits``: by the strategy or baseline itself) and the run's first forfeit
    (``first_error``); a sequential gauntlet's test (``sequential_*``, as its manifest keeps
    it, the estimate of the batch it last weighed in points; one stopped in its first batch
    has weighed none). Raises ReportError for a run that is not a gauntlet."""
    run = as_run(data)
    d = design(run)
    if d is None:
        raise ReportError("not a gauntlet run: its manifest names no gauntlet")
    g = run.games
    a, b = g.labels.index(d["strategy"]), g.labels.index(d["baseline"])
    r = paired(g, seat_sums(g, g.n_strategies), a, b)
    if r is None:
        raise ReportError(_unpaired(run))
    summ = summary(g).set_index("strategy")
    mine, base = summ.loc[d["strategy"]], summ.loc[d["baseline"]]
    n_players = int(np.bincount(g.n_players.astype(np.int64)).argmax())
    side = (g.seats == a).any(axis=1)  # the strategy's games; the others are the baseline's
    row = {
        "strategy": d["strategy"],
        "baseline": d["baseline"],
        "field": ",".join(d["field"]),
        "n_players": n_players,
        "games": int(mine["games"]),
        "baseline_games": int(base["games"]),
        "deals": r["units"],
        "df": r["df"],
        "method": PAIRED_BY_DEAL,
        "win_rate": mine["win_rate"],
        "ci_low": mine["ci_low"],
        "ci_high": mine["ci_high"],
        "baseline_win_rate": base["win_rate"],
        "baseline_ci_low": base["ci_low"],
        "baseline_ci_high": base["ci_high"],
        **field_rates(g, a, b),
        "diff": r["diff"],
        "diff_ci_low": r["ci_low"],
        "diff_ci_high": r["ci_high"],
        "p_value": r["p_value"],
        "forfeited": int((g.forfeited & side).sum()),
        "forfeits": int(mine["forfeits"]),
        "baseline_forfeited": int((g.forfeited & ~side).sum()),
        "baseline_forfeits": int(base["forfeits"]),
        "first_error": first_error(run) if g.forfeited.any() else "",
    }
    seq = run.manifest.get("sequential") if isinstance(run.manifest, dict) else None
    if not isinstance(seq, dict) and isinstance(d.get("sequential"), dict):
        seq = unweighed(d["sequential"])  # stopped in its first batch
    if isinstance(seq, dict):  # a sequential gauntlet: its decision, as the command said it
        row.update({f"sequential_{k}": seq.get(k) for k in SEQUENTIAL_KEYS})
    table = pd.DataFrame([row])
    table.attrs["run"] = str(run.path) if run.path is not None else ""  # not a result: no column
    table.attrs["field"] = [str(x) for x in d["field"]]  # the labels, each whole
    table.attrs["units"] = run.declaration.units()  # the game's word ("rounds" of a game in rounds)
    table.attrs["unit"] = run.declaration.unit  # and in the singular ("round")
    table.attrs["nobody_won"] = bool(nobody_won(summ))  # no side nor the field won: rates of zeros
    said = seq.get("sentence") if isinstance(seq, dict) and seq.get("finished") else None
    table.attrs["sequential_sentence"] = said if isinstance(said, str) else ""  # as the run said
    return table


def field_rates(g: Any, a: int, b: int) -> dict[str, float]:
    """The field's win rate per seat at the tables of strategy ``a`` (``field_*``) and of
    baseline ``b`` (``baseline_field_*``), each with its 95% interval: the deal is the unit
    (its sets at both sides share their cards), the tables strata, as every report rate. The
    summary's rate of a field strategy pools the two sides."""

    def side(block: Any, s: int) -> np.ndarray:  # 0: a field seat at a's table, 1: at b's
        seat = block.seats[:, s].astype(np.int64)
        at_a = (block.seats == a).any(axis=1)
        field = (seat >= 0) & (seat != a) & (seat != b)
        return np.where(field, np.where(at_a, 0, 1), -1)

    est = ratio_estimates(seat_sums(g, 2, side), clusters(g))
    lo, hi = wilson_t(est)
    cols = (("win_rate", est.value), ("ci_low", lo), ("ci_high", hi))
    return {f"{k}_{c}": float(v[i]) for i, k in enumerate(("field", "baseline_field"))
            for c, v in cols}  # fmt: skip


def field_sentence(table: pd.DataFrame) -> str:
    """The field's win rate at each side's tables in words, beside the summary's rate of a
    field strategy, which pools the two; '' for a table without them."""
    r = table.iloc[0]
    if "field_win_rate" not in r:
        return ""
    at = (("field", "of its seats"), ("baseline_field", f"at {r['baseline']}'s"))
    rates = [rate_of(pct(r[f"{k}_win_rate"]), interval(r[f"{k}_ci_low"], r[f"{k}_ci_high"]), s)
             for k, s in at]  # fmt: skip
    return (f"At {r['strategy']}'s tables the field wins {rates[0]}, {rates[1]}; the summary's "
            "rate of a field strategy pools the two sides.")  # fmt: skip


def _unpaired(run: Any) -> str:
    """Why no deal pairs the strategy with the baseline: a run stopped before the baseline
    played one of the strategy's deals, and how to go on; else that there is none."""
    state = run_state(run.path) if run.path is not None else None
    if state is not None and state.unfinished:
        return ("the gauntlet's strategy and baseline have played no deal in common yet: "
                f"{state.extent()}; {state.resume}")  # fmt: skip
    return "the gauntlet's strategy and baseline never played the same deals"


SEQUENTIAL_KEYS = ("decision", "finished", "games_per_side", "llr", "lower", "upper", "margin",
                   "alpha", "beta", "batches", "difference", "ci_low", "ci_high")  # fmt: skip


def unweighed(settings: Mapping[str, Any]) -> dict[str, Any]:
    """The record of a sequential test (its ``settings``: margin in points, alpha, beta) that
    has weighed no batch yet: its run stopped in the first."""
    return {"decision": RUNNING, "finished": False, "batches": 0,
            **{k: settings.get(k) for k in ("margin", "alpha", "beta")}}  # fmt: skip


def first_error(run: Any) -> str:
    """The run's first forfeit (by number) as 'game N: seat S (label): Error: why' in the
    game's unit ('round N'), or '' when the run's folder keeps none (a run given as a frame)."""
    if run.path is None:
        return ""
    try:
        found = TournamentResult(run.path).forfeits
    except (ValueError, OSError, KeyError):
        return ""
    if not len(found):
        return ""
    first = found.sort_values("game").iloc[0]
    return f"{run.declaration.unit} {int(first['game'])}: {first['error']}"


def nothing_valid(r: Mapping[str, Any]) -> bool:
    """Every game of one side ended by a forfeit: nothing is left to compare."""
    games = int(r["games"])
    return games > 0 and max(int(r["forfeited"]), int(r["baseline_forfeited"])) >= games


def void_gauntlet(tables: Mapping[str, pd.DataFrame]) -> bool:
    """A report's tables are a gauntlet's where one side forfeited every game: its forfeit
    sentence is the whole answer (the other side's games compare it with nothing)."""
    table = tables.get("gauntlet")
    return table is not None and len(table) > 0 and nothing_valid(table.iloc[0])


def _side_words(label: str, ended: int, own: int, games: int, units: str = "games") -> str:
    """'Boom forfeited 37 of its 200 games', or with the field's share named (``units``: the
    game's word, "rounds" of a game in rounds)."""
    if ended == own:
        if own == games:
            return f"{label} forfeited all {games:,} of its {units}"
        return f"{label} forfeited {own:,} of its {games:,} {units}"
    return (f"{ended:,} of {label}'s {games:,} {units} ended by a forfeit ({own:,} by {label}, "
            f"{ended - own:,} by the field)")  # fmt: skip


def forfeit_sentence(r: Mapping[str, Any], run: str = "", units: str = "games",
                     unit: str = "game") -> str | None:  # fmt: skip
    """What the forfeits of a gauntlet mean, first of all when there are any: counts, the
    first error and what to do (in the folder ``run``), in the game's ``unit`` ("round"), as
    ``first_error`` and the replay say; None when every game was played out."""
    games = int(r["games"])
    sides = [(r["strategy"], int(r["forfeited"]), int(r["forfeits"])),
             (r["baseline"], int(r["baseline_forfeited"]), int(r["baseline_forfeits"]))]  # fmt: skip
    said = [_side_words(label, ended, own, games, units) for label, ended, own in sides if ended]
    if not said:
        return None
    error = str(r.get("first_error") or "")
    first = f" (the first, {error})" if error else ""
    game = error.split(":", 1)[0].removeprefix(f"{unit} ") if error else "N"
    where = f"{run}/forfeits.json" if run else "the run's forfeits.json"
    command = replay_command(run, game) if run else f"leaves replay RUN --game {game}"
    todo = (f"fix the error ('{command}' replays that {unit}, {where} lists every forfeit "
            "with its seeds)")  # fmt: skip
    if nothing_valid(r):
        return (f"Nothing valid was played: {' and '.join(said)}{first}, so {r['strategy']} "
                f"and {r['baseline']} cannot be compared; {todo}.")  # fmt: skip
    return (f"Caution: {' and '.join(said)}{first}; a forfeit counts as a loss for the seat that "
            "forfeits and for every other seat at its table (a forfeit leaves no winner), so the "
            f"comparison below counts these errors too; {todo}.")  # fmt: skip


def _points_word(m: float) -> str:
    return in_percentage_points(f"{m:g}")


def sequential_sentence(r: Mapping[str, Any], units: str = "games", run: str = "") -> str | None:
    """A sequential gauntlet's decision and estimate in one sentence that says only what the
    decision licenses (``tournaments.sequential``): accepting the margin over 0 says
    "better" (false at most about alpha of the time for equal strategies), accepting 0 says
    "not better by the margin" (false at most about beta of the time for a strategy better by
    the margin); where the 95% interval of the estimate reaches past that claim (at error
    rates above about 0.13, or after a first batch of under about ten duplicate sets) the
    sentence says so. An interrupted test says the estimate of the batch it last weighed and
    how to continue it in the folder ``run``."""
    decision = r.get("sequential_decision")
    if not isinstance(decision, str):
        return None
    m = float(r["sequential_margin"])
    a, b = r["strategy"], r["baseline"]
    n = int(r["sequential_batches"])
    if decision == NOTHING_VALID:
        return (f"Undecided whether {a} is better than {b}: the sequential test stopped after "
                f"batch {n}, in which every one of a side's {units} ended by a forfeit, so "
                "nothing valid was there to weigh.")  # fmt: skip
    resume = f"('leaves gauntlet --resume --out {shell_word(run) if run else 'RUN'}' continues it)"
    if decision == RUNNING and n == 0:
        return (f"Not decided yet whether {a} is better than {b}: the sequential test (0 "
                f"against +{_points_word(m)}) was interrupted in its first batch, before it "
                f"weighed anything {resume}.")  # fmt: skip
    lo, hi = float(r["diff_ci_low"]), float(r["diff_ci_high"])
    llr = float(r["sequential_llr"]) if r["sequential_llr"] is not None else float("nan")
    flat = flat_sets(lo, hi, float(r.get("p_value", np.nan)), float(r.get("deals", np.nan)))
    alike = one_stratum(r.get("deals", np.nan), r.get("df", np.nan))  # every set, or a table's
    k = level_digits((lo, hi), m / 100, apart_digits(lo, hi), 100.0)  # apart from the margin
    diff = in_percentage_points(fixed(100 * float(r["diff"]), k, "+"))
    estimate = (f"{diff} {difference_interval(lo, hi, digits=k, flat=flat, alike=alike)} over "
                f"{int(r['games']):,} {units} per side")  # fmt: skip
    bounds = float(r["sequential_lower"]), float(r["sequential_upper"])
    said, low, high = weighed(llr, *bounds, flat, alike)
    test = (f"the sequential test (0 against +{_points_word(m)}, {n} batch{'es' if n != 1 else ''}"
            f", {said}, bounds {low} and {high})")  # fmt: skip
    alpha, beta = float(r["sequential_alpha"]), float(r["sequential_beta"])
    if decision == BETTER:
        head = f"{a} is better than {b}"
        tail = (f"{test} favoured +{m:g} over 0, which it does for two equally strong "
                f"strategies at most {100 * alpha:g}% of the time (alpha)")  # fmt: skip
        upper = float(r["sequential_upper"])
        if flat and llr == np.inf and flat / 2 < upper:  # only an earlier version gave +inf
            d = level_digits((flat / 2,), upper)
            tail = (f"{test} favoured +{m:g} over 0 by an earlier version's rule for duplicate "
                    "sets with no spread: the current test weighs these "
                    f"{flat} as N/2 = {fixed(flat / 2, d)}, short of its bound "
                    f"{fixed(upper, d)}, and would play on")  # fmt: skip
        if np.isfinite(lo) and not lo > 0:
            tail += ", a laxer standard than the 95% interval, which still includes 0"
    elif decision in (NOT_BETTER, FORMER_NOT_BETTER):
        head = f"{a} is not {_points_word(m)} better than {b}"
        tail = (f"{test} favoured 0 over +{m:g}, which it does for a strategy "
                f"{_points_word(m)} better at most {100 * beta:g}% of the time (beta)")  # fmt: skip
        if flat and llr == -np.inf:  # only an earlier version decided on it
            tail = (f"{test} favoured 0 over +{m:g} by an earlier version's rule, an LLR of -inf "
                    "from sets with no spread, which bounds no error rate")  # fmt: skip
        if np.isfinite(hi) and not hi < m / 100:
            tail += f", a laxer standard than the 95% interval, which still reaches +{m:g}"
        tail += _clear_of_zero(r, m)
    elif decision == UNDECIDED:
        head = f"Undecided whether {a} is better than {b}"
        tail = f"{test} reached --max-games before favouring 0 or +{m:g}" + _clear_of_zero(r, m)
    else:  # a run interrupted between batches, or within one
        head = f"Not decided yet whether {a} is better than {b}"
        estimate = _weighed_estimate(r, units) or f"{estimate} so far"
        tail = f"{test} was interrupted {resume}"
    return f"{head}: {estimate}; {tail}."


def _clear_of_zero(r: Mapping[str, Any], m: float) -> str:
    """What the 95% interval of a sequential gauntlet that did not say "better" (margin ``m``
    points) tells beside its test where it is clear of 0: worse, or better (by less than the
    margin where it ends below it), never left at "not better" of a strategy it shows worse;
    '' where it includes 0 or there is none (no spread: the exact sign test stays out of a
    sequential verdict, which would spend its alpha twice)."""
    lo, hi = float(r["diff_ci_low"]), float(r["diff_ci_high"])
    a, b = r["strategy"], r["baseline"]
    if not (np.isfinite(lo) and np.isfinite(hi)) or lo <= 0 <= hi:
        return ""
    if hi < 0:
        return f", and the 95% interval, below 0, says {a} is worse than {b}"
    less = f", by less than {_points_word(m)}" if hi < m / 100 else ""
    return f", and the 95% interval, above 0, says {a} is better than {b}{less}"


def _weighed_estimate(r: Mapping[str, Any], units: str) -> str | None:
    """The estimate of the batch an interrupted test last weighed (the games played since
    need not be whole duplicate sets of both sides), or None where its record keeps none."""
    if r.get("sequential_difference") is None:  # recorded by earlier versions
        return None

    def rate(key: str) -> float:  # the record keeps points; None where there was no interval
        value = r.get(f"sequential_{key}")
        return float("nan") if value is None else float(value) / 100

    lo, hi = rate("ci_low"), rate("ci_high")
    weighed = r.get("sequential_llr") is not None  # an LLR and no interval: no spread
    k = apart_digits(lo, hi)
    none = f"({NO_SPREAD_WITHIN})"  # a batch's sets: no record says they were one stratum
    span = none if weighed and np.isnan(lo) else difference_interval(lo, hi, digits=k)
    return (f"{in_percentage_points(fixed(100 * rate('difference'), k, '+'))} {span} "
            f"over {int(r['sequential_games_per_side']):,} {units} per side, after batch "
            f"{int(r['sequential_batches'])}")  # fmt: skip


def _number(n: int) -> str:
    return NUMBERS[n] if n < len(NUMBERS) else str(n)


def _listed(words: list[str]) -> str:
    return ", ".join(words[:-1]) + f" and {words[-1]}" if len(words) > 1 else words[0]


def field_words(field: list[str], n_players: int) -> str:
    """The field as its tables seat it (``tournaments.gauntlet.field_groups`` over ``field``
    in the run's order, by label): 'three taker'; 'a field of greedy and taker' where each
    takes one seat; 'a field of two greedy and one taker' where a mix repeats to fill the
    seats; 'every combination of two of greedy, low and taker' where there are more."""
    seats = n_players - 1
    if len(field) > seats:  # one table per combination
        if seats == 1:
            return f"one of {_listed(list(field))} at each table"
        return f"every combination of {_number(seats)} of {_listed(list(field))}"
    count = Counter(field[i] for i in field_groups(range(len(field)), seats)[0])
    if len(count) == 1:
        return f"{_number(seats)} {field[0]}"
    if max(count.values()) == 1:
        return f"a field of {_listed(list(count))}"
    return f"a field of {_listed([f'{_number(n)} {name}' for name, n in count.items()])}"


def fixed_verdict(r: Mapping[str, Any], units: str = "games") -> str:
    """The paired difference of a gauntlet of fixed size, with its interval and p-value
    (``units``: what the game's rows are, in the plural). Where every duplicate set gave the
    same difference (at several tables: within each table, ``one_stratum``) there is no
    interval: the sentence says so, and the exact sign test's p-value decides (below 0.05, as
    a 95% interval clear of 0 does)."""
    lo, hi, p = r["diff_ci_low"], r["diff_ci_high"], r["p_value"]
    flat = flat_sets(lo, hi, p, r["deals"])
    k = apart_digits(lo, hi)  # bounds never read alike, nor a bound clear of 0 as 0.0
    alike = one_stratum(r["deals"], r.get("df", np.nan))  # every set, or each table's
    ci = difference_interval(lo, hi, digits=k, flat=flat, alike=alike)
    deals = counted(int(r["deals"]), "deal")
    diff = in_percentage_points(fixed(100 * r["diff"], k, "+"))
    if not (np.isfinite(lo) and np.isfinite(hi)) and not flat:
        return (f"Too few deals to compare {r['strategy']} with {r['baseline']}: "
                f"{diff} over {deals} paired, {TOO_FEW}; play more {units} "
                "to tell them apart.")  # fmt: skip
    ci = beside(ci, f"paired over {deals}, {p_text(p)}")  # no spread: one bracket, not two
    clear = p < 0.05 if flat else True  # an interval clear of 0 is p < 0.05 already
    if clear and (r["diff"] > 0 if flat else lo > 0):
        by = in_percentage_points(fixed(100 * r["diff"], k))
        return f"{r['strategy']} beats {r['baseline']} by {by} {ci}."
    if clear and (r["diff"] < 0 if flat else hi < 0):
        return f"{r['strategy']} loses to {r['baseline']}: the difference is {diff} {ci}."
    return f"No significant difference between {r['strategy']} and {r['baseline']}: {diff} {ci}."


def answer(table: pd.DataFrame) -> tuple[str | None, list[str]]:
    """(what the forfeits mean, or None; the gauntlet's answer: the two win rates, then the
    paired difference -- where no game was won, that first (``_no_wins``); a sequential
    gauntlet's in the words of its test, whose stopping rule a fixed-size p-value ignores).
    Nothing valid played: no answer."""
    r = table.iloc[0]
    units, run = str(table.attrs.get("units", "games")), str(table.attrs.get("run", ""))
    head = forfeit_sentence(r, run, units, str(table.attrs.get("unit", "game")))
    if nothing_valid(r):
        return head, []
    field = table.attrs.get("field") or top_level_pieces(str(r["field"]))  # labels whole
    against = field_words(list(field), int(r["n_players"]))
    base = f"{pct(r['baseline_win_rate'])} {interval(r['baseline_ci_low'], r['baseline_ci_high'])}"
    games = int(r.get("baseline_games", r["games"]))
    if games == int(r["games"]):
        base = f"in the same seats on the same deals, wins {base}"
    else:  # an unfinished run: the two sides have played different numbers of games
        base = f"in the same seats, wins {base} of the {games:,} {units} it has played so far"
    won = rate_of(pct(r["win_rate"]), interval(r["ci_low"], r["ci_high"]),
                  f"of {int(r['games']):,} {units}")  # fmt: skip
    rates = f"{r['strategy']} wins {won} against {against}; {r['baseline']}, {base}."
    verdict = _no_wins(table, units) if table.attrs.get("nobody_won") else None
    return head, [rates, verdict or sequential_sentence(r, units, run) or fixed_verdict(r, units)]


def _no_wins(table: pd.DataFrame, units: str) -> str | None:
    """The verdict of a gauntlet in which no game was won, by either side or the field, said
    before any read off its differences (0 whichever side is better): a finished sequential
    test's own sentence (``leaves_cli.sequential`` keeps it in the record: undecided, it
    weighed nothing); None for one interrupted (its sentence says how to continue it); else
    that the two cannot be compared (a fixed-size run, or a test recorded before it stopped
    undecided on no wins)."""
    r = table.iloc[0]
    decision = r.get("sequential_decision")
    said = table.attrs.get("sequential_sentence")
    if said and decision == UNDECIDED and r.get("sequential_llr") is None:  # weighed nothing
        return str(said)
    if decision == RUNNING:
        return None
    played = int(r["games"]) + int(r.get("baseline_games", r["games"]))
    return (f"None of the {played:,} {units} was won, by either side or the field, so both win "
            f"rates are 0 and {r['strategy']} and {r['baseline']} cannot be compared.")  # fmt: skip


def unshared(table: pd.DataFrame) -> str:
    """Why a gauntlet's head-to-head table has no row for its strategy and baseline, said
    beside it: they never share a table (the baseline plays the strategy's seats on a copy of
    its deals), so their cells are blank, not missing; '' where ``table`` has no row."""
    if not len(table):
        return ""
    a, b = table.iloc[0]["strategy"], table.iloc[0]["baseline"]
    return (f" In a gauntlet {a} and {b} never share a table ({b} plays {a}'s seats on a copy "
            f"of its deals), so the table has no row for the two and their cells of the "
            "heatmap are blank: the Gauntlet section compares them, paired by deal.")  # fmt: skip


def sentences(table: pd.DataFrame) -> list[str]:
    """The gauntlet's answer in words, what its forfeits mean first (``answer``)."""
    head, said = answer(table)
    return ([head] if head else []) + said
