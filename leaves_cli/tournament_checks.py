"""Options of a new ``leaves tournament`` that would be accepted and then quietly not do what
they say: refused in one line before anything is played (exit 2).

A lone strategy only ever plays itself; ``--target`` without matches is dropped, and so is a
game setting's target (it ends a match, never a game: ``refuse_target_settings``, which
``leaves gauntlet`` asks too); a target that a game setting contradicts (one that names a
target of its own, as rules may, today's value too) would play matches to one and record
the other; a ``--record`` file in a folder that does not exist would create that folder
wherever the path points (one ``--out``'s creation makes is made anyway: ``--out`` itself,
a folder inside it, a missing one above it). A ``--target`` below 1 point is refused here
too, in the game's word for what runs to it (its ``match_unit``). So are ``--precision`` and ``--max-games`` that cannot be (``check_precision``,
new or resumed; a resume's cap once the run's deals are known: ``check_resumed_cap``). Each
line names a value where it was given: a flag, or the config file's key.

Where ``--players`` is not typed, the table a run seats is chosen here too, by one rule for
every command (``default_players``): 4 where the game's settings allow it, else the one count
they allow, else one line that asks for ``--players`` (never named as if it had been typed).

Imports inside functions: start-up. The packages a command runs on load once its options are
checked, so ``--help`` and a bad option answer at once.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from .errors import CLIError
from .origins import FILE, FLAG, in_file, origin

__all__ = [
    "DEFAULT_HELP",
    "DEFAULT_PLAYERS",
    "check_field",
    "check_new_run",
    "check_precision",
    "check_record_folder",
    "check_resumed_cap",
    "default_players",
    "players_of",
    "refuse_target_settings",
    "room_for_a_deal",
]

DEFAULT_PLAYERS = 4
"""The table's size where ``--players`` is not typed and the game's settings allow it."""
DEFAULT_HELP = f"default: {DEFAULT_PLAYERS}, or the one count the game's settings allow"
"""How the help of ``--players`` says the table it sits where it is not typed."""


def default_players(allowed: Sequence[int], refuse: Callable[[int], Any]) -> int:
    """The table's size where ``--players`` was not typed: ``DEFAULT_PLAYERS`` where the
    ``allowed`` counts hold it, else the one count allowed; several counts, the default not
    among them, are refused in one line that asks for ``--players`` (never typed, so not
    named as if it had been). ``refuse`` is the game's check of a count, whose ValueError
    says in the game's words who plays it ("X is played by 3 or 5 players, got 4")."""
    if DEFAULT_PLAYERS in allowed:
        return DEFAULT_PLAYERS
    if len(allowed) == 1:
        return allowed[0]
    try:
        refuse(DEFAULT_PLAYERS)
        words = f"the game is played by {', '.join(map(str, allowed))} players"
    except ValueError as exc:
        words = str(exc).removesuffix(f", got {DEFAULT_PLAYERS}")
    raise CLIError(f"{words}, not {DEFAULT_PLAYERS} (the default): choose one with --players",
                   usage=True)  # fmt: skip


def players_of(game: Any, players: Any) -> Any:
    """The table sizes of a run of the game plug-in ``game`` (built with its settings):
    ``--players`` as given (``players``; the run checks it), else ``default_players`` for
    the counts the game is played by, asked of the plug-in."""
    if players is not None:
        return players
    lo, hi = game.min_players, game.max_players

    def refuse(k: int) -> None:  # the game's own words where it has them
        check = getattr(game, "check_players", None)
        if check is not None:
            check(k)
        elif not lo <= k <= hi:
            raise ValueError(f"{getattr(game, 'title', 'the game')} is played by {lo} to {hi} "
                             f"players, got {k}")  # fmt: skip

    allowed = []
    for k in range(lo, hi + 1):
        try:
            refuse(k)
        except ValueError:
            continue
        allowed.append(k)
    return default_players(allowed, refuse)


def _targets_set(cls: Any, opts: Any) -> list[tuple[Any, str, int]]:
    """Each game setting given that sets a match target of its own: (its option, its value in
    the game's words, the target it sets). A setting sets one where the game built with it has
    another ``match_target`` than with its defaults, or where that game says its settings
    name one (its ``target_named``: their words for it, today's value typed too, as a
    plug-in reads them; a target typed is a target given). None are found for a game that
    cannot be built: it is refused later, naming what is wrong."""
    found = []
    given = [o for o in getattr(cls, "options", ()) if opts.get(o.name) not in (None, ())]
    try:
        own = cls().match_target if given else None
    except (TypeError, ValueError):
        return found
    for opt in given:
        value = opts[opt.name]
        try:
            game = cls(**{opt.name: value})
        except (TypeError, ValueError):
            continue
        named = getattr(game, "target_named", None)
        if named is not None or game.match_target != own:
            words = named or game.settings_words().get(opt.name, value)
            found.append((opt, str(words), int(game.match_target)))
    return found


