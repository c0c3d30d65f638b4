import DarkroomChains
import DarkroomQueue

/// Renditions at enqueue: each rendition's chain checked and canonicalised and its format checked,
/// as a job's own are.
extension EnqueuePlanner {
    /// `renditions` with canonical chains (an empty chain stays empty: no processor) and canonical
    /// format names; nil for none. Problems are thrown without a location.
    static func canonicalRenditions(
        _ renditions: [JobRendition]?, validator: inout ChainValidator, formats: EnqueueFormats
    ) async throws -> [JobRendition]? {
        guard let renditions else { return nil }
        var canonical: [JobRendition] = []
        canonical.reserveCapacity(renditions.count)
        for var rendition in renditions {
            if !rendition.chain.isEmpty {
                do {
                    rendition.chain = try await validator.canonicalize(rendition.chain)
                } catch let error as ChainError {
                    throw EnqueueProblem.chain(error, text: rendition.chain, location: nil)
                }
            }
            if let format = rendition.format {
                if let problem = formatProblem(format, formats: formats) {
                    throw EnqueueProblem(.unknownFormat, location: nil, message: "rendition '\(SafeText.sanitized(rendition.name))': \(problem)")
                }
                rendition.format = formats.canonicalName(format) ?? format
            }
            canonical.append(rendition)
        }
        return canonical
    }

    /// The processors the renditions' chains need beyond the baseline (`processor:<name>`).
    static func renditionRequirements(_ renditions: [JobRendition], validator: inout ChainValidator) throws -> [String] {
        var names: [String] = []
        for rendition in renditions where !rendition.chain.isEmpty {
            names += try validator.processorRequirements(ofCanonical: rendition.chain)
        }
        return names
    }

    /// What the renditions make, as one text (a derived id's "chain"): each rendition's name,
    /// chain, format and quality.
    static func renditionsWork(_ renditions: [JobRendition]) -> String {
        renditions.map { "\($0.name)=\($0.chain);\($0.format ?? "");\($0.quality.map(String.init) ?? "")" }.joined(separator: "\n")
    }

    /// Why a job of `count` renditions cannot use the output-name template `name`: with more than
    /// one rendition a template must name `{name}`, or every rendition would write one file.
    static func renditionsNameProblem(_ name: String?, count: Int) -> EnqueueProblem? {
        guard count > 1, let name, let template = try? OutputNameTemplate(parsing: name), !template.fields.contains(.name) else { return nil }
        return EnqueueProblem(
            code: OutputNameError.Code.collision.rawValue, location: nil,
            message:
                "bad output name [name.collision]: template '\(SafeText.sanitized(name))' has no {name}, so every rendition would get one name; add {name}, e.g. {stem}-{name}.{ext}"
        )
    }
}
