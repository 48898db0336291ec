-- Least-privilege accounts for llmsafe on MySQL 8: one account for each of the four connections of
-- llmsafe.json, so that each separation is enforced by the database and not only by llmsafe.
--
-- NOT MEASURED on this project's CI, which has no MySQL server. The planning grants are the ones the
-- seed measured on MySQL 8.4.11. The conformance suite checks the "plan" section (facts F20 to F25) wherever Docker runs a mysql:8.4 container, and
-- the harness checks it on your server: run it before you rely on this file.
--
-- Placeholders: replace every one before running (README.md in this directory shows how).
--   {database}         the application's database (the one in the JDBC URLs)
--   {store_database}   a new database for the plan store, created here
--   {read_role}, {plan_role}, {apply_role}, {store_role}
--                      the four accounts, each written 'name'@'host', for example 'llm_plan'@'%'
--   {read_password}, {plan_password}, {apply_password}, {store_password}
--                      their passwords (inside single quotes: double any ' they contain)
--   {read_table}       a table of policy.allow, the written ones included. A statement naming it is
--                      run once per such table: copy it, one copy per table.
--   {written_table}    a table the model may propose writes to (it has a policy.impact sentence).
--                      One copy of the statement per table.
--
-- Run it as an account that may create databases and users and holds what it grants WITH GRANT
-- OPTION.


-- role: read    (llmsafe.json "readConnection": the reads a model asks for)
-- SELECT on the allowlisted tables and nothing else: the database refuses every write (E7).
-- SHOW VIEW: every read is EXPLAINed first (R9's plan check, and policy.read.maxCost), and EXPLAIN of a
-- read through a view needs it, on the view and on each view it reads, and SELECT on the view's tables
-- (error 1345 without them; measured on MySQL 8.0.31 and 9.7.4); on a base table it grants nothing more.
-- A view read must be defined SQL SECURITY INVOKER: MySQL withholds the optimizer trace, which R9 reads,
-- of a read through a SQL SECURITY DEFINER view whose definer is another account (the read is then
-- NOT_GRANTED): `ALTER SQL SECURITY INVOKER VIEW name AS` followed by its own definition.
CREATE USER {read_role} IDENTIFIED BY '{read_password}';
GRANT SELECT, SHOW VIEW ON {database}.{read_table} TO {read_role};


-- role: plan    (llmsafe.json "connection": the dry run)
CREATE USER {plan_role} IDENTIFIED BY '{plan_password}';

-- The dry run reads the rows before and after, and runs the statement for real (then rolls it back).
GRANT UPDATE, DELETE ON {database}.{written_table} TO {plan_role};

-- MySQL filters INFORMATION_SCHEMA by privilege, and answers "none" for what it hides: a child table's
-- foreign key rows are shown only to an account with some privilege on the child, and triggers only
-- to an account with TRIGGER on the table (the seed, MySQL 8.4.11). SELECT on the whole database is
-- the trade: the planning account can read every table, or nobody can tell what a write reaches. It
-- also covers every allowlisted table that check, schema and subqueries read.
GRANT SELECT ON {database}.* TO {plan_role};
GRANT TRIGGER ON {database}.* TO {plan_role};

-- The side-effect measure of D14 is the session's own status counters (SHOW SESSION STATUS), which
-- need no privilege.


-- role: apply    (llmsafe.json "applyConnection": commits approved plans)
-- Apply re-reads the catalog, locks and re-reads the rows, runs the statement and measures side
-- effects as the dry run does: the planning account's privileges, in an account of its own.
CREATE USER {apply_role} IDENTIFIED BY '{apply_password}';
GRANT UPDATE, DELETE ON {database}.{written_table} TO {apply_role};
GRANT SELECT ON {database}.* TO {apply_role};
GRANT TRIGGER ON {database}.* TO {apply_role};


-- role: store    (llmsafe.json "storeConnection": plans and the audit trail)
-- The store in a database of its own, and nothing on {database}: see mariadb.sql.
CREATE DATABASE {store_database} CHARACTER SET utf8mb4;
CREATE USER {store_role} IDENTIFIED BY '{store_password}';
GRANT SELECT, INSERT, UPDATE, CREATE, INDEX ON {store_database}.* TO {store_role};
