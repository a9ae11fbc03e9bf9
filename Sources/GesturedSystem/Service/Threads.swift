internal import Glibc

/// `pthread_create` with a stack of `stackSize` bytes (joinable). In a file that imports only Glibc, not in
/// EventLoop.swift: that file imports CLinuxInput, and a `pthread_attr_t()` written there makes
/// the compiler attribute the C struct's initializer to CLinuxInput for the whole module
/// (MemberImportVisibility then rejects it in the files that import only Glibc).
func createThread(
    _ thread: inout pthread_t, stackSize: Int, context: UnsafeMutableRawPointer,
    _ body: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?
) -> Int32 {
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setstacksize(&attributes, stackSize)
    return pthread_create(&thread, &attributes, body, context)
}
