"""``bhabhi analyze``: what a variant is like before anyone plays it (docs/analysis.md).

``record`` plays the hands (through ``referee.sim.runner``) and keeps a small record of
each; ``figures`` turns the records of one player count into the figures; ``warnings`` says
in words which figures cross a line and names the clauses likely responsible; ``report``
runs it all and writes the terminal summary; ``compare`` sets two rulesets side by side
(``--against``); ``html`` writes the page of ``--html`` with the plots of ``plots``
(matplotlib, loaded only there); ``commands`` is the command line; ``validation`` gives
``bhabhi rules validate --analyze`` its warnings.
"""
