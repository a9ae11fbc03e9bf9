// Counting wrappers around glibc's allocator, linked only into gestured-bench.
//
// The executable defines malloc and friends; the dynamic linker binds every library's calls
// (libswiftCore's swift_slowAlloc included) to these definitions, which count and forward to
// glibc's own entry points (__libc_malloc, ...). Counting calls, not mallinfo2 deltas, so an
// allocation freed within the same frame still counts.
#include "CBenchSupport.h"

#include <errno.h>
#include <stdatomic.h>
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

static inline void count(size_t size) {
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
