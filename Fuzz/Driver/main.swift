// libFuzzer's driver for every fuzz target in one executable: CROPKIT_FUZZ_TARGET names the target whose body
// (FuzzBodies) gets each input, so one build links all of them (Fuzz/run.sh).
import CFuzzDriver
import Foundation
import FuzzBodies

/// The body libFuzzer calls; set once, before the driver starts (its callback is a C function and captures nothing).
nonisolated(unsafe) var selected: (@Sendable (UnsafePointer<UInt8>, Int) -> Int32)?

let name = ProcessInfo.processInfo.environment["CROPKIT_FUZZ_TARGET"] ?? ""
guard let body = fuzzTargets[name] else {
    FileHandle.standardError.write(
        Data(
            "CropKitFuzz: set CROPKIT_FUZZ_TARGET to one of \(fuzzTargets.keys.sorted().joined(separator: " "))\n".utf8)
    )
    exit(2)
}
selected = body
var argumentCount = CommandLine.argc
var argumentValues = Optional(CommandLine.unsafeArgv)
exit(
    LLVMFuzzerRunDriver(&argumentCount, &argumentValues) { data, size in
        guard let data, let selected else { return 0 }
        return selected(data, size)
    })
