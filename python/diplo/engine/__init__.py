"""The Rust game engine behind Python: the map compilation (``compile``), the object API
(``objects``) and the code API (``codes``: ``CodeGame``, ``process_batch``). Imports only the model
and the compiled core.
"""
