"""The games. Each package has the same shape: cards/data, options, rules (state), text rendering."""
