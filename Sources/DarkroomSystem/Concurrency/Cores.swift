#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The number of cores this process may use: the default for every `--concurrency`.
public enum Cores {
    public static var count: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
}
