"""The report page's sections: which there are for a run, in reading order, and the words
around each table (what it is, how it is computed, the sentence that leads it); the run in a
few lines for the page's summary box is ``reports.run_overview``'s."""

from __future__ import annotations

import numpy as np
import pandas as pd

from tournaments.declaration import Declaration, plural

from .declared import VALID
from .expert import capped_words
from .finding import and_words
from .findings import key_findings, overall
from .gauntlet import unshared, void_gauntlet
from .lead_clauses import blank, cut_short, forfeits_out, no_intervals
from .metagame_text import metagame_lead, metagame_sections
from .neighbours import no_other_seat
from .numbers import PERCENTAGE_POINTS, TOO_FEW, pct
from .page import Section
from .rating import order_note, readable
from .run_overview import overview
from .significance import PAIRED
from .tables import decided

__all__ = ["order_note", "overview", "sections"]

Tables = dict[str, pd.DataFrame]

NO_SPREAD_NOTE = (
    " Where within each table every duplicate set gave the same difference there is no spread "
    "to give an interval from: none is shown, and p is the exact sign test's (2 x 0.5^N for N "
    "sets all one way)."
)
"""How a section whose paired differences may have no spread reads its empty intervals."""


def sections(tables: dict[str, pd.DataFrame], method: str, d: Declaration,
              spec: dict | None = None) -> list[Section]:  # fmt: skip
    """The page's sections, in reading order; which ones and their words follow the game's
    declaration ``d`` (units, direction, columns)."""
    secs = [*_opening(tables, method, d), *_declared(tables, d), *_comparisons(tables, method, d)]
    secs += _game_sections(tables, d, spec) + metagame_sections(tables)
    for sec in secs:
        sec.lead = _lead(sec, tables, d)
    return secs[:1] + [sec for sec in secs[1:] if any(len(t) for _, t in sec.tables)]


def _opening(tables: Tables, method: str, d: Declaration) -> list[Section]:
    """The key findings and the summary."""
    units, rank = d.units(), d.rank_value.replace("_", " ")
    shared = (
        " A win shared by tied players counts for each of them (win_share splits it)."
        if d.shared_wins
        else ""
    )
    return [
        Section(
            "Key findings",
            "In words, from the tables below; 95% intervals in brackets, numbers rounded "
            "(the CSVs keep full precision).",
            bullets=[f.text for f in key_findings(tables, method, d)],
        ),
        Section(
            "Summary",
            f"Per strategy: the {units} it sat in (each once), its seats (more than its {units} "
            f"where it held two seats at a table), wins, win rate over its seats with a 95% interval "
            f"(duplicate sets the units), fair share (1/players: the win rate if all were equal "
            f"and every {d.unit} had one winner), par (the win rate if each {d.unit}'s wins went "
            f"to its seats at random: a reference, not a ranking, as a strategy's own play moves "
            f"it), relative = win rate / fair share, mean {rank} when not winning, unfinished "
            f"and forfeited {units}. Strongest first (by relative)." + shared,
            [("summary", tables["summary"])],
            ["win_rates"],
        ),
    ]


def _declared(tables: Tables, d: Declaration) -> list[Section]:
    """The sections of tables a game declares (means, by parameter) and the gauntlet's."""
    rank = d.rank_value.replace("_", " ")
    secs = []
    if "means" in tables:
        cols = ", ".join(c.replace("_", " ") for c in d.mean_columns)
        secs.append(
            Section(
                f"Mean {rank} per {d.unit}",
                f"Per strategy: the mean per seat of {cols}, with 95% intervals (duplicate "
                f"sets the units, as for the win rates); {d.better} {rank} is better. Best first.",
                [("means", tables["means"])],
                ["means"],
            )
        )
    if "by_parameter" in tables:
        names = ", ".join(d.parameters)
        secs.append(
            Section(
                f"{rank.capitalize()} by strategy and {names}",
                f"The same strategies at different values of {names} (the default where the "
                f"label shows none), mean {rank} per {d.unit} with 95% intervals: is it better "
                "to be faster or to play smarter?",
                [("by_parameter", tables["by_parameter"])],
                [f"by_{p}" for p in d.parameters],
            )
        )
    if "gauntlet" in tables:
        secs.append(
            Section(
                "Gauntlet",
                "The strategy and the baseline in the same seats on the same deals against "
                "the field; diff = strategy - baseline win rate, paired by deal, 95% t "
                "interval." + NO_SPREAD_NOTE,
                [("gauntlet", tables["gauntlet"])],
            )
        )
    return secs


