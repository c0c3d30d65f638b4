import CDarkroomPlugin
import DarkroomCore
import Glibc

/// Loads the plugin modules in a search path into a catalog.
///
/// Each `*.so` file in each directory (in name order) is checked (ownership and permissions),
/// loaded with `dlopen`, asked for its descriptor through `darkroom_plugin_entry`, read and
/// checked (ABI version, names, schemas) and added to the catalog unless a name clashes. A
/// refusal names the file and the reason, and the other plugins still load. Loaded libraries are
/// never unloaded, refused ones included: callbacks stay valid for the life of the process.
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
        if let problem = PluginFileCheck.directoryProblem(at: directory) {
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
        let fd: Int32
        switch PluginFileCheck.open(path) {
        case .success(let opened): fd = opened
        case .failure(let problem):
            catalog.refuse(path: path, reason: problem.reason)
            return
        }
        // Loaded through the descriptor that was checked, so the file cannot be swapped between
        // the check and the load. Once loaded, the descriptor stays open for the life of the
        // process: the dynamic loader knows the library by this `/proc/self/fd/N` name, and a
        // reused descriptor number would make it hand back this library for another one.
        let checkedPath = "/proc/self/fd/\(fd)"
        if let problem = SwiftRuntimeCheck.problem(loading: checkedPath) {
            close(fd)
            catalog.refuse(path: path, reason: problem)
            return
        }
        let hadSwiftRuntime = SwiftRuntimeCheck.sharedRuntimeIsLoaded
        // RTLD_LOCAL: one plugin's symbols never resolve another's; RTLD_NOW: a missing symbol is
        // a refusal now, not a crash in the middle of a job; RTLD_NODELETE, and no dlclose even
        // for a refused plugin: its constructors have run (a Swift library has registered its
        // metadata with the runtime), so unmapping it could leave dangling pointers behind.
        guard let handle = dlopen(checkedPath, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) else {
            let reason = (dlerror().map { String(cString: $0) } ?? "unknown dlopen error").replacing(checkedPath, with: path)
            close(fd)
            catalog.refuse(path: path, reason: "cannot be loaded: \(reason)")
            return
        }
        if !hadSwiftRuntime && SwiftRuntimeCheck.sharedRuntimeIsLoaded {
            // A dependency of the library pulled the shared Swift runtime in beside this binary's
            // static one; the library stays mapped (its constructors ran), but nothing of it is used.
            catalog.refuse(
                path: path,
                reason:
                    "loading it brought the shared Swift runtime into this darkroom, which links its own statically; restart darkroom without this plugin, or use a darkroom built without --static-swift-stdlib"
            )
            return
        }
        guard let symbol = dlsym(handle, DARKROOM_PLUGIN_ENTRY_NAME) else {
            catalog.refuse(
                path: path,
                reason: "it exports no \(DARKROOM_PLUGIN_ENTRY_NAME) symbol (is it a Darkroom plugin? export the entry with DARKROOM_EXPORT)")
            return
        }
        let entry = unsafeBitCast(symbol, to: darkroom_plugin_entry_function.self)
        guard let descriptor = entry(DARKROOM_PLUGIN_ABI_VERSION) else {
            catalog.refuse(
                path: path, reason: "\(DARKROOM_PLUGIN_ENTRY_NAME) returned NULL: the plugin declined ABI version \(DARKROOM_PLUGIN_ABI_VERSION)")
            return
        }
        let module: PluginModule
        do {
            module = try ExternalModuleReader(origin: path).read(descriptor)
        } catch {
            catalog.refuse(path: path, reason: error.reason)
            return
        }
        catalog.add(module, path: path)
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
