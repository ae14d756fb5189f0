"""Documents in and out: the JSON contract (``contract``), diplo's game files (``gamefile``) and
MILA's saved games (``mila``). Imports the front door and below.
"""
