-- The planning (dry-run) role on PostgreSQL: the least it needs, as measured by the conformance suite
-- (conformance-tests, facts F20 to F27 of SPEC.md, measured on PostgreSQL 15.20).
-- Placeholders: {role}; {db}, the schema; {table}, each table the policy lets the model write;
-- {trigger_table}, each table a trigger on those tables writes into.

GRANT USAGE ON SCHEMA {db} TO {role};

-- The dry run reads the rows before and after, and runs the statement for real (then rolls it back).
GRANT SELECT, UPDATE, DELETE ON {db}.{table} TO {role};

-- F22: a trigger function runs with the privileges of the role whose statement fired it (unless it is
-- SECURITY DEFINER), so without this the dry run of an UPDATE fails with 42501. Cascades need nothing:
-- foreign key actions run as the owner of the referencing table (F23, F24).
GRANT INSERT ON {db}.{trigger_table} TO {role};

-- Nothing else: pg_trigger and pg_constraint answer every role (F20, F21; information_schema does not),
-- and pg_stat_xact_user_tables needs no grant (F22 to F26).
