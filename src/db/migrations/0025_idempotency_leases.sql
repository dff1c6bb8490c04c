-- An incomplete claim names the instance running its call and how long that instance holds it (renewed while
-- the call runs): a duplicate on any instance waits while the lease holds, and only a claim whose lease ran
-- out is reported as left behind by a stopped server.
ALTER TABLE idempotency_keys ADD COLUMN owner TEXT;
ALTER TABLE idempotency_keys ADD COLUMN lease_until TEXT;
