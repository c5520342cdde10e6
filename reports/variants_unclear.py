"""What a variant's findings say of the measures they do not call clearly different: no clear
difference, too few deals to tell one, the same difference in every duplicate set of each
table (no spread to test it by: a measure that is no share, as a share gets Newcombe's
interval and test), or nothing to measure them by and why; each measure named once a list.
The table sizes at which a variant plays as today's rules are said so instead: its games
there are the default run's."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .clusters import MIN_DF
from .designer_text import restriction_name
from .numbers import one_stratum
from .variants_display import diff_figure
from .variants_words import flat, no_win_to_lose

__all__ = ["NAMES", "lost", "unclear"]

NAMES = {
    "turns": "game length in turns",
    "rounds": "game length in rounds",
    "seat": "the seats' edges",
    "skill_spread": "the spread between the best and the worst strategy",
    "best_vs_random": "the best strategy against random",
    "runner_up": "the runner-up's cards left",
    "unfinished": "unfinished games",
    "shared_wins": "shared match wins",
    "match_games": "match length",
    "lead_changes": "lead changes",
    "drama": "how long the winner trails",
    "comeback": "wins from behind",
    "decided_at": "when games are decided",
    "ladder_step": "the skill ladder's steps",
}
"""Each measure as the 'no clear difference in ...' sentence names it."""


def _base_name(r: pd.Series) -> str:
    """A measure as 'no clear difference in ...' names it, whatever the table size."""
    if r["metric"] == "seat":
        return "the first player's edge" if r["position"] == 0 else "the other seats' edges"
    if str(r["metric"]).startswith("restricted_"):
        return restriction_name(r)
    return NAMES.get(r["metric"], str(r["metric"]))


def _scope(sizes: list[str], whole: bool) -> str:
    """Which table sizes a name covers: '' (all of its rows), ' over all table sizes', ' at 3
    and 4 players', ' over all table sizes and at 3 players'."""
    if whole:
        return ""
    each = [n for n in sizes if n != "all"]
    at = f" at {' and '.join(each)} players" if each else ""
    return (" over all table sizes" + (" and" + at if at else "")) if "all" in sizes else at


def _names(rows: list[pd.Series], multi: bool, figures: bool = False) -> list[str]:
    """The names of ``rows``' measures, each once: a measure whose every row is among them
    is named alone, else with the table sizes it covers here ('lead changes over all table
    sizes and at 3 players'), so no size is named in two lists; with ``figures``, each with
    its differences ('unfinished games (+100.0 percentage points)')."""
    if figures:
        said: dict[str, list[str]] = {}
        for r in rows:
            said.setdefault(_base_name(r), []).append(diff_figure(r))
        figs = [", ".join(dict.fromkeys(f)) for f in said.values()]
        return [f"{n} ({f})" for n, f in zip(_names(rows, multi), figs, strict=True)]
    sizes: dict[str, list[str]] = {}
    count: dict[str, int] = {}
    of: dict[str, int] = {}
    for r in rows:
        base = _base_name(r)
        count[base] = count.get(base, 0) + 1
        of[base] = int(r["_of"])
        if str(r["n_players"]) not in sizes.setdefault(base, []):
            sizes[base].append(str(r["n_players"]))
    return [base + _scope(sizes[base], count[base] == of[base] or not multi) for base in sizes]


