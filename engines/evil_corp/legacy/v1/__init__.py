"""Evil Corp. (rulebook: shared/rulebooks/evil-corp.txt): rules engine, data, views and bots."""
from .bots import BOTS
from .engine import EvilCorpEngine

EvilCorpEngine.bots = BOTS
ENGINE = EvilCorpEngine()

__all__ = ["ENGINE", "EvilCorpEngine"]
