import GesturedClient
import Glibc
import GesturedDaemon
import GesturedProtocol
import GesturedSystem
import Testing

/// The IPC server alone on its event loop, over a real Unix socket.
@Suite("IPC server")
struct IPCServerTests {
    @Test("frames the socket takes only in part reach a late reader whole and in order")
    func partialWritesKeepLinesWhole() async throws {
        var settings = IPCSettings()
        // Room for every line: this test is about partial writes, not coalescing.
        settings.outboxSoftLimit = 4096
        settings.outboxHardLimit = 8192
        try await TestIPCServer.with(settings: settings) { ipc in
            let server = ipc.server
            let client = try ipc.connect("late")
            defer { client.close() }
            _ = try client.request(.subscribe(SubscribeRequest(rawTouches: true)))

            // About 2 MB in frames of 50 lines (45 kB, more than one socket buffer segment, so
            // the kernel can take part of a frame and of a line), several times what a Unix
            // socket buffers: the rest must follow, not be lost, repeated or interleaved.
            // Published from this thread, as a second loop's hub would.
            let padding = String(repeating: "p", count: 900)
            let frames = 2000
            for first in stride(from: 0, to: frames, by: 50) {
                server.publish(
                    EncodedBatch(
                        touches: (first..<first + 50).map { i in
                            TouchEventMessage(device: padding, timeUS: Int64(i), touchID: 1, phase: .moved, xMM: 1, yMM: 2)
                        }))
            }
            await server.flushPublished()

            var times: [Int64] = []
            while times.count < frames, let message = try client.nextMessage(timeoutMilliseconds: 60_000) {
                guard case .touch(let touch) = message else { continue }
                times.append(touch.timeUS)
                #expect(touch.device == padding)
            }
            #expect(times == (0..<Int64(frames)).map { $0 })
        }
    }

    @Test("a client that shuts its writing side still gets every line queued for it, then EOF")
    func halfCloseDrainsTheOutbox() async throws {
        var settings = IPCSettings()
        settings.outboxSoftLimit = 4096
        settings.outboxHardLimit = 8192
        try await TestIPCServer.with(settings: settings) { ipc in
            let server = ipc.server
            let client = try ipc.connect("half-closed")
            defer { client.close() }
            _ = try client.request(.subscribe(SubscribeRequest(rawTouches: true)))
            // About 1.8 MB of touches, far more than the socket buffers: most of it waits in the
            // client's outbox when its EOF is read.
            let padding = String(repeating: "p", count: 900)
            let frames = 2000
            server.publish(EncodedBatch(touches: (0..<frames).map { i in
                TouchEventMessage(device: padding, timeUS: Int64(i), touchID: 1, phase: .moved, xMM: 1, yMM: 2)
            }))
            await server.flushPublished()
            #expect(shutdown(client.connection.fileDescriptor, Int32(SHUT_WR)) == 0)
            var times: [Int64] = []
            while let message = try client.nextMessage(timeoutMilliseconds: 60_000) {
                guard case .touch(let touch) = message else { continue }
                times.append(touch.timeUS)
            }
            #expect(times == (0..<Int64(frames)).map { $0 }, "every queued line, in order, then EOF")
            #expect(await server.clientCount == 0, "the server closed the connection")
        }
    }

    @Test("the input side maps raw touches only while a client subscribed to them")
    func wantsTouchesFollowsSubscriptions() async throws {
        try await TestIPCServer.with { ipc in
            let server = ipc.server
            // wantsTouches, as the input hub asks it, on the loop thread.
            #expect(await !server.hasTouchSubscribers, "no client")
            let gestures = try ipc.connect("gestures only")
            _ = try gestures.request(.subscribe(SubscribeRequest()))
            #expect(await !server.hasTouchSubscribers, "a subscriber without raw touches")
            let raw = try ipc.connect("raw")
            _ = try raw.request(.subscribe(SubscribeRequest(rawTouches: true)))
            #expect(await server.hasTouchSubscribers)
            _ = try raw.request(.unsubscribe)
            #expect(await !server.hasTouchSubscribers, "unsubscribed")
            _ = try raw.request(.subscribe(SubscribeRequest(rawTouches: true)))
            #expect(await server.hasTouchSubscribers)
            raw.close()
            _ = try gestures.request(.ping)  // a request after the close: the server has seen it
            await server.flushPublished()
            #expect(await !server.hasTouchSubscribers, "the raw subscriber disconnected")
            gestures.close()
        }
    }

    @Test("a wake-up's batches reach each client merged, in order, filtered per client, before a later reply")
    func wakeUpBatchesMerge() async throws {
        try await TestIPCServer.with { ipc in
            let (server, loop) = (ipc.server, ipc.loop)
            let everything = try ipc.connect("no filter")
            let raw = try ipc.connect("raw touches")
            let oneDevice = try ipc.connect("event7 only")
            defer { for c in [everything, raw, oneDevice] { c.close() } }
            _ = try everything.request(.subscribe(SubscribeRequest()))
            _ = try raw.request(.subscribe(SubscribeRequest(rawTouches: true)))
            _ = try oneDevice.request(.subscribe(SubscribeRequest(devices: ["event7"])))
            // Three publishes in one loop job, as a wake-up that read three devices makes them:
            // they go out together when the job is done.
            let removed3 = EncodedBatch.deviceRemoved(DeviceRemovedEvent(device: "/dev/input/event3", name: "pad"))
            let touches7 = EncodedBatch(touches: [
                TouchEventMessage(device: "/dev/input/event7", timeUS: 1, touchID: 1, phase: .moved, xMM: 1, yMM: 2),
                TouchEventMessage(device: "/dev/input/event7", timeUS: 2, touchID: 1, phase: .moved, xMM: 1, yMM: 3),
            ])
            let removed7 = EncodedBatch.deviceRemoved(DeviceRemovedEvent(device: "/dev/input/event7", name: "screen"))
            loop.execute {
                server.publish(removed3)
                server.publish(touches7)
                server.publish(removed7)
            }
            func describe(_ message: DaemonMessage) -> String {
                switch message {
                case .deviceRemoved(let e): "removed \(e.device)"
                case .touch(let t): "touch \(t.timeUS)"
                default: "other"
                }
            }
            func received(_ client: IPCClient) throws -> [String] {
                // The reply to a request sent after the publishes comes after their lines.
                guard case .ok = try client.request(.ping) else { return ["no pong"] }
                var lines: [String] = []
                while let message = try client.nextMessage(timeoutMilliseconds: 0) { lines.append(describe(message)) }
                return lines
            }
            #expect(try received(everything) == ["removed /dev/input/event3", "removed /dev/input/event7"])
            #expect(try received(raw) == ["removed /dev/input/event3", "touch 1", "touch 2", "removed /dev/input/event7"])
            #expect(try received(oneDevice) == ["removed /dev/input/event7"])
        }
    }
}
