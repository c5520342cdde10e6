"""A tuning run's settings, checked, and its budget split into generations, a selection and a
verification (``tune`` runs the plan; everything here is decided before a game is played)."""

from __future__ import annotations

import math
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

import strategies
from gamekit.errors import ParameterError, shown
from tournaments import parse_players
from tournaments.arguments import default_game
from tournaments.checks import integer, make_out, optional_integer, optional_path
from tournaments.declaration import plural
from tournaments.schedule import MAX_RUN_GAMES, check_size
from tournaments.storage import holds_files

from .checkpoint import PREVIOUS, STATE
from .evaluate import Field, parse_field
from .space import Space

__all__ = [
    "FINALISTS", "SELECT_SHARE", "TARGET_GENERATIONS", "Plan", "as_played", "checked", "units_of",
]  # fmt: skip

SELECT_SHARE = 0.1
"""Share of the budget spent replaying the finalists."""

FINALISTS = 5
"""The final search mean and up to this many minus one best candidates replayed at the end."""

TARGET_GENERATIONS = 25
"""Without ``candidate_games``, the budget is split so that the search runs about this many
generations: enough for CMA-ES to move, with each candidate's score still measured on a few
hundred games or more."""


def _check_out(out: Path, resume: bool) -> None:
    """Refuse an ``out`` that holds files (unless ``resume``: ``tuning.checkpoint`` has read
    the tuning there), or that cannot be made (``make_out``: a file at it or above it, or a
    folder the system refuses), before any game is played."""
    if not resume and holds_files(out):  # a lock file alone: a tuning not begun
        if (out / STATE).is_file() or (out / PREVIOUS).is_file():
            raise ParameterError(f"{out} holds an unfinished tuning: pass {{resume}} to "
                                 "continue it, or pick a new {out}", "resume", "out")  # fmt: skip
        raise ParameterError(f"{out} is not empty: pick a new {{out}}", "out")
    make_out(out)


