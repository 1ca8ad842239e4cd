"""Stage 3, the judge: answers compared with the references, scored, and adjusted.

:mod:`.grade` grades one notebook (the sandbox's answers scored by :mod:`.verdict`, the
judge the check cells share), :mod:`.records` turns a grade into the record every later
step reads; :mod:`.roster`, :mod:`.adjustments` and :mod:`.late` read the instructor's
files and change grades after grading; :mod:`.similarity` lists functions that are the
same across students (never used in a score).
"""
