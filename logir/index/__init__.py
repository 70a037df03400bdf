"""Scorers and their on-disk indexes."""
