import HeraldObservability
import HeraldTestSupport
import Testing

@Suite struct MetricsTests {
    @Test func countersAndHistogramsRenderAsPrometheusText() {
        let metrics = Metrics(namespace: "t")
        metrics.increment("t_jobs_total", help: "Jobs by kind.", labels: ["kind": "b"])
        metrics.increment("t_jobs_total", help: "Jobs by kind.", labels: ["kind": "a"], by: 2)
        for value in [0.005, 0.05, 3] {
            metrics.observe(
                "t_job_seconds", help: "Job time.", labels: ["kind": "a"], value: value, buckets: [0.1, 0.01])
        }
        let expected = """
            # HELP t_jobs_total Jobs by kind.
            # TYPE t_jobs_total counter
            t_jobs_total{kind="a"} 2
            t_jobs_total{kind="b"} 1
            # HELP t_job_seconds Job time.
            # TYPE t_job_seconds histogram
            t_job_seconds_bucket{kind="a",le="0.01"} 1
            t_job_seconds_bucket{kind="a",le="0.1"} 2
            t_job_seconds_bucket{kind="a",le="+Inf"} 3
            t_job_seconds_sum{kind="a"} 3.055
            t_job_seconds_count{kind="a"} 3

            """
        #expect(metrics.renderPrometheus() == expected)
        #expect(metrics.counterValue("t_jobs_total", labels: ["a"]) == 2)
    }

    @Test func aSecondLabelSetForTheSameNameIsIgnored() {
        let metrics = Metrics()
        metrics.increment("jobs_total", help: "Jobs.", labels: ["kind": "a"])
        metrics.increment("jobs_total", help: "Jobs.", labels: ["queue": "a"])
        #expect(metrics.counterValue("jobs_total", labels: ["a"]) == 1)
        #expect(!metrics.renderPrometheus().contains("queue"))
    }

    @Test func anEmptyRegistryRendersNothing() {
        #expect(Metrics().renderPrometheus().isEmpty)
        #expect(Metrics.prometheusContentType == "text/plain; version=0.0.4; charset=utf-8")
    }

    @Test func labelValuesAndHelpAreEscaped() {
        let metrics = Metrics()
        metrics.increment("odd_total", help: "back\\slash\nnewline", labels: ["v": "a\"b\\c\nd"])
        let text = metrics.renderPrometheus()
        #expect(text.contains(#"# HELP odd_total back\\slash\nnewline"#))
        #expect(text.contains(#"odd_total{v="a\"b\\c\nd"} 1"#))
    }

    @Test func gaugesAreReadAtRenderTime() {
        let metrics = Metrics()
        let box = SharedBox(3.0)
        metrics.registerGauge("pool_in_use", help: "Connections in use.", labels: ["pool": "db"]) { box.value }
        #expect(metrics.renderPrometheus().contains("pool_in_use{pool=\"db\"} 3\n"))
        box.value = 4.5
        let text = metrics.renderPrometheus()
        #expect(text.contains("# TYPE pool_in_use gauge"))
        #expect(text.contains("pool_in_use{pool=\"db\"} 4.5\n"))
    }

    @Test func concurrentIncrementsLoseNothing() async {
        let metrics = Metrics()
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for _ in 0..<1000 {
                        metrics.increment("work_total", help: "Work.", labels: ["worker": "w\(worker % 2)"])
                    }
                }
            }
        }
        let total =
            (metrics.counterValue("work_total", labels: ["w0"]) ?? 0)
            + (metrics.counterValue("work_total", labels: ["w1"]) ?? 0)
        #expect(total == 8000)
    }
}
