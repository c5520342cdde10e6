"""``leaves variants --sweep KEY=V1,V2,...`` (or ``KEY=LO..HI`` for a key that takes a whole
number): the rule sets of a sweep over one key, every other ``--rules`` held fixed, and which
of them plays as today's rules (that point is the default run, played once).

Imports inside functions: start-up. The packages a command runs on load once its options are
checked, so ``--help`` and a bad option answer at once.
"""

from __future__ import annotations

from typing import Any

from leaves_cli.errors import CLIError

MAX_POINTS = 16
"""Most values one sweep plays (each is a tournament of its own)."""
INTEGER_KEYS = ("hand_size", "expert_target", "turn_limit")
"""The keys a range LO..HI can sweep (they take one whole number)."""


def _values(key: str, text: str) -> list[str]:
    if ".." in text:
        if key not in INTEGER_KEYS:
            raise CLIError(f"--sweep {key}={text}: a range LO..HI sweeps a key that takes one "
                           f"whole number ({', '.join(INTEGER_KEYS)}); list the values of "
                           f"{key} instead: {key}=V1,V2,...", usage=True)  # fmt: skip
        lo, _, hi = text.partition("..")
        try:
            a, b = int(lo), int(hi)
        except ValueError:
            raise CLIError(f"--sweep {key}={text}: write LO..HI with whole numbers",
                           usage=True) from None  # fmt: skip
        if b < a:
            raise CLIError(f"--sweep {key}={text}: the range is empty (LO > HI)", usage=True)
        return [str(v) for v in range(a, b + 1)]
    values = [v.strip() for v in text.split(",")]
    if any(not v for v in values):
        raise CLIError(f"--sweep {key}={text}: an empty value", usage=True)
    return values


def _rules_of(key: str, value: str, base: Any) -> Any:
    """The rules of one point of the sweep: ``base`` with ``key`` set to ``value``; a usage
    error that names the value when it is not one ``key`` takes."""
    from leaves.ruleset import Rules

    try:
        return Rules.parse(f"{key}={value}", base=base)
    except ValueError as exc:
        raise CLIError(f"--sweep {key}={value}: {exc}", usage=True) from None


def plays_as(a: Any, b: Any, sizes: list[int], expert: bool = True) -> bool:
    """True when rules ``a`` and ``b`` deal and play alike at the table sizes ``sizes``
    (hand_size=11 is today's rule at 4 players); without ``expert`` matches, whatever their
    match target (it ends a match, never a game)."""
    try:
        same_hands = all(a.hand_size_for(n) == b.hand_size_for(n) for n in sizes)
    except ValueError:
        return False
    keys = ("deck", "min_count", "take", "turn_limit") + (("expert_target",) if expert else ())
    return same_hands and all(getattr(a, k) == getattr(b, k) for k in keys)


def refuse_todays(rules: Any, texts: tuple[str, ...], players: int) -> None:
    """Refuse ``leaves run --rules`` (``texts``, making ``rules``) other than today's that
    deal and play as today's at the run's tables (``expert_target``: it ends a match, and the
    run plays games): the run and the same field under today's rules would be the same games
    twice, their comparison empty."""
    from leaves.ruleset import DEFAULT_RULES

    if rules.is_default or not plays_as(rules, DEFAULT_RULES, [players], expert=False):
        return
    why = ""
    if rules.expert_target != DEFAULT_RULES.expert_target:
        why = " (expert_target ends a match, never a game, and this command plays games)"
    raise CLIError(
        f"{' '.join(f'--rules {t}' for t in texts)} plays as today's rules at {players} "
        f"players{why}: the run would play "
        "the same games twice; give a rule that changes them",
        usage=True,
    )


def only_matches(a: Any, b: Any, expert: bool) -> str:
    """Where rules ``a`` play as ``b`` only for want of matches, what would tell them apart
    (words to add to the refusal); else ''."""
    if expert or a.expert_target == b.expert_target:
        return ""
    return " (expert_target ends a match, never a game: --expert plays matches)"


def sweep_sets(text: str, fixed: tuple[str, ...], sizes: list[int], expert: bool = True
               ) -> tuple[list[Any], list[tuple[str, int]]]:  # fmt: skip
    """(rule sets, today's first; the sweep's points as (value, index of its rule set)).
    A value that plays as today's rules at ``sizes`` (with ``expert`` matches or not) is
    today's run."""
    from leaves.ruleset import DEFAULT_RULES, KEYS, Rules

    key, eq, values_text = text.partition("=")
    key = key.strip()
    if not eq or not key or not values_text.strip():
        raise CLIError(f"--sweep {text!r}: write KEY=V1,V2,... or KEY=LO..HI", usage=True)
    names = [k.name for k in KEYS]
    if key not in names:
        raise CLIError(f"--sweep {text!r}: unknown rule {key!r}; the rules are "
                       f"{', '.join(names)}", usage=True)  # fmt: skip
    try:
        base = Rules.parse(fixed)
    except ValueError as exc:
        raise CLIError(f"--rules {', '.join(fixed)}: {exc}", usage=True) from None
    if any(part.partition("=")[0].strip() == key for t in fixed for part in t.split(",")):
        raise CLIError(f"--rules sets {key}, which --sweep varies: drop one of them", usage=True)
    values = _values(key, values_text.strip())
    too_many = len(values) > MAX_POINTS
    parsed = [] if too_many else [_rules_of(key, v, base) for v in values]  # a bad value first
    if too_many or len(values) < 2:
        raise CLIError(f"--sweep {text!r}: give 2 to {MAX_POINTS} values, got {len(values)}",
                       usage=True)  # fmt: skip
    sets, points = [DEFAULT_RULES], []
    for value, rules in zip(values, parsed, strict=True):
        if plays_as(rules, DEFAULT_RULES, sizes, expert):
            rules = DEFAULT_RULES
        if rules in sets[1:] or any(v == value for v, _ in points):
            raise CLIError(f"--sweep {key}: the value {value} is given twice", usage=True)
        alike = next(((v, i) for v, i in points if i and plays_as(rules, sets[i], sizes, expert)),
                     None)  # fmt: skip
        if alike is not None:
            why = only_matches(rules, sets[alike[1]], expert)
            raise CLIError(f"--sweep {key}: the value {value} plays as {alike[0]} at "
                           f"{sizes_text(sizes)}{why}: the same games twice", usage=True)  # fmt: skip
        if rules not in sets:
            sets.append(rules)
        points.append((value, sets.index(rules)))
    if len(sets) < 2:  # refused before a game is played, not by the report after all of them
        why = next(filter(None, (only_matches(r, DEFAULT_RULES, expert) for r in parsed)), "")
        raise CLIError(f"every value of --sweep {key}={values_text.strip()} plays as today's "
                       f"rules at {sizes_text(sizes)}{why}: nothing to compare; sweep values "
                       "that change the game", usage=True)  # fmt: skip
    return sets, points


def sizes_text(sizes: list[int]) -> str:
    """'4 players', '3 and 4 players', '3, 4 and 5 players': a sweep value plays as today's
    rules only where it does at every size."""
    names = [str(n) for n in sizes]
    head = ", ".join(names[:-1])
    return f"{head + ' and ' if head else ''}{names[-1]} players"
