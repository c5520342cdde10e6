"""One sentence of a report's key findings, the words that join a list of names, and a
length column's name as words."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Finding", "and_words", "measure_words"]


@dataclass(frozen=True)
class Finding:
    """One sentence of the key findings; ``topic`` names the table it comes from."""

    topic: str
    text: str

    def __str__(self) -> str:
        return self.text


def and_words(parts: list[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def measure_words(column: str) -> tuple[str, str]:
    """A length column's name as the words of its unit, (plural, singular): 'turns' ->
    ('turns', 'turn'); a plug-in's 'tricks_played' -> ('tricks played', 'trick played'), its
    first word the one counted (a column's name is no word: 'lasted 3 tricks_played')."""
    first, *rest = column.replace("_", " ").split() or [column]
    one = first[:-1] if first.endswith("s") else first
    return " ".join([first, *rest]), " ".join([one, *rest])
