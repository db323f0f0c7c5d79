"""The HTTP API (FastAPI): thin routes over ``GraphMemory``."""
