"""Conformance check for game plug-ins: ``check_game(game)``, which every game passes.

The runner, reports and command line read only what a game declares, so a wrong declaration,
or results that depend on how a run is cut up, give wrong tables without an error. The check
plays small tournaments through the runner; its parts, easiest failure to read first:

- ``declaration``: the protocol's attributes and methods (``GamePlugin``'s and
  ``Declaration``'s: one list) are there, typed and consistent; options are constructor
  keywords; ``config()`` rebuilds the game; it pickles; every strategy it lists builds
  (``tournaments.declaration_check``);
- ``play``: batches at every table size have the declared columns and shapes; the same seeds
  give the same games; recording changes nothing; records name the game;
- ``seeds``: the same tournament twice gives identical results, another seed other games;
- ``jobs``: ``--jobs 2`` in chunks of one deal gives what ``--jobs 1`` in one chunk a table
  gives (games and matches); a pickled copy of the plug-in (a worker's) plays the same;
- ``replay``: the run checks out (``leaves verify``); recorded games replay from their seeds
  with the plug-in and entrants rebuilt from the manifest (``leaves replay RUN``) to the
  run's outcomes and records; the game's viewer shows them and refuses a record of nothing;
- ``report``: ``reports.build_report`` (``leaves report``) builds and says the game's words.

A failure raises ``GameCheckError`` (an ``AssertionError``): one line naming the check.
"""

from __future__ import annotations

import contextlib
import html
import importlib
import io
import json
import pickle
import tempfile
import types
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .declaration import Declaration
from .declaration_check import check_declaration, load_viewer
from .game import GamePlugin, SeatedBatch
from .games import DEFAULT_GAME, game_class
from .plugin_results import batch_fault
from .runner import Tournament
from .seeds import derive_seeds
from .verify import verify_run
from .work import recorded, spec_rule

__all__ = ["CHECKS", "GameCheckError", "check_game"]

CHECKS = ("declaration", "play", "seeds", "jobs", "replay", "report")
"""The checks, in the order they run (``GameCheckError.check`` names the one that failed)."""

RECORDED = 6  # games of a run recorded and replayed (recording may take a game's slow path)
SHOWN = 2  # records shown through the game's viewer (which may render every position: slow)


class GameCheckError(AssertionError):
    """A game failed ``check``: ``str(error)`` is one line saying which check and why."""

    def __init__(self, game: str, check: str, why: str):
        self.game, self.check = game, check
        why = " ".join(str(why).split())  # one line, whatever an exception said
        super().__init__(f"check_game({game!r}): the {check} check failed: {why}")


@contextlib.contextmanager
def _checking(game: str, check: str) -> Iterator[None]:
    """Whatever a check raises (the plug-in's own errors too) becomes its one-line failure."""
    try:
        yield
    except GameCheckError:
        raise
    except Exception as exc:  # noqa: BLE001 - the plug-in's error is the finding
        why = str(exc) if isinstance(exc, AssertionError) else f"{type(exc).__name__}: {exc}"
        raise GameCheckError(game, check, why) from exc


def _plugin(game: Any) -> GamePlugin:
    """An instance as given; a class, or an installed id's class, built with its defaults."""
    if isinstance(game, str):
        cls = game_class(game)
        known = (cls.name, *getattr(cls, "former_names", ()))
        assert game in known, f"the id {game!r} registers a class named {cls.name!r}"
        return cls()
    return game() if isinstance(game, type) else game


def _batch_difference(a: SeatedBatch, b: SeatedBatch) -> str | None:
    """The first result two batches of the same games disagree on (None: none)."""
    fields = ("winner_seat", "forfeit_seat", "first_player", "winners")
    pairs = {k: (getattr(a, k), getattr(b, k)) for k in fields}
    pairs["errors"] = ([str(e) for e in a.errors], [str(e) for e in b.errors])
    for kind in ("seat_values", "game_values"):
        x, y = getattr(a, kind), getattr(b, kind)
        pairs.update({k: (x.get(k), y.get(k)) for k in sorted({*x, *y})})
    for name, (x, y) in pairs.items():
        if (x is None) != (y is None) or (x is not None and not np.array_equal(x, y)):
            return name
    return None


