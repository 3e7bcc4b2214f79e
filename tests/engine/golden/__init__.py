"""Golden playthroughs of both games: recorded complete games, replayed by `test_golden.py` on today's engine.

Each file under `board/` and `cards/` is one game (see `specs.py` for what produced it and `playthrough.py` for the
format). The test fails on the first step that comes out differently and prints it. When a rule changes on
purpose, regenerate the files of that game and commit them with the change, so that the diff shows exactly which
behaviour changed:

    PYTHONPATH=$PWD python3 -m tests.engine.golden --regenerate            # every game
    PYTHONPATH=$PWD python3 -m tests.engine.golden --regenerate board      # one game
    PYTHONPATH=$PWD python3 -m tests.engine.golden --check                 # replay all, as the test does
"""
