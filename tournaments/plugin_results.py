"""What a game plug-in's ``play`` gives, checked where the runner takes it, and a forfeit's
error naming its seat's strategy.

A plug-in's fault (``play`` raising, or returning something that is not the batch its
declaration promises) would otherwise surface deep in the runner as a reshape or an
attribute error that names neither the game nor what is wrong. ``batch_fault`` is the one
list of the cheap checks (types, shapes, ranges: no per-game Python), which the runner applies
to every batch and ``tournaments.testing.check_game`` to the batches it plays; a fault found
by the runner is a ``PluginError``, one line naming the game and the fault.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .declaration import plural
from .plugin import GamePlugin, SeatedBatch, SeatedMatches

__all__ = [
    "PluginError",
    "batch_fault",
    "check_batch",
    "check_matches",
    "checked_play",
    "guarded",
    "plugin_name",
    "seat_error",
]


class PluginError(RuntimeError):
    """A game plug-in's own fault, found while it played: ``game NAME: WHY``, one line (a
    strategy's error is no fault of the plug-in's: it forfeits the game)."""

    usage_error = False  # the command was right; the game's code is at fault (exit 1, not 2)

    def __init__(self, game: str, why: str):
        super().__init__(game, why)  # both args: it pickles back from a worker
        self.game, self.why = game, " ".join(str(why).split())

    def __str__(self) -> str:
        return f"game {self.game}: {self.why}"


def plugin_name(game: Any) -> str:
    """The game as the user names it: its id where its class is the one installed under it,
    else ``module:Class`` (a plug-in given by its class, a variant of an installed one)."""
    from .games import game_class  # start-up: only a fault found asks which class is installed

    cls, name = type(game), str(getattr(game, "name", "?"))
    try:
        installed = game_class(name)
    except Exception:  # noqa: BLE001 - not installed (or broken): named by its class
        installed = None
    return name if installed is cls else f"{cls.__module__}:{cls.__qualname__}"


def _counted(count: int, unit: str) -> str:
    """'1 game', '10 games'."""
    return f"{count} {unit if count == 1 else plural(unit)}"


def _kind(value: Any) -> str:
    """What a value is, in a word or two (an array with its dtype)."""
    if isinstance(value, np.ndarray):
        return f"an array of {value.dtype}"
    return "None" if value is None else type(value).__name__


def _array_fault(key: str, v: Any, shape: tuple[int, ...], integer: bool) -> str | None:
    """Why ``v`` is not a numpy array of ``shape`` (of integers where ``integer``)."""
    if not isinstance(v, np.ndarray):
        return f"{key} is {_kind(v)}, not a numpy array"
    if v.shape != shape:
        return f"{key} has shape {v.shape}, not {shape}"
    if integer and not np.issubdtype(v.dtype, np.integer):
        return f"{key} is {_kind(v)}, not of integers"
    if not integer and not (np.issubdtype(v.dtype, np.number) or v.dtype == bool):
        return f"{key} is {_kind(v)}, not of numbers"
    return None


def _seat_fault(b: SeatedBatch, g: int, n: int, has_first: bool) -> str | None:
    """winner_seat, forfeit_seat and first_player: integer arrays of ``g`` seats (or -1)."""
    for key in ("winner_seat", "forfeit_seat"):
        v = getattr(b, key)
        bad = _array_fault(key, v, (g,), True)
        if bad:
            return bad
        if g and (int(v.min()) < -1 or int(v.max()) >= n):
            return f"{key} {v} not in -1..{n - 1}"
    first = b.first_player
    if (first is not None) != has_first:
        said = "no first_player" if first is None else "a first_player"
        return f"{said}, but the game declares has_first_player={has_first}"
    if first is not None:
        bad = _array_fault("first_player", first, (g,), True)
        if bad or not g or (int(first.min()) >= 0 and int(first.max()) < n):
            return bad
        return f"first_player {first} not in 0..{n - 1}"
    return None


SEAT_VALUES = (int(np.iinfo(np.int16).min) + 1, int(np.iinfo(np.int16).max))
"""The least and the most a seat column (the rank value, a mean column, the match score) may
hold: the rows keep them as whole numbers the reports read as int16, whose least value marks a
seat the table does not have."""


def _whole_fault(key: str, v: np.ndarray, span: tuple[int, int]) -> str | None:
    """Why the array of numbers ``v`` does not hold whole numbers (an integer or boolean
    dtype) within ``span``: the runner sums them and the reports read them as int16."""
    if not (np.issubdtype(v.dtype, np.integer) or v.dtype == bool):
        return f"{key} is {_kind(v)}, not of whole numbers (an integer dtype)"
    low, high = (int(v.min()), int(v.max())) if v.size else span
    if low < span[0] or high > span[1]:
        return (f"{key} holds {low if low < span[0] else high:,}, not a whole number from "
                f"{span[0]:,} to {span[1]:,} (kept as int16)")  # fmt: skip
    return None


def _columns_fault(b: SeatedBatch, g: int, n: int, declared: Any) -> str | None:
    """seat_values and game_values: the declared columns, each an array of numbers, a seat
    column's whole numbers within ``SEAT_VALUES``."""
    for kind, names, shape in (("seat_values", declared.seat_columns, (g, n)),
                               ("game_values", declared.game_columns, (g,))):  # fmt: skip
        got = getattr(b, kind)
        if not isinstance(got, dict):
            return f"{kind} is {_kind(got)}, not a dict of arrays"
        if set(got) != set(names):
            return f"{kind} has {sorted(got)}, declared {list(names)}"
        for k in names:
            key = f"{kind}[{k!r}]"
            bad = _array_fault(key, got[k], shape, False)
            if bad is None and kind == "seat_values":
                bad = _whole_fault(key, got[k], SEAT_VALUES)
            if bad:
                return f"{bad} at {n} players" if "shape" in bad else bad
    return None


