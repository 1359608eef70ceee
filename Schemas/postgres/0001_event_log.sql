-- ItemAudit's event log on PostgreSQL, schema version 1.
-- Applied by PostgresLog on open (tools/generate-postgres-migrations embeds this file).

-- The log's head: one row that every append locks (SELECT ... FOR UPDATE) before it assigns
-- positions, so appends commit one after another in position order and positions have no gaps.
CREATE TABLE itemaudit_log_head (
    id               smallint PRIMARY KEY CHECK (id = 1),
    last_position    bigint   NOT NULL CHECK (last_position >= 0),
    head_hash        bytea    NOT NULL CHECK (length(head_hash) = 32),
    last_recorded_at bigint   NOT NULL
);
INSERT INTO itemaudit_log_head VALUES (1, 0, decode(repeat('00', 32), 'hex'), 0);

-- One row per event. Times are microseconds since 1970-01-01 UTC, exactly as the file log keeps them.
CREATE TABLE itemaudit_events (
    position       bigint   PRIMARY KEY CHECK (position >= 1),
    stream_id      text     NOT NULL CHECK (stream_id <> ''),
    stream_version bigint   NOT NULL CHECK (stream_version >= 1),
    event_type     text     NOT NULL,
    schema_version integer  NOT NULL CHECK (schema_version BETWEEN 0 AND 65535),
    recorded_at    bigint   NOT NULL,
    occurred_at    bigint   NOT NULL,
    actor          text     NOT NULL,
    command_id     text     NOT NULL,
    -- The command's fingerprint, on the first event of each append (NULL on the others).
    fingerprint    bytea,
    payload        bytea    NOT NULL,
    -- head(n) = SHA-256(head(n-1) || position || version || recorded-at || SHA-256(content of n)), the
    -- record chain of docs/architecture.md: what verify recomputes.
    chain_hash     bytea    NOT NULL CHECK (length(chain_hash) = 32),
    CONSTRAINT itemaudit_events_stream_version UNIQUE (stream_id, stream_version)
);
-- As-of reads: the last position recorded at or before a time (recorded_at never decreases along positions).
CREATE INDEX itemaudit_events_recorded_at ON itemaudit_events (recorded_at, position);

-- One row per command id: the key that makes a resent command a duplicate instead of a second
-- append, even when two servers race with it.
CREATE TABLE itemaudit_commands (
    command_id     text   PRIMARY KEY,
    fingerprint    bytea,
    first_position bigint NOT NULL,
    last_position  bigint NOT NULL,
    stream_id      text   NOT NULL,
    stream_version bigint NOT NULL
);

-- The log is append-only: updates, deletes and truncation are refused. (An owner can still
-- disable the trigger; verify catches any change made that way through the hash chain.)
CREATE FUNCTION itemaudit_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the ItemAudit event log is append-only: % on % refused', TG_OP, TG_TABLE_NAME;
END;
$$;
CREATE TRIGGER itemaudit_events_append_only BEFORE UPDATE OR DELETE ON itemaudit_events
    FOR EACH ROW EXECUTE FUNCTION itemaudit_refuse_change();
CREATE TRIGGER itemaudit_events_no_truncate BEFORE TRUNCATE ON itemaudit_events
    FOR EACH STATEMENT EXECUTE FUNCTION itemaudit_refuse_change();
-- A command row only grows: `store copy` may split one command's events over two writes, and the
-- second extends the row's last position and stream version. Nothing else may change.
CREATE FUNCTION itemaudit_command_grows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND NEW.command_id = OLD.command_id AND NEW.first_position = OLD.first_position
        AND NEW.stream_id = OLD.stream_id AND NEW.fingerprint IS NOT DISTINCT FROM OLD.fingerprint
        AND NEW.last_position > OLD.last_position AND NEW.stream_version > OLD.stream_version THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'the ItemAudit command table is append-only: % on % refused', TG_OP, TG_TABLE_NAME;
END;
$$;
CREATE TRIGGER itemaudit_commands_append_only BEFORE UPDATE OR DELETE ON itemaudit_commands
    FOR EACH ROW EXECUTE FUNCTION itemaudit_command_grows();
CREATE TRIGGER itemaudit_commands_no_truncate BEFORE TRUNCATE ON itemaudit_commands
    FOR EACH STATEMENT EXECUTE FUNCTION itemaudit_refuse_change();

-- Photos: content-addressed blobs (the SHA-256 of the bytes, 64 hex digits, is the key).
CREATE TABLE itemaudit_blobs (
    sha256    text        PRIMARY KEY CHECK (sha256 ~ '^[0-9a-f]{64}$'),
    bytes     bytea       NOT NULL,
    stored_at timestamptz NOT NULL DEFAULT now()
);
