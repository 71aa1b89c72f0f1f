"""The app's settings file: defaults overlaid with saved values, atomic saves, errors that name the file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.config import AppConfig, AppEnv, ConfigError, load_config, model_kind, save_config


def defaults(tmp_path: Path) -> AppConfig:
    return AppConfig(model="embedded", data_dir=tmp_path / "data")


def test_a_missing_file_gives_the_defaults_and_a_saved_file_overrides_them(tmp_path):
    path = tmp_path / "conf" / "app.json"
    assert load_config(path, defaults(tmp_path)) == defaults(tmp_path)
    saved = defaults(tmp_path).model_copy(update={"model": "ollama:llama3.2", "theme": "dark", "color": "teal"})
    save_config(saved, path)
    assert not list(path.parent.glob("*.part"))
    loaded = load_config(path, defaults(tmp_path))
    assert (loaded.model, loaded.theme, loaded.color, loaded.exports) == (
        "ollama:llama3.2", "dark", "teal", tmp_path / "data" / "exports")


def test_unknown_keys_are_ignored_and_bad_values_name_the_file(tmp_path):
    path = tmp_path / "app.json"
    path.write_text(json.dumps({"theme": "light", "from_the_future": 1}))
    assert load_config(path, defaults(tmp_path)).theme == "light"
    path.write_text(json.dumps({"theme": "purple"}))
    with pytest.raises(ConfigError, match=f"{path} has a bad theme .*fix or delete it"):
        load_config(path, defaults(tmp_path))
    path.write_text("{not json")
    with pytest.raises(ConfigError, match="cannot read the settings file"):
        load_config(path, defaults(tmp_path))


def test_an_unwritable_place_is_a_config_error(tmp_path):
    (tmp_path / "file").write_text("")
    with pytest.raises(ConfigError, match="choose a writable file with --config or FDAX_APP_CONFIG"):
        save_config(defaults(tmp_path), tmp_path / "file" / "app.json")


def test_model_kinds():
    assert [model_kind(m) for m in ("none", "embedded", "llamacpp:/m/x.gguf", "ollama:qwen", "odd")] == [
        ("none", ""), ("embedded", ""), ("gguf", "/m/x.gguf"), ("ollama", "qwen"), ("embedded", "")]


def test_environment_settings(monkeypatch, tmp_path):
    monkeypatch.setenv("FDAX_APP_CONFIG", str(tmp_path / "x.json"))
    monkeypatch.setenv("FDAX_APP_PORT", "0")
    env = AppEnv()
    assert (env.app_config, env.app_port) == (tmp_path / "x.json", 0)
