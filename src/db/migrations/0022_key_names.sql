-- A name per API key (issue #27): what the client calls it ("checkout server", "staging"), shown in the
-- console's key list beside the key's last 4 characters. Optional: keys made before it have none.
ALTER TABLE api_keys ADD COLUMN name text CHECK (char_length(name) BETWEEN 1 AND 100);
