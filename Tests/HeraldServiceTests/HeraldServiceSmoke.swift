import Testing

@testable import HeraldService

@Test func moduleLoads() {}
