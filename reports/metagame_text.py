"""The meta-game section of the report: its tables, the answer first in one lead (the stable
mix with its intervals, α-Rank's first, how sure the resampling says we are), and what it is
and how it is computed folded with the full tables. Everything is read from the tables, so a
page can be rebuilt from the CSVs' numbers."""

from __future__ import annotations

import pandas as pd

from .metagame import EPS, MIN_SETS, REST, SUPPORT, unwon
from .metagame_rank import MAX_PROFILES, egt_failure, profiles
from .numbers import PERCENTAGE_POINT, counted, in_percentage_points, interval, pct, pp_cell
from .page import Section

__all__ = ["at_size", "gain_words", "metagame_lead", "metagame_sections", "rank_replicates",
           "readable", "unwon_words"]  # fmt: skip

Tables = dict[str, pd.DataFrame]
TITLE = "Meta-game: which mix of strategies is stable?"
CHARTS = ["metagame_trajectory"]
SURE = 0.9
"""Share of bootstrap replicates from which an answer counts as settled by the data."""


def metagame_sections(tables: Tables) -> list[Section]:
    """The meta-game section, where the run has a payoff table (``reports.metagame``)."""
    if "metagame_payoffs" not in tables:
        return []
    names = ["metagame_mix", "metagame_alpharank", "metagame_equilibria", "metagame_payoffs"]
    shown = [(n, readable(n, tables[n])) for n in names if n in tables]
    return [Section(TITLE, _method(tables), shown, CHARTS if "metagame_mix" in tables else [])]


POINTS = ("gain", "regret")
"""Columns that are differences of win rates: shown in percentage points (``PP``)."""
KEEP = ("alpha",)
"""Float columns shown as they are (not shares)."""


def readable(name: str, df: pd.DataFrame) -> pd.DataFrame:
    """A meta-game table as the text writes it (the CSV keeps the fractions): weights, masses,
    payoffs and shares in percent, gains and regrets in percentage points (``pp_cell``)."""
    out = df.copy()
    for c in out.columns:
        if not pd.api.types.is_float_dtype(out[c]) or c in KEEP:
            continue
        if c in POINTS:
            out[c] = [pp_cell(x) if pd.notna(x) else "" for x in out[c]]
        else:
            out[c] = [pct(x) if pd.notna(x) else "" for x in out[c]]
    return out


def _weights(mix: pd.DataFrame) -> str:
    """The strategies the mix plays, each with its weight and interval as its table rounds
    them ('a 60.5% [50.4, 71.2] and b 39.5% [28.8, 49.6]')."""
    rows = mix[mix["weight"] >= SUPPORT]
    shares = [f"{pct(r.weight)} {interval(r.ci_low, r.ci_high)}" for r in rows.itertuples()]
    if len(shares) == 1:
        return f"{rows['strategy'].iloc[0]} alone ({shares[0]})"
    parts = [f"{name} {share}" for name, share in zip(rows["strategy"], shares, strict=True)]
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def at_size(pay: pd.DataFrame) -> str:
    """The table size the meta-game reads, where the run played several (its payoff table's
    ``sizes``): ' at 4 players (the size with the most games)'; '' where it played one."""
    if "sizes" not in pay or int(pay["sizes"].iloc[0]) < 2:
        return ""
    most = "" if bool(pay["most_games"].iloc[0]) else " of those that hold every multiset"
    return f" at {int(pay['players'].iloc[0])} players (the size with the most games{most})"


def unwon_words(at: str = "") -> str:
    """Why a run where no game at the tables read was won (``metagame.unwon``) has no
    meta-game answer, as the lead and the key finding both say it (``at``: ``at_size``)."""
    return f"no game was won{at}, so there are no payoffs to compare"


