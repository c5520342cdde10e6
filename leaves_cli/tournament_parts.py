"""The parts of ``leaves tournament`` that are not the command itself: the TOML config file
(``--config``) and its keys, the game plug-in a ``--game`` spec names and its settings, and
how a run holds its folder. Its stop on SIGTERM or SIGHUP is ``worker_stop``'s, and the summary
table printed at the end of a run ``tournament_summary``'s (their names stay importable from
here).

Imports inside functions: start-up. The packages a command runs on load once its options are
checked, so ``--help`` and a bad option answer at once.
"""

from __future__ import annotations

import contextlib
import re
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click

from .errors import CLIError
from .options import Number, either, empty_name, is_empty_name, number_type
from .origins import FILE, FLAG, in_file, origin
from .toml_values import shown_toml
from .tournament_summary import _unfinished_line as _unfinished_line  # where tests read it
from .tournament_summary import intervals, summary_table, units
from .worker_stop import stops_on_term

__all__ = [
    "CONFIG_KEYS", "echo_rules", "game_options", "game_settings", "installed_options", "load_game",
    "intervals", "jobs_line", "playing", "read_config", "stops_on_term", "summary_table",
    "units",
]  # fmt: skip


@contextlib.contextmanager
def playing(out: Path) -> Iterator[None]:
    """Hold the lock of the run in ``out`` while the command writes it, its stages and its
    manifest entries included (``tournaments.storage.run_lock``): where another process
    plays it, a one-line error (exit 1) before anything is said or written."""
    from tournaments.storage import RunLocked, run_lock

    with contextlib.ExitStack() as held:
        try:
            held.enter_context(run_lock(out))
        except RunLocked as exc:
            raise CLIError(str(exc)) from None
        yield


def jobs_line(manifest: dict[str, Any], sessions: int, jobs: int, values: Any = None) -> str:
    """The line that says a command's run played with fewer players than ``--jobs`` asked,
    from what each session it added (those after the first ``sessions``) recorded of its
    players (``tournaments.local.imap_local``), and why (``_fewer``). "" when any of them
    played with as many as asked (or cannot tell), none played a part, or --jobs is -1 (one
    a core: no number asked). ``values`` (the command's merged options) names a config
    file's ``jobs`` by its key there."""
    records = [s.get("players") for s in manifest.get("sessions", [])[sessions:]]
    found = [_fewer(p, jobs) for p in records if isinstance(p, dict) and p] if jobs > 0 else []
    played = [f for f in found if f is not None and f[0]]
    if not played or None in found:
        return ""
    most, upto, why = max(played, key=lambda f: f[0])
    upto = upto or len({f[0] for f in played}) > 1
    players = f"{'at most ' * upto}{most} player{'s' * (most != 1)}"
    said = f"--jobs {jobs}"
    if values is not None and origin(values, "jobs") == FILE:
        said = in_file(f"jobs {jobs}", values["config"])
    return f"{said}: {players} played ({why})"


