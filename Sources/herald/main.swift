import Foundation
import HeraldService

exit(
    HeraldCommand.run(
        arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
