-- The schema of an index file (SQLite) at schema version 7, as the release before the
-- store moved from ORM models to Core tables (5597a0c) created it: sqlite_master, tables
-- first, each entry in the order it was created.

-- table documents on documents
CREATE TABLE documents (
	id INTEGER NOT NULL, 
	path TEXT NOT NULL, 
	size INTEGER NOT NULL, 
	mtime_ns INTEGER NOT NULL, 
	content_hash VARCHAR(32), 
	text_hash VARCHAR(32), 
	simhash INTEGER, 
	b0 INTEGER, 
	b1 INTEGER, 
	b2 INTEGER, 
	b3 INTEGER, 
	sketch BLOB, 
	shingles INTEGER, 
	token_count INTEGER NOT NULL, 
	text_chars INTEGER NOT NULL, 
	format VARCHAR(16) NOT NULL, 
	status VARCHAR(16) NOT NULL, 
	error TEXT, 
	fp_version INTEGER NOT NULL, 
	last_seen_scan INTEGER, 
	PRIMARY KEY (id), 
	UNIQUE (path)
);

-- table folders on folders
CREATE TABLE folders (
	id INTEGER NOT NULL, 
	path TEXT NOT NULL, 
	is_reference BOOLEAN NOT NULL, 
	PRIMARY KEY (id), 
	UNIQUE (path)
);

-- table settings on settings
CREATE TABLE settings (
	"key" VARCHAR(64) NOT NULL, 
	value TEXT NOT NULL, 
	PRIMARY KEY ("key")
);

-- table scan_runs on scan_runs
CREATE TABLE scan_runs (
	id INTEGER NOT NULL, 
	started_at DATETIME NOT NULL, 
	finished_at DATETIME, 
	status VARCHAR(16) NOT NULL, 
	roots TEXT NOT NULL, 
	files_seen INTEGER NOT NULL, 
	files_fingerprinted INTEGER NOT NULL, 
	files_reused INTEGER NOT NULL, 
	files_removed INTEGER NOT NULL, 
	problems INTEGER NOT NULL, 
	machine VARCHAR(255) NOT NULL, 
	PRIMARY KEY (id)
);

-- table ignored_pairs on ignored_pairs
CREATE TABLE ignored_pairs (
	hash_a VARCHAR(32) NOT NULL, 
	hash_b VARCHAR(32) NOT NULL, 
	path_a TEXT NOT NULL, 
	path_b TEXT NOT NULL, 
	created_at DATETIME NOT NULL, 
	PRIMARY KEY (hash_a, hash_b)
);

-- table journal on journal
CREATE TABLE journal (
	id INTEGER NOT NULL, 
	time DATETIME NOT NULL, 
	action VARCHAR(16) NOT NULL, 
	path TEXT NOT NULL, 
	destination TEXT NOT NULL, 
	content_hash VARCHAR(32) NOT NULL, 
	size INTEGER NOT NULL, 
	ok BOOLEAN NOT NULL, 
	reason TEXT NOT NULL, 
	machine VARCHAR(255) NOT NULL, 
	PRIMARY KEY (id)
);

-- table sketch_keys on sketch_keys
CREATE TABLE sketch_keys (
	"key" INTEGER NOT NULL, 
	doc_id INTEGER NOT NULL, 
	PRIMARY KEY ("key", doc_id), 
	FOREIGN KEY(doc_id) REFERENCES documents (id) ON DELETE CASCADE
);

-- table short_lines on short_lines
CREATE TABLE short_lines (
	line_id INTEGER NOT NULL, 
	doc_id INTEGER NOT NULL, 
	PRIMARY KEY (line_id, doc_id), 
	FOREIGN KEY(doc_id) REFERENCES documents (id) ON DELETE CASCADE
);

-- table marks on marks
CREATE TABLE marks (
	user_name VARCHAR(255) NOT NULL, 
	doc_id INTEGER NOT NULL, 
	PRIMARY KEY (user_name, doc_id), 
	FOREIGN KEY(doc_id) REFERENCES documents (id) ON DELETE CASCADE
);

-- table scan_problems on scan_problems
CREATE TABLE scan_problems (
	id INTEGER NOT NULL, 
	scan_id INTEGER NOT NULL, 
	path TEXT NOT NULL, 
	reason TEXT NOT NULL, 
	PRIMARY KEY (id), 
	FOREIGN KEY(scan_id) REFERENCES scan_runs (id) ON DELETE CASCADE
);

-- table groups on groups
CREATE TABLE groups (
	id INTEGER NOT NULL, 
	kind VARCHAR(16) NOT NULL, 
	reference_doc_id INTEGER NOT NULL, 
	reference_path TEXT NOT NULL, 
	member_count INTEGER NOT NULL, 
	reclaimable_size INTEGER NOT NULL, 
	total_size INTEGER NOT NULL, 
	max_distance INTEGER NOT NULL, 
	min_similarity FLOAT NOT NULL, 
	PRIMARY KEY (id), 
	FOREIGN KEY(reference_doc_id) REFERENCES documents (id) ON DELETE CASCADE
);

-- table group_members on group_members
CREATE TABLE group_members (
	doc_id INTEGER NOT NULL, 
	group_id INTEGER NOT NULL, 
	position INTEGER NOT NULL, 
	is_reference BOOLEAN NOT NULL, 
	distance INTEGER NOT NULL, 
	similarity FLOAT NOT NULL, 
	PRIMARY KEY (doc_id), 
	FOREIGN KEY(doc_id) REFERENCES documents (id) ON DELETE CASCADE, 
	FOREIGN KEY(group_id) REFERENCES groups (id) ON DELETE CASCADE
);

-- index ix_documents_size on documents
CREATE INDEX ix_documents_size ON documents (size);

-- index ix_documents_status on documents
CREATE INDEX ix_documents_status ON documents (status);

-- index ix_documents_b2 on documents
CREATE INDEX ix_documents_b2 ON documents (b2);

-- index ix_documents_b3 on documents
CREATE INDEX ix_documents_b3 ON documents (b3);

-- index ix_documents_text_hash on documents
CREATE INDEX ix_documents_text_hash ON documents (text_hash);

-- index ix_documents_b1 on documents
CREATE INDEX ix_documents_b1 ON documents (b1);

-- index ix_documents_shingles on documents
CREATE INDEX ix_documents_shingles ON documents (shingles);

-- index ix_documents_b0 on documents
CREATE INDEX ix_documents_b0 ON documents (b0);

-- index ix_documents_content_hash on documents
CREATE INDEX ix_documents_content_hash ON documents (content_hash);

-- index ix_sketch_keys_doc_id on sketch_keys
CREATE INDEX ix_sketch_keys_doc_id ON sketch_keys (doc_id);

-- index ix_short_lines_doc_id on short_lines
CREATE INDEX ix_short_lines_doc_id ON short_lines (doc_id);

-- index ix_marks_doc_id on marks
CREATE INDEX ix_marks_doc_id ON marks (doc_id);

-- index ix_scan_problems_scan_id on scan_problems
CREATE INDEX ix_scan_problems_scan_id ON scan_problems (scan_id);

-- index ix_groups_refpath on groups
CREATE INDEX ix_groups_refpath ON groups (reference_path);

-- index ix_groups_reclaimable on groups
CREATE INDEX ix_groups_reclaimable ON groups (reclaimable_size);

-- index ix_groups_members on groups
CREATE INDEX ix_groups_members ON groups (member_count);

-- index ix_group_members_group_id on group_members
CREATE INDEX ix_group_members_group_id ON group_members (group_id);
