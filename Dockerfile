# UNTESTED: no container engine runs where this was written (docs/deploy.md).
#
# The Sheepshead server: uvicorn workers on port 8000, behind a reverse proxy, on
# PostgreSQL. Migrations are not run here (SHEEPSHEAD_MIGRATE=0): run them once per
# deployment (compose.yaml's `migrate` service) before the workers start.
#
#   docker build -t sheepshead .
#   docker run -e SHEEPSHEAD_DATABASE_URL=... -e SHEEPSHEAD_DAILY_SECRET=... -p 8000:8000 sheepshead

FROM python:3.11-slim-bookworm AS build
WORKDIR /src
# gcc, mypy and setuptools compile the search's hot modules (docs/bots.md, "The
# compiled search"); the image keeps only what they built.
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
COPY pyproject.toml README.md ./
COPY src ./src
COPY tools/build_native.py ./tools/
RUN pip install --no-cache-dir --root-user-action=ignore mypy==2.4.1 setuptools==80.9.0 \
    && python tools/build_native.py
RUN pip install --no-cache-dir --root-user-action=ignore --prefix=/install .

FROM python:3.11-slim-bookworm
COPY --from=build /install /usr/local
RUN useradd --system --uid 10001 --create-home --home-dir /app sheepshead \
    && mkdir -p /app/data && chown sheepshead /app/data
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    SHEEPSHEAD_DATA_DIR=/app/data \
    SHEEPSHEAD_MIGRATE=0 \
    PROMETHEUS_MULTIPROC_DIR=/tmp/sheepshead-metrics \
    WORKERS=2
USER sheepshead
WORKDIR /app
EXPOSE 8000
# Liveness only: /healthz never looks at the database (a proxy routes on /readyz).
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2)"]
# Each start begins with an empty metrics directory: old workers' files would add up.
# FORWARDED_ALLOW_IPS (uvicorn's) names the proxy allowed to say who the client is.
CMD ["sh", "-c", "rm -rf \"$PROMETHEUS_MULTIPROC_DIR\" && mkdir -p \"$PROMETHEUS_MULTIPROC_DIR\" && exec uvicorn sheepshead.server:create_app --factory --host 0.0.0.0 --port 8000 --workers \"$WORKERS\" --proxy-headers --no-access-log --timeout-graceful-shutdown 20 --timeout-keep-alive 75"]
