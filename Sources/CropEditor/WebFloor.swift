@_exported import CropWeb
import Hummingbird

// The web floor (CropWeb) under the editor and the image service: its budget, queue, errors and their middleware are
// part of the editor's API (a server that embeds the editor configures them), so `import CropEditor` shows them. The
// editor's former names stay for code written against them.

/// The editor's name for `WebError` (CropWeb), every error the web faces answer with.
public typealias EditorError = WebError

/// The editor's name for `WebErrorMiddleware` (CropWeb).
public typealias EditorErrorMiddleware<Context: RequestContext> = WebErrorMiddleware<Context>
