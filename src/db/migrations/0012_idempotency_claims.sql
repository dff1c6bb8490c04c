-- An idempotency key is claimed in the transaction of the first command its call commits (completed = 0),
-- and completed with the call's result right after. A claim left incomplete means the work was committed but
-- the server stopped before the result was recorded: a retry is told so instead of doing the work again.
ALTER TABLE idempotency_keys ADD COLUMN completed INTEGER NOT NULL DEFAULT 1;
