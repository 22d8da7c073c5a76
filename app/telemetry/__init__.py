"""Telemetry, below the domain: JSON logs, the operational events, Prometheus metrics and the
per-request context. Nothing here imports ``app.matches``: the service and the websocket call
down into it (docs/design.md, "Layers")."""
