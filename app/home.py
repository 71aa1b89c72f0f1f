"""What a new conversation starts from: example questions that the loaded mirror can answer, and the model's state."""

from __future__ import annotations

from collections.abc import Callable

from .backend import Backend
from .config import model_kind
from .jobs import Jobs

__all__ = ["HomeModel", "model_state"]

# (question template, dataset, the openFDA query whose first term fills {term}, or "" for a question without one)
EXAMPLES = [
    ("How many adverse events for product code {term}?", "event", "count=device.device_report_product_code.exact"),
    ("Top manufacturers by number of adverse events", "event", ""),
    ("Adverse events by year", "event", ""),
    ("Recalls by {term}", "recall", "count=recalling_firm.exact"),
    ("Show 510(k) {term}", "510k", "k_number"),
    ("Show PMA {term}", "pma", "pma_number"),
]


def model_state(backend: Backend, ready: bool) -> tuple[str, str]:
    """(the model as a person reads it, its state: loading, ready, or not available)."""
    kind, arg = model_kind(backend.config.model)  # the one grammar (agent.modelspec), any case
    shown = {
        "none": "No model: answers are written from the data alone",
        "embedded": "Embedded model (SmolLM2-135M, on this computer)",
        "ollama": f"Ollama model {arg}",
        "gguf": f"Model file {arg.replace(chr(92), '/').rsplit('/', 1)[-1]}",
    }.get(kind, backend.config.model)
    if not ready:
        return shown, "loading…"
    if backend.model_note:
        return shown, "not available: answers are written without it"
    return shown, "ready"


class HomeModel:
    """The example questions, checked against the mirror in the background (each names something it holds)."""

    def __init__(self, backend: Backend, jobs: Jobs, changed: Callable[[str], None]) -> None:
        self.backend, self.jobs, self._changed = backend, jobs, changed
        self.examples: list[str] = []

    def refresh(self) -> None:
        self.jobs.submit("io", self._load, doing="choosing example questions")

    def _load(self) -> None:
        try:
            self.examples = self._examples()
        except Exception:  # examples are a help, never a failure: the home shows none
            self.examples = []
        self._changed("ask")

    def _examples(self) -> list[str]:
        with self.backend.using() as assistant:
            return self._checked(assistant.ctx.api)

    @staticmethod
    def _checked(api) -> list[str]:
        held = api.datasets()
        out = []
        for template, dataset, query in EXAMPLES:
            if dataset not in held:
                continue
            path = f"/device/{dataset}.json"
            if not query:
                response = api.get(path, "limit=1")
                if response.status == 200:
                    out.append(template)
                continue
            if query.startswith("count="):
                response = api.get(path, f"{query}&limit=1")
                term = response.json()["results"][0]["term"] if response.status == 200 else ""
            else:
                response = api.get(path, "limit=1")
                term = response.json()["results"][0].get(query, "") if response.status == 200 else ""
            if term:
                out.append(template.format(term=term))
        return out[:6]
