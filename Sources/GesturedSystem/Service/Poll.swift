internal import Glibc

/// Waits up to `timeoutMilliseconds` for `fileDescriptor` to become readable (`poll(2)`);
/// -1 waits forever. Returns false on timeout or error.
public func waitReadable(fileDescriptor: Int32, timeoutMilliseconds: Int32) -> Bool {
    var pfd = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
    if case .success(let n) = retryingOnInterrupt({ poll(&pfd, 1, timeoutMilliseconds) }) { return n > 0 }
    return false
}
