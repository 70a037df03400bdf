"""Datasets in and out: the Dataset shape, BEIR and TREC files, benchmark adapters."""

from logir.data.dataset import Dataset, Document, Topic

__all__ = ["Dataset", "Document", "Topic"]
