"""Covil: The Dark Overlords -- rules engine package (see README.md)."""
from . import bots as _bots
from .engine import CovilEngine

ENGINE = CovilEngine()
CovilEngine.bots = _bots.BOTS
CovilEngine.search_spec = _bots.SPEC
