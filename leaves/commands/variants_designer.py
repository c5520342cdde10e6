"""The designers' measures of ``leaves variants`` that need a game's turns: a sample of each
rule set's games played again from their seeds with records, each record replayed through the
``State`` API for every player's hand size turn by turn (``reports.designer_measures`` turns
those into lead changes, drama, comebacks and when the game is decided), and the restricted
strategies (Jaffe et al. 2012) played in the unrestricted one's seats on the same deals.

The sample is whole duplicate sets chosen by a hash of their (table, deal) key, so every rule
set (played from the same seed at the same tables) samples the same deals and the differences
pair. Each replay is checked against the run's row (winner and turns): a game that does not
come out the same stops the command, but for the games of a table where a strategy draws from
the global random state (``strategies.global_random``), which no seed replays: their traces
are left out, and the command says why. Restricted tables play on the Python path, where a
stochastic opponent (random) draws from another generator than the run's compiled loop did:
its games are the same deals, seats and opponents, not the same dice, and the difference
stays paired by duplicate set.

Imports inside functions: start-up. The packages a command runs on load once its options are
checked, so ``--help`` and a bad option answer at once.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from leaves_cli.errors import CLIError

RESTRICTIONS = {
    "no_pass": "never passes while it can play",
    "single": "never plays more than one card at a time",
}
"""Each restriction's name (the CSVs' ``restricted_<name>``) and what it forbids."""
ROW_COLUMNS = ["game", "deal", "table", "deal_seed", "seed", "n_players", "winner_seat", "turns",
               "unfinished", "forfeit_seat"]  # fmt: skip
MIX = np.uint64(0x9E3779B97F4A7C15)


def restricted_class():
    """The restricted player (built on first use: strategies load numba kernels)."""
    from strategies import Strategy, get

    class Restricted(Strategy, register=False):
        """A strategy that explains its choices (``explain(view)``: every legal action, the
        one it prefers first), playing its best action the restriction allows."""

        name = "restricted"

        def __init__(self, spec: str = "weighted", restriction: str = "no_pass"):
            super().__init__()
            self.inner = get(spec)
            self.restriction = restriction

        def choose(self, view: Any, legal: tuple, rng: np.random.Generator) -> Any:
            can_play = any(a.is_play for a in legal)
            for scored in self.inner.explain(view):
                a = scored.action
                if self.restriction == "single" and a.is_play and a.count > 1:
                    continue
                if self.restriction == "no_pass" and a.is_pass and can_play:
                    continue
                return a
            return legal[0]  # nothing allowed (cannot happen: a pass or one card always is)

    return Restricted


def sample_sets(rows: pd.DataFrame, games: int) -> pd.DataFrame:
    """Whole duplicate sets of ``rows``, in the order of a hash of their (table, deal) key,
    until ``games`` games are taken (at least one set)."""
    key = (rows["table"].to_numpy(np.int64) << 32) + rows["deal"].to_numpy(np.int64)
    with np.errstate(over="ignore"):
        h = (key.astype(np.uint64) + np.uint64(1)) * MIX
        h ^= h >> np.uint64(29)
        h *= MIX
    sets, first = np.unique(key, return_index=True)
    order = np.argsort(h[first], kind="stable")
    sizes = pd.Series(key).value_counts().reindex(sets[order]).to_numpy()
    keep = sets[order][: max(1, int(np.searchsorted(np.cumsum(sizes), games) + 1))]
    return rows[np.isin(key, keep)]


def _rows(run: Path) -> pd.DataFrame:
    """The run's rows not ended by a forfeit, in game order: its recorded parts only (a stray
    file in games/ is no row of it)."""
    import pyarrow.dataset as ds

    from reports.loading import part_files  # start-up: only once designers' measures are made

    parts = ds.dataset([str(p) for p in part_files(run / "games")], format="parquet")
    seats = [c for c in parts.schema.names if c.startswith("seat_")]
    df = parts.to_table(columns=[*ROW_COLUMNS, *seats]).to_pandas()
    return df[df["forfeit_seat"] < 0].sort_values("game", kind="stable")


def _sitting(rows: pd.DataFrame, who: str) -> pd.DataFrame:
    seats = [c for c in rows.columns if c.startswith("seat_")]
    return rows[(rows[seats].astype(object) == who).any(axis=1)]


def _seats(row: Any) -> tuple[str, ...]:
    return tuple(str(row[f"seat_{s}"]) for s in range(int(row["n_players"])))


def _groups(sample: pd.DataFrame) -> list[tuple[tuple[str, ...], pd.DataFrame]]:
    keys = [_seats(r) for _, r in sample.iterrows()]
    sample = sample.assign(_seats=keys)
    return [(k, grp) for k, grp in sample.groupby("_seats", sort=True)]


def _traces(t: Any, sample: pd.DataFrame, rules: Any) -> tuple[pd.DataFrame, list[str]]:
    """Every sampled game played again with its record, the record replayed state by state:
    one row per game with its trace measures (NaN for an unfinished game), and why the games
    of the tables left out do not replay (a strategy there drew from the global random state:
    ``_drew``)."""
    from functools import partial

    import strategies
    from leaves.record import replay
    from reports.designer_measures import trace_stats

    by_label = dict(zip(t.labels, t.payloads, strict=True))
    out: list[dict[str, Any]] = []
    left: dict[int, str] = {}  # table: why its games do not replay
    for seats, grp in _groups(sample):
        table = [t.game.strategy(by_label[s]) for s in seats]
        play = partial(strategies.play_batch, table, grp["deal_seed"].to_numpy(np.uint64),
                       grp["seed"].to_numpy(np.uint64), record=True, rules=rules)  # fmt: skip
        res, why = _drew(play, seats, table)
        if why:
            left[int(grp["table"].iloc[0])] = why
            continue
        for (_, row), rec, winner, turns in zip(grp.iterrows(), res.records, res.winner_seat,
                                                res.turns, strict=True):  # fmt: skip
            if (int(winner), int(turns)) != (int(row["winner_seat"]), int(row["turns"])):
                raise CLIError(f"game {int(row['game'])} of {rules} did not replay as it was "
                               "played: a strategy or the code changed during the run")  # fmt: skip
            finished = int(winner) >= 0 and not bool(row["unfinished"])
            stats = dict.fromkeys(("lead_changes", "drama", "comeback", "decided_at"), np.nan)
            if finished:
                standing = np.array([s.hand_sizes for s in replay(rec)])
                stats = trace_stats(standing, int(winner))
            out.append({"game": int(row["game"]), "table": int(row["table"]),
                        "deal": int(row["deal"]), "n_players": int(row["n_players"]),
                        "finished": finished, **stats})  # fmt: skip
    traced = pd.DataFrame(out)
    if left and len(traced):  # a table's other seatings that happened not to draw: left too
        traced = traced[~traced["table"].isin(list(left))]
    return traced, list(dict.fromkeys(left.values()))


def _drew(play: Any, seats: tuple[str, ...], table: list[Any]) -> tuple[Any, str]:
    """``play()`` and, where it drew from the global random state, why its games do not
    replay, naming the entrants at the table that are not built in ("" where nothing drew)."""
    from strategies import global_random
    from tournaments.notices import not_replayed

    res, sources = global_random.drawn_during(play)
    if not sources:
        return res, ""
    who = tuple(dict.fromkeys(s for s, p in zip(seats, table, strict=True)
                              if not global_random.own_code(p)))  # fmt: skip
    return res, not_replayed(who or tuple(dict.fromkeys(seats)), sources)


def _finished(row: Any) -> float:
    """1.0 where the run's game was won (not stopped unfinished), else 0.0."""
    return float(int(row["winner_seat"]) >= 0 and not bool(row["unfinished"]))


