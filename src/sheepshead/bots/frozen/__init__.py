"""Earlier versions of the bots' play, each a copy of ``sheepshead.bots`` as it was.

A daily game is played to its day's end against the version it started with, so when
a change of play is deployed during a day, the version before it must still run. Each
``v<N>`` here is written by ``tools/freeze_bots.py`` and is never edited afterwards:
its decisions are pinned by ``tests/test_bot_version.py``, like the live version's.
"""
