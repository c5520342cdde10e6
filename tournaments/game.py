"""What a game plug-in inherits (``GameBase``: the declaration's defaults, strategy lookup
and listing, the generic match loop) and the helpers the runner applies to any plug-in.

The contract itself, the ``GamePlugin`` protocol and the batches a plug-in returns, is
``tournaments.plugin``'s; its names are importable from here too.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from gamekit.errors import ParameterError

from .declaration import Declaration, plural
from .plugin import GamePlugin, SeatedBatch, SeatedMatches, Seats, Seeds
from .plugin_results import checked_play

__all__ = [
    "Declaration",
    "BenchReport",
    "GameBase",
    "GameOption",
    "GamePlugin",
    "Replayed",
    "SeatedBatch",
    "SeatedMatches",
    "StrategyInfo",
    "check_bench",
    "declaration",
    "file_spec",
    "play_key",
    "plural",
]


def check_bench(players: int, seats: tuple[int, int], games: int, repeats: int,
                api_games: int | None, seed: int, seed_bits: int) -> None:  # fmt: skip
    """A benchmark's settings in range (the game's table sizes and seed width), else a
    ValueError naming the first bad one."""
    low, high = seats
    if not low <= players <= high:
        raise ParameterError(f"{{players}} must be {low}..{high}, got {players}", "players")
    for name, value, least in (("games", games, 1), ("repeats", repeats, 1),
                               ("api_games", api_games, 0)):  # fmt: skip
        if value is not None and value < least:
            raise ParameterError(f"{{{name}}} must be at least {least}, got {value}", name)
    if seed < 0 or seed >= 1 << seed_bits:
        raise ParameterError(f"{{seed}} must be 0..2**{seed_bits}-1, got {seed}", "seed")


def declaration(game: GamePlugin) -> dict[str, Any]:
    """What a game declares, as the manifest keeps it (reports read only this)."""
    return Declaration.of(game).to_dict()


def play_key(core: str) -> str:
    """The name a run's manifest keeps the play version of the rules core ``core`` under
    (``GameBase.versions``), e.g. ``leaves play``: where a game records one, a resume compares
    it, not the package's own version (``same_run.game_change``)."""
    return f"{core} play"


def file_spec(spec: Any) -> Any:
    """A ``file.py:Class`` spec with its file made absolute (workers may run elsewhere); any
    other spec unchanged."""
    if isinstance(spec, str):
        path, sep, rest = spec.partition(":")
        if sep and path.endswith(".py"):
            return f"{Path(path).resolve()}:{rest}"
    return spec


@dataclass(frozen=True)
class GameOption:
    """A setting a game adds to the command line: ``--turn-limit N`` passes ``turn_limit=N``
    to the game's constructor (and is read back from a run's ``config`` on ``--resume``).
    ``multiple``: the flag may be repeated and the constructor gets every value given, in
    order, as a tuple (e.g. a repeated ``--rules KEY=VALUE``, the later winning)."""

    name: str  # the constructor's keyword, e.g. "turn_limit"
    type: type  # int, float or str
    help: str
    metavar: str | None = None
    multiple: bool = False
    from_config: Callable[[Any], Any] | None = None
    """How a config file's value of this setting (e.g. a TOML table beside ``[tournament]``)
    becomes what the flag gives; ValueError (one line) when it cannot. None: taken as it is,
    checked against ``type``."""

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")


@dataclass(frozen=True)
class StrategyInfo:
    """One registered strategy of a game, as ``leaves strategies`` lists it."""

    name: str
    description: str
    classifier: dict[str, Any]
    params: dict[str, Any]

    @classmethod
    def of(cls, name: str, strategy: type) -> StrategyInfo:
        """The row of the strategy class ``strategy`` listed as ``name``: its description, its
        classifier and the defaults of its parameters (a loaded file's unregistered class is
        listed the same way, by its ``file.py:Class`` spec)."""
        params = {
            k: p.default
            for k, p in strategy._param_signature.parameters.items()
            if p.default is not inspect.Parameter.empty
        }
        return cls(name, str(strategy.description), dict(strategy.classifier), params)


@dataclass(frozen=True)
class BenchReport:
    """A game's throughput benchmark (``leaves bench``): the figures (one JSON object), and a
    table (title, columns, rows) with notes under it for the terminal."""

    result: dict[str, Any]
    title: str
    columns: tuple[str, ...]
    rows: list[tuple[str, ...]]
    notes: list[str]


