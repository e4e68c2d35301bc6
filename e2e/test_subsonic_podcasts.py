"""The radio in Subsonic apps (issue 24 §3), driven by py-opensonic: the shows as podcast
channels with their episodes, the newest episodes, one episode (OpenSubsonic's
getPodcastEpisode), an episode's bytes streamed by its streamId and compared with the episode's
file, the podcast writes refused, and a live mount listed as an internet radio station."""

from __future__ import annotations

import json
import subprocess
from urllib.parse import urlsplit

import libopensonic
import pytest
import requests
from libopensonic import errors

from test_cli import quintet
from test_radio_feed import create_show, ffmpeg_tone
from test_radio_live import make_mp3, need_ffmpeg, start_source, wait_live
from test_subsonic import body


@pytest.fixture(scope="module")
def conn(server):
    url = urlsplit(server.base_url)
    connection = libopensonic.Connection(f"{url.scheme}://{url.hostname}", *server.admin, port=url.port,
                                         app_name="quintet-e2e-podcasts")
    yield connection
    connection.cleanup()


@pytest.fixture(scope="module")
def podcast(server, tmp_path_factory):
    folder = tmp_path_factory.mktemp("podcasts")
    show = create_show(server, "--title", "Subsonic Pod & Co", "--description", "For phone apps")
    episodes = []
    for title in ("First", "Second"):
        made = quintet("radio", "import-episode", "--show", str(show["id"]), str(ffmpeg_tone(folder / f"{title}.mp3", 2.0)),
                       "--title", title, "--data", str(server.data_dir), "--json")
        assert made.returncode == 0, made.stderr
        episodes.append(json.loads(made.stdout))
    return {"show": show, "episodes": episodes}


def test_podcasts_newest_episode_and_stream(server, conn, podcast):
    show, (first, second) = podcast["show"], podcast["episodes"]
    channels = {c.id: c for c in conn.get_podcasts(inc_episodes=True)}
    channel = channels[f"pc-{show['id']}"]
    assert channel.title == "Subsonic Pod & Co" and channel.description == "For phone apps"
    assert channel.url == server.url(f"/radio/feeds/{show['id']}.xml")
    assert channel.status.value == "completed"
    assert {e.id for e in channel.episode} == {f"pe-{first['id']}", f"pe-{second['id']}"}
    assert all(e.channel_id == channel.id and e.stream_id == e.id for e in channel.episode)

    only = conn.get_podcasts(inc_episodes=False, pid=channel.id)
    assert [c.id for c in only] == [channel.id] and not only[0].episode

    assert len(conn.get_newest_podcasts(count=1)) == 1
    newest = [e.id for e in conn.get_newest_podcasts(count=500)]
    assert newest.index(f"pe-{second['id']}") < newest.index(f"pe-{first['id']}")

    one = conn.get_podcast_episode(f"pe-{first['id']}")
    assert one.title == "First" and one.duration == round(first["duration"]) and one.suffix == "mp3"

    streamed = body(conn, conn.stream(one.stream_id))
    on_disk = (server.data_dir / first["file"]).read_bytes()
    assert streamed == on_disk

    with pytest.raises(errors.AuthError):
        conn.create_podcast_channel("https://example.org/feed.xml")
    with pytest.raises(errors.DataNotFoundError):
        conn.get_podcast_episode("pe-987654")


def test_live_mount_is_an_internet_radio_station(server, conn, tmp_path):
    need_ffmpeg()
    show = create_show(server, "--title", "Subsonic Live")
    source = start_source(server, show, make_mp3(tmp_path / "live.mp3", 20))
    try:
        wait_live(server, show["mount"])
        stations = {s.id: s for s in conn.get_internet_radio_stations()}
        station = stations[f"ir-{show['id']}"]
        assert station.name == "Subsonic Live"
        assert station.stream_url == server.url(show["mount"])
        assert station.home_page_url == server.url(f"/radio/show/?id={show['id']}")
        with requests.get(station.stream_url, stream=True, timeout=10) as listener:
            assert listener.status_code == 200 and len(next(listener.iter_content(4096))) > 0
    finally:
        source.terminate()
        source.communicate(timeout=30)
