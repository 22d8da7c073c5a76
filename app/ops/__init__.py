"""Operator tools, above the domain: health and readiness, graceful shutdown, the admin pages,
the ``lair`` command line, backup verification and the migrations' downgrade helpers. They use
the match service; the service never imports them (docs/design.md, "Layers")."""
