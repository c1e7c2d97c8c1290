"""The terminal game: ``freezeout play`` against bots.

:mod:`.session` is the game driver (tournament, deck, bots, record) with no
UI in it, so the same loop can be unit-tested and reused; :mod:`.render`
turns views and events into words and rich text; :mod:`.app` is the textual
front end; :mod:`.cli` registers the ``play`` subcommand.  Importing this
package imports neither textual nor the bots.
"""

from __future__ import annotations
