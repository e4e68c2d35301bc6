// The package's one lock (docs/architecture.md, "Concurrency"): the standard library's
// `Synchronization.Mutex`, under a name of our own for one reason only.
//
// ThreadSanitizer on Linux cannot see `Mutex`: its futex lives in the uninstrumented standard
// library, so TSan sees no happens-before between two critical sections and reports every
// access made under the lock as a race (docs/sanitize.md shows it on a four-line program).
// `make sanitize` therefore builds with `-DQUINTET_SANITIZE_THREAD`, and in that build `Lock`
// is a `Mutex` that also tells TSan what it does: an acquire on entry and a release on exit of
// each critical section, on a token of its own. Every other build (release, debug, the tests,
// Apple platforms) uses `Mutex` itself: `Lock` is only a type alias there, with no cost.
import Synchronization

#if QUINTET_SANITIZE_THREAD

@_silgen_name("__tsan_acquire") private func tsanAcquire(_ address: UnsafeMutableRawPointer)
@_silgen_name("__tsan_release") private func tsanRelease(_ address: UnsafeMutableRawPointer)

/// A `Mutex` whose critical sections ThreadSanitizer sees (sanitizer builds only).
public struct Lock<Value: ~Copyable>: ~Copyable, @unchecked Sendable {
    // @unchecked: as `Mutex` itself; the token is only an address TSan keys its clock on.
    private let mutex: Mutex<Value>
    private let token: UnsafeMutableRawPointer

    public init(_ initialValue: consuming sending Value) {
        mutex = Mutex(initialValue)
        token = UnsafeMutableRawPointer.allocate(byteCount: 8, alignment: 8)
    }

    deinit { token.deallocate() }

    public borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        let token = self.token
        return try mutex.withLock { (value: inout sending Value) throws(E) -> sending Result in
            tsanAcquire(token)
            defer { tsanRelease(token) }
            return try body(&value)
        }
    }
}

#else

/// The package's lock: `Synchronization.Mutex` (see the top of this file for why the name).
public typealias Lock<Value: ~Copyable> = Mutex<Value>

#endif
