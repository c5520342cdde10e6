"""``leaves strategies``: the table of registered strategies, and loading users' strategy files.

Imports inside functions: start-up. The packages a command runs on load once its options are
checked, so ``--help`` and a bad option answer at once.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from .errors import CLIError
from .options import game_option, load_option
from .origins import in_file

if TYPE_CHECKING:
    from tournaments.game import StrategyInfo


def load_files(paths: Iterable[str], need_strategy: bool = False,
               config: str | None = None) -> list[tuple[str, Any]]:  # fmt: skip
    """Import each Python file so the Strategy subclasses it defines register themselves;
    return each path as given with its module. ``config``: the config file whose ``load``
    key gave the paths, which each line names instead of a ``--load`` never typed (a
    missing file's line says where its path is read from: the current folder, not the
    file's).

    Uses the registry's own file loader (``strategies.user_code.load_file``), so a later
    ``file.py:Class`` spec of the same file finds the already loaded module. A missing file,
    an error inside it or its exit (``sys.exit``) is a one-line CLIError in the loader's
    words, which a spec's file says too; with ``need_strategy`` (``leaves strategies``, which
    loads a file only to list what it adds) so is a file that defines no strategy class,
    which would list nothing of its own.
    """
    paths = list(paths)
    if not paths:
        return []
    from strategies.user_code import load_file  # start-up: the command line imports no strategy

    said = "--load" if config is None else in_file("load", config)
    loaded = []
    for raw in paths:
        path = Path(raw)
        if not path.is_file():
            raise CLIError(f"{said}: no such file: {raw}{_read_from(config, path)}", usage=True)
        if path.suffix != ".py":
            raise CLIError(f"{said}: {raw} is not a Python (.py) file", usage=True)
        try:
            module = load_file(str(path))
        except ValueError as exc:  # bad input, in a spec's words: one line, an exit too
            raise CLIError(f"{said}: {exc}", usage=True) from exc
        if need_strategy and not _defines_strategy(module):
            raise CLIError(f"{said}: {raw} defines no strategy (no subclass of a game's "
                           "Strategy class): nothing to list from it", usage=True)  # fmt: skip
        loaded.append((raw, module))
    return loaded


def _read_from(config: str | None, path: Path) -> str:
    """Where a config file's relative ``path`` was looked for, said beside its refusal: the
    current folder, which a reader of the file may take for the file's own."""
    folder = None if config is None else Path(config).parent
    if folder is None or path.is_absolute() or folder.absolute() == Path.cwd():
        return ""
    return f" (a config file's paths are read from the current folder, not from {folder})"


def _defines_strategy(module: Any) -> bool:
    """Does ``module`` define (not just import) a strategy class?"""
    return bool(_own_classes(module))


def _own_classes(module: Any) -> dict[str, type]:
    """The strategy classes ``module`` defines (not those it imports), by their names in it."""
    from strategies.base import Player

    return {k: v for k, v in vars(module).items() if isinstance(v, type)
            and issubclass(v, Player) and v.__module__ == module.__name__}  # fmt: skip


def file_rows(
    loaded: Sequence[tuple[str, Any]], filters: dict[str, Any], game: Any
) -> list[tuple[str, str, dict, dict]]:
    """The rows ``strategy_rows`` leaves out: each loaded file's strategy classes of ``game``
    (a loaded game, or its name: the registry's key, not a ``--game`` spec) that registered
    no name, listed by the spec that uses them (``file.py:Class``), that match ``filters``.
    A class a use would refuse (``_cannot_play``) is listed as an entry point that cannot
    load is: tagged ``(cannot play: WHY)``, with no classifier or parameters; with
    ``filters``, warned about and left out (``matching``). A file with no strategy of
    ``game`` at all is a usage error (it would list nothing)."""
    from .tournament_parts import load_game  # start-up: as in strategy_rows

    plugin = load_game(game, {}) if isinstance(game, str) else game
    rows = []
    listed: set[int] = set()
    for raw, module in loaded:
        for key, cls in _game_classes(raw, module, plugin.name).items():
            if id(cls) not in listed:  # once, however often its file is given
                listed.add(id(cls))
                rows.append(_file_row(f"{raw}:{key}", cls, plugin))
    return matching(rows, filters)


