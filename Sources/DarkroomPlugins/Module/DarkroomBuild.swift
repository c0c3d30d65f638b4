/// This build of Darkroom.
public enum DarkroomBuild {
    /// The version `darkroom --version` prints, heartbeats advertise and the built-in modules carry.
    public static let version = "0.1.0"
}
