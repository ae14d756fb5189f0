"""The reference: every rule in readable Python (validation, the movement resolver, retreats,
adjustments, legal orders, the phases). The specification the engine is held to; imports only
the model.
"""
