# rummykit serve in a container. Untested here (no docker daemon where it was written);
# see docs/deploy.md.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
WORKDIR /src
COPY pyproject.toml README.md ./
COPY src ./src
RUN pip install '.[serve]' && rm -rf /src

RUN useradd --create-home --uid 10001 rummykit && mkdir /data && chown rummykit /data
USER rummykit
WORKDIR /home/rummykit
VOLUME /data
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/api/health', timeout=4)"
CMD ["rummykit", "serve", "--host", "0.0.0.0", "--port", "8000", "--db", "sqlite:////data/server.db"]
