/// The contacts of the filter by delivered id, with the assembler ids that continue an
/// earlier contact (a finger the sensor dropped for a frame).
struct ContactTable: Sendable {
    var contacts: [TouchID: FilterContact] = [:]
    /// Assembler ids of contacts that continue an earlier one → the id delivered for it.
    var aliases: [TouchID: TouchID] = [:]

    subscript(id: TouchID) -> FilterContact? {
        get { contacts[id] }
        set { contacts[id] = newValue }
    }

    /// The delivered id for an assembler id.
    func resolved(_ id: TouchID) -> TouchID { aliases[id] ?? id }

    var fingerCount: Int { contacts.values.count(where: { $0.role == .finger }) }
    var hasFinger: Bool { contacts.values.contains { $0.role == .finger } }

    /// The fingers down, and whether one other than `id` is among them, in one pass (a
    /// moved contact asks both every frame).
    func fingers(besides id: TouchID) -> (count: Int, others: Bool) {
        var count = 0
        var others = false
        for (key, contact) in contacts where contact.role == .finger {
            count += 1
            if key != id { others = true }
        }
        return (count, others)
    }
}
