"""Did two runs deal the same cards? Asked of the deal seeds the runs recorded, set by set.

A duplicate set (``reports.clusters``: one deal at one table, every seating of it) is named
across runs by the seed that dealt it (the ``deal_seed`` column; a match's sets by its
``match_seed``) and by the strategies at its table, the labels of run B mapped to run A's
first (``reports.compare_match``): a changed parameter renames a strategy, not its table. A
deal dealt at several tables (a gauntlet's: the strategy's table and the baseline's) is
paired table by table, so that two gauntlets of other baselines pair the strategy's table and
leave the baselines' out; its sets share their cards, so the deal stays the unit of the
variance and of the counts the sentences give ("duplicate sets", as ``units`` counts them).
Two runs are paired over the deals both played at a table of the same strategies when those
are at least half of the smaller run's (``MIN_SHARED``): each run's win rate over the sets
paired, linearised per deal as every report rate is, and per deal B's contribution less A's
(with as many seats in both: B's wins less A's), with the stratified variance of every
report interval (the tables paired strata, a stratum with one deal pooled per table size), so
the luck of the deals cancels. A deal holding a game ended by a forfeit at a table paired is
paired over its other games where both runs forfeited the same games of it (the same
seatings), and left out otherwise. Runs not paired are unpaired, and the sentence says why,
from the seeds: no seed in common, common seeds at other tables, or too few deals in common.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from tournaments.declaration import plural

from .clusters import (
    Clusters,
    Estimates,
    Sums,
    clusters,
    duplicate_sets,
    first_of,
    rate_differences,
    seat_sums,
)
from .data import Games, ReportError, Run
from .loading import part_files
from .numbers import counted

__all__ = ["MIN_SHARED", "Overlap", "deal_seeds", "emptied_tables", "overlap", "paired_difference",
           "set_of_game", "words"]  # fmt: skip

SEED_COLUMNS = ("match_seed", "deal_seed")
"""The column naming a duplicate set's deal, first found first: a match deals each of its
games anew from the match's seed, so a match run's sets are its matches' seeds."""

MIN_SHARED = 0.5
"""Fewest deals paired, as a share of the smaller run's, for a paired comparison: a
difference over a sliver of the runs would throw the rest away."""


def _frame_seeds(source: Any) -> np.ndarray | None:
    frame = source if isinstance(source, pd.DataFrame) else getattr(source, "games", None)
    if not isinstance(frame, pd.DataFrame):
        return None
    col = next((c for c in SEED_COLUMNS if c in frame.columns), None)
    return None if col is None else frame[col].to_numpy().astype(np.uint64)


def deal_seeds(source: Any, run: Run) -> np.ndarray | None:
    """Per game of ``run`` (loaded from ``source``), the seed of its duplicate set's deal;
    None where the run does not record one."""
    if run.path is None:
        seeds = _frame_seeds(source)
    else:
        parts = []
        for f in part_files(run.path / "games"):
            try:
                names = pq.read_schema(f).names
                col = next((c for c in SEED_COLUMNS if c in names), None)
                if col is None:
                    return None
                parts.append(pq.read_table(f, columns=[col]).column(0).to_numpy())
            except (OSError, pa.ArrowException) as exc:
                raise ReportError(f"cannot read games part {f}: {exc}") from exc
        seeds = np.concatenate(parts).astype(np.uint64) if parts else None
    return seeds if seeds is not None and len(seeds) == len(run.games) else None


def _seated(g: Games, names: list[str]) -> tuple[list[tuple[int, tuple[str, ...]]], np.ndarray]:
    """(the distinct tables, each its size and the sorted mapped labels of who sat there: no
    text joined from labels, which may hold any character; per game its table's index)."""
    seated = np.sort(g.seats.astype(np.int64) + 1, axis=1)
    rows = np.column_stack([g.n_players.astype(np.int64), seated])
    base = int(max(rows.max(initial=0), 0)) + 1
    if rows.shape[1] * np.log2(base) < 62:  # one number a row: mixed radix
        packed = rows @ (base ** np.arange(rows.shape[1] - 1, -1, -1, dtype=np.int64))
        _, first, inv = np.unique(packed, return_index=True, return_inverse=True)
        distinct = rows[first]
    else:
        distinct, inv = np.unique(rows, axis=0, return_inverse=True)
    tables = [(int(r[0]), tuple(sorted(names[c - 1] for c in r[1:] if c > 0))) for r in distinct]
    return tables, inv.ravel()


