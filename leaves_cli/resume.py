"""``leaves tournament --out DIR --resume``: everything else comes from the run's manifest.

A resumed run needs nothing but its folder: the strategies, players, seed (a fresh one is
stored in full), seating, match settings, rows, records, chunk size and the game are read from
``DIR/manifest.json``. Options given alongside must agree with what the run holds, and a
disagreement names the option and both values in one line, and what to do
(``resume_words``). ``--games`` larger than the run,
or ``--add GAMES``, grows it by a new stage of deals (``tournaments.stages``): every game
already played is kept, and the grown run is the one asked for at once.

Imports inside functions: start-up. The packages a command runs on load once its options are
checked, so ``--help`` and a bad option answer at once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .errors import CLIError
from .flags import flag, message
from .origins import FILE, in_file, origin
from .resume_words import disagreement, dropped, given_as, same_value
from .tournament_checks import check_resumed_cap

__all__ = [
    "apply_manifest", "check_setting", "has_manifest", "interrupted_line", "restore",
    "resumed_settings",
]  # fmt: skip

# option -> (its flag, the spec's key, what a refusal calls it)
_SCALARS: dict[str, tuple[str, str, str]] = {
    "seed": ("--seed", "seed", "seed"),
    "repeats": ("--repeats", "repeats", "repeats"),
    "seating": ("--seating", "seating", "seating"),
    "rows": ("--rows", "rows", "rows"),
    "chunk_size": ("--chunk-size", "chunk_games", "chunk size"),
    "rounds": ("--rounds", "rounds", "rounds"),
}


MANIFEST = "manifest.json"


def has_manifest(out: str | None) -> bool:
    """True when ``out`` holds a run to resume: a manifest, usable or not (a directory in its
    place is a damaged run, not none), or a run's files that lost it (``read_manifest`` names
    that so)."""
    return out is not None and ((Path(out) / MANIFEST).exists() or _lost(out) is not None)


def _lost(out: Any) -> str | None:
    """The line naming ``out`` as a run's folder that lost its manifest, in ``leaves
    verify``'s words (``no_run_message``); None where it has one, or holds no run's files."""
    from tournaments.storage import lost_manifest

    from .flags import message

    lost = lost_manifest(out)
    return None if lost is None else message(lost)


def read_manifest(out: Any) -> Any:
    """The manifest in ``out`` as read, or one line saying why there is none to resume: a run's
    folder that lost it (2), one that is not JSON (corrupt: 1; ``leaves verify``'s advice)."""
    from tournaments import storage

    from .verify_cmd import NO_MANIFEST

    lost = _lost(out)
    if lost is not None:
        raise CLIError(lost, usage=True)
    try:
        return storage.read_manifest(Path(out))
    except ValueError as exc:  # no manifest: bad usage (2); one that is not JSON: corrupt (1)
        found = has_manifest(out)
        why = f"{exc}; {NO_MANIFEST}" if found else str(exc)
        raise CLIError(f"cannot resume {out}: {why}", usage=not found) from None


def _source(values: Any, option: str, said: str) -> str:
    """Where the value of ``option`` that ``values`` (the command's merged options) hold came
    from: its key in the config file that gave it ("games in c.toml", ``origins.in_file``),
    else the flag ``said`` that gave it: never a flag no one typed."""
    if origin(values, option) != FILE:
        return said
    from .tournament_parts import KEY_OF  # start-up: it loads the games' options

    return in_file(KEY_OF.get(option, option), str(values["config"]))


_UNSAID = object()
"""``_named``'s ``stored`` where the caller does not compare the file's value with the run's."""


def _named(values: Any, option: str, said: str, joined: str = "over",
           stored: Any = _UNSAID) -> str:  # fmt: skip
    """How a refusal names the value of ``option`` (``_source``), and, where its flag was
    typed and the config file gives it too, the file's key as well, which dropping the flag
    alone would bring in: "--seed over seed in c.toml" (the flag's value replaced the
    file's; ``joined`` "after": the file's values come first, then the flag's, as a game's
    repeatable setting takes them), so that the advice leaves out both (``resume_words``);
    not where the file holds the run's own value, ``stored``: dropping the flag resumes."""
    config = values.get("config")
    if origin(values, option) == FILE or not config:
        return _source(values, option, said)
    from .tournament_parts import KEY_OF, read_config  # start-up: a refusal alone reads it

    given = read_config(str(config))
    if option not in given or same_value(option, given[option], stored):
        return said
    return f"{said} {joined} {in_file(KEY_OF.get(option, option), str(config))}"


def _worded(exc: Exception, values: Any) -> str:
    """A library error's one line with each parameter named where its value came from
    (``_named``): a flag typed, a config file's key."""
    names = {p: _source(values, flag(p).removeprefix("--").replace("-", "_"), flag(p))
             for p in getattr(exc, "params", ())}  # fmt: skip
    return exc.worded(names) if names and hasattr(exc, "worded") else message(exc)


def read_spec(out: str) -> dict[str, Any]:
    """The manifest of the run in ``out`` (a one-line error when it cannot be read)."""
    from tournaments.manifest_fields import RESUME_READS, check_manifest
    from tournaments.run_state import shell_word  # start-up: it loads numpy

    manifest = read_manifest(out)
    spec = manifest.get("spec") if isinstance(manifest, dict) else None
    if isinstance(spec, dict) and "gauntlet" in spec:
        resume = f"'leaves gauntlet --resume --out {shell_word(out)}'"
        raise CLIError(f"cannot resume {out} with 'leaves tournament': it holds a gauntlet: "
                       f"resume it with {resume}", usage=True)  # fmt: skip
    try:
        check_manifest(manifest, required=RESUME_READS, resume=True)
    except ValueError as exc:
        raise corrupt_manifest(out, exc) from None
    return manifest


def corrupt_manifest(out: Any, why: Exception) -> CLIError:
    """The one line refusing to resume the run in ``out``, whose manifest holds ``why``
    (``check_manifest``'s words): every resume names the file alike (exit 1), with what to do
    as a run not resumed says it (``NO_MANIFEST``), or, for a run another version played, as
    ``leaves verify`` says it (``NotThisVersion.advice``)."""
    from tournaments.result import corrupt_manifest as said  # the library's words

    from .verify_cmd import NO_MANIFEST

    refused = said(Path(out), why, f"cannot resume {out}: ")
    return CLIError(f"{refused}; {getattr(refused, 'advice', NO_MANIFEST)}")


def entrant_specs(spec: dict[str, Any], game: Any) -> tuple[str, ...]:
    """Specs that resolve to the run's entrants by the run's ``game`` (a name means one thing
    per game): each label (a file's class, ``--load``'s or a script's, once its file is
    loaded), else the class the manifest records (``module:Class``, as ``leaves replay``)."""
    from strategies.provenance import entrant_target
    from tournaments.labels import unqualified

    from .strategies_cmd import load_files

    out = []
    for entrant in spec.get("entrants") or [{"label": x} for x in spec["strategies"]]:
        label, file = str(entrant.get("label")), entrant.get("file")
        qualifier = str(entrant.get("qualifier") or "")  # told apart by its file or module
        if file and not Path(file).is_file():
            raise CLIError(f"the run's strategy {label} came from {file}, which is gone",
                           usage=True)  # fmt: skip
        load_files([file] if file else [])
        if not qualifier and _resolves(game, label):
            out.append(label)
        elif not (file or entrant.get("class")):  # by its label alone: a file may register it
            raise CLIError(f"the run's strategy {label!r} is not registered here (load the "
                           "file that defines it with --load)", usage=True)  # fmt: skip
        else:
            own = unqualified(label, qualifier)
            try:
                cls = _file_spec(file, entrant.get("class"), own) if file else None
                out.append(cls or f"{entrant_target(entrant)}{_params(own)}")
                game.resolve(out[-1])
            except ValueError as exc:
                raise CLIError(f"the run's strategy {label!r} cannot be rebuilt: "
                               f"{message(exc)}", usage=True) from None  # fmt: skip
    return tuple(out)


def _resolves(game: Any, spec: str) -> bool:
    try:
        game.resolve(spec)
    except ValueError:
        return False
    return True


def _params(label: str) -> str:
    """The parameters of an (unqualified) label, with their parentheses: ``mine(speed=2.0)``
    gives ``(speed=2.0)``, ``mine`` nothing."""
    from strategies.spec_values import split_label

    parts = split_label(label)
    return f"({parts[1]})" if parts else ""


def _file_spec(file: str, cls: Any, label: str) -> str:
    """``file.py:Class`` with the label's parameters (``mine(speed=2.0)``: the class's name
    need not be its label's, and a class that does not register is found by its name only);
    a run that recorded no class, by its label. ``label``: unqualified."""
    if not cls:
        return f"{file}:{label}"
    return f"{file}:{cls}{_params(label)}"


def apply_manifest(opts: dict[str, Any], given: set[str]) -> dict[str, Any]:
    """Fill the request's draft ``opts`` (``leaves_cli.request.draft``) from the manifest in
    ``opts["out"]`` where not ``given``; refuse given options that disagree. Returns the manifest. ``opts["grow_to"]`` keeps a ``--games``
    larger than the run (the run itself is rebuilt at the games it first asked for)."""
    out = opts["out"]
    manifest = read_spec(out)
    spec = manifest["spec"]
    for name, (said, field, words) in _SCALARS.items():
        if name in given and opts[name] is not None and opts[name] != spec.get(field):
            named = _named(opts, name, said, stored=spec.get(field))
            raise disagreement(out, named, opts[name], words, spec.get(field))
        opts[name] = spec.get(field)
    if "players" in given:
        from tournaments.schedule import parse_players

        try:
            sizes = parse_players(opts["players"])
        except ValueError as exc:
            raise CLIError.of(exc, usage=True) from None
        if list(sizes) != spec["players"]:
            named = _named(opts, "players", "--players", stored=spec["players"])
            raise disagreement(out, named, sizes, "players", spec["players"])
    opts["players"] = ",".join(str(k) for k in spec["players"])
    if "expert" in given and opts["expert"] and not spec["expert"]:
        raise disagreement(out, _named(opts, "expert", "--expert"), True, "expert", False)
    opts["expert"] = bool(spec["expert"])
    if "target" in given and opts["target"] is not None and opts["target"] != spec["target"]:
        named = _named(opts, "target", "--target")
        raise disagreement(out, named, opts["target"], "target", spec["target"])
    opts["target"] = spec["target"]
    _record_options(opts, given, manifest)
    _game_options(opts, given, manifest)
    opts["grow_to"] = opts["games"] if "games" in given else None
    opts["games"] = int(spec["games_asked"])
    if not opts["specs"]:
        opts["specs"] = entrant_specs(spec, stored_game(opts))
    return manifest


def stored_game(opts: dict[str, Any]) -> Any:
    """The game of a resumed run, as ``_game_options`` restored it."""
    from .tournament_parts import load_game

    return load_game(opts["game_spec"], opts["game_config"], stored=True)


def _record_options(opts: dict[str, Any], given: set[str], manifest: dict[str, Any]) -> None:
    """Records are the run's: a run that wrote none cannot start now (``--record`` then
    disagrees), and one that did writes them where ``--record`` says (a run directory may
    have been moved or copied; the records are gathered from its chunks), else where its
    manifest places them, from whichever folder this runs in (``verify.record_location``; an
    older version's manifest names them relative to the folder the run started in)."""
    from tournaments.verify import record_location

    out, stored = opts["out"], manifest.get("record_file")
    asked = opts["record"] if "record" in given else None
    if asked is not None and stored is None:
        raise disagreement(out, _named(opts, "record", "--record"), asked, "record file", stored)
    if asked is None and stored is not None:
        located = record_location(Path(out), manifest)
        asked = str(located) if located is not None else stored
        if Path(asked).is_dir() and not Path(asked).is_symlink():  # the run's, not one typed
            raise CLIError(f"cannot resume {out}: its records file {asked} is a directory: "
                           "remove it, then resume again, which writes it again from the "
                           "run's chunks")  # fmt: skip
    opts["record"] = asked


def _game_options(opts: dict[str, Any], given: set[str], manifest: dict[str, Any]) -> None:
    """The game and its settings are the run's: a ``--game`` given must name it, a setting
    given (``--turn-limit``, ...) must be the one the run has; the game is then loaded as the
    run recorded (``game_spec``; an older run's: its id) and built from the run's own
    settings (``opts["game_config"]``)."""
    from tournaments.games import names_game

    out, spec = opts["out"], manifest["spec"]
    loads = _run_game(out, manifest)  # first: a spec that names no game is said corrupt
    stored = spec["game"]
    if "game_spec" in given:
        cls = _game_class(opts["game_spec"])
        if not (names_game(cls, stored) or names_game(cls, loads)):
            named = _named(opts, "game_spec", "--game")
            raise disagreement(out, named, opts["game_spec"], "game", loads)
    else:
        opts["game_spec"] = loads
        named_only = "game_spec" not in manifest and ":" not in opts["game_spec"]
        cls = _game_class(opts["game_spec"], out, named_only)
    config = run_config(out, cls, spec)
    declared = {o.name for o in getattr(cls, "options", ())}
    from .tournament_parts import installed_options

    for opt in installed_options():  # a setting the run's game does not have: refused
        if opt.name in given and opts.get(opt.name) not in (None, ()) and opt.name not in declared:
            named = _named(opts, opt.name, opt.flag)
            title = getattr(cls, "title", stored)
            raise CLIError(f"cannot resume {out}: {given_as(named)} is not a {title} option, the "
                           f"game this run plays: {dropped(named)}", usage=True)  # fmt: skip
    for opt in getattr(cls, "options", ()):
        if opt.name in given and opts.get(opt.name) not in (None, ()):
            check_setting(out, cls, config, opt, opts[opt.name], opts)
    opts["game_config"] = config


def _run_game(out: Any, manifest: dict[str, Any]) -> str:
    """How the run's game loads (``games.run_game``: the rule every command that opens a run
    follows); a manifest that does not tell is corrupt (exit 1)."""
    from tournaments.games import run_game

    try:
        return run_game(manifest)
    except ValueError as exc:
        raise corrupt_manifest(out, exc) from None


def run_config(out: Any, cls: Any, spec: dict[str, Any]) -> dict[str, Any]:
    """The run's own game settings (``spec.game_config``), which its game ``cls`` must take,
    seating its player counts (``check_game``): else the manifest is corrupt (exit 1)."""
    from tournaments.manifest_fields import check_game

    try:
        check_game(cls, spec)
    except ValueError as exc:
        raise corrupt_manifest(out, exc) from None
    return dict(spec.get("game_config") or {})


def check_setting(
    out: Any, cls: Any, config: dict[str, Any], opt: Any, given: Any, values: Any = None
) -> None:
    """Refuse a game setting given on resuming (``--rules``, ``--turn-limit``, a config's
    table) that is not the run's, compared as the game keeps it (``config()``: a timeout of 0
    is kept as none, rules as the changes they make), in one line naming both: in the game's
    own words where it has them (``settings_words()``). ``values`` (the command's merged
    options) names the setting where it came from (``_setting_named``); without, its flag."""
    played = cls(**config)
    try:
        asked = cls(**{**config, opt.name: given})
    except (TypeError, ValueError) as exc:
        if hasattr(exc, "worded") and values is not None:  # as a run not resumed says it
            from .tournament_parts import refused  # start-up: it loads the games' options

            raise refused(exc, values) from None
        said, named = message(exc), given_as(_setting_named(values, opt))
        raise CLIError(said if said.startswith(named) else f"{named}: {said}",
                       usage=True) from None  # fmt: skip
    if asked.config() == played.config():
        return
    named = _setting_named(values, opt)
    was, says = played.settings_words(), _said_words(cls, opt.name, given)
    if opt.name in was and opt.name in says:
        raise CLIError(f"cannot resume {out}: {given_as(named)} says {says[opt.name]}, but this "
                       f"run was played under {was[opt.name]}: {dropped(named)}",
                       usage=True)  # fmt: skip
    what = opt.name.replace("_", " ")
    raise disagreement(out, named, given, what, played.config().get(opt.name))


def _setting_named(values: Any, opt: Any) -> str:
    """How a refusal names the game setting ``opt`` (``_named``; no ``values``: its flag); a
    repeatable one that both the config file and the command line gave (the file's values
    first, then the flag's: ``request.draft``) by both, as the flag alone did not say it:
    "--rules after rules in c.toml"."""
    if values is None:
        return opt.flag
    stacked = getattr(opt, "multiple", False)
    return _named(values, opt.name, opt.flag, "after" if stacked else "over")


def _said_words(cls: Any, name: str, given: Any) -> dict[str, str]:
    """The words of a setting as given, alone (rules as the text said them, not merged with
    the run's turn limit); none when the game cannot be built from it alone."""
    try:
        return cls(**{name: given}).settings_words()
    except (TypeError, ValueError):
        return {}


def resumed_settings(out: Any, game_spec: str, settings: dict[str, Any]) -> dict[str, Any]:
    """The game settings of a run resumed in ``out`` (``leaves run``): those given must be the
    run's (one line naming both otherwise); the others are the run's own."""
    from tournaments.games import names_game
    from tournaments.manifest_fields import RESUME_READS, check_manifest

    if not (Path(out) / MANIFEST).exists():  # no run there (``leaves run`` says so)
        return settings
    manifest = read_manifest(out)  # it names the file and what is wrong with it (exit 1)
    try:
        check_manifest(manifest, required=RESUME_READS, resume=True)
    except ValueError as exc:  # a corrupt manifest: the input cannot be used (exit 1)
        raise corrupt_manifest(out, exc) from None
    cls = _game_class(game_spec)
    if not names_game(cls, manifest["spec"]["game"]):
        return settings  # another game's run: the run itself refuses it
    config = run_config(out, cls, manifest["spec"])  # settings it cannot take: corrupt
    for opt in getattr(cls, "options", ()):
        if settings.get(opt.name) not in (None, ()):
            check_setting(out, cls, config, opt, settings[opt.name])
    return {**config, **settings}


def _game_class(spec: str, stored_in: Any = None, named_only: bool = False) -> Any:
    """The plug-in class ``spec`` names: given with ``--game`` (bad usage when it cannot be
    loaded), or read from the manifest of the run in ``stored_in`` (a file naming a game this
    installation lacks: the input cannot be used, exit 1; ``named_only``: a manifest that
    records no ``game_spec``, whose game, given as ``module:Class``, is to be given again)."""
    from tournaments import storage
    from tournaments.games import plugin_class

    try:
        return plugin_class(spec)
    except ValueError as exc:
        if stored_in is None:
            raise CLIError(f"--game: {exc}", usage=True) from None
        where = Path(stored_in) / storage.MANIFEST
        again = ("; a run of a game given as --game module:Class resumes with it given again "
                 "(an older version recorded its name only)") if named_only else ""  # fmt: skip
        raise CLIError(f"cannot resume {stored_in}: its manifest {where} names a game this "
                       f"installation cannot load: {exc}{again}") from None  # fmt: skip


def restore(t: Any, request: Any) -> Any:
    """The run ``t`` (built from the request at the games it first asked for) as its
    manifest holds it, grown by ``--games``/``--add``: its stages, record stride and rule (a
    sample taken by rule 1, before ``record_rule`` was kept, stays so), checks; a
    ``--max-games`` below what it then holds is refused (``check_resumed_cap``)."""
    from tournaments.declaration import plural
    from tournaments.games import names_game
    from tournaments.manifest_fields import NotThisVersion
    from tournaments.stages import grown_stages
    from tournaments.work import RECORD_RULES, spec_rule

    out, spec = request.out, request.manifest["spec"]
    if list(t.labels) != spec["strategies"]:
        named = _named(request.values, "specs", "strategies")
        raise disagreement(out, named, t.labels, "strategies", spec["strategies"], retype=False)
    if not names_game(type(t.game), spec["game"]):  # a resume reads it (``RESUME_READS``)
        raise disagreement(out, "--game", t.game.name, "game", spec["game"])
    if request.record_sample is not None and t.record_stride != spec["record_stride"]:
        named = _named(request.values, "record_sample", "--record-sample")
        raise disagreement(out, named, request.record_sample, "one record every",
                        f"{spec['record_stride']} {plural(t.game.unit)}")  # fmt: skip
    t.record_stride, t.record_rule = int(spec["record_stride"]), spec_rule(spec)
    if t.record_rule not in RECORD_RULES:  # a sample is never picked by two rules
        raise CLIError(f"cannot resume {out}: its records are sampled by rule {t.record_rule}, "
                       f"which this version does not know: {NotThisVersion.advice}")  # fmt: skip
    try:
        stages = grown_stages(
            spec["deal_stages"], t.schedule.seats_per_set, spec["games_asked"],
            request.get("grow_to"), request.get("add"), units=t.units,
        )  # fmt: skip
    except ValueError as exc:
        raise CLIError(f"cannot resume {out}: {_worded(exc, request.values)}",
                       usage=True) from None  # fmt: skip
    try:
        grown = t.with_stages(stages) if stages != t.schedule.stages else t
    except ValueError as exc:
        raise CLIError(f"cannot resume {out}: {_worded(exc, request.values)}",
                       usage=True) from None  # fmt: skip
    held = int(spec["deal_stages"][-1])  # every deal the run has, played whatever the cap
    check_resumed_cap(request.values, held, t.schedule.seats_per_set, t.units)
    return grown


def resume_game(opts: dict[str, Any], given: set[str], manifest: dict[str, Any]) -> None:
    """A resumed gauntlet's game and settings, restored and checked as ``leaves tournament
    --resume`` restores them (``opts["game_spec"]``, ``opts["game_config"]``)."""
    _game_options(opts, given, manifest)


def interrupted_line(out: Path, planned: int, command: str) -> str:
    """What a run stopped by Ctrl-C (or SIGTERM) says where the manifest in ``out`` holds
    every one of its ``planned`` games (units) already: nothing is left to play, only the
    summing up was cut short (merging the totals, writing the records), which ``command``
    (``run_state.continue_command``) does and prints. "" where games are left (or the
    manifest cannot be read): the caller names the command that continues the run."""
    from tournaments import storage
    from tournaments.run_state import continue_command

    try:
        done = int(storage.read_manifest(out).get("units_done") or 0)
    except (ValueError, TypeError, AttributeError, OSError):
        return ""
    if done < planned:
        return ""
    return (f"interrupted: nothing is left to play in {out}, only the summary was cut short "
            f"('{continue_command(command, out)}' prints it)")  # fmt: skip
