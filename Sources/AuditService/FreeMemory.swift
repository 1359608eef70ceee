import CMallocTrim

extension AuditService {
    /// Gives the free pages of the process's heap back to the system (glibc's `malloc_trim`);
    /// true when some were. A long-running server calls it now and then: under many devices it
    /// frees most of what it allocates in between what it keeps (the state's nodes, the indexes),
    /// and the allocator otherwise holds on to whole pages with nothing in them. It walks every
    /// arena under its lock, so call it off the event loops.
    @discardableResult
    public static func releaseFreeMemory() -> Bool {
        itemaudit_malloc_trim() == 1
    }
}