def _check_batch(game: Any, d: Declaration, b: Any, g: int, n: int) -> None:
    """One batch of ``g`` games at ``n`` seats against the declaration: the runner's checks
    (``batch_fault``), then which games the errors are of, and each winner's rank."""
    fault = batch_fault(b, g, n, d, game.max_length)
    assert fault is None, fault
    forfeit = b.forfeit_seat >= 0
    said = [e is not None for e in b.errors]
    assert said == forfeit.tolist(), "its errors are not those of the forfeited games"
    rank = np.asarray(b.seat_values[d.rank_value], np.float64)
    best = rank.max(axis=1) if d.higher_is_better else rank.min(axis=1)
    assert not (b.winner_seat[forfeit] >= 0).any(), "a forfeited game has a winner"
    won = np.flatnonzero((b.winner_seat >= 0) & ~forfeit)
    behind = [i for i in won if rank[i, b.winner_seat[i]] != best[i]]
    assert not behind, f"game {behind[0]}'s winner has not the best {d.rank_value}"


def _check_play(game: Any, d: Declaration, entrants: Sequence[Any], seed: int) -> None:
    """Games at every table size; the same seeds again, and recorded, change nothing."""
    payloads = [game.resolve(e)[1] for e in entrants]
    names = (d.name, *getattr(game, "former_names", ()))
    for n in range(d.min_players, d.max_players + 1):
        seats = [payloads[s % len(payloads)] for s in range(n)]
        deals, plays = (derive_seeds(seed, (k,), np.arange(3)) for k in (n, 100 + n))
        b = game.play(seats, deals, plays)
        _check_batch(game, d, b, 3, n)
        diff = _batch_difference(b, game.play(seats, deals, plays))
        assert diff is None, f"play() gave other games from the same seeds ({diff} differ)"
        if n > d.min_players:
            continue  # recording may take a slow path: at the smallest tables
        r = game.play(seats, deals, plays, record=True)
        diff = _batch_difference(b, r)
        assert diff is None, f"recording changes the results ({diff}) at {n} players"
        assert isinstance(r.records, list) and len(r.records) == 3, "record=True gave no records"
        for said in (json.loads(line) for line in r.records):
            named = said.get("game", DEFAULT_GAME) if isinstance(said, dict) else None
            assert named in names, f"a record names the game {named!r} (its 'game' key)"


class _Runs:
    """The check's tournaments in folders of ``root``: one spec, one setting varied a time."""

    def __init__(self, game: Any, entrants: Sequence[Any], settings: dict[str, Any], root: Path):
        self.game, self.entrants, self.root, self.settings = game, list(entrants), root, settings
        self.seed = int(settings["seed"])
        for key, expert in (("games", False), ("matches", True)):  # two deals a table at least:
            one = Tournament(entrants, settings["players"], 1, game=game, expert=expert)
            settings[key] = max(int(settings[key]), 2 * one.n_games)  # else chunks hold one deal

    def run(self, name: str, *, seed: int | None = None, jobs: int = 1, chunk: int | None = None,
            expert: bool = False) -> Any:  # fmt: skip
        """A tournament of games (some recorded) or of matches into ``root/name``."""
        s = self.settings
        record = None if expert else self.root / f"{name}.jsonl"
        t = Tournament(self.entrants, players=s["players"], seed=self.seed if seed is None else seed,
                       games=s["matches" if expert else "games"], game=self.game, expert=expert,
                       chunk_size=chunk, record=record,
                       record_sample=None if expert else RECORDED)  # fmt: skip
        return t.run(n_jobs=jobs, out=self.root / name)


def _snapshot(res: Any) -> dict[str, Any]:
    """What a run's results are: its rows, aggregates and records."""
    snap = {"games": res.games(), "aggregates": res.aggregates()}
    if res.spec["expert"]:
        snap["matches"] = res.matches()
    if res.manifest.get("record_file"):
        snap["records"] = Path(res.manifest["record_file"]).read_text().splitlines()
    return snap


def _same(u: Any, v: Any) -> bool:
    """Two cells of rows are equal (missing equals missing; arrays element by element)."""
    import pandas as pd  # start-up: pandas loads for tables only

    if isinstance(u, np.ndarray | list) or isinstance(v, np.ndarray | list):
        return bool(np.array_equal(np.asarray(u), np.asarray(v)))
    missing = bool(pd.isna(u)), bool(pd.isna(v))
    return missing[0] and missing[1] if any(missing) else bool(u == v)


def _rows_difference(a: Any, b: Any, key: str, columns: Sequence[str] | None = None) -> str | None:
    """The first cell two runs' rows disagree on, in words (None: none)."""
    if columns is None:
        if list(a.columns) != list(b.columns) or len(a) != len(b):
            return f"{len(a)} and {len(b)} {key} rows, columns {list(a.columns)}, {list(b.columns)}"
        columns = list(a.columns)
    for col in columns:
        x, y = a[col].astype(object).to_numpy(), b[col].astype(object).to_numpy()
        for i, (u, v) in enumerate(zip(x, y, strict=True)):
            if not _same(u, v):
                return f"{key} {a[key].iloc[i]}: {col} {u!r} and {v!r}"
    return None


