"""The radio's live chat (issue 22 §2) with real clients: WebSocket clients (websocket-client) on
`/api/radio/shows/{id}/chat` while an ffmpeg source is live, and the radio page in Chromium.

Two signed-in sockets chat and an anonymous one reads; a message with markup arrives verbatim
and the page shows it as text; signed in from the page's chat form, its text box sends; a
flood is rate-limited; a listener cannot delete, the show's
owner deletes and mutes; a show off the air refuses the socket; after the broadcast the
episode's chat is `GET /api/radio/episodes/{id}/chat` and the page shows it beside the replay."""

from __future__ import annotations

import base64
import json
import time

import requests
import websocket
from selenium.webdriver.common.by import By

from conftest import ARTIFACTS, open_page, severe_console_entries, wait
from test_cli import quintet
from test_radio_live import make_mp3, need_ffmpeg, start_source, wait_episode_done, wait_live

MARKUP = "<b>markup</b> & <i>'quotes'</i>"
HOSTILE = "<img src=x onerror=\"window.__chatPwned = 1\"><script>window.__chatPwned = 2</script>"


def add_user(server, name: str, password: str) -> None:
    added = quintet("users", "add", name, "--data", str(server.data_dir), stdin=password + "\n")
    assert added.returncode == 0, added.stderr


def session_cookie(server, name: str, password: str) -> str:
    answer = requests.post(server.url("/api/session"), json={"name": name, "password": password}, timeout=10)
    assert answer.status_code in (200, 201), answer.text
    return "; ".join(f"{c.name}={c.value}" for c in answer.cookies)


def basic(name: str, password: str) -> list[str]:
    return [f"Authorization: Basic {base64.b64encode(f'{name}:{password}'.encode()).decode()}"]


def chat_url(server, show_id: int) -> str:
    return server.base_url.replace("http://", "ws://") + f"/api/radio/shows/{show_id}/chat"


class Chat:
    """One chat socket: the hello and history it got on joining, and its later messages."""

    def __init__(self, server, show_id: int, **options):
        self.socket = websocket.create_connection(chat_url(server, show_id), timeout=10, **options)
        self.hello = self.recv()
        assert self.hello["type"] == "hello", self.hello
        self.history = self.recv()
        assert self.history["type"] == "history", self.history

    def recv(self, timeout: float = 10) -> dict:
        self.socket.settimeout(timeout)
        return json.loads(self.socket.recv())

    def say(self, text: str) -> None:
        self.socket.send(json.dumps({"type": "say", "text": text}))

    def send(self, **message) -> None:
        self.socket.send(json.dumps(message))

    def until(self, predicate, what: str, timeout: float = 10) -> dict:
        """The next message matching `predicate`, skipping others (e.g. other users' messages)."""
        deadline = time.monotonic() + timeout
        seen = []
        while time.monotonic() < deadline:
            message = self.recv(max(deadline - time.monotonic(), 0.1))
            if predicate(message):
                return message
            seen.append(message)
        raise AssertionError(f"no {what}; got {seen}")

    def close(self) -> None:
        self.socket.close()


def is_message(text: str):
    return lambda m: m.get("type") == "message" and m.get("text") == text


def create_owned_show(server, title: str, owner: str) -> dict:
    made = quintet("radio", "create-show", "--data", str(server.data_dir), "--title", title, "--owner", owner, "--json")
    assert made.returncode == 0, made.stderr
    return json.loads(made.stdout.strip().splitlines()[-1])


