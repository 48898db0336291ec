-- The planning (dry-run) role on MySQL 8.4. NOT measured on this project's CI (no MySQL there): these
-- are the grants the seed measured on MySQL 8.4.11, plus PROCESS, which MySQL documents for INNODB_TRX.
-- The conformance suite checks them (facts F20 to F25) wherever Docker runs a mysql:8.4 container.
-- Placeholders: {role}, as 'user'@'host'; {db}, the database; {table}, each table the policy lets
-- the model write.

GRANT SELECT, UPDATE, DELETE ON {db}.{table} TO {role};

-- MySQL filters INFORMATION_SCHEMA by privilege: a child table's foreign key rows are shown only to a
-- role with some privilege on the child, and triggers only to a role with TRIGGER on the table.
GRANT SELECT ON {db}.* TO {role};
GRANT TRIGGER ON {db}.* TO {role};

-- Reading INFORMATION_SCHEMA.INNODB_TRX, the D14 measure, needs PROCESS.
GRANT PROCESS ON *.* TO {role};
