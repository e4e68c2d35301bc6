// The host's side of a hosted guest (issue 22 §3): an invitation link from the server, then a
// WebRTC connection made directly with the guest's browser — the server relays only the
// signalling over the studio's ingest socket (docs/radio.md, "A hosted guest"). The guest's
// voice enters the mix on its own fader with its own meter; the guest hears the show without
// their own voice (a mix-minus: microphone, decks and effects).

export class GuestLink {
  /** `audio`: the studio's graph (`guestGain` into the master, `minus` the mix-minus
   *  destination); `send(message)`: a JSON message on the ingest socket; `onState(key)`. */
  constructor(audio, send, onState) {
    this.audio = audio;
    this.send = send;
    this.onState = onState;
    this.pc = null;
    this.player = null;
  }

  async joined() {
    this.close();
    const pc = new RTCPeerConnection({ iceServers: [] }); // no third-party service: direct only
    this.pc = pc;
    for (const track of this.audio.minus.stream.getAudioTracks()) pc.addTrack(track, this.audio.minus.stream);
    pc.addEventListener("icecandidate", (event) => {
      if (event.candidate) this.send({ type: "signal", data: { candidate: event.candidate.toJSON() } });
    });
    pc.addEventListener("connectionstatechange", () => this.onState(pc.connectionState));
    pc.addEventListener("track", (event) => {
      const stream = event.streams[0] || new MediaStream([event.track]);
      // Chromium delivers a remote stream to Web Audio only while a media element plays it too.
      this.player = new Audio();
      this.player.muted = true;
      this.player.srcObject = stream;
      this.player.play().catch(() => {});
      this.source = this.audio.context.createMediaStreamSource(stream);
      this.source.connect(this.audio.guestGain);
    });
    await pc.setLocalDescription(await pc.createOffer());
    this.send({ type: "signal", data: { description: pc.localDescription.toJSON() } });
    this.onState("connecting");
  }

  async signal(data) {
    if (!this.pc || !data) return;
    if (data.description) await this.pc.setRemoteDescription(data.description);
    else if (data.candidate) await this.pc.addIceCandidate(data.candidate).catch(() => {});
  }

  close() {
    if (this.source) this.source.disconnect();
    if (this.player) this.player.srcObject = null;
    if (this.pc) this.pc.close();
    this.pc = this.source = this.player = null;
  }

  left() {
    this.close();
    this.onState("left");
  }
}
