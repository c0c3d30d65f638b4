/// A point in unit coordinates of an image: (0, 0) is the top-left corner, (1, 1) the bottom-right.
///
/// Used as the anchor of crops and fills, as Kingfisher's `CroppingImageProcessor` takes a
/// `CGPoint` in 0…1 and SwiftUI's `UnitPoint` places content.
public struct UnitPoint: Hashable, Sendable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public static let topLeft = UnitPoint(x: 0, y: 0)
    public static let top = UnitPoint(x: 0.5, y: 0)
    public static let topRight = UnitPoint(x: 1, y: 0)
    public static let left = UnitPoint(x: 0, y: 0.5)
    public static let center = UnitPoint(x: 0.5, y: 0.5)
    public static let right = UnitPoint(x: 1, y: 0.5)
    public static let bottomLeft = UnitPoint(x: 0, y: 1)
    public static let bottom = UnitPoint(x: 0.5, y: 1)
    public static let bottomRight = UnitPoint(x: 1, y: 1)

    /// The named anchors, in the order the documentation lists them.
    public static let named: [(name: String, point: UnitPoint)] = [
        ("topLeft", .topLeft), ("top", .top), ("topRight", .topRight),
        ("left", .left), ("center", .center), ("right", .right),
        ("bottomLeft", .bottomLeft), ("bottom", .bottom), ("bottomRight", .bottomRight),
    ]

    /// The name of this point when it is one of the nine named anchors.
    public var name: String? { Self.named.first { $0.point == self }?.name }

    /// The origin of a `size` rectangle placed inside `container` so that this anchor of the
    /// rectangle sits on the same anchor of the container (0.5 centres it, 0 aligns the leading edges).
    public func origin(of size: PixelSize, in container: PixelSize) -> (x: Int, y: Int) {
        let x = (Double(container.width - size.width) * self.x).rounded()
        let y = (Double(container.height - size.height) * self.y).rounded()
        return (Int(x), Int(y))
    }
}
