/// The coding key of an array element, shared by the JSON encoder and decoder ("Index 3" in
/// coding paths, as Foundation's coders write it).
struct IndexKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }
    init(intValue: Int) {
        self.stringValue = "Index \(intValue)"
        self.intValue = intValue
    }
}