def set_of_game(g: Games) -> tuple[np.ndarray, int]:
    """Per game of ``g``, its duplicate set (``reports.clusters.duplicate_sets``: a deal at
    one table, who sits there included), and how many sets ``g`` has."""
    of_set, deal = duplicate_sets(g)
    return of_set, int(deal.size)


@dataclass(frozen=True)
class _Sets:
    """A run's duplicate sets, each with its ``deal`` (the cluster of ``reports.clusters``:
    a gauntlet's deal is a set at each of its tables), its deal ``seed`` and its ``table``, a
    code for who sat there shared by both runs; ``n_deals`` the run's deals."""

    deal: np.ndarray
    seed: np.ndarray
    table: np.ndarray
    n_deals: int

    def per_deal(self, flag: np.ndarray) -> np.ndarray:
        """Per deal, whether any of its sets is ``flag``ged."""
        return np.bincount(self.deal, weights=flag, minlength=self.n_deals) > 0


def _sets(g: Games, names: list[str], seeds: np.ndarray, vocab: dict[object, int]) -> _Sets:
    """The duplicate sets of ``g`` (``seeds``: per deal), their tables coded through
    ``vocab`` (``names`` mapping the labels to one vocabulary for both runs)."""
    of_set, deal = duplicate_sets(g)
    tables, inv = _seated(g, names)
    code = np.array([vocab.setdefault(t, len(vocab)) for t in tables], dtype=np.int64)
    return _Sets(deal, seeds[deal], code[inv[first_of(of_set)]], clusters(g).n)


def _combined(deal: np.ndarray, code: np.ndarray, n: int) -> np.ndarray:
    """Per deal 0 .. ``n - 1``, a number for the set of ``code``s its rows hold (-1: none):
    equal sets, equal numbers (a deal paired at a gauntlet's two tables, or at one)."""
    pairs = pd.unique(deal.astype(np.int64) * (1 << 20) + code)  # < 2**20 tables
    deal_of, code_of = pairs >> 20, pairs & ((1 << 20) - 1)
    count = np.bincount(deal_of, minlength=n)
    lo = np.full(n, np.iinfo(np.int64).max)
    hi = np.full(n, -1, dtype=np.int64)
    np.minimum.at(lo, deal_of, code_of)
    np.maximum.at(hi, deal_of, code_of)
    key = np.where(count > 0, lo * (1 << 20) + hi, -1)  # exact for one or two tables a deal
    many = count[deal_of] > 2  # rarer designs (tables of a size sharing deals): every table
    if many.any():
        sets = pd.Series(code_of[many]).groupby(deal_of[many]).agg(lambda x: str(sorted(x)))
        seen: dict[str, int] = {}
        key[sets.index.to_numpy()] = [-2 - seen.setdefault(k, len(seen)) for k in sets]
    return key


@dataclass(frozen=True)
class Overlap:
    """Which duplicate sets two runs share: ``b_of_a[s]`` is the set of B that A's set ``s``
    is paired with (-1: none), ``table_a`` A's sets' table codes; the counts behind the
    sentence, in deals: ``shared_sets`` paired, ``partial`` of them at some of their tables
    only (a gauntlet's deal whose baseline's table the other run did not deal it at)."""

    paired: bool
    sentence: str
    b_of_a: np.ndarray | None = None
    table_a: np.ndarray | None = None
    shared_sets: int = 0
    partial: int = 0


def _keys(seeds: np.ndarray, tables: np.ndarray) -> pd.MultiIndex:
    """(seed, table, occurrence) per set: a set repeated in one run pairs once per repeat."""
    frame = pd.DataFrame({"seed": seeds, "table": tables})
    frame["nth"] = frame.groupby(["seed", "table"]).cumcount()
    return pd.MultiIndex.from_frame(frame)


def _set_seeds(g: Games, seeds: np.ndarray) -> np.ndarray | None:
    """Per deal of ``g`` (its cluster, every table it was dealt at), its deal seed (None if a
    deal's games have several)."""
    cl = clusters(g)
    per_set = seeds[cl.first]
    return None if (seeds != per_set[cl.of_game]).any() else per_set


