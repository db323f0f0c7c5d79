"""DTOs: request and response bodies, separate from domain models."""