def _comparisons(tables: Tables, method: str, d: Declaration) -> list[Section]:
    """Strategies against each other: the rating, the differences that matter, head to head."""
    units = d.units()
    return [
        Section(
            "Rating (Plackett-Luce)",
            f"Fitted on the finishing order ({d.ahead_means} is better) of every {d.unit}; ties "
            "handled by Breslow's method; 95% intervals from the Hessian. worth = chance to "
            "finish first at a table holding one of each.",
            [("rating", readable(tables["rating"]))],
            ["rating"],
        ),
        Section(
            "Differences that matter",
            "Top strategies compared pairwise by win rate at the tables both sat at (diff = "
            "a - b, 95% t interval): win_rate_a is a's win rate at those tables and win_rate_b "
            "b's with each duplicate set weighted by a's seats there (b's own, its wins over its "
            "seats, is win_rate_b_own in significance.csv), so diff = win_rate_a - win_rate_b, "
            "not the difference of the summary's rates, which count every table. "
            + (
                "Paired by deal: each deal was played under every "
                "seating of its duplicate set, so a and b are compared on the same deal "
                "against the same opponents; the t-test runs over deals."
                if method == PAIRED
                else f"Unpaired: the {units} carry no deal column, so each shared {d.unit} is "
                "a unit."
            )
            + " p-values Holm-adjusted over the pairs shown."
            + NO_SPREAD_NOTE,
            [("significance", tables["significance"])],
        ),
        Section(
            "Head to head",
            f"How often the row strategy finished ahead of the column strategy ({d.ahead_means}) "
            f"{_pairs_counted(tables, d)}; heatmap counts ties as half.",
            [("head_to_head", tables["head_to_head"])],
            ["head_to_head"],
        ),
    ]


def _pairs_counted(tables: Tables, d: Declaration) -> str:
    """The seat pairs head to head counts: every pair that shared a table, but where the run
    had forfeits (``completion``), which it leaves out as its lead says (``forfeits_out``)."""
    if not _forfeited(tables):
        return "over all seat pairs where they shared a table"
    return f"over the seat pairs of {d.units()} not ended by a forfeit"


def _game_sections(tables: dict[str, pd.DataFrame], d: Declaration,
                   spec: dict | None) -> list[Section]:  # fmt: skip
    """The sections the game's declaration asks for: seats, neighbours, lengths, matches."""
    units = d.units()
    secs: list[Section] = []
    if "seats" in tables:
        secs.append(
            Section(
                "Seat and first-player advantage",
                "Win rate by seat position relative to the first player, per player count; "
                "fair = 1/players (headed 1/players in the key rows where par differs from it).",
                [("seats", tables["seats"])],
                ["seats"],
            )
        )
    if "neighbours" in tables:
        secs.append(
            Section(
                "Neighbours: whom do you want to sit after?",
                "Win rate of each strategy by the strategy seated directly before it (whose "
                "play it faces), with 95% intervals (duplicate sets the units); vs_overall = "
                "that win rate minus the strategy's win rate over all its games (which mostly "
                "says who is at the table); vs_elsewhere = that win rate minus its win rate "
                "with the same strategy at another seat of its table (compared within each "
                "duplicate set where both happen, with a 95% interval): the effect of the seat "
                "alone, which the chart's colour shows. Where the strategy before sits directly "
                "before at every table the two share (no_other_seat), there is no other seat to "
                "compare and vs_elsewhere is empty. With the balanced seating design every "
                "strategy sits after every other equally often." + NO_SPREAD_NOTE,
                [("neighbours", tables["neighbours"])],
                ["neighbours"],
            )
        )
    measures = " and ".join(d.length_columns)
    length_tables = [("lengths", tables["lengths"])]
    length_text = (
        f"{measures.capitalize()} per {d.unit}, by player count and by strategy ({units} it "
        "took part in). Percentiles are exact."
    )
    if "outcomes" in tables:
        what = ", ".join(d.share_columns.values())
        length_text += (f" Outcomes: per table size, of the {units} not ended by a forfeit "
                        f"({VALID.format(units)}), the share {what} (95% intervals).")  # fmt: skip
        length_tables.insert(0, ("outcomes", tables["outcomes"]))
    length_text += _forfeits_left_out(tables, d)
    secs.append(
        Section(
            f"{d.unit.capitalize()} length" + (" and outcomes" if "outcomes" in tables else ""),
            length_text,
            length_tables,
            [f"lengths_{m}" for m in d.length_columns],
        )
    )
    if d.match_name in tables:
        capped = capped_words(tables[f"{d.match_name}_lengths"], d)  # "" where none was
        text = _match_text(d, spec or {}) + (f" {capped}" if capped else "")
        secs.append(Section(d.match_title, text, [
            (d.match_name, tables[d.match_name]),
            (f"{d.match_name}_lengths", tables[f"{d.match_name}_lengths"]),
        ], [f"{d.match_name}_scores"]))  # fmt: skip
    return secs


