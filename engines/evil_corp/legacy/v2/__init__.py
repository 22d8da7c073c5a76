"""Evil Corp. (rulebook: shared/rulebooks/evil-corp.txt): rules engine, data, views and bots."""
from .bots import BOTS, SPEC
from .engine import EvilCorpEngine

EvilCorpEngine.bots = BOTS
EvilCorpEngine.search_spec = SPEC
ENGINE = EvilCorpEngine()

__all__ = ["ENGINE", "EvilCorpEngine"]
