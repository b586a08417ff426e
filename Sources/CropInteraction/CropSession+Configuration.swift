import CropEngine
import CropGeometry

extension CropSession {
    /// Tunables, in view points unless stated.
    public struct Configuration: Hashable, Sendable {
        /// How far from a handle a press still grabs it.
        public var touchRadius: Double
        /// The side of a handle's square in the view state.
        public var handleSize: Double
        /// A press that moves less than this is a tap.
        public var tapSlop: Double
        /// How many undo steps are kept.
        public var historyLimit: Int
        /// The size of the stored-orientation preview image the browser draws (`nil`: the source size).
        public var previewSize: PixelSize?
        /// The context margin: the largest share of the viewport's width and of its height the crop box may take,
        /// in `(0, 1]`. The default 0.8 keeps at least a tenth of the viewport on each side of a centred box for the
        /// surrounding picture; 1 fits the box to the viewport less its insets alone.
        public var maximumBoxFraction: Double
        /// Degrees: a slider value or a two-finger turn within this of 0° snaps to 0°. 0 turns snapping off.
        public var straightenSnap: Double
        /// Degrees the two fingers of a pinch must turn before the picture turns with them, so that a pinch meant
        /// only to zoom never tilts the picture.
        public var rotationThreshold: Double
        /// An aspect ratio the host requires (an avatar, a fixed output size): the crop always has it, whatever
        /// the events. `aspect` and `swapAspect` events change nothing, quarter turns keep the output ratio, and a
        /// reset comes back to the largest crop of this ratio. `nil`: the person chooses.
        public var fixedAspect: AspectRatio?

        /// Creates a configuration.
        public init(
            touchRadius: Double = 24, handleSize: Double = 20, tapSlop: Double = 5, historyLimit: Int = 100,
            previewSize: PixelSize? = nil, maximumBoxFraction: Double = 0.8, straightenSnap: Double = 0.5,
            rotationThreshold: Double = 4, fixedAspect: AspectRatio? = nil
        ) {
            self.fixedAspect = fixedAspect
            self.touchRadius = touchRadius
            self.handleSize = handleSize
            self.tapSlop = tapSlop
            self.historyLimit = historyLimit
            self.previewSize = previewSize
            self.maximumBoxFraction = maximumBoxFraction
            self.straightenSnap = straightenSnap
            self.rotationThreshold = rotationThreshold
        }
    }
}