def _fewer(p: dict[str, Any], jobs: int) -> tuple[int, bool, str] | None:
    """(players that played a part, whether that is only a bound, why fewer than ``jobs``) from
    a session's record ``p``, (0, ...) where none played one; None where as many as asked
    played or it cannot tell. A record without ``played`` (an earlier version's) bounds it by
    its tasks, an earlier local Dask cluster's by its cap; a local Dask cluster's names the
    workers it started (``dask_workers``), none this process; one on ``--scheduler``, none."""
    from tournaments.local import PLAYERS_PER_CORE, n_workers  # start-up: only to say it

    if not all(type(v) is int for v in p.values()):  # a record edited by hand: cannot tell
        return None
    cap, workers, threads = p.get("jobs_capped_to"), p.get("workers", 0), p.get("threads", 0)
    started = 1 + workers + threads if "workers" in p else p.get("dask_workers", cap)
    n = p.get("played", cap)
    if "played" not in p and "workers" in p:
        n = int(p.get("driver_tasks", 0) > 0) + min(workers, p.get("worker_tasks", 0)) + min(
            threads, p.get("thread_tasks", 0))  # fmt: skip
    if n is None or started is None or n >= jobs:
        return None
    one, many = ("worker process", "worker processes") if workers else ("thread", "threads")
    others = started - 1  # the players beside this process
    if "dask_workers" in p:  # this process plays none of a Dask cluster's parts
        one, many, others = "Dask worker", "Dask workers", started
    bound = "played" not in p and "workers" in p and n > 1  # a Dask cluster's cap: as said
    if n < started:  # this process too, where its workers took every part as it readied
        lazy = started - n - (driver_idle := "workers" in p and p.get("driver_tasks") == 0)
        some = f"{'at least ' * bound}{lazy} of the {others} {many}" if others > 1 else f"the {one}"
        idle = ["this process"] * driver_idle + [f"{some} started"] * bool(lazy)
        why = f"{' and '.join(idle)} found no part left to play"
    elif started == 1 and cap != 1:
        why = "this process alone: worker processes would not pay for so little work"
    elif n == n_workers(jobs) + 1:
        why = f"at most {PLAYERS_PER_CORE} a core"
    else:
        why = "a player for each part of the run left to play"
    return n, bound, why


# config-file key -> (click parameter name, expected type)
CONFIG_KEYS: dict[str, tuple[str, tuple[type, ...]]] = {
    "strategies": ("specs", (list,)),
    "players": ("players", (int, str, list)),
    "games": ("games", (int,)),
    "seed": ("seed", (int,)),
    "jobs": ("jobs", (int,)),
    "out": ("out", (str,)),
    "resume": ("resume", (bool,)),
    "expert": ("expert", (bool,)),
    "target": ("target", (int,)),
    "repeats": ("repeats", (bool,)),
    "seating": ("seating", (str,)),
    "rows": ("rows", (bool,)),
    "record": ("record", (str,)),
    "record_sample": ("record_sample", (int,)),
    "backend": ("backend", (str,)),
    "scheduler": ("scheduler", (str,)),
    "chunk_size": ("chunk_size", (int,)),
    "game": ("game_spec", (str,)),
    "load": ("load", (list,)),
    "rounds": ("rounds", (int,)),
    "precision": ("precision", (int, float)),
    "max_games": ("max_games", (int,)),
    "progress": ("progress", (bool,)),
}

REFUSED: dict[str, str] = {
    "config": "a config file names no other config file: give its keys in this one",
    "add": "it would grow the run again each time the file is read: games = N with resume = "
    "true grows it to N (or type --add GAMES)",
}
"""The options a config file cannot give, and why (one line, exit 2); the others are keys."""


CHOICES: dict[str, tuple[str, ...]] = {
    "seating": ("balanced", "all", "rotations"),
    "backend": ("loky", "dask"),
}
"""The words an option takes, as a flag (``OneOf``) and as a config file's key alike."""

KEY_OF = {name: key for key, (name, _) in CONFIG_KEYS.items()}
"""An option's key in a config file, where it is not the option's own name (``specs``:
``strategies``); a game's setting has its own name there."""

NAMES = {"out": "directory", "record": "file", "load": "file"}
"""Config-file keys that name a file or folder, and what they name: none may be empty."""


def _option_keys() -> dict[str, tuple[str, tuple[type, ...]]]:
    """Config-file keys of the installed games' settings (a float setting takes an int too)."""
    return {
        o.name: (o.name, (o.type, int) if o.type is float else (o.type,))
        for o in installed_options()
    }


