"""The front door: the one choice of backend (``backends``), ``process_phase``, legal orders,
``Game`` and the random player. Imports the model and both implementations.
"""
