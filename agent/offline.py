"""Nothing phones home: LangChain/LangSmith tracing and other libraries' telemetry are switched off for good.

LangChain sends runs to LangSmith's servers when `LANGSMITH_TRACING` (or the older `LANGCHAIN_TRACING_V2`) is
true in the environment. This product works air-gapped and must make no connection beyond loopback, so the
`agent` package sets these off when it is imported, whatever the environment says.
"""

from __future__ import annotations

import os

__all__ = ["OFFLINE_ENV", "enforce"]

OFFLINE_ENV = {
    "LANGSMITH_TRACING": "false",
    "LANGCHAIN_TRACING_V2": "false",
    "LANGCHAIN_TRACING": "false",
    "LANGSMITH_OTEL_ENABLED": "false",
    "HF_HUB_OFFLINE": "1",
    "DO_NOT_TRACK": "1",
}


def enforce() -> None:
    os.environ.update(OFFLINE_ENV)
