"""Reading a human's move: a key from the numbered list, or the move typed out.

Kept apart from the ``leaves play`` loop so the one place that turns text into an ``Action``
(and says in one line why a text is not a legal move now) can be read and tested alone.
"""

from __future__ import annotations

import re
import unicodedata

from leaves import Action, IllegalActionError, State

from . import render

_KEY_DIGITS = 6
"""The longest number a typed move reads: a longer one names no count or value (and ``int()``
refuses a number of thousands of digits); a key is read whatever its leading zeros."""
_PLAY_RE = re.compile(r"(?:play\s*)?(\d+)\s*[x*]\s*(\d+)")
_TAKE_RE = re.compile(r"(?:pass\s*,?\s*)?(?:take|t)\s*(\d+)|pass\s*,?\s*(\d+)")
_NUMBER = re.compile(r"\d+")
_SHOWN = 24
"""How much of an unreadable text the error quotes."""


class MoveError(ValueError):
    """Input that is not a legal move now; the message says why."""


def _plain_pass(state: State) -> Action:
    """What 'pass' alone means: the pass taking nothing under take=nothing; elsewhere a
    question back naming the stacks a pass may take from (take=ends: the ends only); on an
    empty table, why no pass is possible, said of the 'pass' typed."""
    if state.ends is None:  # apply() says why a pass is impossible here, of the pass typed
        try:
            state.apply(Action.pass_() if state.rules.take == "nothing" else Action.take(1))
        except IllegalActionError as exc:
            raise MoveError(f"Illegal move 'pass': {exc}") from None
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


def _echoed(text: str, quote: bool = False) -> str:
    """``text`` a person typed, as the prompt's error echoes it (``quote``: in quotes): whole
    when short, else its start and its length, which tell them what they typed (a program's
    bad value is ``gamekit.errors.shown``'s: its type, its first 60 characters; a key is
    echoed bare, as typed). One line: a key is digits, a quoted text repr's (escaped)."""
    if len(text) <= _SHOWN:
        return repr(text) if quote else text
    what = "digits" if text.isdigit() else "characters"
    start = repr(text[:12] + "...") if quote else text[:12] + "..."
    return f"{start} ({len(text):,} {what})"


def _plain_number(digits: str) -> str:
    """The number ``digits`` (decimal digits of any script) name, written as a key is: in
    0-9, without leading zeros ("0000001" and "１" are 1, whatever their length, and
    ``int()`` reads it however many zeros led it)."""
    number = "".join(str(unicodedata.decimal(c)) for c in digits)
    return number.lstrip("0") or "0"


def _keys(n: int) -> tuple[str, str]:
    """The ``n`` moves' keys said two ways: 'the keys are 1 to 5' and 'a key (1 to 5)' ('the
    key is 1' and 'the key (1)' where one move is legal)."""
    if n == 1:
        return "the key is 1", "the key (1)"
    return f"the keys are 1 to {n}", f"a key (1 to {n})"


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
    if t.isdecimal() and (key := _plain_number(t)) in keys:  # "01" or a full-width "１"
        return keys[key]
    if t.isdigit():
        raise MoveError(f"No move has the key {_echoed(t)}: {_keys(len(legal))[0]}.")
    longest = max((len(_plain_number(n)) for n in _NUMBER.findall(t)), default=0)
    if longest > _KEY_DIGITS:  # its leading zeros aside: "0000001" is 1
        raise MoveError(f"Not a move: a number of {longest:,} digits is no key, count or value")
    action: Action | None = None
    try:
        if m := _PLAY_RE.fullmatch(t):
            action = Action.play(int(_plain_number(m.group(2))), int(_plain_number(m.group(1))))
        elif m := _TAKE_RE.fullmatch(t):
            action = Action.take(int(_plain_number(m.group(1) or m.group(2))))
        elif t == "pass":
            action = _plain_pass(state)
        else:
            action = Action.parse(t)
    except ValueError as exc:
        if isinstance(exc, MoveError):
            raise
        if "cannot read" in str(exc):
            raise MoveError(
                f"Cannot read a move from {_echoed(text.strip(), quote=True)}: type "
                f"{_keys(len(legal))[1]}, a play like '3x6' (three 6s) or a pass like "
                f"'{render.typed_pass(state.rules)}'"
            ) from None
        raise MoveError(f"Not a move: {exc}") from None
    if action in legal:
        return action
    try:
        state.apply(action)
    except IllegalActionError as exc:
        raise MoveError(f"Illegal move '{action}': {exc}") from None
    raise MoveError(f"Illegal move '{action}'")  # pragma: no cover - rules agree
