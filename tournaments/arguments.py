"""A ``Tournament``'s arguments read as its rules allow, each refusal one line naming it.

``checks`` holds the type checks every public function shares; this module holds what only a
tournament asks of its values: the game, the entrants, the rules of its matches, its seating
design, the entrant it focuses on and which games go to its records file. The constructor
calls them in one order, so the argument a refusal names is always the first one wrong.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from gamekit.errors import ParameterError, shown

from . import storage, work
from .checks import flag, optional_integer, optional_path, spec_list
from .declaration_check import check_protocol
from .game import GamePlugin, plural
from .labels import entrant_key, entrant_labels
from .seating import DEFAULT_SEATING, SEATINGS

__all__ = ["NotAFile", "default_game", "enter", "focus_label", "match_rules", "moment",
           "not_a_file", "record_refused", "record_rule", "seating_design"]  # fmt: skip


def moment(since: Any) -> float:
    """``since`` as a ``time.perf_counter()`` value (TypeError naming it otherwise)."""
    if isinstance(since, bool) or not isinstance(since, int | float | np.number):
        raise TypeError(
            f"since takes a time.perf_counter() value or None, got {shown(since, typed=False)}"
        )
    return float(since)


def default_game(game: Any = None) -> GamePlugin:
    """``game``: a plug-in, or an installed game's id; the default game for None (TypeError
    for anything else: it failed later, naming no argument)."""
    from .games import get_game  # start-up: the game registry reads entry points

    if game is None or isinstance(game, str):
        return get_game() if game is None else get_game(game)
    if isinstance(getattr(game, "name", None), str):  # a plug-in: what it lacks is named
        check_protocol(game)
    if not isinstance(game, GamePlugin):
        raise TypeError(
            f"game takes a game plug-in or an installed game's id, got {shown(game, typed=False)}"
        )
    return game


def record_refused(game: GamePlugin, by: str) -> ParameterError:
    """The refusal of a records file for a run of matches, naming the parameter that asked
    for them (``by``: expert, target or rounds); records hold the game's plain units."""
    return ParameterError(
        f"{{record}} is not available with {{{by}}} (record plain {plural(game.unit)})",
        "record",
        by,
    )


def enter(
    game: GamePlugin, strategies: Sequence[Any]
) -> tuple[tuple[str, ...], tuple[Any, ...], dict[str, Any]]:
    """The entrants' labels and payloads, in canonical order (by label), each once, and where
    each label told apart by its file came from."""
    specs = spec_list(strategies, "strategies")
    if not specs:
        raise ValueError("a tournament needs at least one strategy")
    resolved = sorted(entrant_labels(game, specs), key=lambda r: r[0])
    labels = tuple(label for label, _, _ in resolved)
    payloads = tuple(payload for _, payload, _ in resolved)
    qualifiers = {label: where for label, _, where in resolved if where}
    dupes = sorted({x for x in labels if labels.count(x) > 1})
    if dupes:
        raise ValueError(f"strategy listed twice: {', '.join(dupes)}")
    return labels, payloads, qualifiers


def match_rules(
    game: GamePlugin, expert: bool, target: int | None, rounds: int | None
) -> tuple[bool, int | None, int]:
    """Matches (``expert``, or implied by ``rounds``): to ``target`` points (the game's
    default) or of ``rounds`` games. Returns ``(expert, rounds, target)``. A target the
    game bounds itself (its ``check_target``: one no match of it reaches) is refused here,
    so that every way in refuses it before a run starts, not the command line alone."""
    expert = flag(expert, "expert")
    rounds = optional_integer(rounds, "rounds", "a whole number of games")
    target = optional_integer(target, "target", "a whole number of points")
    if rounds is not None:
        if rounds < 1:
            raise ParameterError(
                f"{{rounds}} must be at least 1, got {shown(rounds, typed=False)}", "rounds"
            )
        if rounds > work.MAX_GAMES_PER_MATCH:
            raise ParameterError(
                f"{{rounds}} can be at most {work.MAX_GAMES_PER_MATCH}, the cap on a match's "
                f"length, got {shown(rounds, typed=False)}",
                "rounds",
            )
        if target is not None:
            raise ParameterError(
                "a match runs to {target} or for {rounds}, not both", "target", "rounds"
            )
        expert = True
    if target is None:
        target = game.match_target
    if int(target) < 1:  # in the game's word for what runs to a target (its match_unit)
        said = shown(target, typed=False)
        raise ParameterError(
            f"{{target}} {said}: a {game.match_unit} runs to at least 1 point", "target"
        )
    check = getattr(game, "check_target", None)
    if check is not None:  # the game's own bound, in its words
        check(int(target))
    return expert, rounds, int(target)


