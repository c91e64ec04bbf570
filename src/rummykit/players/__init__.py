"""Computer players.  A player sees only what its seat sees: ``choose(view,
legal_actions)`` gets the seat's view and the legal actions, nothing else."""

from .base import Player, make_player
from .heuristic import HeuristicPlayer
from .random_player import RandomPlayer

__all__ = ["HeuristicPlayer", "Player", "RandomPlayer", "make_player"]
