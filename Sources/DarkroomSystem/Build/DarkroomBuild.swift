/// This build of Darkroom.
///
/// In the system layer so every target can name the product's version without linking the
/// plugin loader: the CLI prints it, workers advertise it in heartbeats, and the built-in
/// modules carry it.
public enum DarkroomBuild {
    /// The version `darkroom --version` prints, heartbeats advertise and the built-in modules carry.
    public static let version = "0.1.0"
}
