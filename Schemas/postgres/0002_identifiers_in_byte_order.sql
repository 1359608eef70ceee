-- ItemAudit's event log on PostgreSQL, schema version 2: identifiers compare byte by byte.
--
-- Stream ids, command ids and photo hashes are identifiers, never sorted for people, but as
-- plain text they compared under the database's collation: every probe of the stream and
-- command indexes called the locale's strcoll (in a benchmark's appends, about a sixth of the
-- database's CPU). COLLATE "C" compares bytes. Only equality is ever asked of these columns, so
-- no answer changes; the indexes on them are rebuilt once, here.
ALTER TABLE itemaudit_events ALTER COLUMN stream_id TYPE text COLLATE "C";
ALTER TABLE itemaudit_commands
    ALTER COLUMN command_id TYPE text COLLATE "C",
    ALTER COLUMN stream_id TYPE text COLLATE "C";
ALTER TABLE itemaudit_blobs ALTER COLUMN sha256 TYPE text COLLATE "C";