@dataclass(frozen=True)
class Replayed:
    """One game played again from its seeds: its record (one JSON line, as ``--record``
    writes them), a forfeit's error and traceback, and (winner seat, length, forfeit seat) to
    check against the run's row."""

    record: str
    error: str | None
    traceback: str | None
    outcome: tuple[int, int, int]


class GameBase:
    """What plug-ins share: the declaration's defaults, spec resolution through the game's own
    strategy registry (``lookup``) with a per-process cache of strategies, and generic matches
    (``tournaments.matches``). A plug-in sets its declaration as class attributes and
    ``lookup``, and implements ``play``."""

    title = "Game"
    rules_core: str | None = None
    """The package that implements the game's rules (its rules core): its ``__version__``
    and, where it declares one, its ``PLAY_VERSION`` go into every run's manifest
    (``versions``)."""
    former_names: tuple[str, ...] = ()
    """Names older runs of this game recorded (read, never written)."""
    options: tuple[GameOption, ...] = ()
    """The settings the command line offers for this game (constructor keywords)."""
    default_baseline: str | None = None
    """The gauntlet's baseline when none is given (None: the gauntlet asks for one)."""
    spec_example = "name:key=value"
    """A strategy spec with a parameter, for help texts."""
    match_rounds = True
    """Matches of a fixed number of games (``--rounds``) are possible."""
    target_makes_matches = True
    """True: a match target (or ``--rounds``) alone asks for matches; False: matches are asked
    for by name (a game whose matches are asked for by ``--expert``) and a target alone means
    nothing."""
    replay_viewer: str | None = None
    """``module:function`` that shows a record on the terminal (``leaves replay``), called as
    ``function(game, record_line, options)``; None: the lines of ``replay_lines``."""
    ahead_means = "a better rank value"
    share_columns: dict[str, str] = {}
    mean_columns: tuple[str, ...] = ()
    parameters: dict[str, float] = {}
    turn_order = False
    unit = "game"
    match_unit = "match"
    match_name = "matches"
    match_title = "Matches"
    match_label = "Matches"

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        # spec string -> strategy, per process and game (a user's file's: as ``strategy`` says)
        cls._cache: dict[str, Any] = {}

    @property
    def length_columns(self) -> tuple[str, ...]:
        return (self.length_value,)

    def config(self) -> dict[str, Any]:
        return {}

    def settings_words(self) -> dict[str, str]:
        """The settings a report's overview names, in words (e.g. the game's rules): none by
        default. The manifest keeps them as ``game_settings``."""
        return {}

    def versions(self) -> dict[str, str]:
        """The version of the package ``rules_core`` names, for the manifest, and its play
        version where it declares one (``PLAY_VERSION``, under ``play_key``): a resume compares
        that instead, so a release that plays alike resumes the runs of the one before."""
        if self.rules_core is None:
            return {}
        core = importlib.import_module(self.rules_core)
        found = {self.rules_core: str(getattr(core, "__version__", "unknown"))}
        play = getattr(core, "PLAY_VERSION", None)
        if play is not None:
            found[play_key(self.rules_core)] = str(play)
        return found

    def lookup(self, spec: Any) -> Any:
        """The strategy object of an entrant spec, from the game's registry (the strategies
        registry kept under the game's name); ValueError if unknown."""
        import strategies  # start-up: the registry reads entry points when first asked

        return strategies.get(spec, game=self.name)

    @classmethod
    def named(cls, name: str) -> bool:
        """True when ``name`` is this game's (its name or a former one)."""
        return name == cls.name or name in cls.former_names

    def strategy_infos(self, filters: dict[str, Any] | None = None) -> list[StrategyInfo]:
        """The game's registered strategies whose classifier matches ``filters`` (all when
        None), by name, with their default parameters (``leaves strategies``); ValueError for
        a filter no strategy has. A strategy that cannot be loaded is listed as such."""
        from strategies import registry  # start-up: as in lookup

        game = self.name
        wanted = registry.filtered(game=game, **filters) if filters else registry.names(game)
        infos = []
        for name in wanted:
            try:
                cls = registry.get_class(name, game)
            except ValueError as exc:  # a broken entry point: say so, keep listing the others
                infos.append(StrategyInfo(name, f"(cannot load: {exc})", {}, {}))
                continue
            infos.append(StrategyInfo.of(name, cls))
        return infos

    @property
    def describe(self) -> Callable[[Any], dict[str, Any]] | None:
        """How a run's manifest describes each entrant (``spec.entrants``), so that a resume
        notices a change and a replay rebuilds it (``rebuild``): a strategy of the game's
        registry by its class, its file, every parameter, the providing package's version and
        its file's hash (``strategies.provenance``). None for a game that keeps no strategy
        registry, whose entrants its own ``resolve`` names: its runs record their labels."""
        from strategies import registry  # start-up: as in lookup

        registry.players_module(self.name)  # where an entry point declares the registry
        return self._described if self.name in registry.games() else None

    def _described(self, payload: Any) -> dict[str, Any]:
        """``describe`` of a game with a registry: an entrant that is no ``Player`` (a game's
        own ``lookup`` may find such) by its label alone."""
        from strategies import Player  # start-up: as in lookup
        from strategies.provenance import provenance  # start-up: importlib.metadata, hashlib

        strategy = self.strategy(payload)
        if not isinstance(strategy, Player):
            return {"label": str(strategy.label)}
        return provenance(strategy)

    def describe_change(self, old: dict[str, Any], new: dict[str, Any]) -> str | None:
        """One phrase naming how an entrant's description changed (None: it did not)."""
        from strategies.provenance import provenance_change  # start-up: as in describe

        return provenance_change(old, new)

    def rebuild(self, entrant: dict[str, Any]) -> Any:
        """The payload of an entrant as the run's manifest describes it (``describe``): its
        class (from its file, if any) with every parameter (ValueError in the manifest's words
        where they are no table); an entrant recorded by its label alone, by its label. What
        replaying one of its games needs; ValueError when it cannot be rebuilt."""
        if "class" not in entrant:
            return self.resolve(entrant["label"])[1]
        from strategies import registry  # start-up: as in lookup
        from strategies.provenance import entrant_params  # start-up: as in describe

        cls = str(entrant["class"])
        target = f"{entrant['file']}:{cls}" if entrant.get("file") else cls
        return registry.get(target, game=self.name, **entrant_params(entrant))

    def replay(self, seats: Seats, deal_seed: int, play_seed: int) -> Replayed:
        """Play one game again from its seeds, with its record (a batch that is not what the
        declaration promises: ``PluginError``, as in a run)."""
        deals, plays = np.array([deal_seed], np.uint64), np.array([play_seed], np.uint64)
        b = checked_play(self, seats, deals, plays, record=True)
        if not b.records:
            raise ValueError(f"{self.title} games keep no records to replay")
        length = int(b.game_values[self.length_value][0])
        outcome = (int(b.winner_seat[0]), length, int(b.forfeit_seat[0]))
        error = b.errors[0]
        return Replayed(b.records[0], None if error is None else str(error), None, outcome)

    def bench(self, players: int, games: int | None, api_games: int | None, repeats: int,
              seed: int) -> BenchReport:  # fmt: skip
        """Time random (or built-in) play of ``games`` games at ``players`` seats, best of
        ``repeats`` (``api_games`` through the plain-Python path); ValueError for a setting
        out of range or a game without a benchmark."""
        raise ValueError(f"{self.title} has no benchmark")

    def replay_lines(self, record: str) -> list[str]:
        """A recorded game (one JSON line) as lines of text, checked against the rules;
        ValueError for a record that is not a legal game."""
        raise ValueError(f"{self.title} has no way to show a recorded game")

    def strategy(self, payload: Any) -> Any:
        """The strategy a payload names. A spec string is looked up once per process (a worker
        plays chunk after chunk of it, and a name costs a lookup, a file a read and a hash),
        and again where it is a user's file's strategy of another version than the one
        ``resolve`` found (a worker kept from an earlier run, a run after an edit) or, where
        none was found, than the file holds now: never the code of an earlier version. A
        version the run resolved that the file no longer holds is a ValueError."""
        if not isinstance(payload, str):
            return payload
        held = self._cache.get(payload)
        pinned = self.__dict__.get("_pinned", {}).get(payload)
        if held is None or not _current(held, pinned):
            held = self.lookup(payload)
            if pinned is not None and _loaded_sha256(held) != pinned:
                raise ValueError(_edited(held, pinned))
            self._cache[payload] = held
        return held

    def chunk_games(self, payloads: Sequence[Any]) -> int | None:
        """The default games per chunk for these entrants (None: the schedule's own, sized
        for fast games). A game whose entrants may take seconds a game asks for small
        chunks, so that ``--jobs`` has work to share and an interruption loses little."""
        return None

    def plays_without_gil(self, payloads: Sequence[Any], expert: bool) -> bool:
        """True when playing these entrants releases the GIL (then a local run plays in
        threads of one process, not worker processes). Plain Python play never does."""
        return False

    def resolve(self, spec: Any) -> tuple[str, Any]:
        """(label, payload): strings travel as strings (file specs made absolute, and a name
        of a user's file's strategy as that file's spec, which a worker process that never
        loaded the file can look up). The strategy found is the one this game plays for the
        payload, its file's version kept with the game (it travels to the workers with it)."""
        strategy = self.lookup(spec)
        refused = _refusal(strategy)
        if refused is not None:  # it would forfeit every game it played: refused before one
            raise ValueError(refused)
        if not isinstance(spec, str):
            return strategy.label, strategy
        payload = _file_payload(spec, strategy, self.name) or file_spec(spec)
        sha256 = _loaded_sha256(strategy)
        if sha256 is not None:
            self.__dict__.setdefault("_pinned", {})[payload] = sha256
            self._cache[payload] = strategy
        return strategy.label, payload

    def play_matches(self, seats: Seats, match_seeds: Seeds, play_seeds: Seeds, target: int,
                     rounds: int | None = None) -> SeatedMatches:  # fmt: skip
        """Matches to ``target`` points, or of ``rounds`` games when given (generic)."""
        from .matches import play_matches  # start-up: the match loop loads with a first match

        return play_matches(self, seats, match_seeds, play_seeds, None if rounds else target,
                            rounds)  # fmt: skip


