#!/usr/bin/env python3
"""The radio yardstick's listener client over TLS, for scripts/bench-radio --tls.

Usage: tls_listeners.py --bench DIR --cafile CERT -- URL [listeners.py's arguments]

Runs ../shared/radio-bench/listeners.py itself (imported from --bench, not copied: the same
listeners, ICY parsing, MP3 walk, bitrate windows and report), with one change: every connection
it opens is a TLS connection. Its event loop (uvloop, or asyncio's when uvloop is missing) is
replaced by a subclass whose create_connection adds ssl=CONTEXT and server_hostname, so each
listener does a TLS 1.3 handshake (the server's certificate verified against --cafile, for the
IP address in URL) and then reads through the loop's TLS transport; URL stays http:// because
listeners.py accepts only that, and the port is the server's TLS port. The TLS work is done in
the client's own processes, so listeners.py's "client cpu" includes it.

Why not stunnel4 in front of the plain client: on this 2-core machine stunnel (one thread per
connection) took 93 % of a core for 1,876 of icecast2's TLS listeners and could not bring up
5,000 within the ramp (docs/benchmarks.md, "TLS cost").
"""
import argparse
import asyncio
import importlib.util
import os
import ssl
import sys


def main():
    ap = argparse.ArgumentParser(usage=__doc__.splitlines()[2])
    ap.add_argument("--bench", required=True, help="the radio yardstick's folder (listeners.py)")
    ap.add_argument("--cafile", required=True, help="PEM certificate the servers' certificate must chain to")
    ap.add_argument("rest", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    rest = a.rest[1:] if a.rest[:1] == ["--"] else a.rest

    context = ssl.create_default_context(cafile=a.cafile)
    context.minimum_version = ssl.TLSVersion.TLSv1_3
    context.set_alpn_protocols(["http/1.1"])

    def with_tls(base):
        class TLSLoop(base):
            def create_connection(self, protocol_factory, host=None, port=None, **kw):
                kw.setdefault("ssl", context)
                kw.setdefault("server_hostname", host)
                return super().create_connection(protocol_factory, host, port, **kw)
        return TLSLoop

    class Policy(asyncio.DefaultEventLoopPolicy):
        loop_class = with_tls(asyncio.SelectorEventLoop)

        def new_event_loop(self):
            return self.loop_class()

    try:
        import uvloop
    except ImportError:
        uvloop = None
    if uvloop is not None:
        tls_uvloop = with_tls(uvloop.Loop)

        class UVPolicy(Policy):
            loop_class = tls_uvloop

        # listeners.py's worker calls uvloop.install(): it gets the TLS loop instead
        uvloop.install = lambda: asyncio.set_event_loop_policy(UVPolicy())
    asyncio.set_event_loop_policy(Policy())   # --no-uvloop, or uvloop missing

    spec = importlib.util.spec_from_file_location("listeners", os.path.join(a.bench, "listeners.py"))
    listeners = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(listeners)
    sys.argv = [os.path.join(a.bench, "listeners.py")] + rest
    return listeners.main()


if __name__ == "__main__":
    sys.exit(main())