@dataclass(frozen=True)
class _Words:
    """What a run's sets are called: a deal, or a match run's match (``match_unit``)."""

    deal: str = "deal"
    seed: str = "deal seed"
    same_rules: bool = True
    dealt: str = "dealt"


def _forfeited_sets(g: Games) -> np.ndarray:
    """Per duplicate set of ``g``, whether a game of it ended by a forfeit."""
    of_set, n = set_of_game(g)
    return np.bincount(of_set, weights=g.forfeited, minlength=n) > 0


def _forfeited_seatings(g: Games, names: list[str], set_of: np.ndarray,
                        vocab: dict[object, int]) -> pd.Series:  # fmt: skip
    """How many games ``g`` forfeited per (A's set, seating): ``set_of`` maps ``g``'s sets
    to A's (-1: none), a seating (who sat in which seat, ``names`` mapping the labels to one
    vocabulary) coded through ``vocab``, shared by both runs."""
    at = np.flatnonzero(g.forfeited)
    seats = g.seats[at].astype(np.int64)
    distinct, inv = np.unique(seats, axis=0, return_inverse=True)
    keys = [tuple((i, names[c]) for i, c in enumerate(row) if c >= 0) for row in distinct]
    code = np.array([vocab.setdefault(k, len(vocab)) for k in keys], dtype=np.int64)
    frame = pd.DataFrame({"set": set_of[set_of_game(g)[0][at]], "seating": code[inv.ravel()]})
    return frame[frame["set"] >= 0].value_counts()


def _same_forfeits(ga: Games, gb: Games, b_of_a: np.ndarray,
                   names: tuple[list[str], list[str]]) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """Per set of A, whether it and its set in B (``b_of_a``) forfeited the same games (the
    same seatings of the same deal at the same table) and played one to the end, and whether
    they forfeited every game alike: in the first the games both played are the same
    seatings, which pair as a whole set's do; the second holds nothing to pair."""
    (of_a, n_a), (of_b, n_b) = set_of_game(ga), set_of_game(gb)
    a_of_b = np.full(n_b, -1, dtype=np.int64)
    a_of_b[b_of_a[b_of_a >= 0]] = np.flatnonzero(b_of_a >= 0)
    vocab: dict[object, int] = {}
    runs = ((ga, names[0], np.arange(b_of_a.size)), (gb, names[1], a_of_b))
    counts = [_forfeited_seatings(g, n, of, vocab) for g, n, of in runs]
    other = counts[0].sub(counts[1], fill_value=0)
    same = np.ones(b_of_a.size, dtype=bool)
    same[other[other != 0].index.get_level_values("set").to_numpy(np.int64)] = False
    played = [
        np.bincount(of, ~g.forfeited, n) > 0 for g, of, n in ((ga, of_a, n_a), (gb, of_b, n_b))
    ]
    some = played[0] & played[1][np.maximum(b_of_a, 0)]
    return same & some, same & ~some


def emptied_tables(ga: Games, gb: Games,
                   names: tuple[list[str], list[str]]) -> tuple[np.ndarray, np.ndarray, list[str]]:  # fmt: skip
    """The tables (who sat there, ``names`` mapping both runs' labels to one vocabulary) both
    runs played but one of them forfeited every game at: per game of each run, whether it is
    at one, and the tables. Unpaired win rates leave them out of both runs, so that forfeits
    in one run do not compare other tables in A than in B."""
    seated = [(*_seated(g, n), g) for g, n in ((ga, names[0]), (gb, names[1]))]
    valid = [{t for t, ok in zip(tables, np.bincount(inv, ~g.forfeited, len(tables)) > 0,
                                 strict=True) if ok} for tables, inv, g in seated]  # fmt: skip
    both = set(seated[0][0]) & set(seated[1][0])
    empty = both - (valid[0] & valid[1])
    at = [np.array([t in empty for t in tables], dtype=bool)[inv] for tables, inv, _ in seated]
    return at[0], at[1], ["(" + ", ".join(who) + ")" for _, who in sorted(empty)]


