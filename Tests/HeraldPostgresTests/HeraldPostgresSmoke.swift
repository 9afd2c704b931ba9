import Testing

@testable import HeraldPostgres

@Test func moduleLoads() {}
