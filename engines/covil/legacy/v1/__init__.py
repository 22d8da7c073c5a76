"""Covil: The Dark Overlords -- rules engine package (see README.md)."""
from .engine import CovilEngine
from . import bots as _bots

ENGINE = CovilEngine()
CovilEngine.bots = _bots.BOTS