def _difference(a: dict[str, Any], b: dict[str, Any]) -> str | None:
    """The first result two runs disagree on, in words (None: they are the same)."""
    for kind, key in (("games", "game"), ("matches", "match")):
        found = _rows_difference(a[kind], b[kind], key) if kind in a else None
        if found:
            return found
    x, y = a["aggregates"], b["aggregates"]
    bad = [k for k in sorted({*x, *y}) if not np.array_equal(x.get(k), y.get(k))]
    if bad:
        return f"aggregate {bad[0]!r}"
    x, y = a.get("records", []), b.get("records", [])
    bad = [i for i in range(max(len(x), len(y))) if x[i : i + 1] != y[i : i + 1]]
    return f"record {bad[0] + 1} of {len(x)} and {len(y)}" if bad else None


def _check_seeds(runs: _Runs, d: Declaration, first: dict[str, Any]) -> None:
    """The same tournament twice: identical results; another seed: other games."""
    diff = _difference(first, _snapshot(runs.run("again")))
    assert diff is None, f"the same tournament twice gave different results ({diff})"
    other = _snapshot(runs.run("other-seed", seed=runs.seed + 1))["games"]
    seats = [f"{c}_{s}" for c in d.seat_columns for s in range(d.max_players)]
    outcome = [*seats, *d.game_columns, "winner_seat", "forfeit_seat"]
    columns = [c for c in outcome if c in other.columns]
    same = _rows_difference(first["games"], other, "game", columns) is None
    assert not same, f"seeds {runs.seed} and {runs.seed + 1} gave the same results in every game"


def _check_pickled(game: Any, d: Declaration, entrants: Sequence[Any], seed: int) -> None:
    """A pickled copy of the plug-in and its entrants (what a worker gets) plays the same."""
    payloads = [game.resolve(e)[1] for e in entrants]
    seats = [payloads[s % len(payloads)] for s in range(d.min_players)]
    deals, plays = (derive_seeds(seed, (k,), np.arange(4)) for k in (7, 8))
    here = game.play(seats, deals, plays)
    copy, copied = pickle.loads(pickle.dumps((game, seats)))
    diff = _batch_difference(here, copy.play(copied, deals, plays))
    assert diff is None, f"a pickled copy of the plug-in (a worker's) plays other games ({diff})"


def _check_jobs(runs: _Runs, d: Declaration, first: dict[str, Any]) -> Any:
    """``--jobs 2``, chunks of one deal and a worker's copy change no result; returns the run
    of matches (the report's)."""
    _check_pickled(runs.game, d, runs.entrants, runs.seed)
    diff = _difference(first, _snapshot(runs.run("jobs", chunk=1, jobs=2)))
    if diff is not None:  # which of the two: play in chunks of one deal with one job
        found = _difference(first, _snapshot(runs.run("chunked", chunk=1)))
        assert found is None, f"chunks of one deal gave other results than one a table ({found})"
        raise AssertionError(f"--jobs 2 gave other results than --jobs 1 ({diff})")
    matches = runs.run("matches", expert=True)
    again = runs.run("matches-jobs", expert=True, chunk=1, jobs=2)
    diff = _difference(_snapshot(matches), _snapshot(again))
    assert diff is None, f"matches with --jobs 2 in chunks of one deal differ ({diff})"
    return matches


def _show(game: Any, line: str) -> None:
    """Show a record as ``leaves replay`` does (the game's viewer, else ``replay_lines``)."""
    viewer = getattr(game, "replay_viewer", None)
    if viewer is None:
        assert game.replay_lines(line), "replay_lines() gave no lines"
        return
    how = types.SimpleNamespace(head="check_game", where="check_game", read_from="check_game",
                                show_all=True, hints=False, traceback=None, source="",
                                rules=getattr(game, "rules", None))  # fmt: skip
    with contextlib.redirect_stdout(io.StringIO()):
        load_viewer(viewer)(game, line, how)