def _game_classes(raw: str, module: Any, game: str) -> dict[str, type]:
    """The unregistered strategy classes of ``game`` the file ``raw`` defines (a registered
    one has a row of its own); a usage error where it defines none of ``game`` at all."""
    from strategies import registry  # start-up: loaded with the strategies listed

    classes = _own_classes(module)
    mine = {k: c for k, c in classes.items() if getattr(c, "game", None) == game}
    if not mine:  # another game's, or a bare Player that says no game
        theirs = ", ".join(f"{k} is a {registry.title(c.game)} strategy" if hasattr(c, "game")
                           else f"{k} says no game" for k, c in classes.items())  # fmt: skip
        games = sorted({c.game for c in classes.values() if hasattr(c, "game")})
        todo = (f"list it with --game {' or --game '.join(games)}" if games
                else "subclass a game's Strategy class")  # fmt: skip
        raise CLIError(f"--load: {raw} defines no {registry.title(game)} strategy "
                       f"({theirs}): {todo}", usage=True)  # fmt: skip
    registered = set(map(id, registry._registry(game).values()))
    return {k: c for k, c in mine.items() if id(c) not in registered}


CANNOT_PLAY = "(cannot play: "
"""How the description of a listed file's class that no use would play begins: the line a
use refuses it with follows, then ')' (an entry point that cannot load: '(cannot load: ')."""


def _file_row(spec: str, cls: type, plugin: Any) -> tuple[str, str, dict, dict]:
    """The row of the file's class ``cls``, used as ``spec``: tagged where it cannot play."""
    from tournaments.game import StrategyInfo  # start-up: loaded with the strategies listed

    why = _cannot_play(spec, cls, plugin)
    if why is not None:
        return (spec, f"{CANNOT_PLAY}{why})", {}, {})
    return _row(StrategyInfo.of(spec, cls))


def _cannot_play(spec: str, cls: type, plugin: Any) -> str | None:
    """Why a use of ``spec`` (the loaded class ``cls``) is refused, in the use's words; None
    where it plays. That is what a run asks before its first game: the game's ``resolve`` of
    the spec (the class built with its defaults, then refused where it cannot play: a
    constructor that raises, a built-in's subclass that skips ``super().__init__``, no way to
    decide, a game's own check in its ``lookup``). A class with a parameter that has no
    default is not built (a spec that gives it would be, and would play): the registry's
    refusal of the class alone (``cannot_play``)."""
    from strategies import registry  # start-up: loaded with the strategies listed

    if any(p.default is p.empty for p in cls._param_signature.parameters.values()):
        return registry.refusal(cls, cls._display_name())
    try:
        plugin.resolve(spec)
    except ValueError as exc:  # a constructor that exits among them (strategies.building)
        return str(exc)
    return None


def matching(
    rows: list[tuple[str, str, dict, dict]], filters: dict[str, Any]
) -> list[tuple[str, str, dict, dict]]:
    """The ``file_rows`` whose classifier has every key and value of ``filters`` (all where
    none): with ``filters``, a class that cannot play is left out with a warning naming its
    spec, as the registry leaves out an entry point that cannot load (``registry.filtered``)."""
    if not filters:
        return rows
    kept = []
    for row in rows:
        name, description, classifier, _ = row
        if description.startswith(CANNOT_PLAY):
            warnings.warn(f"{name}: {description[len(CANNOT_PLAY) : -1]}", stacklevel=2)
        elif all(classifier.get(k) == v for k, v in filters.items()):
            kept.append(row)
    return kept


def _row(info: StrategyInfo) -> tuple[str, str, dict, dict]:
    """A ``tournaments.game.StrategyInfo`` as the table's row."""
    return (info.name, info.description, info.classifier, info.params)


def refuse_empty_items(values: Iterable[str], flag: str = "--against") -> None:
    """A usage error for a comma-separated list of specs with an empty item ('taker,,greedy',
    'taker,', or nothing at all): ``split_specs`` would drop it silently, and a typo would
    then play a field other than the one meant."""
    for value in values:
        from strategies.spec_values import top_level_pieces  # start-up: numpy on first use

        pieces = top_level_pieces(value)
        if not value.strip():  # '--against "$FIELD"' with FIELD unset: no field, not the default
            raise CLIError(f"{flag} {value!r} names no strategy", usage=True)
        if any(not p.strip() for p in pieces):
            raise CLIError(
                f"{flag} {value!r} has an empty item (two commas in a row, or one at an end): "
                "name a strategy between every two commas",
                usage=True,
            )


