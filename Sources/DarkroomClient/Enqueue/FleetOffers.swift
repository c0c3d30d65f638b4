import DarkroomChains
import DarkroomQueue
import DarkroomSchema

/// The processors live workers offer, for the chains that name one this build lacks: who offers
/// each name at which version, and the one schema such a call is bound against.
///
/// Of the workers that advertise a usable schema for a name, the highest version's wins, and
/// among equal versions the first worker by name. A name no worker describes by a schema (workers
/// older than schemas) is offered by name and version only.
struct FleetOffers {
    struct Offer {
        var worker: String
        var version: Int
        var schema: ProcessorSchema?
    }

    /// Offers by processor name, each list in worker-name order.
    private(set) var offers: [String: [Offer]] = [:]
    /// The chosen schema of each name that has a usable one.
    private(set) var schemas = ValidationOnlyRegistry()
    /// The offer whose schema was chosen, by name.
    private var chosen: [String: Offer] = [:]

    init(workers: [WorkerInfo]) {
        for worker in workers.sorted(by: { $0.name < $1.name }) {
            let described = Dictionary(worker.schemas.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            for (name, version) in worker.processors {
                offers[name, default: []].append(Offer(worker: worker.name, version: version, schema: described[name]))
            }
        }
        for (name, list) in offers {
            let described = list.compactMap { offer in offer.schema.map { (offer: offer, schema: $0) } }.sorted { a, b in
                a.schema.version != b.schema.version ? a.schema.version > b.schema.version : a.offer.worker < b.offer.worker
            }
            for candidate in described {
                // A schema that cannot describe a processor (a name the syntax cannot write, a bad
                // default) is passed over for the next one.
                do { try schemas.register(candidate.schema) } catch { continue }
                chosen[name] = candidate.offer
                break
            }
        }
    }

    /// Every offered name, sorted.
    var names: [String] { offers.keys.sorted() }

    /// The note for `name`, a processor accepted because live workers offer it: who offers it,
    /// and whether its arguments were checked against a schema — and whose, when workers differ.
    func note(for name: String) -> String {
        let list = offers[name] ?? []
        // Which offers lack a schema matters only beside ones that have one.
        let mixed = list.contains { $0.schema != nil }
        let who =
            list.prefix(3).map { "\($0.worker) v\($0.version)\(mixed && $0.schema == nil ? " without a schema" : "")" }.joined(separator: ", ")
            + (list.count > 3 ? ", …" : "")
        let head = "note: '\(name)' is not built into this darkroom; accepted because live workers offer it (\(who))"
        guard let chosen = chosen[name], let schema = chosen.schema else { return head + "; its arguments are checked by the worker" }
        guard list.allSatisfy({ $0.schema == schema }) else {
            return head + "; they differ, so its arguments were checked against the schema of \(chosen.worker) (v\(schema.version))"
        }
        return head + "; its arguments were checked against their schema"
    }
}
