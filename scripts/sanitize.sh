#!/usr/bin/env bash
# `make sanitize`: the server, crowd, radio and library Swift tests under ThreadSanitizer, then
# under AddressSanitizer (debug builds in their own scratch folders, .build-tsan and .build-asan,
# so the everyday .build stays as it is). Never part of `make test`: each build is a full
# compile of the package and its dependencies with instrumentation (tens of minutes on 2 cores).
#
#   make sanitize                                   # thread, then address
#   SANITIZERS=thread make sanitize                 # one of them
#   SANITIZE_FILTER='CrowdTests' make sanitize      # other tests (a `swift test --filter` pattern)
#
# --no-parallel: the sanitizers slow code down 5-15x, and suites run side by side then starve each
# other's cooperative threads (the crowd's model test holds both cores for minutes), so the
# real-socket tests' deadlines would measure the neighbours, not the code under test.
#
# Each run's whole output goes to .build-<kind>/sanitize.log; the end of the run prints a
# summary of the reports found, by kind and place (the SUMMARY lines the sanitizers write).
# Exit status 0 means both runs passed with no report; docs/sanitize.md records a run.
#
# LeakSanitizer (on with AddressSanitizer) reads scripts/lsan-suppressions.txt, with the same kind
# of rules. ThreadSanitizer reads scripts/tsan-suppressions.txt, which may only name the toolchain's own
# Foundation and Dispatch (uninstrumented libraries: see the comments in that file).
set -uo pipefail
cd "$(dirname "$0")/.."

filter=${SANITIZE_FILTER:-'QuintetServerTests|CrowdTests|RadioTests|LibraryCoreTests'}
sanitizers=${SANITIZERS:-thread address}
suppressions=$PWD/scripts/tsan-suppressions.txt
status=0

for kind in $sanitizers; do
    case $kind in
        # -DQUINTET_SANITIZE_THREAD: the package's `Lock` tells TSan about its critical sections
        # (Sources/Locking/Lock.swift: TSan cannot see Synchronization.Mutex on Linux).
        thread) scratch=.build-tsan; defines=(-Xswiftc -DQUINTET_SANITIZE_THREAD) ;;
        address) scratch=.build-asan; defines=() ;;
        *) echo "sanitize: unknown sanitizer $kind (thread or address)" >&2; exit 2 ;;
    esac
    mkdir -p "$scratch"
    log=$scratch/sanitize.log
    echo "sanitize: $kind: swift test -c debug --sanitize=$kind ${defines[*]} --no-parallel --scratch-path $scratch --filter '$filter' (log: $log)"
    started=$(date +%s)
    # TSan: report every race (halt_on_error=0, the default) with both stacks in full; exit 66
    # at the end when anything was reported. ASan: stop at the first error, as it does by default;
    # LeakSanitizer stays on (a leak is a finding too).
    TSAN_OPTIONS="suppressions=$suppressions second_deadlock_stack=1 history_size=4 ${TSAN_OPTIONS:-}" \
    ASAN_OPTIONS="detect_stack_use_after_return=0 ${ASAN_OPTIONS:-}" \
    LSAN_OPTIONS="suppressions=$PWD/scripts/lsan-suppressions.txt print_suppressions=1 ${LSAN_OPTIONS:-}" \
        swift test -c debug --sanitize="$kind" "${defines[@]}" --no-parallel --scratch-path "$scratch" --filter "$filter" >"$log" 2>&1
    code=$?
    seconds=$(( $(date +%s) - started ))
    echo "sanitize: $kind: exit $code after ${seconds} s"
    tail -n 5 "$log" | sed "s/^/sanitize: $kind: | /"
    if [ "$kind" = address ]; then
        # Findings: memory errors, and direct leaks left after the suppressions. LeakSanitizer
        # also prints "Indirect leak" blocks: memory reachable only from leaked blocks. When every
        # direct leak is suppressed (a toolchain or process-lifetime root, listed under
        # "Suppressions used"), the indirect ones hang off those roots and are counted apart.
        errors=$(grep -c 'ERROR: AddressSanitizer' "$log" || true)
        direct=$(grep -c '^ *Direct leak of' "$log" || true)
        indirect=$(grep -c '^ *Indirect leak of' "$log" || true)
        reports=$((errors + direct))
        echo "sanitize: $kind: $errors memory error(s), $direct unsuppressed direct leak(s), $indirect indirect leak block(s) (reachable only from leaked blocks)"
        grep -A8 '^Suppressions used' "$log" | sed "s/^/sanitize: $kind: | /" | head -12
    else
        reports=$(grep -c '^SUMMARY: ThreadSanitizer' "$log" || true)
    fi
    echo "sanitize: $kind: $reports report(s)"
    if [ "$reports" -gt 0 ]; then
        grep '^ *SUMMARY: \(Thread\|Address\|Leak\)Sanitizer' "$log" | sort | uniq -c | sort -rn | sed "s/^/sanitize: $kind: /"
    fi
    # swift test's exit status: LeakSanitizer makes an instrumented process exit 1 at the end
    # even when its only leaks are indirect ones, so for ASan the tests' own verdict decides.
    if [ "$kind" = address ] && [ "$code" -ne 0 ] && grep -q '^✔ Test run with .* passed' "$log"; then code=0; fi
    if [ "$code" -ne 0 ] || [ "$reports" -gt 0 ]; then status=1; fi
done
exit $status
