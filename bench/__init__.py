"""Lair load benchmark (see bench/README.md): `make bench` runs bench/load.py."""
