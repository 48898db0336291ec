-- The planning (dry-run) role on MariaDB: the least it needs, as measured by the conformance suite
-- (conformance-tests, facts F20 to F27 of SPEC.md, measured on MariaDB 10.11.19).
-- Placeholders: {role}, as 'user'@'host'; {db}, the database; {table}, each table the policy lets
-- the model write.

-- The dry run reads the rows before and after, and runs the statement for real (then rolls it back).
-- Triggers run with their definer's privileges and cascades need none, so nothing on other tables.
GRANT SELECT, UPDATE, DELETE ON {db}.{table} TO {role};

-- F21: MariaDB shows the REFERENTIAL_CONSTRAINTS row of a foreign key (its ON DELETE / ON UPDATE rule)
-- only to a role holding a database-level privilege other than SELECT; without one the inbound
-- cascade is invisible, and SELECT ON {db}.* does not help. REFERENCES reads no data and writes none.
-- Triggers (F20) are visible without any further grant on MariaDB 10.11.
GRANT REFERENCES ON {db}.* TO {role};

-- F22 to F25: reading INFORMATION_SCHEMA.INNODB_TRX, the D14 measure, needs PROCESS (error 1227
-- without it). PROCESS is global and also shows this role every session's current statement text
-- (SHOW PROCESSLIST): keep the planning credential out of reach of the model, as for every credential.
GRANT PROCESS ON *.* TO {role};
