"""Composers: how per-term scores become one ranking.

``contract.py`` holds what every composer is (:class:`Composer`, ``Param``, caches);
``registry.py`` names them and builds them from specs; ``rewriters/`` holds the LLM rewriters.
"""

from logir.logic.contract import Composer
from logir.logic.ranking import Ranking
from logir.logic.registry import composers, get_composer

__all__ = ["Composer", "Ranking", "composers", "get_composer"]
