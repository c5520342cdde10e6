"""``leaves gauntlet --resume --out DIR``: everything else comes from the run's manifest.

As for ``leaves tournament --resume``: SPEC, the baseline, the field, players, games, seed,
the game and its settings, and a sequential gauntlet's test (margin, alpha, beta, cap) are
read from ``DIR/manifest.json``; an option given alongside must be the run's, and one that is
not is refused in one line naming the option, both values and what to do (``resume_words``).

Imports inside functions: start-up. The packages a command runs on load once its options are
checked, so ``--help`` and a bad option answer at once.
"""

from __future__ import annotations

from typing import Any

from tournaments.manifest_fields import TEST_SETTINGS

from .errors import CLIError
from .options import split_specs
from .resume_words import disagreement

__all__ = ["SEQUENTIAL_OPTIONS", "settle"]

SEQUENTIAL_OPTIONS = tuple((name, "--" + name.replace("_", "-")) for name in TEST_SETTINGS)
"""The options of a sequential gauntlet's test: (option, flag); kept in the spec under
``gauntlet.sequential`` by the option's name."""


def _manifest(out: str | None) -> dict[str, Any]:
    """The gauntlet manifest in ``out``, or one line saying why there is none to resume."""
    from tournaments.manifest_fields import RESUME_READS, check_manifest
    from tournaments.run_state import shell_word  # start-up: it loads numpy

    from .resume import corrupt_manifest, has_manifest, read_manifest

    if out is None:
        raise CLIError("--resume needs --out DIR (the run to continue)", usage=True)
    if not has_manifest(out):
        raise CLIError(f"cannot resume {out}: it holds no run (no manifest.json)", usage=True)
    manifest = read_manifest(out)  # a run's folder that lost it, or unreadable: it says so
    try:  # what it holds is told from a manifest that can be read
        check_manifest(manifest, required=RESUME_READS, resume=True)
    except ValueError as exc:
        raise corrupt_manifest(out, exc) from None
    if not isinstance(manifest["spec"].get("gauntlet"), dict):
        resume = f"'leaves tournament --resume --out {shell_word(out)}'"
        raise CLIError(f"cannot resume {out} with 'leaves gauntlet': it holds a tournament: "
                       f"resume it with {resume}", usage=True)  # fmt: skip
    return manifest


def gauntlet_problem(manifest: dict[str, Any], resume: bool = True) -> str | None:
    """What is wrong with a manifest, a gauntlet's part included (``check_manifest``, which
    checks it), in one line naming the field, or None."""
    from tournaments.manifest_fields import check_manifest

    try:
        check_manifest(manifest, resume=resume)
    except ValueError as exc:
        return str(exc)
    return None


def settle(opts: dict[str, Any], given: set[str]) -> dict[str, Any]:
    """Fill the request's draft ``opts`` (``leaves_cli.request.draft``) from the gauntlet in
    ``opts["out"]`` where not ``given``; refuse given options that disagree with it. Sets
    ``opts["game_config"]`` (the run's game settings), ``opts["field_specs"]`` and
    ``opts["from_run"]``: the options the run filled in, not typed, so a line names each as
    the run's (``origins``). Returns the manifest."""
    from .resume import resume_game

    out = opts["out"]
    manifest = _manifest(out)
    spec = manifest["spec"]
    resume_game(opts, given, manifest)
    stored = {"players": spec["players"][0], "games": spec["games_asked"], "seed": spec["seed"]}
    for name, value in stored.items():
        if name in given and opts[name] != value:
            raise disagreement(out, f"--{name}", opts[name], name, value)
        opts[name] = value
    _sequential(opts, given, manifest)
    _entrants(opts, given, spec)
    filled = {*stored, "spec", "baseline", "against"}
    if opts["sequential"]:  # the run's test
        filled |= {"sequential", *(name for name, _ in SEQUENTIAL_OPTIONS)}
    opts["from_run"] = frozenset(filled - given)
    return manifest


def _sequential(opts: dict[str, Any], given: set[str], manifest: dict[str, Any]) -> None:
    """A sequential gauntlet's test is the run's; a gauntlet of fixed size takes no test."""
    out, settings = opts["out"], manifest["spec"]["gauntlet"].get("sequential")
    if settings is None:
        if isinstance(manifest.get("sequential"), dict):
            raise CLIError(f"cannot resume {out}: its sequential test was run by an earlier "
                           "version, which kept no settings to resume it by (start a new --out)",
                           usage=True)  # fmt: skip
        if opts["sequential"]:
            from tournaments.declaration import plural

            unit = plural(str((manifest.get("game_declaration") or {}).get("unit", "game")))
            raise CLIError(f"cannot resume {out}: --sequential differs from this run, a "
                           f"gauntlet of fixed size ({manifest['spec']['games_asked']:,} {unit} "
                           "per side): drop --sequential, or play a sequential gauntlet in a new "
                           "--out", usage=True)  # fmt: skip
        return
    opts["sequential"] = True
    for name, flag in SEQUENTIAL_OPTIONS:
        if name in given and opts[name] is not None and opts[name] != settings[name]:
            raise disagreement(out, flag, opts[name], name.replace("_", " "), settings[name])
        opts[name] = settings[name]


def _entrants(opts: dict[str, Any], given: set[str], spec: dict[str, Any]) -> None:
    """SPEC, --baseline and --against are the run's: compared by the labels they resolve to
    under the run's game, then set to specs that resolve to its entrants."""
    from tournaments.labels import unqualified

    from .resume import entrant_specs
    from .tournament_parts import load_game

    out, names = opts["out"], spec["gauntlet"]
    where = qualifiers(spec)

    def bare(label: str) -> str:  # what the strategy's spec resolves to on its own
        return unqualified(label, where.get(label, ""))

    game = load_game(opts["game_spec"], opts["game_config"], stored=True)
    by_label = dict(zip(spec["strategies"], entrant_specs(spec, game), strict=True))

    def label(s: str) -> str:
        try:
            return game.resolve(s)[0]
        except ValueError as exc:
            raise CLIError.of(exc, usage=True) from None

    strategy, baseline = names["strategy"], names["baseline"]
    if opts["spec"] is not None and label(opts["spec"]) != bare(strategy):
        raise disagreement(out, "SPEC", opts["spec"], "strategy", strategy)
    if opts["baseline"] is not None:
        same = baseline == f"{strategy} (baseline)" and label(opts["baseline"]) == bare(strategy)
        if not same and label(opts["baseline"]) != bare(baseline):
            raise disagreement(out, "--baseline", opts["baseline"], "baseline", baseline)
    if "against" in given and opts["against"]:
        field = sorted({label(s) for s in split_specs(opts["against"])})
        if field != sorted({bare(f) for f in names["field"]}):
            raise disagreement(out, "--against", ",".join(split_specs(opts["against"])),
                               "field", ",".join(names["field"]))  # fmt: skip
    opts["spec"], opts["baseline"] = by_label[strategy], by_label[baseline]
    opts["field_specs"] = [by_label[f] for f in names["field"]]


def qualifiers(spec: dict[str, Any]) -> dict[str, str]:
    """{label: the file or module that told it apart from another of its name}, as the run
    recorded them (its manifest's entrants)."""
    return {str(e.get("label")): str(e.get("qualifier") or "") for e in spec.get("entrants") or []}
