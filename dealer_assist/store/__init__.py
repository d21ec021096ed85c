"""The hand log: SQLite (WAL) records of every event, hash-chained, with queries and exports."""
