// The C types of the ABI (`darkroom_plugin`, …) come with the kit, so a plugin imports one
// module and its entry point can name `darkroom_plugin`.
@_exported import CDarkroomPlugin
