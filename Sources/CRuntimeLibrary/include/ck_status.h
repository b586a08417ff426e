// The statuses every C shim returns (CJPEG, CPNG and the run-time shims): one table, which each shim's header names
// under its own prefix (CK_JPEG_ERR_TRUNCATED = CK_ERR_TRUNCATED …) and CropCodecs' ShimStatus maps to Swift once.

#pragma once

enum {
  /// Success.
  CK_OK = 0,
  /// The library rejected the data (broken headers, markers, compressed data …).
  CK_ERR_CORRUPT = 1,
  /// The data ended before the picture was complete.
  CK_ERR_TRUNCATED = 2,
  /// A warning that strict mode turns into a failure.
  CK_ERR_STRICT_WARNING = 3,
  /// A feature or layout CropKit does not decode or encode.
  CK_ERR_UNSUPPORTED = 4,
  /// Out of memory, or an allocation past a cap.
  CK_ERR_MEMORY = 5,
  /// Not this format at all (no signature).
  CK_ERR_NOT_AN_IMAGE = 6,
  /// A progressive JPEG with more scans than allowed.
  CK_ERR_TOO_MANY_SCANS = 7,
  /// Calls made out of order, or an argument out of range.
  CK_ERR_USAGE = 8,
  /// A file could not be read or written.
  CK_ERR_IO = 9,
  /// A run-time library is missing, lacks a symbol or speaks another ABI; the message says which.
  CK_ERR_UNAVAILABLE = 10,
};
