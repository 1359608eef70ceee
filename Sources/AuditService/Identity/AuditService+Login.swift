import Foundation
import HummingbirdBcrypt

extension AuditService {
    /// The enabled user whose password this is, or nil; always exactly one bcrypt check, whether
    /// the name is unknown, invalid, disabled or right, so neither the answer nor its time tells
    /// which user names exist or which accounts are disabled (bcrypt: slow by design, call it off
    /// any event loop). Counts each check in ``bcryptChecks``.
    public nonisolated func verifyLogin(username: String, password: String) -> IdentityState.User? {
        let user = IdentityState.isValidName(username) ? identity.user(username) : nil
        // An unknown name is checked against a decoy of the accounts' cost: the same work, no match.
        let hash = user?.passwordHash ?? LoginCost.decoyHash(like: identity.anyPasswordHash)
        let matches = checkLoginPassword(password, hash: hash)
        guard let user, matches, !user.disabled else { return nil }
        return user
    }

    /// The one bcrypt check of a login, counted where it is made so that a test sees each one.
    private nonisolated func checkLoginPassword(_ password: String, hash: String) -> Bool {
        identity.countLoginCheck()
        return Bcrypt.verify(password, hash: hash)
    }

    /// bcrypt checks made by ``verifyLogin(username:password:)`` on this service.
    public nonisolated var bcryptChecks: Int { identity.loginChecks }
}

/// The decoy hash an unknown user's password is checked against: a hash of a random password at
/// the same cost as the accounts', so its check takes as long as theirs.
enum LoginCost {
    static let lock = NSLock()
    // Guarded by `lock`.
    nonisolated(unsafe) private static var decoys: [UInt8: String] = [:]

    /// A decoy of the cost written in `hash` (`$2b$12$…`), 12 when there is no account yet.
    static func decoyHash(like hash: String?) -> String {
        let cost = hash.flatMap { UInt8($0.split(separator: "$").dropFirst().first ?? "") } ?? 12
        return lock.withLock {
            if let decoy = decoys[cost] { return decoy }
            var random = SystemRandomNumberGenerator()
            let secret = String(
                (0..<24).map { _ in Character(Unicode.Scalar(UInt8.random(in: 97...122, using: &random))) })
            let decoy = Bcrypt.hash(secret, cost: cost)
            decoys[cost] = decoy
            return decoy
        }
    }
}
