"""The app's settings file: defaults overlaid with saved values, atomic saves, errors that name the file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.config import (
    AppConfig,
    AppEnv,
    ConfigError,
    confirmed,
    load_config,
    model_kind,
    remote_host,
    save_config,
    unconfirmed_remote,
)


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
        "ollama:llama3.2",
        "dark",
        "teal",
        tmp_path / "data" / "exports",
    )


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
        ("none", ""),
        ("embedded", ""),
        ("gguf", "/m/x.gguf"),
        ("ollama", "qwen"),
        ("embedded", ""),
    ]
    # The one grammar (agent.models.ModelSpec): kinds in any case, arguments as typed; a kind without its
    # argument shows that kind with an empty field to fill.
    typed = ("NONE", " Embedded ", "LlamaCpp:/M/X.gguf", "Ollama:Qwen", "llamacpp:", "ollama:")
    assert [model_kind(m) for m in typed] == [
        ("none", ""),
        ("embedded", ""),
        ("gguf", "/M/X.gguf"),
        ("ollama", "Qwen"),
        ("gguf", ""),
        ("ollama", ""),
    ]


def test_environment_settings(monkeypatch, tmp_path):
    monkeypatch.setenv("FDAX_APP_CONFIG", str(tmp_path / "x.json"))
    monkeypatch.setenv("FDAX_APP_PORT", "0")
    env = AppEnv()
    assert (env.app_config, env.app_port) == (tmp_path / "x.json", 0)


def test_remote_hosts_are_every_address_but_this_computers_own():
    local = [
        "http://127.0.0.1:11434",
        "http://localhost:11434",
        "http://[::1]:11434",
        "http://127.8.9.10/",
        "http://ollama.localhost:11434",
        "http:///nohost",
    ]
    assert [remote_host(u) for u in local] == [""] * len(local)
    assert [
        remote_host(u)
        for u in (
            "http://gpu-box:11434",
            "https://10.0.0.5:11434/",
            "http://0.0.0.0:11434",
            "http://[2001:db8::1]:11434",
            "http://127.0.0.1.evil.example/",
        )
    ] == ["gpu-box", "10.0.0.5", "0.0.0.0", "2001:db8::1", "127.0.0.1.evil.example"]


def test_a_settings_file_sending_questions_to_another_computer_needs_the_confirmation(tmp_path):
    path = tmp_path / "app.json"
    remote = {"model": "ollama:llama3.2", "ollama_url": "http://gpu-box.example:11434"}
    path.write_text(json.dumps(remote))  # what a hostile page or a stray edit would write
    with pytest.raises(
        ConfigError,
        match=r"sends your questions to the Ollama server at http://gpu-box.example"
        r":11434, on another computer \(gpu-box.example\), and this was not "
        r"confirmed: choose that server again on the Settings screen",
    ):
        load_config(path, defaults(tmp_path))
    path.write_text(json.dumps({**remote, "ollama_remote_confirmed": "http://other.example:11434"}))
    with pytest.raises(ConfigError, match="not confirmed"):  # a confirmation is for one address only
        load_config(path, defaults(tmp_path))
    path.write_text(json.dumps({**remote, "ollama_remote_confirmed": "http://gpu-box.example:11434/"}))
    assert load_config(path, defaults(tmp_path)).ollama_url == "http://gpu-box.example:11434"
    path.write_text(json.dumps({**remote, "model": "none"}))  # no Ollama model: nothing is sent
    assert load_config(path, defaults(tmp_path)).model == "none"
    env_remote = defaults(tmp_path).model_copy(update=remote)  # FDAX_OLLAMA_URL / --ollama-url: the user's own
    path.write_text(json.dumps({"theme": "dark"}))
    assert load_config(path, env_remote).ollama_url == "http://gpu-box.example:11434"


def test_saving_another_computer_needs_the_confirmation(tmp_path):
    path = tmp_path / "app.json"
    config = defaults(tmp_path).model_copy(update={"model": "ollama:qwen", "ollama_url": "http://10.1.2.3:11434"})
    assert unconfirmed_remote(config) == "10.1.2.3"
    with pytest.raises(
        ConfigError,
        match=r"settings not saved to .*app.json: the Ollama server at "
        r"http://10.1.2.3:11434 is on another computer \(10.1.2.3\)",
    ):
        save_config(config, path)
    assert not path.exists()
    save_config(confirmed(config), path)
    assert json.loads(path.read_text())["ollama_remote_confirmed"] == "http://10.1.2.3:11434"
    assert unconfirmed_remote(load_config(path, defaults(tmp_path))) == ""