def refuse_target_settings(opts: Any, needs: str | None = None,
                           command: str = "the command") -> None:  # fmt: skip
    """Refuse a game setting that sets a match target (``_targets_set``) where no match is
    played: the target ends a match, never a game, so it would change nothing but the rules
    line (as ``leaves play`` refuses it). ``needs`` names the option that plays matches
    (``expert``); where ``command`` has none, it plays single games. A game whose target makes
    matches plays them anyway."""
    from gamekit.errors import ParameterError
    from tournaments.declaration import plural  # start-up: only to refuse

    from .tournament_parts import refused

    cls = _game_class(opts["game_spec"])
    if cls is None or getattr(cls, "target_makes_matches", True):
        return
    unit, match = getattr(cls, "unit", "game"), getattr(cls, "match_unit", "match")
    for opt, value, _ in _targets_set(cls, opts):
        said = f"{{{opt.name}}} {value} ends a {match}, never a {unit}"
        if needs is not None:
            said += f": add {{{needs}}} to play a {match} to it, or leave it out"
        else:
            said += f", and {command} plays single {plural(unit)}: leave it out"
        raise refused(ParameterError(said, opt.name, *([needs] if needs else [])), opts)


def _game_class(spec: str) -> Any:
    from tournaments.games import plugin_class

    try:
        return plugin_class(spec)
    except ValueError:
        return None  # the game itself is refused later, naming what is wrong


def check_record_folder(record: str | None, out: str, where: str = "--record") -> None:
    """``--record FILE`` must go into a folder that exists, or one the run creates as it
    creates ``--out``: that folder, one inside it, or a missing folder above it (``--out
    runs/a --record runs/a.jsonl`` in an empty folder: ``runs`` is made for ``runs/a``
    anyway). Any other folder is not created: a mistyped path would make it wherever it
    points. ``where`` names the record as it was given (a config file's key:
    ``tournament_parts.named``)."""
    from .writable import check_file_writable

    if record is None:
        return
    folder, run = Path(os.path.abspath(record)).parent, Path(os.path.abspath(out))
    made = folder.is_relative_to(run) or (not folder.exists() and run.is_relative_to(folder))
    if not made:
        check_file_writable(record, where)


def check_field(specs: Sequence[str]) -> None:
    """A new run's strategies, counted before any other option is judged: the one line that
    says how many it has, none or one, where it needs two (one only ever plays itself)."""
    if not specs:
        raise CLIError("a tournament needs at least 2 strategies, got 0 (see 'leaves "
                       "strategies')", usage=True)  # fmt: skip
    if len(specs) < 2:
        raise CLIError(f"a tournament needs at least 2 strategies, got 1 ({specs[0]}): "
                       "alone, a strategy only plays itself", usage=True)  # fmt: skip


def check_new_run(opts: dict[str, Any]) -> None:
    """Refuse the options of a new run that would not do what they say (see the module), each
    value named where it was given (``tournament_parts.refused``: a flag, or the config
    file's key)."""
    from gamekit.errors import ParameterError

    from .tournament_parts import refused

    cls = _game_class(opts["game_spec"])
    target, makes_matches = opts["target"], getattr(cls, "target_makes_matches", True)
    title = getattr(cls, "title", opts["game_spec"])
    if target is not None and not opts["expert"] and not makes_matches:
        from tournaments.declaration import plural  # start-up: only to refuse

        unit, match = (plural(getattr(cls, k, w)) for k, w in (("unit", "game"),
                                                               ("match_unit", "match")))  # fmt: skip
        raise refused(ParameterError(f"{{target}} {target} needs {{expert}}: {title} plays "
                                     f"single {unit}, not {match} to a target, without it",
                                     "target", "expert"), opts)  # fmt: skip
    if not opts["expert"]:  # a setting's target: no match to end
        refuse_target_settings(opts, needs="expert")
    for opt, value, named in _targets_set(cls, opts):
        if target is not None and named != int(target):
            raise refused(ParameterError(f"{{target}} {target} and {{{opt.name}}} {value} "
                                         "disagree: give one", "target", opt.name), opts)  # fmt: skip


def check_precision(values: dict[str, Any], given: Any = (), resumed: bool = False) -> None:
    """One-line errors for --precision and --max-games (before anything is played), each
    value named where it was given (``tournament_parts.refused``: a flag, or the config
    file's key); a new run's cap below its first stage refused by ``_cap_below``, a resumed
    run's by ``check_resumed_cap`` (it needs the run's deals, known once the run is built)."""
    import math

    from gamekit.errors import ParameterError

    from . import tournament_parts as parts

    precision, cap = values["precision"], values["max_games"]
    if precision is None:
        if cap is not None:
            raise parts.refused(ParameterError("{max_games} needs {precision}", "max_games",
                                               "precision"), values)  # fmt: skip
        return
    if not (math.isfinite(precision) and precision > 0):
        from reports.numbers import PERCENTAGE_POINTS

        raise CLIError(f"{parts.named(values, 'precision')} must be a positive number of "
                       f"{PERCENTAGE_POINTS}, got {precision:g}", usage=True)  # fmt: skip
    if not values["rows"]:
        kept = "--no-rows"
        if "rows" in values.get("from_config", ()):
            kept = f"rows = false in {values['config']}"
        raise parts.refused(ParameterError("{precision} needs per-game rows (the intervals "
                                           f"count deals): this run keeps none ({kept})",
                                           "precision"), values)  # fmt: skip
    if values["record_sample"] is not None:
        raise parts.refused(ParameterError("{record_sample} is not available with {precision} "
                                           "(the games recorded would depend on where the run "
                                           "stops)", "record_sample", "precision"), values)  # fmt: skip
    from tournaments.schedule import MAX_RUN_GAMES

    if cap is not None and cap > MAX_RUN_GAMES:  # refused before any stage is played
        raise CLIError(f"{parts.named(values, 'max_games')} must be at most 2**32 - 1 (a run's "
                       f"most games), got {cap:,}", usage=True)  # fmt: skip
    if cap is not None and not resumed and cap < values["games"]:  # its first stage, whole
        raise _cap_below(values, cap, values["games"], "games" in given, resumed=False)


