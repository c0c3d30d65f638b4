import DarkroomAPIKeys

/// A key's refusal of one job of a submit (`APIKey.permits(job:)`), with where the job is in the
/// request (`jobs:3`), answered with the refusal's status (403) and code.
struct KeyRefusal: Error {
    var error: APIKeyError
    var location: String?
}