def _restricted(t: Any, sample: pd.DataFrame, rules: Any, who: str) -> pd.DataFrame:
    """The sampled games where ``who`` sits, played again with ``who`` restricted by each
    restriction in its seat: one row per game and restriction, with whether each game, the
    run's and the restricted one, was won (finished: the cost counts finished games)."""
    import strategies

    cls = restricted_class()
    by_label = dict(zip(t.labels, t.payloads, strict=True))
    spec = who
    out = []
    for seats, grp in _groups(sample):
        seat = seats.index(who)
        for name, meaning in RESTRICTIONS.items():
            table = [cls(spec, name) if i == seat else t.game.strategy(by_label[s])
                     for i, s in enumerate(seats)]  # fmt: skip
            res = strategies.play_batch(table, grp["deal_seed"].to_numpy(np.uint64),
                                        grp["seed"].to_numpy(np.uint64), rules=rules)  # fmt: skip
            for (_, row), winner in zip(grp.iterrows(), res.winner_seat, strict=True):
                out.append({"game": int(row["game"]), "table": int(row["table"]),
                            "deal": int(row["deal"]), "n_players": int(row["n_players"]),
                            "restriction": name, "meaning": meaning, "strategy": who,
                            "base_win": float(int(row["winner_seat"]) == seat),
                            "restricted_win": float(int(winner) == seat),
                            "base_finished": _finished(row),
                            "restricted_finished": float(int(winner) >= 0)})  # fmt: skip
    return pd.DataFrame(out)


