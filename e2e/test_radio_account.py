"""Accounts and plans from the CLI (issue 24 §1): `quintet users invite` prints invitation links
that register once, and `quintet radio plans` manages plans a profile then shows. Registration,
the profile and its picture in Chromium are in test_radio_community.py (the community journey)."""

from __future__ import annotations

import json

import requests

from test_cli import quintet
from test_radio_feed import create_show


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


def test_cli_follow_unfollow_following(server):
    data = ["--data", str(server.data_dir)]
    for name in ("e2e-cli-fan", "e2e-cli-author"):
        made = quintet("users", "add", name, *data, stdin="correct horse\n")
        assert made.returncode == 0, made.stderr
    show = create_show(server, "--title", "CLI followed show", "--owner", "e2e-cli-author")
    assert quintet("radio", "follow", "--user", "e2e-cli-fan", "--show", str(show["id"]), *data).returncode == 0
    assert quintet("radio", "follow", "--user", "e2e-cli-fan", "--person", "e2e-cli-author", *data).returncode == 0
    listed = json.loads(quintet("radio", "following", "--user", "e2e-cli-fan", "--json", *data).stdout)
    assert listed["shows"] == [{"id": show["id"], "title": "CLI followed show"}]
    assert [p["name"] for p in listed["people"]] == ["e2e-cli-author"]
    # What the CLI wrote is what the server answers.
    answer = requests.get(server.url(f"/api/radio/shows/{show['id']}"), auth=("e2e-cli-fan", "correct horse"), timeout=10).json()
    assert answer["followed_by_you"] is True and answer["followers"] == 1
    # Clear refusals: oneself, a show that does not exist, neither or both targets.
    myself = quintet("radio", "follow", "--user", "e2e-cli-fan", "--person", "e2e-cli-fan", *data)
    assert myself.returncode != 0 and "cannot follow yourself" in myself.stderr
    missing = quintet("radio", "follow", "--user", "e2e-cli-fan", "--show", "987654", *data)
    assert missing.returncode != 0 and "no show 987654" in missing.stderr
    assert quintet("radio", "follow", "--user", "e2e-cli-fan", *data).returncode != 0
    assert quintet("radio", "unfollow", "--user", "e2e-cli-fan", "--show", str(show["id"]), *data).returncode == 0
    listed = json.loads(quintet("radio", "following", "--user", "e2e-cli-fan", "--json", *data).stdout)
    assert listed["shows"] == []
