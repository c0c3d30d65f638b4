/// The `limit` query parameter of a listing: how many entries one page holds.
enum QueryLimit {
    /// `text` as a number in 1…`max`, `fallback` when absent; anything else is `422`
    /// `api.invalid-field`.
    static func parse(_ text: String?, max: Int, fallback: Int = 100) throws(APIError) -> Int {
        guard let text else { return fallback }
        guard let value = Int(text), (1...max).contains(value) else {
            throw APIError(.invalidField, "'limit' must be 1…\(max) (got '\(text.prefix(20))')")
        }
        return value
    }
}
