import AuditLog
import Inspection

extension CommandEnvelope {
    /// The SHA-256 of the command's canonical content: its type and its own fields as compact JSON
    /// with sorted keys, without the envelope (command id, actor, occurred-at). A resend of the
    /// same command has the same fingerprint however its JSON was laid out; another command under
    /// the same id has another one, and is refused.
    public var fingerprint: CommandFingerprint {
        var content = self
        content.commandID = ""
        content.actor = ""
        content.occurredAt = nil
        return CommandFingerprint(sha256Of: content.jsonLine().utf8)
    }
}