FAIR = "the fair share (the win rate if all were equal)."
LEADS = {
    "summary": "Win rate per strategy, strongest on top, with 95% intervals; the orange tick is "
    + FAIR,
    "gauntlet": "The strategy and the baseline on the same deals against the same field.",
    "rating": "Rating from the whole finishing order, strongest on top, with 95% intervals.",
    "significance": "Which differences in win rate between the top strategies are real, "
    "and which could be chance: each is measured at the tables both sat at (the two win rates "
    "there beside it, the second weighted by the first's seats).",
    "head_to_head": "How often each strategy (row) finished ahead of each other one (column); "
    "the heatmap and the score column count ties as half.",
    "seats": "Win rate by seat position after the first player, per table size; dashed: the "
    "fair share.",
    "neighbours": "Each strategy (row) by the strategy seated directly before it (column); "
    "the colour and the figure are the seat effect (vs_elsewhere: the win rate after it less "
    f"the win rate with it at another seat of the same tables, in {PERCENTAGE_POINTS}), not the "
    "win rate, which the table gives; a star marks a seat effect with p < 0.05 (its 95% "
    "interval excludes 0, or with no spread the sign test), not corrected for the many pairs "
    "(some stars are chance).",
}
APART = ", which is why it differs from the difference of the summary's rates"
"""What the differences' lead adds where a row's two win rates are not the summary's (a
strategy that sat at tables the other did not): ``_apart``."""


def _forfeits_left_out(tables: dict[str, pd.DataFrame], d: Declaration) -> str:
    """Where the run had forfeits (``completion``), the clause saying the lengths (and the
    outcomes' shares and means) leave them out, a forfeited row being one cut short, which
    could end no declared way, while the outcomes' count covers every one."""
    forfeited = _forfeited(tables)
    if not forfeited:
        return ""
    said = f"{forfeited:,} forfeited {plural(d.unit)} (cut short) are"
    if forfeited == 1:
        said = f"1 forfeited {d.unit} (cut short) is"
    if "outcomes" not in tables:
        return f" The {said} left out of the lengths."
    return (f" The {said} left out of the lengths and the outcomes' shares and means; the "
            f"outcomes' {plural(d.unit)} column counts every {d.unit}.")  # fmt: skip


def _forfeited(tables: Tables) -> int:
    """How many of the run's units ended by a forfeit (``completion``; 0 where it has none)."""
    row = overall(tables.get("completion"))
    return 0 if row is None else int(row["forfeited"])


