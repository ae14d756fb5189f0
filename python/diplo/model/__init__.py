"""The model: what every layer speaks of (maps, orders, positions and their invariant, rules,
the result types, limits, wording, variants). Imports nothing of diplo's above it.
"""
