import { registeredKinds } from "./registry.ts";

/**
 * The SQL function `subject_author_id(type, id)` (the rollups' triggers and the analytics ask it
 * whose figures a subject's are), generated from the registrations: each kind with an author
 * declares `authorSql`, a scalar query of its author's id for the id it is given. A new kind's
 * migration re-creates the function with `subjectAuthorFunctionSql()`'s text;
 * `features/subjects/registry.test.ts` fails, printing that text, until the database's function
 * is the registry's.
 */
export const subjectAuthorParameter = "p_id";

/** The function's body, one `WHEN` per kind that declares `authorSql`, in registration order (kinds without one answer null). */
export function subjectAuthorFunctionBody(): string {
  const cases = registeredKinds()
    .filter((kind) => kind.authorSql)
    .map((kind) => `    WHEN '${kind.type}' THEN (${kind.authorSql!(subjectAuthorParameter)})\n`);
  return `\n  SELECT CASE p_type\n${cases.join("")}  END\n`;
}

/** The statement a migration runs to install the registry's function. */
export function subjectAuthorFunctionSql(): string {
  return (
    "-- Who a subject's figures belong to (its author; a user is their own), generated from the subject registrations\n" +
    "-- (`authorSql`, features/subjects/author-sql.ts). Kinds without an author answer null.\n" +
    `CREATE OR REPLACE FUNCTION subject_author_id(p_type text, p_id integer) RETURNS integer LANGUAGE sql STABLE AS $$${subjectAuthorFunctionBody()}$$;`
  );
}