def check_resumed_cap(values: Mapping[str, Any], deals: int, per_deal: int, units: str) -> None:
    """Refuse a resume's ``--max-games`` below what the resume plays whatever the cap, before
    anything is played: the games a ``--games`` given grows the run to (``grow_to``), else
    every deal the run already has (``deals`` per table, ``per_deal`` games each). A cap
    counts whole deals, as ``--games`` does (rounded up), so a cap that sufficed when the run
    began or last grew suffices to resume it; a cap of the games it holds resumes it and
    plays nothing more (the run then says the cap stopped it); a run never grown holds the
    cap to its ``--games``, as when it began (``run_state.cap_resumes``, the rule the advice
    on an unfinished run keeps to)."""
    from tournaments.run_state import cap_resumes
    from tournaments.stages import deals_for

    cap = values.get("max_games")
    if values.get("precision") is None or cap is None:
        return
    held, grow = deals * per_deal, values.get("grow_to")
    if grow is not None and grow > held:
        if cap < grow:
            raise _cap_below(values, cap, grow, named=True, resumed=True)
    elif not cap_resumes(cap, values["games"], deals, per_deal):
        if deals > deals_for(values["games"], per_deal):  # grown past its first stage
            raise _below_held(values, cap, deals, per_deal, units)
        raise _cap_below(values, cap, values["games"], named=False, resumed=True)


def room_for_a_deal(deals: int, per_deal: int) -> int:
    """The least ``--max-games`` that lets a precision run of ``deals`` deals (``per_deal``
    games each) play on: the games it holds and one deal's more (``sequential.run_precision``
    grows by whole deals, within the cap)."""
    return (deals + 1) * per_deal


def _below_held(values: Mapping[str, Any], cap: int, deals: int, per_deal: int,
                units: str) -> CLIError:  # fmt: skip
    """The one line refusing a resume's ``cap`` below the games of the run's ``deals`` (of
    ``per_deal`` games each): the caps that resume it (the last deal's games and more, as
    ``--games`` counts them: rounded up to whole deals) and those that leave room for another
    stage (``room_for_a_deal``)."""
    typed = origin(values, "max_games") == FLAG
    held = deals * per_deal
    deal = f" ({per_deal:,} {units} a deal)" if per_deal > 1 else ""
    said = (f"{_where(values, 'max_games', cap, typed)} is below the resumed run's {held:,} "
            f"{units}{deal}: {held - per_deal + 1:,} or more resumes it, "
            f"{room_for_a_deal(deals, per_deal):,} or more leaves room to play on")  # fmt: skip
    return CLIError(said if typed else f"{values.get('config')}: {said}", usage=True)


def _where(values: Mapping[str, Any], option: str, value: int, typed: bool) -> str:
    """``option``'s ``value`` named where it came from: a flag typed (``--max-games``), or a
    config file's key (``max_games``: "max_games in c.toml" where a flag was ``typed`` beside
    it, the line then not starting with the file)."""
    from .tournament_parts import KEY_OF

    if origin(values, option) != FILE:
        return f"--{option.replace('_', '-')} ({value:,})"
    key = KEY_OF.get(option, option)
    return f"{in_file(key, values['config'])} ({value:,})" if typed else f"{key} ({value:,})"


def _cap_below(values: Mapping[str, Any], cap: int, games: int, named: bool,
               resumed: bool) -> CLIError:  # fmt: skip
    """The one line refusing ``cap`` below ``games``, each value named where it came from: a
    flag typed (``--max-games``), a config file's key (``max_games``: "c.toml: max_games"
    where no flag was typed beside it, else "max_games in c.toml"), a value no one gave as
    the default or the resumed run's (``options.taken``)."""
    from .options import taken

    typed = origin(values, "max_games") == FLAG or (named and origin(values, "games") == FLAG)
    whose = "the resumed run's" if resumed else "the default"
    first = _where(values, "games", games, typed) if named else taken("--games", games, whose)
    said = f"{_where(values, 'max_games', cap, typed)} must be at least {first}"
    return CLIError(said if typed else f"{values.get('config')}: {said}", usage=True)
