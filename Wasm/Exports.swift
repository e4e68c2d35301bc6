// The module's exports: the host protocol of docs/playground.md ("Host protocol"), one C
// function each, forwarded to the one Playground.Host of the instance. Compiled by
// scripts/build-wasm only (not a SwiftPM target): `@_cdecl` gives the C name and calling
// convention, `@_expose(wasm, …)` makes wasm-ld export it. Pointers are offsets into the
// module's linear memory; the host reads the draw list and events there.
import Playground

/// The instance's game host, made on first use (a wasm instance runs one page's game).
private nonisolated(unsafe) var sharedHost: Host?

private func host() -> Host {
    if let h = sharedHost { return h }
    let h = Host()
    sharedHost = h
    return h
}

/// Starts game `game` (0 = CarWorld) from `seed`: 0, or -1 for an unknown game.
@_expose(wasm, "pg_start") @_cdecl("pg_start")
public func pgStart(_ game: Int32, _ seed: UInt32) -> Int32 {
    host().start(game: game, seed: seed)
}

/// The stage's width in points.
@_expose(wasm, "pg_stage_width") @_cdecl("pg_stage_width")
public func pgStageWidth() -> Float { host().stageWidth }

/// The stage's height in points.
@_expose(wasm, "pg_stage_height") @_cdecl("pg_stage_height")
public func pgStageHeight() -> Float { host().stageHeight }

/// Queues a touch (kind 1) or a tilt (kind 2) for the next frame.
@_expose(wasm, "pg_input") @_cdecl("pg_input")
public func pgInput(_ kind: Int32, _ id: Int32, _ phase: Int32, _ x: Float, _ y: Float, _ z: Float) {
    host().input(kind: kind, id: id, phase: phase, x: x, y: y, z: z)
}

/// Advances the game by `dtMs` milliseconds (the host clamps it to 0…100) and writes the
/// draw list and the events of the frame.
@_expose(wasm, "pg_frame") @_cdecl("pg_frame")
public func pgFrame(_ dtMs: Int32) { host().frame(milliseconds: dtMs) }

/// The last frame's draw list: its address in linear memory…
@_expose(wasm, "pg_draw_list") @_cdecl("pg_draw_list")
public func pgDrawList() -> UnsafeRawPointer { host().drawListPointer }

/// …and its size in bytes.
@_expose(wasm, "pg_draw_list_size") @_cdecl("pg_draw_list_size")
public func pgDrawListSize() -> Int32 { host().drawListSize }

/// The last frame's events (20-byte records): their address…
@_expose(wasm, "pg_events") @_cdecl("pg_events")
public func pgEvents() -> UnsafeRawPointer { host().eventsPointer }

/// …and how many there are.
@_expose(wasm, "pg_events_count") @_cdecl("pg_events_count")
public func pgEventsCount() -> Int32 { host().eventsCount }