def read_config(path: str) -> dict[str, Any]:
    """Options from a TOML file (top level or a ``[tournament]`` table), keyed like the CLI."""
    import tomllib

    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except FileNotFoundError:
        raise CLIError(f"--config: no such file: {path}", usage=True) from None
    except UnicodeDecodeError as exc:  # TOML is UTF-8 text
        raise CLIError(f"--config: {path} is not valid TOML: not UTF-8 text (byte "
                       f"{exc.start + 1:,} cannot be read)", usage=True) from None  # fmt: skip
    except tomllib.TOMLDecodeError as exc:
        raise CLIError(f"--config: {path} is not valid TOML: {exc}", usage=True) from None
    except ValueError as exc:  # Python's own: a whole number past the digits int() reads
        raise CLIError(_unread_number(path, exc), usage=True) from None
    settings = {o.name: o for o in installed_options() if getattr(o, "from_config", None)}
    data = _tournament_table(data, path, settings)
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key in settings:
            try:
                out[key] = settings[key].from_config(value)
            except (ValueError, TypeError) as exc:
                raise CLIError(f"--config: {path}: [{key}]: {exc}", usage=True) from None
            continue
        keys = _all_keys()
        if key not in keys:
            raise _unknown_key(key, path)
        name, types = keys[key]
        if not isinstance(value, types) or (bool in (type(value),) and bool not in types):
            raise CLIError(f"{path}: {key} takes {_kinds(types)}, got {shown_toml(value)}",
                           usage=True)  # fmt: skip
        if key in CHOICES and value not in CHOICES[key]:
            raise CLIError(f"{path}: {key} takes {either(CHOICES[key])}, got {shown_toml(value)}",
                           usage=True)  # fmt: skip
        if key in NAMES and any(map(is_empty_name, value if isinstance(value, list) else [value])):
            raise CLIError(empty_name(f"--config: {key} in {path}", NAMES[key]), usage=True)
        if key in ("strategies", "load"):
            value = _texts(value, key, path)
        if key == "players" and isinstance(value, list):
            value = ",".join(str(v) for v in value)
        out[name] = value
    return out


def _texts(items: list[Any], key: str, path: str) -> tuple[str, ...]:
    """A config file's list of strategy specs or file names, each text: another item (``1``,
    ``["greedy"]``) refused in one line naming the key and file, not written out as a spec
    or a file no one named ("unknown strategy '1'")."""
    for item in items:
        if not isinstance(item, str):
            what = "strategy specs such as 'greedy'" if key == "strategies" else "file names"
            raise CLIError(f"{in_file(key, path)} lists {shown_toml(item)}: give {what}, each in "
                           "quotes", usage=True)  # fmt: skip
    return tuple(items)


def _all_keys() -> dict[str, tuple[str, tuple[type, ...]]]:
    """Every key ``[tournament]`` takes: the command's options and the games' settings."""
    return {**CONFIG_KEYS, **_option_keys()}


def _unknown_key(key: str, path: str) -> CLIError:
    """The one line (exit 2) for a key no option has, or one a file cannot give (``REFUSED``)."""
    if key in REFUSED:
        return CLIError(f"{path}: {key} cannot be given in a config file: {REFUSED[key]}", True)
    known = ", ".join(sorted(_all_keys()))
    return CLIError(f"--config: unknown key {key!r} in {path} (known: {known})", usage=True)


def _tournament_table(data: dict[str, Any], path: str, settings: Any) -> dict[str, Any]:
    """The keys a config file gives: its top level, or where it has a ``[tournament]`` table,
    that table and the tables of game ``settings`` beside it (``[rules]``). Anything else
    beside ``[tournament]`` is refused in one line (exit 2), not dropped: a ``seed`` above the
    table, or a ``[rule]`` typed for ``[rules]``, would otherwise run with a fresh seed or
    today's rules; so is a setting given both beside the table and in it."""
    if "tournament" not in data:
        return data
    table = data["tournament"]
    if not isinstance(table, dict):
        raise CLIError(f"{path}: tournament must be the table [tournament], got "
                       f"{shown_toml(table)}", usage=True)  # fmt: skip
    for key, value in data.items():
        if key == "tournament" or key in settings:
            continue
        if isinstance(value, dict):
            known = ", ".join(["tournament", *sorted(settings)])
            raise CLIError(f"{path}: unknown table [{key}] (known: {known})", usage=True)
        if key not in _all_keys():
            raise _unknown_key(key, path)
        raise CLIError(f"{path}: {key} is outside [tournament]: move it under [tournament]",
                       usage=True)  # fmt: skip
    for key in settings:
        if key in data and key in table:
            raise CLIError(f"{path}: {key} is given twice, as [{key}] and [tournament.{key}]: "
                           "keep one", usage=True)  # fmt: skip
    return {**{k: data[k] for k in settings if k in data}, **table}


