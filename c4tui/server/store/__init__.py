"""The store: one interface over SQLite (WAL, the default) and PostgreSQL.

store.py, sqlite_store.py, postgres_store.py  the interface and its two databases
opening.py    the store, opened and migrated
writer.py     the writers: threads with connections of their own, off the event loop
migrate.py    numbered migrations (migrations/*.sql), each applied once, whole
*_records.py  one module per table group: players, people, games, rooms, clocks,
              ratings, seeks, challenges, tournaments, watchers, bots
chosen_names.py, bells.py, profiles.py, room_versions.py  what the service reads and
              keeps for names, bells, profiles and the lobby
"""
