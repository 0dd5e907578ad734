import { parseArgs } from "node:util";
import "../features/registrations.ts";
import pg from "pg";
import { openServerDatabase } from "../server/db/client.ts";
import { seedCircleTree } from "../features/circles/seed.ts";
import { hashPassword } from "../features/accounts/passwords.server.ts";
import { renderInThisThread } from "../features/content/pipeline.server.ts";
import { rebuildIndex } from "../features/search/indexer.ts";

/**
 * `npm run seed:scale -- --factor 0.01|1`: realistic data for measuring pages at scale, written
 * into the PostgreSQL database named by DATABASE_URL (never the embedded demo store). Factor 1:
 * 10,000 users, ~200 circles in a tree, 100,000 writings (articles, serialized articles, posts,
 * 5% with a second language version) with HTML rendered by the real pipeline, 2,000 books with
 * 20,000 chapters, 20,000 entries with aliases, 300,000 comments (a fifth of them replies),
 * ~100,000 follows, ~30,000 memberships and their events. A handful of bodies are rendered once
 * and reused; every table is filled by one INSERT … SELECT over generate_series, so factor 1
 * takes a minute or two. Every user's password is `scale12345`; `scale_u1` is the bench's reader.
 * Migrates first, like `npm start`; refuses a database that already holds scale data.
 */
export const scalePassword = "scale12345";
export const scaleReader = "scale_u1";

const bodies = [
  {
    language: "zh-CN",
    markdown:
      "## 引言\n\n直角三角形两条直角边的平方和等于斜边的平方：\n\n$$\na^2 + b^2 = c^2\n$$\n\n## 证明\n\n把四个全等的直角三角形拼进边长为 $a+b$ 的正方形，中间留下边长为 $c$ 的正方形。\n\n```python\nfor a in range(1, 30):\n    for b in range(a, 30):\n        c = (a * a + b * b) ** 0.5\n        if c.is_integer():\n            print(a, b, int(c))\n```\n\n## 小结\n\n- 面积拼补\n- 相似三角形\n- 总统证法\n",
  },
  {
    language: "en",
    markdown:
      "## Keep one invariant\n\nEverything left of `low` is smaller than the target; everything from `high` on is not.\n\n```ts\nexport function lowerBound(items: number[], target: number): number {\n  let low = 0;\n  let high = items.length;\n  while (low < high) {\n    const middle = low + ((high - low) >> 1);\n    if (items[middle]! < target) low = middle + 1;\n    else high = middle;\n  }\n  return low;\n}\n```\n\n| Input | Target | Result |\n| --- | --- | --- |\n| [1, 3, 3, 7] | 3 | 1 |\n| [1, 3, 3, 7] | 4 | 3 |\n",
  },
  {
    language: "zh-CN",
    markdown:
      "海岛上的灯塔已经亮了一百二十年。\n\n老周接手的那天，前任看守人只留下一本航海日志和一句话：“灯不能灭。”\n\n> 第一页写着：风从东南来的夜晚，要多添一次油。\n\n他在灯下坐了一夜，听见海浪一遍遍拍打礁石，像是有人在敲门。\n\n天亮的时候，远处出现了一艘没有挂旗的船。\n",
  },
  {
    language: "zh-CN",
    markdown: "今天在图书馆读完了《几何原本》的第一卷，公设五的表述比想象中绕得多。有没有人推荐一本讲非欧几何历史的书？\n",
  },
  {
    language: "en",
    markdown:
      "# Notes on caching\n\n1. Name what a page shows with tags.\n2. Drop the tags when a write commits.\n3. Never guess a time to live for data you can invalidate.\n\nA cache that is dropped by tag stays **correct** and *fast*; see [the guide](https://example.com/guide).\n\n$$\n\\text{hit rate} = \\frac{\\text{hits}}{\\text{hits} + \\text{misses}}\n$$\n",
  },
  {
    language: "zh-CN",
    markdown:
      "## 实验记录\n\n| 日期 | 温度 | 结果 |\n| --- | --- | --- |\n| 3 月 1 日 | 21 °C | 正常 |\n| 3 月 2 日 | 23 °C | 偏高 |\n\n### 讨论\n\n温度升高时反应速率按 $k = A e^{-E_a/RT}$ 增大，与阿伦尼乌斯方程一致。\n\n```js\nconst rate = (a, ea, t) => a * Math.exp(-ea / (8.314 * t));\n```\n",
  },
] as const;

