import HeraldService
import HeraldText

#if canImport(Glibc)
    import Glibc
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "tzdata":
    exit(TimeZoneDataCommand.run(arguments: Array(arguments.dropFirst())))
default:
    exit(2)
}
