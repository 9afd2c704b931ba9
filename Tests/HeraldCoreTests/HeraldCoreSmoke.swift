import Testing

@testable import HeraldCore

@Test func moduleLoads() {}