def metagame_lead(tables: Tables) -> str:
    """The answer first: the stable mix, α-Rank's first, and a word on sampling error."""
    pay = tables["metagame_payoffs"]
    at = at_size(pay)
    if unwon(pay):
        said = unwon_words(at)
        return (
            f"{said[0].upper()}{said[1:]}: every payoff is 0 and every mix as stable as any "
            "other, so no mix, equilibrium or α-Rank is computed; the payoff table is below."
        )
    if "metagame_mix" not in tables:
        fewest = int(pay["deal_sets"].min())
        return (
            f"Too few deals for a meta-game analysis{at}: the fewest at a table is {fewest} "
            f"duplicate set{'s' if fewest != 1 else ''}, and every table needs {MIN_SETS} for "
            "a resampling to mean anything; the payoff table is below. Play more games."
        )
    mix = tables["metagame_mix"]
    first = mix.iloc[0]
    n = int(first["replicates"])
    how = (
        "the replicator dynamics from the uniform mix come to rest there"
        if bool(mix["at_rest"].iloc[0])
        else "the replicator dynamics from the uniform mix do not come to rest, and this is the "
        "Nash equilibrium nearest to where they end"
    )
    text = f"The stable mix{at} is {_weights(mix)}: {how}, and {gain_words(first['regret'])}."
    text += _several(tables) + " " + _rank_sentence(tables, pay) + " " + _caution(mix, n)
    return text


def gain_words(regret: float) -> str:
    """What a strategy gains by leaving the stable mix (its regret), in words: the page's
    lead and the key finding say it alike."""
    regret = max(float(regret), 0.0)
    if regret < 5e-5:  # 0.00 percentage points
        return "no strategy gains by deviating from it"
    gain = in_percentage_points(f"{100 * regret:.2f}")
    return f"no strategy gains more than {gain} of win rate by deviating"


def _several(tables: Tables) -> str:
    eq = tables.get("metagame_equilibria")
    if eq is None or len(eq) < 2:
        return ""
    starts = int(eq["starts"].sum())
    return (
        f" From {starts} starts the dynamics reach {len(eq)} different equilibria "
        f"(metagame_equilibria): the meta-game has more than one stable mix, and which one a "
        "population ends in depends on where it starts."
    )


def _rank_sentence(tables: Tables, pay: pd.DataFrame) -> str:
    if "metagame_alpharank" in tables:
        r = tables["metagame_alpharank"]
        top = r.iloc[0]
        reps = int(top["replicates"])
        tied = r[r["mass"] >= top["mass"] - 0.005]
        if len(tied) > 1:
            names = ", ".join(tied["strategy"].iloc[:-1]) + " and " + tied["strategy"].iloc[-1]
            masses = ", ".join(pct(m) for m in tied["mass"])
            return (
                f"α-Rank (alpha {top['alpha']:.3g}) puts no strategy first on its own: {names} "
                f"share the mass ({masses})."
            )
        sure = f", first in {pct(top['first'])} of {rank_replicates(top)}" if reps else ""
        return (
            f"α-Rank (alpha {top['alpha']:.3g}) puts {top['strategy']} first with "
            f"{pct(top['mass'])} of the mass {interval(top['ci_low'], top['ci_high'])}{sure}."
        )
    k = sum(1 for c in pay.columns if c.startswith("n_"))
    n = int(pay["players"].iloc[0])
    if profiles(k, n) > MAX_PROFILES:
        return (
            f"α-Rank is left out: {k} strategies at {n} seats make {k**n:,} profiles, more "
            f"than the {MAX_PROFILES} its chain is built for here."
        )
    failure = egt_failure()  # not installed, or installed and broken: said which
    if failure is not None:
        return f"α-Rank is left out ({failure})."
    return "α-Rank found no single stationary distribution at any selection intensity."