def seating_design(game: GamePlugin, seating: str | None) -> str:
    """The seating design: ``seating``, else the game's default, else ``DEFAULT_SEATING``."""
    if seating is None:
        seating = getattr(game, "default_seating", DEFAULT_SEATING)
    if seating not in SEATINGS:
        raise ParameterError(
            f"unknown {{seating}} {shown(seating, typed=False)}: choose one of "
            f"{', '.join(SEATINGS)}",
            "seating",
        )
    return seating


def focus_label(game: GamePlugin, focus: Any, labels: Sequence[str],
                payloads: Sequence[Any]) -> str:  # fmt: skip
    """The label of ``focus``: one of the strategies (as given) or a label."""
    if isinstance(focus, str) and focus in labels:
        return focus
    try:
        label, payload = game.resolve(focus)
    except ValueError:
        label = payload = None
    if label not in labels and payload is not None:  # one told apart by its file
        mine = entrant_key(game, payload)[0]
        label = next((x for x, p in zip(labels, payloads, strict=True)
                      if entrant_key(game, p)[0] == mine), None)  # fmt: skip
    if label not in labels:
        raise ValueError(
            f"focus {shown(focus, typed=False)} is not one of the tournament's strategies"
        )
    return label


def _link_target(link: Path) -> Path:
    """Where the symbolic link ``link`` leads (ParameterError, one line, for a loop)."""
    try:
        target = link.resolve()
    except RuntimeError:  # a loop of links, before Python 3.13
        target = link
    if target.is_symlink():  # a loop of links: from Python 3.13 ``resolve`` ends on one
        raise ParameterError(
            f"{{record}} {link} is a symbolic link that leads back to itself: name a file",
            "record",
        )
    return target


class NotAFile(ParameterError, storage.InTheWay):
    """A directory named where a file goes: no bad usage where a resumed run's records file
    became one since (``InTheWay``'s exit 1, as before), yet worded as ``--record`` refuses
    one, never with advice to remove what the caller named."""


def not_a_file(named: str, path: str | Path, kind: str, *params: str) -> ParameterError:
    """The one line refusing a file argument (``named``: its name, or a ``{param}`` marker of
    ``params``) at ``path`` where ``kind`` is in its place ('a directory', a device's or a
    pipe's words, ``storage.special_file``): the caller names another file, never removes
    what it named (a directory's refusal is a ``NotAFile``)."""
    error = NotAFile if kind == "a directory" else ParameterError
    return error(f"{named} {path} is not a regular file but {kind}: name a file", *params)


def record_rule(game: GamePlugin, record: str | Path | None, record_sample: int | None,
                n_games: int, by: str | None) -> tuple[Path | None, int]:  # fmt: skip
    """The ``record`` file and which of the run's ``n_games`` go to it: one in each stride
    (0: none, 1: all; picked by ``work.RECORD_RULE``). ``by``: the parameter that asked for
    matches (expert or rounds), whose records are refused; None for a run of games. A
    ``record`` that is a directory, a device or a named pipe is refused here, without opening
    it (``storage.special_file``), so a refused run leaves no folder behind; a
    ``record_sample`` without a ``record`` is refused, as ``--record-sample`` is. A symbolic
    link is followed here, once: the records are renamed onto its target, which the link then
    still names (renamed onto the link, they replaced it and left its target stale)."""
    record = optional_path(record, "record")
    if record is not None and record.is_symlink():
        record = _link_target(record)
    kind = None
    if record is not None:  # a directory: never to be written (nor removed) for the records
        kind = "a directory" if record.is_dir() else storage.special_file(record)
    if kind is not None:  # the records, renamed into place, would replace a device or a pipe
        raise not_a_file("{record}", record, kind, "record")
    record_sample = optional_integer(record_sample, "record_sample", "a number of games")
    if record_sample is not None and record is None:  # else a sample of nothing, silently
        raise ParameterError("{record_sample} needs {record} FILE", "record_sample", "record")
    if record_sample is not None and record_sample < 1:
        raise ParameterError(
            f"{{record_sample}} must be at least 1, got {record_sample}", "record_sample"
        )
    stride = max(1, n_games // record_sample) if record_sample else 1
    if record is not None and by is not None:
        raise record_refused(game, by)
    return record, stride if record else 0
