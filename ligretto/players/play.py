"""Playing Ligretto strategies: one round through the Python path, batches compiled.

``play_batch`` picks the path by itself: the compiled round loop when every seat has a policy
vector, else the Python path round by round (same results for built-ins: a differential test
checks the two paths agree).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

import ligretto
from ligretto.compiled import RoundBatch, play_rounds
from ligretto.rng import check_seeds
from ligretto.rules import ENDED_FORFEIT
from strategies import registry

from .base import GAME, LigrettoStrategy

__all__ = ["resolve", "play_round", "play_batch", "RoundBatch"]


class OtherGameName(registry.OtherGameStrategy):
    """Another game's strategy name given to Ligretto's own functions, which take no ``game``
    to pass: said without the registry's advice to pass one; a command, which names the
    parameter by its flag, keeps the registry's words (``--game``)."""

    def worded(self, names: Mapping[str, str]) -> str:
        if names.get("game"):
            return super().worded(names)
        return f"{self.head}, not a Ligretto one: Ligretto rounds take Ligretto strategies only"


def resolve(spec: Any) -> LigrettoStrategy:
    """A Ligretto strategy from a spec, class or instance (Ligretto's registry); ValueError
    for one that cannot decide (``cannot_play``), which would forfeit every round it played,
    and for another game's name (``OtherGameName``)."""
    try:
        strategy = registry.get(spec, game=GAME)
    except registry.OtherGameStrategy as exc:
        raise OtherGameName(exc.name, exc.game, exc.owners) from None
    refused = registry.refusal(strategy, strategy.label)
    if refused is not None:
        raise ValueError(refused)
    return strategy


def _table(specs: Any) -> list[LigrettoStrategy]:
    """One strategy per seat; a lone spec string is refused (never read letter by letter)."""
    if isinstance(specs, str | bytes) or not isinstance(specs, Sequence):
        raise TypeError(f"specs must be a list of strategies, one per seat, got {specs!r}")
    return [resolve(s) for s in specs]


def play_round(
    specs: Sequence[Any], deal_seed: int, play_seed: int, record: bool = False
) -> ligretto.RoundOutcome:
    """One round through the Python path (``record`` adds the round record)."""
    table = _table(specs)
    return ligretto.play_round(
        table, deal_seed, play_seed, record=record, labels=[s.label for s in table]
    )


@dataclass
class BatchOut:
    batch: RoundBatch
    errors: list[str | None]
    forfeit_seat: np.ndarray
    records: list[str] | None = None


def play_batch(
    specs: Sequence[Any], deal_seeds: np.ndarray, play_seeds: np.ndarray, record: bool = False
) -> BatchOut:
    """One round per seed pair. A Python strategy that breaks the rules or raises forfeits the
    round (no scores, no winner, ``ended_by`` ENDED_FORFEIT; per round the seat, and the error
    naming the seat and its strategy, as 13 Leaves' do: a seat is another strategy's in another
    rotation). Seeds are whole numbers 0 to 2**64 - 1, one play seed per deal seed."""
    deal_seeds = check_seeds(deal_seeds, "deal_seeds")
    play_seeds = check_seeds(play_seeds, "play_seeds")
    if len(deal_seeds) != len(play_seeds):
        raise ValueError(
            f"deal_seeds and play_seeds differ in length: {len(deal_seeds)} != {len(play_seeds)}"
        )
    table = _table(specs)
    n = len(table)
    g = len(deal_seeds)
    policies = [s.policy() for s in table]
    if not record and all(p is not None for p in policies):
        batch = play_rounds(np.stack(policies), deal_seeds, play_seeds)
        return BatchOut(batch, [None] * g, np.full(g, -1, np.int8))
    scores = np.zeros((g, n), np.int16)
    left = np.zeros((g, n), np.int8)
    centre = np.zeros((g, n), np.int8)
    ended = np.zeros(g, np.int8)
    time_ms = np.zeros(g, np.int32)
    plays = np.zeros(g, np.int16)
    flips = np.zeros(g, np.int32)
    fails = np.zeros(g, np.int16)
    errors: list[str | None] = [None] * g
    forfeit = np.full(g, -1, np.int8)
    records: list[str] = []
    labels = [s.label for s in table]
    for i in range(g):
        try:
            out = ligretto.play_round(
                table, int(deal_seeds[i]), int(play_seeds[i]), record=record, labels=labels
            )
        except ligretto.PlayerError as e:  # breaking the rules or raising: a forfeit
            errors[i] = f"seat {e.seat} ({labels[e.seat]}): {e.message}"  # seats rotate: who
            forfeit[i] = e.seat
            ended[i] = ENDED_FORFEIT  # no end: neither stopped at a limit nor blocked
            records.append("")
            continue
        scores[i] = out.scores
        left[i] = out.state.stack_left()
        centre[i] = out.state.centre_cards()
        ended[i] = out.ended_by
        time_ms[i] = out.time_ms
        plays[i] = sum(1 for e in out.events if e[2] in ("stack", "row", "hand"))
        flips[i] = sum(1 for e in out.events if e[2] == "flip")
        fails[i] = sum(1 for e in out.events if e[2] == "fail")
        if record and out.record is not None:
            records.append(out.record.to_json())
    batch = RoundBatch(scores, left, centre, ended, time_ms, plays, flips, fails)
    return BatchOut(batch, errors, forfeit, records if record else None)
