"""Entity and fact resolution: pure functions that decide what the graph should hold."""
