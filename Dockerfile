# Lair app image: non-root, migrations applied at start (app/docker-entrypoint.sh).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    HOST=0.0.0.0 \
    PORT=8000

WORKDIR /srv/lair
RUN useradd --create-home --uid 10001 --shell /usr/sbin/nologin lair

COPY pyproject.toml README.md alembic.ini ./
COPY app ./app
COPY engines ./engines
COPY migrations ./migrations
COPY static ./static
COPY templates ./templates
RUN pip install -e . && chown -R lair:lair /srv/lair

USER lair
EXPOSE 8000
# Workers (WEB_CONCURRENCY) share their metrics here; the entry point empties it at each start.
ENV PROMETHEUS_MULTIPROC_DIR=/tmp/lair-metrics
# Ready = database reachable and migrated to head (docs/operations.md, "Health").
HEALTHCHECK --interval=10s --timeout=3s --retries=5 \
  CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/readyz', timeout=2)"
ENTRYPOINT ["/srv/lair/app/docker-entrypoint.sh"]
# `lair serve` (app/serve.py): uvicorn with the options from the settings: JSON logs from the
# first line, WEB_CONCURRENCY worker processes, the websocket frame limit, queue, keepalive pings
# and WS_DEFLATE, GRACEFUL_TIMEOUT (20 s) and FORWARDED_ALLOW_IPS, the proxy's address
# (default: 127.0.0.1 only, so no client can claim another address and escape the per-address
# rate limits; set the proxy's address or network: docs/operations.md, "Hosting").
ENV FORWARDED_ALLOW_IPS="127.0.0.1"
CMD ["lair", "serve"]
