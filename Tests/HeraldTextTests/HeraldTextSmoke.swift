import Testing

@testable import HeraldText

@Test func moduleLoads() {}
