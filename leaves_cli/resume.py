"""``leaves tournament --out DIR --resume``: everything else comes from the run's manifest.

A resumed run needs nothing but its folder: the strategies, players, seed (a fresh one is
stored in full), seating, match settings, rows, records, chunk size and the game are read from
``DIR/manifest.json``. Options given alongside must agree with what the run holds, and a
disagreement names the option and both values in one line. ``--games`` larger than the run,
or ``--add GAMES``, grows it by a new stage of deals (``tournaments.stages``): every game
already played is kept, and the grown run is the one asked for at once.

Imports inside functions: start-up. The packages a command runs on load once its options are
checked, so ``--help`` and a bad option answer at once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .errors import CLIError

__all__ = [
    "apply_manifest", "check_rules", "has_manifest", "restore", "resumed_rules", "rules_words",
]  # fmt: skip

# option -> (its flag, the spec's key)
_SCALARS: dict[str, tuple[str, str]] = {
    "seed": ("--seed", "seed"),
    "repeats": ("--repeats", "repeats"),
    "seating": ("--seating", "seating"),
    "rows": ("--rows", "rows"),
    "chunk_size": ("--chunk-size", "chunk_games"),
    "rounds": ("--rounds", "rounds"),
}


_RESUME_READS = ("strategies", "players", "games_asked", "n_games", "deal_stages", "expert",
                 "target", "record_stride")  # fmt: skip
"""The spec fields a resume cannot do without (the others have defaults)."""


def has_manifest(out: str | None) -> bool:
    """True when ``out`` holds a run to resume."""
    return out is not None and (Path(out) / "manifest.json").is_file()


def _words(value: Any) -> str:
    """A stored or given value as the error line prints it (in full: seeds are long)."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, list | tuple):
        return ",".join(str(v) for v in value)
    return str(value)


def _disagree(out: str, flag: str, given: Any, field: str, stored: Any) -> CLIError:
    return CLIError(
        f"cannot resume {out}: {flag} {_words(given)} but the run has {field} {_words(stored)}",
        usage=True,
    )


def read_spec(out: str) -> dict[str, Any]:
    """The manifest of the run in ``out`` (a one-line error when it cannot be read)."""
    from tournaments import storage
    from tournaments.manifest_fields import check_manifest

    try:
        manifest = storage.read_manifest(Path(out))
    except ValueError as exc:  # no manifest: bad usage (2); one that is not JSON: corrupt (1)
        raise CLIError(f"cannot resume {out}: {exc}", usage=not has_manifest(out)) from None
    spec = manifest.get("spec") if isinstance(manifest, dict) else None
    if isinstance(spec, dict) and "gauntlet" in spec:
        raise CLIError(f"cannot resume {out} with 'leaves tournament': it holds a gauntlet "
                       "('leaves gauntlet --resume')", usage=True)  # fmt: skip
    try:
        check_manifest(manifest, required=_RESUME_READS)
    except ValueError as exc:
        where = Path(out) / storage.MANIFEST
        raise CLIError(f"cannot resume {out}: corrupt manifest {where}: {exc}") from None
    return manifest


def entrant_specs(spec: dict[str, Any]) -> tuple[str, ...]:
    """Strategy specs that resolve to the run's entrants: each label, or, for a strategy
    that came from a file (``file.py:Class``, ``--load``), the file loaded first."""
    import strategies

    from .strategies_cmd import load_files

    out = []
    for entrant in spec.get("entrants") or [{"label": x} for x in spec["strategies"]]:
        label, file = str(entrant.get("label")), entrant.get("file")
        try:
            strategies.get(label)
            out.append(label)
            continue
        except ValueError:
            if not file:
                raise CLIError(f"the run's strategy {label!r} is not registered here (load "
                               "the file that defines it with --load)", usage=True) from None  # fmt: skip
        if not Path(file).is_file():
            raise CLIError(f"the run's strategy {label} came from {file}, which is gone",
                           usage=True)  # fmt: skip
        load_files([file])
        try:
            strategies.get(label)
            out.append(label)
        except ValueError:
            out.append(f"{file}:{label}")
    return tuple(out)


