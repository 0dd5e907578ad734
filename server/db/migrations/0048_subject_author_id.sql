-- Who a subject's figures belong to (its author; a user is their own), generated from the subject registrations
-- (`authorSql`, features/subjects/author-sql.ts). Kinds without an author answer null.
CREATE OR REPLACE FUNCTION subject_author_id(p_type text, p_id integer) RETURNS integer LANGUAGE sql STABLE AS $$
  SELECT CASE p_type
    WHEN 'user' THEN (p_id)
    WHEN 'writing' THEN (SELECT author_id FROM writings WHERE id = p_id)
    WHEN 'book' THEN (SELECT author_id FROM books WHERE id = p_id)
    WHEN 'chapter' THEN (SELECT b.author_id FROM book_chapters c JOIN books b ON b.id = c.book_id WHERE c.id = p_id)
    WHEN 'entry' THEN (SELECT creator_id FROM encyclopedia_entries WHERE id = p_id)
    WHEN 'comment' THEN (SELECT author_id FROM comments WHERE id = p_id)
    WHEN 'question' THEN (SELECT author_id FROM questions WHERE id = p_id)
    WHEN 'answer' THEN (SELECT author_id FROM answers WHERE id = p_id)
  END
$$;
