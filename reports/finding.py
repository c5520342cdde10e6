"""One sentence of a report's key findings, and the words that join a list of names."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Finding", "and_words"]


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
