/// Calls a mutating method inside `#expect`, which only accepts immutable receivers.
func mutate<Value, Result>(_ value: inout Value, _ body: (inout Value) -> Result) -> Result {
    body(&value)
}
