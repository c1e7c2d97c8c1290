"""The fold's fast copy of a table state is ``dataclasses.replace``, value for value."""

from __future__ import annotations

import dataclasses

import pytest

from freezeout.server.storage.store import LogEntry
from freezeout.server.table.state import _evolve, initial_state


def test_evolve_is_replace():
    state = initial_state(LogEntry("t1", 1, 5.0, "create", {"slots": [None, None], "ranked": False, "created_by": 7}))
    changes = {"version": 9, "last_at": 6.5, "turn_started": 6.0, "ended": True}
    copied, replaced = _evolve(state, **changes), dataclasses.replace(state, **changes)
    assert copied == replaced and copied is not state
    assert all(getattr(copied, f.name) is getattr(replaced, f.name) for f in dataclasses.fields(state))
    assert state.version == 1 and not state.ended  # the original is untouched
    with pytest.raises(TypeError, match="no field"):
        _evolve(state, versoin=2)