def _caution(mix: pd.DataFrame, n: int) -> str:
    same = float(mix["same_support"].iloc[0])
    played = mix[mix["weight"] >= SUPPORT]["strategy"].tolist()
    out = mix[(mix["weight"] < SUPPORT) & (mix["in_support"] > 0)]
    if same >= SURE:
        text = (
            f"Sampling error: in {pct(same)} of {_replicates(n)} of the deals the "
            f"equilibrium plays the same strateg{'y' if len(played) == 1 else 'ies'}"
        )
    else:
        text = (
            f"Caution, the run cannot tell which mix is stable: the equilibrium plays the same "
            f"strategies in only {pct(same)} of {_replicates(n)} of the deals (play "
            "more games)"
        )
    if len(out):
        text += "; " + ", ".join(
            f"{r.strategy} enters it in {pct(r.in_support)}" for r in out.itertuples()
        )
    return text + "."


def rank_replicates(top: pd.Series) -> str:
    """The bootstrap replicates α-Rank's ``first`` share and interval rest on, as its table
    (``metagame_alpharank``) counts them: 'the 74 bootstrap replicates it was run on (the
    first 74 of the 200 drawn: each α-Rank is a Python loop)', fewer where some found no
    ranking; a table without the counts, its ``replicates`` alone."""
    ok = int(top["replicates"])
    if "replicates_run" not in top or "replicates_drawn" not in top:
        return _replicates(ok)
    run, drawn = int(top["replicates_run"]), int(top["replicates_drawn"])
    which = (f"the first {run:,} of the {drawn:,} drawn: each α-Rank is a Python loop"
             if run < drawn else f"all {drawn:,} drawn")  # fmt: skip
    if ok == run:
        return f"the {_replicates(ok)} it was run on ({which})"
    return (f"the {_replicates(ok)} in which it found a ranking, of the {run:,} it was run on "
            f"({which})")  # fmt: skip


def _replicates(n: int) -> str:
    return counted(n, "bootstrap replicate")


def _method(tables: Tables) -> str:
    pay = tables["metagame_payoffs"]
    n = int(pay["players"].iloc[0])
    return (
        "The tournament read as a symmetric game between its strategies (the meta-game). "
        f"metagame_payoffs is its heuristic payoff table: one row per table of {n} seats "
        "(every multiset of the strategies, --repeats), and each strategy's payoff there, its "
        "share of the table's wins per seat it took (a shared win split among the tied), so a "
        "table's payoffs add up to 1 over its seats. A player's expected payoff against a mix "
        f"draws the other {n - 1} seats from it. The replicator dynamics (a strategy's share "
        "grows at its payoff minus the mix's) run from the uniform mix, the chart, and from "
        "perturbed and random starts; time is in units where a strategy one "
        f"{PERCENTAGE_POINT} of win rate above the mix grows by 1%. They come to rest where "
        "no strategy in the mix gains or loses more than "
        f"{in_percentage_points(f'{100 * REST:.3f}')} (one still losing more where they end "
        "is dropped and the others run on: where they head). A mix where they come to rest "
        "is a Nash equilibrium of the meta-game: regret (the most a strategy gains against "
        f"it, gain per strategy) at most {in_percentage_points(f'{100 * EPS:.1f}')}; where "
        "they do not, the equilibrium is where they end if its regret is that small, else "
        "the nearest mix by SLSQP. "
        "metagame_equilibria lists the distinct equilibria the starts reach. α-Rank "
        "(OpenSpiel's egt.alpharank; a population of 50, the selection intensity alpha by "
        "OpenSpiel's sweep; above 2 seats one population per seat) ranks the strategies by the "
        "time an evolving population spends playing them. Sampling error: within each table "
        "the deals (duplicate sets) are drawn again with replacement (fixed seed) and "
        "everything recomputed; ci_low/ci_high are 95% percentiles over those replicates, "
        "in_support the share in which a strategy has 1% or more of the equilibrium, "
        "same_support the share with the same strategies as here, first the share in which "
        "α-Rank puts it first (α-Rank on fewer replicates: each is a Python loop). Caution: "
        f"the payoffs are estimates, so a strategy a few tenths of a {PERCENTAGE_POINT} behind "
        "another is "
        "in or out of the equilibrium by chance, which is what the replicates show; and the "
        "meta-game knows only the strategies in the run."
    )
