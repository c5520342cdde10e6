"""Batches of games at one table, on the compiled path when every seat has a compiled policy
and game by game on the Python path otherwise: the same deals (``leaves.kernels``) either way,
so a deal seed means the same hands and first player on both, and each game is played by
fresh instances of the seats' strategies."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence, Set
from dataclasses import dataclass
from typing import Any

import numpy as np

from gamekit.batches import PerGame
from gamekit.seed_check import check_seed as kernel_seed
from leaves import GameRecord, State
from leaves.actions import shown
from leaves.players.base import Strategy
from leaves.ruleset import Rules
from strategies.deadline import Deadline, bounded, check_timeout, run_bounded
from tournaments.checks import flag

from .play import (
    FAILURES,
    Forfeit,
    ForfeitError,
    _error,
    _Game,
    _play_one,
    _seat_strategies,
    deal_state,
    fresh,
    in_seat_order,
)

__all__ = ["BatchResult", "PerGame", "play_batch", "play_seatings"]


@dataclass
class BatchResult(PerGame):
    """Outcomes of G games at one table (arrays indexed by game, then seat)."""

    first_player: np.ndarray  # int8 (G,)
    cards_left: np.ndarray  # int16 (G, n)
    winner_seat: np.ndarray  # int8 (G,), -1: no winner (unfinished or forfeited)
    turns: np.ndarray  # int32 (G,)
    rounds: np.ndarray  # int32 (G,)
    unfinished: np.ndarray  # bool (G,): turn limit reached (E1)
    forfeit_seat: np.ndarray  # int8 (G,), -1: none
    errors: list[str | None]
    records: list[GameRecord] | None = None

    @classmethod
    def of(cls, first_player: Any, cards_left: Any, winner_seat: Any, turns: Any, rounds: Any,
           unfinished: Any, n: int) -> BatchResult:  # fmt: skip
        """G games at ``n`` seats with no forfeit, each outcome cast to its dtype above
        (``cards_left`` may come flat)."""
        g = len(winner_seat)
        return cls(
            first_player=np.asarray(first_player, np.int8),
            cards_left=np.asarray(cards_left, np.int16).reshape(g, n),
            winner_seat=np.asarray(winner_seat, np.int8),
            turns=np.asarray(turns, np.int32),
            rounds=np.asarray(rounds, np.int32),
            unfinished=np.asarray(unfinished, bool),
            forfeit_seat=np.full(g, -1, np.int8),
            errors=[None] * g,
        )

    def __len__(self) -> int:
        return len(self.winner_seat)

    @property
    def n_players(self) -> int:
        return int(self.cards_left.shape[1])


def _empty_batch(g: int, n: int) -> BatchResult:
    zeros = np.zeros(g)
    return BatchResult.of(zeros, np.zeros((g, n)), np.full(g, -1), zeros, zeros, zeros, n)


def _whole_array(values: Any, what: str, kind: str) -> np.ndarray:
    """``values`` as a 1-d numpy array of integers (of ``kind``: "seeds"); ValueError naming
    ``what`` otherwise (floats would be cut, 0.7 read as 0, and bools read as 0 and 1: numpy
    reads ``[True, 1]`` as integers, so a list's items are asked one by one)."""
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise ValueError(f"{what} must be a 1-d array of {kind}, got shape {arr.shape}")
    if arr.size and not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(f"{what} must hold integers, got dtype {arr.dtype}")
    if not isinstance(values, np.ndarray):
        found = next(((i, x) for i, x in enumerate(values) if isinstance(x, bool | np.bool_)),
                     None)  # fmt: skip
        if found is not None:
            raise ValueError(f"{what} must hold integers, got {found[1]!r} at [{found[0]}]")
    return arr


def _seed_array(seeds: Any, what: str) -> np.ndarray:
    arr = np.asarray(seeds)
    # Python ints no numpy integer holds (object), or read as floats (2**63 beside 1): item
    # by item, naming one that is no seed
    listed = arr.dtype == object or (arr.dtype.kind == "f" and not isinstance(seeds, np.ndarray))
    if listed and arr.ndim == 1:
        arr = np.array([kernel_seed(x, f"{what}[{i}]") for i, x in enumerate(seeds)], np.uint64)
    arr = _whole_array(arr if listed and arr.ndim == 1 else seeds, what, "seeds")
    if arr.size and arr.dtype != np.uint64 and arr.min() < 0:
        raise ValueError(f"{what} must be non-negative (uint64 seeds)")
    return arr.astype(np.uint64)


def play_batch(
    table: Sequence[Strategy | str],
    deal_seeds: np.ndarray,
    play_seeds: np.ndarray,
    rules: Any = None,
    record: bool = False,
    decision_timeout: float | None = None,
) -> BatchResult:
    """Play game ``i`` from ``deal_seeds[i]``/``play_seeds[i]`` for every ``i`` at one table,
    under ``rules`` (any form ``Rules.of`` reads; today's by default).

    Runs the compiled loop when every seat has a compiled policy (``Strategy.compiled()`` is
    not None); otherwise plays with ``choose``, each game with fresh instances (``fresh``),
    so the given instances are never changed and games never share state. ``record=True`` adds
    a ``GameRecord`` per game on either path. ``decision_timeout`` (seconds; None or 0: none)
    forfeits a Python seat whose decision takes longer (compiled policies cannot hang).
    Deterministic
    strategies give the same games on both paths; stochastic ones draw from different
    generators (xoshiro vs numpy), so their individual games differ while the statistics agree.
    """
    rules = Rules.of(rules)
    record = flag(record, "record")
    strats = _seat_strategies(in_seat_order(table, "table"), None, rules)
    deal = _seed_array(deal_seeds, "deal_seeds")
    play = _seed_array(play_seeds, "play_seeds")
    if deal.shape != play.shape:
        raise ValueError(f"deal_seeds and play_seeds differ in length: {len(deal)} != {len(play)}")
    timeout = check_timeout(decision_timeout, "decision_timeout")
    compiled = [s.compiled() for s in strats]
    if all(c is not None for c in compiled):
        labels = tuple(s.label for s in strats)
        return _play_compiled(compiled, labels, deal, play, rules, record)
    return run_bounded(timeout, _play_python, strats, deal, play, rules, record, timeout)


def _play_python(
    strats: list[Strategy],
    deal: np.ndarray,
    play: np.ndarray,
    rules: Rules,
    record: bool,
    timeout: float | None = None,
) -> BatchResult:
    with bounded(timeout) as deadline:
        return _play_python_games(strats, deal, play, rules, record, deadline)


def _play_python_games(
    strats: list[Strategy],
    deal: np.ndarray,
    play: np.ndarray,
    rules: Rules,
    record: bool,
    deadline: Deadline,
) -> BatchResult:
    g, n = len(deal), len(strats)
    out = _empty_batch(g, n)
    records: list[GameRecord] = []
    for i in range(g):
        seats, failed = _fresh_seats(strats)  # no state crosses from one game to the next
        if failed is not None:  # a constructor failed for this game: that seat forfeits it
            initial = deal_state(n, int(deal[i]), rules=rules)
            labels = tuple(s.label for s in strats)
            game = _Game(strats, labels, initial, int(deal[i]), int(play[i]), record)
            r = game.result(initial, failed)
        else:
            r = _play_one(seats, int(deal[i]), int(play[i]), rules, record, deadline)
        out.first_player[i] = r.first_player
        out.cards_left[i] = r.cards_left
        out.winner_seat[i] = -1 if r.winner is None else r.winner
        out.turns[i] = r.turns
        out.rounds[i] = r.rounds
        out.unfinished[i] = r.unfinished
        out.forfeit_seat[i] = -1 if r.forfeit_seat is None else r.forfeit_seat
        out.errors[i] = r.error
        if record and r.record is not None:
            records.append(r.record)
    out.records = records if record else None
    return out


def _fresh_seats(strats: list[Strategy]) -> tuple[list[Strategy], Forfeit | None]:
    """New instances of every seat's strategy for the next game, or the first seat whose
    constructor failed (raised or called ``sys.exit()``) and why: it forfeits that game, as a
    strategy that fails in a game does, and the run goes on."""
    seats = []
    for seat, s in enumerate(strats):
        try:
            seats.append(fresh(s))
        except FAILURES as exc:
            err = _error(seat, s, exc)
            if isinstance(exc, ValueError) and exc.__cause__ is not None:  # fresh's own line
                err = ForfeitError(f"seat {seat} ({s.label}): {exc}", err.traceback)
            return seats, (seat, err)
    return seats, None


def play_seatings(
    tables: Sequence[Sequence[Strategy | str]],
    seating: np.ndarray,
    deal_seeds: np.ndarray,
    play_seeds: np.ndarray,
    rules: Any = None,
    decision_timeout: float | None = None,
) -> BatchResult:
    """``play_batch`` for games at several seatings: game ``i`` at table ``tables[seating[i]]``.

    Each game is the game ``play_batch(tables[seating[i]], ...)`` plays from the same seeds;
    when every seat of every table is compiled they are all played in one compiled call (a
    tournament chunk's seatings at once), else table by table.
    """
    rules = Rules.of(rules)
    check_timeout(decision_timeout, "decision_timeout")  # a compiled run never reaches play_batch
    # a set has no order; a mapping would be gone through by its keys
    if isinstance(tables, str | bytes | Set | Mapping) or not isinstance(tables, Iterable):
        raise TypeError(
            "tables must be a list of tables (each a list of strategies or specs in seat "
            f"order), got {shown(tables)}"
        )
    seats = [
        _seat_strategies(in_seat_order(t, f"tables[{r}]"), None, rules)
        for r, t in enumerate(tables)
    ]
    sel = _whole_array(seating, "seating", "table indices").astype(np.int64)
    deal = _seed_array(deal_seeds, "deal_seeds")
    play = _seed_array(play_seeds, "play_seeds")
    if not (sel.shape == deal.shape == play.shape):
        raise ValueError("seating, deal_seeds and play_seeds must have one entry per game")
    if len({len(t) for t in seats}) != 1:
        raise ValueError("every table of play_seatings must have the same number of seats")
    if sel.size and (sel.min() < 0 or sel.max() >= len(seats)):
        raise ValueError(f"seating indices must be 0..{len(seats) - 1}")
    compiled = [[s.compiled() for s in t] for t in seats]
    if all(c is not None for t in compiled for c in t):
        return _play_compiled(compiled, (), deal, play, rules, False, sel)
    parts, positions = [], []
    for r, table in enumerate(seats):
        pos = np.flatnonzero(sel == r)
        if pos.size:
            parts.append(play_batch(table, deal[pos], play[pos], rules, False, decision_timeout))
            positions.append(pos)
    if not parts:
        return _empty_batch(0, len(seats[0]))
    return BatchResult.scatter(parts, positions)


def _play_compiled(
    compiled: list[tuple[int, np.ndarray]] | list[list[tuple[int, np.ndarray]]],
    labels: tuple[str, ...],
    deal: np.ndarray,
    play: np.ndarray,
    rules: Rules,
    record: bool,
    seating: np.ndarray | None = None,
) -> BatchResult:
    """Compiled games at one table (``compiled``: (kind, params) per seat) or, with
    ``seating``, at several (``compiled``: one such list per table)."""
    from . import compiled as compiled_mod  # start-up: a table of Python seats loads no engine

    tables = compiled if seating is not None else [compiled]
    n = len(tables[0])
    width = max(
        [getattr(compiled_mod, "N_PARAMS", 0)]
        + [np.atleast_1d(p).size for t in tables for _, p in t]
    )
    kinds = np.array([[int(k) for k, _ in t] for t in tables], dtype=np.int64)
    params = np.zeros((len(tables), n, width), dtype=np.float64)
    for r, t in enumerate(tables):
        for seat, (_, p) in enumerate(t):
            p = np.atleast_1d(np.asarray(p, dtype=np.float64))
            params[r, seat, : p.size] = p
    if record:
        res = compiled_mod.play_batch_compiled_records(kinds, params, deal, play, rules, seating)
    else:
        res = compiled_mod.play_batch_compiled(kinds, params, deal, play, rules, seating)
    first_player, cards_left, winner_seat, turns, rounds, unfinished = res[:6]
    out = BatchResult.of(first_player, cards_left, winner_seat, turns, rounds, unfinished, n)
    if record:
        actions = res[6]
        out.records = [
            _record_from_arrays(
                out, i, int(deal[i]), deal_state(n, int(deal[i]), rules=rules), actions[i], labels
            )
            for i in range(len(out))
        ]
    return out


def _record_from_arrays(
    out: BatchResult,
    i: int,
    seed: int,
    initial: State,
    actions: np.ndarray,
    labels: tuple[str, ...],
) -> GameRecord:
    turns = int(out.turns[i])
    winner = int(out.winner_seat[i])
    return GameRecord(
        hands=[list(h) for h in initial.hands],
        first_player=initial.current_player,
        actions=[int(a) for a in actions[:turns]],
        winner=None if winner < 0 else winner,
        turns=turns,
        rounds=int(out.rounds[i]),
        seed=int(seed),
        strategies=list(labels),
        turn_limit=initial.turn_limit,
        unfinished=bool(out.unfinished[i]),
        rules=initial.rules.changes() or None,
    )
