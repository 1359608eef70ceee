import Foundation

/// The current identity state, readable from any thread without waiting for the service actor:
/// the server looks up the app and the user of every request here.
///
/// `@unchecked Sendable`: the only stored state is guarded by `lock`; the service replaces it
/// whole after folding identity events, readers copy out what they need.
public final class IdentityDirectory: @unchecked Sendable {
    private let lock = NSLock()
    private var state = IdentityState()
    private var revision = 0
    private var passwordChecks = 0

    init() {}

    /// A copy of the whole state.
    public func snapshot() -> IdentityState { lock.withLock { state } }

    /// How many times the state changed (a server cache compares it).
    public var changes: Int { lock.withLock { revision } }

    /// The user, or nil.
    public func user(_ username: String) -> IdentityState.User? { lock.withLock { state.users[username] } }

    /// Password checks made through this directory's service (for tests: each login costs one).
    public var loginChecks: Int { lock.withLock { passwordChecks } }

    func countLoginCheck() { lock.withLock { passwordChecks += 1 } }

    /// Some account's password hash (its cost is what a decoy check must match), or nil.
    var anyPasswordHash: String? { lock.withLock { state.users.values.first?.passwordHash } }

    /// The app, or nil.
    public func app(_ appID: String) -> IdentityState.App? { lock.withLock { state.apps[appID] } }

    func replace(_ newState: IdentityState) {
        lock.withLock {
            state = newState
            revision += 1
        }
    }
}
