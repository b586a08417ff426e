// CropKitTasks: a `cropkit` command run several times inside one process, as Benchmarks/vips_tasks.py runs libvips
// 8.18's: one warm-up, then RUNS timed runs, each from parsing the arguments to the written output. It prints
// `{"seconds": MEDIAN, "runs": [...]}`. Benchmarks/compare.py reports it as "cropkit in", beside "vips 8.18 in", so
// that both libraries are timed alike (compare.py says why that matters on this machine).
//
//   CROPKIT_BENCHMARKS=1 swift build -c release --product CropKitTasks
//   .build/release/CropKitTasks RUNS resize photo.jpg --width 1920 -o out.jpg --force --quiet

import ArgumentParser
import CropCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

func seconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let runs = arguments.first.flatMap({ Int($0) }), runs > 0, arguments.count > 1 else {
    printError("usage: CropKitTasks RUNS COMMAND [ARGUMENTS …]  (a cropkit command, run RUNS times after a warm-up)")
    exit(64)
}
let command = Array(arguments.dropFirst())
var times: [Double] = []
for run in 0...runs {
    let start = seconds()
    do {
        var parsed = try CropKitCommand.parseAsRoot(command)
        try parsed.run()
    } catch {
        printError("CropKitTasks: \(CropKitCommand.fullMessage(for: error))")
        exit(1)
    }
    if run > 0 { times.append(seconds() - start) }
}
let sorted = times.sorted()
let median =
    sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
print("{\"seconds\": \(median), \"runs\": [\(times.map { String($0) }.joined(separator: ", "))]}")
