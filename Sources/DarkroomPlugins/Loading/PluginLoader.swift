import CDarkroomPlugin
import DarkroomCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Loads the plugin modules in a search path into a catalog.
///
/// Each `*.so` file in each directory (in name order) is checked (ownership and permissions),
/// loaded with `dlopen`, asked for its descriptor through `darkroom_plugin_entry`, read and
/// checked (ABI version, names, schemas) and added to the catalog unless a name clashes. A
/// refusal names the file and the reason, and the other plugins still load. Loaded libraries are
/// never unloaded: their callbacks stay valid for the life of the process.
public enum PluginLoader {
    /// Loads every plugin of `searchPath` into `catalog`.
    public static func load(_ searchPath: PluginSearchPath, into catalog: inout PluginCatalog) {
        for directory in searchPath.directories {
            loadDirectory(directory, into: &catalog)
        }
    }

    /// Loads the plugins in one directory.
    static func loadDirectory(_ directory: String, into catalog: inout PluginCatalog) {
        var info = stat()
        guard stat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            catalog.refuse(path: directory, reason: "not a directory (check --plugins and \(PluginSearchPath.environmentVariable))")
            return
        }
        if let problem = PluginFileCheck.problem(at: directory, what: "directory") {
            catalog.refuse(path: directory, reason: problem + "; none of its plugins were loaded")
            return
        }
        for name in libraryNames(in: directory) {
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            loadLibrary(path, into: &catalog)
        }
    }

    /// Loads one shared library.
    public static func loadLibrary(_ path: String, into catalog: inout PluginCatalog) {
        if let problem = PluginFileCheck.problem(at: path, what: "file") {
            catalog.refuse(path: path, reason: problem)
            return
        }
        if let problem = SwiftRuntimeCheck.problem(loading: path) {
            catalog.refuse(path: path, reason: problem)
            return
        }
        // RTLD_LOCAL: one plugin's symbols never resolve another's; RTLD_NOW: a missing symbol is
        // a refusal now, not a crash in the middle of a job.
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "unknown dlopen error"
            catalog.refuse(path: path, reason: "cannot be loaded: \(reason)")
            return
        }
        guard let symbol = dlsym(handle, DARKROOM_PLUGIN_ENTRY_NAME) else {
            catalog.refuse(
                path: path,
                reason: "it exports no \(DARKROOM_PLUGIN_ENTRY_NAME) symbol (is it a Darkroom plugin? export the entry with DARKROOM_EXPORT)")
            dlclose(handle)
            return
        }
        let entry = unsafeBitCast(symbol, to: darkroom_plugin_entry_function.self)
        guard let descriptor = entry(DARKROOM_PLUGIN_ABI_VERSION) else {
            catalog.refuse(
                path: path, reason: "\(DARKROOM_PLUGIN_ENTRY_NAME) returned NULL: the plugin declined ABI version \(DARKROOM_PLUGIN_ABI_VERSION)")
            dlclose(handle)
            return
        }
        let module: PluginModule
        do {
            module = try ExternalModuleReader(origin: path).read(descriptor)
        } catch {
            catalog.refuse(path: path, reason: error.reason)
            dlclose(handle)
            return
        }
        if !catalog.add(module, path: path) {
            dlclose(handle)
        }
    }

    /// The `*.so` names in `directory`, sorted, so loading order (and which of two clashing
    /// plugins wins) does not depend on the file system.
    static func libraryNames(in directory: String) -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasSuffix(".so"), !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted()
    }
}
