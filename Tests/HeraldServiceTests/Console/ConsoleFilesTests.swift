import Foundation
import HeraldHTTP
import HeraldObservability
import Testing

@testable import HeraldService

/// The console's files through the real router and dispatcher, from a folder of its own: types, headers, caching,
/// and nothing served outside the folder or outside the allow-list.
@Suite("Console files")
struct ConsoleFilesTests {
    /// A folder with a page, a script and a stylesheet, and a secret beside (not inside) it.
    struct Fixture {
        let root: URL
        let dispatcher: RequestDispatcher

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("console-\(UUID().uuidString)")
            let folder = root.appendingPathComponent("console")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("<!doctype html><title>Herald</title>".utf8).write(to: folder.appendingPathComponent("index.html"))
            try Data("export const a = 1;".utf8).write(to: folder.appendingPathComponent("app.js"))
            try Data("body{}".utf8).write(to: folder.appendingPathComponent("app.css"))
            try Data("outside-the-folder".utf8).write(to: root.appendingPathComponent("secret.js"))
            try FileManager.default.createSymbolicLink(
                at: folder.appendingPathComponent("link.js"),
                withDestinationURL: root.appendingPathComponent("secret.js"))
            var router = Router()
            ConsoleRoutes.register(on: &router, files: ConsoleFiles(folder: folder))
            dispatcher = RequestDispatcher(
                router: router, authenticator: StaticAuthenticator(principals: [:]),
                logger: Logger(minimumLevel: .error, sink: .discard))
        }

        func get(_ path: String, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
            dispatcher.respond(to: HTTPRequest(method: .get, path: path, headers: headers))
        }

        func remove() { try? FileManager.default.removeItem(at: root) }
    }

    @Test("The page, scripts and styles are served with their types and the admin page's security headers")
    func contentTypesAndHeaders() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        for (path, type, text) in [
            ("/console", "text/html; charset=utf-8", "<!doctype html><title>Herald</title>"),
            ("/console/", "text/html; charset=utf-8", "<!doctype html><title>Herald</title>"),
            ("/console/index.html", "text/html; charset=utf-8", "<!doctype html><title>Herald</title>"),
            ("/console/app.js", "text/javascript; charset=utf-8", "export const a = 1;"),
            ("/console/app.css", "text/css; charset=utf-8", "body{}"),
        ] {
            let response = fixture.get(path)
            #expect(response.status == .ok, "\(path)")
            #expect(response.headers["Content-Type"] == type, "\(path)")
            #expect(response.bodyText == text, "\(path)")
            let policy = try #require(response.headers["Content-Security-Policy"])
            #expect(policy.contains("default-src 'none'"))
            #expect(policy.contains("script-src 'self'"))
            #expect(policy.contains("frame-ancestors 'none'"))
            #expect(!policy.contains("unsafe-inline"))
            #expect(response.headers["X-Content-Type-Options"] == "nosniff")
            #expect(response.headers["Referrer-Policy"] == "no-referrer")
            #expect(response.headers["Cache-Control"] == "no-cache")
        }
    }

    @Test("An unchanged file revalidates with a 304")
    func revalidation() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let first = fixture.get("/console/app.js")
        let etag = try #require(first.headers["ETag"])
        let again = fixture.get("/console/app.js", headers: ["If-None-Match": etag])
        #expect(again.status == .notModified)
        #expect(again.body.isEmpty)
        #expect(fixture.get("/console/app.js", headers: ["If-None-Match": "\"other\""]).status == .ok)
    }

    @Test(
        "Traversal, hidden files, links, unknown types and unknown files are 404 problems",
        arguments: [
            "/console/..%2Fsecret.js", "/console/%2E%2E%2Fsecret.js", "/console/..", "/console/.hidden.js",
            "/console/link.js", "/console/missing.js", "/console/INDEX.html", "/console/index.html.bak",
            "/console/app.js%00.html", "/console/a%5Cb.js", "/console/app.json",
        ])
    func refused(path: String) throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let response = fixture.get(path)
        #expect(response.status == .notFound, "\(path)")
        #expect(response.headers["Content-Type"] == "application/problem+json", "\(path)")
        #expect(!response.bodyText.contains("outside-the-folder"), "\(path)")
    }

    @Test("Paths deeper than one file are not routes")
    func nested() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let response = fixture.get("/console/../secret.js")
        #expect(response.status == .notFound)
        #expect(fixture.get("/console/js/app.js").status == .notFound)
    }

    @Test("Without a folder the console answers 404, and the folder is found from HERALD_CONSOLE_DIR")
    func locating() throws {
        #expect(throws: HTTPError.self) { try ConsoleFiles(folder: nil).response(for: "index.html", ifNoneMatch: nil) }
        let fixture = try Fixture()
        defer { fixture.remove() }
        let dir = fixture.root.appendingPathComponent("console").path
        #expect(ConsoleFiles.locate(environment: ["HERALD_CONSOLE_DIR": dir]).folder?.path == dir)
        #expect(ConsoleFiles.locate(environment: ["HERALD_CONSOLE_DIR": dir + "-missing"]).folder == nil)
        #expect(ConsoleFiles.isServable("campaigns.js"))
        #expect(!ConsoleFiles.isServable("../index.html"))
        #expect(!ConsoleFiles.isServable("index"))
    }
}
