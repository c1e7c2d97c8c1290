"""The cluster (docs/scaling.md): gateways hold connections, workers own tables.

``bus`` names the three interfaces they talk through and ``redisbus``
implements them on Redis, every message ``sealing``-sealed; ``routing``
types what is said; ``ownership`` leases tables with a fencing epoch;
``workertable`` is a table driven by a worker.  ``local`` and
``localservers`` run a whole cluster on one machine.
"""
