import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PGlite } from "@electric-sql/pglite";
import { literal, preparedStatements } from "./embedded-statements.ts";

describe("embedded prepared statements", () => {
  let raw: PGlite;
  let client: PGlite;
  beforeAll(async () => {
    raw = await PGlite.create();
    client = preparedStatements(raw, { limit: 20 });
    await raw.exec(`
      create table notes (id serial primary key, title text not null, tags text[] not null default '{}', data jsonb, at timestamptz, flag boolean);
      insert into notes (title, tags, data, at, flag) values
        ('plain', '{a,b}', '{"k": 1}', '2026-01-02T03:04:05Z', true),
        ('it''s "quoted" \\ back', '{"x,y","q\\"z"}', null, null, false);
    `);
  });
  afterAll(() => raw.close());

  const prepared = async () =>
    (await raw.query<{ name: string }>("select name from pg_prepared_statements order by name")).rows.map((row) => row.name);
  const select = "select id, title, tags, data, at, flag from notes where title = $1 or id = any($2) order by id";

  it("answers a repeated read exactly like the ordinary path, from a statement prepared on its second use", async () => {
    const params = ['it\'s "quoted" \\ back', [1]];
    const expected = await raw.query(select, params, { rowMode: "array" });
    const first = await client.query(select, params, { rowMode: "array" });
    expect(await prepared()).toEqual([]);
    const second = await client.query(select, params, { rowMode: "array" });
    const third = await client.query(select, params, { rowMode: "array" });
    expect(await prepared()).toHaveLength(1);
    for (const result of [first, second, third]) expect(result.rows).toEqual(expected.rows);
    expect(third.rows).toHaveLength(2);
  });

  it("keeps hostile text a value: quotes, backslashes and SQL in a parameter never run", async () => {
    const hostile = "x'); drop table notes; --";
    for (let i = 0; i < 3; i++)
      expect((await client.query("select count(*)::int as n from notes where title = $1", [hostile])).rows).toEqual([{ n: 0 }]);
    for (let i = 0; i < 3; i++)
      expect((await client.query("select count(*)::int as n from notes where title <> $1", ["a\\'b"])).rows).toEqual([{ n: 2 }]);
    expect((await raw.query<{ n: number }>("select count(*)::int as n from notes")).rows[0]!.n).toBe(2);
  });

  it("passes dates, booleans, arrays, JSON and nulls as the ordinary path would", async () => {
    const query =
      "select id from notes where (at = $1 or $1 is null) and flag = $2 and tags && $3 and (data = $4 or $4 is null) order by id";
    const params = [new Date("2026-01-02T03:04:05Z"), true, ["b", "zz"], { k: 1 }];
    for (let i = 0; i < 3; i++) expect((await client.query(query, params)).rows).toEqual([{ id: 1 }]);
    const quoted = ["x,y", 'q"z'];
    for (let i = 0; i < 3; i++) expect((await client.query("select id from notes where tags = $1", [quoted])).rows).toEqual([{ id: 2 }]);
  });

  it("leaves writes, locking reads and values without a text form (bytes) on the ordinary path", async () => {
    const before = (await prepared()).length;
    for (let i = 0; i < 3; i++) await client.query("update notes set flag = flag where id = $1", [1]);
    for (let i = 0; i < 3; i++) await client.query("select id from notes where id = $1 for update", [1]);
    for (let i = 0; i < 3; i++)
      expect((await client.query<{ bytes: Uint8Array }>("select length($1::bytea) as bytes", [new Uint8Array([1, 2])])).rows).toEqual([
        { bytes: 2 },
      ]);
    expect((await prepared()).length).toBe(before);
    // A parameter PostgreSQL reads as text without a cast works either way.
    for (let i = 0; i < 3; i++) expect((await client.query("select $1 as value", ["untyped"])).rows).toEqual([{ value: "untyped" }]);
  });

  it("writes literals with quotes doubled and arrays escaped", () => {
    expect(literal("it's")).toBe("'it''s'");
    expect(literal(null)).toBe("null");
    expect(literal(5)).toBe("'5'");
    expect(literal(false)).toBe("'f'");
    expect(literal(['a"b', null, "c\\d"])).toBe(`'{"a\\"b",NULL,"c\\\\d"}'`);
    expect(literal(new Uint8Array([1]))).toBeUndefined();
  });
});
