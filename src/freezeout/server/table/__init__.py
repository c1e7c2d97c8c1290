"""The table and its game: one actor per table orders every change (design principle 6).

``actor.TableActor`` owns one table; the small classes beside it each do one
of its jobs (``intents``, ``writer``, ``fanout``, ``presence``, ``bots``,
``timers``, ``steps``).  ``state`` folds the log into a table, ``game`` is
the boundary a table's game sits behind (``freezeout`` is the first), and
``entries`` types every log entry.  ``fairness``, ``records`` and
``replaysteps`` read a table's log for players: commit–reveal, game records
and the replayer.  ``room`` holds every table of this process.
"""
