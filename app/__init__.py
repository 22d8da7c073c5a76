"""Lair's web service: lobby, matches, websockets. Knows no game (see engines/)."""
