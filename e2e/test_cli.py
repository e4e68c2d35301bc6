"""The `quintet` command line, run as a user runs it: the real binary, a real data folder."""

from __future__ import annotations

import json
import os
import subprocess

import requests

from conftest import quintet_binary


def quintet(*args: str, stdin: str | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(quintet_binary()), *args],
        input=stdin, capture_output=True, text=True, timeout=60, env=env,
    )


def test_version_and_help():
    version = quintet("--version")
    assert version.returncode == 0 and version.stdout.strip() == "0.1.0"
    help_text = quintet("--help").stdout
    for subcommand in ("serve", "users", "bench"):
        assert f"  {subcommand} " in help_text, help_text


def test_users_lifecycle_in_a_data_folder(tmp_path):
    data = str(tmp_path / "data")
    added = quintet("users", "add", "ada", "--role", "admin", "--json", "--data", data, stdin="lovelace1815\n")
    assert added.returncode == 0, added.stderr
    assert json.loads(added.stdout)["role"] == "admin"
    duplicate = quintet("users", "add", "ADA", "--data", data, stdin="lovelace1815\n")
    assert duplicate.returncode != 0 and "already exists" in duplicate.stderr
    short = quintet("users", "add", "bob", "--data", data, stdin="short\n")
    assert short.returncode != 0 and "at least 8" in short.stderr
    listed = json.loads(quintet("users", "list", "--json", "--data", data).stdout)
    assert [(u["name"], u["role"]) for u in listed] == [("ada", "admin")]
    assert all("password" not in key for user in listed for key in user)
    assert quintet("users", "remove", "ada", "--data", data).returncode == 0
    assert json.loads(quintet("users", "list", "--json", "--data", data).stdout) == []


def test_cli_works_on_the_folder_the_server_is_using(server):
    data = str(server.data_dir)
    added = quintet("users", "add", "grace", "--data", data, stdin="cobol-1959\n")
    assert added.returncode == 0, added.stderr
    assert requests.get(server.url("/healthz"), timeout=5).json()["database"] == "ok"
    names = [u["name"] for u in json.loads(quintet("users", "list", "--json", "--data", data).stdout)]
    assert "grace" in names


def test_bad_settings_are_clear_errors(tmp_path):
    port = quintet("serve", "--port", "70000", "--data", str(tmp_path))
    assert port.returncode != 0 and "between 0 and 65535" in port.stderr
    env = {**os.environ, "QUINTET_PORT": "eighty"}
    env_port = quintet("serve", "--data", str(tmp_path), env=env)
    assert env_port.returncode != 0 and "QUINTET_PORT" in env_port.stderr
    web = quintet("serve", "--web", str(tmp_path / "nowhere"), "--data", str(tmp_path), "--port", "0")
    assert web.returncode != 0 and "Web folder" in web.stderr


def test_bench_fft_prints_json():
    result = quintet("bench", "fft", "--size", "1024", "--runs", "5", "--json")
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout)
    assert figures["size"] == 1024 and figures["runs"] == 5
    assert 0 < figures["bestMicroseconds"] <= figures["medianMicroseconds"]


def test_library_graph_expand_and_walk_match_the_server(server):
    """`quintet library graph expand|walk` on the data folder the server uses answer what the
    API answers (the demo library: Maya Okafor's "Glass River" has two covers)."""
    server.wait_for_library()
    user, password = server.admin
    found = requests.get(server.url("/api/library/songs"), params={"q": "glass river"}, auth=(user, password), timeout=30)
    glass = next(s for s in found.json()["songs"] if s["artist"] == "Maya Okafor")
    expanded = quintet("library", "graph", "expand", f"song:{glass['id']}", "--edges", "cover,song_of", "--json",
                       "--data", str(server.data_dir))
    assert expanded.returncode == 0, expanded.stderr
    cli = json.loads(expanded.stdout)
    api = requests.get(server.url("/api/library/graph/expand"), params={"node": f"song:{glass['id']}", "edges": "cover,song_of"},
                       auth=(user, password), timeout=30).json()
    assert [(n["kind"], n["id"], n["edge"], n["more"]) for n in cli["neighbours"]] == \
        [(n["kind"], n["id"], n["edge"], n["more"]) for n in api["neighbours"]]
    assert [n["edge"] for n in cli["neighbours"]] == ["song_of", "cover", "cover"]
    walked = quintet("library", "graph", "walk", str(glass["id"]), "--count", "5", "--json", "--data", str(server.data_dir))
    assert walked.returncode == 0, walked.stderr
    ids = [s["id"] for s in json.loads(walked.stdout)["songs"]]
    assert ids[0] == glass["id"] and len(ids) == 5 and len(set(ids)) == 5
    bad = quintet("library", "graph", "expand", "song:nope", "--data", str(server.data_dir))
    assert bad.returncode != 0 and "artist:ID, album:ID or song:ID" in bad.stderr
