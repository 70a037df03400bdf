"""Composers: how per-term scores become one ranking."""

from logir.logic.base import Composer, get_composer
from logir.logic.ranking import Ranking

__all__ = ["Composer", "Ranking", "get_composer"]
