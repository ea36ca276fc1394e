"""The engine: seeding, batching, parallel runs, results, scenarios. Game-agnostic."""