def unclear(look: Any, rules: str, told: set[tuple], multi: bool) -> list[str]:
    """'there is no clear difference in ...' and 'too few deals ...' for one variant (the
    measures ``told`` about already left out; ``multi``: the run has more than one table size,
    so a name says which it covers). The seats after the first are named together:
    'the other seats' edges' only when none of them changed clearly. The measures at a table
    size where the variant plays as today's rules (``look.todays``) are not listed: that it
    does is said first."""
    todays = [str(n) for n in look.todays.get(rules, ())]
    every = [r.copy() for k, r in look.d.items() if k[0] == rules]
    rows = [r for r in every if str(r["n_players"]) not in todays]
    clear_seats = {(r["n_players"]) for r in rows if r["metric"] == "seat"
                   and r["position"] > 0 and r["significant"]}  # fmt: skip
    of: dict[str, int] = {}
    for r in every:  # a name's rows at today's sizes too: a list names the sizes it covers
        of[_base_name(r)] = of.get(_base_name(r), 0) + 1
    lists: dict[str, list[pd.Series]] = {"vague": [], "small": [], "same": []}
    for r in rows:
        r["_of"] = of[_base_name(r)]
        if look.key(r) in told or (r["metric"] == "seat" and r["position"] > 0
                               and r["n_players"] in clear_seats):  # fmt: skip
            continue
        if not np.isfinite(r["p_value"]):
            lists["same" if flat(r["diff"], r["se"], r["df"]) else "small"].append(r)
        elif not r["significant"]:
            lists["vague"].append(r)
    same = [_todays(rules, todays)] if todays else []
    if rows and all(not np.isfinite(r["p_value"]) for r in rows) and not lists["same"]:
        return [*same, "the runs are too small to tell any difference (fewer than "
                f"{MIN_DF:g} degrees of freedom: play more games)"]  # fmt: skip
    heads = {"vague": "there is no clear difference in ",
             "small": "there are too few deals to tell a difference in ",
             "same": f"{_same(lists['same'])} gave the same difference (no spread to test "
                     "it by) in "}  # fmt: skip
    return same + [heads[k] + _listed(_names(v, multi, figures=k == "same"))
                   for k, v in lists.items() if v]  # fmt: skip


def _todays(rules: str, sizes: list[str]) -> str:
    """'at 5 players hand_size=10 is today's rule: the same games', where ``rules`` plays as
    today's at the table sizes ``sizes`` (its games there are the default run's: there is no
    difference to tell, for want of deals or otherwise)."""
    noun = "rules" if "," in rules else "rule"
    return f"at {_listed(sizes, 'and')} players {rules} is today's {noun}: the same games"


def _same(rows: list[pd.Series]) -> str:
    """Which duplicate sets gave the same difference, where ``rows`` show no spread: every
    set where each row's sets are one stratum (``one_stratum``: its ``deal_sets`` and
    ``df``), else every set within each table (their tables' differences may differ)."""
    alike = all(one_stratum(r.get("deal_sets", np.nan), r["df"]) for r in rows)
    return "every duplicate set" if alike else "within each table every duplicate set"


def _listed(names: list[str], last: str = "or") -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" {last} " + names[-1]


def lost(look: Any, rules: str, base: str) -> list[tuple[str, list[str]]]:
    """What the default rules measure and ``rules`` cannot, and why: its games give nothing
    to measure them by (every game unfinished: nobody won; every game of a strategy forfeited;
    no replayed game won by the strategy restricted play restricts, restricted or not, which
    leaves no win to lose). Said so that no finding claims, nor silently drops, what its games
    cannot show."""
    gone = [r for k, r in look.m.items() if k[0] == base and (rules, *k[1:]) not in look.m]
    done = look.m.get((rules, "unfinished", "all", -1))
    stopped = done is not None and done["value"] >= 1.0
    costs = [r for r in gone if str(r["metric"]).startswith("restricted_")]
    rest = [r for r in gone if not str(r["metric"]).startswith("restricted_")]
    out = []
    if rest:
        why = ("every game stopped unfinished, so nobody won one" if stopped else "none of its "
               "games gives them (none was won or finished, or the strategies they compare "
               "forfeited)")  # fmt: skip
        out.append((rest, why))
    if costs:
        who = str(costs[0]["detail"]).partition(": ")[0]
        why = no_win_to_lose(who) + (" (every game stopped unfinished)" if stopped else "")
        out.append((costs, why))
    return [(f"{_listed(_lost_names(look, base, rows), 'and')} cannot be measured: {why}",
             list(dict.fromkeys(str(r["metric"]) for r in rows))) for rows, why in out]  # fmt: skip


def _lost_names(look: Any, base: str, rows: list[pd.Series]) -> list[str]:
    """The names of measures lost: each restriction on its own, but 'the cost of restricted
    play' where every restriction the default rules measured is lost (one reason for all)."""
    every = sum(1 for k in look.m if k[0] == base and str(k[1]).startswith("restricted_"))
    costs = [r for r in rows if str(r["metric"]).startswith("restricted_")]
    if len(costs) > 1 and len(costs) == every:
        return ["the cost of restricted play"]
    return list(dict.fromkeys(_base_name(r) for r in rows))
