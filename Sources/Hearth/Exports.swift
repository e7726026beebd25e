// The shared wire types of the SDKs (ActionCodeSettings, ActionCodeOperation, ActionCodeURL…)
// are part of this library's API: `import Hearth` is all app code needs.
@_exported public import HearthWire
