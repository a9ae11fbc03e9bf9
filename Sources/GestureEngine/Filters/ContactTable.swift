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

    /// A finger other than `id` is down.
    func hasFinger(besides id: TouchID) -> Bool {
        contacts.contains { $0.key != id && $0.value.role == .finger }
    }
}
