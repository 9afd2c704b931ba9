import HeraldText

/// One ICU renderer shared by the category tests (it is thread-safe and caches compiled templates).
enum CategoryRendererFixture {
    static let shared = ICUMessageRenderer()
}
