-- What schema 10 changes in schema 9's tables (schema_7.sql, schema_9.sql): each of the four
-- block indexes holds the simhash beside its block, so a lookup reads the index alone (on
-- SQLite; PostgreSQL's block indexes have included it since schema 5), as the first release
-- of schema 10 wrote them.

DROP INDEX ix_documents_b0;
DROP INDEX ix_documents_b1;
DROP INDEX ix_documents_b2;
DROP INDEX ix_documents_b3;

-- index ix_documents_b0 on documents
CREATE INDEX ix_documents_b0 ON documents (b0, simhash);

-- index ix_documents_b1 on documents
CREATE INDEX ix_documents_b1 ON documents (b1, simhash);

-- index ix_documents_b2 on documents
CREATE INDEX ix_documents_b2 ON documents (b2, simhash);

-- index ix_documents_b3 on documents
CREATE INDEX ix_documents_b3 ON documents (b3, simhash);
