"""Operations: health and readiness, JSON logs, Prometheus metrics, graceful shutdown, admin."""
