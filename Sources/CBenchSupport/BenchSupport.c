// Counting wrappers around glibc's allocator, linked only into gestured-bench.
//
// The executable defines malloc and friends; the dynamic linker binds every library's calls
// (libswiftCore's swift_slowAlloc included) to these definitions, which count and forward to
// glibc's own entry points (__libc_malloc, ...). Counting calls, not mallinfo2 deltas, so an
// allocation freed within the same frame still counts.
#define _GNU_SOURCE
#include "CBenchSupport.h"

#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <stddef.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void __libc_free(void *pointer);

static _Atomic uint64_t allocations;
static _Atomic uint64_t bytes;

// Per-thread counts: each thread takes a slot of this table at its first allocation (the
// table outlives the thread, so a count can be read after it exits).
#define CBS_MAX_THREADS 2048
static struct {
    _Atomic int tid;
    _Atomic uint64_t count;
} thread_counts[CBS_MAX_THREADS];
static _Atomic int thread_slots;
static __thread int thread_slot = -1;  // -2: the table was full

// Allocation sites of one traced thread (gestured-bench daemon --alloc-sites): each
// allocation's call stack, counted per distinct stack in a fixed table (no allocation here).
#define CBS_TRACE_DEPTH 14
#define CBS_TRACE_SLOTS 1024
static struct {
    void *frames[CBS_TRACE_DEPTH];
    int depth;
    uint64_t count;
} trace_table[CBS_TRACE_SLOTS];
static _Atomic int traced_tid;  // 0: off
static uint64_t trace_overflow;
static __thread int in_trace;
static __thread int my_tid;

static void trace(void) {
    if (my_tid == 0) my_tid = (int)syscall(SYS_gettid);
    if (my_tid != atomic_load_explicit(&traced_tid, memory_order_relaxed) || in_trace) return;
    in_trace = 1;
    void *frames[CBS_TRACE_DEPTH + 2];
    int n = backtrace(frames, CBS_TRACE_DEPTH + 2);
    // Drop this function and count().
    int skip = n > 2 ? 2 : 0;
    int depth = n - skip;
    uint64_t h = 1469598103934665603u;
    for (int i = 0; i < depth; i++) h = (h ^ (uint64_t)(uintptr_t)frames[skip + i]) * 1099511628211u;
    for (int probe = 0; probe < CBS_TRACE_SLOTS; probe++) {
        int slot = (int)((h + (uint64_t)probe) % CBS_TRACE_SLOTS);
        if (trace_table[slot].count == 0) {
            memcpy(trace_table[slot].frames, frames + skip, sizeof(void *) * (size_t)depth);
            trace_table[slot].depth = depth;
            trace_table[slot].count = 1;
            in_trace = 0;
            return;
        }
        if (trace_table[slot].depth == depth && memcmp(trace_table[slot].frames, frames + skip, sizeof(void *) * (size_t)depth) == 0) {
            trace_table[slot].count++;
            in_trace = 0;
            return;
        }
    }
    trace_overflow++;
    in_trace = 0;
}

void cbs_trace_thread(int tid) {
    if (tid != 0) {
        // The first backtrace() loads the unwinder (which allocates): do it outside the trace.
        void *frames[4];
        in_trace = 1;
        backtrace(frames, 4);
        in_trace = 0;
    }
    atomic_store_explicit(&traced_tid, tid, memory_order_relaxed);
}

void cbs_trace_report(uint64_t minimum) {
    in_trace = 1;
    for (;;) {
        int best = -1;
        for (int i = 0; i < CBS_TRACE_SLOTS; i++) {
            if (trace_table[i].count >= minimum && trace_table[i].count > 0 && (best < 0 || trace_table[i].count > trace_table[best].count)) best = i;
        }
        if (best < 0) break;
        printf("  %llu allocations at:\n", (unsigned long long)trace_table[best].count);
        for (int f = 0; f < trace_table[best].depth; f++) {
            Dl_info info;
            void *pc = trace_table[best].frames[f];
            if (dladdr(pc, &info) && info.dli_fname) {
                const char *name = strrchr(info.dli_fname, '/');
                printf("    %s+0x%lx %s\n", name ? name + 1 : info.dli_fname, (unsigned long)((char *)pc - (char *)info.dli_fbase),
                       info.dli_sname ? info.dli_sname : "");
            } else {
                printf("    %p\n", pc);
            }
        }
        trace_table[best].count = 0;
    }
    if (trace_overflow) printf("  (%llu allocations in stacks the table had no room for)\n", (unsigned long long)trace_overflow);
    fflush(stdout);
    in_trace = 0;
}

static inline void count(size_t size) {
    if (atomic_load_explicit(&traced_tid, memory_order_relaxed) != 0) trace();
    atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&bytes, size, memory_order_relaxed);
    if (thread_slot == -1) {
        int slot = atomic_fetch_add_explicit(&thread_slots, 1, memory_order_relaxed);
        if (slot < CBS_MAX_THREADS) {
            atomic_store_explicit(&thread_counts[slot].tid, (int)syscall(SYS_gettid), memory_order_relaxed);
            thread_slot = slot;
        } else {
            thread_slot = -2;
        }
    }
    if (thread_slot >= 0) atomic_fetch_add_explicit(&thread_counts[thread_slot].count, 1, memory_order_relaxed);
}

uint64_t cbs_thread_allocation_count(int tid) {
    int slots = atomic_load_explicit(&thread_slots, memory_order_relaxed);
    if (slots > CBS_MAX_THREADS) slots = CBS_MAX_THREADS;
    // The newest slot first: a thread id the kernel reused belongs to the latest thread.
    for (int slot = slots - 1; slot >= 0; slot--) {
        if (atomic_load_explicit(&thread_counts[slot].tid, memory_order_relaxed) == tid)
            return atomic_load_explicit(&thread_counts[slot].count, memory_order_relaxed);
    }
    return 0;
}

uint64_t cbs_allocation_count(void) { return atomic_load_explicit(&allocations, memory_order_relaxed); }

uint64_t cbs_allocated_bytes(void) { return atomic_load_explicit(&bytes, memory_order_relaxed); }

void *malloc(size_t size) {
    count(size);
    return __libc_malloc(size);
}

void *calloc(size_t n, size_t size) {
    count(n * size);
    return __libc_calloc(n, size);
}

void *realloc(void *pointer, size_t size) {
    count(size);
    return __libc_realloc(pointer, size);
}

void free(void *pointer) { __libc_free(pointer); }

void *memalign(size_t alignment, size_t size) {
    count(size);
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    count(size);
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
    count(size);
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return ENOMEM;
    *result = pointer;
    return 0;
}

uint64_t cbs_monotonic_nanoseconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

uint64_t cbs_process_cpu_nanoseconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

uint64_t cbs_thread_cpu_nanoseconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}