def _unread_number(path: str, exc: ValueError) -> str:
    """The one line naming ``path`` (and the line and key holding it) where the TOML parser
    failed on a whole number past the digits Python reads (4,300 unless set otherwise), its
    own line naming neither; ``exc`` itself where no such number is found."""
    limit = sys.get_int_max_str_digits()
    with open(path, encoding="utf-8") as f:
        found = _long_whole(f.read(), limit) if limit else None
    if found is None:
        return f"--config: {path} is not valid TOML: {exc}"
    digits, line, key = found
    where = f"{key} (line {line})" if key else f"line {line}"
    return (f"--config: {path}: {where} holds a whole number of {digits:,} digits, past the "
            f"{limit:,} Python reads")  # fmt: skip


_TOML_PIECE = re.compile(
    r"(?P<skip>#[^\n]*"  # a comment
    r'|"""(?:\\.|[^\\])*?"{3,5}|' + r"'''.*?'{3,5}"  # a string of lines
    r'|"(?:\\.|[^"\\\n])*"|' + r"'[^'\n]*'"  # a string
    r"|0[xob][0-9A-Fa-f_]+|[A-Za-z_][\w-]*)"  # a number not in decimals; a word (true, inf)
    r"|(?P<number>[0-9][0-9_]*)(?P<fraction>[.eE][0-9_.eE+-]*)?"  # a fraction: a float
    r"|(?P<mark>[\n=\[\]{},])|.",
    re.DOTALL,
)
"""A TOML file's pieces, as far as finding a whole number in it takes: what holds none (a
comment, a string, a number not in decimals, a word), a decimal number (with a fraction or an
exponent: a float), a mark that starts or ends a key or a value, any other character."""


def _long_whole(text: str, limit: int) -> tuple[int, int, str | None] | None:
    """The first whole number of more than ``limit`` digits in a value of TOML ``text``, as
    (digits, line, the key whose ``=`` stands on that line, else None): the number the parser
    stopped at, never a run of digits in a string, a comment or a key before it."""
    key, key_at, start, in_value, opened = None, 0, 0, False, []
    for m in _TOML_PIECE.finditer(text):
        mark, number = m.group("mark"), m.group("number")
        if number and in_value and not m.group("fraction"):
            digits = len(number.replace("_", ""))
            if digits > limit:
                line = text.count("\n", 0, m.start()) + 1
                return digits, line, key if text.count("\n", 0, key_at) + 1 == line else None
        elif mark == "=":
            key, key_at, in_value = text[start : m.start()].strip(), m.start(), True
        elif mark == "[" and in_value:  # a list (else a table's name)
            opened.append(mark)
        elif mark in ("]", "}") and opened:  # back in the value the list or table is
            opened.pop()
            in_value = True
        elif mark == "{" or (mark == "," and opened[-1:] == ["{"]) or mark == "\n":
            opened += ["{"] if mark == "{" else []
            start, in_value = m.end(), opened[-1:] == ["["]  # a key may start here
    return None


KINDS = {int: "a whole number", float: "a number", str: "text", bool: "true or false",
         list: "a list"}  # fmt: skip
