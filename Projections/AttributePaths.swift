/// The folding thread's copy of the run's attribute paths, by number.
public struct AttributePaths: Sendable {
    private(set) var names: [String] = []

    mutating func append(_ new: [String]) { names.append(contentsOf: new) }

    /// The path numbered `number`.
    subscript(_ number: Int32) -> String { names[Int(number)] }
}