def batch_fault(b: Any, g: int, n: int, declared: Any, most: int) -> str | None:
    """Why ``b``, what ``play`` gave for ``g`` games at ``n`` seats, is not the batch the
    game's declaration (``declared``: its columns, has_first_player, length_value,
    shared_wins) promises, whose length column is at most ``most``; None when it is. Cheap:
    array types, shapes and ranges, and the forfeits counted against the errors."""
    if not isinstance(b, SeatedBatch):
        return f"play() of {_counted(g, 'game')} gave {_kind(b)}, not a SeatedBatch"
    found = _seat_fault(b, g, n, bool(declared.has_first_player))
    found = found or _columns_fault(b, g, n, declared)
    if found:
        return found
    length = b.game_values[declared.length_value]
    if g and (length.min() < 0 or length.max() > most):
        return f"{declared.length_value} {length} not in 0..{most}"
    if not isinstance(b.errors, list):
        return f"errors is {_kind(b.errors)}, not a list"
    if len(b.errors) != g:
        return f"{len(b.errors)} errors for {g} games"
    said, forfeits = g - b.errors.count(None), int(np.count_nonzero(b.forfeit_seat >= 0))
    if said != forfeits:
        return f"{said} errors for {forfeits} forfeited games"
    if declared.shared_wins:
        bad = _array_fault("winners", b.winners, (g, n), False)
        if bad:
            return f"shared_wins: {bad}"
    return None


def checked_play(game: GamePlugin, seats: Sequence[Any], deal_seeds: np.ndarray,
                 play_seeds: np.ndarray, record: bool = False) -> SeatedBatch:  # fmt: skip
    """``game.play`` of these games, its batch checked (``batch_fault``): a ``PluginError``
    where it raises or gives another batch than its declaration promises."""
    kw = {"record": True} if record else {}  # a plug-in's play may take no record at all
    b = guarded(game, "play", seats, deal_seeds, play_seeds, **kw)
    return check_batch(game, b, len(play_seeds), len(seats))


CODE_FAULTS = (AttributeError, IndexError, KeyError, NameError, NotImplementedError, TypeError,
               ZeroDivisionError)  # fmt: skip
