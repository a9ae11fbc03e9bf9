// glibc's <malloc.h> is not part of the Glibc module: its two functions, declared here
// with their C signatures (int mallopt(int, int); int malloc_trim(size_t)).
@_silgen_name("mallopt") private func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32
@_silgen_name("malloc_trim") private func glibcMallocTrim(_ pad: Int) -> Int32
/// <malloc.h>: `#define M_ARENA_MAX -8`.
private let mArenaMax: Int32 = -8

/// glibc malloc settings for a small long-running daemon (DESIGN.md, "Steady-state memory").
///
/// - One arena: glibc gives each thread that allocates its own arena (64 MiB reserved, its
///   touched pages resident and never returned while the thread lives), and the daemon's
///   threads besides the loop (the main thread, the signal thread, the configuration
///   loader's thread) allocate only at start-up or on a reload. With one arena their few
///   blocks share the loop's heap; nothing allocates per frame (DESIGN.md, "No allocation
///   per frame"), so there is no contention to save.
/// - A trim once started and after each reload: start-up (the configuration, quirks,
///   recognizers, D-Bus) frees most of what it allocated, and `malloc_trim` gives the free
///   pages inside the heap back (`MADV_DONTNEED`), which the automatic trim at the heap's top
///   cannot reach.
public enum HeapTuning {
    /// Limits malloc to one arena; call before other threads start allocating.
    public static func limitArenas() {
        _ = glibcMallopt(mArenaMax, 1)
    }

    /// Returns the heap's free pages to the kernel; true when some memory was released.
    @discardableResult
    public static func trim() -> Bool {
        glibcMallocTrim(0) != 0
    }
}