def parse_filters(items: Sequence[str]) -> dict[str, Any]:
    """``key=value`` pairs to a classifier filter (values read like strategy parameters)."""
    from strategies.spec_values import parse_value

    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise CLIError(
                f"--filter wants key=value (e.g. stochastic=false), got {item!r}", usage=True
            )
        out[key] = parse_value(value.strip())
    return out


def check_filter_values(filters: Sequence[str], rows: list[tuple[str, str, dict, dict]]) -> None:
    """Refuse a value no classifier can have: a flag (every strategy's value true or false)
    filtered by anything but true or false would match nothing, silently. ``rows``: every
    registered strategy's, as ``strategy_rows`` gives them unfiltered."""
    from strategies.registry import is_flag  # start-up: loaded with the strategies listed
    from strategies.spec_values import FLAG_WORDS

    for item in filters:
        key, value = next(iter(parse_filters([item]).items()))
        if is_flag(key, (c for _, _, c, _ in rows)) and not isinstance(value, bool):
            given = item.partition("=")[2].strip()
            raise CLIError(f"--filter {item.strip()}: {given!r} is not a value of {key}, which "
                           f"is true or false ({FLAG_WORDS})", usage=True)  # fmt: skip


def no_match_line(filters: Sequence[str], every: list[tuple[str, str, dict, dict]],
                  title: str) -> str:  # fmt: skip
    """The line for ``filters`` that no strategy of the game ``title`` matches (``every``:
    its rows unfiltered): where one key alone rules every strategy out, what they all have,
    said of those that can play (one tagged ``CANNOT_PLAY`` shows no classifier, not none)."""
    if not filters:
        return "no strategies are registered"
    line = f"no strategy of {title} matches {', '.join(f.strip() for f in filters)}"
    playable = [c for _, d, c, _ in every if not d.startswith(CANNOT_PLAY)]  # tagged: none
    some = f"{len(playable)} strategies{' that can play' * (len(playable) < len(every))}"
    for key, value in parse_filters(filters).items():
        if not any(key in c for c in playable):  # another game's key: none has it
            return f"{line}: none of its {some} has {key} in its classifier"
        seen = {repr(c.get(key)): c.get(key) for c in playable}
        if len(seen) == 1 and value not in seen.values():
            (only,) = seen.values()
            shown = str(only).lower() if isinstance(only, bool) else only
            return f"{line}: every one of its {some} has {key}={shown}"
    return line


def classifier_text(classifier: dict[str, Any]) -> str:
    """True flags by name ('compiled, stochastic'), other values as key=value; '-' if none."""
    parts = []
    for key, value in sorted(classifier.items()):
        if value is True:
            parts.append(key)
        elif value not in (False, None, ""):
            parts.append(f"{key}={value}")
    return ", ".join(parts) or "-"


def strategy_rows(
    filters: dict[str, Any],
    game: Any = "leaves",
    own_keys: Iterable[str] = (),
    refused: dict[str, str] | None = None,
) -> list[tuple[str, str, dict, dict]]:
    """(name, description, classifier, default params) of each registered strategy of ``game``
    (a ``--game`` spec, or the game it loaded: a ``module:Class`` loads once) that matches
    ``filters``. ``own_keys``: classifier keys of the loaded files' unregistered classes,
    which the registry does not know (not unknown keys: a registered strategy matches one
    only by having it). ``refused``: ``unplayable``'s answer for the game (None: asked here);
    each of them is tagged as a file's class a use refuses is (``file_rows``), and with
    ``filters`` warned about and left out (``matching``)."""
    from .tournament_parts import load_game

    plugin = load_game(game, {}) if isinstance(game, str) else game
    refused = unplayable(plugin) if refused is None else refused
    own = {k: v for k, v in filters.items() if k in set(own_keys)}
    try:
        infos = plugin.strategy_infos({k: v for k, v in filters.items() if k not in own})
    except ValueError as exc:
        raise CLIError(f"--filter: {exc}", usage=True) from exc
    rows = [_row(i) for i in infos if all(i.classifier.get(k) == v for k, v in own.items())]
    tagged = {n: (n, f"{CANNOT_PLAY}{why})", {}, {}) for n, why in refused.items()}
    if filters:  # each warned about, none kept: as a file's class is (matching)
        matching(list(tagged.values()), filters)
    return [tagged.get(row[0], row) for row in rows if not filters or row[0] not in tagged]


