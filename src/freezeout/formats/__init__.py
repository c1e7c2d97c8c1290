"""Public file formats (formats.md): the ``freezeout.record/1`` tournament
record and PHH hand histories.  They depend on :mod:`freezeout.rules`,
never the other way round."""