def test_live_chat(server, browser, tmp_path):
    need_ffmpeg()
    for name in ("chat-host", "chat-ada", "chat-bob"):
        add_user(server, name, f"{name}-password")
    show = create_owned_show(server, "E2E Chat", "chat-host")
    quiet = create_owned_show(server, "E2E Chat Off Air", "chat-host")

    # A show that is not on the air refuses the socket: not_live and a close with 1008.
    off = websocket.create_connection(chat_url(server, quiet["id"]), timeout=10)
    refusal = json.loads(off.recv())
    opcode, data = off.recv_data(control_frame=True)
    off.close()
    assert refusal["type"] == "error" and refusal["code"] == "not_live", refusal
    assert opcode == websocket.ABNF.OPCODE_CLOSE and int.from_bytes(data[:2], "big") == 1008
    # Not a WebSocket handshake: 426.
    plain = requests.get(server.url(f"/api/radio/shows/{show['id']}/chat"), timeout=10)
    assert plain.status_code == 426 and plain.json()["error"]["code"] == "websocket_required", plain.text

    source = start_source(server, show, make_mp3(tmp_path / "long.mp3", 90))
    try:
        wait_live(server, show["mount"])
        ada = Chat(server, show["id"], cookie=session_cookie(server, "chat-ada", "chat-ada-password"))
        bob = Chat(server, show["id"], header=basic("chat-bob", "chat-bob-password"))
        anonymous = Chat(server, show["id"])
        assert ada.hello["canSay"] and not ada.hello["canModerate"] and ada.hello["user"]["name"] == "chat-ada"
        assert not anonymous.hello["canSay"] and "user" not in anonymous.hello
        assert ada.history["messages"] == [] and ada.hello["episode"] == anonymous.hello["episode"]
        episode = ada.hello["episode"]

        # Both chat; everyone, the anonymous reader included, gets the markup verbatim.
        ada.say(MARKUP)
        for client in (ada, bob, anonymous):
            got = client.until(is_message(MARKUP), "markup message")
            assert got["name"] == "chat-ada" and got["user"] == ada.hello["user"]["id"], got
        bob.say("hi ada")
        for client in (ada, bob, anonymous):
            client.until(is_message("hi ada"), "bob's message")
        # A flood: 5 messages per 10 s per user; the rest refused with retryAfter, not broadcast.
        for i in range(8):
            bob.say(f"flood {i}")
        answers = [bob.until(lambda m: m["type"] == "error" or (m["type"] == "message" and m["text"].startswith("flood")),
                             "flood answer") for _ in range(8)]
        delivered = [m["text"] for m in answers if m["type"] == "message"]
        limited = [m for m in answers if m["type"] == "error"]
        # bob's "hi ada" a moment ago counts too: 4 of the flood pass.
        assert delivered == [f"flood {i}" for i in range(4)], answers
        assert len(limited) == 4 and all(m["code"] == "rate_limited" and 1 <= m["retryAfter"] <= 10 for m in limited), limited
        flood = [ada.until(lambda m: m["type"] == "message" and m["text"].startswith("flood"), "flood") for _ in range(4)]
        assert [m["text"] for m in flood] == delivered

        # The anonymous socket cannot say, and stays open.
        anonymous.say("let me in")
        refused = anonymous.until(lambda m: m["type"] == "error", "refusal")
        assert refused["code"] == "unauthorized", refused

        # The radio page: the live show's chat, its history and new messages, shown as text.
        # Signed out: earlier files of the session may have signed this Chromium in (a session
        # cookie for 127.0.0.1 is sent to every port), whatever page it was left on.
        browser.execute_cdp_cmd("Network.clearBrowserCookies", {})
        open_page(browser, server.url("/radio/"))
        listen = wait(browser, lambda d: next((b for b in d.find_elements(By.CSS_SELECTOR, "[data-play-live]")
                                               if b.get_attribute("data-play-live") == show["mount"]), None),
                      "the live show is not listed", timeout=15)
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", listen)
        listen.click()
        wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#chat-list .chat-text")) >= 2,
             lambda: f"no chat history on the page: {browser.find_element(By.ID, 'chat').text}")
        # The live player says the show and its listeners beside the chat.
        assert browser.find_element(By.ID, "player-show").text.startswith("E2E Chat · "), browser.find_element(By.ID, "player-show").text
        assert "listener" in browser.find_element(By.ID, "player-show").text
        assert browser.find_element(By.ID, "chat-signin").is_displayed()  # "sign in to chat"
        assert not browser.find_element(By.ID, "chat-form").is_displayed()
        ada.say(HOSTILE)
        ada.until(is_message(HOSTILE), "hostile message")
        texts = wait(browser, lambda d: [e.text for e in d.find_elements(By.CSS_SELECTOR, "#chat-list .chat-text")]
                     if len(d.find_elements(By.CSS_SELECTOR, "#chat-list .chat-text")) >= 7 else None,
                     "the new message did not reach the page")
        assert texts == [MARKUP, "hi ada"] + delivered + [HOSTILE], texts
        assert browser.execute_script(
            "return document.querySelectorAll('#chat-list b, #chat-list i, #chat-list img, #chat-list script').length") == 0
        assert browser.execute_script("return window.__chatPwned === undefined")
        browser.execute_script("document.querySelector('#chat').scrollIntoView({block: 'start'})")
        browser.save_screenshot(str(ARTIFACTS / "radio-chat.png"))
        # Signed in from the chat's own form, the page gets a text box and its message reaches the sockets.
        browser.find_element(By.ID, "chat-name").send_keys("chat-ada")
        browser.find_element(By.ID, "chat-password").send_keys("chat-ada-password")
        browser.find_element(By.CSS_SELECTOR, "#chat-signin button[type=submit]").click()
        box = wait(browser, lambda d: d.find_element(By.ID, "chat-text") if d.find_element(By.ID, "chat-form").is_displayed()
                   else None, "no text box after signing in")
        box.send_keys("from the page <u>")
        browser.find_element(By.CSS_SELECTOR, "#chat-form button[type=submit]").click()
        sent = bob.until(is_message("from the page <u>"), "the page's message")
        assert sent["name"] == "chat-ada", sent
        # Signed out again: the shared browser's other pages expect no session.
        assert browser.execute_script("return fetch('/api/session', {method: 'DELETE'}).then((r) => r.status)") == 204

        # A listener cannot delete or mute; the owner can.
        target = flood[0]["id"]
        ada.send(type="delete", id=target)
        assert ada.until(lambda m: m["type"] == "error", "refusal")["code"] == "forbidden"
        ada.send(type="mute", user=bob.hello["user"]["id"], minutes=5)
        assert ada.until(lambda m: m["type"] == "error", "refusal")["code"] == "forbidden"
        host = Chat(server, show["id"], header=basic("chat-host", "chat-host-password"))
        assert host.hello["canModerate"]
        assert [m["text"] for m in host.history["messages"]] == [MARKUP, "hi ada"] + delivered + [HOSTILE, "from the page <u>"]
        host.send(type="delete", id=target)
        for client in (ada, bob, anonymous, host):
            assert client.until(lambda m: m["type"] == "deleted", "deletion")["id"] == target
        wait(browser, lambda d: "flood 0" not in d.find_element(By.ID, "chat-list").text,
             "the deleted message is still on the page")
        host.send(type="mute", user=bob.hello["user"]["id"], minutes=5)
        muted = host.until(lambda m: m["type"] == "muted", "mute acknowledgement")
        assert muted["user"] == bob.hello["user"]["id"]
        bob.say("am I muted?")
        refused = bob.until(lambda m: m["type"] == "error", "refusal")
        assert refused["code"] == "muted" and refused["until"], refused
        for client in (ada, bob, anonymous, host):
            client.close()
    finally:
        source.terminate()
        source.wait(timeout=10)

    # After the broadcast: the episode's chat, kept without the deleted message.
    episodes = wait_episode_done(server, show, timeout=40)
    assert [e["id"] for e in episodes] == [episode]
    kept = requests.get(server.url(f"/api/radio/episodes/{episode}/chat"), timeout=10)
    assert kept.status_code == 200, kept.text
    messages = kept.json()["messages"]
    assert [m["text"] for m in messages] == [MARKUP, "hi ada"] + delivered[1:] + [HOSTILE, "from the page <u>"]
    assert all(m["offset"] >= 0 for m in messages) and messages[0]["name"] == "chat-ada"

    # The page shows it beside the replay, as text.
    open_page(browser, server.url("/radio/"))
    play = wait(browser, lambda d: next((b for b in d.find_elements(By.CSS_SELECTOR, "[data-play-episode]")
                                         if b.get_attribute("data-play-episode") == str(episode)), None),
                "the episode is not listed")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", play)
    play.click()
    replay = wait(browser, lambda d: [e.text for e in d.find_elements(By.CSS_SELECTOR, "#chat-list .chat-text")] or None,
                  "no chat beside the replay")
    assert replay == [m["text"] for m in messages], replay
    assert browser.find_elements(By.CSS_SELECTOR, "#chat-list .chat-seek")
    assert not browser.find_element(By.ID, "chat-form").is_displayed()
    assert severe_console_entries(browser) == []