"""A config file's value of each Python type, in words."""


def _kinds(types: tuple[type, ...]) -> str:
    """What a config key takes, in words: "a whole number", "a number" (a whole one too)."""
    words = [KINDS[t] for t in types if not (t is int and float in types)]
    return either(words)


def named(values: Any, option: str) -> str:
    """How a one-line error names ``option`` (its name in ``values``, the command's merged
    options): by its flag, or where the config file alone gave it, by that file and its key
    there ("c.toml: jobs"), not by a flag never typed."""
    if origin(values, option) == FILE:
        return f"{values['config']}: {KEY_OF.get(option, option)}"
    return "--" + option.replace("_", "-")


def refused(exc: BaseException, values: Any) -> CLIError:
    """The one line for a library error: a ``ParameterError`` whose parameters came from the
    config file (``values``, the command's merged options: its ``config`` and
    ``from_config``) names them by their keys there, not by flags never typed: after the
    file where no flag beside them was typed ("c.toml: games must be at least 1, got 0"),
    else each where it came from ("--target 5 and rules in c.toml expert_target=30
    disagree"); any other error as ``CLIError.of``."""
    from gamekit.errors import ParameterError

    from .flags import flag

    options = {p: flag(p).removeprefix("--").replace("-", "_") for p in getattr(exc, "params", ())}
    keys = {p: KEY_OF.get(o, o) for p, o in options.items() if origin(values, o) == FILE}
    if not isinstance(exc, ParameterError) or not keys:
        return CLIError.of(exc, usage=True)
    usage, config = getattr(exc, "usage_error", True), values["config"]
    if FLAG not in {origin(values, o) for o in options.values()}:  # the file's alone: after it
        return CLIError(f"{config}: {exc.worded({p: keys.get(p, flag(p)) for p in exc.params})}",
                        usage=usage)  # fmt: skip
    filed = {p: in_file(key, config) for p, key in keys.items()}
    return CLIError(exc.worded({p: filed.get(p, flag(p)) for p in exc.params}), usage=usage)


def installed_options() -> list[Any]:
    """The settings every installed game declares (``GameOption``), each name once; one
    whose flag or name is a command's own is left out (``_left_out``)."""
    from tournaments.games import game_class, game_names

    seen: dict[str, Any] = {}
    for name in game_names():
        try:
            cls = game_class(name)
        except ValueError:  # a broken plug-in: its options are not offered
            continue
        for opt in getattr(cls, "options", ()):
            if not _left_out(name, opt):
                seen.setdefault(opt.name, opt)
    return list(seen.values())


_SAID_LEFT_OUT: set[tuple[str, str]] = set()
"""The (game, option) pairs ``_left_out`` warned of: once a process, not once a command."""


def _left_out(game: str, option: Any) -> bool:
    """Whether the command line leaves out the option ``option`` of the installed game
    ``game``: its flag or its name is a command's own (``option_clash``), which it would
    shadow for every game (``--seed`` given twice, a seed taken as the game's setting). Said
    in one warning, once."""
    from tournaments.declaration_check import option_clash  # start-up: with the games' options

    clash = option_clash(option)
    if clash is None:
        return False
    if (game, option.name) not in _SAID_LEFT_OUT:
        _SAID_LEFT_OUT.add((game, option.name))
        warnings.warn(f"game {game}: its option {option.name!r} is left out of the command "
                      f"line: {clash} (check_game fails it; rename it)", stacklevel=3)  # fmt: skip
    return True


