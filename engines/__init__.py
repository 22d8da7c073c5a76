"""Lair's game engines: pure, deterministic rules code (no I/O, no web). See docs/design.md."""