def _lead(sec: Section, tables: dict[str, pd.DataFrame], d: Declaration) -> str:
    """The one sentence shown with a section's chart."""
    if not sec.tables:
        return ""
    name = sec.tables[0][0]
    rank = d.rank_value.replace("_", " ")
    if name == "summary" and not tables["summary"].get("ci_low", pd.Series([0.0])).notna().any():
        return (
            LEADS[name].split(", with 95% intervals")[0]
            + "."
            + no_intervals(tables, d)
            + "; the orange tick is "
            + _fair_words(tables, d)
            + _pooled(tables, d)
        )
    if name == "summary":
        return LEADS[name][: -len(FAIR)] + _fair_words(tables, d) + _pooled(tables, d)
    if name == "gauntlet" and void_gauntlet(tables):  # more deals are no remedy then
        return LEADS[name] + (
            " This run cannot tell: one side forfeited every one of its "
            f"{d.units()}, so the two cannot be compared (fix the strategy and play the run "
            "again)."
        )
    lead = _apart(tables) if name == "significance" else LEADS.get(name, "")
    if name in ("significance", "gauntlet") and not tables[name]["p_value"].notna().any():
        which = "any difference" if name == "significance" else "the difference"  # none tested
        return (
            lead
            + (f" This run cannot tell: it has {TOO_FEW} of {which} (play more {d.units()}).")
            + (_sides_apart(tables) if name == "significance" else "")
        )
    if name == "significance":
        return lead + _sides_apart(tables)
    if name == "neighbours":
        return lead + _nothing_to_compare(tables[name]) + blank(tables, name, d)
    if name == "rating":
        return LEADS[name] + order_note(tables["summary"], tables["rating"])
    if name == "means":
        return _means_lead(tables, d)
    if name == "by_parameter":
        return f"Mean {rank} per {d.unit} of each strategy at each value of its parameters."
    if name in ("lengths", "outcomes"):
        return f"How long a {d.unit} lasts, per table size." + cut_short(tables, d)
    if name == d.match_name:
        return f"{d.match_title}: the final totals per strategy."
    if name.startswith("metagame_"):
        return metagame_lead(tables)
    if name == "seats":
        return LEADS[name] + _seats_note(tables[name], d, no_intervals(tables, d))
    if name == "head_to_head":  # a gauntlet's two sides never meet
        apart = unshared(tables["gauntlet"]) if "gauntlet" in tables else ""
        return lead + apart + forfeits_out(tables, d) + blank(tables, name, d)
    return lead


def _apart(tables: Tables) -> str:
    """The differences' lead, with ``APART`` where some row's win rates are not the summary's
    (on a run of one table they are the same, and the clause would say what is not so)."""
    sig, summ = tables["significance"], tables["summary"]
    if not {"a", "b", "win_rate_a", "win_rate_b"} <= set(sig.columns):  # no pair compared
        return LEADS["significance"]
    rate = summ.set_index("strategy")["win_rate"]
    mine = np.concatenate([sig["win_rate_a"], sig["win_rate_b"]]).astype(float)
    theirs = rate.reindex(np.concatenate([sig["a"], sig["b"]])).to_numpy(float)
    differs = not np.isclose(mine, theirs, rtol=0.0, atol=1e-9).all()
    return LEADS["significance"][:-1] + (APART if differs else "") + "."


def _means_lead(tables: dict[str, pd.DataFrame], d: Declaration) -> str:
    """The means' lead: 'with 95% intervals' only where a mean has one; where the run has
    too few deals for any (its summary has none either), that said as the summary's lead
    says it."""
    rank, col = d.rank_value.replace("_", " "), f"{d.rank_value}_ci_low"
    means = tables["means"]
    some = col in means and bool(np.isfinite(means[col].to_numpy(float)).any())
    with_them = ", with 95% intervals" if some else ""
    text = f"Mean {rank} per {d.unit} by strategy, best on top{with_them}."
    rates = tables["summary"].get("ci_low", pd.Series([0.0]))
    if not some and not rates.notna().any():
        text += no_intervals(tables, d) + "."
    return text


def _pooled(tables: Tables, d: Declaration) -> str:
    """What a gauntlet's summary adds: a field strategy's one win rate pools its games at
    both sides' tables, so it answers neither side (the Gauntlet section compares the two)."""
    if "gauntlet" not in tables or not len(tables["gauntlet"]):
        return ""
    r = tables["gauntlet"].iloc[0]
    a, b = r["strategy"], r["baseline"]
    return (f" In a gauntlet a field strategy's win rate here pools its {d.units()} at "
            f"both sides' tables ({a}'s and {b}'s), so it is no rate against either side: the "
            f"Gauntlet section compares {a} with {b} on the same deals, and Differences that "
            "matter compares the field with each side at that side's tables.")  # fmt: skip


def _sides_apart(tables: Tables) -> str:
    """What a gauntlet's differences add: no row pairs its strategy and baseline, who never
    share a table; its own section pairs them across sides (``reports.gauntlet.unshared``)."""
    if "gauntlet" not in tables or not len(tables["gauntlet"]):
        return ""
    r = tables["gauntlet"].iloc[0]
    a, b = r["strategy"], r["baseline"]
    return (f" In a gauntlet {a} and {b} never share a table, so no row compares the two: the "
            "Gauntlet section compares them, paired by deal across the two sides.")  # fmt: skip


