"""Climb: a tests-only card game, installed as a plug-in (see ``plugin``).

Thirty-six cards, values 1 to 9 four times; each player is dealt six. In turn a player plays
one card higher than the top of the pile, or passes (a player who leads must play). When every
other player has passed since the last card, the pile is cleared and the last player to play
leads. The first to empty their hand wins; a game stops unfinished at the turn limit.
"""

from .rules import HAND, VALUES, deal, legal, play_game

__version__ = "1.0"

__all__ = ["HAND", "VALUES", "deal", "legal", "play_game"]
