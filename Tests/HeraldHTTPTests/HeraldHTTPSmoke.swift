import Testing

@testable import HeraldHTTP

@Test func moduleLoads() {}