def split_budget(field: Field, spec: str, budget: int, popsize: int, candidate_games: int | None,
                 named: tuple[str, ...] = ("popsize",)) -> tuple[int, int, int]:  # fmt: skip
    """(games per evaluation, generations to run, games per finalist), in whole duplicate sets:
    the generations and the finalists together never play more than ``budget`` games (a
    selection rounded up to whole sets takes its games from the generations). ``named``: the
    sizes given (``popsize``, ``candidate_games``), which a refusal names where no budget
    could play two generations."""
    per_gen = popsize + 1  # the candidates and the starting parameters
    search = budget - int(budget * SELECT_SHARE)
    asked = candidate_games or max(1, search // (TARGET_GENERATIONS * per_gen))
    games = _in_sets(field, spec, asked, "candidate_games")
    generations, select = _fit(field, spec, budget, per_gen, games)
    if generations < 2:
        two = 2 * per_gen * games  # a selection on top of them, if few enough to lay out
        need = _smallest_budget(field, spec, per_gen, games) if two <= MAX_RUN_GAMES else two
        units = units_of(field)
        if need > MAX_RUN_GAMES:
            raise _past_any_budget(popsize, games, named, units)
        _, least = _fit(field, spec, need, per_gen, games)
        raise ParameterError(
            f"{{budget}} {budget:,} is too small: two generations of {popsize:,} candidates and "
            f"the start at {games:,} {units} each, and the final selection ({FINALISTS} "
            f"finalists at {least:,} {units} each), need {need:,} {units}",
            "budget",
        )
    return games, generations, select


def _in_sets(field: Field, spec: str, games: int, name: str) -> int:
    """``games`` (no more than ``MAX_RUN_GAMES``) as a run plays them, rounded up to whole
    duplicate sets; refused in one line naming the argument ``name`` where the rounding takes
    them past a run's most games (a run of them would be refused, naming a --games no one
    gave)."""
    one_set = field.games_per_run(spec, 1)  # one deal of every table: a duplicate set each
    played = -(-games // one_set) * one_set
    check_size(played, games, name, units=units_of(field))  # the schedule's line, naming it
    return field.games_per_run(spec, games)


def units_of(field: Field) -> str:
    """What the tuned game counts ("rounds" of a game played in rounds; a tuning plays no
    matches), which every size it is given and every refusal of one is in."""
    return plural(default_game(field.game).unit)


def _past_any_budget(
    popsize: int, games: int, named: tuple[str, ...], units: str = "games"
) -> ParameterError:
    """The refusal of a search that no budget plays (``budget`` is at most ``MAX_RUN_GAMES``):
    two generations of ``popsize`` candidates at ``games`` each, and the selection, need more;
    ``named``: the sizes given, which make it so; ``units``: what the game counts."""
    sizes = " or ".join(f"{{{n}}}" for n in named)
    said = shown(popsize, typed=False)  # by its digits past the line's width
    pop = f"{popsize:,} candidates" if said.isdigit() else f"candidates ({said})"
    return ParameterError(
        f"two generations of {pop} and the start at {games:,} {units} each, and the "
        f"final selection, need more than 2**32 - 1 {units} (the most {{budget}} may be): give "
        f"a smaller {sizes}", *named, "budget",
    )  # fmt: skip


def _fit(field: Field, spec: str, budget: int, per_gen: int, games: int) -> tuple[int, int]:
    """(generations, games per finalist) of ``budget``: the finalists get a tenth of it (at
    least a candidate's games), the generations the rest, no more than nine tenths."""
    select = field.games_per_run(spec, max(games, int(budget * SELECT_SHARE) // FINALISTS))
    search = budget - int(budget * SELECT_SHARE)
    generations = min(search, budget - FINALISTS * select) // (per_gen * games)
    return max(generations, 0), select


def _smallest_budget(field: Field, spec: str, per_gen: int, games: int) -> int:
    """The fewest games that run two generations of ``games`` each and the selection."""
    two = 2 * per_gen * games
    need = max(two + FINALISTS * games, math.ceil(two / (1 - SELECT_SHARE)))
    while True:  # a selection rounded up to whole sets takes a little more: add what is short
        select = field.games_per_run(spec, max(games, int(need * SELECT_SHARE) // FINALISTS))
        short = two - (need - FINALISTS * select)
        if short <= 0:
            return need
        need += short


@dataclass(frozen=True)
class Plan:
    """A tuning run's checked settings: the strategy, its field and parameters, the seed and
    how the budget is split (games per candidate, generations, selection and verification)."""

    spec: str
    field: Field
    params: list[Any]
    space: Space
    opponents: set[str]
    budget: int
    seed: int
    popsize: int
    sigma: float
    games: int
    generations: int
    select_games: int
    verify_games: int
    out: Path
    derived: frozenset[str] = frozenset()
    """The sizes worked out rather than given (``popsize``, ``candidate_games``,
    ``verify_games``): a resume names one only where nothing given explains it."""
    typed: tuple[tuple[str, int], ...] = ()
    """The games given (``candidate_games``, ``verify_games``) that were rounded up to whole
    duplicate sets, as typed: a resume names them beside what they became."""

    @property
    def start(self) -> dict[str, Any]:
        return {p.name: p.clip(p.value) for p in self.params}


def _other(spec: str, params: Any, game: str) -> str:
    """The tuned strategy (of ``game``) with another value of its first tunable parameter: an
    opponent the tuning tells apart from the start ('taker:group_weight=0.0')."""
    from strategies.base import format_value  # start-up: only a refusal needs it
    from strategies.registry import parse_spec  # start-up: only a refusal needs it

    p = params[0]
    value = p.clip(p.low if p.value != p.clip(p.low) else p.high)  # of the parameter's type
    return f"{parse_spec(spec, game)[0]}:{p.name}={format_value(value)}"


def _game(game: Any) -> Any:
    """The game plug-in every tournament plays: an instance as given, a game id's with its
    defaults; None: the runner's default game. ValueError (one line) for an unknown id."""
    if not isinstance(game, str):
        return game
    from tournaments.games import get_game  # start-up: loads the game registry

    return get_game(game)


def _games(count: int, name: str, units: str = "games") -> int:
    """``count`` games, refused in one line naming the argument ``name`` unless it is positive
    and no more than any run may hold (more would never be played out), in the game's
    ``units``."""
    if not 1 <= count <= MAX_RUN_GAMES:
        raise ParameterError(f"{{{name}}} must be a positive number of {units} up to "
                             f"{MAX_RUN_GAMES:,}, got {count:,}", name)  # fmt: skip
    return count


def _field_specs(against: Any) -> list[str]:
    """``against`` as a list of specs (read once: an iterator is one too), refused in one line
    naming it where it is neither a spec nor specs (None, a number, a list holding one): not
    Python's "'NoneType' object is not iterable", nor a number read as the spec '1'."""
    if isinstance(against, str):
        return [against]
    specs = (
        list(against)
        if isinstance(against, Iterable) and not isinstance(against, bytes | dict)
        else None
    )
    if specs is None or not all(isinstance(s, str) for s in specs):
        raise TypeError(f"against takes a strategy spec or a list of them, got "
                        f"{shown(against, typed=False)}")  # fmt: skip
    return specs


def checked(spec: Any, against: Any, players: Any, budget: int, seed: int | None,
             n_jobs: int, out: Any, **opts: Any) -> Plan:  # fmt: skip
    """The settings of ``tune``, each checked with a one-line error naming its option."""
    if not isinstance(spec, str):
        raise ValueError("tune takes the strategy as a spec string, e.g. 'weighted'")
    n_jobs = integer(n_jobs, "n_jobs", "a number of workers (a positive integer, or -1)")
    seed = optional_integer(seed, "seed", "a non-negative integer")
    field = Field(parse_field(_field_specs(against)), parse_players(players), n_jobs,
                  _game(opts.get("game")), start=spec)  # fmt: skip
    units = units_of(field)
    budget = integer(budget, "budget", f"a whole number of {units}")
    _games(budget, "budget", units)
    if n_jobs == 0 or n_jobs < -1:
        raise ParameterError(
            f"{{n_jobs}} must be a positive number of workers (or -1), got {n_jobs}", "n_jobs"
        )
    params = strategies.tunables(spec, field.registry)
    space = Space(params)
    start_label = field.lookup(spec).label
    opponents = {field.lookup(s).label for s in field.against}
    if start_label in opponents:
        raise ValueError(
            f"{start_label} is both the strategy tuned and an opponent: give the opponent other "
            f"parameters (e.g. {_other(spec, params, field.registry)}) so the two can be told "
            "apart"
        )
    popsize = optional_integer(opts["popsize"], "popsize", "a number of candidates")
    popsize = int(4 + int(3 * math.log(max(2, space.dim))) if popsize is None else popsize)
    if popsize < 2:
        raise ParameterError(f"{{popsize}} must be at least 2, got {popsize}", "popsize")
    sigma = opts["sigma"]
    if isinstance(sigma, bool) or not isinstance(sigma, int | float | np.integer | np.floating):
        raise TypeError(f"sigma takes a number in (0, 1], got {sigma!r}")
    if not 0 < float(sigma) <= 1:
        raise ParameterError(
            f"{{sigma}} must lie in (0, 1] (a fraction of each range), got {opts['sigma']}",
            "sigma",
        )
    candidate_games = optional_integer(
        opts["candidate_games"], "candidate_games", f"a number of {units}"
    )
    if candidate_games is not None:
        _games(candidate_games, "candidate_games", units)
    seed = int(np.random.SeedSequence().entropy) if seed is None else seed
    if seed < 0:
        raise ParameterError(f"{{seed}} must be a non-negative integer, got {seed}", "seed")
    named = tuple(k for k in ("popsize", "candidate_games") if opts[k] is not None) or ("popsize",)
    games, generations, select_games = split_budget(field, spec, budget, popsize,
                                                    candidate_games, named)  # fmt: skip
    given = optional_integer(opts["verify_games"], "verify_games", f"a number of {units}")
    verify = _games(given, "verify_games", units) if given is not None else max(games, budget // 2)
    verify = _in_sets(field, spec, verify, "verify_games")  # whole duplicate sets
    typed = tuple((k, v) for k, v, got in (("candidate_games", candidate_games, games),
                                            ("verify_games", given, verify))
                  if v is not None and v != got)  # fmt: skip
    out = optional_path(out, "out") or Path(tempfile.mkdtemp(prefix="leaves-tune-"))
    if opts.get("ready") is not None:  # every argument checked, nothing made or written yet
        opts["ready"](out)
    _check_out(out, bool(opts.get("resume")))
    derived = frozenset(k for k in ("popsize", "candidate_games", "verify_games")
                        if opts.get(k) is None)  # fmt: skip
    return Plan(spec, field, params, space, opponents, budget, seed, popsize,
                 float(opts["sigma"]), games, generations, select_games, verify, out,
                 derived, typed)  # fmt: skip


def as_played(plan: Plan, saved: dict[str, Any]) -> dict[str, Any]:
    """A saved tuning's arguments with its verification arms' games as they are played, in
    whole duplicate sets (``plan``'s field: an earlier version saved the games as given or
    worked out, before the rounding), so that a resume compares the games each plays."""
    games = saved.get("verify_games")
    if isinstance(games, int) and not isinstance(games, bool) and 1 <= games <= MAX_RUN_GAMES:
        return {**saved, "verify_games": plan.field.games_per_run(plan.spec, games)}
    return saved
