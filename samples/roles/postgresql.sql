-- Least-privilege roles for llmsafe on PostgreSQL: one role for each of the four connections of
-- llmsafe.json, so that each separation is enforced by the database and not only by llmsafe.
--
-- Measured, not written from memory: on PostgreSQL 15.20 the conformance suite creates the planning
-- role from the "plan" section below for facts F20 to F24 (SPEC.md, "Measured facts"), and
-- RolesEndToEndTest runs this whole file, then migrate, check, plan, approve and apply as these roles,
-- and checks that each role is refused what it must not do.
--
-- Placeholders: replace every one before running (README.md in this directory shows how).
--   {schema}           the schema of the application's tables: "schema" in llmsafe.json
--   {store_schema}     a new schema for the plan store, created here and owned by {store_role}
--   {read_role}, {plan_role}, {apply_role}, {store_role}
--                      the four role names
--   {read_password}, {plan_password}, {apply_password}, {store_password}
--                      their passwords (inside single quotes: double any ' they contain)
--   {read_table}       a table of policy.allow, the written ones included. A statement naming it is
--                      run once per such table: copy it, one copy per table.
--   {written_table}    a table the model may propose writes to (it has a policy.impact sentence).
--                      One copy of the statement per table.
--   {trigger_table}    a table that a trigger on a written table writes into. One copy per table;
--                      leave the statement out when no trigger writes anywhere.
--
-- Run it as a role that may create roles and schemas (a superuser, or one with CREATEROLE that owns
-- the application's tables), connected to the application's database.
--
-- PostgreSQL answers a least-privilege role's catalog questions exactly as a superuser's when they
-- go to pg_catalog (F20, F21), so no grant here exists only to make the catalog visible.


-- role: read    (llmsafe.json "readConnection": the reads a model asks for)
-- SELECT on the allowlisted tables and nothing else. With no write privilege anywhere, a write that
-- got past every guard of llmsafe is still refused by the database; `llmsafe check` proves it with a
-- DELETE ... WHERE 1 = 0 in a rolled-back transaction (E7). Reads are the larger surface: they are
-- what an injected instruction reaches first, and exfiltration needs no write.
CREATE ROLE {read_role} LOGIN PASSWORD '{read_password}';
GRANT USAGE ON SCHEMA {schema} TO {read_role};
GRANT SELECT ON {schema}.{read_table} TO {read_role};


-- role: plan    (llmsafe.json "connection": the dry run)
-- The dry run writes for real and always rolls back, so it needs the write privileges of the
-- statements it measures; never those of the plan store.
CREATE ROLE {plan_role} LOGIN PASSWORD '{plan_password}';
GRANT USAGE ON SCHEMA {schema} TO {plan_role};

-- check and schema describe every allowlisted table through this connection, and a WHERE clause may
-- read another allowlisted table in a subquery (W1).
GRANT SELECT ON {schema}.{read_table} TO {plan_role};

-- The dry run reads the rows before and after, and runs the statement for real (then rolls it back).
GRANT UPDATE, DELETE ON {schema}.{written_table} TO {plan_role};

-- F22: a trigger function runs with the privileges of the role whose statement fired it (unless it is
-- SECURITY DEFINER), so without this the dry run of an UPDATE fails with 42501. Grant what the trigger
-- does: INSERT for an audit trigger. Measured with an identity column; a serial column's sequence
-- also needs USAGE (PostgreSQL's documentation; not measured here). Cascades need nothing: foreign
-- key actions run as the owner of the referencing table (F23, F24).
GRANT INSERT ON {schema}.{trigger_table} TO {plan_role};

-- Nothing else: pg_trigger and pg_constraint answer every role (F20, F21; information_schema does
-- not), and pg_stat_xact_user_tables, the side-effect measure of D14, needs no grant (F22 to F26).


-- role: apply    (llmsafe.json "applyConnection": commits approved plans)
-- Apply repeats what the dry run did, for real, and re-checks everything on the way (A2 to A6): it
-- re-reads the catalog, locks and re-reads the rows, runs the statement, fires the same triggers,
-- and measures side effects the same way. So it needs exactly the planning role's privileges, and it
-- must be a role of its own: the credential the model's tools reach is then not the one that commits.
CREATE ROLE {apply_role} LOGIN PASSWORD '{apply_password}';
GRANT USAGE ON SCHEMA {schema} TO {apply_role};
GRANT SELECT ON {schema}.{read_table} TO {apply_role};
GRANT UPDATE, DELETE ON {schema}.{written_table} TO {apply_role};
GRANT INSERT ON {schema}.{trigger_table} TO {apply_role};


-- role: store    (llmsafe.json "storeConnection": plans and the audit trail)
-- The store in a schema of its own, owned by this role: `llmsafe migrate` creates its tables there.
-- Point storeConnection at it with currentSchema={store_schema} in the URL. No other role gets USAGE
-- on it, so neither the planning nor the applying credential can read a plan or edit the record of
-- its approval. And this role gets nothing on {schema}: whatever can edit approvals must not be able
-- to write the rows they approve.
CREATE ROLE {store_role} LOGIN PASSWORD '{store_password}';
CREATE SCHEMA {store_schema} AUTHORIZATION {store_role};
