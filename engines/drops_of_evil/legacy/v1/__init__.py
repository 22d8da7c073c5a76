"""Drops of Evil: rules engine, data, views and bots (see README.md and VIEW.md)."""
from .engine import DropsOfEvil

ENGINE = DropsOfEvil()