def _nothing_to_compare(table: pd.DataFrame) -> str:
    """Which neighbour pairs have no seat effect and why: the strategy before sits directly
    before at every table the two share, so no other seat is there to compare with."""
    rows = table[no_other_seat(table)]
    if not len(rows):
        return ""
    pairs = [f"{s} after {b}" for s, b in zip(rows["strategy"], rows["before"], strict=True)]
    shown = and_words(pairs[:4] + ([f"{len(pairs) - 4} more"] if len(pairs) > 4 else []))
    return (f" No seat effect for {shown} (grey, and empty in the table): the strategy "
            "before sits directly before it at every table the two share, so there is no "
            "other seat to compare.")  # fmt: skip


def _fair_words(tables: Tables, d: Declaration) -> str:
    """What the summary's orange tick is: the fair share, the win rate if all were equal;
    where unfinished games count as nobody's win (``completion``), 1/players, of which
    strategies all alike would win only the share of the games someone won. (A forfeit is a
    strategy's failure, which the findings' caution says first.) Where tied players share a
    win, all alike would win more than 1/players: their rate is par."""
    unwon, done = 0, tables.get("completion")
    if (row := overall(done)) is not None:
        unwon = int(row["unfinished"]) - int(row.get("unfinished_won", 0))
    if unwon <= 0 and not d.shared_wins:
        return FAIR
    text = (f"the fair share, 1/players: the win rate if all were equal and every {d.unit} had "
            "one winner")  # fmt: skip
    if unwon > 0:
        none = unwon / int(row["games"])
        text += (f"; here {pct(none)} of {d.units()} have none (unfinished), so all alike "
                 f"would each win {pct(1 - none)} of it")  # fmt: skip
    if d.shared_wins:
        text += ("; a win shared by tied players counts for each of them, so all alike would "
                 f"win par{_par_words(tables.get('summary'))}, which ties raise above "
                 "1/players")  # fmt: skip
    return text + "."


def _par_words(summary: pd.DataFrame | None) -> str:
    """Where the summary's par is, and its figure: the column of its full table (folded
    below the chart), here one rate or the range of the strategies' rates."""
    where = " (the par column of the summary's full table)"
    par = [] if summary is None or "par" not in summary else summary["par"].dropna().tolist()
    if not par:
        return where
    low, high = pct(min(par)), pct(max(par))
    return f", here {low}" + (f" to {high} by strategy" if high != low else "") + where


def _seats_note(seats: pd.DataFrame, d: Declaration, none: str) -> str:
    """What the seats' lead adds: that unfinished games lower every position's fair share
    (``par``), and that no position has an interval (``none``: why, ``_no_intervals``)."""
    note = ""
    won = decided(seats)
    if won.notna().any() and (won.fillna(1.0) == 0).all():  # none won: nothing to share
        note += (
            f" No {d.unit} the table counts was won, so every position's win rate and its "
            f"fair share of the {d.units()} someone won (par) are 0."
        )
    elif won.notna().any():
        note += (
            f" Some {d.units()} count as nobody's win (unfinished), so every position loses "
            f"them alike: the fair share is 1/players of the {d.units()} someone won (par)."
        )
    if not seats["ci_low"].notna().any():
        note += none + "."
    return note


def _match_text(d: Declaration, spec: dict) -> str:
    rounds = spec.get("rounds")
    target = spec.get("target") or d.match_target
    how = f"of {rounds} {d.units()} each" if rounds else f"to {target} points"
    best = "highest" if d.higher_is_better else "lowest"
    matches = plural(d.match_unit)
    return (
        f"{matches.capitalize()} {how}; the {best} total wins, ties share the win "
        f"(counted as wins, and in shared_wins). Points per {d.unit}: {d.better} is better."
        f" Per strategy: the {matches} it sat in, each once (matches; forfeited_matches: those "
        f"that held a forfeited {d.unit}, won by nobody), and its seats (more than its "
        f"{matches} where it held two seats at a table), which its wins, rates and means count."
    )
