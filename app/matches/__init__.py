"""Matches: the game-agnostic service, per-viewer views and replays."""
