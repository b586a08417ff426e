/// The warnings a shim has collected in its handle, copied into Swift as they appear.
struct ShimWarningLog {
    private var synced = 0

    /// Appends to `warnings` those of the shim's first `count` (capped at `capacity`) not yet copied.
    mutating func sync(
        into warnings: inout [CodecWarning], source: CodecWarning.Source, count: Int32, capacity: Int32,
        output: Bool = false, message: (Int32) -> UnsafePointer<CChar>
    ) {
        let available = Int(min(count, capacity))
        while synced < available {
            warnings.append(CodecWarning(source, String(cString: message(Int32(synced))), output: output))
            synced += 1
        }
    }
}
