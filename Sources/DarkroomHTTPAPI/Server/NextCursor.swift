/// A listing page's `nextCursor`: the previous page's answer a client passes as `cursor` to get
/// the next page, written as `null` on the last page (a synthesized `Encodable` would leave an
/// optional out, and clients read one shape).
struct NextCursor: Encodable {
    var value: String?

    init(_ value: String?) { self.value = value }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let value { try container.encode(value) } else { try container.encodeNil() }
    }
}
