"""The assistant: a LangGraph agent over the mirror's tools, on a local model or none; depends on mirror only."""

from .offline import enforce as _enforce_offline

_enforce_offline()  # before anything imports LangChain: no tracing, no telemetry (agent/offline.py)

__all__: list[str] = []