@dataclass(frozen=True)
class _Tally:
    """What pairing A's sets with B's (``_tally``) found, in deals of A: ``b_of_a`` per set
    of A (-1: not paired), and the deals paired (``shared``), paired over the games played to
    the end (``kept``), whose every game both runs forfeited (``empty``), left out for a
    forfeit one run's set holds (``dropped``), paired at some of their tables only
    (``partial``; ``apart``: the tables of A's and of B's left out of them)."""

    b_of_a: np.ndarray
    shared: int
    kept: int
    empty: int
    dropped: int
    partial: int
    apart: tuple[list[str], list[str]]


def _tally(ga: Games, gb: Games, sets: tuple[_Sets, _Sets],
           names: tuple[list[str], list[str]]) -> _Tally:  # fmt: skip
    """Pair A's sets with B's of the same seed at the same table, and count the deals so
    paired. A deal is left out whole where a set of it holds a game ended by a forfeit that
    the other run's set does not (not the same seatings); a set whose every game both runs
    forfeited has none to pair."""
    a, b = sets
    found = _keys(b.seed, b.table).get_indexer(_keys(a.seed, a.table))
    hit = found >= 0
    void = hit & (_forfeited_sets(ga) | _forfeited_sets(gb)[np.maximum(found, 0)])
    alike, bare = _same_forfeits(ga, gb, found, names) if void.any() else (void, void)
    alike, bare = alike & void, bare & void
    bad = a.per_deal(void & ~alike & ~bare)
    b_of_a = np.where(bad[a.deal] | bare, -1, found)
    paired = b_of_a >= 0
    shared = a.per_deal(paired)
    shared_b = np.zeros(b.n_deals, dtype=bool)
    shared_b[b.deal[b_of_a[paired]]] = True
    taken = np.zeros(b.deal.size, dtype=bool)
    taken[found[hit]] = True
    lone_a, lone_b = ~hit & shared[a.deal], ~taken & shared_b[b.deal]
    part = shared & (a.per_deal(lone_a) | (np.bincount(a.deal[paired], weights=b.per_deal(
        lone_b)[b.deal[b_of_a[paired]]], minlength=a.n_deals) > 0))  # fmt: skip
    apart = (_table_names(ga, lone_a), _table_names(gb, lone_b))
    return _Tally(b_of_a, int(shared.sum()), int((a.per_deal(alike | bare) & shared).sum()),
                  int((a.per_deal(hit) & ~bad & ~shared).sum()), int(bad.sum()),
                  int(part.sum()), apart)  # fmt: skip


def _table_names(g: Games, flag: np.ndarray) -> list[str]:
    """The tables of the duplicate sets of ``g`` that ``flag`` marks, each '(a, b, c)' in
    ``g``'s own labels (a strategy only one run has is named as that run names it)."""
    if not flag.any():
        return []
    tables, inv = _seated(g, list(g.labels))
    at = inv[first_of(duplicate_sets(g)[0])][flag]
    return sorted("(" + ", ".join(tables[i][1]) + ")" for i in np.unique(at))


