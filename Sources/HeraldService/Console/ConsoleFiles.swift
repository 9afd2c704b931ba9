import Foundation
import HeraldCore
import HeraldHTTP

/// The web console's static files: one flat folder of HTML, CSS and JavaScript modules, read from disk on each
/// request (they are small, and an edited file shows on the next reload). Only plain names of known types are
/// served — no `/`, no `..`, no hidden files, no symbolic links — so nothing outside the folder can be reached.
struct ConsoleFiles: Sendable {
    /// The folder, or nil when none was found: every file is then a 404.
    let folder: URL?

    /// The headers every console response carries: the page runs only its own scripts and styles, talks only to
    /// this origin, and may not be framed.
    static let securityHeaders: HTTPHeaders = [
        "Content-Security-Policy":
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
            + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
        "X-Frame-Options": "DENY",
    ]

    /// Content types by extension; a name with any other extension is not served.
    static let contentTypes: [String: String] = [
        "html": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "svg": "image/svg+xml",
        "png": "image/png",
        "ico": "image/x-icon",
    ]

    /// The folder named by `HERALD_CONSOLE_DIR`, else `./console`, else `console/` (or `share/herald/console/`)
    /// beside the binary's build or install location, the way the migrations are found.
    static func locate(environment: [String: String], executable: String = CommandLine.arguments[0]) -> ConsoleFiles {
        if let dir = environment["HERALD_CONSOLE_DIR"] {
            return ConsoleFiles(folder: isFolder(dir) ? URL(fileURLWithPath: dir) : nil)
        }
        var candidates = ["console"]
        var folder = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            candidates.append(folder.appendingPathComponent("console").path)
            candidates.append(folder.appendingPathComponent("share/herald/console").path)
            folder = folder.deletingLastPathComponent()
        }
        return ConsoleFiles(folder: candidates.first(where: isFolder).map { URL(fileURLWithPath: $0) })
    }

    private static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// Whether `name` may be served: lowercase letters, digits and `-`, one `.`, and a known extension.
    static func isServable(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let stem = parts.first, let first = stem.utf8.first,
            contentTypes[String(parts[1])] != nil, stem.utf8.count <= 64
        else { return false }
        let allowed: (UInt8) -> Bool = { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "-")
        }
        return first != UInt8(ascii: "-") && stem.utf8.allSatisfy(allowed)
    }

    /// The response for file `name`: 200 with the file, 304 when `ifNoneMatch` names its current version, or a 404
    /// problem for a name that is not servable or not there.
    func response(for name: String, ifNoneMatch: String?) throws -> HTTPResponse {
        guard Self.isServable(name), let folder,
            let type = name.split(separator: ".").last.flatMap({ Self.contentTypes[String($0)] })
        else { throw Self.notFound }
        let path = folder.appendingPathComponent(name).path
        // attributesOfItem does not follow a symbolic link: a link is not a regular file and is not served.
        guard (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeRegular,
            let data = FileManager.default.contents(atPath: path)
        else { throw Self.notFound }
        let body = Array(data)
        let etag = "\"" + SHA256.hash(body).prefix(12).map { String(format: "%02x", $0) }.joined() + "\""
        var headers = Self.securityHeaders
        headers.set("ETag", etag)
        // Revalidated on every load, so a new release is picked up at once; unchanged files cost a 304.
        headers.set("Cache-Control", "no-cache")
        if let ifNoneMatch,
            ifNoneMatch.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == etag })
        {
            return HTTPResponse(status: .notModified, headers: headers)
        }
        headers.set("Content-Type", type)
        return HTTPResponse(status: .ok, headers: headers, body: body)
    }

    /// A 404 problem that keeps the console's security headers.
    static var notFound: HTTPError {
        HTTPError(
            status: .notFound, type: "not-found", detail: "The console has no such file.", headers: securityHeaders)
    }
}