def unplayable(plugin: Any) -> dict[str, str]:
    """Why a use would refuse each registered strategy of ``plugin``'s game that it would
    refuse, by name, asked as ``file_rows`` asks of a file's class (``_cannot_play``: built
    with its defaults, as a run builds it before its first game): a class registered in
    Python, by a loaded file's ``name`` or through the game's entry-point group, whose
    constructor raises or that the game's own check refuses, which would otherwise list as
    playable and forfeit every game it played. The game's own strategies (those of the
    package that declares its registry) are trusted: its tests build each, and building
    them would slow every listing. An entry point that cannot load is left to its own tag."""
    from strategies import registry  # start-up: loaded with the strategies listed

    game = plugin.name
    said = {}
    for name in registry.names(game):
        try:
            cls = registry.get_class(name, game)
        except ValueError:  # listed "(cannot load: ...)" by the game's strategy_infos
            continue
        if not _shipped(cls, game):
            why = _cannot_play(name, cls, plugin)
            if why is not None:
                said[name] = why
    return said


def _shipped(cls: type, game: str) -> bool:
    """Is ``cls`` one of ``game``'s own strategies: defined in the package of the module that
    declares its registry (none where its plug-in declares it: every class is then asked)?"""
    from strategies import registry  # start-up: loaded with the strategies listed

    module = registry.players_module(game)
    home = None if module is None else module.__name__
    return home is not None and (cls.__module__ == home or cls.__module__.startswith(home + "."))


@click.command(name="strategies")
@click.option(
    "--filter",
    "filters",
    multiple=True,
    metavar="KEY=VALUE",
    help="Keep strategies whose classifier has KEY=VALUE (repeatable, all must match).",
)
@load_option
@click.option("--names", "names_only", is_flag=True, help="Print only the names, one a line.")
@game_option(
    "Whose strategies: an installed game's id ({games}) or module:Class (a name means one "
    "thing per game).",
    name="game",
)
def strategies(
    filters: tuple[str, ...], load: tuple[str, ...], names_only: bool, game: str
) -> None:
    """List registered strategies with their descriptions, classifiers and parameters.

    Built-in strategies, those installed through the game's entry-point group (the note under
    its table names it) and those defined in files given with --load all appear.

    \b
    Examples:
      leaves strategies
      leaves strategies --filter stochastic=false --filter search=false
      leaves strategies --load my_bot.py
      leaves strategies --names
      leaves strategies --game GAME       # another installed game's
    """
    from rich.text import Text

    from tournaments.games import DEFAULT_GAME

    from .console import make_console
    from .strategies_table import StrategiesTable
    from .tournament_parts import load_game

    plugin = load_game(game, {})
    group = _group(plugin)
    loaded = load_files(load, need_strategy=True)
    wanted = parse_filters(filters)
    every_file = file_rows(loaded, {}, plugin)  # each class built once, as a use builds it
    mine = matching(every_file, wanted)  # warned of before the registry's refusals
    own_keys = {k for _, _, c, _ in every_file for k in c}
    refused = unplayable(plugin)  # each registered class a use would build, built once
    every = strategy_rows({}, plugin, refused=refused)
    check_filter_values(filters, every)  # in the command's words, before the registry's check
    rows = strategy_rows(wanted, plugin, own_keys, refused) + mine
    if not rows:  # said in words, with --names too: an empty list would look like success
        raise CLIError(no_match_line(filters, every + every_file, plugin.title))
    console = make_console()
    if names_only:
        for name, *_ in rows:
            click.echo(name)
        return
    default = plugin.named(DEFAULT_GAME)  # the default game's table needs no title of its own
    title = "Registered strategies" + ("" if default else f" ({plugin.title})")
    table = StrategiesTable(title, [(n, classifier_text(c), d, p) for n, d, c, p in rows])
    console.print(table)
    console.print(
        Text(
            "Use a strategy by name, with parameters as name:key=value,... "
            f"(e.g. '{plugin.spec_example}'), or as file.py:ClassName. Packages add "
            f"strategies through the entry-point group '{group}'.",
            style="dim",
        )
    )


def _group(plugin: Any) -> str:
    """The entry-point group of the strategy registry of ``plugin``, which the registry keeps
    under the game's name (not the ``--game`` spec: ``module:Class``, or an entry point's id
    that differs from it); a game that declares none lists no strategies, said in one line."""
    from strategies.registry import entry_point_group

    try:
        return entry_point_group(plugin.name)
    except ValueError:  # the registry's words would offer its own games, not --game's
        raise CLIError(f"{plugin.title} declares no strategy registry (strategies."
                       "declare_game): it has no strategies to list") from None  # fmt: skip