def overlap(ga: Games, gb: Games, seeds: tuple[np.ndarray | None, np.ndarray | None],
            names: tuple[list[str], list[str]],
            words: tuple[_Words, _Words] | None = None) -> Overlap:  # fmt: skip
    """The sets runs A and B share by their deal seeds (``seeds``: per game, None where a
    run records none) and tables (``names``: each run's labels, mapped to one vocabulary),
    named as ``words`` (each run's: deals, or matches) say. A deal dealt at several tables
    pairs at those both runs seated alike (``_tally``); the sentence counts deals."""
    w, wb = words or (_Words(), _Words())
    add = "the two runs' variances add"
    if w.deal != wb.deal:  # one run's sets are deals, the other's matches: never the same
        return Overlap(False, f"unpaired: A's duplicate sets are {plural(w.deal)}, B's "
                              f"{plural(wb.deal)}: {add}")  # fmt: skip
    per_deal = []
    for side, g, s in (("A", ga, seeds[0]), ("B", gb, seeds[1])):
        got = None if s is None else _set_seeds(g, s)
        if got is None:
            why = (f"does not record its {w.seed}s" if s is None
                   else f"has duplicate sets of more than one {w.seed}")  # fmt: skip
            return Overlap(False, f"unpaired: run {side} {why}: {add}")
        per_deal.append(got)
    sa, sb = per_deal
    da, db = np.unique(sa), np.unique(sb)
    common = np.intersect1d(da, db).size
    if common == 0:
        return Overlap(False, f"unpaired: the runs share no {w.seed} (A {w.dealt} "
                              f"{counted(da.size, w.deal)}, B {db.size:,}): {add}")  # fmt: skip
    vocab: dict[object, int] = {}
    sets = (_sets(ga, names[0], sa, vocab), _sets(gb, names[1], sb, vocab))
    t = _tally(ga, gb, sets, names)
    voids = [s.per_deal(_forfeited_sets(g)) for s, g in zip(sets, (ga, gb), strict=True)]
    if t.shared == 0:
        if t.dropped + t.empty:
            who = "the one" if t.dropped + t.empty == 1 else f"each of the {t.dropped + t.empty:,}"
            why = f"{who} both played holds a game ended by a forfeit"
        else:
            none = "it at no table" if common == 1 else "none of them at a table"
            why = f"{w.dealt} {none} of the same strategies"
        return Overlap(False, f"unpaired: the runs share {counted(common, w.seed)} but {why}: "
                              f"{add}")  # fmt: skip
    left = _left_out(t.dropped) + _nothing_played(t.empty)
    sets_ = counted(t.shared, "duplicate set")
    if t.shared < MIN_SHARED * (min((~voids[0]).sum(), (~voids[1]).sum()) + t.kept):
        return Overlap(False, f"unpaired: only {sets_} (a {w.seed} at a table) "
                              f"{'is' if t.shared == 1 else 'are'} in both runs (A has "
                              f"{sa.size:,}, B {sb.size:,}{left}), too few to pair: {add}")  # fmt: skip
    deals = counted(da.size, w.deal)
    if t.shared + t.empty == sa.size == sb.size and not t.partial:
        same = w.seed if da.size == 1 else plural(w.seed)
        what = (f"{w.dealt} the same {deals} (their {w.seed}s are identical)" if w.same_rules
                else f"drew their {deals} from the same {same} (under other rules a seed may "
                "deal other cards)")  # fmt: skip
        text = f"paired: both runs {what} at the same tables: B - A is paired over the {sets_}"
    else:
        text = (f"paired where the {w.seed}s agree: A {w.dealt} {deals}, B {db.size:,}, "
                f"{common:,} of them with the same seed; B - A is paired over the {sets_} both "
                f"played at the same table (A has {sa.size:,}, B {sb.size:,})")  # fmt: skip
    text += _in_part(t.partial, t.shared, t.apart) + _over_played(t.kept, t.shared) + left
    return Overlap(True, text, t.b_of_a, sets[0].table, t.shared, t.partial)


def _in_part(part: int, shared: int, apart: tuple[list[str], list[str]]) -> str:
    """The deals paired at some of their tables only, and the tables of each run left out of
    them, in words ('' if none): a gauntlet's deal whose baseline differs between the runs."""
    if not part:
        return ""
    which = "each" if part == shared else "1 of them" if part == 1 else f"{part:,} of them"
    one = part == 1 or part == shared
    sides = [f"{side}'s {', '.join(t)}" for side, t in zip("AB", apart, strict=True) if t]
    n = len(apart[0]) + len(apart[1])
    return (f"; {which} {'is' if one else 'are'} paired at the tables both runs seated alike "
            f"only: {' and '.join(sides)}, where the other run did not deal "
            f"{'it' if part == 1 else 'them'}, {'is' if n == 1 else 'are'} left out")  # fmt: skip


def _over_played(kept: int, shared: int) -> str:
    """The sets paired over the games both runs played to the end, in words ('' if none)."""
    if not kept:
        return ""
    one = kept == 1 or kept == shared  # 'each holds', '1 of them holds', '2 of them hold'
    which = "each" if kept == shared else f"{kept:,} of them"
    return (f"; {which} {'holds' if one else 'hold'} games ended by a forfeit, the same "
            f"seatings in both runs, and {'is' if one else 'are'} paired over the games played "
            "to the end")  # fmt: skip


def _nothing_played(empty: int) -> str:
    """The shared sets whose every game both runs forfeited, in words ('' if none)."""
    if not empty:
        return ""
    if empty == 1:
        return "; 1 more, every game of which both runs forfeited, has none to pair"
    return f"; {empty:,} more, every game of which both runs forfeited, have none to pair"


