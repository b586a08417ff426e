import CropKit

extension StraightenEstimate {
    /// The applied angle for a person: "0.11° clockwise, from 17 straight lines (confidence 60%)".
    var levelledText: String {
        let rounded = (angle * 100).rounded() / 100
        let sense = rounded == 0 ? "" : rounded > 0 ? " counter-clockwise" : " clockwise"
        return "\(abs(rounded))°\(sense), from \(lines) straight lines (confidence \(percent)%)"
    }

    /// Why it was not applied: "no straight lines near level or upright", or "confidence 31%, 4 lines suggest 2.5°".
    var unsureText: String {
        lines == 0 ? "no straight lines near level or upright"
            : "confidence \(percent)%, \(lines) lines suggest \((angle * 10).rounded() / 10)°"
    }

    private var percent: Int { Int((confidence * 100).rounded()) }
}
