"""The command line and the tools on top (``cli`` and one module per subcommand, ``bench``,
``conformance``, ``external``). Imports anything below.
"""
