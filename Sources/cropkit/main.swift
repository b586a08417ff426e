// The `cropkit` command. `serve`, `edit` and `sign` run the second binary, cropkit-server (ServerFace), before any
// parsing, so their options and help are that binary's own; everything else is CropKitCommand.
import CropCLI

ServerFace.execIfServerCommand(CommandLine.arguments)
CropKitCommand.main()
