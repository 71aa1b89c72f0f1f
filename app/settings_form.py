"""The Settings screen without a window: the form, its checks, the Ollama connection test, and saving."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from .backend import Backend
from .banners import Banner, one_line
from .config import COLORS, THEMES, AppConfig, confirmed, model_kind, unconfirmed_remote
from .jobs import Jobs

__all__ = ["SettingsForm", "MODEL_KINDS", "MODEL_NOTES", "FIELD_NAMES"]

MODEL_KINDS = {
    "none": "No model: answers are written from the data alone (fastest)",
    "embedded": "Embedded model (SmolLM2-135M, on this computer)",
    "gguf": "A model file on this computer (GGUF)",
    "ollama": "An Ollama server",
}
# What each choice costs and adds, in the words of the Settings screen.
MODEL_NOTES = {
    "none": "Answers come in well under a second and are written from the records alone. Recommended on "
    "a slow computer.",
    "embedded": "Adds a short summary in words; on a slow computer each answer can take 30 seconds or "
    "more. Figures always come from the records, never from the model.",
    "gguf": "A larger model of your choice, run on this computer: better summaries, slower answers.",
    "ollama": "A model served by Ollama (on this computer, or another one you confirm).",
}
FIELD_NAMES = {
    "gguf_path": "Model file",
    "ollama_model": "Ollama model",
    "ollama_url": "Ollama address",
    "data_dir": "Data folder",
    "export_dir": "Export folder",
    "theme": "Theme",
    "color": "Accent colour",
}


class SettingsForm:
    """Edits a copy of the config; `save` hands a checked AppConfig to `apply` (which persists and applies it).

    An Ollama server on another computer would receive every question and the records read to answer it, so
    `save` first asks: `remote` then names that computer (the view shows a dialog) and nothing is saved until
    `confirm_remote()` (saved, with the URL marked as confirmed) or `cancel_remote()` (not saved).
    """

    def __init__(
        self,
        backend: Backend,
        jobs: Jobs,
        changed: Callable[[str], None],
        report: Callable[[Banner], None],
        apply: Callable[[AppConfig], None],
        current: Callable[[], AppConfig],
    ) -> None:
        self.backend, self.jobs, self._changed, self._report, self._apply = backend, jobs, changed, report, apply
        self._current = current  # the settings last saved (the controller's)
        self.values: dict[str, str] = {}
        self.errors: dict[str, str] = {}
        self.ollama_models: list[str] = []
        self.ollama_status = ""
        self.ollama_ok = True  # the last connection test worked (its status is not an error)
        self.testing = False
        self.remote = ""  # a host waiting for "send my questions there" to be confirmed
        self._pending: AppConfig | None = None
        self.embedded_available = backend.embedded_available()
        self.generation = 0  # changes when the form's values change other than by typing
        self.load(self._current())

    def changed(self) -> None:
        self._changed("settings")

    def load(self, config: AppConfig) -> None:
        """Fill the form from `config` (the view then writes every field once: `generation` changes)."""
        self.generation += 1
        kind, arg = model_kind(config.model)
        self.values = {
            "model_kind": kind,
            "gguf_path": arg if kind == "gguf" else "",
            "ollama_model": arg if kind == "ollama" else "",
            "ollama_url": config.ollama_url,
            "data_dir": str(config.data_dir),
            "export_dir": str(config.export_dir or ""),
            "theme": config.theme,
            "color": config.color,
        }
        self.errors = {}
        self.remote, self._pending = "", None

    def put(self, name: str, value: str) -> None:
        """A value chosen for the person (a file picked with Browse…): the view writes it into its field."""
        self.generation += 1
        self.set(name, value)

    def set(self, name: str, value: str) -> None:
        self.values[name] = value or ""
        self.errors.pop(name, None)
        self.changed()

    def model_spec(self) -> str:
        kind = self.values["model_kind"]
        if kind == "gguf":
            return f"llamacpp:{self.values['gguf_path'].strip()}"
        if kind == "ollama":
            return f"ollama:{self.values['ollama_model'].strip()}"
        return kind

    def check(self) -> dict[str, str]:
        """Problems per field (empty when the form can be saved)."""
        v, errors = self.values, {}
        if v["model_kind"] == "gguf":
            path = Path(v["gguf_path"].strip()).expanduser()
            if not v["gguf_path"].strip() or not path.is_file():
                errors["gguf_path"] = "Pick an existing .gguf file"
        if v["model_kind"] == "ollama":
            if not v["ollama_model"].strip():
                errors["ollama_model"] = "Choose a model (Test connection lists them)"
            if not v["ollama_url"].strip().startswith(("http://", "https://")):
                errors["ollama_url"] = "An http:// or https:// URL, e.g. http://127.0.0.1:11434"
        if not v["data_dir"].strip():
            errors["data_dir"] = "Choose a folder for the mirror"
        if v["theme"] not in THEMES:
            errors["theme"] = "system, light or dark"
        if v["color"] not in COLORS:
            errors["color"] = ", ".join(COLORS)
        return errors

    def save(self) -> bool:
        self.errors = self.check()
        if self.errors:
            self._report(
                Banner(
                    "Settings not saved: "
                    + "; ".join(f"{FIELD_NAMES.get(k, k)}: {m.lower()}" for k, m in self.errors.items()),
                    "warning",
                )
            )
            self.changed()
            return False
        v = self.values
        config = self._current().model_copy(
            update={
                "model": self.model_spec(),
                "ollama_url": v["ollama_url"].strip(),
                "data_dir": Path(v["data_dir"].strip()).expanduser(),
                "export_dir": Path(v["export_dir"].strip()).expanduser() if v["export_dir"].strip() else None,
                "theme": v["theme"],
                "color": v["color"],
            }
        )
        self.remote = unconfirmed_remote(config)
        if self.remote:
            self._pending = config
            self.changed()
            return False
        self._apply(config)
        self.changed()
        return True

    def remote_question(self) -> str:
        """What the confirmation dialog says, in plain words."""
        url = self._pending.ollama_url if self._pending else self.values["ollama_url"].strip()
        return (
            f"With this setting, every question you ask, and the FDA records the assistant reads to answer it, "
            f"are sent to the Ollama server at {url}. That is another computer ({self.remote}), not this one. "
            "Send them there only if that computer may receive this information."
        )

    def confirm_remote(self) -> None:
        """The person agreed: save the pending settings with their Ollama URL marked as confirmed."""
        config, self.remote, self._pending = self._pending, "", None
        if config is not None:
            self._apply(confirmed(config))
        self.changed()

    def cancel_remote(self) -> None:
        self.remote, self._pending = "", None
        self._report(Banner("Settings not saved: the Ollama server on another computer was not confirmed.", "info"))
        self.changed()

    def test_ollama(self) -> None:
        self.testing, self.ollama_status = True, "Connecting…"
        self.changed()
        self.jobs.submit("io", self._test, self.values["ollama_url"].strip(), doing="testing the Ollama connection")

    def _test(self, url: str) -> None:
        try:
            self.ollama_models = self.backend.ollama_models(url)
            self.ollama_ok = bool(self.ollama_models)
            n = len(self.ollama_models)
            self.ollama_status = (
                f"Connected to {url}: {n} model{'s' if n != 1 else ''}"
                if self.ollama_models
                else f"Connected to {url}, but it has no models yet: "
                "download one there first (for example: ollama pull llama3.2)"
            )
            if self.ollama_models and self.values["ollama_model"] not in self.ollama_models:
                self.values["ollama_model"] = self.ollama_models[0]
                self.generation += 1  # a value the form chose: the view shows it
        except Exception as e:
            self.ollama_models, self.ollama_status, self.ollama_ok = [], one_line(e), False
        finally:
            self.testing = False
            self.changed()
