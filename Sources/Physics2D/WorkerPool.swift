// The soft step's worker pool (issue 25): a fixed set of threads started with the world and
// joined when it goes, that run one stage of the solver at a time over ranges split between
// them. This is the one documented exception to the package's "no raw threads" rule
// (docs/physics.md, "Workers"): the stages are a few microseconds long and run a hundred
// times a step, far too fine for a task queue, and the threads must not allocate per step.
// Absent from the WebAssembly build (the playground runs on one thread).
//
// Hand-off: the caller stores the stage, then bumps `generation` (release); each worker spins
// on `generation` (acquire), runs its share, and counts `remaining` down (release); the caller
// runs share 0 itself and spins until `remaining` is 0 (acquire). After a short spin both
// yield the core (so that a pool with more threads than free cores, e.g. under a parallel test
// run, still moves on), and a worker that has waited long (between steps) naps 20 µs at a time.
//
// Results do not depend on the number of workers: a stage's shares never write the same body
// (the constraints of one colour touch different moving bodies; the integration loops own
// their bodies), so any split gives the same bits.

#if !hasFeature(Embedded)
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// One stage of parallel work: `work(share:of:)` is called once per worker (share 0 on the
/// caller's thread) and does its part of the stage.
protocol ParallelStage: AnyObject {
    func work(share: Int, of shares: Int)
}

/// `lo..<hi` split into `shares` nearly equal consecutive parts: part `share`.
@inline(__always)
func shareOf(_ range: Range<Int>, _ share: Int, _ shares: Int) -> Range<Int> {
    let n = range.count
    return (range.lowerBound + n * share / shares)..<(range.lowerBound + n * (share + 1) / shares)
}

final class WorkerPool {
    let count: Int
    private let state: PoolState
    private var threads: [pthread_t] = []

    /// `count` shares: the caller and `count - 1` threads.
    init(count: Int) {
        self.count = max(1, count)
        state = PoolState(count: self.count)
        for index in 1..<self.count {
            // The thread holds the shared state, not the pool: the pool's deinit must run to
            // stop and join the threads when the world goes.
            let context = Unmanaged.passRetained(WorkerContext(state: state, index: index)).toOpaque()
            #if canImport(Darwin)
            var thread: pthread_t?
            let status = pthread_create(&thread, nil, { raw in
                WorkerContext.main(raw)
                return nil
            }, context)
            precondition(status == 0 && thread != nil, "pthread_create failed (\(status))")
            threads.append(thread!)
            #else
            var thread = pthread_t()
            let status = pthread_create(&thread, nil, { raw in
                WorkerContext.main(raw)
                return nil
            }, context)
            precondition(status == 0, "pthread_create failed (\(status))")
            threads.append(thread)
            #endif
        }
    }

    deinit {
        state.stopping.store(true, ordering: .releasing)
        state.generation.add(1, ordering: .releasing)
        for t in threads { pthread_join(t, nil) }
    }

    /// The state the threads hold: freed once every thread has ended (tests).
    var sharedState: AnyObject { state }

    /// Runs `stage` on every share and returns when all are done.
    func run(_ stage: any ParallelStage) {
        guard count > 1 else {
            stage.work(share: 0, of: 1)
            return
        }
        state.stage = stage
        state.remaining.store(count - 1, ordering: .relaxed)
        state.generation.add(1, ordering: .releasing)
        stage.work(share: 0, of: count)
        var spins = 0
        while state.remaining.load(ordering: .acquiring) != 0 {
            // A worker that is not running (more threads than free cores) gets the core.
            spins += 1
            if spins > 2_000 { sched_yield() }
        }
    }
}

/// What the caller and the worker threads share.
private final class PoolState: @unchecked Sendable {
    // @unchecked: `stage` is written by the caller before the release-store of `generation`
    // and read by the workers after their acquire-load of it; the atomics order everything else.
    let count: Int
    let generation = Atomic<Int>(0)
    let remaining = Atomic<Int>(0)
    let stopping = Atomic<Bool>(false)
    unowned(unsafe) var stage: (any ParallelStage)?

    init(count: Int) { self.count = count }

    func workerLoop(_ index: Int) {
        var seen = 0
        while true {
            var spins = 0
            var g = generation.load(ordering: .acquiring)
            while g == seen {
                // Spin while stages follow each other closely, give the core away when others
                // want it, and nap between steps.
                spins += 1
                if spins > 200_000 { usleep(20) } else if spins > 2_000 { sched_yield() }
                g = generation.load(ordering: .acquiring)
            }
            seen = g
            if stopping.load(ordering: .acquiring) { return }
            stage!.work(share: index, of: count)
            remaining.subtract(1, ordering: .releasing)
        }
    }
}

/// The narrow phase on the worker pool: each share updates its part of the contacts and
/// notes what it found in `Contact.pending`; `World.updateContacts` acts on the findings in
/// the serial order.
final class NarrowPhaseStage: ParallelStage {
    /// Fewer contacts than this are updated on the caller alone.
    static let minimumContacts = 256
    var contacts: [Contact] = []
    unowned(unsafe) var tree: DynamicTree?
    var margin = 0.0

    func work(share: Int, of shares: Int) {
        let contacts = self.contacts
        unowned(unsafe) let tree = self.tree!
        for i in shareOf(0..<contacts.count, share, shares) {
            unowned(unsafe) let c = contacts[i]
            c.pending = c.refresh(tree, margin: margin)
        }
    }
}

/// What a worker thread starts with (retained across the C entry point).
private final class WorkerContext {
    let state: PoolState
    let index: Int
    init(state: PoolState, index: Int) { self.state = state; self.index = index }

    static func main(_ raw: UnsafeMutableRawPointer?) {
        let context = Unmanaged<WorkerContext>.fromOpaque(raw!).takeRetainedValue()
        context.state.workerLoop(context.index)
    }
}
#endif