def apply_manifest(opts: dict[str, Any], given: set[str]) -> dict[str, Any]:
    """Fill ``opts`` from the manifest in ``opts["out"]`` where not ``given``; refuse given
    options that disagree. Returns the manifest. ``opts["grow_to"]`` keeps a ``--games``
    larger than the run (the run itself is rebuilt at the games it first asked for)."""
    out = opts["out"]
    manifest = read_spec(out)
    spec = manifest["spec"]
    for name, (flag, field) in _SCALARS.items():
        if name in given and opts[name] is not None and opts[name] != spec.get(field):
            raise _disagree(out, flag, opts[name], field, spec.get(field))
        opts[name] = spec.get(field)
    if "players" in given:
        from tournaments.runner import parse_players

        try:
            sizes = parse_players(opts["players"])
        except ValueError as exc:
            raise CLIError(str(exc), usage=True) from None
        if list(sizes) != spec["players"]:
            raise _disagree(out, "--players", sizes, "players", spec["players"])
    opts["players"] = ",".join(str(k) for k in spec["players"])
    if "expert" in given and opts["expert"] and not spec["expert"]:
        raise _disagree(out, "--expert", True, "expert", False)
    opts["expert"] = bool(spec["expert"])
    if "target" in given and opts["target"] is not None and opts["target"] != spec["target"]:
        raise _disagree(out, "--target", opts["target"], "target", spec["target"])
    opts["target"] = spec["target"]
    _record_options(opts, given, manifest)
    _game_options(opts, given, spec)
    opts["grow_to"] = opts["games"] if "games" in given else None
    opts["games"] = int(spec["games_asked"])
    if not opts["specs"]:
        opts["specs"] = entrant_specs(spec)
    return manifest


def _record_options(opts: dict[str, Any], given: set[str], manifest: dict[str, Any]) -> None:
    """Records are the run's: a run that wrote none cannot start now (``--record`` then
    disagrees), and one that did writes them where ``--record`` says (a run directory may
    have been moved or copied; the records are gathered from its chunks), else where it
    wrote them before."""
    out, stored = opts["out"], manifest.get("record_file")
    asked = opts["record"] if "record" in given else None
    if asked is not None and stored is None:
        raise _disagree(out, "--record", asked, "record file", stored)
    opts["record"] = asked if asked is not None else stored


def _game_options(opts: dict[str, Any], given: set[str], spec: dict[str, Any]) -> None:
    """The game and its settings are the run's: a ``--game`` given must name it, a setting
    given (``--turn-limit``, ...) must be the one the run has; the game is then built from
    the run's own settings (``opts["game_config"]``)."""
    from tournaments.games import plugin_class

    out, stored = opts["out"], spec.get("game")
    if "game_spec" in given:
        try:
            named = plugin_class(opts["game_spec"]).named(stored)
        except (ValueError, TypeError, AttributeError):
            named = opts["game_spec"] == stored
        if not named:
            raise _disagree(out, "--game", opts["game_spec"], "game", stored)
    elif stored is not None:
        opts["game_spec"] = stored
    config = dict(spec.get("game_config") or {})
    cls = _game_class(opts["game_spec"])
    declared = {o.name for o in getattr(cls, "options", ())}
    from .tournament_parts import installed_options

    for opt in installed_options():  # a setting the run's game does not have: refused
        if opt.name in given and opts.get(opt.name) not in (None, ()) and opt.name not in declared:
            raise CLIError(f"{opt.flag} is not a {getattr(cls, 'title', stored)} option",
                           usage=True)  # fmt: skip
    if "rules" in declared and "rules" in given and opts.get("rules"):
        check_rules(out, cls(**config), opts["rules"])
    for opt in getattr(cls, "options", ()):
        if opt.name not in given or opts.get(opt.name) in (None, ()) or opt.name not in config:
            continue
        if opt.name == "rules":
            continue  # compared above, as the rules they make
        try:  # compared as the game keeps it (e.g. a timeout of 0 is kept as none)
            asked = cls(**{**config, opt.name: opts[opt.name]}).config()[opt.name]
        except (TypeError, ValueError, KeyError):
            asked = opts[opt.name]
        if asked != config[opt.name]:
            what = opt.name.replace("_", " ")
            raise _disagree(out, opt.flag, opts[opt.name], what, config[opt.name])
    opts["game_config"] = config