def _left_out(dropped: int) -> str:
    """The shared sets left out for a forfeited game, in words ('' if none)."""
    if not dropped:
        return ""
    if dropped == 1:
        return "; 1 more, holding a game ended by a forfeit, is left out"
    return f"; {dropped:,} more, each holding a game ended by a forfeit, are left out"


def words(run: Run, same_rules: bool) -> _Words:
    """How the sentences name ``run``'s duplicate sets."""
    if not run.expert:
        return _Words(same_rules=same_rules)
    unit = run.declaration.match_unit
    return _Words(unit, f"{unit} seed", same_rules, "played")


def _paired_clusters(ga: Games, ov: Overlap) -> Clusters:
    """A's deals stratified by the tables they are paired at (``_combined``: a gauntlet's
    deal at both of its tables, or at the strategy's alone); a stratum with one deal paired is
    pooled with the others of its size (as ``clusters`` pools a table dealt once)."""
    cl = clusters(ga)
    _, deal = duplicate_sets(ga)
    paired = ov.b_of_a >= 0
    key = _combined(deal[paired], ov.table_a[paired], cl.n)
    shared = key != -1
    table = pd.factorize(key)[0].astype(np.int64)
    per = np.bincount(table[shared], minlength=int(table.max(initial=-1)) + 1)
    single = shared & (per[table] == 1)
    size = ga.n_players[cl.first].astype(np.int64)
    stratum = pd.factorize(np.where(single, -1 - size, table))[0].astype(np.int64)
    return Clusters(cl.of_game, stratum, int(stratum.max(initial=-1)) + 1, bool(single.any()),
                    cl.first)  # fmt: skip


def _seated_unless_forfeited(b: Games, seat: int) -> np.ndarray:
    """The strategy in ``seat`` of each game of ``b``, -1 where the game ended by a forfeit."""
    return np.where(b.forfeited, -1, b.seats[:, seat].astype(np.int64))


def _played_sums(g: Games) -> Sums:
    """Per (strategy, duplicate set) of ``g``: wins and seats over the games played to the
    end (a set paired over its other games counts those only), each row's deal its
    ``unit``."""
    code = _seated_unless_forfeited if g.forfeited.any() else None
    return seat_sums(g, g.n_strategies, code=code, sets=True)


def paired_difference(ga: Games, gb: Games, codes: list[tuple[int, int]],
                      ov: Overlap) -> tuple[Estimates, bool]:  # fmt: skip
    """B - A per strategy pair ``codes`` (A's code, B's) over the duplicate sets paired with
    it seated: each run's win rate over those sets, B's less A's, paired set by set and summed
    per deal, the unit of the variance (``reports.clusters.rate_differences``). A pair with a
    deal alone in its stratum (a table with one deal paired, where forfeits left the others
    out) takes its deals as one stratum, whose variance counts that deal's too (conservative:
    ``reports.strata``). Also whether every pair won as often, over as many seats, in B as in
    A in each of those sets."""
    sa, sb = _played_sums(ga), _played_sums(gb)
    n_b = set_of_game(gb)[1]
    rows: list[tuple[np.ndarray, ...]] = []  # per pair: A's wins, seats, B's, the deals
    for ca, cb in codes:
        ma, mb = sa.group == ca, sb.group == cb
        pos = np.full(n_b, -1, dtype=np.int64)
        pos[sb.cluster[mb]] = np.arange(int(mb.sum()))
        other = ov.b_of_a[sa.cluster[ma]]
        j = np.where(other >= 0, pos[np.maximum(other, 0)], -1)
        keep = j >= 0
        rows.append((sa.w[ma][keep], sa.n[ma][keep], sb.w[mb][j[keep]], sb.n[mb][j[keep]],
                     sa.unit[ma][keep]))  # fmt: skip
    identical = any(r[0].size for r in rows) and all(
        (r[0] == r[2]).all() and (r[1] == r[3]).all() for r in rows
    )  # a strategy in no set paired is not compared (``units`` 0)
    wa, na, wb, nb, deals = (np.concatenate(c) for c in zip(*rows, strict=True))
    group = np.repeat(np.arange(len(codes)), [r[0].size for r in rows])
    est = rate_differences((wb, nb), (wa, na), group, deals, len(codes), _paired_clusters(ga, ov))
    return est, bool(identical)
