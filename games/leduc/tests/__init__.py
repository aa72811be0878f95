"""leduc's tests: a package, as a scaffolded game's (their helpers are imported relatively)."""