def rules_words(rules: Any) -> str:
    """Rules as an error line names them: their changed keys, or "today's rules"."""
    return "today's rules" if rules.is_default else str(rules)


def check_rules(out: Any, game: Any, texts: Any) -> None:
    """Refuse ``--rules`` (or a config's ``[rules]``) that are not the rules the run in
    ``out`` was played under, naming both in one line. A turn limit the text does not name is
    the run's (``--turn-limit`` is checked on its own)."""
    from leaves.ruleset import DEFAULT_RULES, Rules

    played = game.rules
    try:
        said = Rules.parse(texts)
        asked = Rules.parse(texts, base=DEFAULT_RULES.replace(turn_limit=played.turn_limit))
    except ValueError as exc:
        raise CLIError(f"--rules: {exc}", usage=True) from None
    if asked != played:
        raise CLIError(f"cannot resume {out}: this run was played under {rules_words(played)}; "
                       f"--rules says {rules_words(said)}", usage=True)  # fmt: skip


def resumed_rules(out: Any, game_spec: str, settings: dict[str, Any]) -> dict[str, Any]:
    """The game settings of a run resumed in ``out`` (a gauntlet, ``leaves run``): rules
    given must be the run's (one line naming both otherwise); none given, the run's own."""
    from tournaments import storage
    from tournaments.manifest_fields import check_manifest

    if not has_manifest(out):
        return settings
    try:
        manifest = storage.read_manifest(Path(out))
        check_manifest(manifest)
    except ValueError as exc:  # a corrupt manifest: the input cannot be used (exit 1)
        raise CLIError(f"cannot resume {out}: corrupt manifest: {exc}") from None
    config = dict(manifest["spec"].get("game_config") or {})
    cls = _game_class(game_spec)
    if "rules" not in {o.name for o in getattr(cls, "options", ())}:
        return settings
    if settings.get("rules"):
        try:
            check_rules(out, cls(**config), settings["rules"])
        except (TypeError, ValueError):
            return settings  # another game's run: the run itself refuses it
        return settings
    return {**settings, "rules": config["rules"]} if config.get("rules") else settings


def _game_class(spec: str) -> Any:
    from tournaments.games import plugin_class

    try:
        return plugin_class(spec)
    except ValueError as exc:
        raise CLIError(f"--game: {exc}", usage=True) from None


def restore(t: Any, manifest: dict[str, Any], opts: dict[str, Any]) -> Any:
    """The run ``t`` (built from the options at the games it first asked for) as the
    manifest holds it, grown by ``--games``/``--add``: its stages, record stride, checks."""
    from tournaments.stages import grown_stages

    out, spec = opts["out"], manifest["spec"]
    if list(t.labels) != spec["strategies"]:
        raise _disagree(out, "strategies", t.labels, "strategies", spec["strategies"])
    if not t.game.named(spec.get("game", t.game.name)):
        raise _disagree(out, "--game", t.game.name, "game", spec["game"])
    if opts["record_sample"] is not None and t.record_stride != spec["record_stride"]:
        raise _disagree(out, "--record-sample", opts["record_sample"], "one record every",
                        f"{spec['record_stride']} games")  # fmt: skip
    t.record_stride = int(spec["record_stride"])
    try:
        stages = grown_stages(
            spec["deal_stages"], t.schedule.seats_per_set, spec["games_asked"],
            opts.get("grow_to"), opts.get("add"),
        )  # fmt: skip
    except ValueError as exc:
        raise CLIError(f"cannot resume {out}: {exc}", usage=True) from None
    try:
        return t.with_stages(stages) if stages != t.schedule.stages else t
    except ValueError as exc:
        raise CLIError(f"cannot resume {out}: {exc}", usage=True) from None


def resume_game(opts: dict[str, Any], given: set[str], spec: dict[str, Any]) -> None:
    """A resumed gauntlet's game and settings, restored and checked as ``leaves tournament
    --resume`` restores them (``opts["game_spec"]``, ``opts["game_config"]``)."""
    _game_options(opts, given, spec)


def disagreement(out: str, flag: str, given: Any, field: str, stored: Any) -> CLIError:
    """The one line refusing an option given with ``--resume`` that the run does not have,
    worded as every resume words it (``leaves gauntlet`` names its own options so)."""
    return _disagree(out, flag, given, field, stored)