class TypedNumber(Number):
    """A number (``Number``) handed on in the kind it was typed: a whole one (``-1``) as an
    int, so a check that refuses it says ``got -1`` as the user wrote it, not Python's
    ``-1.0``; any other as a float."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        try:
            return int(str(value).strip())
        except ValueError:
            return number


def setting_type(kind: Any) -> Any:
    """The click type of a game setting of Python type ``kind`` (a fraction: ``TypedNumber``)."""
    return TypedNumber() if kind is float else number_type(kind)


def game_options(command: Any) -> Any:
    """A click option for each installed game's setting (default None: the game's own)."""
    from tournaments.games import setting_note  # start-up: tournaments.games is loaded here too

    for opt in reversed(installed_options()):
        many, kind = getattr(opt, "multiple", False), setting_type(opt.type)
        command = click.option(opt.flag, opt.name, type=kind, default=None, multiple=many,
                               metavar=opt.metavar, help=opt.help + setting_note(opt.name))(command)  # fmt: skip
    return command


def game_settings(opts: dict[str, Any]) -> dict[str, Any]:
    """The game settings given among the command's options (those not None, and a repeatable
    one given at least once)."""
    return {o.name: opts[o.name] for o in installed_options() if opts.get(o.name) not in (None, ())}


def load_game(spec: str, settings: dict[str, Any], stored: bool = False,
              named_in: str | None = None, values: Any = None) -> Any:  # fmt: skip
    """The game a ``--game`` spec names (an installed game's id, a former one, or
    ``module:Class``) built with ``settings``: each must be an option the game declares,
    unless they are a run's ``stored`` settings (its ``config``, which the game wrote).
    ``named_in`` (a file's part, "the record at games.jsonl, line 3") names where the spec
    was read instead, when no ``--game`` gave it: a game that cannot be loaded is then that
    file's fault (exit 1), not the command line's. ``values`` (the command's merged options)
    names a setting its config file gave by its key there (``refused``, ``named``): one the
    game does not declare included ("c.toml: turn_limit is not a Toy option"); a new
    run's ``target`` there is checked by the game's ``check_target``, where it has one (a
    target no match can reach, refused before anything is played)."""
    from tournaments.games import plugin_class

    try:
        cls = plugin_class(spec)
    except ValueError as exc:
        if named_in is not None:
            raise CLIError(f"{named_in} names a game this installation cannot load: {exc}"
                           ) from None  # fmt: skip
        raise CLIError(f"{_game_named(values)}: {exc}", usage=True) from None
    declared = {o.name for o in getattr(cls, "options", ())}
    for name in () if stored else settings:
        if name not in declared:  # named as its flag, or its key where the config file set it
            said = named(values or {}, name)
            raise CLIError(f"{said} is not a {getattr(cls, 'title', spec)} option", usage=True)
    target = None if stored or values is None else values.get("target")
    try:
        game = cls(**settings)
        if target is not None and hasattr(game, "check_target"):  # a game's own bound on it
            game.check_target(target)
    except (TypeError, ValueError) as exc:
        raise refused(exc, values or {}) from None
    _check_declared(game, spec, named_in, _game_named(values))
    return game


def _game_named(values: Any) -> str:
    """How a line names the game's spec: ``--game``, or the config file's ``game`` key."""
    return named(values, "game_spec") if origin(values or {}, "game_spec") == FILE else "--game"


def _check_declared(game: Any, spec: str, named_in: str | None, flag: str = "--game") -> None:
    """Refuse ``game`` whose declaration a run cannot use, as ``load_game`` refuses a game that
    cannot load (where the spec came from names the fault): before a command announces or
    creates anything."""
    from tournaments.declaration_check import check_protocol  # start-up: with the game

    try:
        check_protocol(game)
    except ValueError as exc:
        said = f"game {spec!r}: {exc}"
        if named_in is not None:
            raise CLIError(f"{named_in} names a game this installation cannot load: {said}"
                           ) from None  # fmt: skip
        raise CLIError(f"{flag}: {said}", usage=True) from None


def echo_rules(game: Any) -> None:
    """Say on stderr which rules a run plays under, when a game's rules are not today's."""
    rules = getattr(game, "rules", None)
    if rules is not None and not rules.is_default:
        click.echo(f"{game.title} under the rules {rules}", err=True)