def _refusal(strategy: Any) -> str | None:
    """Why a strategy of any game cannot play it, as its game's base class says
    (``strategies.registry.refusal``); None when it plays, or is no ``Player`` at all."""
    from strategies import Player  # start-up: as in GameBase.lookup
    from strategies.registry import refusal  # start-up: as in GameBase.lookup

    return refusal(strategy, strategy.label) if isinstance(strategy, Player) else None


def _loaded_sha256(strategy: Any) -> str | None:
    """The SHA-256 of the user's file a strategy's class comes from, as it was loaded (None: no
    user's file)."""
    from strategies.user_code import loaded_sha256  # start-up: as in GameBase.lookup

    return loaded_sha256(type(strategy))


def _current(strategy: Any, pinned: str | None) -> bool:
    """Is a strategy kept for a spec still the one to play: of no user's file, of the file's
    version ``pinned`` (the one a run resolved), or, none pinned, of the file as it is now?"""
    from strategies.user_code import edited_since_loaded  # start-up: as in GameBase.lookup

    loaded = _loaded_sha256(strategy)
    if loaded is None:
        return True
    return loaded == pinned if pinned is not None else not edited_since_loaded(type(strategy))


def _edited(strategy: Any, pinned: str) -> str:
    """Why a strategy of the version a run resolved cannot be had (a process that never held
    it, a worker, finds the file edited since)."""
    file = str(type(strategy)._source_spec).rpartition(":")[0]
    return (
        f"strategy file {file} changed since the version this run plays was loaded (SHA-256 "
        f"{pinned[:12]} then, {str(_loaded_sha256(strategy))[:12]} now): its games would play "
        "code the run does not record; load the file again and start the run again"
    )


def _file_payload(spec: str, strategy: Any, game: str) -> str | None:
    """A registered name of a user's file's strategy (``name``, ``name:k=v``, ``name(k=v)``)
    as that file's spec with the same parameters; None for any other spec."""
    from strategies.registry import parse_spec  # start-up: as in GameBase.lookup

    source = type(strategy).__dict__.get("_source_spec")
    if source is None:
        return None
    target = parse_spec(spec, game)[0]
    return None if ":" in target else source + spec.strip()[len(target) :].strip()
