#ifndef CBENCHSUPPORT_H
#define CBENCHSUPPORT_H

#include <stdint.h>

/// Heap allocations (malloc, calloc, realloc, memalign, posix_memalign, aligned_alloc calls)
/// made by any thread of this process since it started. Only gestured-bench links this
/// target: it replaces the allocator entry points with counting wrappers around glibc's.
uint64_t cbs_allocation_count(void);

/// Heap allocations made by the thread `tid` (a kernel thread id, as in /proc/self/task)
/// since it started; 0 for a thread that never allocated.
uint64_t cbs_thread_allocation_count(int tid);

/// Records the call stack of every allocation the thread `tid` makes from now on (0 stops),
/// counted per distinct stack (`gestured-bench daemon --alloc-sites`).
void cbs_trace_thread(int tid);

/// Prints the recorded stacks seen at least `minimum` times, most frequent first (module +
/// offset, for addr2line), and forgets them.
void cbs_trace_report(uint64_t minimum);

/// Bytes requested by those calls.
uint64_t cbs_allocated_bytes(void);

/// CLOCK_MONOTONIC in nanoseconds (vDSO, about 20 ns a call): per-frame timing needs finer
/// than the daemon's microsecond clock.
uint64_t cbs_monotonic_nanoseconds(void);

/// CLOCK_PROCESS_CPUTIME_ID in nanoseconds.
uint64_t cbs_process_cpu_nanoseconds(void);

/// CLOCK_THREAD_CPUTIME_ID in nanoseconds: the calling thread's CPU time.
uint64_t cbs_thread_cpu_nanoseconds(void);

#endif