def field_label(t: Any, spec: str) -> str:
    """The label ``spec`` has in the field (weighted:w_pass=-12.0 is weighted(w_pass=-12.0)), so
    a strategy is named as the field was given; ``spec`` itself where it names nothing."""
    if spec in t.labels:
        return spec
    try:
        return t.game.resolve(spec)[0]
    except ValueError:
        return spec


def restricted_strategy(t: Any, asked: str | None) -> str | None:
    """The strategy restricted play restricts: ``asked`` (a label or a spec of the field), else
    weighted where it plays, else the first of the field that explains its choices; None when
    none does."""
    labels = tuple(t.labels)
    if asked is not None:
        if field_label(t, asked) not in labels:
            raise CLIError(f"--restrict {asked!r} is not in the field ({', '.join(labels)})",
                           usage=True)  # fmt: skip
        return field_label(t, asked)
    ranks = [label for label in labels if _explains(t, label)]
    return "weighted" if "weighted" in ranks else next(iter(ranks), None)


def _explains(t: Any, label: str) -> bool:
    payload = dict(zip(t.labels, t.payloads, strict=True))[label]
    return callable(getattr(t.game.strategy(payload), "explain", None))


def check_restrictable(t: Any, who: str | None) -> None:
    """One line when ``who`` cannot be restricted (it does not explain its choices)."""
    if who is None:
        return
    if not _explains(t, who):
        raise CLIError(f"--restrict {who}: restricted play needs a strategy that ranks its "
                       "actions (explain(view)), as weighted does", usage=True)  # fmt: skip


def _traced(traced: int, sampled: int, why: list[str]) -> str:
    """How many of the ``sampled`` games were traced, and why the others were not."""
    if traced == sampled:
        return f"{traced:,} games traced"
    head = "no games traced" if not traced else f"{traced:,} of {sampled:,} games traced"
    return f"{head} ({sampled - traced:,} left out: {'; '.join(why)})"


def replay_designer(t: Any, rules: Any, where: Path, games: tuple[int, int],
                    who: str | None) -> str:  # fmt: skip
    """Write the designer files of one rule set's run ``where`` (``games``: games sampled for
    the traces, and per restriction for restricted play; 0 skips either); what was done, in
    words."""
    from reports.designer_measures import GAMES_FILE, RESTRICTED_FILE

    start = time.perf_counter()
    rows = _rows(where)
    said = []
    if games[0] > 0:
        sample = sample_sets(rows, games[0])
        traced, why = _traces(t, sample, rules)
        if len(traced):
            traced.to_csv(where / GAMES_FILE, index=False)
        else:  # nothing to measure: no file, as when no games are traced
            (where / GAMES_FILE).unlink(missing_ok=True)
        said.append(_traced(len(traced), len(sample), why))
    if games[1] > 0 and who is not None:
        sits = _sitting(rows, who)
        if len(sits):
            sample = sample_sets(sits, games[1])
            _restricted(t, sample, rules, who).to_csv(where / RESTRICTED_FILE, index=False)
            said.append(f"{len(sample):,} games of {who} restricted {len(RESTRICTIONS)} ways")
    return f"{', '.join(said) or 'nothing'} in {time.perf_counter() - start:.1f} s"
