import DarkroomSystem
import Glibc

/// A file system that fails on purpose: the real calls on real files (a scratch directory), except
/// for the calls a test scripted a fault for, by kind and by count from the moment it scripts it
/// ("the next `fsync` fails with `EIO`", "the second `write` writes 3 bytes").
///
/// It sits under the retrying layer (`FileSystemCalls+Retrying.swift`), so an injected `EINTR`
/// or short write exercises the real retry and completion code, and an injected error reaches the
/// caller as the system would report it.
public final class FaultInjectingFileSystemCalls: FileSystemCalls {
    /// The kinds of call, one per requirement of `FileSystemCalls`.
    public enum Call: String, Sendable, Hashable, CaseIterable {
        case open, write, fsync, close, ftruncate, rename, link, unlink, mkdir, flock
    }

    /// What a scripted call does instead of its work.
    public enum Fault: Sendable, Hashable {
        /// Fails with this errno and does nothing; a `close` still releases the descriptor, as
        /// Linux does.
        case fail(Int32)
        /// Interrupted by a signal before doing anything: `EINTR` (a `close` releases the
        /// descriptor all the same).
        case interrupt
        /// A `write` that writes at most this many bytes (at least 1) and says so.
        case shortWrite(Int)
    }

    private struct State {
        var counts: [Call: Int] = [:]
        var script: [Call: [Int: Fault]] = [:]
        var injected: [Fault] = []
    }

    private let real: any FileSystemCalls
    private let state = Locked(State())

    /// A file system that does what `real` does until a fault is scripted.
    public init(wrapping real: any FileSystemCalls = GlibcFileSystemCalls()) {
        self.real = real
    }

    /// Scripts `fault` for the `nth` call of `call` after this one (1: the very next).
    public func inject(_ fault: Fault, on call: Call, nth: Int = 1) {
        state.withLock { state in state.script[call, default: [:]][state.counts[call, default: 0] + nth] = fault }
    }

    /// How many calls of `call` were made so far, faulted ones included.
    public func count(of call: Call) -> Int { state.withLock { $0.counts[call, default: 0] } }

    /// The faults that fired so far, in order: a test checks its script was reached.
    public var injected: [Fault] { state.withLock { $0.injected } }

    /// Counts a call of `call` and returns its scripted fault, if any.
    private func next(_ call: Call) -> Fault? {
        state.withLock { state in
            let number = state.counts[call, default: 0] + 1
            state.counts[call] = number
            guard let fault = state.script[call]?.removeValue(forKey: number) else { return nil }
            state.injected.append(fault)
            return fault
        }
    }

    /// Throws the scripted failure of `call`, if any (a short write is not a failure).
    private func failIfScripted(_ call: Call) throws(Errno) {
        switch next(call) {
        case .fail(let code): throw Errno(code)
        case .interrupt: throw Errno(EINTR)
        case .shortWrite, nil: return
        }
    }

    public func openat(_ path: String, in directory: Int32, flags: Int32, mode: mode_t) throws(Errno) -> Int32 {
        try failIfScripted(.open)
        return try real.openat(path, in: directory, flags: flags, mode: mode)
    }

    public func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
        switch next(.write) {
        case .fail(let code): throw Errno(code)
        case .interrupt: throw Errno(EINTR)
        case .shortWrite(let limit):
            return try real.write(descriptor, UnsafeRawBufferPointer(rebasing: bytes.prefix(max(1, limit))))
        case nil: return try real.write(descriptor, bytes)
        }
    }

    public func fsync(_ descriptor: Int32) throws(Errno) {
        try failIfScripted(.fsync)
        try real.fsync(descriptor)
    }

    public func close(_ descriptor: Int32) throws(Errno) {
        let fault = next(.close)
        try real.close(descriptor)
        switch fault {
        case .fail(let code): throw Errno(code)
        case .interrupt: throw Errno(EINTR)
        case .shortWrite, nil: return
        }
    }

    public func ftruncate(_ descriptor: Int32, to length: Int64) throws(Errno) {
        try failIfScripted(.ftruncate)
        try real.ftruncate(descriptor, to: length)
    }

    public func renameat(_ from: String, to: String, in directory: Int32) throws(Errno) {
        try failIfScripted(.rename)
        try real.renameat(from, to: to, in: directory)
    }

    public func linkat(_ from: String, as name: String, in directory: Int32) throws(Errno) {
        try failIfScripted(.link)
        try real.linkat(from, as: name, in: directory)
    }

    public func unlinkat(_ path: String, in directory: Int32) throws(Errno) {
        try failIfScripted(.unlink)
        try real.unlinkat(path, in: directory)
    }

    public func mkdir(_ path: String, mode: mode_t) throws(Errno) {
        try failIfScripted(.mkdir)
        try real.mkdir(path, mode: mode)
    }

    public func flock(_ descriptor: Int32, _ operation: Int32) throws(Errno) {
        try failIfScripted(.flock)
        try real.flock(descriptor, operation)
    }
}
