"""Composers that rewrite the query text with an LLM before retrieval: HyDE, LameR, InteR, AGR."""

from logir.logic.rewriters.agr import AGR
from logir.logic.rewriters.hyde import HyDE
from logir.logic.rewriters.inter import InteR
from logir.logic.rewriters.lamer import LameR
from logir.logic.rewriters.rewrite import Expansion, Rewriter

__all__ = ["AGR", "Expansion", "HyDE", "InteR", "LameR", "Rewriter"]
