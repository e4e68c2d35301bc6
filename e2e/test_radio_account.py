"""Accounts and plans from the CLI (issue 24 §1): `quintet users invite` prints invitation links
that register once, and `quintet radio plans` manages plans a profile then shows. Registration,
the profile and its picture in Chromium are in test_radio_community.py (the community journey)."""

from __future__ import annotations

import json

import requests

from test_cli import quintet


def test_cli_invites_and_plans(server):
    data = ["--data", str(server.data_dir)]
    printed = quintet("users", "invite", "--days", "2", "--json", "--public-url", "https://radio.example.org", *data)
    assert printed.returncode == 0, printed.stderr
    line = json.loads(printed.stdout)
    assert line["url"] == f"https://radio.example.org/radio/account/?invite={line['token']}"
    first = requests.post(server.url("/api/register"), timeout=10,
                          json={"name": "e2e-cli-invited", "password": "correct horse", "invite": line["token"]})
    assert first.status_code == 201, first.text
    assert quintet("users", "invite", "--days", "0", *data).returncode != 0

    assert quintet("radio", "plans", "add", "e2e-small", "--max-episode", "30m", "--max-online", "1", *data).returncode == 0
    assigned = quintet("radio", "plans", "assign", "e2e-cli-invited", "e2e-small", *data)
    assert assigned.returncode == 0, assigned.stderr
    listed = json.loads(quintet("radio", "plans", "list", "--json", *data).stdout)
    small = next(plan for plan in listed if plan["name"] == "e2e-small")
    assert small["max_episode_seconds"] == 1800 and small["max_episodes_online"] == 1
    profile = requests.get(server.url("/api/radio/profile"), auth=("e2e-cli-invited", "correct horse"), timeout=10).json()
    assert profile["plan"]["name"] == "e2e-small" and profile["usage"] == {"episodes_online": 0, "storage_bytes": 0}
    assert quintet("radio", "plans", "remove", "e2e-small", *data).returncode == 0
