// The interaction floor's types were named for the browser editor, their first face; they drive any crop UI, so
// their names now say their floor. The former names stay for one release.

/// The former name of ``CropSession``.
@available(*, deprecated, renamed: "CropSession")
public typealias EditorSession = CropSession

/// The former name of ``CropEvent``.
@available(*, deprecated, renamed: "CropEvent")
public typealias EditorEvent = CropEvent

/// The former name of ``CropGesture``.
@available(*, deprecated, renamed: "CropGesture")
public typealias EditorGesture = CropGesture

/// The former name of ``CropViewState``.
@available(*, deprecated, renamed: "CropViewState")
public typealias EditorViewState = CropViewState
