-- Least-privilege accounts for llmsafe on MariaDB: one account for each of the four connections of
-- llmsafe.json, so that each separation is enforced by the database and not only by llmsafe.
--
-- Measured, not written from memory: on MariaDB 10.11.19 the conformance suite creates the planning
-- account from the "plan" section below for facts F20 to F24 (SPEC.md, "Measured facts"), and
-- RolesEndToEndTest runs this whole file, then migrate, check, plan, approve and apply as these
-- accounts, and checks that each account is refused what it must not do.
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
-- OPTION, for example root through the unix socket:
--   mariadb --protocol=socket -u root < roles.sql
--
-- MariaDB filters information_schema by privilege and answers "none" for what it hides: a zero, not
-- an error. Two grants below exist only so that "no cascade" and "no side effect" mean what they say.


-- role: read    (llmsafe.json "readConnection": the reads a model asks for)
-- SELECT on the allowlisted tables and nothing else. With no write privilege anywhere, a write that
-- got past every guard of llmsafe is still refused by the database; `llmsafe check` proves it with a
-- DELETE ... WHERE 1 = 0 in a rolled-back transaction (E7). Reads are the larger surface: they are
-- what an injected instruction reaches first, and exfiltration needs no write.
-- SHOW VIEW: every read is EXPLAINed first (R9's plan check, and the cost gate when policy.read.maxCost
-- is set), and EXPLAIN of a read through a view needs SHOW VIEW on the view and SELECT on the tables the
-- view reads (error 1345 otherwise, refused as NOT_GRANTED; measured on MariaDB 10.11.19). Allowlist
-- those tables too, or allowlist the view only if the role may read them; on a base table SHOW VIEW
-- grants nothing more.
CREATE USER {read_role} IDENTIFIED BY '{read_password}';
GRANT SELECT, SHOW VIEW ON {database}.{read_table} TO {read_role};


-- role: plan    (llmsafe.json "connection": the dry run)
-- The dry run writes for real and always rolls back, so it needs the write privileges of the
-- statements it measures; never those of the plan store.
CREATE USER {plan_role} IDENTIFIED BY '{plan_password}';

-- check and schema describe every allowlisted table through this connection (information_schema
-- lists only the tables an account has a privilege on), and a WHERE clause may read another
-- allowlisted table in a subquery (W1).
GRANT SELECT ON {database}.{read_table} TO {plan_role};

-- The dry run reads the rows before and after, and runs the statement for real (then rolls it back).
-- Triggers run with their definer's privileges and cascades need none, so nothing on other tables.
GRANT UPDATE, DELETE ON {database}.{written_table} TO {plan_role};

-- F21: MariaDB shows the REFERENTIAL_CONSTRAINTS row of a foreign key (its ON DELETE / ON UPDATE rule)
-- only to an account holding a database-level privilege other than SELECT; without one the inbound
-- cascade is invisible, and SELECT ON {database}.* does not help (it shows that a foreign key exists,
-- not its rule). REFERENCES reads no data and writes none.
GRANT REFERENCES ON {database}.* TO {plan_role};

-- F20: MariaDB 11.4.5 lists a table's triggers only to an account with TRIGGER on it (10.11.19 and 11.8.9
-- to any account that may write it): without it the catalog answers "no trigger" for one that sets
-- columns, so llmsafe believes "no trigger" only from an account holding TRIGGER, on every version. On
-- the written tables only; an account that holds it could create a trigger there, which llmsafe never
-- asks it to do (DDL is refused in every statement it runs for a model).
GRANT TRIGGER ON {database}.{written_table} TO {plan_role};

-- F22, F39 to F42: the side-effect measure of D14 is the session's own status counters (SHOW SESSION
-- STATUS), which need no privilege: no PROCESS, which would show this account every session's
-- statement text.


-- role: apply    (llmsafe.json "applyConnection": commits approved plans)
-- Apply repeats what the dry run did, for real, and re-checks everything on the way (A2 to A6): it
-- re-reads the catalog (REFERENCES, as above), locks and re-reads the rows, runs the statement, and
-- measures side effects the same way. So it needs exactly the planning account's
-- privileges, and it must be an account of its own: the credential the model's tools reach is then
-- not the one that commits.
CREATE USER {apply_role} IDENTIFIED BY '{apply_password}';
GRANT SELECT ON {database}.{read_table} TO {apply_role};
GRANT UPDATE, DELETE ON {database}.{written_table} TO {apply_role};
GRANT REFERENCES ON {database}.* TO {apply_role};
GRANT TRIGGER ON {database}.{written_table} TO {apply_role};


-- role: store    (llmsafe.json "storeConnection": plans and the audit trail)
-- The store in a database of its own: storeConnection's URL names {store_database}. Only this account
-- has privileges there, so neither the planning nor the applying credential can read a plan or edit
-- the record of its approval. And it gets nothing on {database}: whatever can edit approvals must not
-- be able to write the rows they approve. `llmsafe migrate` needs CREATE and INDEX; plans and the
-- audit trail are inserted and updated, never deleted.
CREATE DATABASE {store_database} CHARACTER SET utf8mb4;
CREATE USER {store_role} IDENTIFIED BY '{store_password}';
GRANT SELECT, INSERT, UPDATE, CREATE, INDEX ON {store_database}.* TO {store_role};
