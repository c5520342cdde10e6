"""Reading a human's move: a key from the numbered list, or the move typed out.

Kept apart from the ``leaves play`` loop so the one place that turns text into an ``Action``
(and says in one line why a text is not a legal move now) can be read and tested alone.
"""

from __future__ import annotations

import re

from leaves import Action, IllegalActionError, State

from . import render

_PLAY_RE = re.compile(r"(?:play\s*)?(\d+)\s*[x*]\s*(\d+)")
_TAKE_RE = re.compile(r"(?:pass\s*,?\s*)?(?:take|t)\s*(\d+)|pass\s*,?\s*(\d+)")
_KEY_DIGITS = 6
"""The longest key read as a number ("000012" is key 12); longer digit strings name no key."""


class MoveError(ValueError):
    """Input that is not a legal move now; the message says why."""


def _plain_pass(state: State) -> Action:
    """What 'pass' alone means: the pass taking nothing under take=nothing; elsewhere a
    question back naming the stacks a pass may take from (take=ends: the ends only)."""
    if state.ends is None:
        return Action.take(1)  # apply() explains why a pass is impossible here
    if state.rules.take == "nothing":
        return Action.pass_()
    values = [v for v, _ in state.stacks]
    if state.rules.take == "ends":
        values = sorted({end for end, _ in state.ends})
    stacks = ", ".join(map(str, values))
    where = "end stacks" if state.rules.take == "ends" else "stacks"
    raise MoveError(
        f"A pass takes a card: say which, e.g. 'take {values[-1]}' ({where}: {stacks})."
    )


def parse_move(text: str, state: State) -> Action:
    """The legal action the human means by ``text`` (a key or a typed move) in ``state``.

    Raises MoveError with a one-line reason: an unknown key, unreadable text, or the rule the
    move breaks (the ``IllegalActionError`` message of ``State.apply``).
    """
    legal = state.legal_actions()
    keys = render.move_keys(legal)
    t = text.strip().lower()
    if t in keys:
        return keys[t]
    # "01" or a full-width "１": that key, not none (a short key only: int() refuses a number
    # of thousands of digits)
    if t.isdecimal() and len(t) <= _KEY_DIGITS and str(int(t)) in keys:
        return keys[str(int(t))]
    if t.isdigit():
        shown = t if len(t) <= 12 else f"{t[:12]}... ({len(t):,} digits)"
        raise MoveError(f"No move has the key {shown}: the keys are 1 to {len(legal)}.")
    action: Action | None = None
    try:
        if m := _PLAY_RE.fullmatch(t):
            action = Action.play(int(m.group(2)), int(m.group(1)))
        elif m := _TAKE_RE.fullmatch(t):
            action = Action.take(int(m.group(1) or m.group(2)))
        elif t == "pass":
            action = _plain_pass(state)
        else:
            action = Action.parse(t)
    except ValueError as exc:
        if isinstance(exc, MoveError):
            raise
        if "cannot read" in str(exc):
            raise MoveError(
                f"Cannot read a move from {text.strip()!r}: type a key (1 to {len(legal)}), "
                "a play like '3x6' (three 6s) or a pass like 'take 9'"
            ) from None
        raise MoveError(f"Not a move: {exc}") from None
    if action in legal:
        return action
    try:
        state.apply(action)
    except IllegalActionError as exc:
        raise MoveError(f"Illegal move '{action}': {exc}") from None
    raise MoveError(f"Illegal move '{action}'")  # pragma: no cover - rules agree