"""The exceptions a slip of code raises: the plug-in's fault wherever they come from."""

LOOKUPS = ("strategies", "tournaments.game")
"""Where an exception raised in a plug-in's ``play`` comes from when it is the user's, worded
for the user already: the strategies package (a strategy that cannot load in a worker, a
worker that may not start a decision's helper process), and the runner's lookup of an
entrant's strategy in ``tournaments.game`` (``GameBase.strategy``: a file edited since the
run loaded it)."""


def _users_words(exc: BaseException) -> bool:
    """``exc`` came through one of the ``LOOKUPS``."""
    tb = exc.__traceback__
    while tb is not None:
        frame = tb.tb_frame
        module = str(frame.f_globals.get("__name__", ""))
        if module.split(".")[0] == LOOKUPS[0] or (
            module == LOOKUPS[1] and frame.f_code.co_name == "strategy"
        ):
            return True
        tb = tb.tb_next
    return False


def guarded(game: GamePlugin, method: str, *args: Any, **kw: Any) -> Any:
    """What the plug-in's ``method`` gives for these arguments; a ``PluginError`` naming the
    game and the exception where it raises (a strategy's error forfeits its game inside the
    plug-in, so what escapes is the plug-in's), but for one that came through the ``LOOKUPS``
    and is no slip of code (``CODE_FAULTS``), which passes in the user's words, as does a
    ``PluginError`` (a check inside it)."""
    try:
        return getattr(game, method)(*args, **kw)
    except PluginError:
        raise
    except Exception as exc:
        if not isinstance(exc, CODE_FAULTS) and _users_words(exc):
            raise
        why = f"{method}() raised {type(exc).__name__}: {exc}"
        raise PluginError(plugin_name(game), why) from exc


def check_batch(game: GamePlugin, b: Any, g: int, n: int) -> SeatedBatch:
    """``b`` as ``game`` gave it for ``g`` games at ``n`` seats, where it is the batch the
    declaration promises; else a ``PluginError`` naming the game and the fault."""
    why = batch_fault(b, g, n, game, game.max_length)
    if why is not None:
        raise PluginError(plugin_name(game), why)
    return b


def check_matches(game: GamePlugin, res: Any, m: int, n: int) -> SeatedMatches:
    """``res`` as ``play_matches`` gave it for ``m`` matches at ``n`` seats, where its arrays
    are of their shapes and its games a batch as ``play`` gives; else a ``PluginError``."""
    if not isinstance(res, SeatedMatches):
        why = f"play_matches() of {_counted(m, 'match')} gave {_kind(res)}, not a SeatedMatches"
        raise PluginError(plugin_name(game), why)
    games = res.game_match
    g = games.shape[0] if isinstance(games, np.ndarray) and games.ndim == 1 else -1
    for key, shape, integer in (("game_match", (g,), True), ("game_scores", (g, n), False),
                                ("match_games", (m,), True), ("match_totals", (m, n), False),
                                ("match_winners", (m, n), False)):  # fmt: skip
        v = getattr(res, key)
        why = _array_fault(key, v, shape, integer)
        if why is None and key in ("game_scores", "match_totals"):  # kept as int16, as seats'
            why = _whole_fault(key, v, SEAT_VALUES)
        if why is not None:
            raise PluginError(plugin_name(game), f"play_matches(): {why}")
    check_batch(game, res.games, g, n)
    return res


def seat_error(error: Any, seat: int, label: str) -> Any:
    """A forfeit's error as every game's says it: ``seat N (LABEL): WHY``. An error that
    names its seat's strategy already (as the game labels it) is kept as it is, its
    traceback with it; one that names its seat alone (``seat N: WHY``) or nothing gets the
    seat and the strategy's label."""
    text, bare = str(error), f"seat {seat}: "
    if text.startswith(f"seat {seat} ("):
        return error
    return f"seat {seat} ({label}): " + (text[len(bare) :] if text.startswith(bare) else text)
