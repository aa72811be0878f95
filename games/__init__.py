"""The toolkit's own games, one package each, of the shape ``balance new-game`` writes for a
plugin game: rules, layout, kernel, log, spec, strategies, study, policies/, RULES.md and tests/.
They are found through the ``balance.games`` entry points, as a plugin is (sim/games.py)."""