const entryWords = ["定理", "引理", "算法", "Theorem", "Lemma", "Algorithm", "Graph", "函数", "Protocol", "数列"];

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { factor: { type: "string", default: "0.01" } } });
  const factor = Number(values.factor);
  if (!Number.isFinite(factor) || factor <= 0 || factor > 10) {
    console.error("Usage: npm run seed:scale -- --factor <0 < factor <= 10> (0.01 or 1)");
    return 2;
  }
  const url = process.env.DATABASE_URL;
  if (!url || !/^postgres(ql)?:\/\//.test(url)) {
    console.error(
      "DATABASE_URL must name a PostgreSQL database (e.g. postgres://postgres@127.0.0.1:5432/scale_1): scale data never goes into the embedded demo store.",
    );
    return 2;
  }
  const started = Date.now();
  const step = (what: string) => console.log(`${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s  ${what}`);

  const handle = await openServerDatabase(url, 1);
  await handle.migrate();
  await seedCircleTree(handle.db);
  await handle.close();
  step("migrated, circle tree seeded");

  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const query = (text: string, params: unknown[] = []) => client.query(text, params);
  try {
    const existing = await query("select 1 from users where username = $1", [scaleReader]);
    if (existing.rowCount) {
      console.error("This database already holds scale data: use a fresh one (createdb -h 127.0.0.1 -U postgres scale_1).");
      return 1;
    }
    const count = (n: number, min = 1) => Math.max(min, Math.round(n * factor));
    const userCount = count(10_000, 20);
    const writingCount = count(100_000, 20);
    const chapterCount = count(20_000, 10);
    const bookCount = Math.max(1, Math.ceil(chapterCount / 10));
    const entryCount = count(20_000, 10);
    const commentCount = count(300_000, 30);

    await query("select setseed(0.19)");
    await query("begin");

    // Users: one password hash for all (hashing 10,000 would take minutes).
    const passwordHash = await hashPassword(scalePassword);
    const users = await query(
      `insert into users (username, nickname, email, password_hash, gender, country, created_at)
       select 'scale_u' || g, '读者' || g, 'scale_u' || g || '@example.com', $1, 'secret', 'CN', now() - random() * interval '730 days'
       from generate_series(1, $2::integer) g
       returning id`,
      [passwordHash, userCount],
    );
    const firstUser = Math.min(...users.rows.map((row: { id: number }) => row.id));
    await query("insert into unread_counters (user_id) select id from users where id >= $1 on conflict do nothing", [firstUser]);
    step(`${userCount} users`);

    // Circles: ~200 in a tree under the seeded ones (a tenth visible to members only).
    const seeded = (await query("select id from circles order by id")).rows.map((row: { id: number }) => row.id);
    const extra = Math.max(2, Math.round(200 * factor) - seeded.length);
    const firstTier: number[] = [];
    for (let index = 1; index <= extra; index += 1) {
      const parent =
        index <= Math.ceil(extra * 0.3) || firstTier.length === 0
          ? seeded[1 + (index % (seeded.length - 1))]!
          : firstTier[index % firstTier.length]!;
      const visibility = index % 10 === 0 ? "members" : "public";
      const [row] = (
        await query(
          `insert into circles (parent_id, name_zh, name_en, description_zh, description_en, visibility, position, created_by)
           values ($1, $2, $3, $4, $5, $6, $7, $8) returning id`,
          [
            parent,
            `规模圈子 ${index}`,
            `Scale circle ${index}`,
            `第 ${index} 个测试圈子`,
            `Test circle number ${index}`,
            visibility,
            index,
            firstUser,
          ],
        )
      ).rows as { id: number }[];
      if (index <= Math.ceil(extra * 0.3)) firstTier.push(row!.id);
    }
    const circleIds = (await query("select id from circles where visibility = 'public' order by id")).rows.map(
      (row: { id: number }) => row.id,
    );
    step(`${extra} circles (${seeded.length + extra} in the tree)`);

    // A few bodies rendered once by the real pipeline, reused by every writing and chapter.
    await query(
      "create temporary table scale_bodies (k integer, language text, markdown text, html text, toc jsonb, excerpt text, text_length integer, reading_minutes integer) on commit drop",
    );
    for (const [k, body] of bodies.entries()) {
      const rendered = await renderInThisThread(body.markdown, { locale: body.language, excerptLength: 140 });
      await query("insert into scale_bodies values ($1, $2, $3, $4, $5, $6, $7, $8)", [
        k,
        body.language,
        body.markdown,
        rendered.html,
        JSON.stringify(rendered.toc),
        rendered.excerpt,
        rendered.textLength,
        rendered.readingMinutes,
      ]);
    }
    step(`${bodies.length} bodies rendered`);

    // Writings: 60% articles, 15% serialized, 25% posts, published over the last year (more of them recently).
    const written = await query(
      `insert into writings (circle_id, author_id, type, kind, language, title, markdown, html, toc, excerpt, text_length, reading_minutes, views, published_at)
       select c.ids[1 + floor(r.c * array_length(c.ids, 1))::integer], $2::integer + floor(r.u * $3::integer)::integer,
              case when r.t < 0.6 then 'article' when r.t < 0.75 then 'serial' else 'post' end,
              case when r.t < 0.3 then 'ordinary' when r.t < 0.5 then 'popular_science' else 'note' end,
              b.language, case when b.language = 'en' then 'Scale writing ' || r.g else '规模测试文章 ' || r.g end,
              b.markdown, b.html, b.toc, b.excerpt, b.text_length, b.reading_minutes,
              floor(r.v * r.v * 2000)::integer, now() - r.p * r.p * interval '365 days'
       from (select g, random() as c, random() as u, random() as t, random() as v, random() as p from generate_series(1, $4::integer) g) r
       cross join (select $1::integer[] as ids) c
       join scale_bodies b on b.k = r.g % ${bodies.length}
       returning id`,
      [circleIds, firstUser, userCount, writingCount],
    );
    const writingIds = written.rows.map((row: { id: number }) => row.id);
    const firstWriting = Math.min(...writingIds);
    await query(
      `insert into writings (circle_id, author_id, type, kind, language, translation_of, title, markdown, html, toc, excerpt, text_length, reading_minutes, published_at)
       select circle_id, author_id, type, kind, case when language = 'en' then 'zh-CN' else 'en' end, id, title || ' (2)', markdown, html, toc, excerpt, text_length, reading_minutes, published_at + interval '1 hour'
       from writings where id >= $1 and id % 20 = 0`,
      [firstWriting],
    );
    step(`${writingCount} writings and their second language versions`);

    // Books of ten chapters each.
    const booked = await query(
      `insert into books (circle_id, author_id, name, description, state, views, created_at, updated_at)
       select c.ids[1 + floor(random() * array_length(c.ids, 1))::integer], $2::integer + floor(random() * $3::integer)::integer,
              '规模测试书 ' || g, '一本用于测量的书', case when g % 3 = 0 then 'completed' else 'updating' end,
              floor(random() * 500)::integer, now() - random() * interval '365 days', now() - random() * interval '30 days'
       from generate_series(1, $4::integer) g cross join (select $1::integer[] as ids) c
       returning id`,
      [circleIds, firstUser, userCount, bookCount],
    );
    const firstBook = Math.min(...booked.rows.map((row: { id: number }) => row.id));
    await query(
      `insert into book_chapters (book_id, number, title, markdown, html, toc, text_length, reading_minutes)
       select $1::integer + (g - 1) / 10, (g - 1) % 10 + 1, '第 ' || ((g - 1) % 10 + 1) || ' 章', b.markdown, b.html, b.toc, b.text_length, b.reading_minutes
       from generate_series(1, $2::integer) g join scale_bodies b on b.k = g % ${bodies.length}`,
      [firstBook, chapterCount],
    );
    step(`${bookCount} books, ${chapterCount} chapters`);

    // Entries with up to three aliases, plus a few named ones every scale has (the search bench looks for them).
    await query(
      `insert into encyclopedia_entries (circle_id, name, aliases, disambiguation, description, description_html, language, creator_id, created_at)
       select c.ids[1 + floor(random() * array_length(c.ids, 1))::integer],
              w.words[1 + g % array_length(w.words, 1)] || ' ' || g,
              (array[]::text[] || case when g % 2 = 0 then array['alias ' || g] else array[]::text[] end
                               || case when g % 3 = 0 then array['别名 ' || g, 'aka-' || md5(g::text)] else array[]::text[] end),
              case when g % 7 = 0 then '消歧义 ' || g else null end,
              '一个用于测量的词条。', '<p>一个用于测量的词条。</p>',
              case when g % 4 = 0 then 'en' else 'zh-CN' end,
              $2::integer + floor(random() * $3::integer)::integer, now() - random() * interval '365 days'
       from generate_series(1, $4::integer) g cross join (select $1::integer[] as ids) c cross join (select $5::text[] as words) w`,
      [circleIds, firstUser, userCount, entryCount, entryWords],
    );
    await query(
      `insert into encyclopedia_entries (circle_id, name, aliases, description, description_html, language, creator_id)
       values ($1, 'Pythagorean theorem', array['Pythagoras theorem', '勾股定理'], '', '', 'en', $2),
              ($1, '毕达哥拉斯定理', array['Pythagorean identity', '商高定理'], '', '', 'zh-CN', $2),
              ($1, 'Binary search', array['half-interval search'], '', '', 'en', $2)`,
      [circleIds[0], firstUser],
    );
    step(`${entryCount} entries`);

    // Comments: four fifths top-level on writings (recent ones draw more), a fifth replies to them.
    const topLevel = Math.round(commentCount * 0.8);
    await query(
      `insert into comments (subject_type, subject_id, author_id, body, created_at)
       select 'writing', $1::integer + floor(power(random(), 0.5) * $2::integer)::integer, $3::integer + floor(random() * $4::integer)::integer,
              case g % 4 when 0 then '写得很清楚，谢谢分享！' when 1 then 'Great explanation, thanks.' when 2 then '第二个证明没看懂，能再展开一下吗？' else '收藏了。' end,
              now() - random() * interval '200 days'
       from generate_series(1, $5::integer) g`,
      [firstWriting, writingCount, firstUser, userCount, topLevel],
    );
    await query(
      `insert into comments (subject_type, subject_id, author_id, parent_id, reply_to_user_id, body, created_at)
       select c.subject_type, c.subject_id, $1::integer + floor(random() * $2::integer)::integer, c.id, c.author_id, '同意楼上。', c.created_at + interval '1 hour'
       from comments c where c.parent_id is null order by random() limit $3`,
      [firstUser, userCount, commentCount - topLevel],
    );
    step(`${commentCount} comments`);

    // Follows (about ten each) and memberships (about three each).
    await query(
      `insert into follows (follower_id, followee_id, created_at)
       select follower, followee, at from (
         select u.id as follower, $1::integer + floor(random() * $2::integer)::integer as followee, now() - random() * interval '300 days' as at
         from users u cross join generate_series(1, 10) where u.id >= $1
       ) picked where follower <> followee
       on conflict do nothing`,
      [firstUser, userCount],
    );
    await query(
      `insert into circle_members (circle_id, user_id, role, joined_at)
       select c.ids[1 + floor(random() * array_length(c.ids, 1))::integer], u.id, 'member', now() - random() * interval '300 days'
       from users u cross join generate_series(1, 3) cross join (select $2::integer[] as ids) c where u.id >= $1
       on conflict do nothing`,
      [firstUser, circleIds],
    );
    step("follows and memberships");

    // The events those rows would have written.
    await query(
      `insert into events (actor_id, verb, subject_type, subject_id, data, created_at)
       select id, 'user.registered', 'user', id, '{}', created_at from users where id >= $1`,
      [firstUser],
    );
    await query(
      `insert into events (actor_id, verb, subject_type, subject_id, recipient_ids, data, created_at)
       select follower_id, 'user.followed', 'user', followee_id, array[followee_id], '{}', created_at from follows`,
    );
    await query(
      `insert into events (actor_id, verb, subject_type, subject_id, data, created_at)
       select user_id, 'circle.joined', 'circle', circle_id, '{}', joined_at from circle_members where user_id >= $1`,
      [firstUser],
    );
    await query(
      `insert into events (actor_id, verb, subject_type, subject_id, data, created_at)
       select author_id, 'writing.published', 'writing', id,
              jsonb_build_object('circleId', circle_id, 'type', type, 'language', language, 'translationOf', translation_of, 'seriesId', series_id),
              published_at
       from writings where id >= $1`,
      [firstWriting],
    );
    await query(
      `insert into events (actor_id, verb, subject_type, subject_id, recipient_ids, data, created_at)
       select author_id, 'comment.created', 'comment', id, case when reply_to_user_id is null then array[]::integer[] else array[reply_to_user_id] end,
              jsonb_build_object('subjectType', subject_type, 'subjectId', subject_id, 'parentId', parent_id, 'replyToUserId', reply_to_user_id),
              created_at
       from comments`,
    );
    step("events");

    // Comment counts and Hot scores, as the hourly recompute leaves them.
    await query("update hot_clock set reference_at = now() where id = 1");
    await query(
      `update writings w set comment_count = counted.comments
       from (select subject_id, count(*)::integer as comments from comments where subject_type = 'writing' and deleted_at is null group by subject_id) counted
       where counted.subject_id = w.id`,
    );
    // Every subject's comment count beside its likes, with its author (features/comments/handlers.ts keeps it).
    await query(
      `insert into subject_counts (subject_type, subject_id, author_id, comment_count)
       select c.subject_type, c.subject_id, w.author_id, count(*)::integer
       from comments c join writings w on w.id = c.subject_id
       where c.subject_type = 'writing' and c.deleted_at is null
       group by c.subject_type, c.subject_id, w.author_id
       on conflict (subject_type, subject_id) do update set comment_count = excluded.comment_count`,
    );
    await query("commit");
    step("comment counts and Hot scores");
    // Vacuum too: it empties the GIN indexes' pending lists, which searches would otherwise scan.
    await query("vacuum analyze");
    step("vacuumed and analyzed");
    // The rows above were written without events: the search index is built from them once.
    const indexing = await openServerDatabase(url, 1);
    const indexed = await rebuildIndex(indexing.db, () => {}, 500);
    await indexing.close();
    await query("vacuum analyze search_documents");
    step(`search index: ${indexed} subjects`);
    const totals = await query(
      `select (select count(*) from users) users, (select count(*) from circles) circles, (select count(*) from writings) writings,
              (select count(*) from book_chapters) chapters, (select count(*) from encyclopedia_entries) entries,
              (select count(*) from comments) comments, (select count(*) from follows) follows,
              (select count(*) from circle_members) memberships, (select count(*) from events) events`,
    );
    console.log(totals.rows[0]);
    console.log(`Sign in as ${scaleReader} / ${scalePassword}.`);
    return 0;
  } catch (error) {
    await query("rollback").catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
}

process.exitCode = await main();
