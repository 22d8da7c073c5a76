"""Earlier rules versions of evil_corp, frozen: ``v<N>/`` is version N (docs/versioning.md).

Never edit them: stored matches, replays and record files of that version run on them.
"""
