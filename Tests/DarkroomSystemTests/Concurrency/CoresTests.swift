import DarkroomSystem
import Glibc
import Testing

@Suite("The cores a process may use")
struct CoresTests {
    @Test("cgroup v2 cpu.max: no limit, whole and fractional CPUs (rounded up), and nonsense")
    func cpuMax() {
        #expect(CgroupCPULimit.cores(cpuMax: "max 100000\n") == nil)
        #expect(CgroupCPULimit.cores(cpuMax: "200000 100000\n") == 2)
        #expect(CgroupCPULimit.cores(cpuMax: "150000 100000") == 2)
        #expect(CgroupCPULimit.cores(cpuMax: "50000 100000") == 1)
        #expect(CgroupCPULimit.cores(cpuMax: "6400000 100000") == 64)
        #expect(CgroupCPULimit.cores(cpuMax: "") == nil)
        #expect(CgroupCPULimit.cores(cpuMax: "lots 100000") == nil)
        #expect(CgroupCPULimit.cores(cpuMax: "0 100000") == nil)
    }

    @Test("cgroup v1 quota and period: -1 is no limit")
    func quotaAndPeriod() {
        #expect(CgroupCPULimit.cores(quota: "-1\n", period: "100000\n") == nil)
        #expect(CgroupCPULimit.cores(quota: "300000\n", period: "100000\n") == 3)
        #expect(CgroupCPULimit.cores(quota: "250000", period: "100000") == 3)
        #expect(CgroupCPULimit.cores(quota: "100000", period: "0") == nil)
    }

    @Test("Kernel CPU lists (the affinity mask in /proc/self/status)")
    func cpuLists() {
        #expect(Cores.cpuListCount("0-1") == 2)
        #expect(Cores.cpuListCount(" 0-3,8,10-11\n") == 7)
        #expect(Cores.cpuListCount("5") == 1)
        #expect(Cores.cpuListCount("3-1") == nil)
        #expect(Cores.cpuListCount("") == nil)
        #expect(Cores.cpuListCount("a-b") == nil)
    }

    @Test("The count is at least 1 and at most the online cores and this machine's cgroup limit")
    func count() {
        let online = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        #expect(Cores.count >= 1)
        #expect(Cores.count <= max(online, 1))
        if let limit = CgroupCPULimit.current() { #expect(Cores.count <= limit) }
    }
}
