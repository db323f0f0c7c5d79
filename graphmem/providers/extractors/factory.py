"""Build the configured extractor by name."""

from __future__ import annotations

from graphmem.config import Settings
from graphmem.errors import ConfigError
from graphmem.ports import Extractor

EXTRACTORS = ("rules", "llm")


def build_extractor(settings: Settings) -> Extractor:
    if settings.extractor == "rules":
        from graphmem.providers.extractors.rules import RulesExtractor

        if settings.extract_processes:
            from graphmem.providers.extractors.pool import PooledExtractor

            return PooledExtractor(RulesExtractor(), settings.extract_processes)
        return RulesExtractor()
    if settings.extractor == "llm":
        from graphmem.providers.extractors.llm import LLMExtractor

        if not settings.llm_base_url:
            raise ConfigError(
                "GRAPHMEM_LLM_BASE_URL is required for the llm extractor",
                details={"field": "GRAPHMEM_LLM_BASE_URL"},
            )
        key = settings.llm_api_key.get_secret_value() if settings.llm_api_key else None
        return LLMExtractor(
            base_url=settings.llm_base_url,
            model=settings.llm_model,
            api_key=key,
            timeout_s=settings.llm_timeout_s,
            max_retries=settings.llm_max_retries,
        )
    raise ConfigError(
        f"unknown extractor {settings.extractor!r}; choose one of {', '.join(EXTRACTORS)}",
        details={"field": "GRAPHMEM_EXTRACTOR"},
    )
