import DarkroomSystem
import Testing

/// A conforming error as any target would write one.
private struct SampleError: DarkroomError {
    var errorCode = "sample.broken"
    var isTransient = false
    var namesSource = false
    var label: String?
    var description: String { "the thing broke" }
    var messageNamesSource: Bool { namesSource }
    var contextLabel: String? { label }
}

@Suite("DarkroomError and ErrorSummary")
struct ErrorSummaryTests {
    @Test("a DarkroomError is summarised by what it says about itself")
    func conformingError() {
        let summary = ErrorSummary(SampleError(isTransient: true))
        #expect(summary == ErrorSummary(code: "sample.broken", message: "the thing broke", isTransient: true))
    }

    @Test("a context label introduces a message that does not name its source")
    func contextLabel() {
        #expect(ErrorSummary(SampleError(label: "bad chain")).message == "bad chain: the thing broke")
        #expect(ErrorSummary(SampleError(namesSource: true, label: "bad chain")).message == "the thing broke")
    }

    @Test("a report about an input prefixes it unless the message names its source")
    func messageAboutSource() {
        #expect(SampleError().message(about: "in.jpg") == "in.jpg: the thing broke")
        #expect(SampleError(namesSource: true).message(about: "in.jpg") == "the thing broke")
    }

    @Test("the defaults: message is the description, no errno")
    func defaults() {
        let error = SampleError()
        #expect(error.errorMessage == error.description)
        #expect(error.systemError == nil)
    }

    @Test("cancellation is the worker stopping: transient")
    func cancellation() {
        #expect(
            ErrorSummary(CancellationError())
                == ErrorSummary(code: "worker.cancelled", message: "the worker stopped before the job finished", isTransient: true))
    }

    @Test("any other error is internal and transient")
    func otherErrors() {
        struct Surprise: Error {}
        let summary = ErrorSummary(Surprise())
        #expect(summary.code == "internal")
        #expect(summary.message == "unexpected error: Surprise()")
        #expect(summary.isTransient)
    }
}
