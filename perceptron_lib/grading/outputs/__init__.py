"""Stage 4, outputs: what a run writes for the instructor and the students.

:mod:`.gradebook` (``grades.csv``, ``results.json``, feedback files), :mod:`.report`
(the class report), :mod:`.exports` (the platforms' import files), each written whole
or not at all through :mod:`.outdir`.
"""
