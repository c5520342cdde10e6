"""How a resume words its refusal of an option given that the run does not have.

One full sentence: the option as it was given (its flag, its key in the config file, a
positional name), the run's own value, and what to do, which is to give the run's value again
where it can be typed as it stands, or to leave the option out, as a resume reads it from the
run: "--seed 2 differs from this run's seed 1: resume with --seed 1, or drop --seed".
"""

from __future__ import annotations

import re
from typing import Any

from .errors import CLIError
from .toml_values import in_toml

__all__ = ["again", "disagreement", "dropped", "given_as", "same_value", "words"]

_TYPEABLE = re.compile(r"[\w.,=:+/-]+( --[\w-]+ [\w.,=:+/-]+)*")
"""A value that advice may put after its flag as it stands: no space, quote or character a
shell reads (the variants' rule sets joined by their flags, ``a --rules b``, too)."""


def _empty(value: Any) -> bool:
    return value is None or (isinstance(value, list | tuple) and not value)


def words(value: Any, grouped: bool = True) -> str:
    """A stored or given value as the error line prints it: a count with its digits grouped,
    as every other line groups them (20,000,000); a seed (not ``grouped``) in full, as the
    run's other lines print it."""
    if _empty(value):
        return "none"  # never nothing at all: 'the run has strategies ' named no value
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, list | tuple):
        return ",".join(str(v) for v in value)
    if isinstance(value, int) and grouped:
        return f"{value:,}"
    return str(value)


def given_as(named: str) -> str:
    """The option ``named`` (``resume._named``'s words) as the value a refusal shows was given:
    a flag typed over the config file's key ("--seed over seed in c.toml") by its flag, whose
    value replaced the file's; else as named."""
    return named.partition(" over ")[0]


def dropped(named: str) -> str:
    """What leaves out the option ``named`` (``resume._named``'s words): its flag dropped
    ("--seed"), its key removed from the config file ("seed in c.toml"), both where both gave
    it ("--rules after rules in c.toml"; "--seed over seed in c.toml": dropping the flag alone
    brings in the file's value); a positional one ("strategies", "SPEC") not given."""
    for both in (" after ", " over "):
        flag, joined, rest = named.partition(both)
        if joined:
            return f"{dropped(flag)} and {dropped(rest)}"
    key, within, config = named.partition(" in ")
    if within:
        return f"remove {key} from {config}"
    return f"drop {named}" if named.startswith("--") else f"give no {named}"


def again(named: str, value: Any) -> str | None:
    """What gives the run's ``value`` again by the option ``named``, or None where it cannot be
    typed as it stands (none, on or off, a label with spaces, a value shown quoted) or the
    option is positional (its labels need not be the specs that made them)."""
    if _empty(value) or isinstance(value, bool):
        return None
    named = given_as(named)  # the flag typed over the file's key: its value is the one used
    typed = ",".join(str(v) for v in value) if isinstance(value, list | tuple) else str(value)
    if not _TYPEABLE.fullmatch(typed):
        return None
    key, within, config = named.partition(" in ")
    if within and " " not in key:  # as the file writes it: 'seating = balanced' is no TOML
        return f"set {key} to {in_toml(value)} in {config}"
    return f"resume with {named} {typed}" if re.fullmatch(r"--[\w-]+", named) else None


def disagreement(out: Any, named: str, given: Any, field: str, stored: Any, none: str = "",
                 retype: bool = True) -> CLIError:  # fmt: skip
    """The one line refusing the option ``named``, given as ``given``, where the run in ``out``
    holds ``stored`` (its ``field``, in the refusal's words); ``none``: the run's half where it
    holds no value ('no --load', a default in words), rather than 'no {field}'; not ``retype``:
    ``stored`` is no value to give again (labels, which need not be the specs that made them).
    A switch typed (``--repeats``, ``--no-rows``) is named as typed, the run as played with it
    or without."""
    if isinstance(given, bool) and isinstance(stored, bool) and named.startswith("--"):
        flag = given_as(named)
        typed = flag if given else f"--no-{flag.removeprefix('--')}"
        played = "with" if stored else "without"
        drop = dropped(named.replace(flag, typed, 1))
        return CLIError(f"cannot resume {out}: {typed} differs from this run, played {played} "
                        f"{flag}: {drop}", usage=True)  # fmt: skip
    grouped = "seed" not in (field.lstrip("-"), given_as(named).lstrip("-"))  # a seed in full
    if _empty(stored):
        theirs = f"this run, which has {none or f'no {field}'}"
    else:
        theirs = f"this run's {field} {words(stored, grouped)}"
    back, drop = again(named, stored) if retype else None, dropped(named)
    return CLIError(
        f"cannot resume {out}: {given_as(named)} {words(given, grouped)} differs from {theirs}: "
        f"{f'{back}, or {drop}' if back else drop}",
        usage=True,
    )


def same_value(option: str, typed: Any, stored: Any) -> bool:
    """Whether a config file's value ``typed`` of ``option`` is the run's ``stored``: its
    table sizes read as --players reads them (3, "3" and [3] name one)."""
    if option != "players":
        return typed == stored
    from tournaments.schedule import parse_players  # start-up: a refusal alone reads it

    try:
        return list(parse_players(typed)) == stored
    except ValueError:  # sizes no run takes: not the run's
        return False
