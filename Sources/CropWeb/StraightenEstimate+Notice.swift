import CropKit

extension StraightenEstimate {
    /// The applied angle for a person: "0.11° clockwise, from 17 straight lines (confidence 60%)", or "…, from long
    /// straight structures (profile peak 6.1×) (confidence 57%)".
    package var levelledText: String {
        let rounded = (angle * 100).rounded() / 100
        let sense = rounded == 0 ? "" : rounded > 0 ? " counter-clockwise" : " clockwise"
        let source = measure == .lines ? "\(lines) straight lines" : evidence
        return "\(abs(rounded))°\(sense), from \(source) (confidence \(percent)%)"
    }

    /// Why it was not applied: "no straight lines near level or upright", or "confidence 31%, 4 lines suggest 2.5°".
    package var unsureText: String {
        foundNothing
            ? "no straight lines near level or upright"
            : "confidence \(percent)%, \(evidence) suggest \((angle * 10).rounded() / 10)°"
    }

    /// No line and no projection estimate.
    package var foundNothing: Bool { lines == 0 && measure == .lines }

    private var percent: Int { Int((confidence * 100).rounded()) }
}
