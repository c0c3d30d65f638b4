import DarkroomChains
import DarkroomClient
import DarkroomCore
import DarkroomQueue

extension FleetClient {
    /// The client a queue command works through: this binary's processors, and the failures the
    /// command runner reports as an unreachable Redis counted as outages (so `wait` rides out the
    /// same restarts `events --follow` does).
    init(commandQueue queue: any FleetClient.Queue, processors: ValidationOnlyRegistry = StandardProcessorSpecs.catalog) {
        self.init(queue: queue, processors: processors, isOutage: QueueCommandRunner.isUnreachable)
    }
}