def _check_replay(game: Any, res: Any) -> None:
    """The run checks out; its recorded games (and first forfeit) replay from their seeds,
    with the plug-in and entrants rebuilt from its manifest, to its outcomes and records."""
    found = verify_run(res.out)
    assert found.ok, f"the run does not match its manifest: {found.problems[0]}"
    spec = res.spec
    again = type(game)(**spec["game_config"])
    rebuild = getattr(again, "rebuild", lambda e: again.resolve(e["label"])[1])
    payloads = {e["label"]: rebuild(e) for e in spec["entrants"]}
    rows = res.games().to_dict("records")
    kept = [t for t in Path(res.manifest["record_file"]).read_text().splitlines() if t.strip()]
    index = np.array([int(r["game"]) for r in rows], dtype=np.int64)
    keep = recorded(spec["seed"], index, spec["record_stride"], spec_rule(spec))
    sampled = [int(g) for g in index[keep]]
    assert len(kept) == len(sampled), f"{len(sampled)} games recorded, {len(kept)} records"
    forfeits = [int(r["game"]) for r in rows if int(r["forfeit_seat"]) >= 0][:1]
    length, replayed = again.length_value, {}
    for row in (r for r in rows if int(r["game"]) in {*sampled, *forfeits}):
        seats = [payloads[str(row[f"seat_{s}"])] for s in range(int(row["n_players"]))]
        played = again.replay(seats, int(row["deal_seed"]), int(row["seed"]))
        was = (int(row["winner_seat"]), int(row[length]), int(row["forfeit_seat"]))
        why = f"(winner seat, {length}, forfeit seat) {played.outcome}, the run had {was}"
        assert played.outcome == was, f"game {row['game']} replays to {why}"
        replayed[int(row["game"])] = played.record
    other = [g for g in sampled if replayed[g] not in kept]
    assert not other, f"game {other[0]}'s replay gives another record than the run kept"
    for g in list(dict.fromkeys([*forfeits, *sampled]))[:SHOWN]:
        _show(again, replayed[g])
    nothing = json.dumps({"game": again.name})
    try:
        _show(again, nothing)
    except Exception:  # noqa: BLE001 - refused, as it should be
        return
    raise AssertionError(f"it shows {nothing} as a game: it does not check records")


def _check_report(d: Declaration, res: Any, out: Path) -> None:
    """``reports.build_report`` builds from the run of matches (its report holds every table
    of a run of games too), and the page says the game's declared words."""
    # The one reach above this package: the check follows a game through the layers it goes
    # through, and loads the reports only when it runs (never with ``tournaments``).
    page = importlib.import_module("reports").build_report(res.out, out=out)
    text = html.unescape(page.read_text(encoding="utf-8"))
    text += (page.parent / "findings.txt").read_text(encoding="utf-8")
    words = (d.title, d.units(), d.ahead_means, d.length_value, d.rank_value.replace("_", " "),
             d.match_title, d.match_label)  # fmt: skip
    missing = [w for w in words if w not in text]
    assert not missing, f"the report never says {missing[0]!r}"
    absent = [s for s in ("summary", d.match_name) if not (page.parent / f"{s}.csv").is_file()]
    assert not absent, f"the report wrote no {absent[0]}.csv"


def check_game(game: Any, *, games: int = 48, matches: int = 8, seed: int = 1,
               players: int | Sequence[int] | None = None,
               strategies: Sequence[Any] | None = None) -> None:  # fmt: skip
    """Check that a game plug-in conforms (the checks: this module's docstring); raise
    ``GameCheckError`` (an ``AssertionError``, one line) at the first it fails.

    ``game``: an installed game's id, a plug-in class (built with its defaults) or instance.
    ``games``, ``matches``: each tournament's size (rounded up to whole duplicate sets);
    ``seed``: theirs (the other is ``seed + 1``); ``players``: table sizes (default: the two
    smallest); ``strategies``: the entrants (default: up to four it lists, its baseline and a
    stochastic one among them, those that search or are not compiled last).
    """
    label = str(game if isinstance(game, str) else getattr(game, "name", game))
    with _checking(label, "declaration"):
        plugin = _plugin(game)
        label = str(plugin.name)
        d, entrants = check_declaration(plugin, strategies)
    with _checking(label, "play"):
        _check_play(plugin, d, entrants, seed)
    if players is None:
        players = (d.min_players, min(d.min_players + 1, d.max_players))
    sizes = sorted({int(p) for p in np.atleast_1d(players)})
    settings = {"seed": seed, "games": games, "matches": matches, "players": sizes}
    with tempfile.TemporaryDirectory(prefix="check-game-") as tmp:
        with _checking(label, "seeds"):
            runs = _Runs(plugin, entrants, settings, Path(tmp))
            run = runs.run("games")
            first = _snapshot(run)
            _check_seeds(runs, d, first)
        with _checking(label, "jobs"):
            matched = _check_jobs(runs, d, first)
        with _checking(label, "replay"):
            _check_replay(plugin, run)
        with _checking(label, "report"):
            _check_report(d, matched, Path(tmp) / "report")
