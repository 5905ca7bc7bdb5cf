-- What schema 9 adds to schema 7's tables (schema_7.sql; schema 8 changed no table): the
-- documents close to a group that the rule against chaining keeps out of it
-- (store/schema.py CloseDocumentRow), as the first release of schema 9 wrote them.

-- table close_documents
CREATE TABLE close_documents (
	doc_id INTEGER NOT NULL, 
	group_id INTEGER NOT NULL, 
	member_id INTEGER NOT NULL, 
	similarity FLOAT NOT NULL, 
	PRIMARY KEY (doc_id), 
	FOREIGN KEY(doc_id) REFERENCES documents (id) ON DELETE CASCADE, 
	FOREIGN KEY(group_id) REFERENCES groups (id) ON DELETE CASCADE, 
	FOREIGN KEY(member_id) REFERENCES documents (id) ON DELETE CASCADE
);

-- index ix_close_documents_member_id on close_documents
CREATE INDEX ix_close_documents_member_id ON close_documents (member_id);

-- index ix_close_documents_group_id on close_documents
CREATE INDEX ix_close_documents_group_id ON close_documents (group_id);
