import type { PGlite } from "@electric-sql/pglite";

/**
 * Named prepared statements for the embedded store's repeated reads. PGlite runs every query as an
 * unnamed statement, so PostgreSQL parses and plans it anew each time: for the reading page's one
 * query that is ~1 ms of a ~1.5 ms read. A SELECT seen for the second time is prepared once
 * (`PREPARE s1 AS …`, with the parameter types PostgreSQL infers) and from then on run as
 * `EXECUTE s1('…', '…')`, which reuses the plan. (On a PostgreSQL server drizzle's `.prepare(name)`
 * already makes named statements per connection.)
 *
 * EXECUTE takes no bind parameters, so the values go in as quoted literals: every value is written
 * as its text form between single quotes with quotes doubled, which PostgreSQL coerces to the
 * statement's parameter type. That is only safe while `standard_conforming_strings` is on (a
 * backslash is then an ordinary character); `preparedStatements` checks it once and stays off
 * otherwise. Values that have no plain text form (bytes) take the ordinary path, as do statements
 * PostgreSQL will not prepare, reads that lock rows, and anything inside a transaction (drizzle
 * runs those on PGlite's transaction object, not on this one).
 */
export function preparedStatements(client: PGlite, options: { limit?: number } = {}): PGlite {
  const limit = options.limit ?? 500;
  const seen = new Set<string>();
  const statements = new Map<string, Promise<string | null>>();
  let enabled: Promise<boolean> | undefined;
  const query = client.query.bind(client) as PGlite["query"];

  function preparable(text: string): boolean {
    return /^\s*select\s/i.test(text) && !/\sfor\s+(update|share|no\s+key\s+update|key\s+share)\b/i.test(text);
  }

  function statementFor(text: string): Promise<string | null> {
    let statement = statements.get(text);
    if (!statement) {
      const name = `circles_s${statements.size + 1}`;
      statement = client.exec(`prepare ${name} as ${text}`).then(
        () => name,
        () => null, // PostgreSQL will not prepare it (an untyped parameter, say): the ordinary path.
      );
      statements.set(text, statement);
    }
    return statement;
  }

  const prepared = (async (text: string, params?: unknown[], queryOptions?: Parameters<PGlite["query"]>[2]) => {
    const values = params ?? [];
    if (!preparable(text) || statements.size >= limit) return query(text, values, queryOptions);
    if (!statements.has(text)) {
      // Prepared from the second time on: a read seen once may never come back.
      if (!seen.has(text)) {
        seen.add(text);
        if (seen.size > limit * 4) seen.clear();
        return query(text, values, queryOptions);
      }
    }
    enabled ??= query<{ standard_conforming_strings: string }>("show standard_conforming_strings").then(
      (result) => result.rows[0]?.standard_conforming_strings === "on",
      () => false,
    );
    const literals = values.map(literal);
    if (!(await enabled) || literals.some((value) => value === undefined)) return query(text, values, queryOptions);
    const name = await statementFor(text);
    if (!name) return query(text, values, queryOptions);
    return query(literals.length > 0 ? `execute ${name}(${literals.join(", ")})` : `execute ${name}`, [], queryOptions);
  }) as PGlite["query"];

  return new Proxy(client, {
    get(target, property) {
      if (property === "query") return prepared;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

const quote = (text: string): string => `'${text.replaceAll("'", "''")}'`;

/** A value as a quoted SQL literal, or undefined when it has no plain text form. */
export function literal(value: unknown): string | undefined {
  if (value === null || value === undefined) return "null";
  const text = textOf(value);
  return text === undefined ? undefined : quote(text);
}

/** The text form PostgreSQL reads for a parameter (what PGlite's serializers send). */
function textOf(value: unknown): string | undefined {
  switch (typeof value) {
    case "string":
      return value;
    case "number":
    case "bigint":
      return String(value);
    case "boolean":
      return value ? "t" : "f";
    case "object":
      if (value instanceof Date) return value.toISOString();
      if (Array.isArray(value)) return arrayText(value);
      if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return undefined;
      return JSON.stringify(value);
    default:
      return undefined;
  }
}

/** A PostgreSQL array literal: `{"a","b",NULL}`, nested for nested arrays. */
function arrayText(values: unknown[]): string | undefined {
  const items: string[] = [];
  for (const item of values) {
    if (item === null || item === undefined) {
      items.push("NULL");
      continue;
    }
    const text = Array.isArray(item) ? arrayText(item) : textOf(item);
    if (text === undefined) return undefined;
    items.push(Array.isArray(item) ? text : `"${text.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`);
  }
  return `{${items.join(",")}}`;
}
