// Darkroom is a Linux server and only Linux is built and tested: its system calls go straight to
// Glibc (`import Glibc`, `st_mtim`, `O_PATH`, extended attributes), with no
// branches for other platforms. A build anywhere else stops here with a message, instead of
// failing later on a missing module (docs/architecture.md, "Platform").
#if !os(Linux)
#error("Darkroom builds and runs on Linux (Glibc) only; see docs/architecture.md, Platform.")
#endif
